//! `Datapath`: the engine's payload datapath between the controller's payload read beats
//! (`in_*`, gated by `dp_rd_valid`/`dp_rd_ready`) and its payload write beats (`out_*`, the
//! controller's `dp_wr_*`), for one element width `E` (bus `32·E` bits, `BB = 4·E` bytes).
//!
//! * **Source framing** (COPY, COMPRESS, and the payload's end for DECOMPRESS): a byte offset
//!   `pos` counts the beats taken since `start`; per beat `rem = src_len − pos`, the beat is
//!   the last iff `rem ≤ BB`, holds `lanes = 32` (or `rem / (E/8)` on the last beat), and
//!   ends a chunk iff `(pos + BB) mod 2^chunk_log2 = 0` or it is the last
//!   (`chunk_log2 ≥ 7 ≥ log2 BB`: a beat never spans two chunks).
//! * **COPY**: the beats go straight into the `LanePacker` (count = lanes, last).
//! * **COMPRESS**: `ChunkScan` (tap) → `ChunkFifo` (`{last, chunk_end, lanes, data}`) →
//!   `ChunkMux` → `LanePacker`; ChunkScan's decisions leave on `dec_*` (to the controller,
//!   which records them and forwards them as chunk commands `ck_*` when they fit `dst_cap`),
//!   the commands go to the mux (`ck_raw` → `dec_raw`).
//! * **DECOMPRESS**: the payload beats go into the `LaneSplitter`, cut per chunk command
//!   (`cmd_lanes = ck_stored_len / (E/8)`, `cmd_last = ck_last`). A two-entry command queue
//!   (`raw`, `last`, chunk lanes) follows the chunks: the splitter side (the newest entry:
//!   the splitter's current chunk) routes the splitter's beats to the `ZvcDecompressor` (ZVC
//!   chunk) or to the packer (raw chunk, only once every earlier chunk has left: it is then
//!   the oldest entry); the output side (the oldest entry) selects the packer's source and is
//!   popped when the chunk's last beat/block enters the packer. Decompressed blocks enter the
//!   packer with 32 lanes, the chunk's final block with the chunk's remaining lanes. A ZVC
//!   chunk must decode to exactly its chunk length: a block past the end, or a chunk-last
//!   block short of it, raises `error` (sticky until `start`), as does the decompressor's own
//!   `error` (truncated block, bad count, and — `ZvcDecompressor::with_zero_check` — a zero
//!   element under a set mask bit, docs/FORMAT.md rule 17c), as does a non-zero lane of the
//!   chunk's final block past the chunk's end (a mask bit past the end, rule 17b).
//! * **Reset and abort**: every child is reset by `rst | start | abort`, so `start` clears the
//!   previous operation (and the decompressor's sticky error) and `abort` drops everything in
//!   flight within one cycle. `idle` is low from `start` until the packer's last beat has been
//!   taken (or an abort/reset).
//!
//! The `ck_ready` / `dec_*` paths are combinational through the children (the controller's
//! contract: `dec_ready` follows `ck_ready` in the same cycle).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::check::{CL_BITS, LEN_BITS, OP_BITS};
use super::chunk_fifo::{ChunkFifoE16, ChunkFifoE32, ChunkFifoE8};
use super::chunk_mux::{ChunkMuxE16, ChunkMuxE32, ChunkMuxE8};
use super::chunk_scan::{ChunkScanE16, ChunkScanE32, ChunkScanE8};
use super::packer::{LanePackerE16, LanePackerE32, LanePackerE8};
use super::splitter::{LaneSplitterE16, LaneSplitterE32, LaneSplitterE8};
use crate::decompressor::{ZvcDecompressorE16, ZvcDecompressorE32, ZvcDecompressorE8};
use crate::prims::Thermo;
use crate::prims::{Join, LaneAny, ZeroExtend};
use cdma_spec::desc;

