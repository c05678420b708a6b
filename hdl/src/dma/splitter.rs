//! `LaneSplitter` (DECOMPRESS): payload bus beats in, per-chunk lane beats out.
//!
//! The payload is the chunks' stored bytes back to back (docs/FORMAT.md, chunked frame),
//! streamed as 32-lane bus beats from lane 0 of the first beat. A command per chunk gives its
//! stored size in lanes (`stored_len·8/E`). Each chunk leaves shifted down to lane 0, in
//! beats of 32 lanes except its last (`out_last`, `1..32` lanes), so one output beat never
//! mixes two chunks; the lanes of a beat past a chunk's end start the next chunk.
//!
//! A buffer register of 64 lanes (`b` valid, zero above `b`) holds the stream. The bottom
//! `n = min(32, rem)` lanes (`rem`: lanes left of the current chunk) leave when `b ≥ n`; an
//! input beat is appended above the lanes left after this cycle's output when they number
//! `≤ 32`. So with input and commands available the output runs at one beat per cycle with
//! **no bubble at chunk boundaries** (the next command is taken in the cycle the previous
//! chunk's last beat leaves). Latency: one cycle from an input beat to its first output.
//!
//! End of a payload: the payload's final bus beat must carry `in_last`, and the final
//! chunk's command `cmd_last`. After the `in_last` beat no input is taken until the final
//! chunk's last beat has left; then the lanes left in the buffer (the padding of the final
//! bus beat) are dropped and the next payload starts at lane 0 again.
//!
//! A command of 0 lanes yields one beat with `out_count = 0` and `out_last` (chunks are
//! never empty in a valid frame). `in_ready` and `cmd_ready` depend combinationally on
//! `out_ready` and registers only. The wide logic (buffer shifted by `n`, input beat shifted
//! into place, output masked to `n` lanes) is a register-free child; the buffer an [`EnReg`].

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::prims::Thermo;
use crate::prims::{EnReg, ZeroExtend};
use crate::steer::CNT;

/// Port documentation of the lane splitter, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static LANE_SPLITTER_PORTS: PortDocs = PortDocs::new(include_str!("splitter.rs"), "$name");

