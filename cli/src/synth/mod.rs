//! `cdma synth`: area and timing estimates with Yosys for every generated top and its main
//! submodules: NAND2-equivalent gates, flip-flops, memory bits, logic depth (generic), iCE40
//! and Xilinx 7-series LUTs, flip-flops and block RAMs, and optionally an iCE40 place and
//! route with nextpnr for Fmax. Reports go to synth/reports/*.json; `--check` compares with
//! the tracked synth/baseline.json. See synth/AREA.md.

mod baseline;
mod flow;
mod pnr;
mod render;

use crate::CliResult;
use baseline::{compare, diff_table, figures_of, Baseline, Status};
use flow::{Report, Target, PNR};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Main submodules synthesised on their own besides their top: top-module prefix, instance
/// path under the top (module `<top>__<path>`), what it is. Adding a block is one more line;
/// a path a top does not have is skipped.
pub const SUBBLOCKS: &[(&str, &str, &str)] = &[
    (
        "cdma_zvc_",
        "dp",
        "datapath (no registers): mask, network, packer / unpacker shifts",
    ),
    (
        "cdma_zvc_",
        cdma_hdl::ZVC_STEER_PATH,
        "steer: zero-count scan driving the network, popcount",
    ),
    (
        "cdma_zvc_",
        "dp__net",
        "element network: compaction / expansion",
    ),
    ("cdma_dma_", "csr", "CSR block (AXI4-Lite slave)"),
    (
        "cdma_dma_",
        "ctl",
        "controller: descriptors, index RAM, header and status write-back",
    ),
    ("cdma_dma_", "rd", "AXI4 read master"),
    ("cdma_dma_", "wr", "AXI4 write master and its burst buffer"),
    (
        "cdma_dma_",
        "dp",
        "datapath: compressor, decompressor, scan, FIFO, packer, splitter",
    ),
    ("cdma_dma_", "dp__scan", "chunk scan"),
    ("cdma_dma_", "dp__fifo", "chunk FIFO"),
    ("cdma_dma_", "dp__packer", "lane packer"),
    ("cdma_dma_", "dp__spl", "lane splitter"),
];

/// Arguments of `cdma synth`.
#[derive(clap::Args)]
pub struct Args {
    /// Element width in bits (8, 16 or 32); repeat for several; default: all three.
    #[arg(long = "elem", value_parser = clap::builder::PossibleValuesParser::new(["8", "16", "32"]))]
    elems: Vec<String>,
    /// Target: generic (NAND2-equivalent gates, depth), ice40 or xilinx; repeat for several;
    /// default: all three.
    #[arg(long = "target", value_enum)]
    targets: Vec<Target>,
    /// Only this block (a Verilog module name, e.g. cdma_zvc_compressor_e8 or
    /// cdma_zvc_compressor_e8__dp); repeat for several; default: every top of the selected
    /// widths and its main submodules.
    #[arg(long = "block", value_name = "MODULE")]
    blocks: Vec<String>,
    /// Leave out the DMA engine tops (cdma_dma_*) and their submodules.
    #[arg(long)]
    no_dma: bool,
    /// Also place and route each selected top on an iCE40 with nextpnr-ice40 for its Fmax
    /// (minutes per top; a top that does not fit is reported as such).
    #[arg(long)]
    pnr: bool,
    /// iCE40 device for --pnr.
    #[arg(long, default_value = "hx8k", value_parser = clap::builder::PossibleValuesParser::new(pnr::DEVICES.map(|d| d.0)))]
    pnr_device: String,
    /// Print the reports as JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Compare with the baseline: fail if GE, flip-flops, memory bits, LUTs or block RAMs of
    /// any block grew by more than the baseline's tolerance (5 %).
    #[arg(long, conflicts_with = "update_baseline")]
    check: bool,
    /// Write these figures into the baseline (the blocks and targets not run are kept).
    #[arg(long)]
    update_baseline: bool,
    /// Rewrite the generated section of synth/AREA.md from the baseline (after
    /// --update-baseline if both are given).
    #[arg(long)]
    write_doc: bool,
    /// Baseline file [default: synth/baseline.json].
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Directory of the JSON reports; Yosys work directories and logs go to its work/
    /// [default: synth/reports].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Do not run any tool: read the reports an earlier run wrote to DIR (same selection
    /// options).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "pnr"])]
    from_reports: Option<PathBuf>,
    /// Tool runs at a time.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// Give up on one tool run after this many seconds.
    #[arg(long, default_value_t = 3600)]
    timeout: u64,
}

