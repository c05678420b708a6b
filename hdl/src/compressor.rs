//! `ZvcCompressor`: one 32-element block per beat in, packed ZVC payload beats out.
//!
//! Pipeline (2 cycles of latency, one block per cycle at any sparsity while `out_ready`):
//! 1. *Input register* (`r1_*`): the raw block.
//! 2. *Encode and pack* (the register-free datapath child, from registers only): the 32-bit
//!    mask (lane `i` non-zero), the non-zero elements compacted to lanes `0..pop` by the
//!    [`ZvcSteer`] network (5 stages of one 2:1 choice per lane), the encoded block
//!    `{data, mask}`: `M` mask lanes then `pop` elements, `L = M + pop ≤ P` lanes, zero above
//!    `L`; shifted up by the `h < P` lanes of the holding register (zero above `h`) it gives
//!    the low `P` lanes (OR-ed with the holding register: the next beat) and the lanes above
//!    `P`. If `h + L ≥ P` the low lanes leave as a full beat and the high lanes become the
//!    new holding register, otherwise the low lanes are held. On `in_last` the packer
//!    flushes: a final beat with `out_count = h + L` when that is `≤ P`, else a full beat and
//!    then, one cycle later, the `h + L - P` leftover lanes (the only case where the block
//!    takes two output beats). Unused lanes of a partial beat are zero.
//! 3. *Output register* (`o_*`) drives the outputs.
//!
//! Backpressure: `in_ready = !r1_valid | take`, where the packer `take`s the registered block
//! when the output register is free or the block does not produce a beat; so `in_ready`
//! depends combinationally on `out_ready` (no loop: nothing depends on `in_valid`).
//!
//! Simulation speed: the top's own combinational block reads the handshake inputs, so a
//! simulator (Verilator) re-runs it on every `eval()`; it only decides 1-bit controls. The
//! wide logic sits in the datapath child, which reads registers only (evaluated once per
//! clock edge), and the wide registers are [`EnReg`]s loaded straight from it.

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::prims::{Compact, EnReg, Join, LaneAny};
use crate::steer::{ZvcSteer, CNT};

/// Port documentation of the compressor, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static COMPRESSOR_PORTS: PortDocs = PortDocs::new(include_str!("compressor.rs"), "$name");

