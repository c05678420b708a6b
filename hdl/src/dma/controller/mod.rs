//! `Controller`: the DMA engine's frontend + midend (docs/ARCHITECTURE.md, "DMA engine").
//!
//! Per descriptor: fetch 64 bytes at `cur`, check them ([`DescCheck`]), for DECOMPRESS fetch
//! and check the frame header ([`HdrCheck`]) and the chunk index window by window (below),
//! run the payload through the datapath (requests to the read and write masters, chunk
//! decisions in / chunk commands out), write the status word back, follow `next`. Errors end
//! the descriptor with a code; abort ends the chain.
//!
//! ## COMPRESS index streaming
//! Each decision taken shifts its index entry into `ib` (the meta-region beat entry `i` lives
//! in: byte `meta_addr + 32 + 4i`; `k` words so far, `wv` their strobes; beat 0 starts at word
//! 8, after the header slot). A complete beat moves to `ic_*`; the next payload beat is sent
//! with `wr_close`, then the `ic` beat (`wr_jump` to its address), then the payload goes on
//! with a `wr_jump` back to `pa`, the payload address the controller tracks. Decisions wait
//! while `ib` is full and `ic` still waits. `ib` is then not the first index beat, so it
//! holds `E` entries of chunks decided after `ic` was loaded, and a chunk of at least 128
//! bytes stores at least one 4-byte mask per 32 elements (`128/E` bytes): `E` entries are at
//! least 128 ≥ `BB` payload bytes, so a payload beat always comes to take `ic` out (at
//! `DW = 128`, 4 entries of at least 4 bytes each (32-bit elements) are 16 = `BB` bytes). After the payload stream's B responses, a second stream writes `ic`,
//! the partial `ib` (padded into place, `IdxPad`) and the header beat, last.
//!
//! ## DECOMPRESS index windows
//! Entries `[wbase, wend)` (`2^IDX_WIN_LOG2` at most) are read with the word engine (beats
//! from `ir_addr`, the one holding entry `wbase`) and checked as they arrive: the beat's
//! response (`berr`), rules 11–13 against the chunk size (`arem`), the running sum `off`
//! against `payload_len`. Good entries go into the entry RAM; the first bad one sets
//! `stopped`/`stop_at`/`stop_code` and ends the windows. Then the payload the good entries
//! cover is requested (`pr_beats` so far, `pay_out` not yet delivered) and their chunk
//! commands issued from the RAM; when the window's commands are out and its payload delivered,
//! the next window (the R stream is in request order, so no index beat waits behind payload
//! the datapath cannot take). After a stop, the code is reported once the chunks before
//! `stop_at` have finished in the datapath (`dp_ck_open` low, then a cycle for its `error`),
//! so their payload errors come first.
//!
//! ## Word engine
//! Everything the controller itself reads or writes is a stream of 32-bit words through one
//! bus-wide shift register `ws` (word 0 of a beat in bits `[31:0]`):
//! * reading (descriptor, header, index): a beat is loaded, then shifted down one word per
//!   cycle; word `w` of the request goes into the descriptor (`w < lim`: the last 16 words
//!   shifted in are the descriptor, which picks the right half of a 1024-bit beat), the
//!   header (`w < 8`) or the entry RAM (the window's entries, checked on the way);
//! * writing (header, status): words are shifted in at the top, one per cycle, with a valid
//!   flag each (`wv`, the word strobes); after `E` words the beat is sent, to `req_addr`,
//!   which then moves on a beat (the 32-byte header is two beats at `DW = 128`).
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

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::check::{
    log2, DescCheck, HdrCheck, ADDR_BITS, CL_BITS, CODE_BITS, DESC_BITS, ELEM_BITS, ELEM_MASK_ALL,
    HDR_BITS, LEN_BITS, OP_BITS, TYPE_BITS,
};
use super::header::HeaderPack;
use super::params::{ENGINE_CHUNK_LOG2_MAX, IDX_WIN_LOG2};
use crate::emit::{make_top_from, Top};
use crate::prims::{EnReg, Join, LaneMask, ZeroExtend};
use cmd_issue::CmdIssue;
use fill_word::FillWord;
use idx_stream::IdxStream;
use index_window::IndexWindow;
use meta_crc::MetaCrc;
use meta_pass::MetaPass;
use read_hold::ReadHold;

/// Bits of the descriptor register above its lowest word.
const DESC_REST: usize = DESC_BITS - 32;
/// Bits of the header register above its lowest word.
const HDR_REST: usize = HDR_BITS - 32;

