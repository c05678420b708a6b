//! `ZvcDecompressor`: packed ZVC payload beats in, one 32-element block per beat out.
//!
//! The mirror of the compressor's packer and network:
//! * a buffer of up to `2P` lanes (`b` valid, zero above `b`) holds the unconsumed stream;
//! * the block at its bottom is complete when `b ≥ M` (the mask is in lanes `0..M`) and
//!   `b ≥ L = M + popcount(mask)`;
//! * a complete block is expanded from lanes `M..M+32` by the [`ZvcSteer`] network run
//!   backwards (MSB stage first, moving up, with the same move vectors as the compressor;
//!   the result is masked with the block's mask, so lanes past the block, which belong to
//!   the next block, never reach the output), registered, and its `L` lanes are shifted
//!   out. The expansion and the buffer shifted by `L` lanes depend on the buffer register
//!   only and live in a register-free child block (evaluated once per clock edge by a
//!   simulator such as Verilator, not on every input change);
//! * a new beat (lanes `in_count..P` forced to zero) is appended above the remaining lanes
//!   when they number `≤ P`, so one block per cycle is sustained at any sparsity: while a
//!   block is incomplete the remainder is `< L ≤ P` and a beat is always taken.
//!
//! End of stream: `in_last` marks the buffer's tail. The block that empties the buffer is
//! `out_last`; no beat of the next tensor is taken before that (except in that very cycle).
//! If the tail cannot form a block (it ends inside a mask or a block), or a beat has
//! `in_count` 0 or `> P`, `error` rises and stays until `rst`; from then on the buffer is
//! cleared, `in_ready` stays high and input is dropped, so a bad stream never hangs its
//! source. A block already in the output register before the error is still delivered.
//!
//! Backpressure: `in_ready` depends combinationally on `out_ready` (through "the bottom
//! block leaves this cycle") and on the buffer's registers, never on `in_valid`.

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::prims::{EnReg, Expand, LaneAny, LaneMask, ZeroExtend};
use crate::steer::{ZvcSteer, CNT};

/// Port documentation of the decompressor, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static DECOMPRESSOR_PORTS: PortDocs = PortDocs::new(include_str!("decompressor.rs"), "$name");

