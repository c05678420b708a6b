//! `ChunkScan` (COMPRESS): watches the source beats and decides per chunk whether it is stored
//! ZVC-compressed or raw (docs/ARCHITECTURE.md; spec/src/frame.rs: a chunk is stored ZVC iff
//! its ZVC payload is strictly smaller than the chunk), for the element width the descriptor
//! chose (`elem`, one block for every width).
//!
//! A source beat is `BB` bytes (the source's final beat may hold fewer, `in_bytes`; bytes at
//! and above it are ignored). Per beat the element flags ([`ElemFlags`]: an element is
//! non-zero iff any of its bytes is) are registered (`s1`); the next cycle their popcount is
//! registered (`s2`) while the beat's bytes are added to the chunk's byte count `ln` (and to
//! `lnr`, the same count plus `32·eb - 1`); the cycle after, the popcount times `eb` is added
//! to the chunk's non-zero element bytes `nzb`. When the chunk's last beat is in `s2` it emits
//! `zvc = 4·ceil(bytes / (32·eb)) + eb·nz` (one 4-byte mask per 32-element block, a final
//! partial block included; `eb = E/8` bytes per element) against `bytes`:
//! `dec_raw = !(zvc < bytes)`, `dec_stored_len = dec_raw ? bytes : zvc`.
//!
//! Each stage adds at most one wide operand with a short carry chain (issue 17: a 32-bit
//! sum ripples through every bit in the generic flow): `ln` and `lnr` add a byte count
//! through a carry-select (8-bit add, the upper 24 bits or their increment), `zvc` is a
//! carry-save sum of its three terms followed by a three-way carry-select, and the compare is
//! the sign of `bytes - zvc - 1` from a carry-save sum (only its top carry is needed). Chunks
//! are at most 2^24 bytes (spec/src/frame.rs), so every value is far below 2^31 and that sign
//! is the unsigned compare's result.
//!
//! The beats themselves do not pass through this block: it observes `in_data`, `in_bytes`,
//! `in_chunk_end` and passes the handshake on (`out_valid = in_valid & ok`,
//! `in_ready = out_ready & ok`, combinational). `ok` is low only for a chunk-end beat while
//! three decisions are already pending (queued or being computed) and none leaves this cycle
//! (so `ok` depends combinationally on `dec_ready`), so a stream of one beat per cycle is
//! never stalled unless the decision consumer falls three chunks behind; with `dec_ready` high
//! even one-beat chunks (128-byte chunks on a 1024-bit bus) flow at one beat and one decision
//! per cycle. The decision enters a three-entry queue; `dec_valid` rises three cycles after the
//! chunk's last beat passed.
//!
//! Counters are 32 bits (chunks up to 2^24 bytes, spec/src/frame.rs `CHUNK_LOG2_MAX`).

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::bus_codec::ElemFlags;
use crate::prims::{PopCount, ZeroExtend};

/// Port documentation of the chunk scanner, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static CHUNK_SCAN_PORTS: PortDocs = PortDocs::new(include_str!("chunk_scan.rs"), "$name");