macro_rules! zvc_compressor {
    (
        $(#[$doc:meta])*
        $name:ident, $dp:ident, e: $e:tt, lg: $lg:tt, m: $m:tt, p: $p:tt,
        bw: $bw:tt, pw: $pw:tt
    ) => {
        /// The compressor's wide combinational datapath (encode and packer word), a child
        /// block without registers: its inputs are all registers of the parent, so a
        /// simulator (Verilator) evaluates it once per clock edge instead of on every input
        /// change.
        #[derive(LogicBlock)]
        pub struct $dp {
            /// The registered raw block.
            pub x: Signal<In, Bits<$bw>>,
            /// Holding register lanes (zero above `h_cnt`).
            pub h_data: Signal<In, Bits<$pw>>,
            /// Valid lanes in `h_data` (`< P`).
            pub h_cnt: Signal<In, Bits<CNT>>,
            /// The registered block is the tensor's last.
            pub last: Signal<In, Bit>,
            /// The packer owes the second beat of an overflowing last block.
            pub flush: Signal<In, Bit>,
            /// `h_cnt + M + popcount(mask)`: valid lanes of holding register plus block.
            pub total: Signal<Out, Bits<CNT>>,
            /// Taking the block produces a beat (`total ≥ P` or last).
            pub emits: Signal<Out, Bit>,
            /// `total > P`: lanes are left over after the beat.
            pub over: Signal<Out, Bit>,
            /// Next holding register when the block is taken and lanes remain: the lanes
            /// above the beat if it `emits`, else the whole word.
            pub h_next: Signal<Out, Bits<$pw>>,
            /// Next output beat: the holding register when flushing, else the low `P` lanes.
            pub o_next: Signal<Out, Bits<$pw>>,
            /// The encoded block `{data, mask}`.
            enc: Signal<Local, Bits<$pw>>,
            /// Lanes `0..P` of holding lanes OR encoded block shifted up by `h_cnt` lanes.
            lo: Signal<Local, Bits<$pw>>,
            /// Lanes `P..2P` of the same (only the encoded block reaches them).
            hi: Signal<Local, Bits<$pw>>,
            steer: ZvcSteer,
            cat: Join<32, $bw, $pw>,
            any: LaneAny<$e, $bw>,
            net: Compact<$e, $bw>,
            m_cnt: Constant<Bits<CNT>>,
            p_cnt: Constant<Bits<CNT>>,
        }

        impl Default for $dp {
            fn default() -> Self {
                Self {
                    x: Default::default(),
                    h_data: Default::default(),
                    h_cnt: Default::default(),
                    last: Default::default(),
                    flush: Default::default(),
                    total: Default::default(),
                    emits: Default::default(),
                    over: Default::default(),
                    h_next: Default::default(),
                    o_next: Default::default(),
                    enc: Default::default(),
                    lo: Default::default(),
                    hi: Default::default(),
                    steer: Default::default(),
                    cat: Default::default(),
                    any: Default::default(),
                    net: Default::default(),
                    m_cnt: Constant::new($m.into()),
                    p_cnt: Constant::new($p.into()),
                }
            }
        }

        impl Logic for $dp {
            #[hdl_gen]
            fn update(&mut self) {
                // ---- encode: mask (constant part-selects), compaction, {data, mask}
                self.any.x.next = self.x.val();
                self.steer.mask.next = self.any.y.val();
                self.net.d.next = self.x.val();
                for k in 0..5 {
                    self.net.mv[k].next = self.steer.mv[k].val();
                }
                // Lanes holding an element after the last stage: those that stayed in it and
                // those that moved in it.
                self.net.keep.next = self.steer.st[4].val() | (self.steer.mv[4].val() >> 16);
                self.cat.lo.next = self.any.y.val();
                self.cat.hi.next = self.net.y.val();
                // ---- packer: the encoded block shifted up by h_cnt lanes, split at lane P
                // into the part that fills the beat (OR-ed over the holding lanes) and the
                // part that spills over (two P-lane shifters; no 2P-lane word is built).
                self.enc.next = self.cat.y.val();
                self.lo.next = self.h_data.val() | (self.enc.val() << (self.h_cnt.val() << $lg));
                self.hi.next = self.enc.val() >> ((self.p_cnt.val() - self.h_cnt.val()) << $lg);
                self.total.next = self.h_cnt.val() + self.m_cnt.val() + self.steer.pop.val();
                self.emits.next = (self.total.val() >= self.p_cnt.val()) | self.last.val();
                self.over.next = self.total.val() > self.p_cnt.val();
                self.h_next.next = self.lo.val();
                if self.emits.val() {
                    self.h_next.next = self.hi.val();
                }
                self.o_next.next = self.lo.val();
                if self.flush.val() {
                    self.o_next.next = self.h_data.val();
                }
            }
        }

        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// One 32-element block, element i in lane i (bits [i*E +: E]); a partial final block
            /// is zero-padded.
            pub in_data: Signal<In, Bits<$bw>>,
            /// This block is the last of the tensor: flush the packer.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: `in_data`/`in_last` are valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the block is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Packed payload beat: stream element k of the beat in lane k (unused lanes zero).
            pub out_data: Signal<Out, Bits<$pw>>,
            /// Valid lanes in this beat (P except on a final partial beat; never 0).
            pub out_count: Signal<Out, Bits<7>>,
            /// Last beat of the tensor's payload.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: `out_data`/`out_count`/`out_last` are valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            // --- input register (the raw block) and the datapath behind it
            r1_valid: DFF<Bit>,
            r1_last: DFF<Bit>,
            r1_data: EnReg<$bw>,
            dp: $dp,
            // --- packer control
            take: Signal<Local, Bit>,
            out_free: Signal<Local, Bit>,
            h_data: EnReg<$pw>,
            h_cnt: DFF<Bits<CNT>>,
            flush: DFF<Bit>,
            // --- output register
            o_valid: DFF<Bit>,
            o_last: DFF<Bit>,
            o_data: EnReg<$pw>,
            o_count: DFF<Bits<7>>,
            // --- constants
            zero_cnt: Constant<Bits<CNT>>,
            p_cnt: Constant<Bits<CNT>>,
            p_count: Constant<Bits<7>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    in_data: Default::default(),
                    in_last: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_data: Default::default(),
                    out_count: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    r1_valid: Default::default(),
                    r1_last: Default::default(),
                    r1_data: Default::default(),
                    dp: Default::default(),
                    take: Default::default(),
                    out_free: Default::default(),
                    h_data: Default::default(),
                    h_cnt: Default::default(),
                    flush: Default::default(),
                    o_valid: Default::default(),
                    o_last: Default::default(),
                    o_data: Default::default(),
                    o_count: Default::default(),
                    zero_cnt: Constant::new(0.into()),
                    p_cnt: Constant::new($p.into()),
                    p_count: Constant::new($p.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, r1_valid, r1_last, h_cnt, flush, o_valid, o_last, o_count
                );
                // Wide registers: data wired straight in, only their 1-bit load/clear
                // controls are decided here (see `EnReg`).
                self.r1_data.clock.next = self.clock.val();
                self.h_data.clock.next = self.clock.val();
                self.o_data.clock.next = self.clock.val();
                self.r1_data.d.next = self.in_data.val();
                self.h_data.d.next = self.dp.h_next.val();
                self.o_data.d.next = self.dp.o_next.val();
                self.r1_data.en.next = false;
                self.r1_data.clr.next = false;
                self.h_data.en.next = false;
                self.h_data.clr.next = false;
                self.o_data.en.next = false;
                self.o_data.clr.next = false;
                // The wide datapath only sees registers (see the datapath block's doc).
                self.dp.x.next = self.r1_data.q.val();
                self.dp.h_data.next = self.h_data.q.val();
                self.dp.h_cnt.next = self.h_cnt.q.val();
                self.dp.last.next = self.r1_last.q.val();
                self.dp.flush.next = self.flush.q.val();
                // ---- pack
                self.out_free.next = !self.o_valid.q.val() | self.out_ready.val();
                self.take.next = self.r1_valid.q.val()
                    & !self.flush.q.val()
                    & (self.out_free.val() | !self.dp.emits.val());
                self.in_ready.next = (!self.r1_valid.q.val() | self.take.val()) & !self.rst.val();
                // ---- output register
                if self.out_ready.val() {
                    self.o_valid.d.next = false;
                }
                if self.flush.q.val() & self.out_free.val() {
                    // Second beat of an overflowing last block: the leftover lanes.
                    self.o_valid.d.next = true;
                    self.o_data.en.next = true;
                    self.o_count.d.next = self.h_cnt.q.val().get_bits::<7>(0);
                    self.o_last.d.next = true;
                    self.h_data.clr.next = true;
                    self.h_cnt.d.next = self.zero_cnt.val();
                    self.flush.d.next = false;
                }
                if self.take.val() {
                    if self.dp.emits.val() {
                        self.o_valid.d.next = true;
                        self.o_data.en.next = true;
                        if self.dp.over.val() {
                            self.o_count.d.next = self.p_count.val();
                            self.o_last.d.next = false;
                            self.h_data.en.next = true;
                            self.h_cnt.d.next = self.dp.total.val() - self.p_cnt.val();
                            self.flush.d.next = self.r1_last.q.val();
                        } else {
                            self.o_count.d.next = self.dp.total.val().get_bits::<7>(0);
                            self.o_last.d.next = self.r1_last.q.val();
                            self.h_data.clr.next = true;
                            self.h_cnt.d.next = self.zero_cnt.val();
                        }
                    } else {
                        self.h_data.en.next = true;
                        self.h_cnt.d.next = self.dp.total.val();
                    }
                    self.r1_valid.d.next = false;
                }
                if self.in_valid.val() & self.in_ready.val() {
                    self.r1_valid.d.next = true;
                    self.r1_last.d.next = self.in_last.val();
                    self.r1_data.en.next = true;
                }
                if self.rst.val() {
                    self.r1_valid.d.next = false;
                    self.h_data.clr.next = true;
                    self.h_cnt.d.next = self.zero_cnt.val();
                    self.flush.d.next = false;
                    self.o_valid.d.next = false;
                }
                self.out_data.next = self.o_data.q.val();
                self.out_count.next = self.o_count.q.val();
                self.out_last.next = self.o_last.q.val();
                self.out_valid.next = self.o_valid.q.val();
            }
        }
    };
}