/// synth/ of the source tree.
pub fn synth_dir() -> PathBuf {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    cli.parent().unwrap_or(cli).join("synth")
}

/// One block to synthesise.
struct Block {
    name: String,
    top: String,
    elem_bits: u32,
    what: String,
    verilog: Arc<str>,
    /// Ports, for tops (place and route wraps them).
    ports: Option<Vec<cdma_hdl::Port>>,
}

/// Module names declared in a Verilog file.
fn modules(verilog: &str) -> BTreeSet<String> {
    verilog
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("module "))
        .filter_map(|r| {
            r.split(|c: char| c == '(' || c == ';' || c.is_whitespace())
                .next()
        })
        .map(str::to_owned)
        .collect()
}

/// The blocks of one top: the top itself, then the [`SUBBLOCKS`] it has.
fn blocks_of(top: &cdma_hdl::Top, elem_bits: u32) -> Vec<Block> {
    let verilog: Arc<str> = Arc::from(top.verilog.as_str());
    let have = modules(&top.verilog);
    let mut v = vec![Block {
        name: top.module.clone(),
        top: top.module.clone(),
        elem_bits,
        what: "top".into(),
        verilog: verilog.clone(),
        ports: Some(top.ports.clone()),
    }];
    for (prefix, path, what) in SUBBLOCKS {
        let name = format!("{}__{path}", top.module);
        if top.module.starts_with(prefix) && have.contains(&name) {
            v.push(Block {
                name,
                top: top.module.clone(),
                elem_bits,
                what: (*what).to_owned(),
                verilog: verilog.clone(),
                ports: None,
            });
        }
    }
    v
}

/// Element width of a top (its `E` parameter).
fn elem_of(top: &cdma_hdl::Top) -> Option<u32> {
    top.params
        .iter()
        .find(|(k, _)| k == "E")
        .map(|&(_, v)| v as u32)
}

/// Every block of the selected widths (the DMA tops only if wanted: generating them is slow).
fn all_blocks(elems: &[u32], want_dma: bool) -> Vec<Block> {
    let mut tops: Vec<cdma_hdl::Top> = elems.iter().flat_map(|&e| cdma_hdl::tops(e)).collect();
    if want_dma {
        tops.extend(
            cdma_hdl::dma_tops()
                .into_iter()
                .filter(|t| elem_of(t).is_some_and(|e| elems.contains(&e))),
        );
    }
    tops.iter()
        .flat_map(|t| blocks_of(t, elem_of(t).unwrap_or(0)))
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Yosys(Target),
    Pnr,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Yosys(t) => t.name(),
            Kind::Pnr => PNR,
        }
    }
}

struct Ctx {
    /// Reports directory.
    out: PathBuf,
    /// Work directories.
    work: PathBuf,
    yosys: String,
    nextpnr: String,
    device: String,
    timeout: Duration,
}