macro_rules! datapath {
    (
        $(#[$doc:meta])*
        $name:ident, $scan:ty, $fifo:ty, $mux:ty, $spl:ty, $zdec:ty, $pack:ty,
        e: $e:tt, lgeb: $lgeb:tt, bw: $bw:tt, pw: $pw:tt, sw: $sw:tt, fw: $fw:tt
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
            /// Source bytes (payload bytes for DECOMPRESS).
            pub src_len: Signal<In, Bits<LEN_BITS>>,
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
            /// Chunk command: last chunk.
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
            /// DECOMPRESS payload error (sticky until `start`).
            pub error: Signal<Out, Bit>,
            /// DECOMPRESS: a chunk command is in the queue (taken, its last block or beat not
            /// yet in the packer): low once every chunk commanded has been checked (`error`
            /// settles the cycle after).
            pub ck_open: Signal<Out, Bit>,
            // children
            scan: $scan,
            fifo: $fifo,
            mux: $mux,
            spl: $spl,
            zdec: $zdec,
            packer: $pack,
            x_in: ZeroExtend<$bw, $pw>,
            x_spl: ZeroExtend<$bw, $pw>,
            x_dec: ZeroExtend<$bw, $pw>,
            x_lanes: ZeroExtend<6, 7>,
            // rule 17b: non-zero lanes of a decoded block past its chunk's end
            dec_nz: LaneAny<$e, $bw>,
            dec_th: Thermo<32, 1, 32>,
            dec_past: Signal<Local, Bit>,
            j_flags: Join<1, 1, 2>,
            j_hi: Join<6, 2, 8>,
            j_word: Join<$bw, 8, $fw>,
            // registers
            pos: DFF<Bits<LEN_BITS>>,
            act: DFF<Bit>,
            err: DFF<Bit>,
            qn: DFF<Bits<2>>,
            q0_raw: DFF<Bit>,
            q0_last: DFF<Bit>,
            q0_len: DFF<Bits<LEN_BITS>>,
            q1_raw: DFF<Bit>,
            q1_last: DFF<Bit>,
            q1_len: DFF<Bits<LEN_BITS>>,
            ocnt: DFF<Bits<LEN_BITS>>,
            // locals
            crst: Signal<Local, Bit>,
            is_comp: Signal<Local, Bit>,
            is_dec: Signal<Local, Bit>,
            rem: Signal<Local, Bits<LEN_BITS>>,
            rem_l: Signal<Local, Bits<LEN_BITS>>,
            cmd_l: Signal<Local, Bits<LEN_BITS>>,
            pos_nx: Signal<Local, Bits<LEN_BITS>>,
            csz_m1: Signal<Local, Bits<LEN_BITS>>,
            last_beat: Signal<Local, Bit>,
            chunk_end: Signal<Local, Bit>,
            lanes: Signal<Local, Bits<6>>,
            take: Signal<Local, Bit>,
            s_raw: Signal<Local, Bit>,
            q_some: Signal<Local, Bit>,
            q_room: Signal<Local, Bit>,
            raw_out: Signal<Local, Bit>,
            blk_left: Signal<Local, Bits<LEN_BITS>>,
            blk_cnt: Signal<Local, Bits<7>>,
            push: Signal<Local, Bit>,
            pop: Signal<Local, Bit>,
            zfire: Signal<Local, Bit>,
            new_len: Signal<Local, Bits<LEN_BITS>>,
            // constants
            op_comp: Constant<Bits<OP_BITS>>,
            op_dec: Constant<Bits<OP_BITS>>,
            bb: Constant<Bits<LEN_BITS>>,
            one: Constant<Bits<LEN_BITS>>,
            zero: Constant<Bits<LEN_BITS>>,
            k32: Constant<Bits<LEN_BITS>>,
            lanes32: Constant<Bits<6>>,
            cnt32: Constant<Bits<7>>,
            lg_eb: Constant<Bits<LEN_BITS>>,
            qn0: Constant<Bits<2>>,
            qn1: Constant<Bits<2>>,
            qn2: Constant<Bits<2>>,
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
                    src_len: Default::default(),
                    chunk_log2: Default::default(),
                    in_data: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    dec_stored_len: Default::default(),
                    dec_raw: Default::default(),
                    dec_valid: Default::default(),
                    dec_ready: Default::default(),
                    ck_stored_len: Default::default(),
                    ck_raw: Default::default(),
                    ck_chunk_len: Default::default(),
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
                    ck_open: Default::default(),
                    scan: Default::default(),
                    fifo: Default::default(),
                    mux: Default::default(),
                    spl: Default::default(),
                    zdec: <$zdec>::with_zero_check(),
                    packer: Default::default(),
                    x_in: Default::default(),
                    x_spl: Default::default(),
                    x_dec: Default::default(),
                    x_lanes: Default::default(),
                    dec_nz: Default::default(),
                    dec_th: Default::default(),
                    dec_past: Default::default(),
                    j_flags: Default::default(),
                    j_hi: Default::default(),
                    j_word: Default::default(),
                    pos: Default::default(),
                    act: Default::default(),
                    err: Default::default(),
                    qn: Default::default(),
                    q0_raw: Default::default(),
                    q0_last: Default::default(),
                    q0_len: Default::default(),
                    q1_raw: Default::default(),
                    q1_last: Default::default(),
                    q1_len: Default::default(),
                    ocnt: Default::default(),
                    crst: Default::default(),
                    is_comp: Default::default(),
                    is_dec: Default::default(),
                    rem: Default::default(),
                    rem_l: Default::default(),
                    cmd_l: Default::default(),
                    pos_nx: Default::default(),
                    csz_m1: Default::default(),
                    last_beat: Default::default(),
                    chunk_end: Default::default(),
                    lanes: Default::default(),
                    take: Default::default(),
                    s_raw: Default::default(),
                    q_some: Default::default(),
                    q_room: Default::default(),
                    raw_out: Default::default(),
                    blk_left: Default::default(),
                    blk_cnt: Default::default(),
                    push: Default::default(),
                    pop: Default::default(),
                    zfire: Default::default(),
                    new_len: Default::default(),
                    op_comp: c(desc::OP_COMPRESS),
                    op_dec: c(desc::OP_DECOMPRESS),
                    bb: c(4 * $e),
                    one: c(1),
                    zero: c(0),
                    k32: c(32),
                    lanes32: c(32),
                    cnt32: c(32),
                    lg_eb: c($lgeb),
                    qn0: c(0),
                    qn1: c(1),
                    qn2: c(2),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, pos, act, err, qn, q0_raw, q0_last, q0_len, q1_raw, q1_last,
                    q1_len, ocnt
                );
                self.crst.next = self.rst.val() | self.start.val() | self.abort.val();
                self.scan.clock.next = self.clock.val();
                self.fifo.clock.next = self.clock.val();
                self.mux.clock.next = self.clock.val();
                self.spl.clock.next = self.clock.val();
                self.zdec.clock.next = self.clock.val();
                self.packer.clock.next = self.clock.val();
                self.scan.rst.next = self.crst.val();
                self.fifo.rst.next = self.crst.val();
                self.mux.rst.next = self.crst.val();
                self.spl.rst.next = self.crst.val();
                self.zdec.rst.next = self.crst.val();
                self.packer.rst.next = self.crst.val();
                self.is_comp.next = self.op.val() == self.op_comp.val();
                self.is_dec.next = self.op.val() == self.op_dec.val();
                // ---- source framing
                self.rem.next = self.src_len.val() - self.pos.q.val();
                self.pos_nx.next = self.pos.q.val() + self.bb.val();
                self.csz_m1.next = (self.one.val() << self.chunk_log2.val()) - self.one.val();
                self.rem_l.next = self.rem.val() >> self.lg_eb.val();
                self.last_beat.next = !(self.rem.val() > self.bb.val());
                self.lanes.next = self.lanes32.val();
                if self.last_beat.val() {
                    self.lanes.next = self.rem_l.val().get_bits::<6>(0);
                }
                self.chunk_end.next =
                    self.last_beat.val() | !(self.pos_nx.val() & self.csz_m1.val()).any();
                self.x_lanes.x.next = self.lanes.val();
                self.x_in.x.next = self.in_data.val();
                // ---- COMPRESS: scan (tap) -> FIFO -> mux
                self.scan.in_data.next = self.in_data.val();
                self.scan.in_lanes.next = self.lanes.val();
                self.scan.in_chunk_end.next = self.chunk_end.val();
                self.scan.in_valid.next = self.in_valid.val() & self.is_comp.val();
                self.scan.out_ready.next = self.fifo.in_ready.val();
                self.fifo.in_valid.next = self.scan.out_valid.val();
                self.j_flags.lo.next = self.chunk_end.val().into();
                self.j_flags.hi.next = self.last_beat.val().into();
                self.j_hi.lo.next = self.lanes.val();
                self.j_hi.hi.next = self.j_flags.y.val();
                self.j_word.lo.next = self.in_data.val();
                self.j_word.hi.next = self.j_hi.y.val();
                self.fifo.in_data.next = self.j_word.y.val();
                self.mux.in_data.next = self.fifo.out_data.val().get_bits::<$bw>(0);
                self.mux.in_lanes.next = self.fifo.out_data.val().get_bits::<6>($bw);
                self.mux.in_chunk_end.next = self.fifo.out_data.val().get_bit($bw + 6);
                self.mux.in_last.next = self.fifo.out_data.val().get_bit($bw + 7);
                self.mux.in_valid.next = self.fifo.out_valid.val();
                self.fifo.out_ready.next = self.mux.in_ready.val();
                self.dec_stored_len.next = self.scan.dec_stored_len.val();
                self.dec_raw.next = self.scan.dec_raw.val();
                self.dec_valid.next = self.scan.dec_valid.val();
                self.scan.dec_ready.next = self.dec_ready.val();
                self.mux.dec_raw.next = self.ck_raw.val();
                self.mux.dec_valid.next = self.ck_valid.val() & self.is_comp.val();
                // ---- DECOMPRESS: splitter, command queue, decompressor
                self.q_some.next = self.qn.q.val() != self.qn0.val();
                self.q_room.next = self.qn.q.val() != self.qn2.val();
                // The splitter's chunk is the newest entry; the packer's the oldest.
                self.s_raw.next = self.q0_raw.q.val();
                if self.qn.q.val() == self.qn2.val() {
                    self.s_raw.next = self.q1_raw.q.val();
                }
                self.raw_out.next = self.q0_raw.q.val() & (self.qn.q.val() == self.qn1.val());
                self.spl.in_data.next = self.in_data.val();
                self.spl.in_last.next = self.last_beat.val();
                self.spl.in_valid.next = self.in_valid.val() & self.is_dec.val();
                self.cmd_l.next = self.ck_stored_len.val() >> self.lg_eb.val();
                self.spl.cmd_lanes.next = self.cmd_l.val().get_bits::<27>(0);
                self.spl.cmd_last.next = self.ck_last.val();
                self.spl.cmd_valid.next =
                    self.ck_valid.val() & self.is_dec.val() & self.q_room.val();
                self.x_spl.x.next = self.spl.out_data.val();
                self.zdec.in_data.next = self.x_spl.y.val();
                self.zdec.in_count.next = self.spl.out_count.val();
                self.zdec.in_last.next = self.spl.out_last.val();
                self.zdec.in_valid.next =
                    self.spl.out_valid.val() & self.q_some.val() & !self.s_raw.val();
                self.zdec.out_ready.next =
                    self.q_some.val() & !self.q0_raw.q.val() & self.packer.in_ready.val();
                self.spl.out_ready.next = self.zdec.in_ready.val();
                if self.s_raw.val() {
                    self.spl.out_ready.next = self.raw_out.val() & self.packer.in_ready.val();
                }
                self.x_dec.x.next = self.zdec.out_data.val();
                // Lanes of the oldest chunk still to leave the decompressor.
                self.blk_left.next = self.q0_len.q.val() - self.ocnt.q.val();
                self.blk_cnt.next = self.cnt32.val();
                if !(self.blk_left.val() > self.k32.val()) {
                    self.blk_cnt.next = self.blk_left.val().get_bits::<7>(0);
                }
                // A decoded block's lanes at or past its chunk's end must be zero: with the
                // zero check, a non-zero lane is exactly a set mask bit, and a mask bit past
                // the end is docs/FORMAT.md rule 17b (BAD_PAYLOAD). Only the chunk's final
                // block can have such lanes (`blk_cnt` < 32).
                self.dec_nz.x.next = self.zdec.out_data.val();
                self.dec_th.n.next = self.blk_cnt.val();
                self.dec_past.next = (self.dec_nz.y.val() & !self.dec_th.y.val()).any();
                // ---- packer source
                self.packer.in_data.next = self.x_in.y.val();
                self.packer.in_count.next = self.x_lanes.y.val();
                self.packer.in_last.next = self.last_beat.val();
                self.packer.in_valid.next = self.in_valid.val();
                self.in_ready.next = self.packer.in_ready.val();
                self.ck_ready.next = false;
                if self.is_comp.val() {
                    self.packer.in_data.next = self.mux.out_data.val();
                    self.packer.in_count.next = self.mux.out_count.val();
                    self.packer.in_last.next = self.mux.out_last.val();
                    self.packer.in_valid.next = self.mux.out_valid.val();
                    self.in_ready.next = self.scan.in_ready.val();
                    self.ck_ready.next = self.mux.dec_ready.val();
                }
                if self.is_dec.val() {
                    self.in_ready.next = self.spl.in_ready.val();
                    self.ck_ready.next = self.spl.cmd_ready.val() & self.q_room.val();
                    if self.q0_raw.q.val() {
                        self.packer.in_data.next = self.x_spl.y.val();
                        self.packer.in_count.next = self.spl.out_count.val();
                        self.packer.in_last.next =
                            self.spl.out_last.val() & self.q0_last.q.val();
                        self.packer.in_valid.next =
                            self.spl.out_valid.val() & self.raw_out.val() & self.s_raw.val();
                    } else {
                        self.packer.in_data.next = self.x_dec.y.val();
                        self.packer.in_count.next = self.blk_cnt.val();
                        self.packer.in_last.next =
                            self.zdec.out_last.val() & self.q0_last.q.val();
                        self.packer.in_valid.next = self.zdec.out_valid.val() & self.q_some.val();
                    }
                }
                self.mux.out_ready.next = self.packer.in_ready.val() & self.is_comp.val();
                self.packer.out_ready.next = self.out_ready.val();
                self.out_data.next = self.packer.out_data.val();
                self.out_strb.next = self.packer.out_strb.val();
                self.out_last.next = self.packer.out_last.val();
                self.out_valid.next = self.packer.out_valid.val();
                // ---- framing counter
                self.take.next = self.in_valid.val() & self.in_ready.val();
                if self.take.val() {
                    self.pos.d.next = self.pos_nx.val();
                }
                // ---- command queue
                self.new_len.next = self.ck_chunk_len.val() >> self.lg_eb.val();
                self.push.next = self.spl.cmd_valid.val() & self.spl.cmd_ready.val();
                self.zfire.next = self.zdec.out_valid.val() & self.zdec.out_ready.val();
                self.pop.next = (self.zfire.val() & self.zdec.out_last.val())
                    | (self.spl.out_valid.val()
                        & self.spl.out_ready.val()
                        & self.spl.out_last.val()
                        & self.s_raw.val());
                if self.push.val() & !self.pop.val() {
                    self.qn.d.next = self.qn.q.val() + self.qn1.val();
                    if self.q_some.val() {
                        self.q1_raw.d.next = self.ck_raw.val();
                        self.q1_last.d.next = self.ck_last.val();
                        self.q1_len.d.next = self.new_len.val();
                    } else {
                        self.q0_raw.d.next = self.ck_raw.val();
                        self.q0_last.d.next = self.ck_last.val();
                        self.q0_len.d.next = self.new_len.val();
                    }
                }
                if !self.push.val() & self.pop.val() {
                    self.qn.d.next = self.qn.q.val() - self.qn1.val();
                    self.q0_raw.d.next = self.q1_raw.q.val();
                    self.q0_last.d.next = self.q1_last.q.val();
                    self.q0_len.d.next = self.q1_len.q.val();
                }
                if self.push.val() & self.pop.val() {
                    self.q0_raw.d.next = self.ck_raw.val();
                    self.q0_last.d.next = self.ck_last.val();
                    self.q0_len.d.next = self.new_len.val();
                }
                // ---- ZVC chunk length checks
                if self.zfire.val() {
                    if self.dec_past.val() {
                        self.err.d.next = true;
                    }
                    self.ocnt.d.next = self.ocnt.q.val() + self.k32.val();
                    if self.zdec.out_last.val() {
                        self.ocnt.d.next = self.zero.val();
                        if self.blk_left.val() > self.k32.val() {
                            self.err.d.next = true;
                        }
                    } else if !(self.blk_left.val() > self.k32.val()) {
                        self.err.d.next = true;
                    }
                }
                self.error.next = self.err.q.val() | self.zdec.error.val();
                self.ck_open.next = self.q_some.val();
                // ---- activity
                if self.packer.out_valid.val() & self.out_ready.val() & self.packer.out_last.val()
                {
                    self.act.d.next = false;
                }
                self.idle.next = !self.act.q.val();
                if self.crst.val() {
                    self.pos.d.next = self.zero.val();
                    self.act.d.next = self.start.val() & !self.abort.val() & !self.rst.val();
                    self.err.d.next = false;
                    self.qn.d.next = self.qn0.val();
                    self.ocnt.d.next = self.zero.val();
                }
            }
        }
    };
}

