//! `cdma regress`: corpus × blocks × seeds with a progress bar and a summary table.

use crate::inputs::Inputs;
use crate::junit;
use crate::progress::Progress;
use crate::shard::Shard;
use crate::CliResult;
use cdma_corpus::Corpus;
use cdma_tb::regress::{
    corpus_cases, edge_cases, render_table, run_case, summarize, CaseResult, Duts,
};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `cdma regress`.
#[derive(clap::Args)]
pub struct Args {
    /// Corpus directory (with manifest.json); default: the bundled data/activations.
    #[arg(long)]
    corpus: Option<PathBuf>,
    #[command(flatten)]
    inputs: Inputs,
    /// Seeds per tensor: seed 0 runs always-valid/always-ready (the throughput figures),
    /// seeds 1.. draw random valid/ready patterns on both sides.
    #[arg(long, default_value_t = 3)]
    seeds: u64,
    /// First seed of the random ones (to reproduce a failure: --seed-base S --seeds 2).
    #[arg(long, default_value_t = 1)]
    seed_base: u64,
    /// Only tensors whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Skip the synthetic edge tensors (all zero, -0.0, NaNs, odd lengths, …).
    #[arg(long)]
    no_edge: bool,
    /// Write a per-tensor table (TSV: ratio, cycles, bytes/cycle per block) to this file.
    #[arg(long)]
    per_tensor: Option<PathBuf>,
    /// DMA engine top to run end to end (cdma_dma_top = 1024-bit bus, cdma_dma_dw512,
    /// cdma_dma_dw256, cdma_dma_dw128; each runs every element width); repeat for several;
    /// default: all four and the engines Verilated from config files (the bundled
    /// 512/{16,32} one), unless --config or --preset is given; each over the corpus tensors of every
    /// element width it runs (8-bit: the bytes of the 16-bit ones) and the edge tensors.
    #[arg(long)]
    dma_top: Vec<String>,
    /// The DMA engine a config file describes (docs/CONFIG.md), Verilated into this build
    /// with `CDMA_SIM_CONFIGS=FILE cargo build --release`; repeat for several.
    #[arg(long, value_name = "FILE")]
    config: Vec<PathBuf>,
    /// The DMA engine of this preset (docs/CONFIG.md: dw1024, dw512, dw256, dw128); repeat
    /// for several.
    #[arg(long, value_name = "NAME")]
    preset: Vec<String>,
    /// Skip the DMA engine (the ZVC blocks only).
    #[arg(long)]
    no_dma: bool,
    /// Skip the ZVC block runs (the DMA engine only).
    #[arg(long)]
    no_blocks: bool,
    /// Corpus tensors per DMA chain (each compressed, decompressed back and copied).
    #[arg(long, default_value_t = 4)]
    dma_per_chain: usize,
    /// Random-timing seeds of the DMA corpus chains.
    #[arg(long, default_value_t = 1)]
    dma_seeds: u64,
    /// KiB moved by each DMA throughput descriptor.
    #[arg(long, default_value_t = 1024)]
    dma_throughput_kib: usize,
    /// MiB of the large-descriptor case (one COMPRESS of tiled corpus tensors; 0 skips it).
    #[arg(long, default_value_t = 64)]
    dma_large_mib: usize,
    /// Random descriptor chains with bad fields per DMA top (the RTL fault campaign; the
    /// chains of `cdma fuzz --chains`, without loops).
    #[arg(long, default_value_t = 1000)]
    dma_bad_field_chains: u64,
    /// Chains of six DECOMPRESSes of damaged frames (version 4 mostly) per DMA top: the RTL
    /// campaign's corrupted frames (1700 chains: 10 200 frames).
    #[arg(long, default_value_t = 1700)]
    dma_damaged_frame_chains: u64,
    /// Chains per DMA top aborted (CTRL.abort) or reset (`rst`, with the memory's bus state)
    /// at a random cycle under random latency and backpressure, alternately, each followed by
    /// a clean chain.
    #[arg(long, default_value_t = 200)]
    dma_interrupts: u64,
    /// Run only shard K of N (1-based) of the cases: a deterministic partition (case i of the
    /// run's fixed order is shard i mod N + 1), so N machines with K = 1..N run together
    /// exactly the cases of the whole run, each once.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Also write the results as JUnit XML to this file (a suite for the ZVC blocks and one
    /// per DMA engine; a test case per tensor x block x seed and per DMA case).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Print the cases the run (or --shard) would run, one per line, and run none.
    #[arg(long)]
    list: bool,
}

