//! `cdma synth`: area and timing estimates with Yosys for every generated top and its main
//! submodules: NAND2-equivalent gates, flip-flops, memory bits, logic depth (generic), iCE40,
//! ECP5 and Xilinx 7-series LUTs, flip-flops and block RAMs, and optionally an iCE40 or ECP5
//! place and route with nextpnr for Fmax. Reports go to synth/reports/*.json; `--check`
//! compares with the tracked synth/baseline.json. See synth/AREA.md. The engine is the
//! cdma-synth crate (synth/src); this file is its command line.

use crate::CliResult;
use cdma_synth::baseline::{
    self, compare, diff_table, figures_of, Baseline, Limit, Status, FMAX_DROP_PCT,
};
use cdma_synth::blocks::{all_blocks, Block};
use cdma_synth::flow::{self, Report, Target, PNR, PNR_ECP5};
use cdma_synth::jobs::{in_start_order, run_all, Ctx, Kind};
use cdma_synth::reports::load_reports;
use cdma_synth::{pnr, render, synth_dir};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Arguments of `cdma synth`.
#[derive(clap::Args)]
pub struct Args {
    /// Element width in bits (8, 16 or 32); repeat for several; default: all three.
    #[arg(long = "elem", value_parser = clap::builder::PossibleValuesParser::new(["8", "16", "32"]))]
    elems: Vec<String>,
    /// Target: generic (NAND2-equivalent gates, depth), ice40, ecp5 or xilinx; repeat for
    /// several; default: generic, and ice40 and xilinx where the baseline records their
    /// figures for the block (ecp5 only when asked).
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
    /// Synthesise the DMA engine a config file describes (docs/CONFIG.md), named by its
    /// `module_prefix`, and its submodules; repeat for several. Without --block, only these.
    #[arg(long, value_name = "FILE")]
    config: Vec<PathBuf>,
    /// Synthesise the DMA engine of this preset (docs/CONFIG.md: dw1024, dw512, dw256,
    /// dw128) and its submodules; repeat for several. Without --block, only these.
    #[arg(long, value_name = "NAME")]
    preset: Vec<String>,
    /// Also place and route each selected top, and each submodule named with --block, with
    /// nextpnr for its Fmax (minutes per top; one that does not fit is reported as such): on
    /// an ECP5 with nextpnr-ecp5 when
    /// --target ecp5 is given (scripts/setup-ecp5 installs it), on an iCE40 with
    /// nextpnr-ice40 when --target ice40 is given or ecp5 is not.
    #[arg(long)]
    pnr: bool,
    /// Device for --pnr: iCE40 hx8k (default), up5k, hx1k; ECP5 25k (default), 45k, 85k
    /// (LFE5U-25F/45F/85F).
    #[arg(long, visible_alias = "device", value_name = "DEVICE", requires = "pnr",
          value_parser = clap::builder::PossibleValuesParser::new(pnr::Arch::all_devices()))]
    pnr_device: Option<String>,
    /// nextpnr's placer for --pnr: heap (its default), sa, or static (nextpnr-ecp5 only; on
    /// an ECP5 it routes designs the heap placement congests). Recorded in the report's note.
    #[arg(long, value_name = "PLACER", requires = "pnr",
          value_parser = clap::builder::PossibleValuesParser::new(["heap", "sa", "static"]))]
    pnr_placer: Option<String>,
    /// Print the reports as JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Compare with the baseline: fail if GE, flip-flops, memory bits, LUTs or block RAMs of
    /// any block grew by more than the baseline's tolerance (5 %), or a place-and-route Fmax
    /// dropped by more than 10 %.
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
    /// Directory of the JSON reports, also the cache (a report there made from the same
    /// inputs is reused, see --no-cache); Yosys work directories and logs go to its work/
    /// [default: synth/reports].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Do not run any tool: read the reports an earlier run wrote to DIR (same selection
    /// options; with --pnr, only the place-and-route reports of the families --pnr would run,
    /// without it those of every family).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "no_cache"])]
    from_reports: Option<PathBuf>,
    /// Run every job, even those whose report in the reports directory was made from the same
    /// inputs (Verilog, scripts, tool versions, device), which are otherwise reused.
    #[arg(long)]
    no_cache: bool,
    /// Tool runs at a time.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// Give up on one tool run after this many seconds.
    #[arg(long, default_value_t = 3600)]
    timeout: u64,
}

