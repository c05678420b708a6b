//! `cdma sim`: one Verilated block on a raw tensor file, checked against the golden model.

use crate::inputs::read_tensor;
use crate::{parse_elem, CliResult};
use cdma_model::{zvc, ElemWidth};
use cdma_tb::dut::Clocked;
use cdma_tb::regress::{elem_of, patterns, Duts};
use cdma_tb::zvc::{compare, run_compressor, run_decompressor, RunStats};
use std::path::PathBuf;

/// Which RTL block to run.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Block {
    /// `ZvcCompressor`: tensor in, packed payload out (compared with the model's payload).
    Compressor,
    /// `ZvcDecompressor`: the model's payload in, tensor out (compared with the file).
    Decompressor,
    /// A DMA engine top (`--top`, every element width): a descriptor chain compresses the
    /// tensor (elements of `--elem` bits) to host memory, decompresses it back and copies
    /// it; the whole memory image, the status words and the CSRs are compared with the golden
    /// model.
    Dma,
}

/// Arguments of `cdma sim`.
#[derive(clap::Args)]
pub struct Args {
    /// The block to simulate.
    #[arg(long, value_enum)]
    block: Block,
    /// Element width in bits (8, 16 or 32); default: the input's type's (.npy,
    /// .safetensors), else 32.
    #[arg(long = "elem", value_parser = parse_elem)]
    elem_arg: Option<ElemWidth>,
    /// The element width of the run (`--elem` or the input's).
    #[arg(skip = ElemWidth::W32)]
    elem: ElemWidth,
    /// The DMA top (`--block dma`): cdma_dma_top (1024-bit bus), cdma_dma_dw512,
    /// cdma_dma_dw256 or cdma_dma_dw128.
    #[arg(long, default_value = "cdma_dma_top", conflicts_with_all = ["config", "preset"])]
    top: String,
    /// The DMA engine a config file describes (`--block dma`), Verilated into this build with
    /// `CDMA_SIM_CONFIGS=FILE cargo build --release`.
    #[arg(long, value_name = "FILE", conflicts_with = "preset")]
    config: Option<PathBuf>,
    /// The DMA engine of this preset (`--block dma`; docs/CONFIG.md: dw1024, dw512, dw256,
    /// dw128).
    #[arg(long, value_name = "NAME")]
    preset: Option<String>,
    /// Tensor file: raw little-endian (a whole number of elements), or a .npy or
    /// single-tensor .safetensors file.
    #[arg(long)]
    input: PathBuf,
    /// Write a VCD waveform of the run to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "fst")]
    vcd: Option<PathBuf>,
    /// Write an FST waveform (GTKWave's compressed format) of the run to FILE; the model
    /// writes a VCD next to it (FILE.tmp.vcd), converted when the run ends.
    #[arg(long, value_name = "FILE")]
    fst: Option<PathBuf>,
    /// Trace from cycle N on (with --vcd or --fst); cycles count from the model's creation,
    /// reset included, and cycle N is waveform time 2N.
    #[arg(long, value_name = "N")]
    trace_from: Option<u64>,
    /// Trace up to cycle N, included (with --vcd or --fst): the waveform is closed there, so
    /// a long run writes only the window.
    #[arg(long, value_name = "N")]
    trace_to: Option<u64>,
    /// Valid/ready pattern seed: 0 = always valid and ready (throughput), others random.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Runs `cdma sim`.
pub fn run(mut a: Args) -> CliResult {
    let (data, file_type) = read_tensor(&a.input)?;
    a.elem = match (a.elem_arg, file_type) {
        (Some(w), Some(d)) if elem_of(d) != w => {
            return Err(format!(
                "{} holds {d}, --elem says {} bits",
                a.input.display(),
                w.bits()
            ))
        }
        (Some(w), _) => w,
        (None, Some(d)) => elem_of(d),
        (None, None) => ElemWidth::W32,
    };
    a.check_trace()?;
    if let Block::Dma = a.block {
        return run_dma(&a, data);
    }
    let payload = zvc::encode(&data, a.elem).map_err(|e| format!("{}: {e}", a.input.display()))?;
    let n_elems = data.len() / a.elem.bytes();
    let mut duts = Duts::new();
    let (name, stats) = match a.block {
        Block::Compressor => {
            let dut = duts.compressor(a.elem);
            a.start_trace(dut)?;
            let (mut src, mut sink) = patterns(a.seed, 0);
            let run = run_compressor(dut, &data, &mut src, &mut sink);
            // Closed before the verdict, so a failing run's waveform is complete.
            dut.close_trace()?;
            let (got, stats) = run.map_err(|e| e.to_string())?;
            compare("compressor payload", &payload, &got).map_err(|e| e.to_string())?;
            ("compressor", stats)
        }
        Block::Decompressor => {
            let dut = duts.decompressor(a.elem);
            a.start_trace(dut)?;
            let (mut src, mut sink) = patterns(a.seed, 1);
            let run = run_decompressor(dut, &payload, n_elems, &mut src, &mut sink);
            dut.close_trace()?;
            let (got, stats) = run.map_err(|e| e.to_string())?;
            compare("decompressor output", &data, &got).map_err(|e| e.to_string())?;
            ("decompressor", stats)
        }
        Block::Dma => unreachable!("handled by run_dma above"),
    };
    report(name, a.elem, n_elems, &stats);
    a.report_trace();
    Ok(())
}

impl Args {
    /// The waveform file (`--vcd` or `--fst`; clap allows at most one).
    fn wave(&self) -> Option<&PathBuf> {
        self.vcd.as_ref().or(self.fst.as_ref())
    }

