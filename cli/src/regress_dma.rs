//! The DMA engine part of `cdma regress`: corpus chains (COMPRESS → DECOMPRESS round trips,
//! COPYs) under random memory latency and backpressure, every fault scenario, aborts and
//! resets at random cycles (each followed by a clean chain), and
//! the throughput pair and the large descriptor (64 MiB in one COMPRESS) at a fixed 100-cycle
//! latency, all compared with the golden model
//! (`cdma_tb::dma`), and random descriptor chains with bad fields (the RTL fault campaign).
//! Every top runs every element width: the chains mix tensors of all of
//! them, the faults rotate through them, the throughput pair runs once per width. One table
//! row per case group, named by the top.

use crate::progress::Progress;
use crate::shard::Shard;
use cdma_analysis::table::Table;
use cdma_corpus::Corpus;
use cdma_model::Codec;
use cdma_tb::dma::{
    abort_bound, engine_of, run_case, run_case_on, top_available, BenchConfig, DmaBench, DmaResult,
};
use cdma_tb::dma_cases::{
    bad_field_cases, chain_cases_with, concat_data, damaged_frame_cases, fault_cases,
    interrupt_cases, large_cases, regress_tensors, throughput_cases, throughput_kinds,
};
use cdma_tb::dma_scenario::{RandomOpts, Tensor};

/// What to run.
pub struct DmaOpts {
    /// Verilog module of the engine (`cdma_dma_top`, `cdma_dma_dw512`, `cdma_dma_dw256`,
    /// `cdma_dma_dw128`).
    pub top: String,
    /// Random-timing seeds per corpus chain.
    pub seeds: u64,
    /// Tensors per chain.
    pub per_chain: usize,
    /// Only tensors whose name contains this.
    pub filter: Option<String>,
    /// Add the synthetic edge tensors of the engine's widths (odd lengths, all zero, NaNs, …).
    pub edge: bool,
    /// Bytes moved by each throughput descriptor.
    pub throughput_bytes: usize,
    /// Bytes of the large-descriptor case (0: none).
    pub large_bytes: usize,
    /// Random descriptor chains with bad fields (`cdma_fuzz::chains`).
    pub bad_field_chains: u64,
    /// Chains of six DECOMPRESSes of damaged frames (`cdma_fuzz::chains`).
    pub damaged_frame_chains: u64,
    /// Chains aborted or reset (alternately) at a random cycle, each followed by a clean one.
    pub interrupts: u64,
}

/// Fixed memory latency of the throughput figures (the measurement condition).
pub const THROUGHPUT_LATENCY: u32 = 100;