/// The selected targets in report order (`--target`, else [`Target::DEFAULT`]).
fn targets(a: &Args) -> Vec<Target> {
    if a.targets.is_empty() {
        Target::DEFAULT.to_vec()
    } else {
        let mut t = a.targets.clone();
        t.sort();
        t.dedup();
        t
    }
}

/// The Yosys targets one block is synthesised for: `--target`'s (`targets`, when no
/// baseline is given), else the defaults the baseline records for it
/// ([`Baseline::default_targets`]).
fn block_targets(targets: &[Target], base: Option<&Baseline>, block: &str) -> Vec<Target> {
    match base {
        Some(base) => base.default_targets(block),
        None => targets.to_vec(),
    }
}

/// A block's generic run reads its parts' mapped cells (`Block::parts`): the parts of every block
/// with a generic run get one too, those not selected added to `blocks` (generic only,
/// without place and route), from `generated`, every block of the generated tops.
fn add_parts(blocks: &mut Vec<Block>, flows: &mut Vec<Vec<Target>>, generated: &[Block]) {
    let mut i = 0;
    while i < blocks.len() {
        if flows[i].contains(&Target::Generic) {
            for part in blocks[i].parts.clone() {
                match blocks.iter().position(|b| b.name == part) {
                    Some(j) if !flows[j].contains(&Target::Generic) => {
                        flows[j].push(Target::Generic)
                    }
                    Some(_) => {}
                    None => {
                        let mut b = generated
                            .iter()
                            .find(|b| b.name == part)
                            .expect("a block's parts are blocks of its top")
                            .clone();
                        b.ports = None;
                        blocks.push(b);
                        flows.push(vec![Target::Generic]);
                    }
                }
            }
        }
        i += 1;
    }
}

