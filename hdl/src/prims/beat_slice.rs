//! [`BeatSlice`]: a register slice (skid buffer) for a valid/ready stream of beats: it cuts
//! every combinational path between the two sides without losing a cycle per beat.

use rust_hdl::core::prelude::*;

/// A two-entry register slice for beats of `W` data bits, `S` strobe bits and a last flag.
///
/// `out_*` come from registers and `in_ready` from a register (the entry count), so neither
/// side's handshake reaches the other in the same cycle: a stream of one beat per cycle
/// passes at one beat per cycle (with `out_ready` high the slice holds one entry, taking a
/// beat and giving one every cycle), one cycle later. The second entry is the skid: the beat
/// taken in the cycle `out_ready` went low. `rst` empties it (the entries keep stale data,
/// which nothing reads while `out_valid` is low).
#[derive(LogicBlock, Default)]
pub struct BeatSlice<const W: usize, const S: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty.
    pub rst: Signal<In, Bit>,
    /// Beat data in.
    pub in_data: Signal<In, Bits<W>>,
    /// Beat strobes in.
    pub in_strb: Signal<In, Bits<S>>,
    /// Beat last flag in.
    pub in_last: Signal<In, Bit>,
    /// Beat in valid.
    pub in_valid: Signal<In, Bit>,
    /// Beat in taken (a register: the slice is not full).
    pub in_ready: Signal<Out, Bit>,
    /// Beat data out (the oldest entry; stale while `out_valid` is low).
    pub out_data: Signal<Out, Bits<W>>,
    /// Beat strobes out.
    pub out_strb: Signal<Out, Bits<S>>,
    /// Beat last flag out.
    pub out_last: Signal<Out, Bit>,
    /// Beat out valid (a register: the slice is not empty).
    pub out_valid: Signal<Out, Bit>,
    /// Beat out taken.
    pub out_ready: Signal<In, Bit>,
    _mem: [(Bits<W>, Bits<S>, bool); 2],
    _n: usize,
}

impl<const W: usize, const S: usize> Logic for BeatSlice<W, S> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let push = self.in_valid.val() && self._n < 2;
            let pop = self.out_ready.val() && self._n > 0;
            let beat = (self.in_data.val(), self.in_strb.val(), self.in_last.val());
            if pop {
                self._mem[0] = self._mem[1];
            }
            let at = self._n - usize::from(pop);
            if push {
                self._mem[at] = beat;
            }
            self._n = if self.rst.val() {
                0
            } else {
                at + usize::from(push)
            };
        }
        (self.out_data.next, self.out_strb.next, self.out_last.next) = self._mem[0];
        self.out_valid.next = self._n > 0;
        self.in_ready.next = self._n < 2;
    }
    fn connect(&mut self) {
        self.in_ready.connect();
        self.out_data.connect();
        self.out_strb.connect();
        self.out_last.connect();
        self.out_valid.connect();
    }
    fn hdl(&self) -> Verilog {
        let b = W + S + 1;
        Verilog::Custom(format!(
            "\
// Two entries {{last, strb, data}}; n counts them (0, 1, 2).
reg [{hi}:0] m0;
reg [{hi}:0] m1;
reg [1:0] n;
wire push = in_valid & ~n[1];
wire pop = out_ready & (n != 2'd0);
initial begin
   n = 2'd0;
   m0 = {b}'d0;
   m1 = {b}'d0;
end
always @(posedge clock) begin
   if (rst) n <= 2'd0;
   else n <= n + {{1'b0, push}} - {{1'b0, pop}};
   // The beat lands behind the entries that stay: in m0 when none stays, else in m1.
   if (push & ((n == 2'd0) | ((n == 2'd1) & pop))) m0 <= {{in_last, in_strb, in_data}};
   else if (pop) m0 <= m1;
   if (push & (n == 2'd1) & ~pop) m1 <= {{in_last, in_strb, in_data}};
end
always @(*) begin
   out_data = m0[{dh}:0];
   out_strb = m0[{sh}:{W}];
   out_last = m0[{hi}];
   out_valid = n != 2'd0;
   in_ready = ~n[1];
end",
            hi = b - 1,
            dh = W - 1,
            sh = W + S - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prims::verilog_check::{check, record, recording};
    use crate::testutil::{clock_cycle, settle, XorShift64};
    use std::collections::VecDeque;

    /// Random offers and takes (`idle_pct`, `stall_pct` of the cycles) against a queue model:
    /// every beat comes out once, in order, and the handshakes follow the registers.
    /// Returns (beats out, cycles).
    fn run(uut: &mut BeatSlice<16, 2>, seed: u64, idle_pct: u64, stall_pct: u64) -> (u64, u64) {
        let mut rng = XorShift64::new(seed);
        let mut model = VecDeque::new();
        uut.rst.next = true;
        clock_cycle!(uut);
        uut.rst.next = false;
        let (mut sent, mut got) = (0u64, 0u64);
        let cycles = 400;
        for _ in 0..cycles {
            uut.in_valid.next = !rng.chance(idle_pct);
            uut.in_data.next = sent.into();
            uut.in_strb.next = (sent % 4).into();
            uut.in_last.next = sent.is_multiple_of(5);
            uut.out_ready.next = !rng.chance(stall_pct);
            settle(uut);
            record(uut);
            assert_eq!(uut.in_ready.val(), model.len() < 2, "in_ready");
            assert_eq!(uut.out_valid.val(), !model.is_empty(), "out_valid");
            let pop = uut.out_valid.val() && uut.out_ready.val();
            if pop {
                let h: u64 = model.pop_front().unwrap();
                assert_eq!(uut.out_data.val().to_u64(), h, "data");
                assert_eq!(uut.out_strb.val().to_u64(), h % 4, "strb");
                assert_eq!(uut.out_last.val(), h.is_multiple_of(5), "last");
                got += 1;
            }
            if uut.in_valid.val() && uut.in_ready.val() {
                model.push_back(sent);
                sent += 1;
            }
            clock_cycle!(uut);
        }
        (got, cycles)
    }

    #[test]
    fn passes_every_beat_in_order() {
        for (seed, idle, stall) in [(1, 30, 30), (2, 0, 50), (3, 50, 0), (4, 10, 80)] {
            let mut uut = BeatSlice::<16, 2>::default();
            uut.connect_all();
            let (got, _) = run(&mut uut, seed, idle, stall);
            assert!(got > 50, "seed {seed}: only {got} beats");
        }
    }

    #[test]
    fn one_beat_per_cycle_when_neither_side_waits() {
        let mut uut = BeatSlice::<16, 2>::default();
        uut.connect_all();
        let (got, cycles) = run(&mut uut, 5, 0, 0);
        // The first beat comes out one cycle after it went in.
        assert_eq!(got, cycles - 1);
    }

    #[test]
    fn verilog_matches_rust_simulation() {
        let trace = recording(|| {
            let mut uut = BeatSlice::<16, 2>::default();
            uut.connect_all();
            run(&mut uut, 7, 30, 40);
        });
        let block =
            crate::emit::standalone_block(BeatSlice::<16, 2>::default(), "cdma_beat_slice", &[]);
        check(&block, &trace);
    }
}
