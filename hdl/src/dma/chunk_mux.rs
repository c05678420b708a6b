//! `ChunkMux` (COMPRESS): per chunk decision, forwards the chunk's source beats either
//! through a `ZvcCompressor` or straight through as raw lanes, producing one lane stream
//! (lane beats of up to `P` lanes with a count) for the `LanePacker`.
//!
//! * The beats come from the chunk FIFO (`in_*`: data, valid lanes, chunk end, transfer
//!   last); the decisions from `ChunkScan` (`dec_raw`), one per chunk, in order.
//! * ZVC chunk: its beats go into the compressor (lanes at and above `in_lanes` zeroed, so a
//!   partial final block is zero-padded as the format requires) with `in_last` at the chunk
//!   end, which flushes the compressor's packer: every chunk's ZVC payload is a whole number
//!   of lanes and starts at a fresh lane, exactly the chunk's stored bytes. Consecutive ZVC
//!   chunks flow back to back (one block per cycle).
//! * Raw chunk: its beats leave as 32-lane beats (`out_count = in_lanes`) once the
//!   compressor has delivered every earlier chunk (`cpend`, ZVC chunks whose first beat has
//!   entered the compressor and whose last output beat has not left, is 0), so the output
//!   keeps chunk order. While `cpend > 0` the output comes from the compressor (which may
//!   emit beats of a chunk before the chunk's last beat has entered it).
//! * `out_last` only at the end of the whole transfer (the source beat with `in_last`): the
//!   packer downstream never flushes between chunks. After the transfer's last beat entered
//!   the compressor no further beat is taken until its last output beat has left.
//!
//! Throughput: one beat per cycle within and across ZVC chunks and raw chunks, and from a
//! raw chunk into a ZVC chunk; a raw chunk after a ZVC chunk waits for the compressor to
//! drain (its 2-cycle latency plus a flush beat: about 3 bubbles). A decision is taken in
//! the cycle the previous chunk's last beat is taken (no bubble when it is waiting).
//!
//! `in_ready`, `dec_ready` depend combinationally on `out_ready` and registers (through
//! the compressor's `in_ready`), never on `in_valid` / `dec_valid`.

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::compressor::{ZvcCompressorE16, ZvcCompressorE32, ZvcCompressorE8};
use crate::prims::Thermo;
use crate::prims::ZeroExtend;

/// Port documentation of the chunk multiplexer, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static CHUNK_MUX_PORTS: PortDocs = PortDocs::new(include_str!("chunk_mux.rs"), "$name");

