//! `ChunkScan` (COMPRESS): watches the source beats and decides per chunk whether it is stored
//! ZVC-compressed or raw (docs/ARCHITECTURE.md; spec/src/frame.rs: a chunk is stored ZVC iff
//! its ZVC payload is strictly smaller than the chunk).
//!
//! Every source beat is one ZVC block (32 lanes; the source's final beat may hold fewer,
//! `in_lanes`, and is then a partial block: lanes at and above `in_lanes` are ignored). Per
//! chunk it counts blocks, valid lanes and non-zero lanes; when the chunk's last beat
//! (`in_chunk_end`) has passed it emits
//! `zvc = 4·blocks + (E/8)·nonzeros` against `bytes = (E/8)·lanes`:
//! `dec_raw = !(zvc < bytes)`, `dec_stored_len = dec_raw ? bytes : zvc`.
//!
//! The beats themselves do not pass through this block: it observes `in_data`, `in_lanes`,
//! `in_chunk_end` and passes the handshake on (`out_valid = in_valid & ok`,
//! `in_ready = out_ready & ok`, combinational). `ok` is low only for a chunk-end beat while
//! two decisions are already pending (queued or being computed) and none leaves this cycle
//! (so `ok` depends combinationally on `dec_ready`), so a stream of one beat per cycle is
//! never stalled unless the decision consumer falls two chunks behind; with `dec_ready` high
//! even one-beat chunks (E = 32, 128-byte chunks) flow at one beat and one decision per cycle. Pipeline:
//! the beat's non-zero lane flags are registered (`s1`), the next cycle their popcount is
//! accumulated and, at a chunk end, the decision enters a two-entry queue; `dec_valid` rises
//! two cycles after the chunk's last beat passed.
//!
//! Counters are 32 bits (chunks up to 2^24 bytes, spec/src/frame.rs `CHUNK_LOG2_MAX`).

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::prims::{LaneAny, ZeroExtend};
use crate::prims::{PopCount32, Thermo};

/// Port documentation of the chunk scanner, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static CHUNK_SCAN_PORTS: PortDocs = PortDocs::new(include_str!("chunk_scan.rs"), "$name");