fn run_job(ctx: &Ctx, b: &Block, kind: Kind) -> Result<Report, String> {
    let dir = ctx.work.join(format!("{}.{}", b.name, kind.name()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    flow::install_scripts(&dir)?;
    let start = Instant::now();
    let Kind::Yosys(target) = kind else {
        let ports = b.ports.as_deref().ok_or("place and route needs a top")?;
        let setup = pnr::Setup {
            device: &ctx.device,
            yosys: &ctx.yosys,
            nextpnr: &ctx.nextpnr,
            timeout: ctx.timeout,
        };
        let out = pnr::run(&dir, &b.name, &b.verilog, ports, &setup)?;
        return Ok(pnr::report(
            &b.name,
            b.elem_bits,
            out,
            start.elapsed().as_secs_f64(),
        ));
    };
    flow::write(&dir.join("design.v"), &b.verilog)?;
    let lib = if target == Target::Generic {
        // Cell types for `ltp` (port directions of the mapped cells).
        "read_liberty -lib cells.lib\n"
    } else {
        ""
    };
    flow::run_yosys(
        &dir,
        &format!(
            "# cdma synth: {}, target {} (generated; the steps are in check.ys and {}.ys)\n\
             {lib}read_verilog design.v\nhierarchy -check -top {}\nscript check.ys\nscript {}.ys\n",
            b.name,
            target.name(),
            target.name(),
            b.name,
            target.name()
        ),
        ctx.timeout,
    )?;
    let (metrics, cells, generic_cells) = match target {
        Target::Generic => {
            let g = flow::generic_figures(&dir)?;
            (g.figures, g.mapped, g.generic)
        }
        t => {
            let (cells, _) =
                flow::stat_json(&flow::read(&dir.join(format!("{}.json", t.name())))?)?;
            (flow::fpga_figures(t, &cells)?, cells, Default::default())
        }
    };
    Ok(Report {
        block: b.name.clone(),
        top: b.top.clone(),
        elem_bits: b.elem_bits,
        target: target.name().to_owned(),
        tool: ctx.yosys.clone(),
        seconds: (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        metrics,
        cells,
        generic_cells,
        note: None,
    })
}

/// Runs the jobs, `jobs` at a time, with progress on stderr; every failure is collected.
fn run_all(
    ctx: &Ctx,
    blocks: &[Block],
    jobs: &[(usize, Kind)],
    parallel: usize,
) -> Result<Vec<Report>, String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Report, String>>>> =
        Mutex::new((0..jobs.len()).map(|_| None).collect());
    let n = jobs.len();
    std::thread::scope(|s| {
        for _ in 0..parallel.min(n) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(bi, kind)) = jobs.get(i) else {
                    break;
                };
                let b = &blocks[bi];
                eprintln!("synth: start {} {} ({})", b.name, kind.name(), b.what);
                let start = Instant::now();
                // Each report is written as soon as it is made: a failure later loses nothing.
                let r = run_job(ctx, b, kind).and_then(|rep| {
                    let path = ctx.out.join(format!("{}.{}.json", rep.block, rep.target));
                    let text = serde_json::to_string_pretty(&rep).map_err(|e| e.to_string())?;
                    flow::write(&path, &(text + "\n"))?;
                    Ok(rep)
                });
                let k = done.fetch_add(1, Ordering::SeqCst) + 1;
                let secs = start.elapsed().as_secs_f64();
                match &r {
                    Ok(rep) => eprintln!(
                        "synth: [{k:>3}/{n}] {} {} done in {secs:.1} s{}",
                        b.name,
                        kind.name(),
                        summary(rep)
                    ),
                    Err(e) => eprintln!(
                        "synth: [{k:>3}/{n}] {} {} FAILED after {secs:.1} s: {e}",
                        b.name,
                        kind.name()
                    ),
                }
                results.lock().expect("no panics while holding the lock")[i] = Some(r);
            });
        }
    });
    let mut reports = vec![];
    let mut errors = vec![];
    for (i, r) in results
        .into_inner()
        .expect("no panics while holding the lock")
        .into_iter()
        .enumerate()
    {
        match r {
            Some(Ok(rep)) => reports.push(rep),
            Some(Err(e)) => {
                let (bi, kind) = jobs[i];
                errors.push(format!("{} {}: {e}", blocks[bi].name, kind.name()));
            }
            None => errors.push("a job did not run".into()),
        }
    }
    if errors.is_empty() {
        Ok(reports)
    } else {
        Err(format!(
            "{} of {n} synthesis runs failed:\n{}",
            errors.len(),
            errors.join("\n")
        ))
    }
}

/// A few figures for the progress line.
fn summary(r: &Report) -> String {
    let keys: &[&str] = match r.target.as_str() {
        "generic" => &["ge", "ff", "depth"],
        "ice40" => &["lut4", "ff"],
        "xilinx" => &["lut", "ff"],
        _ => &["lc", "fmax_mhz"],
    };
    let parts: Vec<String> = keys
        .iter()
        .filter_map(|k| Some(format!("{k} {}", baseline::trim(*r.metrics.get(*k)?))))
        .collect();
    if parts.is_empty() {
        r.note.clone().map(|n| format!(": {n}")).unwrap_or_default()
    } else {
        format!(": {}", parts.join(", "))
    }
}

