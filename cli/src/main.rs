//! `cdma`: the command line of the cdma compressing-DMA generator.

mod analyze;
mod bench;
mod codec;
mod config_top;
mod fuzz;
mod gen;
mod inputs;
mod junit;
mod progress;
mod regress;
mod regress_dma;
mod shard;
mod sim;
mod synth;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// cdma: an open compressing-DMA engine generator (zero-value compression of DNN activations).
#[derive(Parser)]
#[command(name = "cdma", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate the Verilog of the ZVC blocks and a JSON manifest of their ports.
    Gen(gen::Args),
    /// Compress a raw tensor file into a chunked cdma frame (golden model).
    Compress(codec::CompressArgs),
    /// Decompress a chunked cdma frame back into the raw tensor (golden model).
    Decompress(codec::DecompressArgs),
    /// Run one RTL block (Verilated) on a raw tensor file and check it bit for bit.
    Sim(sim::Args),
    /// Stream the corpus (and edge tensors) through both Verilated blocks under seeded traffic.
    Regress(regress::Args),
    /// Compare ZVC with RL, zlib, lz4 and zstd over the corpus; plots; offload-time model.
    Analyze(analyze::Args),
    /// Golden-model GB/s against lz4/zstd and RTL cycles/s, bytes/cycle (docs/PERFORMANCE.md).
    Bench(bench::Args),
    /// Damage frames and decode them with the golden model: detected / benign / silent /
    /// panic / hang per kind of damage (a mutation fuzzer, deterministic from --seed).
    Fuzz(fuzz::Args),
    /// Area and timing estimates with Yosys per block (GE, flip-flops, depth, LUTs); --check
    /// compares with synth/baseline.json (synth/AREA.md).
    Synth(synth::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Gen(a) => gen::run(a),
        Command::Compress(a) => codec::compress(a),
        Command::Decompress(a) => codec::decompress(a),
        Command::Sim(a) => sim::run(a),
        Command::Regress(a) => regress::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Fuzz(a) => fuzz::run(a),
        Command::Synth(a) => synth::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cdma: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Errors reach the user as one line of text.
pub type CliResult = Result<(), String>;

/// The element widths of repeated `--elem` options (clap has checked each is 8, 16 or 32);
/// all three when none was given.
pub fn elems_or_all(elems: &[String]) -> Vec<u32> {
    if elems.is_empty() {
        return vec![8, 16, 32];
    }
    elems
        .iter()
        .map(|s| s.parse().expect("validated by clap"))
        .collect()
}

/// Parses `--elem` values.
pub fn parse_elem(s: &str) -> Result<cdma_model::ElemWidth, String> {
    let bits: u32 = s
        .parse()
        .map_err(|_| format!("element width must be 8, 16 or 32, not {s:?}"))?;
    cdma_model::ElemWidth::from_bits(bits).map_err(|e| e.to_string())
}
