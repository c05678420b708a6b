//! The engine of `cdma synth`: area and timing estimates with Yosys for every generated top and
//! its main submodules — NAND2-equivalent gates, flip-flops, memory bits, logic depth (generic),
//! iCE40, ECP5 and Xilinx 7-series LUTs, flip-flops and block RAMs, and optionally an iCE40 or
//! ECP5 place and route with nextpnr for Fmax — plus the tracked baseline and the tables of
//! synth/AREA.md. The command line (cli/src/synth.rs) parses options and calls this crate.
//!
//! * [`blocks`]: what is synthesised (tops and [`blocks::SUBBLOCKS`]).
//! * [`flow`]: one Yosys run and the figures parsed from it; [`pnr`]: place and route.
//! * [`jobs`]: runs the jobs in parallel, skipping those [`cache`]d (inputs unchanged since
//!   their report); [`reports`]: reads an earlier run's reports.
//! * [`baseline`]: synth/baseline.json and `--check`; [`render`]: tables and AREA.md.

#![warn(missing_docs)]

pub mod baseline;
pub mod blocks;
pub mod cache;
pub mod flow;
pub mod jobs;
pub mod pnr;
pub mod render;
pub mod reports;

use std::path::PathBuf;

/// synth/ of the source tree: this crate's folder, beside its Yosys scripts, baseline and
/// AREA.md.
pub fn synth_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
