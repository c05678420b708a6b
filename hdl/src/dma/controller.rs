//! `Controller`: the DMA engine's frontend + midend (docs/ARCHITECTURE.md, "DMA engine").
//!
//! Per descriptor: fetch 64 bytes at `cur`, check them ([`DescCheck`]), for DECOMPRESS fetch
//! and check the frame header ([`HdrCheck`]) and the chunk index (into the index RAM), then
//! run the payload through the datapath (requests to the read and write masters, chunk
//! decisions in / chunk commands out), for COMPRESS write header + index at `meta_addr`,
//! write the status word back, follow `next`. Errors end the descriptor with a code; abort
//! ends the chain.
//!
//! ## Word engine
//! Everything the controller itself reads or writes is a stream of 32-bit words through one
//! bus-wide shift register `ws` (word 0 of a beat in bits `[31:0]`):
//! * reading (descriptor, header, index): a beat is loaded, then shifted down one word per
//!   cycle; word `w` of the request goes into the descriptor (`w < lim`: the last 16 words
//!   shifted in are the descriptor, which picks the right half of a 1024-bit beat), the
//!   header (`w < 8`) or the index RAM (`8 ≤ w < 8 + n_chunks`, checked on the way);
//! * writing (header + index, status): words are shifted in at the top, one per cycle, with
//!   a valid flag each (`wv`, the word strobes); after `E` words the beat is sent.
//!
//! `E + 1` cycles per beat: a descriptor costs 17–33 cycles, an index of `n` entries about
//! `8 + n` words; the payload never passes through `ws`.
//!
//! ## Abort bound
//! The abort pulse is latched; the next cycle the FSM is in `Flush` (from any state except
//! the final status write-back and chain end, which complete first: one write request, one
//! beat and its B response) and holds `abort_out` until the read master, the write master and
//! the datapath all report `idle`. Then it writes the ABORTED status (one request, one beat,
//! one B) if the descriptor was read, and ends the chain. So the engine is idle within
//! `2 + T_drain + T_status + 4` cycles of the pulse, with
//! `T_drain = max(T_rd, T_wr, T_dp)`: `T_rd ≤ L_R + READS_IN_FLIGHT·256` (outstanding R beats,
//! dropped at one per cycle after the read latency `L_R`), `T_wr ≤` (W beats of the write
//! bursts already issued, ≤ bursts·`WR_BURST_MAX`) + `L_B` (the last B response), `T_dp` the
//! datapath's flush (a few cycles), and `T_status = 2·E + 4 + L_B` (fill, AW/W, B).

use cdma_spec::{desc, error, frame};
use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::{DFF, RAM};

use super::check::{
    log2, DescCheck, HdrCheck, ADDR_BITS, CL_BITS, CODE_BITS, DESC_BITS, ENTRY_BITS, HDR_BITS,
    LEN_BITS, OP_BITS,
};
use super::header::HeaderPack;
use super::IDX_LOG2;
use crate::emit::{make_top_from, Top};
use crate::glue::{EnReg, Join, LaneMask, ZeroExtend};

/// Bits of the descriptor register above its lowest word.
const DESC_REST: usize = DESC_BITS - 32;
/// Bits of the header register above its lowest word.
const HDR_REST: usize = HDR_BITS - 32;

/// Port documentation of the controller, in Verilog port order.
pub const CONTROLLER_PORTS: &[(&str, &str)] = &[
    ("clock", "clock, rising edge"),
    ("rst", "synchronous reset, active high"),
    // CSR block
    ("enable", "CSR CTRL.enable: doorbells are ignored while low"),
    ("doorbell", "pulse: start the chain at head (when enabled and idle; ignored otherwise)"),
    ("abort", "pulse: abort the running chain (ignored when idle)"),
    ("head", "chain head address (CSR HEAD)"),
    ("busy", "a chain is running"),
    ("error", "a descriptor of the current or last chain failed; cleared by the doorbell"),
    ("err_code", "error code of the last failure"),
    ("err_desc", "address of the last descriptor that failed"),
    ("desc_done", "pulse: a descriptor finished: fetched (its status write-back was attempted) or not (unaligned address, fetch error, abort during its fetch)"),
    ("irq_done_set", "pulse: a descriptor with its irq flag finished, or the chain ended"),
    ("irq_error_set", "pulse: a descriptor failed (error, err_code, err_desc updated)"),
    // read master
    ("rd_req_addr", "read request: bus-aligned byte address"),
    ("rd_req_beats", "read request: bus beats"),
    ("rd_req_valid", "read request handshake"),
    ("rd_req_ready", "read request handshake"),
    ("rd_data", "read beat data (also wired to the datapath by the top)"),
    ("rd_last", "last beat of the read request"),
    ("rd_err", "the beat's RRESP was SLVERR/DECERR"),
    ("rd_valid", "read beat handshake"),
    ("rd_ready", "read beat handshake: the controller's own beats, or the datapath's dp_rd_ready while payload is streaming"),
    ("rd_idle", "the read master has nothing outstanding"),
    // write master
    ("wr_req_addr", "write stream request: bus-aligned byte address"),
    ("wr_req_valid", "write request handshake"),
    ("wr_req_ready", "write request handshake"),
    ("wr_data", "write beat data: the datapath's (payload) or the controller's (header + index, status)"),
    ("wr_strb", "write beat byte strobes"),
    ("wr_last", "last beat of the write stream"),
    ("wr_valid", "write beat handshake"),
    ("wr_ready", "write beat handshake"),
    ("wr_done", "pulse: every B response of the stream has returned"),
    ("wr_err", "with wr_done: a B response was SLVERR/DECERR"),
    ("wr_idle", "the write master has nothing outstanding"),
    ("abort_out", "level: stop issuing, drain and drop (masters and datapath); held until rd_idle, wr_idle and dp_idle"),
    // datapath: payload beats
    ("dp_rd_valid", "payload read beat valid towards the datapath (rd_data/rd_last/rd_err wired directly)"),
    ("dp_rd_ready", "the datapath takes the payload read beat"),
    ("dp_wr_data", "payload write beat data from the LanePacker"),
    ("dp_wr_strb", "payload write beat strobes"),
    ("dp_wr_last", "last payload write beat (flushes the write stream)"),
    ("dp_wr_valid", "payload write beat valid"),
    ("dp_wr_ready", "the write master takes the payload beat"),
    // datapath: control
    ("dp_start", "pulse: start an operation with dp_op/dp_src_len/dp_dst_len/dp_chunk_log2/dp_n_chunks (held stable until the next start)"),
    ("dp_op", "operation: cdma_spec::desc OP_COPY / OP_COMPRESS / OP_DECOMPRESS"),
    ("dp_src_len", "bytes read from src (the last read beat holds src_len mod BB of them, 0 = all)"),
    ("dp_dst_len", "bytes to write at dst (COPY: src_len, DECOMPRESS: uncompressed_len, COMPRESS: 0 = not known)"),
    ("dp_chunk_log2", "chunk size 2^dp_chunk_log2 bytes (COMPRESS, DECOMPRESS)"),
    ("dp_n_chunks", "chunks of the operation (COMPRESS, DECOMPRESS)"),
    ("dp_idle", "the datapath holds no beat and no chunk"),
    ("dp_error", "DECOMPRESS: a chunk does not decode to its size in exactly its stored size (BAD_PAYLOAD)"),
    // COMPRESS chunk decisions (ChunkScan -> controller)
    ("dec_stored_len", "COMPRESS decision: bytes the chunk takes in the payload (< 2^31)"),
    ("dec_raw", "COMPRESS decision: the chunk is stored raw"),
    ("dec_valid", "decision handshake"),
    ("dec_ready", "decision handshake: recorded in the index and forwarded as a chunk command (combinational from ck_ready)"),
    // chunk commands (controller -> ChunkMux / LaneSplitter)
    ("ck_stored_len", "chunk command: stored bytes of the chunk in the payload"),
    ("ck_raw", "chunk command: stored raw (else ZVC)"),
    ("ck_chunk_len", "chunk command: uncompressed bytes of the chunk (2^chunk_log2 except the last)"),
    ("ck_last", "chunk command: last chunk of the operation"),
    ("ck_valid", "chunk command handshake (COMPRESS: the decision passed the capacity check)"),
    ("ck_ready", "chunk command handshake (must not depend on ck_valid)"),
];

/// Controller states.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum CtlState {
    /// Waiting for the doorbell.
    Idle,
    /// Check the descriptor address, set up its fetch.
    Fetch,
    /// Read request (descriptor, header or index).
    ReadReq,
    /// Take read beats, one word per cycle.
    ReadWords,
    /// Descriptor checks.
    Check,
    /// Header checks.
    HdrCheck,
    /// Index checks.
    IdxCheck,
    /// Start the payload.
    Start,
    /// Payload write request.
    DstReq,
    /// Payload read request.
    SrcReq,
    /// Payload streaming.
    Run,
    /// Write request (header + index, or status).
    FillReq,
    /// Shift words into the write beat.
    Fill,
    /// Send the write beat.
    Send,
    /// Wait for the write stream's B responses.
    WaitDone,
    /// Abort the masters and the datapath until idle.
    Flush,
    /// The descriptor's outcome is known.
    Result,
    /// The descriptor is finished.
    Done,
    /// The chain ends.
    End,
}