/// Runs `cdma synth`.
pub fn run(a: Args) -> CliResult {
    let elems = crate::elems_or_all(&a.elems);
    let targets = targets(&a);
    let synth = synth_dir();
    let baseline_path = a
        .baseline
        .clone()
        .unwrap_or_else(|| synth.join("baseline.json"));

    let reports = if let Some(dir) = &a.from_reports {
        let mut kinds: Vec<&str> = targets.iter().map(|t| t.name()).collect();
        if a.pnr {
            kinds.extend(
                pnr::plan(&targets, a.pnr_device.as_deref())?
                    .iter()
                    .map(|(arch, _)| arch.key()),
            );
        } else {
            kinds.extend([PNR, PNR_ECP5]);
        }
        load_reports(dir, &elems, &kinds, &a.blocks, a.no_dma)?
    } else {
        let yosys = flow::tool_version("yosys", "-V", "Debian: apt-get install -y yosys")?;
        let mut tools = std::collections::BTreeMap::new();
        if a.pnr {
            for (arch, device) in pnr::plan(&targets, a.pnr_device.as_deref())? {
                let mut tool = pnr::find_tool(arch, &device, &synth)?;
                tool.placer = a.pnr_placer.clone();
                tools.insert(arch, tool);
            }
        }
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
        let named = crate::config_top::named(&a.config, &a.preset)?;
        let configured = named
            .iter()
            .map(crate::config_top::generated)
            .collect::<Result<Vec<_>, _>>()?;
        let mut blocks = if !named.is_empty() && a.blocks.is_empty() {
            all_blocks(&[], false, configured)
        } else {
            all_blocks(&elems, want_dma, configured)
        };
        let generated = blocks.clone();
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
        let out = a.out.clone().unwrap_or_else(|| synth.join("reports"));
        let work = out.join("work");
        std::fs::create_dir_all(&work)
            .map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        // A submodule named with --block is placed on its own too (a top's part may fit a
        // device the top does not): its ports, which the wrapper needs, from Yosys.
        let timeout = Duration::from_secs(a.timeout);
        if a.pnr && !a.blocks.is_empty() {
            for b in blocks.iter_mut().filter(|b| b.ports.is_none()) {
                let dir = work.join(format!("{}.ports", b.name));
                b.ports = Some(pnr::module_ports(&dir, &b.verilog, &b.name, timeout)?);
            }
        }
        // Without --target, the baseline says which flows each block gets.
        let base = if a.targets.is_empty() {
            Some(Baseline::load_or_default(&baseline_path)?)
        } else {
            None
        };
        let mut block_flows: Vec<Vec<Target>> = blocks
            .iter()
            .map(|b| block_targets(&targets, base.as_ref(), &b.name))
            .collect();
        add_parts(&mut blocks, &mut block_flows, &generated);
        let mut jobs: Vec<(usize, Kind)> = vec![];
        for (i, b) in blocks.iter().enumerate() {
            jobs.extend(block_flows[i].iter().map(|&t| (i, Kind::Yosys(t))));
            if b.ports.is_some() {
                jobs.extend(tools.keys().map(|&arch| (i, Kind::Pnr(arch))));
            }
        }
        let jobs = in_start_order(&blocks, jobs)?;
        let ctx = Ctx {
            out: out.clone(),
            work: work.clone(),
            yosys,
            pnr: tools,
            timeout,
            cache: !a.no_cache,
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
    let tol = base.tolerance_pct;
    let speed = rows.iter().any(|r| matches!(r.limit, Limit::Drop(_)));
    // The limits the table's rows use, for the lines around it.
    let limits = if speed {
        format!("area +{tol} %, Fmax -{FMAX_DROP_PCT} %")
    } else {
        format!("+{tol} %")
    };
    println!(
        "\nsynth --check against {} (tolerance {limits}):",
        path.display()
    );
    print!("{}", diff_table(&rows));
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let (fail, missing, warn, improved) = (
        count(Status::Fail),
        count(Status::Missing),
        count(Status::Warn),
        count(Status::Improved),
    );
    if warn > 0 {
        eprintln!(
            "synth: warning: {warn} figure(s) marked `warning` grew by more than the tolerance"
        );
    }
    if improved > 0 {
        eprintln!(
            "synth: {improved} figure(s) improved by more than the tolerance (smaller or \
             faster): record the gain with `cdma synth --update-baseline` (same selection)"
        );
    }
    if fail + missing > 0 {
        return Err(format!(
            "synth --check failed: {fail} figure(s) beyond their limit ({limits}) and \
             {missing} have no baseline (table above). If the change is intended, run `cdma \
             synth --update-baseline` with the same selection and `cdma synth --write-doc`, and \
             commit synth/baseline.json and synth/AREA.md in the same change"
        ));
    }
    println!(
        "synth --check: {} figures {} of the baseline{}",
        rows.len(),
        Limit::Growth(tol).text(),
        if speed {
            format!(" (Fmax {})", Limit::Drop(FMAX_DROP_PCT).text())
        } else {
            String::new()
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        a: Args,
    }

    /// The arguments of `cdma synth ARGS`, or clap's error.
    fn parse(args: &[&str]) -> Result<Args, String> {
        Cli::try_parse_from(std::iter::once("synth").chain(args.iter().copied()))
            .map(|c| c.a)
            .map_err(|e| e.to_string())
    }

    /// The place-and-route runs of a command line, as "<report key>:<device>".
    fn pnr_runs(args: &[&str]) -> Result<Vec<String>, String> {
        let a = parse(args)?;
        let runs = pnr::plan(&targets(&a), a.pnr_device.as_deref())?;
        Ok(runs
            .into_iter()
            .map(|(arch, d)| format!("{}:{d}", arch.key()))
            .collect())
    }

    #[test]
    fn pnr_family_and_device_follow_target_and_device() {
        assert_eq!(pnr_runs(&["--pnr"]).unwrap(), ["pnr-ice40:hx8k"]);
        assert_eq!(
            pnr_runs(&["--pnr", "--target", "ecp5"]).unwrap(),
            ["pnr-ecp5:25k"]
        );
        // The spelling: `cdma synth --pnr --target ecp5 --device 85k`.
        assert_eq!(
            pnr_runs(&["--pnr", "--target", "ecp5", "--device", "85k"]).unwrap(),
            ["pnr-ecp5:85k"]
        );
        assert_eq!(
            pnr_runs(&["--pnr", "--target", "ice40", "--pnr-device", "up5k"]).unwrap(),
            ["pnr-ice40:up5k"]
        );
        assert!(pnr_runs(&["--pnr", "--device", "12k"]).is_err(), "unknown");
        assert!(
            pnr_runs(&["--device", "25k", "--target", "ecp5"]).is_err(),
            "no --pnr"
        );
        let e = pnr_runs(&["--pnr", "--device", "45k"]).unwrap_err();
        assert!(e.contains("--target ecp5"), "{e}");
        let a = Cli::try_parse_from(["synth"]).unwrap().a;
        assert_eq!(targets(&a), Target::DEFAULT);
    }

    #[test]
    fn yosys_targets_default_to_the_recorded_ones() {
        let mut base = Baseline::default();
        base.merge(&[Report {
            block: "cdma_dma_dw256".into(),
            top: "cdma_dma_dw256".into(),
            elem_bits: 0,
            target: "generic".into(),
            tool: "Yosys 0.23".into(),
            seconds: 1.0,
            metrics: [("ge".to_owned(), 1.0)].into(),
            cells: Default::default(),
            generic_cells: Default::default(),
            note: None,
            key: None,
        }]);
        let at = |args: &[&str], block: &str| {
            let a = parse(args).unwrap();
            let base = a.targets.is_empty().then_some(&base);
            block_targets(&targets(&a), base, block)
        };
        // The generic flow, and the FPGA flows only where the baseline records them.
        assert_eq!(at(&[], "cdma_dma_dw256"), [Target::Generic]);
        assert_eq!(at(&[], "cdma_zvc_new"), [Target::Generic]);
        // --target wins.
        assert_eq!(
            at(
                &["--target", "xilinx", "--target", "ice40"],
                "cdma_dma_dw256"
            ),
            [Target::Ice40, Target::Xilinx]
        );
    }

    #[test]
    fn a_generic_run_brings_the_generic_runs_of_its_parts() {
        let generated = all_blocks(&[], true, vec![]);
        let e = "cdma_dma_dw128";
        let dp = format!("{e}__dp");
        let pick = |names: &[&str]| -> Vec<Block> {
            generated
                .iter()
                .filter(|b| names.contains(&b.name.as_str()))
                .cloned()
                .collect()
        };
        let mut blocks = pick(&[&dp]);
        let mut flows = vec![vec![Target::Generic, Target::Ice40]];
        add_parts(&mut blocks, &mut flows, &generated);
        let names: Vec<&str> = blocks.iter().map(|b| b.name.as_str()).collect();
        let part = |p: &str| format!("{e}__dp__{p}");
        let (scan, fifo, comp, zdec, crcp) = (
            part("scan"),
            part("fifo"),
            part("comp"),
            part("zdec"),
            part("crcp"),
        );
        assert_eq!(names, [dp.as_str(), &scan, &fifo, &comp, &zdec, &crcp]);
        assert!(
            flows[1..].iter().all(|f| f == &[Target::Generic]),
            "{flows:?}"
        );
        // Parts of parts too, and a part already selected for another flow gets the generic
        // one as well.
        let ctl = format!("{e}__ctl");
        let mut blocks = pick(&[e, &ctl]);
        let mut flows = vec![vec![Target::Generic], vec![Target::Xilinx]];
        add_parts(&mut blocks, &mut flows, &generated);
        assert_eq!(flows[1], [Target::Xilinx, Target::Generic]);
        assert_eq!(blocks.len(), 12, "the engine and its 11 parts");
        // Without a generic run, no parts.
        let mut blocks = pick(&[e]);
        let mut flows = vec![vec![Target::Ice40]];
        add_parts(&mut blocks, &mut flows, &generated);
        assert_eq!(blocks.len(), 1);
    }

    #[test]
    fn pnr_placer_needs_pnr_and_a_known_placer() {
        let placer = |args: &[&str]| parse(args).map(|a| a.pnr_placer);
        assert_eq!(
            placer(&["--pnr", "--pnr-placer", "static"])
                .unwrap()
                .as_deref(),
            Some("static")
        );
        assert_eq!(placer(&["--pnr"]).unwrap(), None);
        assert!(placer(&["--pnr-placer", "static"]).is_err(), "no --pnr");
        let e = placer(&["--pnr", "--pnr-placer", "fast"]).unwrap_err();
        assert!(e.contains("fast") && e.contains("static"), "{e}");
    }
}
