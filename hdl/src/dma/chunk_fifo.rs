//! `ChunkFifo`: a RAM-based first-word-fall-through FIFO of source beats (the chunk FIFO), between
//! `ChunkScan` and the bus compressor (COMPRESS): it holds two chunks of the largest chunk size, so
//! the read side keeps streaming while the write side waits for a chunk's decision.
//!
//! Hand-written Verilog (a `reg` array with a registered read port, which synthesis maps to
//! block RAM; rust-hdl's `SynchronousFIFO` emits 32-bit literals and a separate RAM block
//! that `verilator -Wall` flags) with a Rust model of the same cycle behaviour for
//! rust-hdl's simulator:
//! * `2^A` RAM entries plus the output register: capacity `2^A + 1` beats;
//! * `in_ready = (count != 2^A) & !rst`, from registers only;
//! * the RAM's head moves into the output register whenever the register is empty or being
//!   taken (`out_valid = ov`), so one beat per cycle flows in and out; latency 2 cycles
//!   (write, then read into the output register).
//!
//! The beat word is `W` bits; the engine stores `{last, chunk_end, bytes[8], data[DW]}`
//! (see [`chunk_fifo_width`]). Depth for [`ENGINE_CHUNK_LOG2_MAX`] = 12: `2·4096/BB` beats
//! ([`chunk_fifo_log2`]); aliases [`ChunkFifoDw128`], [`ChunkFifoDw256`], [`ChunkFifoDw512`],
//! [`ChunkFifoDw1024`].

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;

use super::params::ENGINE_CHUNK_LOG2_MAX;

/// Bits of one chunk-FIFO word of a `dw`-bit bus: data `dw`, valid bytes 8, chunk end 1,
/// last 1.
pub const fn chunk_fifo_width(dw: usize) -> usize {
    dw + 10
}

/// `log2` of the chunk-FIFO depth holding two chunks of `2^chunk_log2_max` bytes in beats of
/// a `dw`-bit bus.
pub const fn chunk_fifo_log2(dw: usize, chunk_log2_max: usize) -> usize {
    chunk_log2_max + 1 - (dw / 8).trailing_zeros() as usize
}

/// The engine's largest chunk, as a `usize` for the depth arithmetic.
const CHUNK_LOG2: usize = ENGINE_CHUNK_LOG2_MAX as usize;

/// The chunk FIFO of a 128-bit bus (`ENGINE_CHUNK_LOG2_MAX` = 12): 512 beats of 138 bits.
pub type ChunkFifoDw128 =
    ChunkFifo<{ chunk_fifo_width(128) }, { chunk_fifo_log2(128, CHUNK_LOG2) }>;
/// The chunk FIFO of a 256-bit bus (`ENGINE_CHUNK_LOG2_MAX` = 12): 256 beats of 266 bits.
pub type ChunkFifoDw256 =
    ChunkFifo<{ chunk_fifo_width(256) }, { chunk_fifo_log2(256, CHUNK_LOG2) }>;
/// The chunk FIFO of a 512-bit bus (`ENGINE_CHUNK_LOG2_MAX` = 12): 128 beats of 522 bits.
pub type ChunkFifoDw512 =
    ChunkFifo<{ chunk_fifo_width(512) }, { chunk_fifo_log2(512, CHUNK_LOG2) }>;
/// The chunk FIFO of a 1024-bit bus (`ENGINE_CHUNK_LOG2_MAX` = 12): 64 beats of 1034 bits.
pub type ChunkFifoDw1024 =
    ChunkFifo<{ chunk_fifo_width(1024) }, { chunk_fifo_log2(1024, CHUNK_LOG2) }>;

/// Port documentation of the chunk FIFO, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static CHUNK_FIFO_PORTS: PortDocs = PortDocs::new(include_str!("chunk_fifo.rs"), "ChunkFifo");

/// RAM FIFO of `2^A` words of `W` bits plus an output register (see the module doc).
#[derive(LogicBlock, Default)]
pub struct ChunkFifo<const W: usize, const A: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the FIFO.
    pub rst: Signal<In, Bit>,
    /// Beat word written.
    pub in_data: Signal<In, Bits<W>>,
    /// Input handshake: `in_data` is valid.
    pub in_valid: Signal<In, Bit>,
    /// The FIFO takes the word this cycle if in_valid (not full, not in reset).
    pub in_ready: Signal<Out, Bit>,
    /// Oldest word (first-word fall-through).
    pub out_data: Signal<Out, Bits<W>>,
    /// Output handshake: `out_data` is valid.
    pub out_valid: Signal<Out, Bit>,
    /// Output handshake: the word is taken this cycle if `out_valid`.
    pub out_ready: Signal<In, Bit>,
    _mem: Vec<Bits<W>>,
    _wp: usize,
    _rp: usize,
    _n: usize,
    _ov: bool,
    _q: Bits<W>,
}