macro_rules! lane_splitter {
    (
        $(#[$doc:meta])*
        $name:ident, $dp:ident, e: $e:tt, lg: $lg:tt, bw: $bw:tt, ww: $ww:tt
    ) => {
        /// The splitter's wide combinational datapath (register-free).
        #[derive(LogicBlock)]
        pub struct $dp {
            /// The buffer register (zero above its valid lanes).
            pub sbuf: Signal<In, Bits<$ww>>,
            /// Lanes leaving this cycle (0 if none): the buffer shifts down by as many.
            pub sh: Signal<In, Bits<CNT>>,
            /// Lanes of the output beat (`min(32, rem)`).
            pub n: Signal<In, Bits<7>>,
            /// The input bus beat.
            pub in_data: Signal<In, Bits<$bw>>,
            /// The input beat is taken this cycle.
            pub ins: Signal<In, Bit>,
            /// Lane at which the input beat is appended.
            pub pos: Signal<In, Bits<CNT>>,
            /// The next buffer.
            pub nxt: Signal<Out, Bits<$ww>>,
            /// The output beat: the bottom `n` lanes, zero above.
            pub out: Signal<Out, Bits<$bw>>,
            ins_w: Signal<Local, Bits<$ww>>,
            ext: ZeroExtend<$bw, $ww>,
            th: Thermo<32, $e, $bw>,
            zero_ww: Constant<Bits<$ww>>,
        }

        impl Default for $dp {
            fn default() -> Self {
                Self {
                    sbuf: Default::default(),
                    sh: Default::default(),
                    n: Default::default(),
                    in_data: Default::default(),
                    ins: Default::default(),
                    pos: Default::default(),
                    nxt: Default::default(),
                    out: Default::default(),
                    ins_w: Default::default(),
                    ext: Default::default(),
                    th: Default::default(),
                    zero_ww: Constant::new(0.into()),
                }
            }
        }

        impl Logic for $dp {
            #[hdl_gen]
            fn update(&mut self) {
                self.ext.x.next = self.in_data.val();
                self.ins_w.next = self.zero_ww.val();
                if self.ins.val() {
                    self.ins_w.next = self.ext.y.val() << (self.pos.val() << $lg);
                }
                self.nxt.next = (self.sbuf.val() >> (self.sh.val() << $lg)) | self.ins_w.val();
                self.th.n.next = self.n.val();
                self.out.next = self.sbuf.val().get_bits::<$bw>(0) & self.th.y.val();
            }
        }

        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high: drops buffered lanes and the current command.
            pub rst: Signal<In, Bit>,
            /// Payload bus beat: 32 lanes of E bits, stream order.
            pub in_data: Signal<In, Bits<$bw>>,
            /// Final bus beat of the payload (its lanes past the final chunk are dropped).
            pub in_last: Signal<In, Bit>,
            /// Input handshake: `in_data`/`in_last` are valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Stored size of the next chunk in lanes (`stored_len·8/E`).
            pub cmd_lanes: Signal<In, Bits<27>>,
            /// The chunk is the payload's final one.
            pub cmd_last: Signal<In, Bit>,
            /// Command handshake: `cmd_lanes`/`cmd_last` are valid.
            pub cmd_valid: Signal<In, Bit>,
            /// Command handshake: the command is taken this cycle if `cmd_valid`.
            pub cmd_ready: Signal<Out, Bit>,
            /// Lane beat: the chunk's next lanes from lane 0 (lanes at and above out_count are
            /// zero).
            pub out_data: Signal<Out, Bits<$bw>>,
            /// Valid lanes of this beat: 32, or 0..32 on the chunk's last beat.
            pub out_count: Signal<Out, Bits<7>>,
            /// Last beat of the chunk.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: `out_data`/`out_count`/`out_last` are valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            // --- state
            sbuf: EnReg<$ww>,
            b: DFF<Bits<CNT>>,
            act: DFF<Bit>,
            rem: DFF<Bits<27>>,
            lastc: DFF<Bit>,
            inl: DFF<Bit>,
            dp: $dp,
            // --- control
            le32: Signal<Local, Bit>,
            n: Signal<Local, Bits<CNT>>,
            n27: Signal<Local, Bits<27>>,
            ovalid: Signal<Local, Bit>,
            emit: Signal<Local, Bit>,
            fin: Signal<Local, Bit>,
            bafter: Signal<Local, Bits<CNT>>,
            take: Signal<Local, Bit>,
            beat_cnt: Constant<Bits<CNT>>,
            beat_27: Constant<Bits<27>>,
            zero_cnt: Constant<Bits<CNT>>,
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
                    cmd_lanes: Default::default(),
                    cmd_last: Default::default(),
                    cmd_valid: Default::default(),
                    cmd_ready: Default::default(),
                    out_data: Default::default(),
                    out_count: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    sbuf: Default::default(),
                    b: Default::default(),
                    act: Default::default(),
                    rem: Default::default(),
                    lastc: Default::default(),
                    inl: Default::default(),
                    dp: Default::default(),
                    le32: Default::default(),
                    n: Default::default(),
                    n27: Default::default(),
                    ovalid: Default::default(),
                    emit: Default::default(),
                    fin: Default::default(),
                    bafter: Default::default(),
                    take: Default::default(),
                    beat_cnt: Constant::new(32.into()),
                    beat_27: Constant::new(32.into()),
                    zero_cnt: Constant::new(0.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, b, act, rem, lastc, inl);
                self.sbuf.clock.next = self.clock.val();
                self.sbuf.d.next = self.dp.nxt.val();
                self.dp.sbuf.next = self.sbuf.q.val();
                self.dp.in_data.next = self.in_data.val();
                // ---- output: the current chunk's next min(32, rem) lanes
                self.le32.next = self.rem.q.val() <= self.beat_27.val();
                self.n.next = self.beat_cnt.val();
                self.n27.next = self.beat_27.val();
                if self.le32.val() {
                    self.n.next = self.rem.q.val().get_bits::<CNT>(0);
                    self.n27.next = self.rem.q.val();
                }
                self.ovalid.next = self.act.q.val() & (self.b.q.val() >= self.n.val());
                self.emit.next = self.ovalid.val() & self.out_ready.val();
                self.fin.next = self.emit.val() & self.le32.val() & self.lastc.q.val();
                // ---- lanes left after this cycle's output; the input beat goes above them
                self.bafter.next = self.b.q.val();
                self.dp.sh.next = self.zero_cnt.val();
                if self.emit.val() {
                    self.bafter.next = self.b.q.val() - self.n.val();
                    self.dp.sh.next = self.n.val();
                }
                self.in_ready.next = (self.bafter.val() <= self.beat_cnt.val())
                    & !self.inl.q.val()
                    & !self.rst.val();
                self.take.next = self.in_valid.val() & self.in_ready.val();
                self.dp.ins.next = self.take.val();
                self.dp.pos.next = self.bafter.val();
                self.dp.n.next = self.n.val().get_bits::<7>(0);
                self.sbuf.en.next = self.emit.val() | self.take.val();
                self.sbuf.clr.next = self.rst.val() | self.fin.val();
                self.b.d.next = self.bafter.val();
                if self.take.val() {
                    self.b.d.next = self.bafter.val() + self.beat_cnt.val();
                    if self.in_last.val() {
                        self.inl.d.next = true;
                    }
                }
                // ---- chunk commands
                if self.emit.val() {
                    self.rem.d.next = self.rem.q.val() - self.n27.val();
                    if self.le32.val() {
                        self.act.d.next = false;
                    }
                }
                if self.fin.val() {
                    // The payload's final chunk is out: drop the final beat's padding.
                    self.b.d.next = self.zero_cnt.val();
                    self.inl.d.next = false;
                }
                self.cmd_ready.next = (!self.act.q.val() | (self.emit.val() & self.le32.val()))
                    & !self.rst.val();
                if self.cmd_valid.val() & self.cmd_ready.val() {
                    self.act.d.next = true;
                    self.rem.d.next = self.cmd_lanes.val();
                    self.lastc.d.next = self.cmd_last.val();
                }
                if self.rst.val() {
                    self.b.d.next = self.zero_cnt.val();
                    self.act.d.next = false;
                    self.inl.d.next = false;
                }
                // ---- ports
                self.out_data.next = self.dp.out.val();
                self.out_count.next = self.n.val().get_bits::<7>(0);
                self.out_last.next = self.le32.val();
                self.out_valid.next = self.ovalid.val();
            }
        }
    };
}

