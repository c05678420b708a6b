//! `cdma sim`: one Verilated block on a raw tensor file, checked against the golden model.

use crate::{parse_elem, CliResult};
use cdma_model::{zvc, ElemWidth};
use cdma_tb::regress::{patterns, Duts};
use cdma_tb::zvc::{compare, run_compressor, run_decompressor, RunStats};
use std::path::PathBuf;

/// Which RTL block to run.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Block {
    /// `ZvcCompressor`: tensor in, packed payload out (compared with the model's payload).
    Compressor,
    /// `ZvcDecompressor`: the model's payload in, tensor out (compared with the file).
    Decompressor,
}

/// Arguments of `cdma sim`.
#[derive(clap::Args)]
pub struct Args {
    /// The block to simulate.
    #[arg(long, value_enum)]
    block: Block,
    /// Element width in bits (8, 16 or 32).
    #[arg(long, value_parser = parse_elem, default_value = "32")]
    elem: ElemWidth,
    /// Raw little-endian tensor file (a whole number of elements).
    #[arg(long)]
    input: PathBuf,
    /// Write a waveform of the run (VCD; FST if the name ends in .fst).
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// Valid/ready pattern seed: 0 = always valid and ready (throughput), others random.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Runs `cdma sim`.
pub fn run(a: Args) -> CliResult {
    let data =
        std::fs::read(&a.input).map_err(|e| format!("cannot read {}: {e}", a.input.display()))?;
    let payload = zvc::encode(&data, a.elem).map_err(|e| format!("{}: {e}", a.input.display()))?;
    let n_elems = data.len() / a.elem.bytes();
    let mut duts = Duts::new();
    let (name, stats) = match a.block {
        Block::Compressor => {
            let dut = duts.compressor(a.elem);
            if let Some(p) = &a.vcd {
                dut.trace(p)?;
            }
            let (mut src, mut sink) = patterns(a.seed, 0);
            let (got, stats) =
                run_compressor(dut, &data, &mut src, &mut sink).map_err(|e| e.to_string())?;
            compare("compressor payload", &payload, &got).map_err(|e| e.to_string())?;
            ("compressor", stats)
        }
        Block::Decompressor => {
            let dut = duts.decompressor(a.elem);
            if let Some(p) = &a.vcd {
                dut.trace(p)?;
            }
            let (mut src, mut sink) = patterns(a.seed, 1);
            let (got, stats) = run_decompressor(dut, &payload, n_elems, &mut src, &mut sink)
                .map_err(|e| e.to_string())?;
            compare("decompressor output", &data, &got).map_err(|e| e.to_string())?;
            ("decompressor", stats)
        }
    };
    report(name, a.elem, n_elems, &stats);
    if let Some(p) = &a.vcd {
        println!("waveform: {}", p.display());
    }
    Ok(())
}

fn report(block: &str, elem: ElemWidth, n_elems: usize, s: &RunStats) {
    println!(
        "{block} e{}: bit-exact: {} elements, {} blocks, {} payload bytes",
        elem.bits(),
        n_elems,
        s.blocks,
        s.payload_bytes
    );
    if s.blocks == 0 {
        println!("empty tensor: nothing to stream (the payload is empty)");
        return;
    }
    let per_cycle = |bytes: u64| bytes as f64 / s.cycles.max(1) as f64;
    let (input, output) = if block == "compressor" {
        (s.raw_bytes, s.payload_bytes)
    } else {
        (s.payload_bytes, s.raw_bytes)
    };
    println!(
        "ratio {:.3}x  cycles {}  blocks/cycle {:.3} (streaming, {} cycles)  input bytes/cycle {:.1}  output bytes/cycle {:.1}",
        s.raw_bytes as f64 / s.payload_bytes.max(1) as f64,
        s.cycles,
        s.blocks_per_cycle(),
        s.stream_cycles,
        per_cycle(input),
        per_cycle(output),
    );
}