macro_rules! controller {
    (
        $(#[$doc:meta])*
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, dwm32: $dwm32:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            // ---------------- CSR block
            /// CTRL.enable: doorbells are ignored while low.
            pub enable: Signal<In, Bit>,
            /// Pulse: start the chain at `head` (when enabled and idle).
            pub doorbell: Signal<In, Bit>,
            /// Pulse: abort the running chain.
            pub abort: Signal<In, Bit>,
            /// Chain head address.
            pub head: Signal<In, Bits<ADDR_BITS>>,
            /// A chain is running.
            pub busy: Signal<Out, Bit>,
            /// Sticky error flag, cleared by the doorbell.
            pub error: Signal<Out, Bit>,
            /// Error code of the last failure.
            pub err_code: Signal<Out, Bits<CODE_BITS>>,
            /// Address of the last failed descriptor.
            pub err_desc: Signal<Out, Bits<ADDR_BITS>>,
            /// Pulse: a descriptor finished (fetched or not).
            pub desc_done: Signal<Out, Bit>,
            /// Pulse: a descriptor with the irq flag finished or the chain ended.
            pub irq_done_set: Signal<Out, Bit>,
            /// Pulse: a descriptor failed.
            pub irq_error_set: Signal<Out, Bit>,
            // ---------------- read master
            /// Read request address (bus aligned).
            pub rd_req_addr: Signal<Out, Bits<ADDR_BITS>>,
            /// Read request length in beats.
            pub rd_req_beats: Signal<Out, Bits<LEN_BITS>>,
            /// Read request valid.
            pub rd_req_valid: Signal<Out, Bit>,
            /// Read request ready.
            pub rd_req_ready: Signal<In, Bit>,
            /// Read beat data.
            pub rd_data: Signal<In, Bits<$dw>>,
            /// Last beat of the read request.
            pub rd_last: Signal<In, Bit>,
            /// The beat had a read error.
            pub rd_err: Signal<In, Bit>,
            /// Read beat valid.
            pub rd_valid: Signal<In, Bit>,
            /// Read beat ready (the controller's or the datapath's).
            pub rd_ready: Signal<Out, Bit>,
            /// The read master has nothing outstanding.
            pub rd_idle: Signal<In, Bit>,
            // ---------------- write master
            /// Write stream address (bus aligned).
            pub wr_req_addr: Signal<Out, Bits<ADDR_BITS>>,
            /// Write request valid.
            pub wr_req_valid: Signal<Out, Bit>,
            /// Write request ready.
            pub wr_req_ready: Signal<In, Bit>,
            /// Write beat data.
            pub wr_data: Signal<Out, Bits<$dw>>,
            /// Write beat strobes.
            pub wr_strb: Signal<Out, Bits<$bb>>,
            /// Last beat of the write stream.
            pub wr_last: Signal<Out, Bit>,
            /// Write beat valid.
            pub wr_valid: Signal<Out, Bit>,
            /// Write beat ready.
            pub wr_ready: Signal<In, Bit>,
            /// Pulse: the write stream's B responses are all back.
            pub wr_done: Signal<In, Bit>,
            /// With `wr_done`: a B response was an error.
            pub wr_err: Signal<In, Bit>,
            /// The write master has nothing outstanding.
            pub wr_idle: Signal<In, Bit>,
            /// Abort the masters and the datapath (level, until all idle).
            pub abort_out: Signal<Out, Bit>,
            // ---------------- datapath beats
            /// Payload read beat valid towards the datapath.
            pub dp_rd_valid: Signal<Out, Bit>,
            /// The datapath takes the payload read beat.
            pub dp_rd_ready: Signal<In, Bit>,
            /// Payload write beat from the LanePacker.
            pub dp_wr_data: Signal<In, Bits<$dw>>,
            /// Payload write beat strobes.
            pub dp_wr_strb: Signal<In, Bits<$bb>>,
            /// Last payload write beat.
            pub dp_wr_last: Signal<In, Bit>,
            /// Payload write beat valid.
            pub dp_wr_valid: Signal<In, Bit>,
            /// The write master takes the payload beat.
            pub dp_wr_ready: Signal<Out, Bit>,
            // ---------------- datapath control
            /// Pulse: start an operation.
            pub dp_start: Signal<Out, Bit>,
            /// Operation code.
            pub dp_op: Signal<Out, Bits<OP_BITS>>,
            /// Bytes read from src.
            pub dp_src_len: Signal<Out, Bits<LEN_BITS>>,
            /// Bytes to write at dst (0 for COMPRESS: not known).
            pub dp_dst_len: Signal<Out, Bits<LEN_BITS>>,
            /// Chunk size log2.
            pub dp_chunk_log2: Signal<Out, Bits<CL_BITS>>,
            /// Chunks of the operation.
            pub dp_n_chunks: Signal<Out, Bits<LEN_BITS>>,
            /// The datapath is idle.
            pub dp_idle: Signal<In, Bit>,
            /// DECOMPRESS payload error.
            pub dp_error: Signal<In, Bit>,
            // ---------------- COMPRESS decisions
            /// Stored bytes of the chunk.
            pub dec_stored_len: Signal<In, Bits<LEN_BITS>>,
            /// The chunk is stored raw.
            pub dec_raw: Signal<In, Bit>,
            /// Decision valid.
            pub dec_valid: Signal<In, Bit>,
            /// Decision taken.
            pub dec_ready: Signal<Out, Bit>,
            // ---------------- chunk commands
            /// Stored bytes of the chunk.
            pub ck_stored_len: Signal<Out, Bits<LEN_BITS>>,
            /// The chunk is stored raw.
            pub ck_raw: Signal<Out, Bit>,
            /// Uncompressed bytes of the chunk.
            pub ck_chunk_len: Signal<Out, Bits<LEN_BITS>>,
            /// Last chunk.
            pub ck_last: Signal<Out, Bit>,
            /// Command valid.
            pub ck_valid: Signal<Out, Bit>,
            /// Command taken.
            pub ck_ready: Signal<In, Bit>,
            // ================= internals
            state: DFF<CtlState>,
            cur: DFF<Bits<ADDR_BITS>>,
            desc: EnReg<DESC_BITS>,
            hdr: EnReg<HDR_BITS>,
            ws: EnReg<$dw>,
            wv: DFF<Bits<$e>>,
            k: DFF<Bits<8>>,
            w: DFF<Bits<LEN_BITS>>,
            lim: DFF<Bits<LEN_BITS>>,
            rmode: DFF<Bits<2>>,
            smode: DFF<Bit>,
            got_last: DFF<Bit>,
            rerr: DFF<Bit>,
            flast: DFF<Bit>,
            req_addr: DFF<Bits<ADDR_BITS>>,
            req_beats: DFF<Bits<LEN_BITS>>,
            code: DFF<Bits<CODE_BITS>>,
            desc_read: DFF<Bit>,
            abort_pend: DFF<Bit>,
            serr: DFF<Bit>,
            n: DFF<Bits<LEN_BITS>>,
            cl: DFF<Bits<CL_BITS>>,
            dst_len: DFF<Bits<LEN_BITS>>,
            bw: DFF<Bits<LEN_BITS>>,
            off: DFF<Bits<LEN_BITS>>,
            rem: DFF<Bits<LEN_BITS>>,
            bad: DFF<Bit>,
            wdone: DFF<Bit>,
            ck_cnt: DFF<Bits<LEN_BITS>>,
            ck_v: DFF<Bit>,
            ck_fetch: DFF<Bit>,
            ck_len_r: DFF<Bits<LEN_BITS>>,
            ck_raw_r: DFF<Bit>,
            ck_size_r: DFF<Bits<LEN_BITS>>,
            ck_last_r: DFF<Bit>,
            busy_r: DFF<Bit>,
            err_r: DFF<Bit>,
            err_code_r: DFF<Bits<CODE_BITS>>,
            err_desc_r: DFF<Bits<ADDR_BITS>>,
            // children
            chk: DescCheck,
            hchk: HdrCheck,
            hpack: HeaderPack,
            ram: RAM<Bits<ENTRY_BITS>, IDX_LOG2>,
            wjoin: Join<$dwm32, 32, $dw>,
            djoin: Join<DESC_REST, 32, DESC_BITS>,
            hjoin: Join<HDR_REST, 32, HDR_BITS>,
            strb: LaneMask<$e, 4, $bb>,
            code32: ZeroExtend<CODE_BITS, 32>,
            // locals
            word: Signal<Local, Bits<32>>,
            wvalid: Signal<Local, Bit>,
            csz: Signal<Local, Bits<LEN_BITS>>,
            size: Signal<Local, Bits<LEN_BITS>>,
            e_len: Signal<Local, Bits<LEN_BITS>>,
            e_raw: Signal<Local, Bit>,
            ent_idx: Signal<Local, Bits<IDX_LOG2>>,
            ent_nxt: Signal<Local, Bits<IDX_LOG2>>,
            room: Signal<Local, Bits<LEN_BITS>>,
            fits: Signal<Local, Bit>,
            sa: Signal<Local, Bits<ADDR_BITS>>,
            soff: Signal<Local, Bits<$lge>>,
            cw: Signal<Local, Bits<LEN_BITS>>,
            idx_words: Signal<Local, Bits<LEN_BITS>>,
            hidx_words: Signal<Local, Bits<LEN_BITS>>,
            status32: Signal<Local, Bits<32>>,
            can_abort: Signal<Local, Bit>,
            wr_sel_dp: Signal<Local, Bit>,
            ws_load: Signal<Local, Bit>,
            hdr_pack: Signal<Local, Bit>,
            hdr_shift: Signal<Local, Bit>,
            is_comp: Signal<Local, Bit>,
            is_dec: Signal<Local, Bit>,
            // constants
            rm_desc: Constant<Bits<2>>,
            rm_hdr: Constant<Bits<2>>,
            rm_idx: Constant<Bits<2>>,
            op_comp: Constant<Bits<OP_BITS>>,
            op_dec: Constant<Bits<OP_BITS>>,
            desc_mask: Constant<Bits<ADDR_BITS>>,
            bb_inv: Constant<Bits<ADDR_BITS>>,
            hdr_words_i: Constant<Bits<IDX_LOG2>>,
            hdr_words_m1_i: Constant<Bits<IDX_LOG2>>,
            status_off: Constant<Bits<ADDR_BITS>>,
            desc_words: Constant<Bits<LEN_BITS>>,
            desc_beats: Constant<Bits<LEN_BITS>>,
            hdr_words: Constant<Bits<LEN_BITS>>,
            e_m1_32: Constant<Bits<LEN_BITS>>,
            lg_e: Constant<Bits<5>>,
            one32: Constant<Bits<LEN_BITS>>,
            zero32: Constant<Bits<LEN_BITS>>,
            k_e: Constant<Bits<8>>,
            k_e_m1: Constant<Bits<8>>,
            k_one: Constant<Bits<8>>,
            k_zero: Constant<Bits<8>>,
            wv_top: Constant<Bits<$e>>,
            wv_zero: Constant<Bits<$e>>,
            soff_one: Constant<Bits<$lge>>,
            size_mask: Constant<Bits<LEN_BITS>>,
            raw_mask: Constant<Bits<LEN_BITS>>,
            eb_mask: Constant<Bits<LEN_BITS>>,
            st_done: Constant<Bits<32>>,
            st_err_lsb: Constant<Bits<5>>,
            ok: Constant<Bits<CODE_BITS>>,
            e_unaligned: Constant<Bits<CODE_BITS>>,
            e_read: Constant<Bits<CODE_BITS>>,
            e_write: Constant<Bits<CODE_BITS>>,
            e_bad_index: Constant<Bits<CODE_BITS>>,
            e_bad_payload: Constant<Bits<CODE_BITS>>,
            e_overflow: Constant<Bits<CODE_BITS>>,
            e_aborted: Constant<Bits<CODE_BITS>>,
            zero_addr: Constant<Bits<ADDR_BITS>>,
        }

        impl Default for $name {
            fn default() -> Self {
                let dw: usize = $dw;
                let bb = dw / 8;
                let e = dw / 32;
                assert_eq!(bb, $bb);
                assert_eq!(e, $e);
                assert_eq!(u64::from($lge as u32), log2(e));
                // The status word and bytes_written are written back as adjacent words.
                assert_eq!(
                    desc::BYTES_WRITTEN_FIELD.offset,
                    desc::STATUS_FIELD.offset + 4
                );
                assert_eq!(desc::STATUS_FIELD.size, 4);
                assert_eq!(frame::INDEX_ENTRY_LEN, 4);
                fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
                    Constant::new(v.into())
                }
                let code = |x: error::ErrorCode| c::<CODE_BITS>(u64::from(x.code));
                let hdr_words = (frame::HEADER_LEN / frame::INDEX_ENTRY_LEN) as u64;
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    enable: Default::default(),
                    doorbell: Default::default(),
                    abort: Default::default(),
                    head: Default::default(),
                    busy: Default::default(),
                    error: Default::default(),
                    err_code: Default::default(),
                    err_desc: Default::default(),
                    desc_done: Default::default(),
                    irq_done_set: Default::default(),
                    irq_error_set: Default::default(),
                    rd_req_addr: Default::default(),
                    rd_req_beats: Default::default(),
                    rd_req_valid: Default::default(),
                    rd_req_ready: Default::default(),
                    rd_data: Default::default(),
                    rd_last: Default::default(),
                    rd_err: Default::default(),
                    rd_valid: Default::default(),
                    rd_ready: Default::default(),
                    rd_idle: Default::default(),
                    wr_req_addr: Default::default(),
                    wr_req_valid: Default::default(),
                    wr_req_ready: Default::default(),
                    wr_data: Default::default(),
                    wr_strb: Default::default(),
                    wr_last: Default::default(),
                    wr_valid: Default::default(),
                    wr_ready: Default::default(),
                    wr_done: Default::default(),
                    wr_err: Default::default(),
                    wr_idle: Default::default(),
                    abort_out: Default::default(),
                    dp_rd_valid: Default::default(),
                    dp_rd_ready: Default::default(),
                    dp_wr_data: Default::default(),
                    dp_wr_strb: Default::default(),
                    dp_wr_last: Default::default(),
                    dp_wr_valid: Default::default(),
                    dp_wr_ready: Default::default(),
                    dp_start: Default::default(),
                    dp_op: Default::default(),
                    dp_src_len: Default::default(),
                    dp_dst_len: Default::default(),
                    dp_chunk_log2: Default::default(),
                    dp_n_chunks: Default::default(),
                    dp_idle: Default::default(),
                    dp_error: Default::default(),
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
                    state: Default::default(),
                    cur: Default::default(),
                    desc: Default::default(),
                    hdr: Default::default(),
                    ws: Default::default(),
                    wv: Default::default(),
                    k: Default::default(),
                    w: Default::default(),
                    lim: Default::default(),
                    rmode: Default::default(),
                    smode: Default::default(),
                    got_last: Default::default(),
                    rerr: Default::default(),
                    flast: Default::default(),
                    req_addr: Default::default(),
                    req_beats: Default::default(),
                    code: Default::default(),
                    desc_read: Default::default(),
                    abort_pend: Default::default(),
                    serr: Default::default(),
                    n: Default::default(),
                    cl: Default::default(),
                    dst_len: Default::default(),
                    bw: Default::default(),
                    off: Default::default(),
                    rem: Default::default(),
                    bad: Default::default(),
                    wdone: Default::default(),
                    ck_cnt: Default::default(),
                    ck_v: Default::default(),
                    ck_fetch: Default::default(),
                    ck_len_r: Default::default(),
                    ck_raw_r: Default::default(),
                    ck_size_r: Default::default(),
                    ck_last_r: Default::default(),
                    busy_r: Default::default(),
                    err_r: Default::default(),
                    err_code_r: Default::default(),
                    err_desc_r: Default::default(),
                    chk: DescCheck::new(dw),
                    hchk: HdrCheck::new(dw),
                    hpack: HeaderPack::new(e as u64),
                    ram: Default::default(),
                    wjoin: Default::default(),
                    djoin: Default::default(),
                    hjoin: Default::default(),
                    strb: Default::default(),
                    code32: Default::default(),
                    word: Default::default(),
                    wvalid: Default::default(),
                    csz: Default::default(),
                    size: Default::default(),
                    e_len: Default::default(),
                    e_raw: Default::default(),
                    ent_idx: Default::default(),
                    ent_nxt: Default::default(),
                    room: Default::default(),
                    fits: Default::default(),
                    sa: Default::default(),
                    soff: Default::default(),
                    cw: Default::default(),
                    idx_words: Default::default(),
                    hidx_words: Default::default(),
                    status32: Default::default(),
                    can_abort: Default::default(),
                    wr_sel_dp: Default::default(),
                    ws_load: Default::default(),
                    hdr_pack: Default::default(),
                    hdr_shift: Default::default(),
                    is_comp: Default::default(),
                    is_dec: Default::default(),
                    rm_desc: c(0),
                    rm_hdr: c(1),
                    rm_idx: c(2),
                    op_comp: c(desc::OP_COMPRESS),
                    op_dec: c(desc::OP_DECOMPRESS),
                    desc_mask: c(desc::DESC_LEN as u64 - 1),
                    bb_inv: c(!(bb as u64 - 1)),
                    hdr_words_i: c(hdr_words),
                    hdr_words_m1_i: c(hdr_words - 1),
                    status_off: c(desc::STATUS_FIELD.offset as u64),
                    desc_words: c((desc::DESC_LEN / 4) as u64),
                    desc_beats: c((desc::DESC_LEN / bb).max(1) as u64),
                    hdr_words: c(hdr_words),
                    e_m1_32: c(e as u64 - 1),
                    lg_e: c(log2(e)),
                    one32: c(1),
                    zero32: c(0),
                    k_e: c(e as u64),
                    k_e_m1: c(e as u64 - 1),
                    k_one: c(1),
                    k_zero: c(0),
                    wv_top: c(1 << (e - 1)),
                    wv_zero: c(0),
                    soff_one: c(1),
                    size_mask: c(frame::INDEX_SIZE.mask()),
                    raw_mask: c(frame::INDEX_RAW.mask()),
                    eb_mask: c((e / 8) as u64 - 1),
                    st_done: c(desc::STATUS_DONE.mask()),
                    st_err_lsb: c(u64::from(desc::STATUS_ERROR.lsb)),
                    ok: code(error::OK),
                    e_unaligned: code(error::UNALIGNED),
                    e_read: code(error::READ_ERROR),
                    e_write: code(error::WRITE_ERROR),
                    e_bad_index: code(error::BAD_INDEX),
                    e_bad_payload: code(error::BAD_PAYLOAD),
                    e_overflow: code(error::DST_OVERFLOW),
                    e_aborted: code(error::ABORTED),
                    zero_addr: c(0),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, state, cur, wv, k, w, lim, rmode, smode, got_last, rerr, flast,
                    req_addr, req_beats, code, desc_read, abort_pend, serr, n, cl, dst_len, bw,
                    off, rem, bad, wdone, ck_cnt, ck_v, ck_fetch, ck_len_r, ck_raw_r, ck_size_r,
                    ck_last_r, busy_r, err_r, err_code_r, err_desc_r
                );
                self.desc.clock.next = self.clock.val();
                self.hdr.clock.next = self.clock.val();
                self.ws.clock.next = self.clock.val();
                self.ram.read_clock.next = self.clock.val();
                self.ram.write_clock.next = self.clock.val();
                self.desc.en.next = false;
                self.desc.clr.next = false;
                self.hdr.en.next = false;
                self.hdr.clr.next = false;
                self.ws.en.next = false;
                self.ws.clr.next = false;
                // ---- children wiring (registers in, so the checkers settle per edge)
                self.chk.desc.next = self.desc.q.val();
                self.hchk.hdr.next = self.hdr.q.val();
                self.hchk.src_len.next = self.chk.src_len.val();
                self.hchk.dst_cap.next = self.chk.dst_cap.val();
                self.hpack.chunk_log2.next = self.cl.q.val();
                self.hpack.n_chunks.next = self.n.q.val();
                self.hpack.ulen.next = self.chk.src_len.val();
                self.hpack.plen.next = self.off.q.val();
                self.wjoin.lo.next = self.ws.q.val().get_bits::<$dwm32>(32);
                self.djoin.lo.next = self.desc.q.val().get_bits::<DESC_REST>(32);
                self.djoin.hi.next = self.ws.q.val().get_bits::<32>(0);
                self.hjoin.lo.next = self.hdr.q.val().get_bits::<HDR_REST>(32);
                self.hjoin.hi.next = self.ws.q.val().get_bits::<32>(0);
                self.desc.d.next = self.djoin.y.val();
                self.strb.v.next = self.wv.q.val();
                self.code32.x.next = self.code.q.val();
                self.is_comp.next = self.chk.op.val() == self.op_comp.val();
                self.is_dec.next = self.chk.op.val() == self.op_dec.val();
                // ---- word arithmetic
                // Index entry of word w (and of word w + 1), modulo the RAM depth.
                self.ent_idx.next =
                    self.w.q.val().get_bits::<IDX_LOG2>(0) - self.hdr_words_i.val();
                self.ent_nxt.next =
                    self.w.q.val().get_bits::<IDX_LOG2>(0) - self.hdr_words_m1_i.val();
                self.csz.next = self.one32.val() << self.cl.q.val();
                self.size.next = self.csz.val();
                if self.rem.q.val() < self.csz.val() {
                    self.size.next = self.rem.q.val();
                }
                self.e_len.next = self.ws.q.val().get_bits::<32>(0) & self.size_mask.val();
                self.e_raw.next = (self.ws.q.val().get_bits::<32>(0) & self.raw_mask.val()).any();
                self.room.next = self.chk.dst_cap.val() - self.off.q.val();
                self.fits.next = !(self.dec_stored_len.val() > self.room.val());
                self.sa.next = self.cur.q.val() + self.status_off.val();
                self.soff.next = self.sa.val().get_bits::<$lge>(2);
                // Word offset of the descriptor in its beat (1024-bit bus: 0 or 16).
                self.cw.next = (self.cur.q.val().get_bits::<LEN_BITS>(0) >> 2) & self.e_m1_32.val();
                self.idx_words.next = self.n.q.val() + self.hdr_words.val();
                // Header + index words of the fetched header (n is only loaded in HdrCheck).
                self.hidx_words.next = self.hchk.n_chunks.val() + self.hdr_words.val();
                self.status32.next =
                    self.st_done.val() | (self.code32.y.val() << self.st_err_lsb.val());
                // The word shifted into the write beat (Fill).
                self.word.next = self.ram.read_data.val();
                self.wvalid.next = self.w.q.val() < self.lim.q.val();
                if self.w.q.val() < self.hdr_words.val() {
                    self.word.next = self.hdr.q.val().get_bits::<32>(0);
                }
                if self.smode.q.val() {
                    self.word.next = self.zero32.val();
                    self.wvalid.next = false;
                    if self.w.q.val().get_bits::<$lge>(0) == self.soff.val() {
                        self.word.next = self.status32.val();
                        self.wvalid.next = true;
                    }
                    if self.w.q.val().get_bits::<$lge>(0) == self.soff.val() + self.soff_one.val() {
                        self.word.next = self.bw.q.val();
                        self.wvalid.next = true;
                    }
                }
                self.wjoin.hi.next = self.word.val();
                // ---- defaults
                self.ram.read_address.next = self.ck_cnt.q.val().get_bits::<IDX_LOG2>(0);
                self.ram.write_address.next = self.ent_idx.val();
                self.ram.write_data.next = self.ws.q.val().get_bits::<32>(0);
                self.ram.write_enable.next = false;
                self.rd_req_addr.next = self.req_addr.q.val();
                self.rd_req_beats.next = self.req_beats.q.val();
                self.rd_req_valid.next = false;
                self.rd_ready.next = false;
                self.wr_req_addr.next = self.req_addr.q.val();
                self.wr_req_valid.next = false;
                self.wr_last.next = self.flast.q.val();
                self.wr_valid.next = false;
                self.abort_out.next = false;
                self.dp_rd_valid.next = false;
                self.dp_wr_ready.next = false;
                self.dp_start.next = false;
                self.dec_ready.next = false;
                self.ck_valid.next = false;
                self.ck_stored_len.next = self.ck_len_r.q.val();
                self.ck_raw.next = self.ck_raw_r.q.val();
                self.ck_chunk_len.next = self.ck_size_r.q.val();
                self.ck_last.next = self.ck_last_r.q.val();
                self.desc_done.next = false;
                self.irq_done_set.next = false;
                self.irq_error_set.next = false;
                self.can_abort.next = false;
                self.wr_sel_dp.next = false;
                self.ws_load.next = false;
                self.hdr_pack.next = false;
                self.hdr_shift.next = false;
                match self.state.q.val() {
                    CtlState::Idle => {
                        if self.doorbell.val() & self.enable.val() {
                            self.cur.d.next = self.head.val();
                            self.busy_r.d.next = true;
                            self.err_r.d.next = false;
                            self.abort_pend.d.next = false;
                            self.state.d.next = CtlState::Fetch;
                        }
                    }
                    CtlState::Fetch => {
                        self.can_abort.next = true;
                        self.desc_read.d.next = false;
                        self.serr.d.next = false;
                        self.code.d.next = self.ok.val();
                        self.rmode.d.next = self.rm_desc.val();
                        self.req_addr.d.next = self.cur.q.val() & self.bb_inv.val();
                        self.req_beats.d.next = self.desc_beats.val();
                        self.lim.d.next = self.cw.val() + self.desc_words.val();
                        self.w.d.next = self.zero32.val();
                        self.k.d.next = self.k_zero.val();
                        self.got_last.d.next = false;
                        self.rerr.d.next = false;
                        self.state.d.next = CtlState::ReadReq;
                        if (self.cur.q.val() & self.desc_mask.val()).any() {
                            self.code.d.next = self.e_unaligned.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::ReadReq => {
                        self.can_abort.next = true;
                        self.rd_req_valid.next = true;
                        if self.rd_req_ready.val() {
                            self.state.d.next = CtlState::ReadWords;
                        }
                    }
                    CtlState::ReadWords => {
                        self.can_abort.next = true;
                        if self.k.q.val() == self.k_zero.val() {
                            if self.got_last.q.val() {
                                if self.rmode.q.val() == self.rm_desc.val() {
                                    self.state.d.next = CtlState::Check;
                                    self.desc_read.d.next = true;
                                    if self.rerr.q.val() {
                                        self.code.d.next = self.e_read.val();
                                        self.desc_read.d.next = false;
                                        self.state.d.next = CtlState::Result;
                                    }
                                } else if self.rmode.q.val() == self.rm_hdr.val() {
                                    self.state.d.next = CtlState::HdrCheck;
                                    if self.rerr.q.val() {
                                        self.code.d.next = self.e_read.val();
                                        self.state.d.next = CtlState::Result;
                                    }
                                } else {
                                    self.state.d.next = CtlState::IdxCheck;
                                }
                            } else {
                                self.rd_ready.next = true;
                                if self.rd_valid.val() {
                                    self.ws_load.next = true;
                                    self.k.d.next = self.k_e.val();
                                    self.rerr.d.next = self.rerr.q.val() | self.rd_err.val();
                                    self.got_last.d.next = self.rd_last.val();
                                }
                            }
                        } else {
                            // One word of the beat: ws[31:0] is word w of the request.
                            if self.w.q.val() < self.lim.q.val() {
                                if self.rmode.q.val() == self.rm_desc.val() {
                                    self.desc.en.next = true;
                                } else if self.rmode.q.val() == self.rm_hdr.val() {
                                    self.hdr.en.next = true;
                                } else if !(self.w.q.val() < self.hdr_words.val()) {
                                    // Index entry w - 8: into the RAM, checked.
                                    self.ram.write_enable.next = true;
                                    self.off.d.next = self.off.q.val() + self.e_len.val();
                                    self.rem.d.next = self.rem.q.val() - self.size.val();
                                    if self.e_raw.val() {
                                        if self.e_len.val() != self.size.val() {
                                            self.bad.d.next = true;
                                        }
                                    } else if !(self.e_len.val() < self.size.val())
                                        | (self.e_len.val() & self.eb_mask.val()).any()
                                    {
                                        self.bad.d.next = true;
                                    }
                                }
                            }
                            self.ws.en.next = true;
                            self.k.d.next = self.k.q.val() - self.k_one.val();
                            self.w.d.next = self.w.q.val() + self.one32.val();
                        }
                    }
                    CtlState::Check => {
                        self.can_abort.next = true;
                        self.n.d.next = self.chk.n_chunks.val();
                        self.cl.d.next = self.chk.chunk_log2.val();
                        self.dst_len.d.next = self.chk.src_len.val();
                        if self.is_comp.val() {
                            self.dst_len.d.next = self.zero32.val();
                        }
                        // The payload length the header packs: an empty COMPRESS packs it
                        // in Start, before any chunk could clear what the last descriptor
                        // left here.
                        self.off.d.next = self.zero32.val();
                        self.state.d.next = CtlState::Start;
                        if self.is_dec.val() {
                            self.rmode.d.next = self.rm_hdr.val();
                            self.req_addr.d.next = self.chk.meta_addr.val();
                            self.req_beats.d.next = self.one32.val();
                            self.lim.d.next = self.hdr_words.val();
                            self.w.d.next = self.zero32.val();
                            self.k.d.next = self.k_zero.val();
                            self.got_last.d.next = false;
                            self.rerr.d.next = false;
                            self.state.d.next = CtlState::ReadReq;
                        }
                        if self.chk.code.val() != self.ok.val() {
                            self.code.d.next = self.chk.code.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::HdrCheck => {
                        self.can_abort.next = true;
                        self.n.d.next = self.hchk.n_chunks.val();
                        self.cl.d.next = self.hchk.chunk_log2.val();
                        self.dst_len.d.next = self.hchk.ulen.val();
                        self.rem.d.next = self.hchk.ulen.val();
                        self.off.d.next = self.zero32.val();
                        self.bad.d.next = false;
                        self.rmode.d.next = self.rm_idx.val();
                        self.req_addr.d.next = self.chk.meta_addr.val();
                        // ceil((8 + n) / E) beats: header and index.
                        self.req_beats.d.next = self.hidx_words.val() >> self.lg_e.val();
                        if (self.hidx_words.val() & self.e_m1_32.val()).any() {
                            self.req_beats.d.next =
                                (self.hidx_words.val() >> self.lg_e.val()) + self.one32.val();
                        }
                        self.lim.d.next = self.hidx_words.val();
                        self.w.d.next = self.zero32.val();
                        self.k.d.next = self.k_zero.val();
                        self.got_last.d.next = false;
                        self.rerr.d.next = false;
                        self.state.d.next = CtlState::ReadReq;
                        if self.hchk.code.val() != self.ok.val() {
                            self.code.d.next = self.hchk.code.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::IdxCheck => {
                        self.can_abort.next = true;
                        self.state.d.next = CtlState::Start;
                        if self.rerr.q.val() {
                            self.code.d.next = self.e_read.val();
                            self.state.d.next = CtlState::Result;
                        } else if self.bad.q.val() | (self.off.q.val() != self.hchk.plen.val()) {
                            self.code.d.next = self.e_bad_index.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::Start => {
                        self.can_abort.next = true;
                        self.ck_cnt.d.next = self.zero32.val();
                        self.off.d.next = self.zero32.val();
                        self.rem.d.next = self.dst_len.q.val();
                        if self.is_comp.val() {
                            self.rem.d.next = self.chk.src_len.val();
                        }
                        self.ck_v.d.next = false;
                        self.ck_fetch.d.next = false;
                        self.wdone.d.next = false;
                        if self.is_comp.val() & !self.chk.src_len.val().any() {
                            // Nothing to compress: the frame is the header alone.
                            self.hdr_pack.next = true;
                            self.smode.d.next = false;
                            self.req_addr.d.next = self.chk.meta_addr.val();
                            self.lim.d.next = self.idx_words.val();
                            self.w.d.next = self.zero32.val();
                            self.k.d.next = self.k_zero.val();
                            self.state.d.next = CtlState::FillReq;
                        } else if !self.is_comp.val() & !self.dst_len.q.val().any() {
                            // Nothing to write (COPY of 0 bytes, empty frame).
                            self.bw.d.next = self.zero32.val();
                            self.state.d.next = CtlState::Result;
                        } else {
                            self.dp_start.next = true;
                            self.req_addr.d.next = self.chk.dst_addr.val();
                            self.state.d.next = CtlState::DstReq;
                        }
                    }
                    CtlState::DstReq => {
                        self.can_abort.next = true;
                        self.wr_req_valid.next = true;
                        if self.wr_req_ready.val() {
                            self.req_addr.d.next = self.chk.src_addr.val();
                            self.req_beats.d.next = self.chk.src_beats.val();
                            self.state.d.next = CtlState::Run;
                            if self.chk.src_beats.val().any() {
                                self.state.d.next = CtlState::SrcReq;
                            }
                        }
                    }
                    CtlState::SrcReq => {
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = true;
                        self.rd_req_valid.next = true;
                        if self.rd_req_ready.val() {
                            self.state.d.next = CtlState::Run;
                        }
                    }
                    CtlState::Run => {
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = true;
                        self.rd_ready.next = self.dp_rd_ready.val();
                        self.dp_rd_valid.next = self.rd_valid.val();
                        if self.is_comp.val() {
                            // Decisions pass through as chunk commands if they fit dst_cap.
                            self.ck_stored_len.next = self.dec_stored_len.val();
                            self.ck_raw.next = self.dec_raw.val();
                            self.ck_chunk_len.next = self.size.val();
                            self.ck_last.next =
                                (self.ck_cnt.q.val() + self.one32.val()) == self.n.q.val();
                            self.ck_valid.next = self.dec_valid.val() & self.fits.val();
                            self.dec_ready.next = self.ck_ready.val() & self.fits.val();
                            self.ram.write_address.next =
                                self.ck_cnt.q.val().get_bits::<IDX_LOG2>(0);
                            self.ram.write_data.next = self.dec_stored_len.val();
                            if self.dec_raw.val() {
                                self.ram.write_data.next =
                                    self.dec_stored_len.val() | self.raw_mask.val();
                            }
                            if self.dec_valid.val() & self.ck_ready.val() & self.fits.val() {
                                self.ram.write_enable.next = true;
                                self.off.d.next = self.off.q.val() + self.dec_stored_len.val();
                                self.rem.d.next = self.rem.q.val() - self.size.val();
                                self.ck_cnt.d.next = self.ck_cnt.q.val() + self.one32.val();
                            }
                            if self.dec_valid.val() & !self.fits.val() {
                                self.code.d.next = self.e_overflow.val();
                                self.state.d.next = CtlState::Flush;
                            }
                        }
                        if self.is_dec.val() {
                            // Chunk commands from the index RAM (one read cycle each).
                            self.ck_valid.next = self.ck_v.q.val();
                            if self.ck_v.q.val() & self.ck_ready.val() {
                                self.ck_v.d.next = false;
                            }
                            if !self.ck_v.q.val()
                                & !self.ck_fetch.q.val()
                                & (self.ck_cnt.q.val() < self.n.q.val())
                            {
                                self.ck_fetch.d.next = true;
                            }
                            if self.ck_fetch.q.val() {
                                self.ck_fetch.d.next = false;
                                self.ck_v.d.next = true;
                                self.ck_len_r.d.next =
                                    self.ram.read_data.val() & self.size_mask.val();
                                self.ck_raw_r.d.next =
                                    (self.ram.read_data.val() & self.raw_mask.val()).any();
                                self.ck_size_r.d.next = self.size.val();
                                self.ck_last_r.d.next =
                                    (self.ck_cnt.q.val() + self.one32.val()) == self.n.q.val();
                                self.rem.d.next = self.rem.q.val() - self.size.val();
                                self.ck_cnt.d.next = self.ck_cnt.q.val() + self.one32.val();
                            }
                        }
                        if self.wr_done.val() {
                            self.wdone.d.next = true;
                        }
                        if self.wdone.q.val() {
                            if self.is_comp.val() {
                                if self.ck_cnt.q.val() == self.n.q.val() {
                                    self.hdr_pack.next = true;
                                    self.smode.d.next = false;
                                    self.req_addr.d.next = self.chk.meta_addr.val();
                                    self.lim.d.next = self.idx_words.val();
                                    self.w.d.next = self.zero32.val();
                                    self.k.d.next = self.k_zero.val();
                                    self.state.d.next = CtlState::FillReq;
                                }
                            } else {
                                self.bw.d.next = self.dst_len.q.val();
                                self.state.d.next = CtlState::Result;
                            }
                        }
                        if self.rd_valid.val() & self.dp_rd_ready.val() & self.rd_err.val() {
                            self.code.d.next = self.e_read.val();
                            self.state.d.next = CtlState::Flush;
                        }
                        if self.dp_error.val() {
                            self.code.d.next = self.e_bad_payload.val();
                            self.state.d.next = CtlState::Flush;
                        }
                        if self.wr_done.val() & self.wr_err.val() {
                            self.code.d.next = self.e_write.val();
                            self.state.d.next = CtlState::Flush;
                        }
                    }
                    CtlState::FillReq => {
                        self.can_abort.next = !self.smode.q.val();
                        self.wr_req_valid.next = true;
                        if self.wr_req_ready.val() {
                            self.state.d.next = CtlState::Fill;
                        }
                    }
                    CtlState::Fill => {
                        self.can_abort.next = !self.smode.q.val();
                        // Entry w - 8 must be on the RAM output next cycle.
                        self.ram.read_address.next = self.ent_nxt.val();
                        self.ws.en.next = true;
                        self.wv.d.next = self.wv.q.val() >> 1;
                        if self.wvalid.val() {
                            self.wv.d.next = (self.wv.q.val() >> 1) | self.wv_top.val();
                        }
                        if !self.smode.q.val() & (self.w.q.val() < self.hdr_words.val()) {
                            self.hdr_shift.next = true;
                        }
                        self.k.d.next = self.k.q.val() + self.k_one.val();
                        self.w.d.next = self.w.q.val() + self.one32.val();
                        if self.k.q.val() == self.k_e_m1.val() {
                            self.flast.d.next = self.smode.q.val()
                                | !((self.w.q.val() + self.one32.val()) < self.lim.q.val());
                            self.state.d.next = CtlState::Send;
                        }
                    }
                    CtlState::Send => {
                        self.can_abort.next = !self.smode.q.val();
                        self.ram.read_address.next = self.ent_idx.val();
                        self.wr_valid.next = true;
                        if self.wr_ready.val() {
                            self.k.d.next = self.k_zero.val();
                            self.state.d.next = CtlState::Fill;
                            if self.flast.q.val() {
                                self.state.d.next = CtlState::WaitDone;
                            }
                        }
                    }
                    CtlState::WaitDone => {
                        self.can_abort.next = !self.smode.q.val();
                        if self.wr_done.val() {
                            if self.smode.q.val() {
                                self.serr.d.next = self.wr_err.val();
                                self.state.d.next = CtlState::Done;
                            } else {
                                self.bw.d.next = self.off.q.val();
                                if self.wr_err.val() {
                                    self.code.d.next = self.e_write.val();
                                }
                                self.state.d.next = CtlState::Result;
                            }
                        }
                    }
                    CtlState::Flush => {
                        self.abort_out.next = true;
                        self.rd_ready.next = true;
                        if self.rd_idle.val() & self.wr_idle.val() & self.dp_idle.val() {
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::Result => {
                        if self.code.q.val() != self.ok.val() {
                            self.bw.d.next = self.zero32.val();
                            self.err_r.d.next = true;
                            self.err_code_r.d.next = self.code.q.val();
                            self.err_desc_r.d.next = self.cur.q.val();
                            self.irq_error_set.next = true;
                        }
                        self.state.d.next = CtlState::End;
                        // A descriptor that was not read (unaligned, fetch error, abort during
                        // its fetch) ends here; it counts as visited (docs/DESCRIPTORS.md).
                        self.desc_done.next = !self.desc_read.q.val();
                        if self.desc_read.q.val() {
                            // Status write-back: one beat, the 8 bytes at desc + 0x30.
                            self.smode.d.next = true;
                            self.req_addr.d.next = self.sa.val() & self.bb_inv.val();
                            self.w.d.next = self.zero32.val();
                            self.k.d.next = self.k_zero.val();
                            self.state.d.next = CtlState::FillReq;
                        }
                    }
                    CtlState::Done => {
                        self.desc_done.next = true;
                        self.irq_done_set.next = self.chk.irq.val();
                        self.cur.d.next = self.chk.next_desc.val();
                        self.state.d.next = CtlState::Fetch;
                        if self.abort_pend.q.val()
                            | self.serr.q.val()
                            | ((self.code.q.val() != self.ok.val()) & self.chk.stop.val())
                            | !self.chk.next_desc.val().any()
                        {
                            self.state.d.next = CtlState::End;
                        }
                        if self.serr.q.val() {
                            self.err_r.d.next = true;
                            self.err_code_r.d.next = self.e_write.val();
                            self.err_desc_r.d.next = self.cur.q.val();
                            self.irq_error_set.next = true;
                        }
                    }
                    CtlState::End => {
                        self.irq_done_set.next = true;
                        self.busy_r.d.next = false;
                        self.abort_pend.d.next = false;
                        self.state.d.next = CtlState::Idle;
                    }
                    _ => {
                        self.state.d.next = CtlState::Idle;
                    }
                }
                // ---- abort: from any abortable state to Flush, code ABORTED
                if self.abort.val() & self.busy_r.q.val() {
                    self.abort_pend.d.next = true;
                }
                if (self.abort.val() | self.abort_pend.q.val()) & self.can_abort.val() {
                    self.code.d.next = self.e_aborted.val();
                    self.abort_pend.d.next = true;
                    self.state.d.next = CtlState::Flush;
                }
                // ---- wide registers
                self.ws.d.next = self.wjoin.y.val();
                if self.ws_load.val() {
                    self.ws.d.next = self.rd_data.val();
                    self.ws.en.next = true;
                }
                self.hdr.d.next = self.hjoin.y.val();
                if self.hdr_shift.val() {
                    self.hdr.d.next = self.hdr.q.val() >> 32;
                    self.hdr.en.next = true;
                }
                if self.hdr_pack.val() {
                    self.hdr.d.next = self.hpack.y.val();
                    self.hdr.en.next = true;
                }
                // ---- write beat source
                self.wr_data.next = self.ws.q.val();
                self.wr_strb.next = self.strb.y.val();
                if self.wr_sel_dp.val() {
                    self.wr_data.next = self.dp_wr_data.val();
                    self.wr_strb.next = self.dp_wr_strb.val();
                    self.wr_last.next = self.dp_wr_last.val();
                    self.wr_valid.next = self.dp_wr_valid.val();
                    self.dp_wr_ready.next = self.wr_ready.val();
                }
                // ---- outputs
                self.busy.next = self.busy_r.q.val();
                self.error.next = self.err_r.q.val();
                self.err_code.next = self.err_code_r.q.val();
                self.err_desc.next = self.err_desc_r.q.val();
                self.dp_op.next = self.chk.op.val();
                self.dp_src_len.next = self.chk.src_len.val();
                self.dp_dst_len.next = self.dst_len.q.val();
                self.dp_chunk_log2.next = self.cl.q.val();
                self.dp_n_chunks.next = self.n.q.val();
                if self.rst.val() {
                    self.state.d.next = CtlState::Idle;
                    self.busy_r.d.next = false;
                    self.err_r.d.next = false;
                    self.err_code_r.d.next = self.ok.val();
                    self.err_desc_r.d.next = self.zero_addr.val();
                    self.abort_pend.d.next = false;
                    self.ck_v.d.next = false;
                    self.ck_fetch.d.next = false;
                    self.wv.d.next = self.wv_zero.val();
                }
            }
        }
    };
}

controller!(
    /// The controller of the 256-bit engine (E = 8).
    ControllerDw256, dw: 256, bb: 32, e: 8, lge: 3, dwm32: 224
);
controller!(
    /// The controller of the 512-bit engine (E = 16).
    ControllerDw512, dw: 512, bb: 64, e: 16, lge: 4, dwm32: 480
);
controller!(
    /// The controller of the 1024-bit engine (E = 32).
    ControllerDw1024, dw: 1024, bb: 128, e: 32, lge: 5, dwm32: 992
);

/// The controller alone as a Verilog top `cdma_dma_controller_dw{dw}` (lint, inspection).
///
/// # Panics
/// For a bus width other than 256, 512 or 1024.
pub fn controller_top(dw: usize) -> Top {
    let module = format!("cdma_dma_controller_dw{dw}");
    let params = vec![
        ("DW".into(), dw as u64),
        ("E".into(), dw as u64 / 32),
        ("CHUNK_LOG2_MAX".into(), super::CHUNK_LOG2_MAX),
        ("IDX_LOG2".into(), IDX_LOG2 as u64),
    ];
    let config = format!("DW = {dw}");
    match dw {
        256 => make_top_from(
            ControllerDw256::default(),
            &module,
            &config,
            CONTROLLER_PORTS,
            params,
        ),
        512 => make_top_from(
            ControllerDw512::default(),
            &module,
            &config,
            CONTROLLER_PORTS,
            params,
        ),
        1024 => make_top_from(
            ControllerDw1024::default(),
            &module,
            &config,
            CONTROLLER_PORTS,
            params,
        ),
        other => panic!("cdma-hdl: unsupported bus width {other} (supported: 256, 512, 1024)"),
    }
}

#[cfg(test)]
mod tests {
    //! The controller at DW = 256 against Rust models of the read master, the write master
    //! and the datapath, with a byte memory behind the masters.
    use super::*;
    use crate::testutil::{clock_cycle, from_bus, settle, to_bus};
    use cdma_spec::desc::*;
    use cdma_spec::frame::{self as fr, HEADER_LEN};
    use std::collections::VecDeque;

    const BB: u64 = 32;
    const MEM: usize = 0x10000;
    /// Reads at or above this address return SLVERR.
    const RD_ERR_AT: u64 = 0xF000;
    /// Writes at or above this address get an error B response.
    const WR_ERR_AT: u64 = 0xE000;
    const D0: u64 = 0x1000;
    const D1: u64 = 0x1040;
    const SRC: u64 = 0x2000;
    const DST: u64 = 0x4000;
    const META: u64 = 0x6000;

    /// One descriptor, laid out with the spec's fields.
    #[derive(Clone, Copy)]
    struct Desc {
        op: u64,
        elem: u64,
        irq: bool,
        stop: bool,
        cl: u64,
        src_len: u64,
        src: u64,
        dst: u64,
        cap: u64,
        meta: u64,
        next: u64,
        rsvd_ctl: u64,
        res0: u64,
    }

    fn copy(len: u64) -> Desc {
        Desc {
            op: OP_COPY,
            elem: 0,
            irq: false,
            stop: true,
            cl: 0,
            src_len: len,
            src: SRC,
            dst: DST,
            cap: 0x1000,
            meta: META,
            next: 0,
            rsvd_ctl: 0,
            res0: 0,
        }
    }

    impl Desc {
        fn bytes(&self) -> [u8; 64] {
            let mut d = [0u8; 64];
            let mut ctl = CTRL_OP.set(0, self.op);
            ctl = CTRL_ELEM.set(ctl, self.elem);
            ctl = CTRL_IRQ.set(ctl, u64::from(self.irq));
            ctl = CTRL_STOP_ON_ERROR.set(ctl, u64::from(self.stop));
            ctl = CTRL_CHUNK_LOG2.set(ctl, self.cl) | self.rsvd_ctl;
            CONTROL_FIELD.put(&mut d, ctl);
            SRC_LEN_FIELD.put(&mut d, self.src_len);
            SRC_ADDR_FIELD.put(&mut d, self.src);
            DST_ADDR_FIELD.put(&mut d, self.dst);
            DST_CAP_FIELD.put(&mut d, self.cap);
            RESERVED0_FIELD.put(&mut d, self.res0);
            META_ADDR_FIELD.put(&mut d, self.meta);
            NEXT_FIELD.put(&mut d, self.next);
            // The engine must overwrite these (and only these) 8 bytes.
            STATUS_FIELD.put(&mut d, 0xDEAD_BEEF);
            BYTES_WRITTEN_FIELD.put(&mut d, 0xFEED_F00D);
            d
        }
    }

    /// A frame header as the memory holds it.
    struct Hdr {
        magic: [u8; 4],
        version: u64,
        codec: u64,
        elem: u64,
        cl: u64,
        n: u64,
        reserved: u64,
        ulen: u64,
        plen: u64,
    }

    fn hdr(ulen: u64, cl: u64, entries: &[(u64, bool)]) -> Hdr {
        Hdr {
            magic: fr::MAGIC,
            version: u64::from(fr::VERSION),
            codec: u64::from(fr::CODEC_ZVC),
            elem: 8,
            cl,
            n: entries.len() as u64,
            reserved: 0,
            ulen,
            plen: entries.iter().map(|e| e.0).sum(),
        }
    }

    impl Hdr {
        fn bytes(&self, entries: &[(u64, bool)]) -> Vec<u8> {
            let mut h = vec![0u8; HEADER_LEN];
            h[..4].copy_from_slice(&self.magic);
            fr::VERSION_FIELD.put(&mut h, self.version);
            fr::CODEC_FIELD.put(&mut h, self.codec);
            fr::ELEM_BITS_FIELD.put(&mut h, self.elem);
            fr::CHUNK_LOG2_FIELD.put(&mut h, self.cl);
            fr::N_CHUNKS_FIELD.put(&mut h, self.n);
            fr::RESERVED_FIELD.put(&mut h, self.reserved);
            fr::UNCOMPRESSED_LEN_FIELD.put(&mut h, self.ulen);
            fr::PAYLOAD_LEN_FIELD.put(&mut h, self.plen);
            for (len, raw) in entries {
                let e = fr::INDEX_RAW.set(fr::INDEX_SIZE.set(0, *len), u64::from(*raw));
                h.extend_from_slice(&(e as u32).to_le_bytes());
            }
            h
        }
    }

    /// A chunk command the datapath model received.
    #[derive(Debug, PartialEq, Clone, Copy)]
    struct Cmd {
        stored: u64,
        raw: bool,
        chunk_len: u64,
        last: bool,
    }

    /// Testbench: the controller plus the models.
    struct Tb {
        uut: Box<ControllerDw256>,
        mem: Vec<u8>,
        cycles: u64,
        // read master
        rd_q: VecDeque<(u64, u64)>,
        rd_stall: bool,
        // write master
        wr_open: Option<u64>,
        wr_werr: bool,
        wr_done_in: Option<(u32, bool)>,
        wr_strobes: Vec<(u64, u32)>,
        // datapath
        dp_active: bool,
        dp_op: u64,
        dp_src_left: u64,
        dp_in: Vec<u8>,
        dp_out: VecDeque<u8>,
        dp_out_ready: bool,
        dp_error_now: bool,
        decisions: VecDeque<(u64, bool)>,
        cmds: Vec<Cmd>,
        // observed
        desc_done: u32,
        irq_done: u32,
        irq_error: u32,
        dp_starts: u32,
        abort_cycles: u32,
        ever_busy: bool,
    }

    impl Tb {
        fn new() -> Self {
            let mut uut = Box::<ControllerDw256>::default();
            uut.connect_all();
            let mem = (0..MEM).map(|i| (i * 13 + 7) as u8).collect();
            let mut tb = Tb {
                uut,
                mem,
                cycles: 0,
                rd_q: VecDeque::new(),
                rd_stall: false,
                wr_open: None,
                wr_werr: false,
                wr_done_in: None,
                wr_strobes: vec![],
                dp_active: false,
                dp_op: 0,
                dp_src_left: 0,
                dp_in: vec![],
                dp_out: VecDeque::new(),
                dp_out_ready: false,
                dp_error_now: false,
                decisions: VecDeque::new(),
                cmds: vec![],
                desc_done: 0,
                irq_done: 0,
                irq_error: 0,
                dp_starts: 0,
                abort_cycles: 0,
                ever_busy: false,
            };
            tb.uut.rst.next = true;
            tb.drive();
            settle(&mut *tb.uut);
            clock_cycle!(&mut *tb.uut);
            clock_cycle!(&mut *tb.uut);
            tb.uut.rst.next = false;
            tb
        }

        fn put(&mut self, addr: u64, bytes: &[u8]) {
            self.mem[addr as usize..addr as usize + bytes.len()].copy_from_slice(bytes);
        }

        fn get(&self, addr: u64, len: usize) -> &[u8] {
            &self.mem[addr as usize..addr as usize + len]
        }

        fn status(&self, d: u64) -> (bool, u64, u64) {
            let b = self.get(d, 64);
            let st = STATUS_FIELD.get(b);
            (
                STATUS_DONE.get(st) == 1,
                STATUS_ERROR.get(st),
                BYTES_WRITTEN_FIELD.get(b),
            )
        }

        /// Drives every input from the models' state (before settling).
        fn drive(&mut self) {
            let u = &mut self.uut;
            u.enable.next = true;
            u.rd_req_ready.next = true;
            let front = self.rd_q.front().copied();
            u.rd_valid.next = front.is_some() && !self.rd_stall;
            if let Some((addr, left)) = front {
                u.rd_data.next = {
                    let lanes: Vec<u64> = (0..BB)
                        .map(|i| u64::from(self.mem[(addr + i) as usize % MEM]))
                        .collect();
                    to_bus::<256>(&lanes, 8)
                };
                u.rd_last.next = left == 1;
                u.rd_err.next = addr >= RD_ERR_AT;
            }
            u.rd_idle.next = self.rd_q.is_empty();
            u.wr_req_ready.next = self.wr_open.is_none() && self.wr_done_in.is_none();
            u.wr_ready.next = self.wr_open.is_some();
            u.wr_done.next = matches!(self.wr_done_in, Some((0, _)));
            u.wr_err.next = matches!(self.wr_done_in, Some((0, true)));
            u.wr_idle.next = self.wr_open.is_none() && self.wr_done_in.is_none();
            // datapath
            u.dp_rd_ready.next = self.dp_active;
            u.dp_idle.next = !self.dp_active;
            u.dp_error.next = self.dp_error_now && self.dp_active;
            let n_out = self.dp_out.len().min(BB as usize);
            u.dp_wr_valid.next = self.dp_active && self.dp_out_ready && n_out > 0;
            let lanes: Vec<u64> = (0..BB as usize)
                .map(|i| {
                    self.dp_out
                        .get(i)
                        .filter(|_| i < n_out)
                        .map_or(0, |b| u64::from(*b))
                })
                .collect();
            u.dp_wr_data.next = to_bus::<256>(&lanes, 8);
            u.dp_wr_strb.next = ((1u64 << n_out) - 1).into();
            u.dp_wr_last.next = self.dp_out.len() <= BB as usize;
            let dec = self.decisions.front().copied();
            u.dec_valid.next = self.dp_active && self.dp_op == OP_COMPRESS && dec.is_some();
            if let Some((len, raw)) = dec {
                u.dec_stored_len.next = len.into();
                u.dec_raw.next = raw;
            }
            u.ck_ready.next = self.dp_active;
        }

        /// One clock cycle: drive, settle, observe handshakes, update the models, clock.
        fn step(&mut self) {
            self.drive();
            settle(&mut *self.uut);
            let u = &self.uut;
            let busy = u.busy.val();
            self.ever_busy |= busy;
            self.desc_done += u32::from(u.desc_done.val());
            self.irq_done += u32::from(u.irq_done_set.val());
            self.irq_error += u32::from(u.irq_error_set.val());
            let abort = u.abort_out.val();
            self.abort_cycles += u32::from(abort);
            if u.dp_start.val() {
                self.dp_starts += 1;
                self.dp_active = true;
                self.dp_op = u.dp_op.val().to_u64();
                self.dp_src_left = u.dp_src_len.val().to_u64();
                self.dp_in.clear();
                self.dp_out.clear();
                self.dp_out_ready = false;
                self.cmds.clear();
            }
            let dp_dst_len = u.dp_dst_len.val().to_u64();
            let dp_n = u.dp_n_chunks.val().to_u64();
            // read master
            let rd_fire = u.rd_valid.val() && u.rd_ready.val();
            let to_dp = u.dp_rd_valid.val() && u.dp_rd_ready.val();
            assert!(
                !to_dp || rd_fire,
                "datapath took a beat the master did not send"
            );
            if rd_fire {
                let (addr, left) = self.rd_q.pop_front().unwrap();
                if to_dp {
                    let take = self.dp_src_left.min(BB);
                    let b = self.get(addr, take as usize).to_vec();
                    self.dp_in.extend_from_slice(&b);
                    self.dp_src_left -= take;
                }
                if left > 1 {
                    self.rd_q.push_front((addr + BB, left - 1));
                }
            }
            if u.rd_req_valid.val() && u.rd_req_ready.val() {
                let addr = u.rd_req_addr.val().to_u64();
                let beats = u.rd_req_beats.val().to_u64();
                assert_eq!(addr % BB, 0, "unaligned read request");
                assert!(beats > 0, "empty read request");
                self.rd_q.push_back((addr, beats));
            }
            // chunk commands / decisions
            if u.ck_valid.val() && u.ck_ready.val() {
                self.cmds.push(Cmd {
                    stored: u.ck_stored_len.val().to_u64(),
                    raw: u.ck_raw.val(),
                    chunk_len: u.ck_chunk_len.val().to_u64(),
                    last: u.ck_last.val(),
                });
            }
            if u.dec_valid.val() && u.dec_ready.val() {
                assert!(
                    u.ck_valid.val() && u.ck_ready.val(),
                    "decision not forwarded"
                );
                let (len, _) = self.decisions.pop_front().unwrap();
                let start = self.dp_out.len() as u64;
                self.dp_out
                    .extend((0..len).map(|i| (0xC0 ^ (start + i)) as u8));
            }
            // write master
            let wr_fire = u.wr_valid.val() && u.wr_ready.val();
            let dp_wr_fire = u.dp_wr_valid.val() && u.dp_wr_ready.val();
            if wr_fire {
                let addr = self.wr_open.expect("beat without a stream");
                let data = from_bus(u.wr_data.val(), 8, BB as usize);
                let strb = u.wr_strb.val().to_u64() as u32;
                for (i, b) in data.iter().enumerate() {
                    if strb >> i & 1 == 1 {
                        self.mem[addr as usize + i] = *b as u8;
                    }
                }
                self.wr_strobes.push((addr, strb));
                self.wr_werr |= addr >= WR_ERR_AT;
                self.wr_open = Some(addr + BB);
                if u.wr_last.val() {
                    self.wr_open = None;
                    self.wr_done_in = Some((3, self.wr_werr));
                }
            }
            if dp_wr_fire {
                assert!(wr_fire, "datapath beat not passed to the write master");
                let n = self.dp_out.len().min(BB as usize);
                self.dp_out.drain(..n);
            }
            if u.wr_req_valid.val() && u.wr_req_ready.val() {
                let addr = u.wr_req_addr.val().to_u64();
                assert_eq!(addr % BB, 0, "unaligned write request");
                self.wr_open = Some(addr);
                self.wr_werr = false;
            }
            self.wr_done_in = match self.wr_done_in {
                Some((0, _)) => None,
                Some((k, e)) => Some((k - 1, e)),
                None => None,
            };
            // datapath output generation
            if self.dp_active && self.dp_src_left == 0 && !self.dp_out_ready {
                match self.dp_op {
                    OP_COPY => {
                        self.dp_out = self.dp_in.iter().copied().collect();
                        self.dp_out_ready = true;
                    }
                    OP_DECOMPRESS if self.cmds.len() as u64 == dp_n => {
                        self.dp_out = (0..dp_dst_len).map(|i| (i * 3) as u8).collect();
                        self.dp_out_ready = true;
                    }
                    OP_COMPRESS if self.decisions.is_empty() => self.dp_out_ready = true,
                    _ => {}
                }
            }
            if self.dp_out_ready && self.dp_out.is_empty() {
                self.dp_active = false;
            }
            if abort {
                self.rd_q.clear();
                self.wr_open = None;
                self.dp_active = false;
            }
            clock_cycle!(&mut *self.uut);
            self.cycles += 1;
        }

        /// Rings the doorbell at `head` and runs until the chain ends.
        fn run(&mut self, head: u64) {
            self.uut.head.next = head.into();
            self.uut.doorbell.next = true;
            self.step();
            self.uut.doorbell.next = false;
            let limit = self.cycles + 3000;
            loop {
                self.step();
                if self.ever_busy && !self.uut.busy.val() {
                    break;
                }
                assert!(self.cycles < limit, "chain did not end within 3000 cycles");
            }
            assert!(self.ever_busy, "doorbell did not start the chain");
        }

        fn err_code(&self) -> u64 {
            self.uut.err_code.val().to_u64()
        }
    }

    fn code(e: error::ErrorCode) -> u64 {
        u64::from(e.code)
    }

    #[test]
    fn copy_writes_data_and_status_with_eight_strobes() {
        let mut tb = Tb::new();
        let d = Desc {
            irq: true,
            ..copy(100)
        };
        tb.put(D0, &d.bytes());
        let src = tb.get(SRC, 100).to_vec();
        let after = tb.get(DST + 100, 28).to_vec();
        tb.run(D0);
        assert_eq!(tb.get(DST, 100), &src[..]);
        assert_eq!(tb.get(DST + 100, 28), &after[..], "wrote past src_len");
        assert_eq!(tb.status(D0), (true, 0, 100));
        // The status beat: one 8-byte write at desc + 0x30, nothing else of the descriptor.
        let st = *tb.wr_strobes.last().unwrap();
        assert_eq!(st, (D0 + 0x20, 0xFF << 16));
        let mut want = d.bytes();
        want[0x30..0x38].copy_from_slice(tb.get(D0 + 0x30, 8));
        assert_eq!(tb.get(D0, 64), &want[..]);
        assert!(!tb.uut.error.val());
        assert_eq!((tb.desc_done, tb.dp_starts, tb.irq_error), (1, 1, 0));
        assert_eq!(tb.irq_done, 2, "irq flag + chain end");
    }

    /// Runs one descriptor and returns (status code, CSR err_code, dp starts).
    fn run_one(d: Desc) -> (u64, u64, u32) {
        let mut tb = Tb::new();
        tb.put(D0, &d.bytes());
        tb.run(D0);
        let (done, st, bw) = tb.status(D0);
        assert!(done);
        assert_eq!(bw, 0, "bytes_written after an error");
        assert!(tb.uut.error.val());
        assert_eq!(tb.irq_error, 1);
        assert_eq!(tb.uut.err_desc.val().to_u64(), D0);
        (st, tb.err_code(), tb.dp_starts)
    }

    #[test]
    fn descriptor_validation_errors_in_order() {
        let comp = |len| Desc {
            op: OP_COMPRESS,
            cl: 7,
            ..copy(len)
        };
        let cases: Vec<(&str, Desc, error::ErrorCode)> = vec![
            ("op 3", Desc { op: 3, ..copy(64) }, error::BAD_DESC),
            (
                "elem 3",
                Desc {
                    elem: 3,
                    ..copy(64)
                },
                error::BAD_DESC,
            ),
            (
                "reserved control bit",
                Desc {
                    rsvd_ctl: 1 << 7,
                    ..copy(64)
                },
                error::BAD_DESC,
            ),
            (
                "reserved0",
                Desc {
                    res0: 1,
                    ..copy(64)
                },
                error::BAD_DESC,
            ),
            (
                "chunk_log2 for COPY",
                Desc { cl: 7, ..copy(64) },
                error::BAD_DESC,
            ),
            (
                "COMPRESS chunk_log2 6",
                Desc { cl: 6, ..comp(64) },
                error::BAD_DESC,
            ),
            (
                "COMPRESS chunk_log2 25",
                Desc { cl: 25, ..comp(64) },
                error::BAD_DESC,
            ),
            (
                "BAD_DESC before UNALIGNED",
                Desc {
                    res0: 1,
                    src: SRC + 4,
                    ..copy(64)
                },
                error::BAD_DESC,
            ),
            (
                "COMPRESS elem 16",
                Desc {
                    elem: 1,
                    ..comp(64)
                },
                error::UNSUPPORTED,
            ),
            (
                "COMPRESS chunk_log2 13",
                Desc { cl: 13, ..comp(64) },
                error::UNSUPPORTED,
            ),
            (
                "UNSUPPORTED before UNALIGNED",
                Desc {
                    elem: 2,
                    src: SRC + 1,
                    op: OP_DECOMPRESS,
                    cl: 0,
                    ..copy(64)
                },
                error::UNSUPPORTED,
            ),
            (
                "src unaligned",
                Desc {
                    src: SRC + 16,
                    ..copy(64)
                },
                error::UNALIGNED,
            ),
            (
                "dst unaligned",
                Desc {
                    dst: DST + 8,
                    ..copy(64)
                },
                error::UNALIGNED,
            ),
            (
                "meta unaligned",
                Desc {
                    meta: META + 4,
                    ..comp(64)
                },
                error::UNALIGNED,
            ),
            (
                "UNALIGNED before DST_OVERFLOW",
                Desc {
                    dst: DST + 8,
                    cap: 10,
                    ..copy(64)
                },
                error::UNALIGNED,
            ),
            (
                "COPY overflow",
                Desc {
                    cap: 63,
                    ..copy(64)
                },
                error::DST_OVERFLOW,
            ),
            ("too many chunks", comp(1025 * 128), error::UNSUPPORTED),
        ];
        for (name, d, want) in cases {
            let (st, csr, starts) = run_one(d);
            assert_eq!((st, csr), (code(want), code(want)), "{name}");
            assert_eq!(starts, 0, "{name}: datapath started");
        }
        // meta_addr is not checked for COPY, and 1024 chunks are fine.
        let mut tb = Tb::new();
        tb.put(
            D0,
            &Desc {
                meta: META + 4,
                ..copy(64)
            }
            .bytes(),
        );
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, 0, 64));
    }

    #[test]
    fn unaligned_or_unreadable_descriptor_ends_chain_without_write_back() {
        for (head, want) in [(D0 + 8, error::UNALIGNED), (RD_ERR_AT, error::READ_ERROR)] {
            let mut tb = Tb::new();
            tb.run(head);
            assert_eq!(tb.err_code(), code(want));
            assert!(tb.uut.error.val());
            assert_eq!(tb.uut.err_desc.val().to_u64(), head);
            assert!(tb.wr_strobes.is_empty(), "wrote something");
            // Visited, so counted (docs/DESCRIPTORS.md), though never written back.
            assert_eq!((tb.desc_done, tb.irq_error, tb.irq_done), (1, 1, 1));
        }
    }

    #[test]
    fn chain_goes_on_or_stops_after_an_error() {
        for stop in [false, true] {
            let mut tb = Tb::new();
            let bad = Desc {
                op: 3,
                stop,
                next: D1,
                ..copy(64)
            };
            let good = Desc {
                dst: DST + 0x200,
                ..copy(96)
            };
            tb.put(D0, &bad.bytes());
            tb.put(D1, &good.bytes());
            tb.run(D0);
            assert_eq!(tb.status(D0), (true, code(error::BAD_DESC), 0));
            if stop {
                assert_eq!(tb.get(D1 + 0x30, 4), &0xDEAD_BEEFu32.to_le_bytes());
                assert_eq!(tb.desc_done, 1);
            } else {
                assert_eq!(tb.status(D1), (true, 0, 96));
                assert_eq!(tb.desc_done, 2);
            }
            // error stays set for the chain; err_code names the failure.
            assert!(tb.uut.error.val());
            assert_eq!(tb.err_code(), code(error::BAD_DESC));
        }
    }

    #[test]
    fn compress_writes_header_and_index_after_the_payload() {
        let mut tb = Tb::new();
        let d = Desc {
            op: OP_COMPRESS,
            cl: 7,
            ..copy(300)
        };
        tb.put(D0, &d.bytes());
        let decisions = [(100, false), (128, true), (44, true)];
        tb.decisions = decisions.iter().copied().collect();
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, 0, 272));
        let cmds: Vec<Cmd> = tb.cmds.clone();
        let lens: Vec<u64> = cmds.iter().map(|c| c.chunk_len).collect();
        assert_eq!(lens, [128, 128, 44]);
        assert_eq!(
            cmds.iter().map(|c| c.last).collect::<Vec<_>>(),
            [false, false, true]
        );
        assert_eq!(tb.get(DST, 4), &[0xC0, 0xC1, 0xC2, 0xC3]);
        let want = hdr(300, 7, &decisions).bytes(&decisions);
        assert_eq!(tb.get(META, want.len()), &want[..]);
        // 44 bytes of metadata: two beats, the second with 12 strobed bytes.
        let meta_writes: Vec<_> = tb.wr_strobes.iter().filter(|w| w.0 >= META).collect();
        assert_eq!(meta_writes, [&(META, u32::MAX), &(META + 32, 0xFFF)]);
    }

    #[test]
    fn compress_stops_at_dst_cap() {
        let mut tb = Tb::new();
        let d = Desc {
            op: OP_COMPRESS,
            cl: 7,
            cap: 200,
            ..copy(300)
        };
        tb.put(D0, &d.bytes());
        tb.decisions = [(100, false), (128, true), (44, true)]
            .into_iter()
            .collect();
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, code(error::DST_OVERFLOW), 0));
        assert_eq!(
            tb.cmds.len(),
            1,
            "the chunk that does not fit was forwarded"
        );
        assert!(tb.abort_cycles > 0);
        assert!(
            tb.wr_strobes.iter().all(|w| w.0 < META || w.0 >= D0),
            "meta written"
        );
    }

    fn decompress(entries: &[(u64, bool)], h: Hdr, cap: u64) -> Tb {
        let mut tb = Tb::new();
        let plen: u64 = entries.iter().map(|e| e.0).sum();
        let d = Desc {
            op: OP_DECOMPRESS,
            src_len: plen,
            cap,
            ..copy(0)
        };
        tb.put(D0, &d.bytes());
        tb.put(META, &h.bytes(entries));
        tb.run(D0);
        tb
    }

    const ENTRIES: [(u64, bool); 3] = [(100, false), (128, true), (44, true)];

    #[test]
    fn decompress_sends_the_index_as_chunk_commands() {
        let tb = decompress(&ENTRIES, hdr(300, 7, &ENTRIES), 0x1000);
        assert_eq!(tb.status(D0), (true, 0, 300));
        let want: Vec<Cmd> = ENTRIES
            .iter()
            .zip([128, 128, 44])
            .enumerate()
            .map(|(i, (e, l))| Cmd {
                stored: e.0,
                raw: e.1,
                chunk_len: l,
                last: i == 2,
            })
            .collect();
        assert_eq!(tb.cmds, want);
        let out: Vec<u8> = (0..300u64).map(|i| (i * 3) as u8).collect();
        assert_eq!(tb.get(DST, 300), &out[..]);
    }

    /// A header + index of several bus beats (40 entries: 8 + 40 words, 6 beats at DW = 256):
    /// every entry reaches the RAM and the chunk commands, the checks pass.
    #[test]
    fn decompress_multi_beat_index() {
        let n = 40u64;
        let entries: Vec<(u64, bool)> = (0..n)
            .map(|i| match i {
                _ if i == n - 1 => (44, true),
                _ if i % 3 == 0 => (128, true),
                _ => (8 + 4 * (i % 29), false),
            })
            .collect();
        let ulen = (n - 1) * 128 + 44;
        let tb = decompress(&entries, hdr(ulen, 7, &entries), 0x2000);
        assert_eq!(tb.status(D0), (true, 0, ulen));
        let want: Vec<Cmd> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| Cmd {
                stored: e.0,
                raw: e.1,
                chunk_len: if i as u64 == n - 1 { 44 } else { 128 },
                last: i as u64 == n - 1,
            })
            .collect();
        assert_eq!(tb.cmds, want);
        // A bad entry in the last beat is still found.
        let mut bad = entries.clone();
        bad[37] = (128, false);
        let tb = decompress(&bad, hdr(ulen, 7, &bad), 0x2000);
        assert_eq!(tb.status(D0), (true, code(error::BAD_INDEX), 0));
        assert_eq!(tb.dp_starts, 0);
    }

    #[test]
    fn decompress_header_and_index_checks() {
        let h = || hdr(300, 7, &ENTRIES);
        let e = ENTRIES;
        type Case = (&'static str, Hdr, Vec<(u64, bool)>, u64, error::ErrorCode);
        let cases: Vec<Case> = vec![
            (
                "magic",
                Hdr {
                    magic: *b"cDMB",
                    ..h()
                },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "version",
                Hdr { version: 1, ..h() },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "codec",
                Hdr { codec: 2, ..h() },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "elem 12",
                Hdr { elem: 12, ..h() },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "chunk_log2 6",
                Hdr { cl: 6, ..h() },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "reserved",
                Hdr { reserved: 1, ..h() },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "n_chunks",
                Hdr { n: 4, ..h() },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "ulen not whole elements before UNSUPPORTED",
                Hdr {
                    elem: 16,
                    ulen: 301,
                    ..h()
                },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "elem 16",
                Hdr { elem: 16, ..h() },
                e.to_vec(),
                0x1000,
                error::UNSUPPORTED,
            ),
            (
                "chunk_log2 13",
                Hdr {
                    cl: 13,
                    n: 1,
                    ..h()
                },
                e.to_vec(),
                0x1000,
                error::UNSUPPORTED,
            ),
            ("ulen > dst_cap", h(), e.to_vec(), 299, error::DST_OVERFLOW),
            (
                "payload_len",
                Hdr { plen: 273, ..h() },
                e.to_vec(),
                0x1000,
                error::BAD_HEADER,
            ),
            (
                "raw size",
                hdr(300, 7, &[(100, false), (127, true), (45, true)]),
                vec![(100, false), (127, true), (45, true)],
                0x1000,
                error::BAD_INDEX,
            ),
            (
                "zvc not smaller",
                hdr(300, 7, &[(128, false), (100, false), (44, true)]),
                vec![(128, false), (100, false), (44, true)],
                0x1000,
                error::BAD_INDEX,
            ),
        ];
        for (name, h, entries, cap, want) in cases {
            // payload_len must still equal src_len unless that is the check under test.
            let tb = decompress(&entries, h, cap);
            let (done, st, bw) = tb.status(D0);
            assert_eq!((done, st, bw), (true, code(want), 0), "{name}");
            assert_eq!(tb.dp_starts, 0, "{name}: datapath started");
        }
        // Σ stored ≠ payload_len with every entry fine on its own.
        let mut tb = Tb::new();
        let d = Desc {
            op: OP_DECOMPRESS,
            src_len: 273,
            ..copy(0)
        };
        tb.put(D0, &d.bytes());
        tb.put(
            META,
            &Hdr {
                plen: 273,
                ..hdr(300, 7, &ENTRIES)
            }
            .bytes(&ENTRIES),
        );
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, code(error::BAD_INDEX), 0));
    }

    #[test]
    fn decompress_payload_error_and_read_error() {
        let mut tb = Tb::new();
        tb.dp_error_now = true;
        let plen = 272;
        let d = Desc {
            op: OP_DECOMPRESS,
            src_len: plen,
            ..copy(0)
        };
        tb.put(D0, &d.bytes());
        tb.put(META, &hdr(300, 7, &ENTRIES).bytes(&ENTRIES));
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, code(error::BAD_PAYLOAD), 0));
        assert!(tb.abort_cycles > 0);
        // A COPY whose source is unreadable.
        let mut tb = Tb::new();
        tb.put(
            D0,
            &Desc {
                src: RD_ERR_AT,
                ..copy(64)
            }
            .bytes(),
        );
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, code(error::READ_ERROR), 0));
    }

    #[test]
    fn abort_writes_aborted_status_and_ends_the_chain() {
        let mut tb = Tb::new();
        tb.put(
            D0,
            &Desc {
                next: D1,
                stop: false,
                ..copy(256)
            }
            .bytes(),
        );
        tb.put(D1, &copy(64).bytes());
        tb.uut.head.next = D0.into();
        tb.uut.doorbell.next = true;
        tb.step();
        tb.uut.doorbell.next = false;
        // Run until the payload read is requested, then stall the read data and abort.
        let mut n = 0;
        while tb.dp_starts == 0 {
            tb.step();
            n += 1;
            assert!(n < 500, "payload never started");
        }
        tb.rd_stall = true;
        for _ in 0..5 {
            tb.step();
        }
        tb.uut.abort.next = true;
        tb.step();
        tb.uut.abort.next = false;
        let t0 = tb.cycles;
        while tb.uut.busy.val() {
            tb.step();
            assert!(tb.cycles - t0 < 200, "abort did not end the chain");
        }
        assert!(tb.abort_cycles > 0);
        assert_eq!(tb.status(D0), (true, code(error::ABORTED), 0));
        assert_eq!(
            tb.get(D1 + 0x30, 4),
            &0xDEAD_BEEFu32.to_le_bytes(),
            "chain went on"
        );
        assert_eq!(tb.err_code(), code(error::ABORTED));
    }

    #[test]
    fn status_write_error_ends_the_chain() {
        let mut tb = Tb::new();
        let d = WR_ERR_AT;
        tb.put(
            d,
            &Desc {
                next: D1,
                stop: false,
                ..copy(64)
            }
            .bytes(),
        );
        tb.put(D1, &copy(64).bytes());
        tb.run(d);
        assert_eq!(tb.err_code(), code(error::WRITE_ERROR));
        assert_eq!(tb.desc_done, 1);
        assert_eq!(
            tb.get(D1 + 0x30, 4),
            &0xDEAD_BEEFu32.to_le_bytes(),
            "chain went on"
        );
    }

    #[test]
    fn empty_copy_and_empty_compress() {
        let mut tb = Tb::new();
        tb.put(
            D0,
            &Desc {
                next: D1,
                ..copy(0)
            }
            .bytes(),
        );
        tb.put(
            D1,
            &Desc {
                op: OP_COMPRESS,
                ..copy(0)
            }
            .bytes(),
        );
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, 0, 0));
        assert_eq!(tb.status(D1), (true, 0, 0));
        assert_eq!(tb.dp_starts, 0);
        let want = hdr(0, u64::from(fr::CHUNK_LOG2_DEFAULT), &[]).bytes(&[]);
        assert_eq!(tb.get(META, 32), &want[..]);
    }
}