/// Reads the reports of an earlier run that match the selection.
fn load_reports(
    dir: &Path,
    elems: &[u32],
    kinds: &[&str],
    blocks: &[String],
    no_dma: bool,
) -> Result<Vec<Report>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut reports = vec![];
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let r: Report = serde_json::from_str(&flow::read(&path)?)
            .map_err(|e| format!("{}: not a `cdma synth` report: {e}", path.display()))?;
        if elems.contains(&r.elem_bits)
            && kinds.contains(&r.target.as_str())
            && (blocks.is_empty() || blocks.contains(&r.block))
            && !(no_dma && r.top.starts_with("cdma_dma"))
        {
            reports.push(r);
        }
    }
    if reports.is_empty() {
        return Err(format!(
            "no report in {} matches the selection",
            dir.display()
        ));
    }
    for b in blocks {
        if !reports.iter().any(|r| &r.block == b) {
            return Err(format!("no report for block {b} in {}", dir.display()));
        }
    }
    reports.sort_by(|a, b| (&a.block, &a.target).cmp(&(&b.block, &b.target)));
    Ok(reports)
}

/// Runs `cdma synth`.
pub fn run(a: Args) -> CliResult {
    let elems = crate::elems_or_all(&a.elems);
    let targets: Vec<Target> = if a.targets.is_empty() {
        Target::ALL.to_vec()
    } else {
        let mut t = a.targets.clone();
        t.sort();
        t.dedup();
        t
    };
    let synth = synth_dir();
    let baseline_path = a
        .baseline
        .clone()
        .unwrap_or_else(|| synth.join("baseline.json"));

    let reports = if let Some(dir) = &a.from_reports {
        let mut kinds: Vec<&str> = targets.iter().map(|t| t.name()).collect();
        kinds.push(PNR);
        load_reports(dir, &elems, &kinds, &a.blocks, a.no_dma)?
    } else {
        let yosys = flow::tool_version("yosys", "-V", "Debian: apt-get install -y yosys")?;
        let nextpnr = if a.pnr {
            let v = flow::tool_version(
                "nextpnr-ice40",
                "--version",
                "Debian: apt-get install -y nextpnr-ice40 fpga-icestorm",
            )?;
            // "nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)"
            let ver = v
                .rsplit("Version ")
                .next()
                .unwrap_or(&v)
                .trim_end_matches(')');
            format!("nextpnr-ice40 {ver}")
        } else {
            String::new()
        };
        let want_dma = !a.no_dma
            && (a.blocks.is_empty() || a.blocks.iter().any(|b| b.starts_with("cdma_dma")));
        eprintln!(
            "synth: generating the Verilog ({})",
            if want_dma {
                "ZVC and DMA tops"
            } else {
                "ZVC tops"
            }
        );
        let mut blocks = all_blocks(&elems, want_dma);
        if !a.blocks.is_empty() {
            let known: Vec<String> = blocks.iter().map(|b| b.name.clone()).collect();
            for want in &a.blocks {
                if !known.contains(want) {
                    return Err(format!(
                        "no block {want} in the selected configurations (E = {elems:?}); blocks: {}",
                        known.join(", ")
                    ));
                }
            }
            blocks.retain(|b| a.blocks.contains(&b.name));
        }
        // Largest first (wider elements, tops before their parts): the last job to finish is
        // then a short one.
        let mut jobs: Vec<(usize, Kind)> = vec![];
        for (i, b) in blocks.iter().enumerate() {
            jobs.extend(targets.iter().map(|&t| (i, Kind::Yosys(t))));
            if a.pnr && b.ports.is_some() {
                jobs.push((i, Kind::Pnr));
            }
        }
        jobs.sort_by_key(|&(i, k)| {
            let b = &blocks[i];
            (
                std::cmp::Reverse(b.elem_bits),
                k != Kind::Pnr,
                b.ports.is_none(),
                i,
            )
        });
        let out = a.out.clone().unwrap_or_else(|| synth.join("reports"));
        let work = out.join("work");
        std::fs::create_dir_all(&work)
            .map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        let ctx = Ctx {
            out: out.clone(),
            work: work.clone(),
            yosys,
            nextpnr,
            device: a.pnr_device.clone(),
            timeout: Duration::from_secs(a.timeout),
        };
        eprintln!(
            "synth: {} runs ({} blocks), {} at a time; Yosys logs in {}",
            jobs.len(),
            blocks.len(),
            a.jobs,
            work.display()
        );
        let start = Instant::now();
        let reports = run_all(&ctx, &blocks, &jobs, usize::from(a.jobs))?;
        eprintln!(
            "synth: all runs done in {:.0} s; reports in {}",
            start.elapsed().as_secs_f64(),
            out.display()
        );
        reports
    };

    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&reports).map_err(|e| e.to_string())?
        );
    } else {
        let figs = figures_of(&reports);
        print!("{}", render::tables(&figs, false));
        if let Some(g) = render::goals(&figs, false) {
            print!("{g}");
        }
        if let Some(d) = render::dma_breakdown(&figs, false) {
            print!("{d}");
        }
    }

    if a.update_baseline {
        let mut base = Baseline::load_or_default(&baseline_path)?;
        base.merge(&reports);
        base.save(&baseline_path)?;
        eprintln!("synth: updated {}", baseline_path.display());
    }
    if a.write_doc {
        let base = Baseline::load(&baseline_path)?;
        let doc_path = synth.join("AREA.md");
        let doc = flow::read(&doc_path)?;
        flow::write(
            &doc_path,
            &render::splice(&doc, &render::doc_section(&base))?,
        )?;
        eprintln!(
            "synth: wrote the figures of {} into {}",
            baseline_path.display(),
            doc_path.display()
        );
    }
    if a.check {
        return check(&baseline_path, &reports);
    }
    Ok(())
}