/// Runs `cdma regress`.
pub fn run(a: Args) -> CliResult {
    let corpus = a.inputs.open(a.corpus.as_deref())?;
    let max = cdma_tb::dma_cases::MAX_TRANSFER;
    for (flag, bytes) in [
        ("--dma-throughput-kib", (a.dma_throughput_kib as u64) << 10),
        ("--dma-large-mib", (a.dma_large_mib as u64) << 20),
    ] {
        if bytes > max {
            return Err(format!(
                "{flag}: {bytes} bytes is more than the testbench places in one descriptor \
                 ({max} bytes, {} MiB)",
                max >> 20
            ));
        }
    }
    let shard = match &a.shard {
        Some(s) => Shard::parse(s)?,
        None => Shard::default(),
    };
    let mut suites = Vec::new();
    let mut failed = 0;
    if !a.no_blocks {
        let from = a.inputs.describe(a.corpus.as_deref());
        let results = run_blocks(&a, &corpus, &from, &shard)?;
        failed += results.iter().filter(|r| r.failure.is_some()).count();
        if !results.is_empty() {
            suites.push(junit::blocks_suite(&results));
        }
    }
    if !a.no_dma {
        let named = crate::config_top::named(&a.config, &a.preset)?;
        let mut tops: Vec<String> = if a.dma_top.is_empty() && named.is_empty() {
            cdma_tb::dma::DMA_TOPS
                .iter()
                .copied()
                .chain(cdma_tb::dma::configured_tops())
                .map(|t| t.0.to_owned())
                .collect()
        } else {
            a.dma_top.clone()
        };
        for n in &named {
            tops.push(crate::config_top::verilated_top(n)?);
        }
        let mut by_top = Vec::new();
        for top in &tops {
            let r = crate::regress_dma::run(
                &corpus,
                &crate::regress_dma::DmaOpts {
                    top: top.clone(),
                    seeds: a.dma_seeds,
                    per_chain: a.dma_per_chain,
                    filter: a.filter.clone(),
                    edge: !a.no_edge,
                    throughput_bytes: a.dma_throughput_kib * 1024,
                    large_bytes: a.dma_large_mib << 20,
                    bad_field_chains: a.dma_bad_field_chains,
                    damaged_frame_chains: a.dma_damaged_frame_chains,
                    interrupts: a.dma_interrupts,
                },
                &shard,
                a.list,
            )?;
            suites.push(junit::dma_suite(top, &r));
            by_top.push((top.clone(), r));
        }
        if a.list {
            return Ok(());
        }
        print!("{}", crate::regress_dma::render(&by_top));
        let results: Vec<_> = by_top.iter().flat_map(|(_, r)| r).collect();
        let bad = results.iter().filter(|r| r.failure.is_some()).count();
        let mismatches: usize = results.iter().map(|r| r.mismatches).sum();
        if bad == 0 {
            println!(
                "regress dma: {} cases on {}, {mismatches} mismatches",
                results.len(),
                tops.join(", ")
            );
        }
        failed += bad;
    }
    if let (Some(path), false) = (&a.junit, a.list) {
        junit::write(path, suites)?;
        println!("JUnit: {}", path.display());
    }
    if failed > 0 {
        return Err(format!(
            "{failed} runs were not bit-exact (MISMATCH lines above)"
        ));
    }
    Ok(())
}

