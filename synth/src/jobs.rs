//! Running the tool jobs of `cdma synth`: one work directory per (block, target), several at a
//! time, each report written as soon as it is made; a job whose report is [`crate::cache`]d
//! (same inputs) is not run.

use crate::blocks::Block;
use crate::cache;
use crate::flow::{self, Report, Target};
use crate::pnr::{self, Arch};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What one job runs: a Yosys flow for a target, or place and route.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Yosys synthesis for one target.
    Yosys(Target),
    /// nextpnr place and route of a top on a family.
    Pnr(Arch),
}

impl Kind {
    /// Name in reports and work directories.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Yosys(t) => t.name(),
            Kind::Pnr(a) => a.key(),
        }
    }
}

/// Where and with which tools the jobs run.
pub struct Ctx {
    /// Reports directory.
    pub out: PathBuf,
    /// Work directories.
    pub work: PathBuf,
    /// Yosys version line (recorded in each report).
    pub yosys: String,
    /// nextpnr and device of each family placed and routed (`--pnr` only).
    pub pnr: BTreeMap<Arch, pnr::Tool>,
    /// Limit of one tool run.
    pub timeout: Duration,
    /// Reuse the report of a job whose inputs did not change (`--no-cache` turns it off).
    pub cache: bool,
}

/// The Yosys script of a synthesis job: read the block, check it, then the target's script.
pub fn yosys_script(b: &Block, target: Target) -> String {
    let lib = if target == Target::Generic {
        // Cell types for `ltp` (port directions of the mapped cells).
        "read_liberty -lib cells.lib\n"
    } else {
        ""
    };
    format!(
        "# cdma synth: {}, target {} (generated; the steps are in check.ys and {}.ys)\n\
         {lib}read_verilog design.v\nhierarchy -check -top {}\nscript check.ys\nscript {}.ys\n",
        b.name,
        target.name(),
        target.name(),
        b.name,
        target.name()
    )
}

/// The cache key of a job ([`cache::key`]): its Verilog (the block's modules and those below
/// it, [`crate::blocks::reachable`]), generated scripts (and the files of synth/ they use),
/// tools and kind.
pub fn job_key(ctx: &Ctx, b: &Block, kind: Kind) -> Result<String, String> {
    let (generated, tools) = match kind {
        Kind::Yosys(target) => (
            vec![("run.ys".to_owned(), yosys_script(b, target))],
            vec![ctx.yosys.clone()],
        ),
        Kind::Pnr(arch) => {
            let ports = b.ports.as_deref().ok_or("place and route needs a top")?;
            let tool = pnr_tool(ctx, arch)?;
            (
                vec![
                    ("run.ys".to_owned(), pnr::yosys_script(arch, &b.name)),
                    ("wrap.v".to_owned(), pnr::wrapper(&b.name, ports)?),
                    (
                        "nextpnr".to_owned(),
                        pnr::nextpnr_args(arch, &tool.device, tool.placer.as_deref())?.join(" "),
                    ),
                ],
                vec![ctx.yosys.clone(), tool.version.clone()],
            )
        }
    };
    let verilog = crate::blocks::reachable(&b.verilog, &b.name);
    Ok(cache::key(&cache::Inputs {
        kind: kind.name(),
        block: &b.name,
        verilog: &verilog,
        generated,
        tools,
    }))
}

/// The nextpnr of a family, as set up for this run.
fn pnr_tool(ctx: &Ctx, arch: Arch) -> Result<&pnr::Tool, String> {
    ctx.pnr
        .get(&arch)
        .ok_or_else(|| format!("no {} tool was set up", arch.family()))
}

/// Where a job's report is written (and looked up by the cache).
pub fn report_path(ctx: &Ctx, b: &Block, kind: Kind) -> PathBuf {
    ctx.out.join(format!("{}.{}.json", b.name, kind.name()))
}

/// How a job's report was obtained.
enum Outcome {
    /// The tools ran.
    Ran(Report),
    /// An earlier run's report with the same key.
    Cached(Report),
}

