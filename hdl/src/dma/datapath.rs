//! `Datapath`: the engine's payload datapath between the controller's payload read beats
//! (`in_*`, gated by `dp_rd_valid`/`dp_rd_ready`) and its payload write beats (`out_*`, the
//! controller's `dp_wr_*`), for a bus of `DW` bits (`BB = DW/8` bytes), built on the bus
//! codec (`crate::bus_codec`): one datapath for every element width, the width (`elem`) set
//! per descriptor.
//!
//! * **Source framing** (COPY, COMPRESS, and the payload's end for DECOMPRESS): a byte offset
//!   `pos` counts the beats taken since `start`; per beat `rem = src_len − pos`, the beat is
//!   the last iff `rem ≤ BB`, holds `BB` bytes (`rem` on the last beat), and ends a chunk iff
//!   `(pos + BB) mod 2^chunk_log2 = 0` or it is the last (`chunk_log2 ≥ 7 ≥ log2 BB`: a beat
//!   never spans two chunks).
//! * **COPY**: the beats go straight into the `ZvcBusCompressor` as raw beats (its packer
//!   writes them back out; an empty transfer is one zero-strobe beat with `last`).
//! * **COMPRESS**: `ChunkScan` (tap) → `ChunkFifo` (`{last, chunk_end, bytes, data}`) →
//!   `ZvcBusCompressor`; ChunkScan's decisions leave on `dec_*` (to the controller, which
//!   records them and forwards them as chunk commands `ck_*` when they fit `dst_cap`). A
//!   chunk's beats enter the compressor only while its command is offered (`ck_raw` says
//!   raw or ZVC); the command is taken with the chunk's last beat.
//! * **DECOMPRESS**: the payload beats and the chunk commands go into the
//!   `ZvcBusDecompressor`, which decodes and checks every chunk (docs/FORMAT.md rule 17);
//!   its sticky `error` is the datapath's `error` (BAD_PAYLOAD).
//! * **Reset and abort**: every child is reset by `rst` and, the cycle after, by `start` and
//!   `abort` (registered: the controller's state decode would otherwise reach every child's
//!   registers in one cycle), so `start` clears the previous operation (and the
//!   decompressor's sticky error) before the controller's first request is answered, and
//!   `abort` drops everything in flight within two cycles. `idle` is low from `start` until
//!   the output's last beat has been taken (or an abort/reset).
//!
//! * **Register slices** (`BeatSlice`): the payload beats pass a two-entry register slice on
//!   the way in and on the way out, so the read and write masters' handshakes do not reach
//!   into the codec in the same cycle (the engine's long valid/ready chains for timing
//!   closure). Each costs a cycle of latency, not throughput.
//!
//! The `ck_ready` / `dec_*` paths are combinational through the children (the controller's
//! contract: `dec_ready` follows `ck_ready` in the same cycle).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::check::{CL_BITS, LEN_BITS, OP_BITS};
use super::chunk_fifo::{ChunkFifoDw1024, ChunkFifoDw128, ChunkFifoDw256, ChunkFifoDw512};
use super::chunk_scan::{ChunkScanDw1024, ChunkScanDw128, ChunkScanDw256, ChunkScanDw512};
use super::crc_path::CrcPath;
use super::zvcx_dec::{ZvcxDecPathDw1024, ZvcxDecPathDw128, ZvcxDecPathDw256, ZvcxDecPathDw512};
use super::zvcx_enc::{ZvcxEncPathDw1024, ZvcxEncPathDw128, ZvcxEncPathDw256, ZvcxEncPathDw512};
use super::zvcx_off::{ZvcxDecOff, ZvcxEncOff};
use crate::bus_codec::{
    ZvcBusCompressorDw1024, ZvcBusCompressorDw128, ZvcBusCompressorDw256, ZvcBusCompressorDw512,
    ZvcBusDecompressorDw1024, ZvcBusDecompressorDw128, ZvcBusDecompressorDw256,
    ZvcBusDecompressorDw512,
};
use crate::prims::{BeatSlice, Join};
use cdma_spec::desc;