    /// The traced cycles (`--trace-from`, `--trace-to`), if either is given.
    fn window(&self) -> Option<(u64, u64)> {
        (self.trace_from.is_some() || self.trace_to.is_some()).then(|| {
            (
                self.trace_from.unwrap_or(0),
                self.trace_to.unwrap_or(u64::MAX),
            )
        })
    }

    /// A window needs a waveform and must not end before it starts.
    fn check_trace(&self) -> CliResult {
        match (self.window(), self.wave()) {
            (Some(_), None) => Err("--trace-from/--trace-to need --vcd FILE or --fst FILE".into()),
            (Some((from, to)), Some(_)) if from > to => Err(format!(
                "--trace-from {from} is after --trace-to {to}: the window would be empty"
            )),
            _ => Ok(()),
        }
    }

    /// Opens the waveform (if any) on a block, limited to the window.
    fn start_trace<C: Clocked + ?Sized>(&self, dut: &mut C) -> CliResult {
        let Some(p) = self.wave() else {
            return Ok(());
        };
        if let Some((from, to)) = self.window() {
            dut.trace_window(from, to)?;
        }
        dut.trace(p)
    }

    /// Says where the waveform is and which cycles it holds.
    fn report_trace(&self) {
        let Some(p) = self.wave() else {
            return;
        };
        match self.window() {
            Some((from, u64::MAX)) => println!("waveform: {} (cycles {from}..)", p.display()),
            Some((from, to)) => println!("waveform: {} (cycles {from}..={to})", p.display()),
            None => println!("waveform: {}", p.display()),
        }
    }
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

fn run_dma(a: &Args, data: Vec<u8>) -> CliResult {
    use cdma_tb::dma::{engine_of, top_available, BenchConfig, DmaBench};
    use cdma_tb::dma_scenario::{random_chain, RandomOpts, Tensor};
    if !data.len().is_multiple_of(a.elem.bytes()) {
        return Err(format!(
            "{}: {} bytes is not a whole number of {}-bit elements",
            a.input.display(),
            data.len(),
            a.elem.bits()
        ));
    }
    let named = crate::config_top::named(a.config.as_slice(), a.preset.as_slice())?;
    let configured = match named.first() {
        Some(n) => Some(crate::config_top::verilated_top(n)?),
        None => None,
    };
    let top = configured.as_deref().unwrap_or(&a.top);
    if !top_available(top) {
        return Err(format!(
            "{top} is not among the Verilated tops of this build"
        ));
    }
    let engine = engine_of(top).ok_or_else(|| format!("{top}: unknown DMA configuration"))?;
    if !engine.supports(a.elem) {
        return Err(format!(
            "{top} does not compress {}-bit elements (it runs {:?})",
            a.elem.bits(),
            engine.elem_widths()
        ));
    }
    let tensor = Tensor {
        name: a.input.display().to_string(),
        elem: a.elem,
        data,
    };
    let scn = random_chain(
        "cdma sim",
        &engine,
        std::slice::from_ref(&tensor),
        a.seed,
        &RandomOpts::default(),
    );
    let bits = engine.bus_bytes() * 8;
    let cfg = if a.seed == 0 {
        BenchConfig::fixed(bits, 100)
    } else {
        BenchConfig::random(bits, a.seed)
    };
    let mut bench = DmaBench::open(top, cfg)?;
    if let Some(p) = a.wave() {
        if let Some((from, to)) = a.window() {
            bench
                .dut
                .trace_window(from, to)
                .map_err(|e| e.to_string())?;
        }
        bench.dut.trace(p).map_err(|e| e.to_string())?;
    }
    let expect = scn.expect();
    let r = bench.run(&scn, &expect);
    // Closed before the verdict, so a failing run's waveform is complete.
    bench.dut.close_trace().map_err(|e| e.to_string())?;
    let r = r.map_err(|e| e.to_string())?;
    if !r.mismatches.is_empty() {
        return Err(format!(
            "{top}: {} mismatches against the golden model:\n{}",
            r.mismatches.len(),
            r.describe(20)
        ));
    }
    println!(
        "{top}: bit-exact: chain of {} descriptors over {} bytes, {} cycles, COMPRESS ratio {:.3}x, {} bytes read, {} written",
        expect.outcome.descs.len(),
        tensor.data.len(),
        r.cycles,
        r.raw_bytes as f64 / r.payload_bytes.max(1) as f64,
        r.stats.bytes_read,
        r.stats.bytes_written
    );
    a.report_trace();
    Ok(())
}