macro_rules! zvc_decompressor {
    (
        $(#[$doc:meta])*
        $name:ident, $dp:ident, e: $e:tt, lg: $lg:tt, m: $m:tt, p: $p:tt,
        bw: $bw:tt, pw: $pw:tt, ww: $ww:tt
    ) => {
        /// The decompressor's wide datapath that depends on the buffer register only: the
        /// bottom block's length, its expansion and the buffer with it removed. A child block
        /// without registers whose inputs are registers, so a simulator (Verilator) evaluates
        /// it once per clock edge instead of on every input change.
        #[derive(LogicBlock)]
        pub struct $dp {
            /// The buffer register (bottom block's mask in lanes `0..M`).
            pub sbuf: Signal<In, Bits<$ww>>,
            /// `M + popcount(mask)`: lanes of the bottom block.
            pub len: Signal<Out, Bits<CNT>>,
            /// The buffer shifted down by `len` lanes (the bottom block removed).
            pub shifted: Signal<Out, Bits<$ww>>,
            /// The bottom block expanded: element `i` in lane `i`.
            pub y: Signal<Out, Bits<$bw>>,
            steer: ZvcSteer,
            net: Expand<$e, $bw>,
            m_cnt: Constant<Bits<CNT>>,
        }

        impl Default for $dp {
            fn default() -> Self {
                Self {
                    sbuf: Default::default(),
                    len: Default::default(),
                    shifted: Default::default(),
                    y: Default::default(),
                    steer: Default::default(),
                    net: Default::default(),
                    m_cnt: Constant::new($m.into()),
                }
            }
        }

        impl Logic for $dp {
            #[hdl_gen]
            fn update(&mut self) {
                self.steer.mask.next = self.sbuf.val().get_bits::<32>(0);
                self.len.next = self.m_cnt.val() + self.steer.pop.val();
                // Expansion: the compaction network backwards (stage 4 first, moving up).
                self.net.d.next = self.sbuf.val().get_bits::<$bw>(32);
                for k in 0..5 {
                    self.net.mv[k].next = self.steer.mv[k].val();
                }
                self.net.keep.next = self.sbuf.val().get_bits::<32>(0);
                self.y.next = self.net.y.val();
                self.shifted.next = self.sbuf.val() >> (self.len.val() << $lg);
            }
        }

        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high; clears `error`.
            pub rst: Signal<In, Bit>,
            /// Packed payload beat (same lane order as the compressor's `out_data`).
            pub in_data: Signal<In, Bits<$pw>>,
            /// Valid lanes in this beat (1..P); lanes at and above in_count are ignored.
            pub in_count: Signal<In, Bits<7>>,
            /// Last beat of the payload.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: `in_data`/`in_count`/`in_last` are valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// One decoded block, element i in lane i (a partial final block comes out
            /// zero-padded).
            pub out_data: Signal<Out, Bits<$bw>>,
            /// Last block of the payload.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: `out_data`/`out_last` are valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the block is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            /// Sticky until rst: the payload ended inside a block (truncated) or in_count was 0 or
            /// > P; input is then dropped with in_ready high.
            pub error: Signal<Out, Bit>,
            // --- buffer and its bottom block
            dp: $dp,
            w_in: ZeroExtend<$pw, $ww>,
            w_cnt: ZeroExtend<7, CNT>,
            sbuf: DFF<Bits<$ww>>,
            b_cnt: DFF<Bits<CNT>>,
            last_seen: DFF<Bit>,
            err: DFF<Bit>,
            len: Signal<Local, Bits<CNT>>,
            have: Signal<Local, Bit>,
            out_free: Signal<Local, Bit>,
            emit: Signal<Local, Bit>,
            finishing: Signal<Local, Bit>,
            trunc: Signal<Local, Bit>,
            rem: Signal<Local, Bits<$ww>>,
            rem_cnt: Signal<Local, Bits<CNT>>,
            bad: Signal<Local, Bit>,
            fire: Signal<Local, Bit>,
            th: Signal<Local, Bits<$p>>,
            tm: LaneMask<$p, $e, $pw>,
            // --- output register
            o_valid: DFF<Bit>,
            o_last: DFF<Bit>,
            o_data: EnReg<$bw>,
            o_mask: DFF<Bits<32>>,
            // --- optional canonical check (`with_zero_check`)
            nz: LaneAny<$e, $bw>,
            zbad: Signal<Local, Bit>,
            zcheck: Constant<Bit>,
            // --- constants
            one_p: Constant<Bits<$p>>,
            zero_p: Constant<Bits<$p>>,
            zero_ww: Constant<Bits<$ww>>,
            zero_cnt: Constant<Bits<CNT>>,
            m_cnt: Constant<Bits<CNT>>,
            p_cnt: Constant<Bits<CNT>>,
            zero_count: Constant<Bits<7>>,
            p_count: Constant<Bits<7>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    in_data: Default::default(),
                    in_count: Default::default(),
                    in_last: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_data: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    error: Default::default(),
                    dp: Default::default(),
                    w_in: Default::default(),
                    w_cnt: Default::default(),
                    sbuf: Default::default(),
                    b_cnt: Default::default(),
                    last_seen: Default::default(),
                    err: Default::default(),
                    len: Default::default(),
                    have: Default::default(),
                    out_free: Default::default(),
                    emit: Default::default(),
                    finishing: Default::default(),
                    trunc: Default::default(),
                    rem: Default::default(),
                    rem_cnt: Default::default(),
                    bad: Default::default(),
                    fire: Default::default(),
                    th: Default::default(),
                    tm: Default::default(),
                    o_valid: Default::default(),
                    o_last: Default::default(),
                    o_data: Default::default(),
                    o_mask: Default::default(),
                    nz: Default::default(),
                    zbad: Default::default(),
                    zcheck: Constant::new(false),
                    one_p: Constant::new(1.into()),
                    zero_p: Constant::new(0.into()),
                    zero_ww: Constant::new(0.into()),
                    zero_cnt: Constant::new(0.into()),
                    m_cnt: Constant::new($m.into()),
                    p_cnt: Constant::new($p.into()),
                    zero_count: Constant::new(0.into()),
                    p_count: Constant::new($p.into()),
                }
            }
        }

        impl $name {
            /// The decompressor that also enforces the canonical-encoding rule (docs/FORMAT.md
            /// rule 17c): a block whose mask has a bit set for a zero element raises `error`
            /// (when the block is in the output register; the block is still delivered). The
            /// DMA datapath uses it; the standalone decompressor (`Default`) does not check.
            pub fn with_zero_check() -> Self {
                Self {
                    zcheck: Constant::new(true),
                    ..Default::default()
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, sbuf, b_cnt, last_seen, err, o_valid, o_last, o_mask
                );
                // The decoded block moves on the clock edge only (see `EnReg`).
                self.o_data.clock.next = self.clock.val();
                self.o_data.d.next = self.dp.y.val();
                self.o_data.en.next = false;
                self.o_data.clr.next = false;
                // ---- the block at the bottom of the buffer (its mask is in lanes 0..M)
                self.dp.sbuf.next = self.sbuf.q.val();
                self.len.next = self.dp.len.val();
                self.have.next = (self.b_cnt.q.val() >= self.m_cnt.val())
                    & (self.b_cnt.q.val() >= self.len.val());
                self.out_free.next = !self.o_valid.q.val() | self.out_ready.val();
                // ---- canonical check (with_zero_check): a zero element under a set mask bit
                // of the block in the output register; no block follows it.
                self.nz.x.next = self.o_data.q.val();
                self.zbad.next = self.zcheck.val()
                    & !self.rst.val()
                    & self.o_valid.q.val()
                    & (self.o_mask.q.val() & !self.nz.y.val()).any();
                self.emit.next =
                    self.have.val() & self.out_free.val() & !self.err.q.val() & !self.zbad.val();
                self.finishing.next = self.emit.val()
                    & self.last_seen.q.val()
                    & (self.b_cnt.q.val() == self.len.val());
                // The tail of a finished stream cannot form a block: truncated payload.
                self.trunc.next = self.last_seen.q.val() & !self.have.val() & !self.err.q.val();
                // ---- consume the bottom block, append the incoming beat
                self.rem.next = self.sbuf.q.val();
                self.rem_cnt.next = self.b_cnt.q.val();
                if self.emit.val() {
                    self.rem.next = self.dp.shifted.val();
                    self.rem_cnt.next = self.b_cnt.q.val() - self.len.val();
                }
                self.in_ready.next = !self.rst.val()
                    & (self.err.q.val()
                        | ((!self.last_seen.q.val() | self.finishing.val())
                            & (self.rem_cnt.val() <= self.p_cnt.val())));
                self.fire.next = self.in_valid.val() & self.in_ready.val();
                self.bad.next = (self.in_count.val() == self.zero_count.val())
                    | (self.in_count.val() > self.p_count.val());
                self.th.next = self.zero_p.val();
                for i in 0..$p {
                    if self.in_count.val() > i {
                        self.th.next = self.th.val() | (self.one_p.val() << i);
                    }
                }
                self.tm.v.next = self.th.val();
                self.w_in.x.next = self.in_data.val() & self.tm.y.val();
                self.w_cnt.x.next = self.in_count.val();
                self.sbuf.d.next = self.rem.val();
                self.b_cnt.d.next = self.rem_cnt.val();
                if self.finishing.val() {
                    self.last_seen.d.next = false;
                }
                if self.fire.val() & !self.bad.val() & !self.err.q.val() {
                    self.sbuf.d.next = self.rem.val()
                        | (self.w_in.y.val() << (self.rem_cnt.val() << $lg));
                    self.b_cnt.d.next = self.rem_cnt.val() + self.w_cnt.y.val();
                    if self.in_last.val() {
                        self.last_seen.d.next = true;
                    }
                }
                if (self.fire.val() & self.bad.val()) | self.trunc.val() {
                    self.err.d.next = true;
                }
                if self.err.q.val() {
                    // Drop everything: the stream is broken.
                    self.sbuf.d.next = self.zero_ww.val();
                    self.b_cnt.d.next = self.zero_cnt.val();
                    self.last_seen.d.next = false;
                }
                // ---- output register
                if self.out_ready.val() {
                    self.o_valid.d.next = false;
                }
                if self.emit.val() {
                    self.o_valid.d.next = true;
                    self.o_data.en.next = true;
                    self.o_last.d.next = self.finishing.val();
                    self.o_mask.d.next = self.sbuf.q.val().get_bits::<32>(0);
                }
                if self.zbad.val() {
                    self.err.d.next = true;
                }
                if self.rst.val() {
                    self.sbuf.d.next = self.zero_ww.val();
                    self.b_cnt.d.next = self.zero_cnt.val();
                    self.last_seen.d.next = false;
                    self.err.d.next = false;
                    self.o_valid.d.next = false;
                }
                self.out_data.next = self.o_data.q.val();
                self.out_last.next = self.o_last.q.val();
                self.out_valid.next = self.o_valid.q.val();
                self.error.next = self.err.q.val() | self.zbad.val();
            }
        }
    };
}