macro_rules! datapath {
    (
        $(#[$doc:meta])*
        $name:ident, $scan:ty, $fifo:ty, $comp:ty, $zdec:ty, $xenc:ty, $xdec:ty, $crc:ty,
        bw: $bw:tt, sw: $sw:tt, st: $st:tt, fw: $fw:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// Pulse: a new operation starts (clears the datapath).
            pub start: Signal<In, Bit>,
            /// Level: drop everything in flight.
            pub abort: Signal<In, Bit>,
            /// Operation (cdma_spec::desc OP_*), stable from `start` on.
            pub op: Signal<In, Bits<OP_BITS>>,
            /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; cdma_spec::desc::ELEM_CODES),
            /// stable from `start` on.
            pub elem: Signal<In, Bits<2>>,
            /// The codec is ZVC-X (COMPRESS, DECOMPRESS), stable from `start` on.
            pub zvcx: Signal<In, Bit>,
            /// Element type code (docs/FORMAT.md `elem_type`) for ZVC-X, stable from `start`.
            pub ty: Signal<In, Bits<3>>,
            /// The operation carries CRC32C (a version 4 frame), stable from `start` on.
            pub crc: Signal<In, Bit>,
            /// Source bytes (payload bytes for DECOMPRESS).
            pub src_len: Signal<In, Bits<LEN_BITS>>,
            /// DECOMPRESS: bytes of the output (`uncompressed_len`).
            pub dst_len: Signal<In, Bits<LEN_BITS>>,
            /// Chunk size log2.
            pub chunk_log2: Signal<In, Bits<CL_BITS>>,
            /// Payload read beat.
            pub in_data: Signal<In, Bits<$bw>>,
            /// Payload read beat valid.
            pub in_valid: Signal<In, Bit>,
            /// Payload read beat taken.
            pub in_ready: Signal<Out, Bit>,
            /// COMPRESS decision: stored bytes.
            pub dec_stored_len: Signal<Out, Bits<LEN_BITS>>,
            /// COMPRESS decision: raw.
            pub dec_raw: Signal<Out, Bit>,
            /// COMPRESS decision: the chunk's CRC32C (with `crc`).
            pub dec_crc: Signal<Out, Bits<32>>,
            /// Decision valid.
            pub dec_valid: Signal<Out, Bit>,
            /// Decision taken.
            pub dec_ready: Signal<In, Bit>,
            /// Chunk command: stored bytes.
            pub ck_stored_len: Signal<In, Bits<LEN_BITS>>,
            /// Chunk command: raw.
            pub ck_raw: Signal<In, Bit>,
            /// Chunk command: uncompressed bytes.
            pub ck_chunk_len: Signal<In, Bits<LEN_BITS>>,
            /// Chunk command (DECOMPRESS with `crc`): the chunk's expected CRC32C.
            pub ck_crc: Signal<In, Bits<32>>,
            /// Chunk command: last chunk (DECOMPRESS; COMPRESS with ZVC-X, whose coded beats
            /// do not carry the source's end).
            pub ck_last: Signal<In, Bit>,
            /// Chunk command valid.
            pub ck_valid: Signal<In, Bit>,
            /// Chunk command taken.
            pub ck_ready: Signal<Out, Bit>,
            /// Payload write beat.
            pub out_data: Signal<Out, Bits<$bw>>,
            /// Payload write beat strobes.
            pub out_strb: Signal<Out, Bits<$sw>>,
            /// Last payload write beat.
            pub out_last: Signal<Out, Bit>,
            /// Payload write beat valid.
            pub out_valid: Signal<Out, Bit>,
            /// Payload write beat taken.
            pub out_ready: Signal<In, Bit>,
            /// Nothing in flight.
            pub idle: Signal<Out, Bit>,
            /// DECOMPRESS payload error (sticky until `start`), once all the failing chunk's
            /// stored bytes have come in.
            pub error: Signal<Out, Bit>,
            /// DECOMPRESS, from registers: the decoders cannot decide the next chunk without
            /// the next payload beat (a chunk needs it, every chunk before is decided). With
            /// that beat held back (a read error), the read error is the descriptor's.
            pub need_in: Signal<Out, Bit>,
            /// DECOMPRESS with `crc`: a chunk's data did not match its CRC32C (sticky until
            /// `start`; settled once `ck_open` is low).
            pub crc_err: Signal<Out, Bit>,
            /// Metadata pass (DECOMPRESS with `crc`, before `start`): level until `mp_done`.
            pub mp: Signal<In, Bit>,
            /// Metadata pass: the controller takes an index beat (`in_data`).
            pub mp_take: Signal<In, Bit>,
            /// Metadata pass: the first index beat.
            pub mp_first: Signal<In, Bit>,
            /// Metadata pass: the last index beat.
            pub mp_last: Signal<In, Bit>,
            /// Metadata pass: the beat's index bytes end at this lane.
            pub mp_cnt: Signal<In, Bits<8>>,
            /// Metadata pass: the raw CRC32C state after the index.
            pub mp_state: Signal<Out, Bits<32>>,
            /// Metadata pass: `mp_state` is there (one cycle).
            pub mp_done: Signal<Out, Bit>,
            /// DECOMPRESS: a chunk command is open (taken, its last beat not yet decoded, or
            /// its CRC not yet checked): low once every chunk commanded has been checked
            /// (`error` settles the cycle after; `crc_err` is settled).
            pub ck_open: Signal<Out, Bit>,
            // children
            scan: $scan,
            fifo: $fifo,
            comp: $comp,
            zdec: $zdec,
            xenc: $xenc,
            xdec: $xdec,
            crcp: $crc,
            /// The payload read beats' register slice.
            sin: BeatSlice<$bw, 1>,
            /// The payload write beats' register slice (tag: `{last, strb}`).
            sout: BeatSlice<$bw, $st>,
            j_otag: Join<$sw, 1, $st>,
            j_flags: Join<1, 1, 2>,
            j_hi: Join<8, 2, 10>,
            j_word: Join<$bw, 10, $fw>,
            // registers
            pos: DFF<Bits<LEN_BITS>>,
            act: DFF<Bit>,
            /// `start | abort` a cycle ago: the children's reset (with `rst`).
            crst_r: DFF<Bit>,
            /// The mode (COMPRESS, DECOMPRESS, with ZVC-X) and the codec's element width,
            /// registered.
            m_comp: DFF<Bit>,
            m_dec: DFF<Bit>,
            m_cx: DFF<Bit>,
            m_dx: DFF<Bit>,
            m_zx: DFF<Bit>,
            celem: DFF<Bits<2>>,
            b_done: DFF<Bit>,
            opos: DFF<Bits<LEN_BITS>>,
            need_r: DFF<Bit>,
            // locals
            crst: Signal<Local, Bit>,
            is_comp: Signal<Local, Bit>,
            is_dec: Signal<Local, Bit>,
            rem: Signal<Local, Bits<LEN_BITS>>,
            pos_nx: Signal<Local, Bits<LEN_BITS>>,
            csz_m1: Signal<Local, Bits<LEN_BITS>>,
            last_beat: Signal<Local, Bit>,
            chunk_end: Signal<Local, Bit>,
            bytes: Signal<Local, Bits<8>>,
            take: Signal<Local, Bit>,
            f_take: Signal<Local, Bit>,
            is_cx: Signal<Local, Bit>,
            is_dx: Signal<Local, Bit>,
            a_valid: Signal<Local, Bit>,
            a_end: Signal<Local, Bit>,
            a_take: Signal<Local, Bit>,
            b_valid: Signal<Local, Bit>,
            b_end: Signal<Local, Bit>,
            b_take: Signal<Local, Bit>,
            a_ok: Signal<Local, Bit>,
            b_fin: Signal<Local, Bit>,
            skip: Signal<Local, Bit>,
            inner_ck_ready: Signal<Local, Bit>,
            o_rem: Signal<Local, Bits<LEN_BITS>>,
            // constants
            op_comp: Constant<Bits<OP_BITS>>,
            op_dec: Constant<Bits<OP_BITS>>,
            bb: Constant<Bits<LEN_BITS>>,
            bb8: Constant<Bits<8>>,
            one: Constant<Bits<LEN_BITS>>,
            zero: Constant<Bits<LEN_BITS>>,
            elem8: Constant<Bits<2>>,
            no_tag: Constant<Bits<1>>,
        }

        impl Default for $name {
            fn default() -> Self {
                fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
                    Constant::new(v.into())
                }
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    start: Default::default(),
                    abort: Default::default(),
                    op: Default::default(),
                    elem: Default::default(),
                    zvcx: Default::default(),
                    ty: Default::default(),
                    crc: Default::default(),
                    src_len: Default::default(),
                    dst_len: Default::default(),
                    chunk_log2: Default::default(),
                    in_data: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    dec_stored_len: Default::default(),
                    dec_raw: Default::default(),
                    dec_crc: Default::default(),
                    dec_valid: Default::default(),
                    dec_ready: Default::default(),
                    ck_stored_len: Default::default(),
                    ck_raw: Default::default(),
                    ck_chunk_len: Default::default(),
                    ck_crc: Default::default(),
                    ck_last: Default::default(),
                    ck_valid: Default::default(),
                    ck_ready: Default::default(),
                    out_data: Default::default(),
                    out_strb: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    idle: Default::default(),
                    error: Default::default(),
                    need_in: Default::default(),
                    crc_err: Default::default(),
                    mp: Default::default(),
                    mp_take: Default::default(),
                    mp_first: Default::default(),
                    mp_last: Default::default(),
                    mp_cnt: Default::default(),
                    mp_state: Default::default(),
                    mp_done: Default::default(),
                    ck_open: Default::default(),
                    scan: Default::default(),
                    fifo: Default::default(),
                    comp: Default::default(),
                    zdec: Default::default(),
                    xenc: Default::default(),
                    xdec: Default::default(),
                    crcp: Default::default(),
                    sin: Default::default(),
                    sout: Default::default(),
                    j_otag: Default::default(),
                    j_flags: Default::default(),
                    j_hi: Default::default(),
                    j_word: Default::default(),
                    pos: Default::default(),
                    act: Default::default(),
                    crst_r: Default::default(),
                    m_comp: Default::default(),
                    m_dec: Default::default(),
                    m_cx: Default::default(),
                    m_dx: Default::default(),
                    m_zx: Default::default(),
                    celem: Default::default(),
                    b_done: Default::default(),
                    opos: Default::default(),
                    need_r: Default::default(),
                    crst: Default::default(),
                    is_comp: Default::default(),
                    is_dec: Default::default(),
                    rem: Default::default(),
                    pos_nx: Default::default(),
                    csz_m1: Default::default(),
                    last_beat: Default::default(),
                    chunk_end: Default::default(),
                    bytes: Default::default(),
                    take: Default::default(),
                    f_take: Default::default(),
                    is_cx: Default::default(),
                    is_dx: Default::default(),
                    a_valid: Default::default(),
                    a_end: Default::default(),
                    a_take: Default::default(),
                    b_valid: Default::default(),
                    b_end: Default::default(),
                    b_take: Default::default(),
                    a_ok: Default::default(),
                    b_fin: Default::default(),
                    skip: Default::default(),
                    inner_ck_ready: Default::default(),
                    o_rem: Default::default(),
                    op_comp: c(desc::OP_COMPRESS),
                    op_dec: c(desc::OP_DECOMPRESS),
                    bb: c($bw / 8),
                    bb8: c($bw / 8),
                    one: c(1),
                    zero: c(0),
                    elem8: c(0),
                    no_tag: c(0),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, pos, act, crst_r, m_comp, m_dec, m_cx, m_dx, m_zx, celem, b_done, opos, need_r
                );
                self.crst_r.d.next = self.start.val() | self.abort.val();
                self.crst.next = self.rst.val() | self.crst_r.q.val();
                self.scan.clock.next = self.clock.val();
                self.fifo.clock.next = self.clock.val();
                self.comp.clock.next = self.clock.val();
                self.zdec.clock.next = self.clock.val();
                self.xenc.clock.next = self.clock.val();
                self.xdec.clock.next = self.clock.val();
                self.scan.rst.next = self.crst.val();
                self.fifo.rst.next = self.crst.val();
                self.comp.rst.next = self.crst.val();
                self.zdec.rst.next = self.crst.val();
                self.xenc.rst.next = self.crst.val();
                self.xdec.rst.next = self.crst.val();
                self.crcp.clock.next = self.clock.val();
                self.crcp.rst.next = self.crst.val();
                // ---- the register slices: the beats in and out (the ports) and the beats the
                // children take and give (sin.out_*, sout.in_*), a cycle apart
                self.sin.clock.next = self.clock.val();
                self.sin.rst.next = self.crst.val();
                self.sin.in_data.next = self.in_data.val();
                self.sin.in_tag.next = self.no_tag.val();
                self.sin.in_valid.next = self.in_valid.val() & !self.crst_r.q.val();
                // (Nothing is taken while the children reset: `crst_r`.)
                self.in_ready.next = self.sin.in_ready.val() & !self.crst_r.q.val();
                self.sout.clock.next = self.clock.val();
                self.sout.rst.next = self.crst.val();
                self.out_data.next = self.sout.out_data.val();
                self.sout.in_tag.next = self.j_otag.y.val();
                self.out_strb.next = self.sout.out_tag.val().get_bits::<$sw>(0);
                self.out_last.next = self.sout.out_tag.val().get_bit($sw);
                self.out_valid.next = self.sout.out_valid.val();
                self.sout.out_ready.next = self.out_ready.val();
                // The mode and the codec's element width from registers: `op`, `zvcx` and
                // `elem` hold from before `start` (the children reset the cycle after it),
                // and their decode fans out to every child's handshakes and muxes.
                self.m_comp.d.next = self.op.val() == self.op_comp.val();
                self.m_dec.d.next = self.op.val() == self.op_dec.val();
                self.m_cx.d.next = (self.op.val() == self.op_comp.val()) & self.zvcx.val();
                self.m_dx.d.next = (self.op.val() == self.op_dec.val()) & self.zvcx.val();
                self.m_zx.d.next = self.zvcx.val();
                self.is_comp.next = self.m_comp.q.val();
                self.is_dec.next = self.m_dec.q.val();
                self.is_cx.next = self.m_cx.q.val();
                self.is_dx.next = self.m_dx.q.val();
                self.scan.elem.next = self.elem.val();
                self.xenc.elem.next = self.elem.val();
                self.xdec.elem.next = self.elem.val();
                self.xenc.ty.next = self.ty.val();
                self.xdec.ty.next = self.ty.val();
                // The ZVC-X paths use the bus codec for bytes (the packer, the realigner):
                // 8-bit elements, so any byte count is whole elements (registered, `celem`).
                // A child's input is assigned once on every path (if/else, not a default and
                // an override): a transient value would wake the child's always block, whose
                // outputs wake this one again, and an event-driven simulator (Icarus) then
                // never leaves the time step (tb/cocotb found this on the ZVC-X engine).
                if self.zvcx.val() {
                    self.celem.d.next = self.elem8.val();
                } else {
                    self.celem.d.next = self.elem.val();
                }
                self.comp.elem.next = self.celem.q.val();
                self.zdec.elem.next = self.celem.q.val();
                // ---- source framing
                self.rem.next = self.src_len.val() - self.pos.q.val();
                self.pos_nx.next = self.pos.q.val() + self.bb.val();
                self.csz_m1.next = (self.one.val() << self.chunk_log2.val()) - self.one.val();
                self.last_beat.next = !(self.rem.val() > self.bb.val());
                self.bytes.next = self.bb8.val();
                if self.last_beat.val() {
                    self.bytes.next = self.rem.val().get_bits::<8>(0);
                }
                self.chunk_end.next =
                    self.last_beat.val() | !(self.pos_nx.val() & self.csz_m1.val()).any();
                // ---- CRC32C (version 4): COMPRESS source beats, DECOMPRESS output beats, the
                // metadata pass. A beat that ends a chunk waits while depth(BB) chunks wait for
                // their decisions; a chunk command waits while depth(BB) CRCs wait for their data.
                self.crcp.comp.next = self.is_comp.val() & self.crc.val();
                self.crcp.dec.next = self.is_dec.val() & self.crc.val();
                self.crcp.mp.next = self.mp.val();
                // (The metadata pass reads the index beats the controller takes, not the
                // payload slice's.)
                if self.mp.val() {
                    self.crcp.in_data.next = self.in_data.val();
                } else {
                    self.crcp.in_data.next = self.sin.out_data.val();
                }
                self.crcp.s_cnt.next = self.bytes.val();
                self.crcp.s_end.next = self.chunk_end.val();
                self.crcp.m_take.next = self.mp_take.val();
                self.crcp.m_first.next = self.mp_first.val();
                self.crcp.m_last.next = self.mp_last.val();
                self.crcp.m_cnt.next = self.mp_cnt.val();
                self.mp_state.next = self.crcp.m_state.val();
                self.mp_done.next = self.crcp.m_done.val() & self.mp.val();
                self.crc_err.next = self.crcp.err.val();
                self.dec_crc.next = self.crcp.d_crc.val();
                self.crcp.c_crc.next = self.ck_crc.val();

                // ---- COMPRESS: scan (ZVC, a tap) or the ZVC-X encoder (a fork) beside the
                // raw FIFO; a chunk's beats leave it while its command is offered
                self.scan.in_data.next = self.sin.out_data.val();
                self.scan.in_bytes.next = self.bytes.val();
                self.scan.in_chunk_end.next = self.chunk_end.val();
                self.scan.in_valid.next =
                    self.sin.out_valid.val() & self.is_comp.val() & !self.m_zx.q.val() & !self.crcp.s_hold.val();
                self.scan.out_ready.next = self.fifo.in_ready.val();
                self.xenc.in_data.next = self.sin.out_data.val();
                self.xenc.in_cnt.next = self.bytes.val();
                self.xenc.in_end.next = self.chunk_end.val();
                self.xenc.in_valid.next = self.sin.out_valid.val()
                    & self.is_cx.val()
                    & self.fifo.in_ready.val()
                    & !self.crcp.s_hold.val();
                self.fifo.in_valid.next = self.scan.out_valid.val();
                if self.m_zx.q.val() {
                    self.fifo.in_valid.next = self.sin.out_valid.val()
                        & self.is_cx.val()
                        & self.xenc.in_ready.val()
                        & !self.crcp.s_hold.val();
                }
                self.j_flags.lo.next = self.chunk_end.val().into();
                self.j_flags.hi.next = self.last_beat.val().into();
                self.j_hi.lo.next = self.bytes.val();
                self.j_hi.hi.next = self.j_flags.y.val();
                self.j_word.lo.next = self.sin.out_data.val();
                self.j_word.hi.next = self.j_hi.y.val();
                self.fifo.in_data.next = self.j_word.y.val();
                // A decision leaves with its chunk's CRC (version 4).
                self.scan.dec_ready.next = self.dec_ready.val() & !self.m_zx.q.val() & !self.crcp.d_hold.val();
                self.xenc.dec_ready.next = self.dec_ready.val() & self.m_zx.q.val() & !self.crcp.d_hold.val();
                if self.m_zx.q.val() {
                    self.dec_stored_len.next = self.xenc.dec_stored_len.val();
                    self.dec_raw.next = self.xenc.dec_raw.val();
                    self.dec_valid.next = self.xenc.dec_valid.val() & !self.crcp.d_hold.val();
                } else {
                    self.dec_stored_len.next = self.scan.dec_stored_len.val();
                    self.dec_raw.next = self.scan.dec_raw.val();
                    self.dec_valid.next = self.scan.dec_valid.val() & !self.crcp.d_hold.val();
                }
                // ---- the compressor's source: the read beats (COPY, stored raw), the FIFO
                // (ZVC COMPRESS), or with ZVC-X the chosen side (a: the raw FIFO for a raw
                // chunk, else the coded beats) as raw bytes while the other (b) is dropped;
                // a's end beat waits until b's has gone, so the command is taken with it.
                // Each input assigned once per path (see the element width above).
                self.a_valid.next = self.xenc.out_valid.val();
                self.a_end.next = self.xenc.out_end.val();
                self.b_valid.next = self.fifo.out_valid.val();
                self.b_end.next = self.fifo.out_data.val().get_bit($bw + 8);
                if self.ck_raw.val() {
                    self.a_valid.next = self.fifo.out_valid.val();
                    self.a_end.next = self.fifo.out_data.val().get_bit($bw + 8);
                    self.b_valid.next = self.xenc.out_valid.val();
                    self.b_end.next = self.xenc.out_end.val();
                }
                self.b_take.next =
                    self.is_cx.val() & self.ck_valid.val() & !self.b_done.q.val() & self.b_valid.val();
                self.b_fin.next = self.b_done.q.val() | (self.b_take.val() & self.b_end.val());
                self.a_ok.next = !self.a_end.val() | self.b_fin.val();
                self.a_take.next = self.is_cx.val()
                    & self.ck_valid.val()
                    & self.a_valid.val()
                    & self.a_ok.val()
                    & self.comp.in_ready.val();
                self.f_take.next = self.fifo.out_valid.val() & self.comp.in_ready.val();
                if self.is_cx.val() {
                    self.comp.in_raw.next = true;
                    self.comp.in_valid.next =
                        self.ck_valid.val() & self.a_valid.val() & self.a_ok.val();
                    self.b_done.d.next = self.b_fin.val() & !(self.a_take.val() & self.a_end.val());
                    if self.ck_raw.val() {
                        self.comp.in_data.next = self.fifo.out_data.val().get_bits::<$bw>(0);
                        self.comp.in_cnt.next = self.fifo.out_data.val().get_bits::<8>($bw);
                        self.comp.in_end.next = self.fifo.out_data.val().get_bit($bw + 8);
                        self.comp.in_last.next = self.fifo.out_data.val().get_bit($bw + 9);
                        self.fifo.out_ready.next =
                            self.ck_valid.val() & self.a_ok.val() & self.comp.in_ready.val();
                        self.xenc.out_ready.next = self.ck_valid.val() & !self.b_done.q.val();
                    } else {
                        self.comp.in_data.next = self.xenc.out_data.val();
                        self.comp.in_cnt.next = self.xenc.out_cnt.val();
                        self.comp.in_end.next = self.xenc.out_end.val();
                        self.comp.in_last.next = self.xenc.out_end.val() & self.ck_last.val();
                        self.fifo.out_ready.next = self.ck_valid.val() & !self.b_done.q.val();
                        self.xenc.out_ready.next =
                            self.ck_valid.val() & self.a_ok.val() & self.comp.in_ready.val();
                    }
                } else if self.is_comp.val() {
                    self.comp.in_data.next = self.fifo.out_data.val().get_bits::<$bw>(0);
                    self.comp.in_cnt.next = self.fifo.out_data.val().get_bits::<8>($bw);
                    self.comp.in_raw.next = self.ck_raw.val();
                    self.comp.in_end.next = self.fifo.out_data.val().get_bit($bw + 8);
                    self.comp.in_last.next = self.fifo.out_data.val().get_bit($bw + 9);
                    self.comp.in_valid.next = self.fifo.out_valid.val() & self.ck_valid.val();
                    self.fifo.out_ready.next = self.comp.in_ready.val() & self.ck_valid.val();
                    self.xenc.out_ready.next = false;
                } else {
                    self.comp.in_data.next = self.sin.out_data.val();
                    self.comp.in_cnt.next = self.bytes.val();
                    self.comp.in_raw.next = true;
                    self.comp.in_end.next = self.last_beat.val();
                    self.comp.in_last.next = self.last_beat.val();
                    self.comp.in_valid.next = self.sin.out_valid.val() & !self.is_dec.val();
                    self.fifo.out_ready.next = false;
                    self.xenc.out_ready.next = false;
                }
                // ---- DECOMPRESS: payload beats and chunk commands into the decompressor;
                // ZVC-X: every chunk as its raw stored bytes (a coded chunk of none skips
                // it), which the ZVC-X path decodes
                self.zdec.in_data.next = self.sin.out_data.val();
                self.zdec.in_cnt.next = self.bytes.val();
                self.zdec.in_valid.next = self.sin.out_valid.val() & self.is_dec.val();
                self.zdec.ck_stored.next = self.ck_stored_len.val();
                self.zdec.ck_last.next = self.ck_last.val();
                self.skip.next = !self.ck_raw.val() & !self.ck_stored_len.val().any();
                self.xdec.c_stored.next = self.ck_stored_len.val();
                self.xdec.c_len.next = self.ck_chunk_len.val();
                self.xdec.c_raw.next = self.ck_raw.val();
                self.xdec.c_last.next = self.ck_last.val();
                self.xdec.in_data.next = self.zdec.out_data.val();
                self.xdec.in_valid.next = self.zdec.out_valid.val() & self.is_dx.val();
                if self.is_dx.val() {
                    self.zdec.ck_len.next = self.ck_stored_len.val();
                    self.zdec.ck_raw.next = true;
                    self.zdec.ck_valid.next =
                        self.ck_valid.val() & !self.crcp.c_hold.val() & self.xdec.c_ready.val() & !self.skip.val();
                    self.xdec.c_valid.next =
                        self.ck_valid.val() & !self.crcp.c_hold.val() & (self.zdec.ck_ready.val() | self.skip.val());
                } else {
                    self.zdec.ck_len.next = self.ck_chunk_len.val();
                    self.zdec.ck_raw.next = self.ck_raw.val();
                    self.zdec.ck_valid.next = self.ck_valid.val() & !self.crcp.c_hold.val() & self.is_dec.val();
                    self.xdec.c_valid.next = false;
                }
                // ---- source and output selection (each assigned once per path)
                self.comp.out_ready.next = self.sout.in_ready.val() & !self.is_dec.val();
                self.xdec.out_ready.next = self.sout.in_ready.val() & self.is_dx.val();
                if self.is_dec.val() {
                    self.sin.out_ready.next = self.zdec.in_ready.val();
                    if self.is_dx.val() {
                        self.inner_ck_ready.next =
                            self.xdec.c_ready.val() & (self.zdec.ck_ready.val() | self.skip.val());
                        self.zdec.out_ready.next = self.xdec.in_ready.val();
                        self.sout.in_data.next = self.xdec.out_data.val();
                        self.j_otag.lo.next = self.xdec.out_strb.val();
                        self.j_otag.hi.next = self.xdec.out_last.val().into();
                        self.sout.in_valid.next = self.xdec.out_valid.val();
                    } else {
                        self.inner_ck_ready.next = self.zdec.ck_ready.val();
                        self.zdec.out_ready.next = self.sout.in_ready.val();
                        self.sout.in_data.next = self.zdec.out_data.val();
                        self.j_otag.lo.next = self.zdec.out_strb.val();
                        self.j_otag.hi.next = self.zdec.out_last.val().into();
                        self.sout.in_valid.next = self.zdec.out_valid.val();
                    }
                    self.ck_ready.next =
                        self.inner_ck_ready.val() & !self.crcp.c_hold.val() & !self.crst_r.q.val();
                } else {
                    self.inner_ck_ready.next = false;
                    if self.is_cx.val() {
                        self.sin.out_ready.next = self.fifo.in_ready.val()
                            & self.xenc.in_ready.val()
                            & !self.crcp.s_hold.val();
                        self.ck_ready.next = self.a_take.val() & self.a_end.val();
                    } else if self.is_comp.val() {
                        self.sin.out_ready.next = self.scan.in_ready.val() & !self.crcp.s_hold.val();
                        self.ck_ready.next =
                            self.f_take.val() & self.fifo.out_data.val().get_bit($bw + 8);
                    } else {
                        self.sin.out_ready.next = self.comp.in_ready.val();
                        self.ck_ready.next = false;
                    }
                    self.zdec.out_ready.next = false;
                    self.sout.in_data.next = self.comp.out_data.val();
                    self.j_otag.lo.next = self.comp.out_strb.val();
                    self.j_otag.hi.next = self.comp.out_last.val().into();
                    self.sout.in_valid.next = self.comp.out_valid.val();
                }
                self.error.next =
                    (self.zdec.error.val() | self.xdec.error.val()) & !self.crst_r.q.val();
                // The held beat's chunk: the bus decompressor's open chunk starves (ZVC-X: its
                // raw bytes, behind the coded chunks that are all in and decided) or failed.
                // One register only: a beat held (a register too) since the cycle before sees
                // a state that has taken every beat ahead of it.
                // A beat in the input slice is one the decoders have not seen yet.
                self.need_r.d.next = self.is_dec.val()
                    & !self.sin.out_valid.val()
                    & (self.zdec.starve.val() | self.zdec.err_wait.val());
                if self.is_dx.val() {
                    self.need_r.d.next = self.zdec.starve.val()
                        & !self.sin.out_valid.val()
                        & (self.xdec.err_wait.val()
                            | (!self.xdec.error.val()
                                & !self.zdec.out_valid.val()
                                & !self.xdec.in_flight.val()));
                }
                self.need_in.next = self.need_r.q.val();
                self.ck_open.next =
                    (self.zdec.ck_open.val() | self.xdec.open.val() | self.crcp.busy.val())
                        & self.is_dec.val();
                // ---- framing counter
                self.take.next = self.sin.out_valid.val() & self.sin.out_ready.val();
                // ---- CRC32C: the beats and handshakes taken (read after they are assigned)
                self.crcp.s_take.next = self.take.val() & self.is_comp.val();
                self.crcp.d_pop.next = self.dec_valid.val() & self.dec_ready.val();
                self.crcp.c_push.next = self.ck_valid.val() & self.ck_ready.val();
                self.o_rem.next = self.dst_len.val() - self.opos.q.val();
                self.crcp.o_data.next = self.sout.in_data.val();
                // The output's last beat holds its last o_rem <= BB bytes.
                self.crcp.o_cnt.next = self.bb8.val();
                if !(self.o_rem.val() > self.bb.val()) {
                    self.crcp.o_cnt.next = self.o_rem.val().get_bits::<8>(0);
                }
                self.crcp.o_end.next = !(self.o_rem.val() > self.bb.val())
                    | !((self.opos.q.val() + self.bb.val()) & self.csz_m1.val()).any();
                self.crcp.o_take.next =
                    self.sout.in_valid.val() & self.sout.in_ready.val() & self.is_dec.val();
                if self.sout.in_valid.val() & self.sout.in_ready.val() {
                    self.opos.d.next = self.opos.q.val() + self.bb.val();
                }
                if self.take.val() {
                    self.pos.d.next = self.pos_nx.val();
                }
                // ---- activity
                if self.sout.out_valid.val() & self.out_ready.val() & self.out_last.val() {
                    self.act.d.next = false;
                }
                self.idle.next = !self.act.q.val();
                // (Its own registers at once: `act` rises with `start`.)
                if self.rst.val() | self.start.val() | self.abort.val() {
                    self.pos.d.next = self.zero.val();
                    self.opos.d.next = self.zero.val();
                    self.act.d.next = self.start.val() & !self.abort.val() & !self.rst.val();
                    self.b_done.d.next = false;
                }
            }
        }
    };
}

