//! `LanePacker`: lane beats (up to `P = 32 + 32/E` valid lanes from lane 0, with a count)
//! in, 32-lane bus beats with byte strobes out, shared by every operation of the engine.
//!
//! The stream's lane `k` (over all input beats of a transfer) leaves in lane `k mod 32` of
//! output beat `k / 32`. A buffer register of `32 + P` lanes (`b` valid, zero above `b`)
//! holds the stream; its bottom 32 lanes *are* the output beat (no separate output register):
//! * a full beat leaves when `b > 32` (strictly: one full beat is always held back until
//!   more lanes or the end of the transfer arrive, so the last beat can carry `out_last`
//!   without a zero-strobe beat);
//! * after `in_last` (flush), the remaining lanes leave as full beats and a final beat of
//!   `b ≤ 32` lanes with `out_last` and the strobes of its lanes only;
//! * an input beat is taken when the lanes left after this cycle's output number `≤ 32`
//!   (so the buffer never holds more than `32 + P`), and appended above them.
//!
//! Throughput: one input beat per cycle while `out_ready` is high and the inputs average
//! ≤ 32 lanes (runs of `P`-lane beats fill the buffer and then take every other cycle
//! until it drains). Latency: a beat's lanes can leave the cycle after it is taken. After
//! the `in_last` beat no input is taken until the transfer's last beat has left.
//!
//! The only zero-strobe beat is the one of an empty transfer (a lone `in_count = 0` beat
//! with `in_last`): it still gets its `out_last`.
//!
//! `in_ready` depends combinationally on `out_ready` and registers, never on `in_valid`.
//! The wide logic (the input lanes masked to `in_count` and shifted into place, the buffer
//! shifted down by a beat) is a register-free child block; the buffer is an [`EnReg`].

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::prims::Thermo;
use crate::prims::{EnReg, ZeroExtend};
use crate::steer::CNT;

/// Port documentation of the lane packer, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static LANE_PACKER_PORTS: PortDocs = PortDocs::new(include_str!("packer.rs"), "$name");