/// Port documentation of the controller, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static CONTROLLER_PORTS: PortDocs = PortDocs::new(include_str!("ports.rs"), "$name");

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
    /// DECOMPRESS of a version 4 frame: the metadata pass (the whole index, the stored CRC).
    MetaPass,
    /// The header's quarters into the metadata CRC, which is then written after the index
    /// (COMPRESS) or compared with the stored one (DECOMPRESS).
    MetaHdr,
    /// DECOMPRESS: the next index window's bounds settle into their registers.
    IdxWait,
    /// DECOMPRESS: request the next index window.
    IdxWin,
    /// DECOMPRESS: a window's index is in: its payload, or the error of its entry 0.
    IdxCheck,
    /// Start the payload.
    Start,
    /// Payload write request.
    DstReq,
    /// Payload read request.
    SrcReq,
    /// Payload streaming.
    Run,
    /// COMPRESS: open the final stream (the rest of the index, then the header).
    MetaReq,
    /// COMPRESS: choose the final stream's next beat.
    MetaNext,
    /// COMPRESS: pad the partial index beat into place.
    IdxPad,
    /// COMPRESS: send the complete index beat waiting in ic.
    SendIc,
    /// Write request (header, status).
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
// The block is generated per bus width by four macros, one file each: the struct
// (ports.rs), its constants (constants.rs) and its update (update.rs: defaults, state
// machine, outputs; wrapped by wiring.rs's children wiring). They expand here, so the imports
// above are what their bodies name.
mod cmd_issue;
mod fill_word;
mod idx_stream;
mod index_window;
mod meta_crc;
mod meta_pass;
mod read_hold;
#[macro_use]
mod ports;
#[macro_use]
mod constants;
#[macro_use]
mod wiring;
#[macro_use]
mod update;
#[cfg(test)]
mod tests;

macro_rules! controller {
    (
        $(#[$doc:meta])*
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, lgdw: $lgdw:tt,
        dwm32: $dwm32:tt, dwm64: $dwm64:tt
    ) => {
        controller_struct!(
            $(#[$doc])*
            $name, dw: $dw, bb: $bb, e: $e, lge: $lge, lgdw: $lgdw, dwm32: $dwm32, dwm64: $dwm64
        );
        controller_default!(
            $name, dw: $dw, bb: $bb, e: $e, lge: $lge, lgdw: $lgdw, dwm32: $dwm32, dwm64: $dwm64
        );
        controller_logic!(
            $name, dw: $dw, bb: $bb, e: $e, lge: $lge, lgdw: $lgdw, dwm32: $dwm32, dwm64: $dwm64
        );
    };
}

controller!(
    /// The controller of the 128-bit engine (E = 4 words per beat). Not constructible until
    /// the descriptor and header checks are multi-width: `DescCheck::new(128)` derives the
    /// element width `dw/32 = 4`, which has no code.
    ControllerDw128, dw: 128, bb: 16, e: 4, lge: 2, lgdw: 7, dwm32: 96, dwm64: 64
);
controller!(
    /// The controller of the 256-bit engine (E = 8).
    ControllerDw256, dw: 256, bb: 32, e: 8, lge: 3, lgdw: 8, dwm32: 224, dwm64: 192
);
controller!(
    /// The controller of the 512-bit engine (E = 16).
    ControllerDw512, dw: 512, bb: 64, e: 16, lge: 4, lgdw: 9, dwm32: 480, dwm64: 448
);
controller!(
    /// The controller of the 1024-bit engine (E = 32).
    ControllerDw1024, dw: 1024, bb: 128, e: 32, lge: 5, lgdw: 10, dwm32: 992, dwm64: 960
);

/// The controller alone as a Verilog top `cdma_dma_controller_dw{dw}` (lint, inspection).
///
/// # Panics
/// For a bus width other than 128, 256, 512 or 1024.
pub fn controller_top(dw: usize) -> Top {
    let module = format!("cdma_dma_controller_dw{dw}");
    let params = vec![
        ("DW".into(), dw as u64),
        ("E".into(), dw as u64 / 32),
        ("CHUNK_LOG2_MAX".into(), ENGINE_CHUNK_LOG2_MAX),
        ("IDX_WIN_LOG2".into(), IDX_WIN_LOG2 as u64),
    ];
    let config = format!("DW = {dw}");
    match dw {
        128 => make_top_from(
            ControllerDw128::default(),
            &module,
            &config,
            &CONTROLLER_PORTS,
            params,
        ),
        256 => make_top_from(
            ControllerDw256::default(),
            &module,
            &config,
            &CONTROLLER_PORTS,
            params,
        ),
        512 => make_top_from(
            ControllerDw512::default(),
            &module,
            &config,
            &CONTROLLER_PORTS,
            params,
        ),
        1024 => make_top_from(
            ControllerDw1024::default(),
            &module,
            &config,
            &CONTROLLER_PORTS,
            params,
        ),
        other => panic!("cdma-hdl: unsupported bus width {other} (supported: 128, 256, 512, 1024)"),
    }
}