datapath!(
    /// The datapath of a 128-bit engine with the ZVC codec.
    DatapathDw128, ChunkScanDw128, ChunkFifoDw128, ZvcBusCompressorDw128, ZvcBusDecompressorDw128,
    ZvcxEncOff<128>, ZvcxDecOff<16, 128>, CrcPath<128, 16, 160, 4>,
    bw: 128, sw: 16, st: 17, fw: 138
);
datapath!(
    /// The datapath of a 256-bit engine with the ZVC codec.
    DatapathDw256, ChunkScanDw256, ChunkFifoDw256, ZvcBusCompressorDw256, ZvcBusDecompressorDw256,
    ZvcxEncOff<256>, ZvcxDecOff<32, 256>, CrcPath<256, 32, 288, 4>,
    bw: 256, sw: 32, st: 33, fw: 266
);
datapath!(
    /// The datapath of a 512-bit engine with the ZVC codec.
    DatapathDw512, ChunkScanDw512, ChunkFifoDw512, ZvcBusCompressorDw512, ZvcBusDecompressorDw512,
    ZvcxEncOff<512>, ZvcxDecOff<64, 512>, CrcPath<512, 64, 544, 8>,
    bw: 512, sw: 64, st: 65, fw: 522
);
datapath!(
    /// The datapath of a 1024-bit engine with the ZVC codec.
    DatapathDw1024, ChunkScanDw1024, ChunkFifoDw1024, ZvcBusCompressorDw1024,
    ZvcBusDecompressorDw1024, ZvcxEncOff<1024>, ZvcxDecOff<128, 1024>, CrcPath<1024, 128, 1056, 8>,
    bw: 1024, sw: 128, st: 129, fw: 1034
);
datapath!(
    /// The datapath of a 128-bit engine with the ZVC and ZVC-X codecs.
    DatapathZxDw128, ChunkScanDw128, ChunkFifoDw128, ZvcBusCompressorDw128,
    ZvcBusDecompressorDw128, ZvcxEncPathDw128, ZvcxDecPathDw128, CrcPath<128, 16, 160, 4>,
    bw: 128, sw: 16, st: 17, fw: 138
);
datapath!(
    /// The datapath of a 256-bit engine with the ZVC and ZVC-X codecs.
    DatapathZxDw256, ChunkScanDw256, ChunkFifoDw256, ZvcBusCompressorDw256,
    ZvcBusDecompressorDw256, ZvcxEncPathDw256, ZvcxDecPathDw256, CrcPath<256, 32, 288, 4>,
    bw: 256, sw: 32, st: 33, fw: 266
);
datapath!(
    /// The datapath of a 512-bit engine with the ZVC and ZVC-X codecs.
    DatapathZxDw512, ChunkScanDw512, ChunkFifoDw512, ZvcBusCompressorDw512,
    ZvcBusDecompressorDw512, ZvcxEncPathDw512, ZvcxDecPathDw512, CrcPath<512, 64, 544, 8>,
    bw: 512, sw: 64, st: 65, fw: 522
);
datapath!(
    /// The datapath of a 1024-bit engine with the ZVC and ZVC-X codecs.
    DatapathZxDw1024, ChunkScanDw1024, ChunkFifoDw1024, ZvcBusCompressorDw1024,
    ZvcBusDecompressorDw1024, ZvcxEncPathDw1024, ZvcxDecPathDw1024, CrcPath<1024, 128, 1056, 8>,
    bw: 1024, sw: 128, st: 129, fw: 1034
);