/// `--check`: the diff table on stdout, an error if anything grew beyond the tolerance.
fn check(path: &Path, reports: &[Report]) -> CliResult {
    let base = Baseline::load(path)
        .map_err(|e| format!("{e} (create it with `cdma synth --update-baseline`)"))?;
    for r in reports {
        for (tool, version) in baseline::tool_versions(r) {
            if let Some(b) = base.tools.get(&tool) {
                if *b != version {
                    eprintln!(
                        "synth: warning: the baseline was made with {b}, this is {version}: \
                         figures can differ between tool versions"
                    );
                }
            }
        }
    }
    let rows = compare(&base, reports);
    println!(
        "\nsynth --check against {} (tolerance +{} %):",
        path.display(),
        base.tolerance_pct
    );
    print!("{}", diff_table(&rows, base.tolerance_pct));
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let (fail, missing, warn, smaller) = (
        count(Status::Fail),
        count(Status::Missing),
        count(Status::Warn),
        count(Status::Smaller),
    );
    if warn > 0 {
        eprintln!(
            "synth: warning: {warn} figure(s) marked `warning` grew by more than the tolerance"
        );
    }
    if smaller > 0 {
        eprintln!(
            "synth: {smaller} figure(s) shrank by more than the tolerance: record the gain with \
             `cdma synth --update-baseline` (same selection)"
        );
    }
    if fail + missing > 0 {
        return Err(format!(
            "synth --check failed: {fail} figure(s) grew by more than {} % and {missing} have no \
             baseline (table above). If the growth is intended, run `cdma synth \
             --update-baseline` with the same selection and `cdma synth --write-doc`, and \
             commit synth/baseline.json and synth/AREA.md in the same change",
            base.tolerance_pct
        ));
    }
    println!(
        "synth --check: {} figures within +{} % of the baseline",
        rows.len(),
        base.tolerance_pct
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_module_names() {
        let v = "module a(x);\nendmodule\n  module a__dp (y);\nmodule b;\n// module c(\n";
        let m: Vec<String> = modules(v).into_iter().collect();
        assert_eq!(m, ["a", "a__dp", "b"]);
    }

    #[test]
    fn every_zvc_top_has_its_listed_submodules() {
        for top in cdma_hdl::tops(8) {
            let names: Vec<String> = blocks_of(&top, 8).into_iter().map(|b| b.name).collect();
            let expect: Vec<String> = std::iter::once(top.module.clone())
                .chain(
                    SUBBLOCKS
                        .iter()
                        .filter(|(p, _, _)| *p == "cdma_zvc_")
                        .map(|(_, s, _)| format!("{}__{s}", top.module)),
                )
                .collect();
            assert_eq!(
                names, expect,
                "a listed submodule is missing from the emitted Verilog"
            );
        }
    }
}