/// The ZVC block runs of `shard` (`--list`: their names, run none); returns the results.
fn run_blocks(
    a: &Args,
    corpus: &Corpus,
    from: &str,
    shard: &Shard,
) -> Result<Vec<CaseResult>, String> {
    let mut cases = corpus_cases(corpus).map_err(|e| e.to_string())?;
    if !a.no_edge {
        cases.extend(edge_cases());
    }
    if let Some(f) = &a.filter {
        cases.retain(|c| c.name.contains(f.as_str()));
    }
    if cases.is_empty() {
        return Err("no tensor matches".into());
    }
    let seeds: Vec<u64> = std::iter::once(0)
        .chain((0..a.seeds.saturating_sub(1)).map(|i| a.seed_base + i))
        .collect();
    // Every tensor x seed in the run's fixed order; this shard's.
    let mut runs: Vec<(usize, u64)> = (0..cases.len())
        .flat_map(|c| seeds.iter().map(move |&s| (c, s)))
        .collect();
    shard.keep(&mut runs);
    if a.list {
        for &(c, seed) in &runs {
            println!("blocks {} seed {seed}", cases[c].name);
        }
        return Ok(Vec::new());
    }
    println!(
        "regress: {} tensors from {} (+ edge tensors: {}) x blocks [compressor, decompressor] x seeds {:?}{}",
        cases.len(),
        from,
        !a.no_edge,
        seeds,
        shard
            .label()
            .map(|l| format!(", shard {l}: {} of the runs", runs.len()))
            .unwrap_or_default()
    );
    let total = runs.len() as u64;
    let bar = Progress::new("regress", "runs", total);
    let mut duts = Duts::new();
    let mut results: Vec<CaseResult> = Vec::new();
    for &(c, seed) in &runs {
        let case = &cases[c];
        bar.message(&case.name);
        let r = run_case(&mut duts, case, seed);
        if let Some(f) = &r.failure {
            bar.println(&format!("MISMATCH {}: {f}", r.name));
        }
        results.push(r);
        bar.inc_noting(|| {
            let bad = results.iter().filter(|r| r.failure.is_some()).count();
            format!(", {bad} mismatches so far")
        });
    }
    bar.finish();
    let groups = summarize(&results);
    print!("{}", render_table(&groups));
    println!("(B/cyc: uncompressed bytes per clock, fill latency included; blk/cyc: blocks per clock while streaming; figures from the always-ready seed 0)");
    if let Some(path) = &a.per_tensor {
        std::fs::write(path, per_tensor_tsv(&results))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("per-tensor table: {}", path.display());
    }
    let failed = results.iter().filter(|r| r.failure.is_some()).count();
    if failed == 0 {
        println!("regress: {} runs, 0 mismatches", results.len());
    }
    Ok(results)
}

fn per_tensor_tsv(results: &[CaseResult]) -> String {
    let mut s = String::from(
        "tensor\tgroup\tseed\tratio\tcomp_cycles\tcomp_bytes_per_cycle\tcomp_blocks_per_cycle\tdecomp_cycles\tdecomp_bytes_per_cycle\tdecomp_blocks_per_cycle\tresult\n",
    );
    for r in results {
        let _ = writeln!(
            s,
            "{}\t{}\t{}\t{:.4}\t{}\t{:.2}\t{:.4}\t{}\t{:.2}\t{:.4}\t{}",
            r.name,
            r.group,
            r.seed,
            r.comp.raw_bytes as f64 / r.comp.payload_bytes.max(1) as f64,
            r.comp.cycles,
            r.comp.raw_bytes_per_cycle(),
            r.comp.blocks_per_cycle(),
            r.decomp.cycles,
            r.decomp.raw_bytes_per_cycle(),
            r.decomp.blocks_per_cycle(),
            r.failure.as_deref().unwrap_or("ok")
        );
    }
    s
}