/// Runs the DMA cases of one top that are `shard`'s; returns the results (render them with
/// [`render`]). With `list`, prints the cases' names instead (`<top> <case>`) and runs none.
pub fn run(
    corpus: &Corpus,
    o: &DmaOpts,
    shard: &Shard,
    list: bool,
) -> Result<Vec<DmaResult>, String> {
    if !top_available(&o.top) {
        return Err(format!(
            "{} is not among the Verilated tops ({}); `cdma gen` lists what the generator emits",
            o.top,
            cdma_sim::TOPS
                .iter()
                .map(|t| t.module)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let engine = engine_of(&o.top).ok_or_else(|| format!("{} is not a DMA top", o.top))?;
    let bits = engine.bus_bytes() * 8;
    let mut tensors: Vec<Tensor> =
        regress_tensors(corpus, &engine, o.edge).map_err(|e| e.to_string())?;
    if let Some(f) = &o.filter {
        tensors.retain(|t| t.name.contains(f.as_str()));
    }
    if tensors.is_empty() {
        return Err(format!(
            "no tensor of the engine's element widths ({:?}) matches",
            engine.elem_widths()
        ));
    }
    let mut cases = Vec::new();
    for s in 0..o.seeds.max(1) {
        // On an engine with ZVC-X, the first seed's chains compress every tensor with it
        // (the codec's corpus regression), the others half of them (mixed with ZVC).
        let (group, opts) = if engine.has_zvcx() && s == 0 {
            let all = RandomOpts {
                zvcx_share: 1.0,
                ..RandomOpts::default()
            };
            ("dma-corpus-zvcx", all)
        } else {
            ("dma-corpus", RandomOpts::default())
        };
        cases.extend(
            chain_cases_with(group, &tensors, &engine, 1000 * s + 1, o.per_chain, &opts)
                .into_iter()
                .map(|c| (c, BenchConfig::random(bits, s + 1))),
        );
    }
    let mut faults = fault_cases(&engine, 7);
    let (bad_fields, left_out) = bad_field_cases(&engine, 15, o.bad_field_chains);
    if left_out > 0 {
        eprintln!(
            "regress dma: {left_out} of {} chains with bad fields loop (model only)",
            o.bad_field_chains
        );
    }
    faults.extend(bad_fields);
    faults.extend(damaged_frame_cases(&engine, 16, o.damaged_frame_chains));
    // Aborts and resets at random cycles, on the bench's random timing; the abort bound is
    // the documented one (docs/DESCRIPTORS.md "Abort") for that memory.
    let bench_cfg = BenchConfig::random(bits, 9);
    let bound = abort_bound(&o.top, &bench_cfg.mem)
        .ok_or_else(|| format!("{}: no abort bound (not a DMA top)", o.top))?;
    let mut interrupts = interrupt_cases(
        &engine,
        (&tensors[..2.min(tensors.len())], &tensors[..1]),
        3,
        o.interrupts,
        bound,
    );
    // The throughput pair per element width (the goal is per bus × element width), over the
    // tensors of that width; the large descriptor over the widest width's tensors.
    let mut tput = Vec::new();
    let mut tput_bytes = 0;
    let widths: Vec<_> = engine
        .elem_widths()
        .into_iter()
        .filter(|&e| tensors.iter().any(|t| t.elem == e))
        .collect();
    for &elem in &widths {
        let of_width: Vec<Tensor> = tensors.iter().filter(|t| t.elem == elem).cloned().collect();
        for ct in throughput_kinds(&engine, elem) {
            // A float type's pair runs on the tensors of that dtype (corpus names end in it),
            // or on every tensor of the width when there is none.
            let suffix = format!(".{}", ct.1.name());
            let of_type: Vec<Tensor> = of_width
                .iter()
                .filter(|t| t.name.ends_with(&suffix))
                .cloned()
                .collect();
            let src = if of_type.is_empty() {
                &of_width
            } else {
                &of_type
            };
            let data = concat_data(src, o.throughput_bytes, elem.bytes());
            tput_bytes += data.len();
            tput.extend(throughput_cases(&engine, ct, &data, 5, true));
            // The ZVC pair again without CRCs: what they cost (the goal is nothing).
            if engine.has_crc() && ct.0 == Codec::Zvc {
                tput.extend(throughput_cases(&engine, ct, &data, 5, false));
            }
        }
    }
    if let (true, Some(&widest)) = (o.large_bytes > 0, widths.last()) {
        tput.extend(large_cases(&engine, widest, &tensors, o.large_bytes, 11));
    }

    // This shard's cases, in the run's fixed order.
    shard.keep(&mut cases);
    shard.keep(&mut faults);
    shard.keep(&mut interrupts);
    shard.keep(&mut tput);
    if list {
        let names = (cases.iter().map(|c| &c.0))
            .chain(&faults)
            .chain(&interrupts)
            .chain(&tput)
            .map(|c| &c.name);
        for n in names {
            println!("{} {n}", o.top);
        }
        return Ok(Vec::new());
    }
    let total = (cases.len() + faults.len() + interrupts.len() + tput.len()) as u64;
    let bar = Progress::new("regress dma", "cases", total);
    eprintln!(
        "regress dma: {} on {} tensors ({} chains), {} fault scenarios and chains with bad fields, {} aborts and resets, throughput over {} KiB, a {} MiB descriptor",
        o.top,
        tensors.len(),
        cases.len(),
        faults.len(),
        interrupts.len(),
        tput_bytes / 1024,
        o.large_bytes >> 20
    );
    let mut results = Vec::new();
    let note = |r: &DmaResult, bar: &Progress| {
        if let Some(f) = &r.failure {
            bar.println(&format!("MISMATCH {}: {f}", r.name));
        }
        bar.inc();
    };
    for (c, cfg) in &cases {
        let r = run_case(&o.top, c, cfg.clone());
        note(&r, &bar);
        results.push(r);
    }
    let mut bench = DmaBench::open(&o.top, BenchConfig::random(bits, 7))?;
    for c in &faults {
        let r = run_case_on(&mut bench, c);
        note(&r, &bar);
        results.push(r);
    }
    let mut bench = DmaBench::open(&o.top, bench_cfg)?;
    for c in &interrupts {
        let r = run_case_on(&mut bench, c);
        note(&r, &bar);
        results.push(r);
    }
    for c in &tput {
        let r = run_case(&o.top, c, BenchConfig::fixed(bits, THROUGHPUT_LATENCY));
        note(&r, &bar);
        results.push(r);
    }
    bar.finish();
    Ok(results)
}

/// One table over the tops' results (a row per top and case group, a rule between tops),
/// then the throughput lines.
pub fn render(by_top: &[(String, Vec<DmaResult>)]) -> String {
    let mut t = Table::new(
        [
            "DMA top",
            "group",
            "cases",
            "chains run",
            "mismatches",
            "COMPRESS ratio",
            "cycles",
        ]
        .map(String::from)
        .to_vec(),
    );
    for (i, (top, results)) in by_top.iter().enumerate() {
        if i > 0 {
            t.rule();
        }
        rows(&mut t, top, results);
    }
    let mut s = t.text();
    for (top, results) in by_top {
        s += &throughput_lines(top, results);
    }
    s
}

fn rows(t: &mut Table, top: &str, results: &[DmaResult]) {
    let mut groups: Vec<String> = Vec::new();
    for r in results {
        if !groups.contains(&r.group) {
            groups.push(r.group.clone());
        }
    }
    for g in &groups {
        let rs: Vec<&DmaResult> = results.iter().filter(|r| &r.group == g).collect();
        let raw: u64 = rs.iter().map(|r| r.raw_bytes).sum();
        let pay: u64 = rs.iter().map(|r| r.payload_bytes).sum();
        let ratio = if pay > 0 {
            format!("{:.3}x", raw as f64 / pay as f64)
        } else {
            "-".into()
        };
        t.row(vec![
            top.to_owned(),
            g.clone(),
            rs.len().to_string(),
            rs.iter().map(|r| r.runs).sum::<usize>().to_string(),
            rs.iter().map(|r| r.mismatches).sum::<usize>().to_string(),
            ratio,
            rs.iter().map(|r| r.cycles).sum::<u64>().to_string(),
        ]);
    }
}

fn throughput_lines(top: &str, results: &[DmaResult]) -> String {
    let mut s = String::new();
    for r in results.iter().filter(|r| r.group == "dma-throughput") {
        let (what, u) = if r.name.contains("DECOMPRESS") {
            ("write-bus utilisation", r.write_utilisation)
        } else {
            ("read-bus utilisation", r.read_utilisation)
        };
        s.push_str(&format!(
            "{top} {}: {what} {} (fixed {THROUGHPUT_LATENCY}-cycle latency, no backpressure; goal >= 95 %)\n",
            r.name,
            u.map(|u| format!("{:.1} %", 100.0 * u)).unwrap_or_else(|| "n/a".into())
        ));
    }
    s
}