macro_rules! chunk_mux {
    (
        $(#[$doc:meta])*
        $name:ident, $comp:ident, e: $e:tt, bw: $bw:tt, pw: $pw:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high (also resets the compressor).
            pub rst: Signal<In, Bit>,
            /// Source beat from the chunk FIFO: 32 lanes of E bits (one ZVC block).
            pub in_data: Signal<In, Bits<$bw>>,
            /// Valid lanes of the beat (32, fewer on the source's final beat).
            pub in_lanes: Signal<In, Bits<6>>,
            /// The beat is its chunk's last.
            pub in_chunk_end: Signal<In, Bit>,
            /// The beat is the transfer's last.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: `in_*` are valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Decision for the next chunk: 1 raw, 0 ZVC.
            pub dec_raw: Signal<In, Bit>,
            /// Decision handshake: `dec_raw` is valid.
            pub dec_valid: Signal<In, Bit>,
            /// Decision handshake: the decision is taken this cycle if `dec_valid`.
            pub dec_ready: Signal<Out, Bit>,
            /// Lane beat for the packer: P lanes of E bits, stream order from lane 0.
            pub out_data: Signal<Out, Bits<$pw>>,
            /// Valid lanes of this beat (1..P).
            pub out_count: Signal<Out, Bits<7>>,
            /// Last beat of the transfer's payload.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: `out_data`/`out_count`/`out_last` are valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            // --- datapath
            comp: $comp,
            w_lanes: ZeroExtend<6, 7>,
            th: Thermo<32, $e, $bw>,
            zx: ZeroExtend<$bw, $pw>,
            // --- state
            act: DFF<Bit>,
            raw: DFF<Bit>,
            cpend: DFF<Bits<3>>,
            zin: DFF<Bit>,
            fin: DFF<Bit>,
            // --- control
            sel: Signal<Local, Bit>,
            zmode: Signal<Local, Bit>,
            rmode: Signal<Local, Bit>,
            take: Signal<Local, Bit>,
            c_start: Signal<Local, Bit>,
            c_last: Signal<Local, Bit>,
            one_left: Signal<Local, Bit>,
            zero3: Constant<Bits<3>>,
            one3: Constant<Bits<3>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    in_data: Default::default(),
                    in_lanes: Default::default(),
                    in_chunk_end: Default::default(),
                    in_last: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    dec_raw: Default::default(),
                    dec_valid: Default::default(),
                    dec_ready: Default::default(),
                    out_data: Default::default(),
                    out_count: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    comp: Default::default(),
                    w_lanes: Default::default(),
                    th: Default::default(),
                    zx: Default::default(),
                    act: Default::default(),
                    raw: Default::default(),
                    cpend: Default::default(),
                    zin: Default::default(),
                    fin: Default::default(),
                    sel: Default::default(),
                    zmode: Default::default(),
                    rmode: Default::default(),
                    take: Default::default(),
                    c_start: Default::default(),
                    c_last: Default::default(),
                    one_left: Default::default(),
                    zero3: Constant::new(0.into()),
                    one3: Constant::new(1.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, act, raw, cpend, zin, fin);
                self.comp.clock.next = self.clock.val();
                self.comp.rst.next = self.rst.val();
                // ---- datapath: the block (zero-padded past in_lanes) into the compressor,
                // the raw beat widened to P lanes
                self.w_lanes.x.next = self.in_lanes.val();
                self.th.n.next = self.w_lanes.y.val();
                self.comp.in_data.next = self.in_data.val() & self.th.y.val();
                self.comp.in_last.next = self.in_chunk_end.val();
                self.zx.x.next = self.in_data.val();
                // ---- output source: the compressor while it holds a chunk
                self.sel.next = self.cpend.q.val() != self.zero3.val();
                self.one_left.next = self.cpend.q.val() == self.one3.val();
                // From a register and the port only, and read nowhere else in this block: so
                // Verilator can split this statement from the ones reading comp.in_ready
                // (which depends on it) and sees no combinational cycle (UNOPTFLAT).
                self.comp.out_ready.next =
                    (self.cpend.q.val() != self.zero3.val()) & self.out_ready.val();
                self.zmode.next = self.act.q.val() & !self.raw.q.val() & !self.fin.q.val();
                self.rmode.next = self.act.q.val() & self.raw.q.val() & !self.sel.val();
                // Same for the compressor's in_valid (its in_ready is computed in the same
                // always block that reads in_valid): registers and the port only.
                self.comp.in_valid.next = self.act.q.val()
                    & !self.raw.q.val()
                    & !self.fin.q.val()
                    & self.in_valid.val();
                self.in_ready.next = ((self.zmode.val() & self.comp.in_ready.val())
                    | (self.rmode.val() & self.out_ready.val()))
                    & !self.rst.val();
                self.take.next = self.in_valid.val() & self.in_ready.val();
                // A ZVC chunk counts from its first beat: the compressor may emit beats of
                // it before its last beat has entered.
                self.c_start.next = self.take.val() & self.zmode.val() & !self.zin.q.val();
                self.c_last.next = self.comp.out_valid.val()
                    & self.sel.val()
                    & self.out_ready.val()
                    & self.comp.out_last.val();
                if self.sel.val() {
                    self.out_valid.next = self.comp.out_valid.val();
                    self.out_data.next = self.comp.out_data.val();
                    self.out_count.next = self.comp.out_count.val();
                    self.out_last.next =
                        self.comp.out_last.val() & self.one_left.val() & self.fin.q.val();
                } else {
                    self.out_valid.next = self.rmode.val() & self.in_valid.val();
                    self.out_data.next = self.zx.y.val();
                    self.out_count.next = self.w_lanes.y.val();
                    self.out_last.next = self.in_last.val();
                }
                // ---- chunks in the compressor, end of the transfer
                if self.c_start.val() & !self.c_last.val() {
                    self.cpend.d.next = self.cpend.q.val() + self.one3.val();
                }
                if !self.c_start.val() & self.c_last.val() {
                    self.cpend.d.next = self.cpend.q.val() - self.one3.val();
                }
                if self.take.val() & self.zmode.val() {
                    self.zin.d.next = !self.in_chunk_end.val();
                }
                if self.take.val() & self.zmode.val() & self.in_last.val() {
                    self.fin.d.next = true;
                }
                if self.c_last.val() & self.one_left.val() & self.fin.q.val() {
                    self.fin.d.next = false;
                }
                // ---- decisions
                if self.take.val() & self.in_chunk_end.val() {
                    self.act.d.next = false;
                }
                self.dec_ready.next = (!self.act.q.val()
                    | (self.take.val() & self.in_chunk_end.val()))
                    & !self.rst.val();
                if self.dec_valid.val() & self.dec_ready.val() {
                    self.act.d.next = true;
                    self.raw.d.next = self.dec_raw.val();
                }
                if self.rst.val() {
                    self.act.d.next = false;
                    self.cpend.d.next = self.zero3.val();
                    self.zin.d.next = false;
                    self.fin.d.next = false;
                }
            }
        }
    };
}

