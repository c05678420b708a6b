//! Running the tool jobs of `cdma synth`: one work directory per (block, target), several at a
//! time, each report written as soon as it is made; a job whose report is [`crate::cache`]d
//! (same inputs) is not run.

use crate::blocks::Block;
use crate::cache;
use crate::flow::{self, Report, Target};
use crate::pnr::{self, Arch};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex};
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

/// A job's expected run time, for the order jobs start in: place and route first (minutes
/// each), then Yosys flows by the size of the Verilog they read, the FPGA flows counted a
/// third more than the generic one (as measured on the ZVC blocks). Only the order is used,
/// never the value.
fn expected_cost(b: &Block, kind: Kind) -> (bool, usize) {
    let size = crate::blocks::reachable(&b.verilog, &b.name).len();
    match kind {
        Kind::Pnr(_) => (true, size),
        Kind::Yosys(Target::Generic) => (false, size * 3),
        Kind::Yosys(_) => (false, size * 4),
    }
}

/// `jobs` in the order they start in: longest first, so the last to finish is a short one,
/// where a part counts as long as the longest block waiting for it (a small part scheduled
/// last would hold the 1024-bit engine's datapath and top until the end).
pub fn in_start_order(
    blocks: &[Block],
    jobs: Vec<(usize, Kind)>,
) -> Result<Vec<(usize, Kind)>, String> {
    let deps = dependencies(blocks, &jobs)?;
    let mut cost: Vec<_> = jobs
        .iter()
        .map(|&(i, k)| expected_cost(&blocks[i], k))
        .collect();
    // Parts are strictly below their block: as many passes as levels settle it.
    let mut changed = true;
    while changed {
        changed = false;
        for (j, d) in deps.iter().enumerate() {
            for &p in d {
                if cost[p] < cost[j] {
                    cost[p] = cost[j];
                    changed = true;
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| (std::cmp::Reverse(cost[j]), jobs[j].0));
    Ok(order.iter().map(|&j| jobs[j]).collect())
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
/// A generic run of a block with parts checks the whole block, then synthesises it with its
/// parts as black boxes (their ports only): [`parts_script`] reads the parts' mapped cells in.
pub fn yosys_script(b: &Block, target: Target) -> String {
    let lib = if target == Target::Generic {
        // Cell types for `ltp` (port directions of the mapped cells).
        "read_liberty -lib cells.lib\n"
    } else {
        ""
    };
    let read = format!(
        "{lib}read_verilog design.v\nhierarchy -check -top {}\n",
        b.name
    );
    if target == Target::Generic && !b.parts.is_empty() {
        return format!(
            "# cdma synth: {}, target generic, from its parts' runs (generated; the steps are \
             in check.ys, generic.ys and parts.ys)\n{read}design -save rtl\nscript check.ys\n\
             design -load rtl\nblackbox {}\nhierarchy -top {}\nscript generic.ys\n",
            b.name,
            b.parts.join(" "),
            b.name
        );
    }
    format!(
        "# cdma synth: {}, target {} (generated; the steps are in check.ys and {}.ys)\n\
         {read}script check.ys\nscript {}.ys\n",
        b.name,
        target.name(),
        target.name(),
        target.name()
    )
}

/// Where a block's generic run leaves its mapped cells for the run of the block it is a part
/// of (relative to a work directory, so keys do not depend on where the reports are).
fn mapped_file(block: &str) -> String {
    format!("../{block}.{}/{MAPPED}", Target::Generic.name())
}

/// Name of the file of mapped cells a part's generic run writes in its work directory.
const MAPPED: &str = "mapped.il.gz";

/// `parts.ys`, which synth/generic.ys runs once its own logic is mapped to synth/cells.lib
/// (flip-flops still Yosys cells): the parts' mapped cells (as their own generic runs left
/// them at that step) replace their black boxes and are flattened in, so each part is
/// synthesised and mapped once, bottom-up, and the depth is measured on the whole block. A
/// part saves its mapped cells here for the block above it.
pub fn parts_script(b: &Block) -> String {
    let mut s =
        String::from("# Generated by cdma synth for this block (synth/generic.ys runs it).\n");
    if !b.parts.is_empty() {
        for p in &b.parts {
            s += &format!("read_rtlil {}\n", mapped_file(p));
        }
        s += &format!(
            "hierarchy -top {0}\nflatten\nhierarchy -top {0}\nopt_clean\n",
            b.name
        );
    }
    if b.is_part {
        s += &format!("write_rtlil {MAPPED}\n");
    }
    s
}

/// The cache key of a job ([`cache::key`]): its Verilog (the block's modules and those below
/// it, [`crate::blocks::reachable`]), generated scripts (and the files of synth/ they use),
/// tools and kind.
pub fn job_key(ctx: &Ctx, b: &Block, kind: Kind) -> Result<String, String> {
    let (generated, tools) = match kind {
        Kind::Yosys(target) => {
            let mut generated = vec![("run.ys".to_owned(), yosys_script(b, target))];
            if target == Target::Generic {
                generated.push(("parts.ys".to_owned(), parts_script(b)));
            }
            (generated, vec![ctx.yosys.clone()])
        }
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
    report_file(ctx, &b.name, kind)
}

/// Where the report of `block`'s `kind` job is.
fn report_file(ctx: &Ctx, block: &str, kind: Kind) -> PathBuf {
    ctx.out.join(format!("{block}.{}.json", kind.name()))
}

/// How a job's report was obtained.
enum Outcome {
    /// The tools ran.
    Ran(Report),
    /// An earlier run's report with the same key.
    Cached(Report),
}

/// A job: its cached report, or a run whose report is written (with its key) as soon as it
/// is made, so a failure later loses nothing. `mapped_wanted`: a job of this run reads the
/// mapped cells this (generic) run leaves, so its report alone is not enough.
fn job(ctx: &Ctx, b: &Block, kind: Kind, mapped_wanted: bool) -> Result<Outcome, String> {
    let key = job_key(ctx, b, kind)?;
    let path = report_path(ctx, b, kind);
    // (The block above may turn out to be cached itself; its part then ran for nothing.)
    let mapped_kept = !mapped_wanted || work_dir(ctx, b, kind).join(MAPPED).exists();
    if ctx.cache && mapped_kept {
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

/// A job's work directory.
fn work_dir(ctx: &Ctx, b: &Block, kind: Kind) -> PathBuf {
    ctx.work.join(format!("{}.{}", b.name, kind.name()))
}

/// Runs one job in its own work directory and returns its report.
pub fn run_job(ctx: &Ctx, b: &Block, kind: Kind) -> Result<Report, String> {
    let dir = work_dir(ctx, b, kind);
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
    if target == Target::Generic {
        flow::write(&dir.join("parts.ys"), &parts_script(b))?;
    }
    flow::run_yosys(&dir, &yosys_script(b, target), ctx.timeout)?;
    let (metrics, cells, generic_cells) = match target {
        Target::Generic => {
            let gates = b
                .parts
                .iter()
                .map(|p| part_gates(ctx, p))
                .collect::<Result<Vec<_>, _>>()?;
            let g = flow::generic_figures(&dir, &b.parts, &gates)?;
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

/// The Yosys gates of a part, from the report its generic run (which this one waited for)
/// wrote.
fn part_gates(ctx: &Ctx, part: &str) -> Result<flow::Cells, String> {
    let path = report_file(ctx, part, Kind::Yosys(Target::Generic));
    Ok(crate::reports::load_report(&path)?.generic_cells)
}

/// The jobs each job waits for: a generic run of a block with parts reads the mapped cells of its
/// parts' generic runs, which must be among `jobs`.
pub fn dependencies(blocks: &[Block], jobs: &[(usize, Kind)]) -> Result<Vec<Vec<usize>>, String> {
    let generic = Kind::Yosys(Target::Generic);
    jobs.iter()
        .map(|&(bi, kind)| {
            if kind != generic {
                return Ok(vec![]);
            }
            blocks[bi]
                .parts
                .iter()
                .map(|part| {
                    jobs.iter()
                        .position(|&(pi, k)| k == generic && blocks[pi].name == *part)
                        .ok_or_else(|| {
                            format!(
                                "{} is synthesised from its parts, but part {part} has no generic run",
                                blocks[bi].name
                            )
                        })
                })
                .collect()
        })
        .collect()
}

/// Progress of [`run_all`]: which jobs have started, and each finished one's result.
struct Board {
    started: Vec<bool>,
    results: Vec<Option<Result<Report, String>>>,
    done: usize,
}

/// Runs the jobs, `jobs` at a time, in the given order except that a job waits for those it
/// depends on ([`dependencies`]; one whose part failed fails too), with progress on stderr;
/// every failure is collected.
pub fn run_all(
    ctx: &Ctx,
    blocks: &[Block],
    jobs: &[(usize, Kind)],
    parallel: usize,
) -> Result<Vec<Report>, String> {
    let deps = dependencies(blocks, jobs)?;
    let n = jobs.len();
    let board = Mutex::new(Board {
        started: vec![false; n],
        results: (0..n).map(|_| None).collect(),
        done: 0,
    });
    let finished = Condvar::new();
    std::thread::scope(|s| {
        for _ in 0..parallel.min(n) {
            s.spawn(|| {
                let mut st = board.lock().expect("no panics while holding the lock");
                loop {
                    let ready = (0..n)
                        .find(|&i| !st.started[i] && deps[i].iter().all(|&d| st.results[d].is_some()));
                    let Some(i) = ready else {
                        if st.started.iter().all(|&x| x) {
                            break;
                        }
                        st = finished.wait(st).expect("no panics while holding the lock");
                        continue;
                    };
                    st.started[i] = true;
                    let failed_part = deps[i]
                        .iter()
                        .find(|&&d| matches!(st.results[d], Some(Err(_))))
                        .map(|&d| blocks[jobs[d].0].name.clone());
                    drop(st);
                    let (bi, kind) = jobs[i];
                    let b = &blocks[bi];
                    let start = Instant::now();
                    let r = match failed_part {
                        Some(p) => Err(format!("not run: its part {p} failed")),
                        None => job(ctx, b, kind, deps.iter().any(|d| d.contains(&i))),
                    };
                    st = board.lock().expect("no panics while holding the lock");
                    st.done += 1;
                    let k = st.done;
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
                    st.results[i] = Some(r);
                    finished.notify_all();
                }
            });
        }
    });
    let mut reports = vec![];
    let mut errors = vec![];
    let results = board
        .into_inner()
        .expect("no panics while holding the lock")
        .results;
    for (i, r) in results.into_iter().enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn block(name: &str, top: &str, parts: &[&str]) -> Block {
        Block {
            name: name.into(),
            top: top.into(),
            elem_bits: 8,
            what: "test".into(),
            verilog: std::sync::Arc::from(""),
            ports: None,
            parts: parts.iter().map(|p| p.to_string()).collect(),
            is_part: name != top,
        }
    }

    #[test]
    fn a_block_with_parts_reads_their_mapped_cells_and_a_part_keeps_its_own() {
        let top = block("t", "t", &["t__a", "t__b"]);
        let mid = block("t__a", "t", &["t__a__x"]);
        let leaf = block("t__a__x", "t", &[]);
        let run = yosys_script(&top, Target::Generic);
        assert!(run.contains("blackbox t__a t__b\n"), "{run}");
        assert!(run.contains("design -load rtl\n"), "checked whole: {run}");
        assert!(!yosys_script(&leaf, Target::Generic).contains("blackbox"));
        assert!(
            !yosys_script(&top, Target::Ice40).contains("blackbox"),
            "FPGA flows are flat"
        );
        let t = parts_script(&top);
        assert!(
            t.contains(
                "read_rtlil ../t__a.generic/mapped.il.gz\nread_rtlil ../t__b.generic/mapped.il.gz\n"
            ),
            "{t}"
        );
        assert!(
            t.contains("flatten\n") && !t.contains("write_rtlil"),
            "a top is no part: {t}"
        );
        let m = parts_script(&mid);
        assert!(
            m.contains("read_rtlil ../t__a__x.generic/mapped.il.gz\n")
                && m.ends_with("write_rtlil mapped.il.gz\n"),
            "{m}"
        );
        let l = parts_script(&leaf);
        assert!(
            !l.contains("read_rtlil") && l.ends_with("write_rtlil mapped.il.gz\n"),
            "{l}"
        );
        let mut flat = block("z__dp", "z", &[]);
        flat.is_part = false;
        let f = parts_script(&flat);
        assert!(
            !f.contains("read_rtlil") && !f.contains("write_rtlil"),
            "no part: {f}"
        );
    }

    #[test]
    fn a_part_starts_as_early_as_the_block_waiting_for_it() {
        let big = "module t(x);\n  t__a a(.x(x));\n  t__b b(.x(x));\nendmodule\n".to_owned()
            + "module t__a(x);\nendmodule\nmodule t__b(x);\n"
            + &"  wire w;\n".repeat(1000)
            + "endmodule\n";
        let mut blocks = vec![
            block("t", "t", &["t__a", "t__b"]),
            block("t__a", "t", &[]),
            block("t__b", "t", &[]),
            block("u", "u", &[]),
        ];
        for b in &mut blocks[..3] {
            b.verilog = std::sync::Arc::from(big.as_str());
        }
        blocks[3].verilog = std::sync::Arc::from(
            "module u(x);\n".to_owned() + &"  wire w;\n".repeat(500) + "endmodule\n",
        );
        let g = Kind::Yosys(Target::Generic);
        let x = Kind::Yosys(Target::Xilinx);
        let jobs = vec![(3, g), (1, g), (2, g), (0, g), (3, x)];
        // t__a is tiny, but t waits for it: it goes with t, before u's runs.
        let order = in_start_order(&blocks, jobs).unwrap();
        let names: Vec<(&str, &str)> = order
            .iter()
            .map(|&(i, k)| (blocks[i].name.as_str(), k.name()))
            .collect();
        assert_eq!(
            names,
            [
                ("t", "generic"),
                ("t__a", "generic"),
                ("t__b", "generic"),
                ("u", "xilinx"),
                ("u", "generic")
            ]
        );
    }

    #[test]
    fn a_generic_run_waits_for_its_parts_generic_runs() {
        let blocks = [block("t", "t", &["t__a"]), block("t__a", "t", &[])];
        let g = Kind::Yosys(Target::Generic);
        let x = Kind::Yosys(Target::Xilinx);
        let jobs = [(0, g), (0, x), (1, x), (1, g)];
        assert_eq!(
            dependencies(&blocks, &jobs).unwrap(),
            [vec![3], vec![], vec![], vec![]]
        );
        let e = dependencies(&blocks, &[(0, g), (1, x)]).unwrap_err();
        assert!(e.contains("part t__a has no generic run"), "{e}");
        assert_eq!(
            dependencies(&blocks, &[(0, x)]).unwrap(),
            [Vec::<usize>::new()]
        );
    }
}