macro_rules! chunk_scan {
    (
        $(#[$doc:meta])*
        $name:ident, e: $e:tt, lgb: $lgb:tt, bw: $bw:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high: clears the counts and pending decisions.
            pub rst: Signal<In, Bit>,
            /// Source bus beat (observed only): 32 lanes of E bits, one ZVC block.
            pub in_data: Signal<In, Bits<$bw>>,
            /// Valid lanes of this beat: 32, fewer on the source's final beat (1..32).
            pub in_lanes: Signal<In, Bits<6>>,
            /// This beat is the last of a chunk.
            pub in_chunk_end: Signal<In, Bit>,
            /// Source handshake: the beat is valid.
            pub in_valid: Signal<In, Bit>,
            /// Source handshake: out_ready and not stalled (in_ready = out_ready & ok).
            pub in_ready: Signal<Out, Bit>,
            /// Downstream handshake: in_valid and not stalled (out_valid = in_valid & ok).
            pub out_valid: Signal<Out, Bit>,
            /// Downstream handshake: the sink takes the beat.
            pub out_ready: Signal<In, Bit>,
            /// Bytes the chunk occupies in the payload (ZVC size, or chunk bytes if raw).
            pub dec_stored_len: Signal<Out, Bits<32>>,
            /// 1: store the chunk raw (ZVC size >= chunk bytes), 0: store it ZVC.
            pub dec_raw: Signal<Out, Bit>,
            /// Dec_stored_len/dec_raw are valid (one decision per chunk, in order).
            pub dec_valid: Signal<Out, Bit>,
            /// Decision handshake: the decision is taken this cycle if `dec_valid`.
            pub dec_ready: Signal<In, Bit>,
            // --- stage 0: non-zero valid lanes of the observed beat
            any: LaneAny<$e, $bw>,
            w_lanes: ZeroExtend<6, 7>,
            th: Thermo<32, 1, 32>,
            ok: Signal<Local, Bit>,
            fire: Signal<Local, Bit>,
            // --- stage 1: registered flags, popcount, accumulation
            s1_v: DFF<Bit>,
            s1_mask: DFF<Bits<32>>,
            s1_lanes: DFF<Bits<6>>,
            s1_end: DFF<Bit>,
            pc: PopCount32,
            z_pop: ZeroExtend<6, 32>,
            z_lanes: ZeroExtend<6, 32>,
            nz: DFF<Bits<32>>,
            blk: DFF<Bits<32>>,
            ln: DFF<Bits<32>>,
            nz_t: Signal<Local, Bits<32>>,
            blk_t: Signal<Local, Bits<32>>,
            ln_t: Signal<Local, Bits<32>>,
            zvc: Signal<Local, Bits<32>>,
            bytes: Signal<Local, Bits<32>>,
            raw: Signal<Local, Bit>,
            len: Signal<Local, Bits<32>>,
            push: Signal<Local, Bit>,
            pop: Signal<Local, Bit>,
            // --- decision queue (q0 drives the outputs) and chunk ends in flight
            q0_v: DFF<Bit>,
            q0_len: DFF<Bits<32>>,
            q0_raw: DFF<Bit>,
            q1_v: DFF<Bit>,
            q1_len: DFF<Bits<32>>,
            q1_raw: DFF<Bit>,
            cr: DFF<Bits<2>>,
            one32: Constant<Bits<32>>,
            zero32: Constant<Bits<32>>,
            one2: Constant<Bits<2>>,
            two2: Constant<Bits<2>>,
            zero2: Constant<Bits<2>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    in_data: Default::default(),
                    in_lanes: Default::default(),
                    in_chunk_end: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    dec_stored_len: Default::default(),
                    dec_raw: Default::default(),
                    dec_valid: Default::default(),
                    dec_ready: Default::default(),
                    any: Default::default(),
                    w_lanes: Default::default(),
                    th: Default::default(),
                    ok: Default::default(),
                    fire: Default::default(),
                    s1_v: Default::default(),
                    s1_mask: Default::default(),
                    s1_lanes: Default::default(),
                    s1_end: Default::default(),
                    pc: Default::default(),
                    z_pop: Default::default(),
                    z_lanes: Default::default(),
                    nz: Default::default(),
                    blk: Default::default(),
                    ln: Default::default(),
                    nz_t: Default::default(),
                    blk_t: Default::default(),
                    ln_t: Default::default(),
                    zvc: Default::default(),
                    bytes: Default::default(),
                    raw: Default::default(),
                    len: Default::default(),
                    push: Default::default(),
                    pop: Default::default(),
                    q0_v: Default::default(),
                    q0_len: Default::default(),
                    q0_raw: Default::default(),
                    q1_v: Default::default(),
                    q1_len: Default::default(),
                    q1_raw: Default::default(),
                    cr: Default::default(),
                    one32: Constant::new(1.into()),
                    zero32: Constant::new(0.into()),
                    one2: Constant::new(1.into()),
                    two2: Constant::new(2.into()),
                    zero2: Constant::new(0.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, s1_v, s1_mask, s1_lanes, s1_end, nz, blk, ln, q0_v, q0_len,
                    q0_raw, q1_v, q1_len, q1_raw, cr
                );
                // ---- stage 0: the handshake passes unless a chunk end finds no decision slot
                self.any.x.next = self.in_data.val();
                self.w_lanes.x.next = self.in_lanes.val();
                self.th.n.next = self.w_lanes.y.val();
                self.pop.next = self.q0_v.q.val() & self.dec_ready.val();
                self.ok.next = (!self.in_chunk_end.val()
                    | (self.cr.q.val() < self.two2.val())
                    | self.pop.val())
                    & !self.rst.val();
                self.in_ready.next = self.out_ready.val() & self.ok.val();
                self.out_valid.next = self.in_valid.val() & self.ok.val();
                self.fire.next = self.in_valid.val() & self.out_ready.val() & self.ok.val();
                self.s1_v.d.next = self.fire.val();
                self.s1_mask.d.next = self.any.y.val() & self.th.y.val();
                self.s1_lanes.d.next = self.in_lanes.val();
                self.s1_end.d.next = self.in_chunk_end.val();
                // ---- stage 1: accumulate; at a chunk end, decide
                self.pc.x.next = self.s1_mask.q.val();
                self.z_pop.x.next = self.pc.y.val();
                self.z_lanes.x.next = self.s1_lanes.q.val();
                self.nz_t.next = self.nz.q.val() + self.z_pop.y.val();
                self.blk_t.next = self.blk.q.val() + self.one32.val();
                self.ln_t.next = self.ln.q.val() + self.z_lanes.y.val();
                self.zvc.next = (self.blk_t.val() << 2) + (self.nz_t.val() << $lgb);
                self.bytes.next = self.ln_t.val() << $lgb;
                self.raw.next = !(self.zvc.val() < self.bytes.val());
                self.len.next = self.zvc.val();
                if self.raw.val() {
                    self.len.next = self.bytes.val();
                }
                self.push.next = self.s1_v.q.val() & self.s1_end.q.val();
                if self.s1_v.q.val() {
                    if self.s1_end.q.val() {
                        self.nz.d.next = self.zero32.val();
                        self.blk.d.next = self.zero32.val();
                        self.ln.d.next = self.zero32.val();
                    } else {
                        self.nz.d.next = self.nz_t.val();
                        self.blk.d.next = self.blk_t.val();
                        self.ln.d.next = self.ln_t.val();
                    }
                }
                // ---- decision queue
                if self.pop.val() {
                    self.q0_v.d.next = self.q1_v.q.val();
                    self.q0_len.d.next = self.q1_len.q.val();
                    self.q0_raw.d.next = self.q1_raw.q.val();
                    self.q1_v.d.next = false;
                }
                if self.push.val() {
                    if !self.q0_v.q.val() | (self.pop.val() & !self.q1_v.q.val()) {
                        self.q0_v.d.next = true;
                        self.q0_len.d.next = self.len.val();
                        self.q0_raw.d.next = self.raw.val();
                    } else {
                        self.q1_v.d.next = true;
                        self.q1_len.d.next = self.len.val();
                        self.q1_raw.d.next = self.raw.val();
                    }
                }
                // Chunk ends between stage 0 and the consumer (≤ 2 = the queue's size).
                if (self.fire.val() & self.in_chunk_end.val()) & !self.pop.val() {
                    self.cr.d.next = self.cr.q.val() + self.one2.val();
                }
                if !(self.fire.val() & self.in_chunk_end.val()) & self.pop.val() {
                    self.cr.d.next = self.cr.q.val() - self.one2.val();
                }
                if self.rst.val() {
                    self.s1_v.d.next = false;
                    self.nz.d.next = self.zero32.val();
                    self.blk.d.next = self.zero32.val();
                    self.ln.d.next = self.zero32.val();
                    self.q0_v.d.next = false;
                    self.q1_v.d.next = false;
                    self.cr.d.next = self.zero2.val();
                }
                self.dec_stored_len.next = self.q0_len.q.val();
                self.dec_raw.next = self.q0_raw.q.val();
                self.dec_valid.next = self.q0_v.q.val();
            }
        }
    };
}