datapath!(
    /// The datapath of the 256-bit engine (E = 8).
    DatapathE8, ChunkScanE8, ChunkFifoE8, ChunkMuxE8, LaneSplitterE8, ZvcDecompressorE8,
    LanePackerE8, e: 8, lgeb: 0, bw: 256, pw: 288, sw: 32, fw: 264
);
datapath!(
    /// The datapath of the 512-bit engine (E = 16).
    DatapathE16, ChunkScanE16, ChunkFifoE16, ChunkMuxE16, LaneSplitterE16, ZvcDecompressorE16,
    LanePackerE16, e: 16, lgeb: 1, bw: 512, pw: 544, sw: 64, fw: 520
);
datapath!(
    /// The datapath of the 1024-bit engine (E = 32).
    DatapathE32, ChunkScanE32, ChunkFifoE32, ChunkMuxE32, LaneSplitterE32, ZvcDecompressorE32,
    LanePackerE32, e: 32, lgeb: 2, bw: 1024, pw: 1056, sw: 128, fw: 1032
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;
    use cdma_model::{zvc, ElemWidth, FormatError};

    /// DECOMPRESS of one ZVC chunk of `n` bytes stored as `payload` through `DatapathE8`
    /// (128-byte chunks, always ready); returns the bytes written (by strobe) and whether
    /// `error` rose.
    fn decompress_e8(payload: &[u8], n: usize) -> (Vec<u8>, bool) {
        let mut uut = reset_block!(DatapathE8);
        uut.op.next = desc::OP_DECOMPRESS.into();
        uut.src_len.next = (payload.len() as u64).into();
        uut.chunk_log2.next = 7.into();
        uut.start.next = true;
        settle(&mut uut);
        clock_cycle!(&mut uut);
        uut.start.next = false;
        uut.ck_stored_len.next = (payload.len() as u64).into();
        uut.ck_raw.next = false;
        uut.ck_chunk_len.next = (n as u64).into();
        uut.ck_last.next = true;
        uut.ck_valid.next = true;
        uut.dec_ready.next = true;
        let beats: Vec<Vec<u64>> = payload
            .chunks(32)
            .map(|b| {
                let mut l: Vec<u64> = b.iter().map(|&x| u64::from(x)).collect();
                l.resize(32, 0xEE);
                l
            })
            .collect();
        let (mut bytes, mut error, mut idx, mut done) = (vec![], false, 0, false);
        for _ in 0..200 {
            uut.in_valid.next = idx < beats.len();
            if idx < beats.len() {
                uut.in_data.next = to_bus::<256>(&beats[idx], 8);
            }
            uut.out_ready.next = true;
            settle(&mut uut);
            let took_cmd = uut.ck_valid.val() && uut.ck_ready.val();
            if uut.out_valid.val() && !done {
                let lanes = from_bus::<256>(uut.out_data.val(), 8, 32);
                let n = uut.out_strb.val().to_u64().count_ones() as usize;
                bytes.extend(lanes[..n].iter().map(|&x| x as u8));
                done = uut.out_last.val();
            }
            if uut.in_valid.val() && uut.in_ready.val() {
                idx += 1;
            }
            error |= uut.error.val();
            clock_cycle!(&mut uut);
            if took_cmd {
                uut.ck_valid.next = false;
            }
        }
        assert_eq!(idx, beats.len(), "the payload was not all taken");
        (bytes, error)
    }

    /// docs/FORMAT.md rule 17b: in a chunk of 40 elements, the final block holds 8; a mask bit
    /// for lane 20 of that block (with a non-zero element, so rule 17c holds) is an error.
    #[test]
    fn e8_decompress_flags_a_mask_bit_past_the_chunk_end() {
        let mut data = vec![0u8; 40];
        data[3] = 7;
        data[17] = 9;
        data[30] = 1;
        for (i, x) in data[32..].iter_mut().enumerate() {
            *x = i as u8 + 1;
        }
        let good = zvc::encode(&data, ElemWidth::W8).unwrap();
        let (bytes, error) = decompress_e8(&good, data.len());
        assert!(!error, "a good chunk raised error");
        assert_eq!(bytes, data);

        // Block 1's mask is after block 0's mask and its 3 elements; its elements end the
        // payload, so lane 20's element goes last.
        let mut bad = good.clone();
        bad[4 + 3 + 2] |= 1 << 4;
        bad.push(0x55);
        assert!(matches!(
            zvc::decode(&bad, ElemWidth::W8, data.len()),
            Err(FormatError::MaskBitsPastEnd { .. })
        ));
        let (bytes, error) = decompress_e8(&bad, data.len());
        assert!(error, "a mask bit past the chunk end was accepted");
        assert_eq!(bytes, data, "nothing past the chunk end is written");
    }
}