lane_splitter!(
    /// Lane splitter for E = 8 (256-bit bus beats, 64-lane buffer).
    LaneSplitterE8, LaneSplitterE8Datapath, e: 8, lg: 3, bw: 256, ww: 512
);
lane_splitter!(
    /// Lane splitter for E = 16 (512-bit bus beats, 64-lane buffer).
    LaneSplitterE16, LaneSplitterE16Datapath, e: 16, lg: 4, bw: 512, ww: 1024
);
lane_splitter!(
    /// Lane splitter for E = 32 (1024-bit bus beats, 64-lane buffer).
    LaneSplitterE32, LaneSplitterE32Datapath, e: 32, lg: 5, bw: 1024, ww: 2048
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    /// One output beat: 32 lanes, count, last.
    type Out = (Vec<u64>, usize, bool);

    /// A payload of chunks with `sizes` lanes: its bus beats (the final one padded with
    /// garbage) with `in_last`, the commands, and the expected output beats.
    #[allow(clippy::type_complexity)]
    fn payload(
        rng: &mut XorShift64,
        e: usize,
        sizes: &[usize],
    ) -> (Vec<(Vec<u64>, bool)>, Vec<(usize, bool)>, Vec<Out>) {
        let mask = (1u64 << e) - 1;
        let mut lanes = vec![];
        let mut want = vec![];
        for &s in sizes {
            let c: Vec<u64> = (0..s).map(|_| rng.next() & mask).collect();
            let n = c.chunks(32).count();
            if s == 0 {
                want.push((vec![0; 32], 0, true));
            }
            for (i, part) in c.chunks(32).enumerate() {
                let mut v = part.to_vec();
                v.resize(32, 0);
                want.push((v, part.len(), i + 1 == n));
            }
            lanes.extend(c);
        }
        let n = lanes.chunks(32).count();
        let beats = lanes
            .chunks(32)
            .enumerate()
            .map(|(i, part)| {
                let mut v = part.to_vec();
                while v.len() < 32 {
                    v.push(rng.next() & mask);
                }
                (v, i + 1 == n)
            })
            .collect();
        let cmds = sizes
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, i + 1 == sizes.len()))
            .collect();
        (beats, cmds, want)
    }

    macro_rules! run_fn {
        ($fname:ident, $ty:ty, $e:expr, $bw:expr) => {
            /// Drives beats and commands with seeded random valid (independently) and random
            /// ready; returns the output beats and the cycle count.
            fn $fname(
                beats: &[(Vec<u64>, bool)],
                cmds: &[(usize, bool)],
                valid_pct: u64,
                ready_pct: u64,
                seed: u64,
            ) -> (Vec<Out>, u64) {
                let e: usize = $e;
                let mut rng = XorShift64::new(seed);
                let mut uut = reset_block!($ty);
                let n_out: usize = cmds.iter().map(|c| c.0.div_ceil(32).max(1)).sum();
                let (mut out, mut cycles) = (vec![], 0u64);
                let (mut bsrc, mut csrc) = (Source::new(beats.len()), Source::new(cmds.len()));
                while out.len() < n_out {
                    assert!(cycles < 20 * n_out as u64 + 100, "splitter hangs");
                    uut.in_valid.next = bsrc.offer(&mut rng, valid_pct);
                    uut.cmd_valid.next = csrc.offer(&mut rng, valid_pct);
                    if let Some(i) = bsrc.current() {
                        uut.in_data.next = to_bus::<$bw>(&beats[i].0, e);
                        uut.in_last.next = beats[i].1;
                    }
                    if let Some(i) = csrc.current() {
                        uut.cmd_lanes.next = (cmds[i].0 as u64).into();
                        uut.cmd_last.next = cmds[i].1;
                    }
                    uut.out_ready.next = rng.chance(ready_pct);
                    settle(&mut uut);
                    crate::prims::verilog_check::record(&uut);
                    if uut.out_valid.val() && uut.out_ready.val() {
                        out.push((
                            from_bus::<$bw>(uut.out_data.val(), e, 32),
                            uut.out_count.val().to_u64() as usize,
                            uut.out_last.val(),
                        ));
                    }
                    bsrc.handshake(uut.in_ready.val());
                    csrc.handshake(uut.cmd_ready.val());
                    clock_cycle!(&mut uut);
                    cycles += 1;
                }
                assert!(bsrc.done() && csrc.done(), "input left over");
                assert_no_more_output!(uut, 3, [in_valid, cmd_valid]);
                (out, cycles)
            }
        };
    }

    run_fn!(run8, LaneSplitterE8, 8, 256);
    run_fn!(run32, LaneSplitterE32, 32, 1024);

    /// Several payloads back to back.
    #[allow(clippy::type_complexity)]
    fn payloads(
        rng: &mut XorShift64,
        e: usize,
        sizes: &[&[usize]],
    ) -> (Vec<(Vec<u64>, bool)>, Vec<(usize, bool)>, Vec<Out>) {
        let (mut b, mut c, mut w) = (vec![], vec![], vec![]);
        for s in sizes {
            let (b1, c1, w1) = payload(rng, e, s);
            b.extend(b1);
            c.extend(c1);
            w.extend(w1);
        }
        (b, c, w)
    }

    #[test]
    fn e8_full_rate_no_bubble_at_chunk_boundaries() {
        let mut rng = XorShift64::new(21);
        // Chunks that end mid-beat: 8 chunks, 17 output beats.
        let sizes = [70, 33, 5, 64, 40, 31, 90, 1];
        let (b, c, want) = payload(&mut rng, 8, &sizes);
        let (out, cycles) = run8(&b, &c, 100, 100, 1);
        assert_eq!(out, want);
        eprintln!("splitter: {} output beats in {cycles} cycles", want.len());
        // One output beat per cycle, one cycle of latency (+1 for the first command).
        assert!(cycles <= want.len() as u64 + 2, "took {cycles} cycles");
    }

    #[test]
    fn e8_random_backpressure_and_payloads() {
        let mut rng = XorShift64::new(22);
        let (b, c, want) = payloads(
            &mut rng,
            8,
            &[&[100, 3, 29, 64, 32], &[7], &[32, 32], &[45, 0, 12]],
        );
        for seed in [1, 2, 3] {
            let (out, _) = run8(&b, &c, 60, 60, seed);
            assert_eq!(out, want, "seed {seed}");
        }
    }

    #[test]
    fn e32_matches_reference() {
        let mut rng = XorShift64::new(23);
        let (b, c, want) = payloads(&mut rng, 32, &[&[40, 9], &[33]]);
        let (out, _) = run32(&b, &c, 80, 70, 4);
        assert_eq!(out, want);
    }

    #[test]
    fn e8_verilog_matches_rust_simulation() {
        use crate::prims::verilog_check::{check, recording};
        let mut rng = XorShift64::new(24);
        let (b, c, _) = payloads(&mut rng, 8, &[&[70, 3, 29, 32], &[7], &[45, 0, 12]]);
        let trace = recording(|| {
            run8(&b, &c, 70, 60, 5);
        });
        check(
            &crate::emit::standalone_block(
                LaneSplitterE8::default(),
                "cdma_dma_lane_splitter_e8",
                &LANE_SPLITTER_PORTS,
            ),
            &trace,
        );
    }
}
