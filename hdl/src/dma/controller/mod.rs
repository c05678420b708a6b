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
use super::params::{ENGINE_CHUNK_LOG2_MAX, IDX_LOG2};
use crate::emit::{make_top_from, Top};
use crate::prims::{EnReg, Join, LaneMask, ZeroExtend};

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
// The block is generated per bus width by three macros, one file each: the struct
// (ports.rs), its constants (constants.rs) and its update (update.rs). They expand here, so
// the imports above are what their bodies name.
#[macro_use]
mod ports;
#[macro_use]
mod constants;
#[macro_use]
mod update;
#[cfg(test)]
mod tests;

macro_rules! controller {
    (
        $(#[$doc:meta])*
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, dwm32: $dwm32:tt
    ) => {
        controller_struct!(
            $(#[$doc])*
            $name, dw: $dw, bb: $bb, e: $e, lge: $lge, dwm32: $dwm32
        );
        controller_default!($name, dw: $dw, bb: $bb, e: $e, lge: $lge, dwm32: $dwm32);
        controller_logic!($name, dw: $dw, bb: $bb, e: $e, lge: $lge, dwm32: $dwm32);
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
        ("CHUNK_LOG2_MAX".into(), ENGINE_CHUNK_LOG2_MAX),
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