macro_rules! lane_packer {
    (
        $(#[$doc:meta])*
        $name:ident, $dp:ident, e: $e:tt, lg: $lg:tt, p: $p:tt, bw: $bw:tt, pw: $pw:tt,
        fw: $fw:tt, sw: $sw:tt, gb: $gb:tt
    ) => {
        /// The packer's wide combinational datapath (register-free): the next buffer.
        #[derive(LogicBlock)]
        pub struct $dp {
            /// The buffer register (zero above its valid lanes).
            pub sbuf: Signal<In, Bits<$fw>>,
            /// Shift the buffer down by one beat (32 lanes): a beat leaves this cycle.
            pub shift: Signal<In, Bit>,
            /// The input beat.
            pub in_data: Signal<In, Bits<$pw>>,
            /// Lanes of the input beat to append (0 when no beat is taken).
            pub cnt: Signal<In, Bits<7>>,
            /// Lane at which the input lanes are appended (valid lanes left in the buffer).
            pub pos: Signal<In, Bits<CNT>>,
            /// The next buffer.
            pub nxt: Signal<Out, Bits<$fw>>,
            base: Signal<Local, Bits<$fw>>,
            th: Thermo<$p, $e, $pw>,
            ext: ZeroExtend<$pw, $fw>,
            beat_bits: Constant<Bits<CNT>>,
        }

        impl Default for $dp {
            fn default() -> Self {
                Self {
                    sbuf: Default::default(),
                    shift: Default::default(),
                    in_data: Default::default(),
                    cnt: Default::default(),
                    pos: Default::default(),
                    nxt: Default::default(),
                    base: Default::default(),
                    th: Default::default(),
                    ext: Default::default(),
                    beat_bits: Constant::new($bw.into()),
                }
            }
        }

        impl Logic for $dp {
            #[hdl_gen]
            fn update(&mut self) {
                self.th.n.next = self.cnt.val();
                self.ext.x.next = self.in_data.val() & self.th.y.val();
                self.base.next = self.sbuf.val();
                if self.shift.val() {
                    self.base.next = self.sbuf.val() >> self.beat_bits.val();
                }
                self.nxt.next = self.base.val() | (self.ext.y.val() << (self.pos.val() << $lg));
            }
        }

        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high: drops the buffered lanes.
            pub rst: Signal<In, Bit>,
            /// Lane beat: P lanes of E bits, stream order from lane 0 (lanes at and above in_count
            /// are ignored).
            pub in_data: Signal<In, Bits<$pw>>,
            /// Valid lanes of this beat, 0..P (0 only as a pure flush with `in_last`).
            pub in_count: Signal<In, Bits<7>>,
            /// Last beat of the transfer: flush the buffered lanes.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: `in_data`/`in_count`/`in_last` are valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Bus beat: 32 lanes of E bits (lanes without a strobe are zero).
            pub out_data: Signal<Out, Bits<$bw>>,
            /// Byte strobes: all ones on full beats, the valid lanes' bytes on the final partial
            /// beat.
            pub out_strb: Signal<Out, Bits<$sw>>,
            /// Last beat of the transfer.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: `out_data`/`out_strb`/`out_last` are valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            // --- state
            sbuf: EnReg<$fw>,
            b: DFF<Bits<CNT>>,
            fl: DFF<Bit>,
            dp: $dp,
            wcnt: ZeroExtend<7, CNT>,
            strb: Thermo<32, $gb, $sw>,
            // --- control
            ovalid: Signal<Local, Bit>,
            olast: Signal<Local, Bit>,
            emit: Signal<Local, Bit>,
            take: Signal<Local, Bit>,
            pos: Signal<Local, Bits<CNT>>,
            full: Signal<Local, Bit>,
            add: Signal<Local, Bits<CNT>>,
            beat_cnt: Constant<Bits<CNT>>,
            beat_count: Constant<Bits<7>>,
            zero_cnt: Constant<Bits<CNT>>,
            zero_count: Constant<Bits<7>>,
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
                    out_strb: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    sbuf: Default::default(),
                    b: Default::default(),
                    fl: Default::default(),
                    dp: Default::default(),
                    wcnt: Default::default(),
                    strb: Default::default(),
                    ovalid: Default::default(),
                    olast: Default::default(),
                    emit: Default::default(),
                    take: Default::default(),
                    pos: Default::default(),
                    full: Default::default(),
                    add: Default::default(),
                    beat_cnt: Constant::new(32.into()),
                    beat_count: Constant::new(32.into()),
                    zero_cnt: Constant::new(0.into()),
                    zero_count: Constant::new(0.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, b, fl);
                self.sbuf.clock.next = self.clock.val();
                self.sbuf.d.next = self.dp.nxt.val();
                self.dp.sbuf.next = self.sbuf.q.val();
                self.dp.in_data.next = self.in_data.val();
                self.wcnt.x.next = self.in_count.val();
                // ---- output: the bottom beat of the buffer
                self.full.next = self.b.q.val() > self.beat_cnt.val();
                self.ovalid.next = self.full.val() | self.fl.q.val();
                self.olast.next = self.fl.q.val() & !self.full.val();
                self.emit.next = self.ovalid.val() & self.out_ready.val();
                // ---- lanes left after this cycle's output, input appended above them
                self.pos.next = self.b.q.val();
                if self.emit.val() {
                    if self.full.val() {
                        self.pos.next = self.b.q.val() - self.beat_cnt.val();
                    } else {
                        self.pos.next = self.zero_cnt.val();
                    }
                }
                self.in_ready.next =
                    !self.fl.q.val() & (self.pos.val() <= self.beat_cnt.val()) & !self.rst.val();
                self.take.next = self.in_valid.val() & self.in_ready.val();
                self.dp.cnt.next = self.zero_count.val();
                if self.take.val() {
                    self.dp.cnt.next = self.in_count.val();
                }
                self.add.next = self.zero_cnt.val();
                if self.take.val() {
                    self.add.next = self.wcnt.y.val();
                }
                self.dp.pos.next = self.pos.val();
                self.dp.shift.next = self.emit.val();
                self.sbuf.en.next = self.emit.val() | self.take.val();
                self.sbuf.clr.next = self.rst.val();
                self.b.d.next = self.pos.val() + self.add.val();
                if self.take.val() & self.in_last.val() {
                    self.fl.d.next = true;
                }
                if self.emit.val() & self.olast.val() {
                    self.fl.d.next = false;
                }
                if self.rst.val() {
                    self.b.d.next = self.zero_cnt.val();
                    self.fl.d.next = false;
                }
                // ---- ports
                self.strb.n.next = self.beat_count.val();
                if !self.full.val() {
                    self.strb.n.next = self.b.q.val().get_bits::<7>(0);
                }
                self.out_data.next = self.sbuf.q.val().get_bits::<$bw>(0);
                self.out_strb.next = self.strb.y.val();
                self.out_last.next = self.olast.val();
                self.out_valid.next = self.ovalid.val();
            }
        }
    };
}