chunk_scan!(
    /// Chunk scanner for E = 8 (256-bit bus beats).
    ChunkScanE8, e: 8, lgb: 0, bw: 256
);
chunk_scan!(
    /// Chunk scanner for E = 16 (512-bit bus beats).
    ChunkScanE16, e: 16, lgb: 1, bw: 512
);
chunk_scan!(
    /// Chunk scanner for E = 32 (1024-bit bus beats).
    ChunkScanE32, e: 32, lgb: 2, bw: 1024
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;
    use cdma_model::{zvc, ElemWidth};

    /// One source beat: 32 lanes (garbage past the valid ones), valid lanes, chunk end.
    type Beat = (Vec<u64>, usize, bool);

    fn elem(e: usize) -> ElemWidth {
        ElemWidth::from_bits(e as u32).unwrap()
    }

    /// The source beats of `data` (whole elements) cut into chunks of `2^chunk_log2` bytes,
    /// and the model's decision `(stored_len, raw)` per chunk.
    fn beats_and_decisions(
        rng: &mut XorShift64,
        data: &[u8],
        e: usize,
        chunk_log2: u32,
    ) -> (Vec<Beat>, Vec<(u64, bool)>) {
        let eb = e / 8;
        let mut beats = vec![];
        let mut decs = vec![];
        for chunk in data.chunks(1 << chunk_log2) {
            let len = zvc::encoded_len(chunk, elem(e)).unwrap();
            assert_eq!(len, zvc::encode(chunk, elem(e)).unwrap().len());
            decs.push(if len < chunk.len() {
                (len as u64, false)
            } else {
                (chunk.len() as u64, true)
            });
            let n = chunk.chunks(32 * eb).count();
            for (i, beat) in chunk.chunks(32 * eb).enumerate() {
                let mut lanes: Vec<u64> = beat
                    .chunks(eb)
                    .map(|x| x.iter().rev().fold(0u64, |a, &b| (a << 8) | u64::from(b)))
                    .collect();
                let valid = lanes.len();
                // Lanes past the source's end hold garbage: it must not count.
                lanes.extend((valid..32).map(|_| (rng.next() | 1) & ((1u64 << e) - 1)));
                beats.push((lanes, valid, i + 1 == n));
            }
        }
        (beats, decs)
    }

    /// Activation-like bytes: runs of zeros and non-zeros (ReLU maps), per-region sparsity
    /// from dense to empty, and stretches exactly at the ZVC/raw threshold.
    fn activation_like(rng: &mut XorShift64, e: usize, n_elems: usize) -> Vec<u8> {
        let eb = e / 8;
        let mut out = Vec::with_capacity(n_elems * eb);
        let pcts = [95, 60, 0, 100, 40, 85, 10];
        let mut i = 0;
        while i < n_elems {
            let pct = pcts[(i / 97) % pcts.len()];
            let run = 1 + (rng.next() % 12) as usize;
            let zero = rng.chance(pct);
            for _ in 0..run.min(n_elems - i) {
                let v = if zero {
                    0
                } else {
                    (rng.next() | 1 << (e - 1)) & ((1u64 << e) - 1)
                };
                out.extend_from_slice(&v.to_le_bytes()[..eb]);
                i += 1;
            }
        }
        out
    }

    /// Drives the beats with seeded random valid / out_ready / dec_ready; returns the
    /// decisions and the cycle count. Checks the handshake pass-through on every cycle.
    macro_rules! run_fn {
        ($fname:ident, $ty:ty, $e:expr, $bw:expr) => {
            fn $fname(
                beats: &[Beat],
                n_dec: usize,
                pcts: (u64, u64, u64),
                seed: u64,
            ) -> (Vec<(u64, bool)>, u64) {
                let e: usize = $e;
                let mut rng = XorShift64::new(seed);
                let mut uut = reset_block!($ty);
                uut.dec_ready.next = false;
                let mut src = Source::new(beats.len());
                let (mut decs, mut cycles) = (vec![], 0u64);
                while !src.done() || decs.len() < n_dec {
                    assert!(cycles < 20 * beats.len() as u64 + 100, "chunk scan hangs");
                    uut.in_valid.next = src.offer(&mut rng, pcts.0);
                    if let Some(i) = src.current() {
                        uut.in_data.next = to_bus::<$bw>(&beats[i].0, e);
                        uut.in_lanes.next = (beats[i].1 as u64).into();
                        uut.in_chunk_end.next = beats[i].2;
                    }
                    uut.out_ready.next = rng.chance(pcts.1);
                    uut.dec_ready.next = rng.chance(pcts.2);
                    settle(&mut uut);
                    crate::prims::verilog_check::record(&uut);
                    let fire_in = src.valid && uut.in_ready.val();
                    assert_eq!(fire_in, uut.out_valid.val() && uut.out_ready.val());
                    assert!(!uut.in_ready.val() || uut.out_ready.val());
                    assert!(!uut.out_valid.val() || src.valid);
                    if uut.dec_valid.val() && uut.dec_ready.val() {
                        decs.push((uut.dec_stored_len.val().to_u64(), uut.dec_raw.val()));
                    }
                    src.handshake(uut.in_ready.val());
                    clock_cycle!(&mut uut);
                    cycles += 1;
                }
                uut.dec_ready.next = true;
                uut.in_valid.next = false;
                for _ in 0..3 {
                    settle(&mut uut);
                    assert!(!uut.dec_valid.val(), "extra decision");
                    clock_cycle!(&mut uut);
                }
                (decs, cycles)
            }
        };
    }

    run_fn!(run8, ChunkScanE8, 8, 256);
    run_fn!(run32, ChunkScanE32, 32, 1024);

    #[test]
    fn e8_matches_model_on_activation_like_and_random_data() {
        let mut rng = XorShift64::new(31);
        // 128-byte chunks (4 beats); a final partial chunk ending in a partial beat.
        let mut data = activation_like(&mut rng, 8, 40 * 128);
        // Exactly at the threshold (E=8, 128 B: ZVC = 16 + nonzeros): 111 non-zeros is
        // ZVC (127 < 128), 112 is raw (128 = 128).
        for nz in [111, 112] {
            data.extend((0..128).map(|i| u8::from(i < nz) * 0x5A));
        }
        let mut tail: Vec<u8> = (0..200).map(|_| rng.next() as u8 & 0x81).collect();
        tail.extend([0, 7, 0]);
        tail.extend(activation_like(&mut rng, 8, 77));
        data.extend(tail);
        let (beats, want) = beats_and_decisions(&mut rng, &data, 8, 7);
        assert!(want.iter().any(|d| d.1) && want.iter().any(|d| !d.1));
        for (seed, pcts) in [(1, (70, 70, 50)), (2, (90, 90, 10))] {
            let (decs, _) = run8(&beats, want.len(), pcts, seed);
            assert_eq!(decs, want, "seed {seed}");
        }
    }

    #[test]
    fn e8_model_edge_tensors_and_full_rate() {
        let mut rng = XorShift64::new(32);
        // The model's edge-case tensors (special values, partial blocks), 256-byte chunks.
        let data: Vec<u8> = cdma_model::synthetic::edge_tensors(ElemWidth::W8)
            .into_iter()
            .take(14)
            .flat_map(|(_, t)| t)
            .collect();
        let (beats, want) = beats_and_decisions(&mut rng, &data, 8, 8);
        let (decs, cycles) = run8(&beats, want.len(), (100, 100, 100), 3);
        assert_eq!(decs, want);
        eprintln!("chunk scan: {} beats in {cycles} cycles", beats.len());
        // One beat per cycle, never stalled; the last decision 2 cycles after its beat.
        assert!(cycles <= beats.len() as u64 + 3, "took {cycles} cycles");
    }

    #[test]
    fn e32_one_beat_chunks_one_decision_per_cycle() {
        let mut rng = XorShift64::new(33);
        // 128-byte chunks = one beat each at E=32: a decision every cycle.
        let data = activation_like(&mut rng, 32, 12 * 32 + 5);
        let (beats, want) = beats_and_decisions(&mut rng, &data, 32, 7);
        let (decs, cycles) = run32(&beats, want.len(), (100, 100, 100), 4);
        assert_eq!(decs, want);
        assert!(cycles <= beats.len() as u64 + 3, "took {cycles} cycles");
        let (decs, _) = run32(&beats, want.len(), (80, 80, 30), 5);
        assert_eq!(decs, want);
    }

    #[test]
    fn e8_verilog_matches_rust_simulation() {
        use crate::prims::verilog_check::{check, recording};
        let mut rng = XorShift64::new(34);
        let mut data = activation_like(&mut rng, 8, 12 * 128);
        data.extend((0..128).map(|i| u8::from(i < 112) * 0x5A));
        data.extend(activation_like(&mut rng, 8, 45));
        let (beats, want) = beats_and_decisions(&mut rng, &data, 8, 7);
        let trace = recording(|| {
            run8(&beats, want.len(), (80, 80, 30), 6);
        });
        check(
            &crate::emit::standalone_block(
                ChunkScanE8::default(),
                "cdma_dma_chunk_scan_e8",
                &CHUNK_SCAN_PORTS,
            ),
            &trace,
        );
    }
}