zvc_decompressor!(
    /// ZVC decompressor for E = 8 (P = 36 lanes of 8 bits per packed beat).
    ZvcDecompressorE8, ZvcDecompressorE8Datapath, e: 8, lg: 3, m: 4, p: 36, bw: 256, pw: 288, ww: 576
);
zvc_decompressor!(
    /// ZVC decompressor for E = 16 (P = 34 lanes of 16 bits per packed beat).
    ZvcDecompressorE16, ZvcDecompressorE16Datapath, e: 16, lg: 4, m: 2, p: 34, bw: 512, pw: 544, ww: 1088
);
zvc_decompressor!(
    /// ZVC decompressor for E = 32 (P = 33 lanes of 32 bits per packed beat).
    ZvcDecompressorE32, ZvcDecompressorE32Datapath, e: 32, lg: 5, m: 1, p: 33, bw: 1024, pw: 1056, ww: 2112
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    /// A packed input beat: lanes (P of them), count, last.
    type Beat = (Vec<u64>, usize, bool);
    /// What the run saw: decoded blocks with their `out_last`, final `error`, cycles.
    type Run = (Vec<(Vec<u64>, bool)>, bool, u64);

    /// Drives `beats` into the decompressor with seeded random valid/ready patterns until
    /// `want_lasts` blocks with `out_last` came out, or (when `want_lasts` is 0) until the
    /// input is exhausted and the block is idle for a while.
    macro_rules! run_fn {
        ($fname:ident, $ty:ty, $e:expr) => {
            run_fn!($fname, $ty, $e, <$ty>::default);
        };
        ($fname:ident, $ty:ty, $e:expr, $mk:expr) => {
            fn $fname(
                beats: &[Beat],
                want_lasts: usize,
                valid_pct: u64,
                ready_pct: u64,
                seed: u64,
            ) -> Run {
                let e: usize = $e;
                let mut rng = XorShift64::new(seed);
                let mut uut: $ty = $mk();
                uut.connect_all();
                uut.rst.next = true;
                uut.in_valid.next = false;
                uut.out_ready.next = false;
                settle(&mut uut);
                clock_cycle!(&mut uut);
                clock_cycle!(&mut uut);
                uut.rst.next = false;
                let mut src = Source::new(beats.len());
                let (mut out, mut cycles, mut lasts) = (vec![], 0, 0);
                let mut idle = 0;
                loop {
                    if want_lasts > 0 && lasts == want_lasts {
                        break;
                    }
                    if want_lasts == 0 && src.done() {
                        idle += 1;
                        if idle > 20 {
                            break;
                        }
                    }
                    assert!(cycles < 40 * beats.len() as u64 + 200, "decompressor hangs");
                    uut.in_valid.next = src.offer(&mut rng, valid_pct);
                    if let Some(i) = src.current() {
                        uut.in_data.next = to_bus(&beats[i].0, e);
                        uut.in_count.next = (beats[i].1 as u64).into();
                        uut.in_last.next = beats[i].2;
                    }
                    uut.out_ready.next = rng.chance(ready_pct);
                    settle(&mut uut);
                    if uut.out_valid.val() && uut.out_ready.val() {
                        let last = uut.out_last.val();
                        out.push((from_bus(uut.out_data.val(), e, 32), last));
                        lasts += usize::from(last);
                    }
                    src.handshake(uut.in_ready.val());
                    clock_cycle!(&mut uut);
                    cycles += 1;
                }
                (out, uut.error.val(), cycles)
            }
        };
    }

    run_fn!(run8, ZvcDecompressorE8, 8);
    run_fn!(run32, ZvcDecompressorE32, 32);
    run_fn!(
        run8z,
        ZvcDecompressorE8,
        8,
        ZvcDecompressorE8::with_zero_check
    );

    fn mixed_tensor(rng: &mut XorShift64, e: u32, n: usize) -> Vec<Vec<u64>> {
        let pcts = [0, 100, 50, 90, 10, 60, 100, 0, 30];
        (0..n)
            .map(|i| random_block(rng, e, pcts[i % pcts.len()]))
            .collect()
    }

    /// The expected output: every block of every tensor, `last` on each tensor's final one.
    fn expected(tensors: &[Vec<Vec<u64>>]) -> Vec<(Vec<u64>, bool)> {
        tensors
            .iter()
            .flat_map(|t| {
                t.iter()
                    .enumerate()
                    .map(|(i, b)| (b.clone(), i + 1 == t.len()))
            })
            .collect()
    }

    /// Beats as a source would send them: lanes at and above the count hold garbage, which
    /// the block must ignore.
    fn beats_of(tensors: &[Vec<Vec<u64>>], e: u32, rng: &mut XorShift64) -> Vec<Beat> {
        tensors
            .iter()
            .flat_map(|t| reference_beats(t, e))
            .map(|(mut lanes, n, last)| {
                for l in lanes.iter_mut().skip(n) {
                    *l = rng.next() & ((1 << e) - 1);
                }
                (lanes, n, last)
            })
            .collect()
    }

    #[test]
    fn e8_full_rate_matches_reference() {
        let mut rng = XorShift64::new(11);
        let t = vec![mixed_tensor(&mut rng, 8, 12)];
        let beats = beats_of(&t, 8, &mut rng);
        let (out, err, cycles) = run8(&beats, 1, 100, 100, 1);
        assert!(!err);
        assert_eq!(out, expected(&t));
        // One block per cycle once the first beat is in: 12 blocks, 2 cycles of latency.
        assert!(cycles <= 12 + 3, "took {cycles} cycles for 12 blocks");
    }

    #[test]
    fn e8_backpressure_and_back_to_back_tensors() {
        let mut rng = XorShift64::new(12);
        let dense: Vec<Vec<u64>> = (0..9).map(|_| random_block(&mut rng, 8, 0)).collect();
        let zeros: Vec<Vec<u64>> = (0..20).map(|_| vec![0; 32]).collect();
        let t = vec![
            mixed_tensor(&mut rng, 8, 5),
            dense,
            zeros,
            mixed_tensor(&mut rng, 8, 3),
        ];
        let beats = beats_of(&t, 8, &mut rng);
        for seed in [13, 14] {
            let (out, err, _) = run8(&beats, t.len(), 60, 70, seed);
            assert!(!err, "seed {seed}");
            assert_eq!(out, expected(&t), "seed {seed}");
        }
    }

    #[test]
    fn e32_matches_reference() {
        let mut rng = XorShift64::new(15);
        let t = vec![mixed_tensor(&mut rng, 32, 4), vec![vec![0; 32]]];
        let beats = beats_of(&t, 32, &mut rng);
        let (out, err, _) = run32(&beats, t.len(), 80, 70, 16);
        assert!(!err);
        assert_eq!(out, expected(&t));
    }

    #[test]
    fn truncated_payload_raises_error_and_drops_input() {
        let mut rng = XorShift64::new(17);
        let t = vec![mixed_tensor(&mut rng, 8, 4)];
        let mut beats = beats_of(&t, 8, &mut rng);
        // Cut the final block short by one lane (if the final beat holds one lane only, the
        // block loses its last element through the previous beat instead).
        let n = beats.len();
        assert!(beats[n - 1].1 > 1, "test data: final beat too short");
        beats[n - 1].1 -= 1;
        // Beats after the broken tensor must be swallowed, not hang the source.
        beats.extend(beats_of(&t, 8, &mut rng));
        let (out, err, _) = run8(&beats, 0, 100, 100, 18);
        assert!(err, "truncation not flagged");
        // The complete blocks before the cut come out, the cut block does not.
        assert_eq!(out, expected(&t)[..3].to_vec());
    }

    #[test]
    fn bad_count_raises_error() {
        let mut rng = XorShift64::new(19);
        let t = vec![mixed_tensor(&mut rng, 8, 2)];
        let mut beats = beats_of(&t, 8, &mut rng);
        beats[0].1 = 37; // > P
        let (_, err, _) = run8(&beats, 0, 100, 100, 20);
        assert!(err, "in_count > P not flagged");
        beats[0].1 = 0;
        let (_, err, _) = run8(&beats, 0, 100, 100, 20);
        assert!(err, "in_count 0 not flagged");
    }

    /// A zero element under a set mask bit: accepted by the standalone decompressor, an
    /// `error` with `with_zero_check` (which otherwise decodes the same).
    #[test]
    fn zero_check_flags_a_zero_element_under_a_set_mask_bit() {
        let mut rng = XorShift64::new(21);
        let t = vec![mixed_tensor(&mut rng, 8, 6)];
        let beats = beats_of(&t, 8, &mut rng);
        let (out, err, _) = run8z(&beats, 1, 80, 70, 22);
        assert!(!err, "a canonical stream flagged");
        assert_eq!(out, expected(&t));
        // Block 2 (50 % zeros): its mask is in lanes 0..4 of the stream after blocks 0 and 1;
        // zero its first stored element (lane M + 0 of the block).
        let lanes_per_block = |b: &Vec<u64>| 4 + b.iter().filter(|&&x| x != 0).count();
        let at = lanes_per_block(&t[0][0]) + lanes_per_block(&t[0][1]) + 4;
        assert!(
            t[0][2].iter().any(|&x| x != 0),
            "test data: block 2 is all zero"
        );
        let mut bad = beats.clone();
        let p = 36;
        bad[at / p].0[at % p] = 0;
        let (_, err, _) = run8(&bad, 0, 100, 100, 23);
        assert!(!err, "the standalone decompressor changed behaviour");
        let (out, err, _) = run8z(&bad, 0, 100, 100, 23);
        assert!(err, "zero element under a set mask bit not flagged");
        assert!(out.len() <= 3, "blocks after the bad one came out");
    }
}