chunk_mux!(
    /// Chunk multiplexer for E = 8 (256-bit beats in, 36-lane beats out).
    ChunkMuxE8, ZvcCompressorE8, e: 8, bw: 256, pw: 288
);
chunk_mux!(
    /// Chunk multiplexer for E = 16 (512-bit beats in, 34-lane beats out).
    ChunkMuxE16, ZvcCompressorE16, e: 16, bw: 512, pw: 544
);
chunk_mux!(
    /// Chunk multiplexer for E = 32 (1024-bit beats in, 33-lane beats out).
    ChunkMuxE32, ZvcCompressorE32, e: 32, bw: 1024, pw: 1056
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    /// One source beat: 32 lanes (garbage past the valid ones), valid lanes, chunk end, last.
    type Beat = (Vec<u64>, usize, bool, bool);

    /// A transfer of chunks (`(beats, lanes of the final beat, raw)`): its beats, decisions
    /// and the expected lane stream (raw lanes, or the chunk's ZVC payload lanes).
    fn transfer(
        rng: &mut XorShift64,
        e: usize,
        chunks: &[(usize, usize, bool)],
    ) -> (Vec<Beat>, Vec<bool>, Vec<u64>) {
        transfer_with(rng, e, chunks, &[0, 100, 50, 90, 10, 70])
    }

    /// [`transfer`] with the blocks' zero percentages cycling through `pcts`.
    fn transfer_with(
        rng: &mut XorShift64,
        e: usize,
        chunks: &[(usize, usize, bool)],
        pcts: &[u64],
    ) -> (Vec<Beat>, Vec<bool>, Vec<u64>) {
        let mask = (1u64 << e) - 1;
        let (mut beats, mut decs, mut lanes) = (vec![], vec![], vec![]);
        for (ci, &(n, tail, raw)) in chunks.iter().enumerate() {
            decs.push(raw);
            let mut blocks = vec![];
            for bi in 0..n {
                let valid = if bi + 1 == n { tail } else { 32 };
                let mut b = random_block(rng, e as u32, pcts[(ci + bi) % pcts.len()]);
                b.truncate(valid);
                if raw {
                    lanes.extend(b.iter().copied());
                }
                let mut padded = b.clone();
                padded.resize(32, 0);
                blocks.push(padded);
                b.extend((valid..32).map(|_| (rng.next() | 1) & mask));
                let end = bi + 1 == n;
                beats.push((b, valid, end, end && ci + 1 == chunks.len()));
            }
            if !raw {
                lanes.extend(reference_lanes(&blocks, e as u32));
            }
        }
        (beats, decs, lanes)
    }

    macro_rules! run_fn {
        ($fname:ident, $ty:ty, $e:expr, $bw:expr, $pw:expr) => {
            /// Drives beats and decisions with seeded random valid and ready; returns each
            /// transfer's lane stream (split at `out_last`) and the cycle count.
            fn $fname(
                beats: &[Beat],
                decs: &[bool],
                n_transfers: usize,
                pcts: (u64, u64, u64),
                seed: u64,
            ) -> (Vec<Vec<u64>>, u64) {
                let e: usize = $e;
                let p = 32 + 32 / e;
                let mut rng = XorShift64::new(seed);
                let mut uut = reset_block!($ty);
                uut.dec_valid.next = false;
                let (mut out, mut cur, mut cycles) = (vec![], vec![], 0u64);
                let (mut bsrc, mut dsrc) = (Source::new(beats.len()), Source::new(decs.len()));
                while out.len() < n_transfers {
                    assert!(cycles < 30 * beats.len() as u64 + 100, "chunk mux hangs");
                    uut.in_valid.next = bsrc.offer(&mut rng, pcts.0);
                    uut.dec_valid.next = dsrc.offer(&mut rng, pcts.1);
                    if let Some(i) = bsrc.current() {
                        let b = &beats[i];
                        uut.in_data.next = to_bus::<$bw>(&b.0, e);
                        uut.in_lanes.next = (b.1 as u64).into();
                        uut.in_chunk_end.next = b.2;
                        uut.in_last.next = b.3;
                    }
                    if let Some(i) = dsrc.current() {
                        uut.dec_raw.next = decs[i];
                    }
                    uut.out_ready.next = rng.chance(pcts.2);
                    settle(&mut uut);
                    crate::prims::verilog_check::record(&uut);
                    if uut.out_valid.val() && uut.out_ready.val() {
                        let n = uut.out_count.val().to_u64() as usize;
                        assert!((1..=p).contains(&n), "out_count {n}");
                        cur.extend(from_bus::<$pw>(uut.out_data.val(), e, n));
                        if uut.out_last.val() {
                            out.push(std::mem::take(&mut cur));
                        }
                    }
                    bsrc.handshake(uut.in_ready.val());
                    dsrc.handshake(uut.dec_ready.val());
                    clock_cycle!(&mut uut);
                    cycles += 1;
                }
                assert!(bsrc.done() && dsrc.done(), "input left over");
                assert_no_more_output!(uut, 4, [in_valid, dec_valid]);
                (out, cycles)
            }
        };
    }

    run_fn!(run8, ChunkMuxE8, 8, 256, 288);
    run_fn!(run32, ChunkMuxE32, 32, 1024, 1056);

    #[test]
    fn e8_mixed_chunks_and_transfers_match_reference() {
        let mut rng = XorShift64::new(41);
        let t1 = transfer(
            &mut rng,
            8,
            &[
                (3, 32, false),
                (2, 32, true),
                (1, 32, false),
                (4, 32, false),
                (2, 7, true),
            ],
        );
        let t2 = transfer(&mut rng, 8, &[(2, 32, true), (3, 5, false)]);
        let t3 = transfer(&mut rng, 8, &[(1, 1, false)]);
        let beats: Vec<Beat> = [&t1.0, &t2.0, &t3.0]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        let decs: Vec<bool> = [&t1.1, &t2.1, &t3.1]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        let want = vec![t1.2, t2.2, t3.2];
        for (seed, pcts) in [(1, (70, 60, 60)), (2, (90, 30, 80))] {
            let (out, _) = run8(&beats, &decs, 3, pcts, seed);
            assert_eq!(out, want, "seed {seed}");
        }
    }

    #[test]
    fn e8_dense_zvc_chunks_emit_before_their_end() {
        // Dense blocks stored ZVC: the compressor emits a beat per block, before the
        // chunk's last block has entered it (the mux must already forward them).
        let mut rng = XorShift64::new(45);
        let (beats, decs, want) = transfer_with(
            &mut rng,
            8,
            &[
                (4, 32, false),
                (3, 32, true),
                (4, 32, false),
                (3, 20, false),
            ],
            &[0, 0, 0, 30],
        );
        for (seed, pcts) in [(1, (100, 100, 100)), (2, (80, 70, 50))] {
            let (out, _) = run8(&beats, &decs, 1, pcts, seed);
            assert_eq!(out, vec![want.clone()], "seed {seed}");
        }
    }

    #[test]
    fn e8_back_to_back_zvc_chunks_at_full_rate() {
        let mut rng = XorShift64::new(42);
        let (beats, decs, want) = transfer(
            &mut rng,
            8,
            &[
                (4, 32, false),
                (4, 32, false),
                (4, 32, false),
                (2, 32, true),
                (4, 32, true),
            ],
        );
        let (out, cycles) = run8(&beats, &decs, 1, (100, 100, 100), 3);
        assert_eq!(out, vec![want]);
        eprintln!("chunk mux: {} beats in {cycles} cycles", beats.len());
        // 18 beats at one per cycle, the compressor's latency and drain before the raw
        // chunks (about 3 cycles).
        assert!(cycles <= beats.len() as u64 + 6, "took {cycles} cycles");
    }

    #[test]
    fn e32_matches_reference() {
        let mut rng = XorShift64::new(43);
        let (beats, decs, want) = transfer(
            &mut rng,
            32,
            &[(1, 32, false), (1, 32, true), (2, 9, false)],
        );
        let (out, _) = run32(&beats, &decs, 1, (80, 80, 70), 4);
        assert_eq!(out, vec![want]);
    }

    #[test]
    fn e8_verilog_matches_rust_simulation() {
        use crate::prims::verilog_check::{check, recording};
        let mut rng = XorShift64::new(44);
        let (beats, decs, _) = transfer(
            &mut rng,
            8,
            &[
                (2, 32, false),
                (1, 32, true),
                (1, 32, false),
                (2, 32, false),
                (2, 7, true),
            ],
        );
        let trace = recording(|| {
            run8(&beats, &decs, 1, (70, 60, 60), 5);
        });
        check(
            &crate::emit::standalone_block(
                ChunkMuxE8::default(),
                "cdma_dma_chunk_mux_e8",
                &CHUNK_MUX_PORTS,
            ),
            &trace,
        );
    }
}