macro_rules! chunk_scan {
    (
        $(#[$doc:meta])*
        $name:ident, bw: $bw:tt, bb: $bb:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high: clears the counts and pending decisions.
            pub rst: Signal<In, Bit>,
            /// Element width code of the stream (0 = 8, 1 = 16, 2 = 32 bits), stable from
            /// reset to the stream's end.
            pub elem: Signal<In, Bits<2>>,
            /// Source bus beat (observed only), byte `j` at bits `[8j +: 8]`.
            pub in_data: Signal<In, Bits<$bw>>,
            /// Valid bytes of this beat: BB, fewer on the source's final beat (whole elements).
            pub in_bytes: Signal<In, Bits<8>>,
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
            // --- stage 0: element flags of the observed beat
            flags: ElemFlags<$bb, $bw>,
            ok: Signal<Local, Bit>,
            fire: Signal<Local, Bit>,
            // --- stage 1: registered flags; popcount, byte counts
            s1_v: DFF<Bit>,
            s1_flags: DFF<Bits<$bb>>,
            s1_bytes: DFF<Bits<8>>,
            s1_end: DFF<Bit>,
            pc: PopCount<$bb, 8, true>,
            z_bytes: ZeroExtend<8, 32>,
            z_elem: ZeroExtend<2, 32>,
            // The beat in s1 starts a chunk (the one before it ended one, or reset).
            fresh: DFF<Bit>,
            // The chunk's bytes up to the beat in s2, and the same plus 32·eb - 1.
            ln: DFF<Bits<32>>,
            lnr: DFF<Bits<32>>,
            ln_base: Signal<Local, Bits<32>>,
            lnr_base: Signal<Local, Bits<32>>,
            ln_lo: Signal<Local, Bits<32>>,
            lnr_lo: Signal<Local, Bits<32>>,
            ln_hi: Signal<Local, Bits<32>>,
            lnr_hi: Signal<Local, Bits<32>>,
            // --- stage 2: the popcount; non-zero bytes of the chunk's beats before it
            s2_v: DFF<Bit>,
            s2_pc: DFF<Bits<8>>,
            s2_end: DFF<Bit>,
            z_pc: ZeroExtend<8, 32>,
            nzb: DFF<Bits<32>>,
            pcs: Signal<Local, Bits<32>>,
            bk4: Signal<Local, Bits<32>>,
            nzb_lo: Signal<Local, Bits<32>>,
            nzb_hi: Signal<Local, Bits<32>>,
            // zvc = bk4 + nzb + pcs: carry-save, then a three-way carry-select
            zs: Signal<Local, Bits<32>>,
            zc: Signal<Local, Bits<32>>,
            z_lo: Signal<Local, Bits<32>>,
            z_m0: Signal<Local, Bits<32>>,
            z_m1: Signal<Local, Bits<32>>,
            z_h0: Signal<Local, Bits<32>>,
            z_h1: Signal<Local, Bits<32>>,
            z_mid: Signal<Local, Bits<32>>,
            z_top: Signal<Local, Bits<32>>,
            // ln - zvc - 1 = ln + !bk4 + !nzb + !pcs + 2: two carry-save steps and a sum
            // whose sign is `raw`
            ds1: Signal<Local, Bits<32>>,
            dc1: Signal<Local, Bits<32>>,
            ds2: Signal<Local, Bits<32>>,
            dc2: Signal<Local, Bits<32>>,
            diff: Signal<Local, Bits<32>>,
            zvc: Signal<Local, Bits<32>>,
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
            q2_v: DFF<Bit>,
            q2_len: DFF<Bits<32>>,
            q2_raw: DFF<Bit>,
            cr: DFF<Bits<2>>,
            low8: Constant<Bits<32>>,
            high24: Constant<Bits<32>>,
            low12: Constant<Bits<32>>,
            high20: Constant<Bits<32>>,
            m0: Constant<Bits<32>>,
            m1: Constant<Bits<32>>,
            m2: Constant<Bits<32>>,
            m01: Constant<Bits<32>>,
            one32: Constant<Bits<32>>,
            zero32: Constant<Bits<32>>,
            five32: Constant<Bits<32>>,
            block8: Constant<Bits<32>>,
            one2: Constant<Bits<2>>,
            three2: Constant<Bits<2>>,
            zero2: Constant<Bits<2>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    elem: Default::default(),
                    in_data: Default::default(),
                    in_bytes: Default::default(),
                    in_chunk_end: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    dec_stored_len: Default::default(),
                    dec_raw: Default::default(),
                    dec_valid: Default::default(),
                    dec_ready: Default::default(),
                    flags: Default::default(),
                    ok: Default::default(),
                    fire: Default::default(),
                    s1_v: Default::default(),
                    s1_flags: Default::default(),
                    s1_bytes: Default::default(),
                    s1_end: Default::default(),
                    pc: Default::default(),
                    z_bytes: Default::default(),
                    z_elem: Default::default(),
                    fresh: Default::default(),
                    ln: Default::default(),
                    lnr: Default::default(),
                    ln_base: Default::default(),
                    lnr_base: Default::default(),
                    ln_lo: Default::default(),
                    lnr_lo: Default::default(),
                    ln_hi: Default::default(),
                    lnr_hi: Default::default(),
                    s2_v: Default::default(),
                    s2_pc: Default::default(),
                    s2_end: Default::default(),
                    z_pc: Default::default(),
                    nzb: Default::default(),
                    pcs: Default::default(),
                    bk4: Default::default(),
                    nzb_lo: Default::default(),
                    nzb_hi: Default::default(),
                    zs: Default::default(),
                    zc: Default::default(),
                    z_lo: Default::default(),
                    z_m0: Default::default(),
                    z_m1: Default::default(),
                    z_h0: Default::default(),
                    z_h1: Default::default(),
                    z_mid: Default::default(),
                    z_top: Default::default(),
                    ds1: Default::default(),
                    dc1: Default::default(),
                    ds2: Default::default(),
                    dc2: Default::default(),
                    diff: Default::default(),
                    zvc: Default::default(),
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
                    q2_v: Default::default(),
                    q2_len: Default::default(),
                    q2_raw: Default::default(),
                    cr: Default::default(),
                    low8: Constant::new((0xFFu64).into()),
                    high24: Constant::new((!0xFFu64 & 0xFFFF_FFFF).into()),
                    low12: Constant::new((0xFFFu64).into()),
                    high20: Constant::new((!0xFFFu64 & 0xFFFF_FFFF).into()),
                    m0: Constant::new((0x7FFu64).into()),
                    m1: Constant::new((0x3F_F800u64).into()),
                    m2: Constant::new((0xFFC0_0000u64).into()),
                    m01: Constant::new((0x3F_FFFFu64).into()),
                    one32: Constant::new(1.into()),
                    zero32: Constant::new(0.into()),
                    five32: Constant::new(5.into()),
                    block8: Constant::new(32.into()),
                    one2: Constant::new(1.into()),
                    three2: Constant::new(3.into()),
                    zero2: Constant::new(0.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, s1_v, s1_flags, s1_bytes, s1_end, fresh, ln, lnr, s2_v, s2_pc,
                    s2_end, nzb, q0_v, q0_len, q0_raw, q1_v, q1_len, q1_raw, q2_v, q2_len, q2_raw,
                    cr
                );
                // ---- stage 0: the handshake passes unless a chunk end finds no decision slot
                self.flags.d.next = self.in_data.val();
                self.flags.cnt.next = self.in_bytes.val();
                self.flags.elem.next = self.elem.val();
                self.pop.next = self.q0_v.q.val() & self.dec_ready.val();
                self.ok.next = (!self.in_chunk_end.val()
                    | (self.cr.q.val() < self.three2.val())
                    | self.pop.val())
                    & !self.rst.val();
                self.in_ready.next = self.out_ready.val() & self.ok.val();
                self.out_valid.next = self.in_valid.val() & self.ok.val();
                self.fire.next = self.in_valid.val() & self.out_ready.val() & self.ok.val();
                self.s1_v.d.next = self.fire.val();
                self.s1_flags.d.next = self.flags.ef.val();
                self.s1_bytes.d.next = self.in_bytes.val();
                self.s1_end.d.next = self.in_chunk_end.val();
                // ---- stage 1: popcount; the beat's bytes into ln and lnr, each as a
                // carry-select (the low byte adds, its carry picks the upper 24 bits or their
                // increment)
                self.pc.x.next = self.s1_flags.q.val();
                self.s2_v.d.next = self.s1_v.q.val();
                self.s2_pc.d.next = self.pc.y.val();
                self.s2_end.d.next = self.s1_end.q.val();
                self.z_bytes.x.next = self.s1_bytes.q.val();
                self.z_elem.x.next = self.elem.val();
                self.ln_base.next = self.ln.q.val();
                self.lnr_base.next = self.lnr.q.val();
                if self.fresh.q.val() {
                    self.ln_base.next = self.zero32.val();
                    // 32·eb - 1: ceil(bytes / (32·eb)) = (bytes + 32·eb - 1) >> (5 + elem)
                    self.lnr_base.next = (self.block8.val() << self.z_elem.y.val()) - self.one32.val();
                }
                self.ln_lo.next = (self.ln_base.val() & self.low8.val()) + self.z_bytes.y.val();
                self.lnr_lo.next = (self.lnr_base.val() & self.low8.val()) + self.z_bytes.y.val();
                self.ln_hi.next = self.ln_base.val() & self.high24.val();
                if self.ln_lo.val().get_bit(8) {
                    self.ln_hi.next = (self.ln_base.val() | self.low8.val()) + self.one32.val();
                }
                self.lnr_hi.next = self.lnr_base.val() & self.high24.val();
                if self.lnr_lo.val().get_bit(8) {
                    self.lnr_hi.next = (self.lnr_base.val() | self.low8.val()) + self.one32.val();
                }
                if self.s1_v.q.val() {
                    self.fresh.d.next = self.s1_end.q.val();
                    self.ln.d.next = self.ln_hi.val() | (self.ln_lo.val() & self.low8.val());
                    self.lnr.d.next = self.lnr_hi.val() | (self.lnr_lo.val() & self.low8.val());
                }
                // ---- stage 2: at a chunk end, decide (`ln` is the chunk's bytes)
                self.z_pc.x.next = self.s2_pc.q.val();
                self.pcs.next = self.z_pc.y.val() << self.z_elem.y.val();
                self.bk4.next = ((self.lnr.q.val() >> self.five32.val()) >> self.z_elem.y.val()) << 2;
                // nzb + pcs (pcs < 2^10) for the next beat: a 12-bit add and a carry-select
                self.nzb_lo.next = (self.nzb.q.val() & self.low12.val()) + self.pcs.val();
                self.nzb_hi.next = self.nzb.q.val() & self.high20.val();
                if self.nzb_lo.val().get_bit(12) {
                    self.nzb_hi.next = (self.nzb.q.val() | self.low12.val()) + self.one32.val();
                }
                // zvc: bits [0, 11), [11, 22), [22, 32) of the carry-save sum, the upper two
                // parts with and without a carry in (carry in = the low operands' bits set to
                // ones and a 1 added at bit 0)
                self.zs.next = self.bk4.val() ^ self.nzb.q.val() ^ self.pcs.val();
                self.zc.next = ((self.bk4.val() & self.nzb.q.val())
                    | (self.bk4.val() & self.pcs.val())
                    | (self.nzb.q.val() & self.pcs.val()))
                    << 1;
                self.z_lo.next = (self.zs.val() & self.m0.val()) + (self.zc.val() & self.m0.val());
                self.z_m0.next = (self.zs.val() & self.m1.val()) + (self.zc.val() & self.m1.val());
                self.z_m1.next = ((self.zs.val() & self.m1.val()) | self.m0.val())
                    + ((self.zc.val() & self.m1.val()) | self.one32.val());
                self.z_h0.next = (self.zs.val() & self.m2.val()) + (self.zc.val() & self.m2.val());
                self.z_h1.next = ((self.zs.val() & self.m2.val()) | self.m01.val())
                    + ((self.zc.val() & self.m2.val()) | self.one32.val());
                self.z_mid.next = self.z_m0.val();
                if self.z_lo.val().get_bit(11) {
                    self.z_mid.next = self.z_m1.val();
                }
                self.z_top.next = self.z_h0.val();
                if self.z_mid.val().get_bit(22) {
                    self.z_top.next = self.z_h1.val();
                }
                self.zvc.next = (self.z_lo.val() & self.m0.val())
                    | (self.z_mid.val() & self.m1.val())
                    | (self.z_top.val() & self.m2.val());
                // raw = !(zvc < ln) = (ln - zvc - 1 < 0), all values below 2^31
                self.ds1.next = self.ln.q.val() ^ !self.bk4.val() ^ !self.nzb.q.val();
                self.dc1.next = (((self.ln.q.val() & !self.bk4.val())
                    | (self.ln.q.val() & !self.nzb.q.val())
                    | (!self.bk4.val() & !self.nzb.q.val()))
                    << 1)
                    | self.one32.val();
                self.ds2.next = self.ds1.val() ^ self.dc1.val() ^ !self.pcs.val();
                self.dc2.next = (((self.ds1.val() & self.dc1.val())
                    | (self.ds1.val() & !self.pcs.val())
                    | (self.dc1.val() & !self.pcs.val()))
                    << 1)
                    | self.one32.val();
                self.diff.next = self.ds2.val() + self.dc2.val();
                // (the sign bit, as a shift: every bit of `diff` is read, for `verilator -Wall`)
                self.raw.next = (self.diff.val() >> 31).any();
                self.len.next = self.zvc.val();
                if self.raw.val() {
                    self.len.next = self.ln.q.val();
                }
                self.push.next = self.s2_v.q.val() & self.s2_end.q.val();
                if self.s2_v.q.val() {
                    if self.s2_end.q.val() {
                        self.nzb.d.next = self.zero32.val();
                    } else {
                        self.nzb.d.next = self.nzb_hi.val() | (self.nzb_lo.val() & self.low12.val());
                    }
                }
                // ---- decision queue
                if self.pop.val() {
                    self.q0_v.d.next = self.q1_v.q.val();
                    self.q0_len.d.next = self.q1_len.q.val();
                    self.q0_raw.d.next = self.q1_raw.q.val();
                    self.q1_v.d.next = self.q2_v.q.val();
                    self.q1_len.d.next = self.q2_len.q.val();
                    self.q1_raw.d.next = self.q2_raw.q.val();
                    self.q2_v.d.next = false;
                }
                if self.push.val() {
                    if !self.q0_v.q.val() | (self.pop.val() & !self.q1_v.q.val()) {
                        self.q0_v.d.next = true;
                        self.q0_len.d.next = self.len.val();
                        self.q0_raw.d.next = self.raw.val();
                    } else if !self.q1_v.q.val() | (self.pop.val() & !self.q2_v.q.val()) {
                        self.q1_v.d.next = true;
                        self.q1_len.d.next = self.len.val();
                        self.q1_raw.d.next = self.raw.val();
                    } else {
                        self.q2_v.d.next = true;
                        self.q2_len.d.next = self.len.val();
                        self.q2_raw.d.next = self.raw.val();
                    }
                }
                // Chunk ends between stage 0 and the consumer (≤ 3 = the queue's size).
                if (self.fire.val() & self.in_chunk_end.val()) & !self.pop.val() {
                    self.cr.d.next = self.cr.q.val() + self.one2.val();
                }
                if !(self.fire.val() & self.in_chunk_end.val()) & self.pop.val() {
                    self.cr.d.next = self.cr.q.val() - self.one2.val();
                }
                if self.rst.val() {
                    self.s1_v.d.next = false;
                    self.s2_v.d.next = false;
                    self.fresh.d.next = true;
                    self.nzb.d.next = self.zero32.val();
                    self.q0_v.d.next = false;
                    self.q1_v.d.next = false;
                    self.q2_v.d.next = false;
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
    /// Chunk scanner of a 128-bit bus (16 bytes per beat).
    ChunkScanDw128, bw: 128, bb: 16
);
chunk_scan!(
    /// Chunk scanner of a 256-bit bus (32 bytes per beat).
    ChunkScanDw256, bw: 256, bb: 32
);
chunk_scan!(
    /// Chunk scanner of a 512-bit bus (64 bytes per beat).
    ChunkScanDw512, bw: 512, bb: 64
);
chunk_scan!(
    /// Chunk scanner of a 1024-bit bus (128 bytes per beat).
    ChunkScanDw1024, bw: 1024, bb: 128
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prims::bits_of;
    use crate::testutil::*;
    use cdma_model::{zvc, ElemWidth};

    /// One source beat: its `BB` bytes (garbage past the valid ones), valid bytes, chunk end.
    type Beat = (Vec<u8>, usize, bool);

    fn elem(e: usize) -> ElemWidth {
        ElemWidth::from_bits(e as u32).unwrap()
    }

    /// The element width code of `e`-bit elements.
    fn code(e: usize) -> u64 {
        u64::from((e / 8).trailing_zeros())
    }

    /// The source beats (`bb` bytes) of `data` (whole elements) cut into chunks of
    /// `2^chunk_log2` bytes, and the model's decision `(stored_len, raw)` per chunk.
    fn beats_and_decisions(
        rng: &mut XorShift64,
        data: &[u8],
        e: usize,
        bb: usize,
        chunk_log2: u32,
    ) -> (Vec<Beat>, Vec<(u64, bool)>) {
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
            let n = chunk.chunks(bb).count();
            for (i, beat) in chunk.chunks(bb).enumerate() {
                let mut bytes = beat.to_vec();
                // Bytes past the source's end hold garbage: they must not count.
                bytes.extend((beat.len()..bb).map(|_| rng.next() as u8 | 1));
                beats.push((bytes, beat.len(), i + 1 == n));
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
                // A non-zero element with a single non-zero byte (any of them) half the
                // time: an element is kept when any of its bytes is non-zero.
                let v = if zero {
                    0
                } else if rng.chance(50) {
                    0x5Au64 << (8 * (rng.next() % eb as u64))
                } else {
                    (rng.next() | 1 << (e - 1)) & ((1u64 << e) - 1)
                };
                out.extend_from_slice(&v.to_le_bytes()[..eb]);
                i += 1;
            }
        }
        out
    }

    /// `$fname`: drives the beats of `e`-bit elements into a fresh block with seeded random
    /// valid / out_ready / dec_ready; returns the decisions and the cycle count. Checks the
    /// handshake pass-through on every cycle. `$drive`: the same on a given block, reset
    /// first through `rst` (recorded, so one Verilog trace can hold several streams).
    macro_rules! run_fn {
        ($fname:ident, $drive:ident, $ty:ty, $bw:expr) => {
            fn $fname(
                beats: &[Beat],
                e: usize,
                n_dec: usize,
                pcts: (u64, u64, u64),
                seed: u64,
            ) -> (Vec<(u64, bool)>, u64) {
                let mut uut = reset_block!($ty);
                $drive(&mut uut, beats, e, n_dec, pcts, seed)
            }

            #[allow(dead_code)]
            fn $drive(
                uut: &mut $ty,
                beats: &[Beat],
                e: usize,
                n_dec: usize,
                pcts: (u64, u64, u64),
                seed: u64,
            ) -> (Vec<(u64, bool)>, u64) {
                let mut rng = XorShift64::new(seed);
                uut.rst.next = true;
                uut.in_valid.next = false;
                settle(uut);
                crate::prims::verilog_check::record(uut);
                clock_cycle!(uut);
                uut.rst.next = false;
                uut.elem.next = code(e).into();
                uut.dec_ready.next = false;
                let mut src = Source::new(beats.len());
                let (mut decs, mut cycles) = (vec![], 0u64);
                while !src.done() || decs.len() < n_dec {
                    assert!(cycles < 20 * beats.len() as u64 + 100, "chunk scan hangs");
                    uut.in_valid.next = src.offer(&mut rng, pcts.0);
                    if let Some(i) = src.current() {
                        uut.in_data.next = bits_of::<$bw>(&beats[i].0);
                        uut.in_bytes.next = (beats[i].1 as u64).into();
                        uut.in_chunk_end.next = beats[i].2;
                    }
                    uut.out_ready.next = rng.chance(pcts.1);
                    uut.dec_ready.next = rng.chance(pcts.2);
                    settle(uut);
                    crate::prims::verilog_check::record(uut);
                    let fire_in = src.valid && uut.in_ready.val();
                    assert_eq!(fire_in, uut.out_valid.val() && uut.out_ready.val());
                    assert!(!uut.in_ready.val() || uut.out_ready.val());
                    assert!(!uut.out_valid.val() || src.valid);
                    if uut.dec_valid.val() && uut.dec_ready.val() {
                        decs.push((uut.dec_stored_len.val().to_u64(), uut.dec_raw.val()));
                    }
                    src.handshake(uut.in_ready.val());
                    clock_cycle!(uut);
                    cycles += 1;
                }
                uut.dec_ready.next = true;
                uut.in_valid.next = false;
                for _ in 0..3 {
                    settle(uut);
                    assert!(!uut.dec_valid.val(), "extra decision");
                    clock_cycle!(uut);
                }
                (decs, cycles)
            }
        };
    }

    run_fn!(run128, drive128, ChunkScanDw128, 128);
    run_fn!(run256, drive256, ChunkScanDw256, 256);
    run_fn!(run512, drive512, ChunkScanDw512, 512);
    run_fn!(run1024, drive1024, ChunkScanDw1024, 1024);

    /// The runner of a `bb`-byte bus.
    type Run = fn(&[Beat], usize, usize, (u64, u64, u64), u64) -> (Vec<(u64, bool)>, u64);
    const RUNS: [(usize, Run); 4] = [(16, run128), (32, run256), (64, run512), (128, run1024)];

    /// Activation-like data of `e`-bit elements with chunks exactly at the ZVC/raw threshold
    /// (128-byte chunk of `eb`-byte elements: ZVC = 4·ceil(128/(32·eb)) + eb·nz against 128)
    /// and a final partial chunk ending inside a block.
    fn mixed_data(rng: &mut XorShift64, e: usize) -> Vec<u8> {
        let eb = e / 8;
        let mut data = activation_like(rng, e, 24 * 128 / eb);
        let masks = 4 * 128 / (32 * eb);
        let at = (128 - masks) / eb; // this many non-zero elements: exactly 128 (raw)
        for nz in [at - 1, at] {
            data.extend((0..128 / eb).flat_map(|i| {
                let v: u32 = if i < nz { 0x5A } else { 0 };
                v.to_le_bytes().into_iter().take(eb)
            }));
        }
        data.extend(activation_like(rng, e, 77 / eb + 1));
        data
    }

    #[test]
    fn every_bus_and_element_width_matches_the_model() {
        for (bb, run) in RUNS {
            for e in [8, 16, 32] {
                let mut rng = XorShift64::new((bb * 100 + e) as u64);
                let data = mixed_data(&mut rng, e);
                let (beats, want) = beats_and_decisions(&mut rng, &data, e, bb, 7);
                assert!(want.iter().any(|d| d.1) && want.iter().any(|d| !d.1));
                for (seed, pcts) in [(1, (70, 70, 50)), (2, (90, 90, 10))] {
                    let (decs, _) = run(&beats, e, want.len(), pcts, seed);
                    assert_eq!(decs, want, "BB {bb}, E {e}, seed {seed}");
                }
            }
        }
    }

    #[test]
    fn model_edge_tensors_at_full_rate() {
        for (bb, run) in [RUNS[1], RUNS[3]] {
            for w in ElemWidth::ALL {
                let e = w.bits() as usize;
                let mut rng = XorShift64::new(32);
                // The model's edge-case tensors (special values, partial blocks), 256-byte
                // chunks.
                let data: Vec<u8> = cdma_model::synthetic::edge_tensors(w)
                    .into_iter()
                    .take(14)
                    .flat_map(|(_, t)| t)
                    .collect();
                let (beats, want) = beats_and_decisions(&mut rng, &data, e, bb, 8);
                let (decs, cycles) = run(&beats, e, want.len(), (100, 100, 100), 3);
                assert_eq!(decs, want, "BB {bb}, E {e}");
                // One beat per cycle, never stalled; the last decision 3 cycles after its beat.
                assert!(cycles <= beats.len() as u64 + 4, "took {cycles} cycles");
            }
        }
    }

    #[test]
    fn one_beat_chunks_one_decision_per_cycle() {
        let mut rng = XorShift64::new(33);
        // 128-byte chunks = one beat each on a 1024-bit bus: a decision every cycle.
        for e in [8, 32] {
            let data = activation_like(&mut rng, e, 12 * 1024 / e + 5);
            let (beats, want) = beats_and_decisions(&mut rng, &data, e, 128, 7);
            let (decs, cycles) = run1024(&beats, e, want.len(), (100, 100, 100), 4);
            assert_eq!(decs, want);
            assert!(cycles <= beats.len() as u64 + 4, "took {cycles} cycles");
            let (decs, _) = run1024(&beats, e, want.len(), (80, 80, 30), 5);
            assert_eq!(decs, want);
        }
    }

    #[test]
    fn verilog_matches_rust_simulation() {
        use crate::prims::verilog_check::{check, recording};
        let mut rng = XorShift64::new(34);
        let mut all = vec![];
        for e in [8, 16, 32] {
            let data = mixed_data(&mut rng, e);
            all.push((e, beats_and_decisions(&mut rng, &data, e, 32, 7)));
        }
        let trace = recording(|| {
            let mut uut = reset_block!(ChunkScanDw256);
            for (e, (beats, want)) in &all {
                let (decs, _) = drive256(&mut uut, beats, *e, want.len(), (80, 80, 30), 6);
                assert_eq!(&decs, want, "E {e}");
            }
        });
        check(
            &crate::emit::standalone_block(
                ChunkScanDw256::default(),
                "cdma_dma_chunk_scan_dw256",
                &CHUNK_SCAN_PORTS,
            ),
            &trace,
        );
    }
}