impl<const W: usize, const A: usize> Logic for ChunkFifo<W, A> {
    fn update(&mut self) {
        let depth = 1usize << A;
        if self._mem.len() != depth {
            self._mem = vec![Bits::<W>::default(); depth];
        }
        if self.clock.pos_edge() {
            let push = self.in_valid.val() && self._n != depth && !self.rst.val();
            let pop = self._n != 0 && (!self._ov || self.out_ready.val());
            if pop {
                self._q = self._mem[self._rp];
            }
            if push {
                self._mem[self._wp] = self.in_data.val();
            }
            if self.rst.val() {
                self._wp = 0;
                self._rp = 0;
                self._n = 0;
                self._ov = false;
            } else {
                if push {
                    self._wp = (self._wp + 1) % depth;
                }
                if pop {
                    self._rp = (self._rp + 1) % depth;
                }
                self._n = self._n + usize::from(push) - usize::from(pop);
                if pop {
                    self._ov = true;
                } else if self.out_ready.val() {
                    self._ov = false;
                }
            }
        }
        self.in_ready.next = self._n != depth && !self.rst.val();
        self.out_valid.next = self._ov;
        self.out_data.next = self._q;
    }
    fn connect(&mut self) {
        assert!(
            (1..=16).contains(&A),
            "ChunkFifo: 2^A entries, 1 <= A <= 16"
        );
        self.in_ready.connect();
        self.out_valid.connect();
        self.out_data.connect();
    }
    fn hdl(&self) -> Verilog {
        let d = 1usize << A;
        let n = A + 1;
        Verilog::Custom(format!(
            "\
reg [{w1}:0] mem [0:{d1}];
reg [{a1}:0] wp;
reg [{a1}:0] rp;
reg [{a}:0] n;
reg ov;
reg [{w1}:0] q;
wire push = in_valid & (n != {n}'d{d}) & ~rst;
wire pop = (n != {n}'d0) & (~ov | out_ready);

initial begin
   wp = {A}'d0;
   rp = {A}'d0;
   n = {n}'d0;
   ov = 1'b0;
   q = {W}'d0;
end

always @(posedge clock) begin
   if (push) mem[wp] <= in_data;
   if (pop) q <= mem[rp];
   if (rst) begin
      wp <= {A}'d0;
      rp <= {A}'d0;
      n <= {n}'d0;
      ov <= 1'b0;
   end else begin
      if (push) wp <= wp + {A}'d1;
      if (pop) rp <= rp + {A}'d1;
      n <= n + {{{A}'d0, push}} - {{{A}'d0, pop}};
      if (pop) ov <= 1'b1;
      else if (out_ready) ov <= 1'b0;
   end
end

always @(*) begin
   in_ready = (n != {n}'d{d}) & ~rst;
   out_valid = ov;
   out_data = q;
end
",
            w1 = W - 1,
            d1 = d - 1,
            a1 = A - 1,
            a = A,
        ))
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "chunk_fifo".into(),
            clock: "clock".into(),
            inputs: vec![
                "in_data".into(),
                "in_valid".into(),
                "out_ready".into(),
                "rst".into(),
            ],
            outputs: vec!["in_ready".into(), "out_valid".into(), "out_data".into()],
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;
    use std::collections::VecDeque;

    type Small = ChunkFifo<40, 3>;

    /// Random pushes and pops against a queue model; returns (words out, cycles, max fill).
    fn run(n_words: usize, in_pct: u64, out_pct: u64, seed: u64) -> (u64, usize) {
        let mut rng = XorShift64::new(seed);
        let mut uut = reset_block!(Small);
        let words: Vec<u64> = (0..n_words).map(|_| rng.next() & 0xFF_FFFF_FFFF).collect();
        let mut model = VecDeque::new();
        let (mut wi, mut got, mut cycles, mut max_fill, mut valid) = (0, 0, 0u64, 0, false);
        while got < n_words {
            assert!(cycles < 20 * n_words as u64 + 100, "fifo hangs");
            valid = wi < n_words && (valid || rng.chance(in_pct));
            uut.in_valid.next = valid;
            if wi < n_words {
                uut.in_data.next = words[wi].into();
            }
            uut.out_ready.next = rng.chance(out_pct);
            settle(&mut uut);
            crate::prims::verilog_check::record(&uut);
            if uut.out_valid.val() && uut.out_ready.val() {
                let w: u64 = model.pop_front().expect("output from an empty fifo");
                assert_eq!(uut.out_data.val().to_u64(), w, "word {got}");
                got += 1;
            }
            if valid && uut.in_ready.val() {
                model.push_back(words[wi]);
                wi += 1;
                valid = false;
            }
            max_fill = max_fill.max(model.len());
            assert!(model.len() <= 9, "more than 2^A + 1 words accepted");
            clock_cycle!(&mut uut);
            cycles += 1;
        }
        (cycles, max_fill)
    }

    #[test]
    fn fifo_keeps_order_under_random_handshakes_and_fills_up() {
        let (_, fill) = run(60, 90, 20, 1);
        assert_eq!(fill, 9, "a full FIFO holds 2^A + 1 words");
        run(60, 40, 80, 2);
        run(60, 70, 70, 3);
    }

    #[test]
    fn fifo_streams_one_word_per_cycle() {
        let (cycles, _) = run(40, 100, 100, 4);
        eprintln!("beat fifo: 40 words in {cycles} cycles");
        assert!(cycles <= 40 + 2, "took {cycles} cycles for 40 words");
    }

    #[test]
    fn default_depths_hold_two_chunks() {
        assert_eq!(chunk_fifo_log2(128, 12), 9);
        assert_eq!(chunk_fifo_log2(256, 12), 8);
        assert_eq!(chunk_fifo_log2(512, 12), 7);
        assert_eq!(chunk_fifo_log2(1024, 12), 6);
        assert_eq!(chunk_fifo_width(1024), 1034);
    }

    #[test]
    fn verilog_matches_rust_simulation() {
        use crate::prims::verilog_check::{check, recording};
        let trace = recording(|| {
            run(50, 80, 40, 5);
            // (one run per recording: `run` resets a fresh block)
        });
        check(
            &crate::emit::standalone_block(
                Small::default(),
                "cdma_dma_chunk_fifo_small",
                &CHUNK_FIFO_PORTS,
            ),
            &trace,
        );
    }
}