zvc_compressor!(
    /// ZVC compressor for E = 8 (P = 36 lanes of 8 bits per packed beat).
    ZvcCompressorE8, ZvcCompressorE8Datapath, e: 8, lg: 3, m: 4, p: 36, bw: 256, pw: 288
);
zvc_compressor!(
    /// ZVC compressor for E = 16 (P = 34 lanes of 16 bits per packed beat).
    ZvcCompressorE16, ZvcCompressorE16Datapath, e: 16, lg: 4, m: 2, p: 34, bw: 512, pw: 544
);
zvc_compressor!(
    /// ZVC compressor for E = 32 (P = 33 lanes of 32 bits per packed beat).
    ZvcCompressorE32, ZvcCompressorE32Datapath, e: 32, lg: 5, m: 1, p: 33, bw: 1024, pw: 1056
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    type Beat = (Vec<u64>, usize, bool);

    /// Drives a sequence of tensors through the compressor with random (seeded) valid and
    /// ready patterns and returns the beats it hands over plus the cycle count.
    macro_rules! run_fn {
        ($fname:ident, $ty:ty, $e:expr) => {
            fn $fname(
                tensors: &[Vec<Vec<u64>>],
                valid_pct: u64,
                ready_pct: u64,
                seed: u64,
            ) -> (Vec<Beat>, u64) {
                let e: usize = $e;
                let p = 32 + 32 / e;
                let mut rng = XorShift64::new(seed);
                let mut uut = reset_block!($ty);
                let inputs: Vec<(Vec<u64>, bool)> = tensors
                    .iter()
                    .flat_map(|t| {
                        t.iter()
                            .enumerate()
                            .map(move |(i, b)| (b.clone(), i + 1 == t.len()))
                    })
                    .collect();
                let mut src = Source::new(inputs.len());
                let (mut out, mut cycles, mut lasts) = (vec![], 0, 0);
                while lasts < tensors.len() {
                    assert!(cycles < 20 * inputs.len() as u64 + 100, "compressor hangs");
                    uut.in_valid.next = src.offer(&mut rng, valid_pct);
                    if let Some(i) = src.current() {
                        uut.in_data.next = to_bus(&inputs[i].0, e);
                        uut.in_last.next = inputs[i].1;
                    }
                    uut.out_ready.next = rng.chance(ready_pct);
                    settle(&mut uut);
                    if uut.out_valid.val() && uut.out_ready.val() {
                        let last = uut.out_last.val();
                        out.push((
                            from_bus(uut.out_data.val(), e, p),
                            uut.out_count.val().to_u64() as usize,
                            last,
                        ));
                        lasts += usize::from(last);
                    }
                    src.handshake(uut.in_ready.val());
                    clock_cycle!(&mut uut);
                    cycles += 1;
                }
                assert!(src.done(), "output ended before all input was taken");
                (out, cycles)
            }
        };
    }

    run_fn!(run8, ZvcCompressorE8, 8);
    run_fn!(run32, ZvcCompressorE32, 32);

    fn expected(tensors: &[Vec<Vec<u64>>], e: u32) -> Vec<Beat> {
        tensors.iter().flat_map(|t| reference_beats(t, e)).collect()
    }

    fn mixed_tensor(rng: &mut XorShift64, e: u32, n: usize) -> Vec<Vec<u64>> {
        let pcts = [0, 100, 50, 90, 10, 60, 100, 0, 30];
        (0..n)
            .map(|i| random_block(rng, e, pcts[i % pcts.len()]))
            .collect()
    }

    #[test]
    fn e8_full_rate_matches_reference() {
        let mut rng = XorShift64::new(1);
        let t = vec![mixed_tensor(&mut rng, 8, 12)];
        let (out, cycles) = run8(&t, 100, 100, 7);
        assert_eq!(out, expected(&t, 8));
        // One block per cycle: 12 blocks, 2 cycles of latency, one flush beat at most.
        assert!(cycles <= 12 + 3, "took {cycles} cycles for 12 blocks");
    }

    #[test]
    fn e8_backpressure_and_back_to_back_tensors() {
        let mut rng = XorShift64::new(2);
        // Three tensors: a partial final beat, an exactly full final beat (9 dense blocks of
        // 36 lanes) and one whose last block overflows the beat (flush takes two beats).
        let dense: Vec<Vec<u64>> = (0..9).map(|_| random_block(&mut rng, 8, 0)).collect();
        let overflow = vec![random_block(&mut rng, 8, 40), random_block(&mut rng, 8, 0)];
        let t = vec![mixed_tensor(&mut rng, 8, 5), dense, overflow];
        let want = expected(&t, 8);
        assert!(
            want.iter().any(|b| b.2 && b.1 < 36),
            "case without a partial final beat"
        );
        assert!(
            want.iter().any(|b| b.2 && b.1 == 36),
            "case without a full final beat"
        );
        for seed in [3, 4] {
            let (out, _) = run8(&t, 70, 60, seed);
            assert_eq!(out, want, "seed {seed}");
        }
    }

    #[test]
    fn e32_matches_reference() {
        let mut rng = XorShift64::new(5);
        let t = vec![
            mixed_tensor(&mut rng, 32, 4),
            vec![random_block(&mut rng, 32, 100)],
        ];
        let (out, _) = run32(&t, 80, 70, 6);
        assert_eq!(out, expected(&t, 32));
    }
}