lane_packer!(
    /// Lane packer for E = 8 (input beats of up to 36 lanes, 256-bit bus beats).
    LanePackerE8, LanePackerE8Datapath, e: 8, lg: 3, p: 36, bw: 256, pw: 288, fw: 544,
    sw: 32, gb: 1
);
lane_packer!(
    /// Lane packer for E = 16 (input beats of up to 34 lanes, 512-bit bus beats).
    LanePackerE16, LanePackerE16Datapath, e: 16, lg: 4, p: 34, bw: 512, pw: 544, fw: 1056,
    sw: 64, gb: 2
);
lane_packer!(
    /// Lane packer for E = 32 (input beats of up to 33 lanes, 1024-bit bus beats).
    LanePackerE32, LanePackerE32Datapath, e: 32, lg: 5, p: 33, bw: 1024, pw: 1056, fw: 2080,
    sw: 128, gb: 4
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    /// One output beat: lanes, strobes as 32-bit words, last.
    type Out = (Vec<u64>, Vec<u64>, bool);

    /// `words` 32-bit words of a strobe vector with its low `bytes` bits set.
    fn strobe_words(bytes: usize, words: usize) -> Vec<u64> {
        (0..words)
            .map(|j| {
                let n = bytes.saturating_sub(32 * j).min(32);
                (1u64 << n) - 1
            })
            .collect()
    }
    /// One input beat: valid lanes (garbage is added above them), last.
    type In = (Vec<u64>, bool);

    /// Reference: the transfers' lanes cut into 32-lane beats (zero padded), strobes of the
    /// valid lanes' bytes, `last` on each transfer's final beat (an empty transfer: one
    /// zero-strobe beat).
    fn expected(transfers: &[Vec<In>], e: usize) -> Vec<Out> {
        let gb = e / 8;
        let mut out = vec![];
        for t in transfers {
            let lanes: Vec<u64> = t.iter().flat_map(|b| b.0.iter().copied()).collect();
            if lanes.is_empty() {
                out.push((vec![0; 32], strobe_words(0, gb), true));
                continue;
            }
            let n = lanes.chunks(32).count();
            for (i, c) in lanes.chunks(32).enumerate() {
                let mut v = c.to_vec();
                v.resize(32, 0);
                let strb = strobe_words(c.len() * gb, gb);
                out.push((v, strb, i + 1 == n));
            }
        }
        out
    }

    fn random_transfer(rng: &mut XorShift64, e: usize, beats: usize, max: usize) -> Vec<In> {
        let p = 32 + 32 / e;
        (0..beats)
            .map(|i| {
                let c = (rng.next() as usize % (max + 1)).clamp(1, p);
                let lanes = (0..c).map(|_| rng.next() & ((1 << e) - 1)).collect();
                (lanes, i + 1 == beats)
            })
            .collect()
    }

    macro_rules! run_fn {
        ($fname:ident, $ty:ty, $e:expr, $pw:expr, $bw:expr) => {
            /// Drives the transfers with seeded random valid/ready, returns the output beats
            /// and the cycle count.
            fn $fname(
                transfers: &[Vec<In>],
                valid_pct: u64,
                ready_pct: u64,
                seed: u64,
            ) -> (Vec<Out>, u64) {
                let e: usize = $e;
                let p = 32 + 32 / e;
                let mut rng = XorShift64::new(seed);
                let mut uut = reset_block!($ty);
                let inputs: Vec<&In> = transfers.iter().flatten().collect();
                let mut src = Source::new(inputs.len());
                let (mut out, mut cycles, mut lasts) = (vec![], 0u64, 0);
                while lasts < transfers.len() {
                    assert!(cycles < 20 * inputs.len() as u64 + 100, "packer hangs");
                    uut.in_valid.next = src.offer(&mut rng, valid_pct);
                    if let Some(i) = src.current() {
                        // Garbage above the valid lanes: the packer must ignore it.
                        let mut lanes = inputs[i].0.clone();
                        let n = lanes.len();
                        lanes.extend((n..p).map(|_| rng.next() & ((1 << e) - 1)));
                        uut.in_data.next = to_bus::<$pw>(&lanes, e);
                        uut.in_count.next = (n as u64).into();
                        uut.in_last.next = inputs[i].1;
                    }
                    uut.out_ready.next = rng.chance(ready_pct);
                    settle(&mut uut);
                    crate::prims::verilog_check::record(&uut);
                    if uut.out_valid.val() && uut.out_ready.val() {
                        let last = uut.out_last.val();
                        let strb = from_bus(uut.out_strb.val(), 32, e / 8);
                        out.push((from_bus::<$bw>(uut.out_data.val(), e, 32), strb, last));
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

    run_fn!(run8, LanePackerE8, 8, 288, 256);
    run_fn!(run32, LanePackerE32, 32, 1056, 1024);

    #[test]
    fn e8_full_rate_32_lane_beats() {
        let mut rng = XorShift64::new(11);
        let t = vec![random_transfer(&mut rng, 8, 16, 32)
            .into_iter()
            .map(|(mut l, last)| {
                l.resize(32, 7);
                (l, last)
            })
            .collect::<Vec<_>>()];
        let (out, cycles) = run8(&t, 100, 100, 1);
        assert_eq!(out, expected(&t, 8));
        eprintln!("packer: 16 beats of 32 lanes in {cycles} cycles");
        // One beat per cycle: 16 beats in, 16 out, 2 cycles of latency.
        assert!(cycles <= 16 + 2, "took {cycles} cycles for 16 beats");
    }

    #[test]
    fn e8_random_counts_backpressure_and_transfers() {
        let mut rng = XorShift64::new(12);
        // Random counts 1..P, a transfer ending on an exact beat boundary, one ending with
        // a pure flush (count 0 + last), an empty transfer, a one-lane transfer.
        let mut exact: Vec<In> = (0..3).map(|_| (vec![5; 32], false)).collect();
        exact[2].1 = true;
        let mut flush: Vec<In> = (0..2).map(|_| (vec![9; 32], false)).collect();
        flush.push((vec![], true));
        let t = vec![
            random_transfer(&mut rng, 8, 12, 36),
            exact,
            flush,
            vec![(vec![], true)],
            vec![(vec![3], true)],
            random_transfer(&mut rng, 8, 9, 36),
        ];
        let want = expected(&t, 8);
        for seed in [1, 2, 3] {
            let (out, _) = run8(&t, 70, 60, seed);
            assert_eq!(out, want, "seed {seed}");
        }
    }

    #[test]
    fn e8_dense_36_lane_beats_throughput() {
        let mut rng = XorShift64::new(13);
        let t = vec![random_transfer(&mut rng, 8, 24, 36)
            .into_iter()
            .map(|(mut l, last)| {
                l.resize(36, 1);
                (l, last)
            })
            .collect::<Vec<_>>()];
        let (out, cycles) = run8(&t, 100, 100, 4);
        assert_eq!(out, expected(&t, 8));
        eprintln!("packer: 24 beats of 36 lanes (27 out) in {cycles} cycles");
        // 24·36 lanes = 27 output beats: the output is the bottleneck.
        assert!(cycles <= 27 + 3, "took {cycles} cycles for 27 output beats");
    }

    #[test]
    fn e32_matches_reference() {
        let mut rng = XorShift64::new(14);
        let t = vec![
            random_transfer(&mut rng, 32, 5, 33),
            vec![(vec![1, 2], true)],
        ];
        let (out, _) = run32(&t, 80, 70, 5);
        assert_eq!(out, expected(&t, 32));
    }

    #[test]
    fn e8_verilog_matches_rust_simulation() {
        use crate::prims::verilog_check::{check, recording};
        let mut rng = XorShift64::new(15);
        let mut flush: Vec<In> = (0..2).map(|_| (vec![9; 32], false)).collect();
        flush.push((vec![], true));
        let t = vec![
            random_transfer(&mut rng, 8, 10, 36),
            flush,
            vec![(vec![], true)],
            random_transfer(&mut rng, 8, 6, 36),
        ];
        let trace = recording(|| {
            run8(&t, 70, 60, 6);
        });
        check(
            &crate::emit::standalone_block(
                LanePackerE8::default(),
                "cdma_dma_lane_packer_e8",
                &LANE_PACKER_PORTS,
            ),
            &trace,
        );
    }
}