/// A job: its cached report, or a run whose report is written (with its key) as soon as it
/// is made, so a failure later loses nothing.
fn job(ctx: &Ctx, b: &Block, kind: Kind) -> Result<Outcome, String> {
    let key = job_key(ctx, b, kind)?;
    let path = report_path(ctx, b, kind);
    if ctx.cache {
        if let Some(rep) = cache::lookup(&path, &key, &b.name, kind.name()) {
            return Ok(Outcome::Cached(rep));
        }
    }
    eprintln!("synth: start {} {} ({})", b.name, kind.name(), b.what);
    let mut rep = run_job(ctx, b, kind)?;
    rep.key = Some(key);
    let text = serde_json::to_string_pretty(&rep).map_err(|e| e.to_string())?;
    flow::write(&path, &(text + "\n"))?;
    Ok(Outcome::Ran(rep))
}

/// Runs one job in its own work directory and returns its report.
pub fn run_job(ctx: &Ctx, b: &Block, kind: Kind) -> Result<Report, String> {
    let dir = ctx.work.join(format!("{}.{}", b.name, kind.name()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    flow::install_scripts(&dir)?;
    let start = Instant::now();
    let target = match kind {
        Kind::Yosys(target) => target,
        Kind::Pnr(arch) => {
            let ports = b.ports.as_deref().ok_or("place and route needs a top")?;
            let setup = pnr::Setup {
                tool: pnr_tool(ctx, arch)?,
                yosys: &ctx.yosys,
                timeout: ctx.timeout,
            };
            let out = pnr::run(arch, &dir, &b.name, &b.verilog, ports, &setup)?;
            return Ok(pnr::report(
                &b.name,
                b.elem_bits,
                arch,
                out,
                start.elapsed().as_secs_f64(),
            ));
        }
    };
    flow::write(&dir.join("design.v"), &b.verilog)?;
    flow::run_yosys(&dir, &yosys_script(b, target), ctx.timeout)?;
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
        key: None,
    })
}

/// Runs the jobs, `jobs` at a time, with progress on stderr; every failure is collected.
pub fn run_all(
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
                let start = Instant::now();
                let r = job(ctx, b, kind);
                let k = done.fetch_add(1, Ordering::SeqCst) + 1;
                let secs = start.elapsed().as_secs_f64();
                let r = match r {
                    Ok(Outcome::Ran(rep)) => {
                        eprintln!(
                            "synth: [{k:>3}/{n}] {} {} done in {secs:.1} s{}",
                            b.name,
                            kind.name(),
                            summary(&rep)
                        );
                        Ok(rep)
                    }
                    Ok(Outcome::Cached(rep)) => {
                        eprintln!(
                            "synth: [{k:>3}/{n}] {} {} cached (inputs unchanged since its report, \
                             a {:.1} s run; --no-cache runs it){}",
                            b.name,
                            kind.name(),
                            rep.seconds,
                            summary(&rep)
                        );
                        Ok(rep)
                    }
                    Err(e) => {
                        eprintln!(
                            "synth: [{k:>3}/{n}] {} {} FAILED after {secs:.1} s: {e}",
                            b.name,
                            kind.name()
                        );
                        Err(e)
                    }
                };
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
pub fn summary(r: &Report) -> String {
    let keys: &[&str] = match r.target.as_str() {
        "generic" => &["ge", "ff", "depth"],
        "ice40" | "ecp5" => &["lut4", "ff"],
        "pnr-ecp5" => &["lut4", "ff", "fmax_mhz"],
        "xilinx" => &["lut", "ff"],
        _ => &["lc", "fmax_mhz"],
    };
    let parts: Vec<String> = keys
        .iter()
        .filter_map(|k| {
            Some(format!(
                "{k} {}",
                crate::baseline::trim(*r.metrics.get(*k)?)
            ))
        })
        .collect();
    if parts.is_empty() {
        r.note.clone().map(|n| format!(": {n}")).unwrap_or_default()
    } else {
        format!(": {}", parts.join(", "))
    }
}
