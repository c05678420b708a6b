//! One tool run of `cdma synth`: the Yosys scripts of synth/ (compiled in, so the binary runs
//! from anywhere) executed in a work directory, and the figures parsed from what they write.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The files of synth/ that every run directory gets.
pub const SYNTH_FILES: [(&str, &str); 8] = [
    ("cells.lib", include_str!("../cells.lib")),
    ("check.ys", include_str!("../check.ys")),
    ("generic.ys", include_str!("../generic.ys")),
    ("ice40.ys", include_str!("../ice40.ys")),
    ("ecp5.ys", include_str!("../ecp5.ys")),
    ("xilinx.ys", include_str!("../xilinx.ys")),
    ("abc_lib.abc", include_str!("../abc_lib.abc")),
    ("abc_lut.abc", include_str!("../abc_lut.abc")),
];

/// The NAND2-equivalent cell library (synth/cells.lib).
pub const CELLS_LIB: &str = SYNTH_FILES[0].1;

/// A synthesis target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Target {
    /// Technology-neutral: Yosys gates, then NAND2 equivalents with synth/cells.lib.
    Generic,
    /// Lattice iCE40 (`synth_ice40`): LUT4, carry, flip-flops, BRAM.
    Ice40,
    /// Lattice ECP5 (`synth_ecp5`): LUT4, wide-function muxes, carry, flip-flops, DP16KD;
    /// with `--pnr`, also nextpnr-ecp5.
    Ecp5,
    /// Xilinx 7-series (`synth_xilinx`): LUT6, flip-flops, carry, BRAM.
    Xilinx,
}

impl Target {
    /// Every target, in report order.
    pub const ALL: [Target; 4] = [Target::Generic, Target::Ice40, Target::Ecp5, Target::Xilinx];

    /// The targets run when none is given. ECP5 runs only on request: it was added after the
    /// baseline, which has no figures for it, and a default run would fail `--check`.
    pub const DEFAULT: [Target; 3] = [Target::Generic, Target::Ice40, Target::Xilinx];

    /// Name in reports, the baseline and file names (also the script synth/<name>.ys).
    pub fn name(self) -> &'static str {
        match self {
            Target::Generic => "generic",
            Target::Ice40 => "ice40",
            Target::Ecp5 => "ecp5",
            Target::Xilinx => "xilinx",
        }
    }
}

/// Report key of the nextpnr-ice40 place-and-route runs.
pub const PNR: &str = "pnr-ice40";

/// Report key of the nextpnr-ecp5 place-and-route runs.
pub const PNR_ECP5: &str = "pnr-ecp5";

/// How `--check` treats a change of a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// An area figure: growth beyond the baseline's tolerance fails the check.
    Fail,
    /// Growth beyond the tolerance is reported as a warning.
    Warn,
    /// A speed figure (Fmax), where higher is better: a drop beyond
    /// [`crate::baseline::FMAX_DROP_PCT`] fails the check. Place and route is noisier than
    /// synthesis (a placer seed moves Fmax by a few percent), hence its own, wider limit.
    FailDrop,
    /// Not compared.
    Info,
}

/// One figure of a report.
#[derive(Debug)]
pub struct Metric {
    /// Key in reports and the baseline.
    pub key: &'static str,
    /// Column title.
    pub label: &'static str,
    /// How `--check` treats it.
    pub check: Check,
    /// Decimals shown.
    pub decimals: usize,
}

const fn m(key: &'static str, label: &'static str, check: Check, decimals: usize) -> Metric {
    Metric {
        key,
        label,
        check,
        decimals,
    }
}

const GENERIC_METRICS: [Metric; 6] = [
    m("ge", "GE", Check::Fail, 0),
    m("ge_comb", "comb. GE", Check::Info, 0),
    m("ff", "FF", Check::Fail, 0),
    m("mem_bits", "memory bits", Check::Fail, 0),
    m("depth", "depth", Check::Warn, 0),
    m("cells", "Yosys cells", Check::Info, 0),
];
const ICE40_METRICS: [Metric; 4] = [
    m("lut4", "LUT4", Check::Fail, 0),
    m("carry", "carry", Check::Info, 0),
    m("ff", "FF", Check::Fail, 0),
    m("bram", "BRAM 4K", Check::Fail, 0),
];
const ECP5_METRICS: [Metric; 6] = [
    m("lut4", "LUT4", Check::Fail, 0),
    m("widemux", "PFUMX/L6MUX21", Check::Info, 0),
    m("carry", "CCU2C", Check::Info, 0),
    m("ff", "FF", Check::Fail, 0),
    m("lutram", "DPR16X4", Check::Fail, 0),
    m("dp16kd", "DP16KD", Check::Fail, 0),
];
const XILINX_METRICS: [Metric; 6] = [
    m("lut", "LUT", Check::Fail, 0),
    m("ff", "FF", Check::Fail, 0),
    m("carry", "CARRY4", Check::Info, 0),
    m("muxf", "MUXF7/8", Check::Info, 0),
    m("lutram", "LUTRAM", Check::Fail, 0),
    m("bram36", "BRAM36", Check::Fail, 1),
];
const PNR_METRICS: [Metric; 4] = [
    m("lc", "logic cells", Check::Info, 0),
    m("lc_pct", "LC %", Check::Info, 0),
    m("ram", "BRAM 4K", Check::Info, 0),
    m("fmax_mhz", "Fmax MHz", Check::FailDrop, 1),
];
const PNR_ECP5_METRICS: [Metric; 5] = [
    m("lut4", "LUT4", Check::Info, 0),
    m("lut4_pct", "LUT4 %", Check::Info, 0),
    m("ff", "FF", Check::Info, 0),
    m("dp16kd", "DP16KD", Check::Info, 0),
    m("fmax_mhz", "Fmax MHz", Check::FailDrop, 1),
];

/// The figures of a target (`generic`, `ice40`, `ecp5`, `xilinx`, [`PNR`], [`PNR_ECP5`]), in
/// report order.
pub fn metrics(target: &str) -> &'static [Metric] {
    match target {
        "generic" => &GENERIC_METRICS,
        "ice40" => &ICE40_METRICS,
        "ecp5" => &ECP5_METRICS,
        "xilinx" => &XILINX_METRICS,
        PNR => &PNR_METRICS,
        PNR_ECP5 => &PNR_ECP5_METRICS,
        _ => &[],
    }
}

/// Result of one tool run on one block, as written to `<reports>/<block>.<target>.json`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Verilog module synthesised (`cdma_zvc_compressor_e8`, `cdma_zvc_compressor_e8__dp`, …).
    pub block: String,
    /// The emitted top it belongs to.
    pub top: String,
    /// Element width of the configuration.
    pub elem_bits: u32,
    /// `generic`, `ice40`, `ecp5`, `xilinx`, `pnr-ice40` or `pnr-ecp5`.
    pub target: String,
    /// Tool version (`yosys -V`; for place and route also nextpnr's).
    pub tool: String,
    /// Wall time of the run.
    pub seconds: f64,
    /// The figures ([`metrics`]).
    pub metrics: BTreeMap<String, f64>,
    /// Cells of the final netlist by type.
    pub cells: BTreeMap<String, u64>,
    /// Generic target: Yosys' internal gates before mapping to cells.lib.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub generic_cells: BTreeMap<String, u64>,
    /// Anything to know about the figures (place and route: device, or why it does not fit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Hash of everything the job's result depends on ([`crate::cache::key`]): a later run
    /// with the same key reuses this report instead of running the tools again. Reports
    /// written before the cache existed have none and are never reused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// First line of `tool --version`-like output, or a clear error if the tool is missing.
pub fn tool_version(tool: &str, arg: &str, install: &str) -> Result<String, String> {
    let out = Command::new(tool).arg(arg).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "`{tool}` is not on PATH: `cdma synth` needs it ({install}; scripts/setup installs it)"
            )
        } else {
            format!("cannot run `{tool} {arg}`: {e}")
        }
    })?;
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| format!("`{tool} {arg}` printed nothing"))
}

/// Writes synth/'s files into `dir`.
pub fn install_scripts(dir: &Path) -> Result<(), String> {
    for (name, text) in SYNTH_FILES {
        write(&dir.join(name), text)?;
    }
    Ok(())
}

/// `std::fs::write` with the path in the error.
pub fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `std::fs::read_to_string` with the path in the error.
pub fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Runs `cmd` (in its own process group, output to `dir/<log>`), killing the group after
/// `timeout`.
pub fn run_logged(
    cmd: &mut Command,
    dir: &Path,
    log: &str,
    timeout: Duration,
) -> Result<ExitStatus, String> {
    run_logged_until(cmd, dir, log, timeout, &|_| false)
}

/// Seconds between two reads of a running tool's log by [`run_logged_until`].
const WATCH_SECS: u64 = 2;

/// [`run_logged`], also killing the group (a failed status is returned) as soon as `give_up`
/// holds on the log's complete lines so far, read every [`WATCH_SECS`]: a result the log
/// already shows (nextpnr on a device the design over-fills otherwise spends many minutes
/// failing to place it).
pub fn run_logged_until(
    cmd: &mut Command,
    dir: &Path,
    log: &str,
    timeout: Duration,
    give_up: &dyn Fn(&str) -> bool,
) -> Result<ExitStatus, String> {
    let name = cmd.get_program().to_string_lossy().to_string();
    let out = std::fs::File::create(dir.join(log))
        .map_err(|e| format!("cannot create {}: {e}", dir.join(log).display()))?;
    let err = out
        .try_clone()
        .map_err(|e| format!("cannot duplicate a file handle: {e}"))?;
    cmd.current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Yosys runs ABC as a child: a timeout must stop both.
        cmd.process_group(0);
    }
    let mut child = cmd.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("`{name}` is not on PATH (scripts/setup installs it)")
        } else {
            format!("cannot start `{name}`: {e}")
        }
    })?;
    let start = Instant::now();
    let mut watched = Instant::now();
    let kill = |child: &mut std::process::Child| {
        #[cfg(unix)]
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .status();
        let _ = child.kill();
        child.wait()
    };
    loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| format!("waiting for `{name}`: {e}"))?
        {
            return Ok(status);
        }
        if watched.elapsed() >= Duration::from_secs(WATCH_SECS) {
            watched = Instant::now();
            let text = std::fs::read_to_string(dir.join(log)).unwrap_or_default();
            // Complete lines only: a number cut short could say anything.
            if give_up(&text[..text.rfind('\n').map_or(0, |i| i + 1)]) {
                return kill(&mut child).map_err(|e| format!("waiting for `{name}`: {e}"));
            }
        }
        if start.elapsed() > timeout {
            let _ = kill(&mut child);
            return Err(format!(
                "`{name}` did not finish within {} s (raise --timeout; log: {})",
                timeout.as_secs(),
                dir.join(log).display()
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The reason a Yosys run failed: its `ERROR:` line and the warnings that explain it
/// (`check -assert` reports the undriven wires as warnings).
pub fn yosys_failure(log: &str) -> String {
    let warnings: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("Warning:"))
        .take(8)
        .collect();
    let error = log
        .lines()
        .find(|l| l.starts_with("ERROR:"))
        .unwrap_or("no ERROR line in the log");
    if warnings.is_empty() {
        error.to_owned()
    } else {
        format!("{error}\n  {}", warnings.join("\n  "))
    }
}

/// Runs Yosys on `script` in `dir` (which holds synth/'s files and the design).
pub fn run_yosys(dir: &Path, script: &str, timeout: Duration) -> Result<(), String> {
    write(&dir.join("run.ys"), script)?;
    let status = run_logged(
        Command::new("yosys").args(["-q", "-l", "yosys.log", "run.ys"]),
        dir,
        "yosys.out",
        timeout,
    )?;
    if status.success() {
        return Ok(());
    }
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    Err(format!(
        "Yosys failed ({status}): {}\n  log: {}",
        yosys_failure(&log),
        dir.join("yosys.log").display()
    ))
}

/// Cell counts by type and memory bits of the whole design, from `stat -json`.
pub fn stat_json(text: &str) -> Result<(BTreeMap<String, u64>, u64), String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("Yosys `stat -json` output: {e}"))?;
    let design = &v["design"];
    let cells = design["num_cells_by_type"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, n)| (k.clone(), n.as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    let mem_bits = design["num_memory_bits"]
        .as_u64()
        .ok_or("Yosys `stat -json` output has no design.num_memory_bits")?;
    Ok((cells, mem_bits))
}

/// Areas and flip-flops of a liberty file (the subset synth/cells.lib uses).
#[derive(Debug, Default)]
pub struct Liberty {
    /// Area of each cell.
    pub area: BTreeMap<String, f64>,
    /// Cells with an `ff` group.
    pub sequential: BTreeSet<String>,
}

/// Parses `cell (NAME) { area : X; ff (...) ... }` groups, ignoring comments.
pub fn parse_liberty(text: &str) -> Result<Liberty, String> {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        plain.push_str(&rest[..i]);
        rest = rest[i..]
            .find("*/")
            .map(|j| &rest[i + j + 2..])
            .ok_or("liberty: unterminated comment")?;
    }
    plain.push_str(rest);
    let mut lib = Liberty::default();
    let starts: Vec<usize> = plain.match_indices("cell (").map(|(i, _)| i).collect();
    for (k, &s) in starts.iter().enumerate() {
        let body = &plain[s..starts.get(k + 1).copied().unwrap_or(plain.len())];
        let name = body["cell (".len()..]
            .split(')')
            .next()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .ok_or("liberty: cell without a name")?;
        let area = body
            .find("area")
            .and_then(|i| body[i..].split(';').next())
            .and_then(|a| a.split(':').nth(1))
            .and_then(|a| a.trim().parse::<f64>().ok())
            .ok_or_else(|| format!("liberty: cell {name} has no area"))?;
        if body.contains("ff (") || body.contains("ff(") {
            lib.sequential.insert(name.to_owned());
        }
        lib.area.insert(name.to_owned(), area);
    }
    if lib.area.is_empty() {
        return Err("liberty: no cells".into());
    }
    Ok(lib)
}

/// The path length of `ltp`'s "Longest topological path in X (length=N):" line.
pub fn parse_ltp(text: &str) -> Result<u64, String> {
    text.lines()
        .find_map(|l| {
            let i = l.find("(length=")?;
            l[i + "(length=".len()..].split(')').next()?.parse().ok()
        })
        .ok_or_else(|| "Yosys `ltp` printed no longest path".to_owned())
}

/// "Chip area for module '...': X" of `stat -liberty` (absent when no cell has an area).
pub fn parse_chip_area(text: &str) -> Option<f64> {
    text.lines()
        .rev()
        .filter(|l| l.contains("Chip area for module"))
        .find_map(|l| l.rsplit(':').next()?.trim().parse().ok())
}

fn round(x: f64, decimals: i32) -> f64 {
    let s = 10f64.powi(decimals);
    (x * s).round() / s
}

fn count(cells: &BTreeMap<String, u64>, pred: impl Fn(&str) -> bool) -> u64 {
    cells.iter().filter(|(t, _)| pred(t)).map(|(_, n)| n).sum()
}

/// Figures by key.
pub type Figs = BTreeMap<String, f64>;
/// Cell counts by type.
pub type Cells = BTreeMap<String, u64>;

/// What the generic target yields.
pub struct Generic {
    /// Figures ([`metrics`]`("generic")`).
    pub figures: Figs,
    /// cells.lib cells by type.
    pub mapped: Cells,
    /// Yosys gates by type, before mapping.
    pub generic: Cells,
}

/// Figures of the generic target from the files synth/generic.ys writes in `dir`, for a
/// block made of `parts` (none for most), whose Yosys gates are `part_gates` (their reports').
pub fn generic_figures(
    dir: &Path,
    parts: &[String],
    part_gates: &[Cells],
) -> Result<Generic, String> {
    let lib = parse_liberty(CELLS_LIB)?;
    let (own, _) = stat_json(&read(&dir.join("generic.json"))?)?;
    let generic = with_parts_gates(&own, parts, part_gates);
    let (mapped, _) = stat_json(&read(&dir.join("mapped.json"))?)?;
    let (_, mem_bits) = stat_json(&read(&dir.join("memory.json"))?)?;
    let depth = parse_ltp(&read(&dir.join("depth.txt"))?)?;
    let (mut ge, mut ff_ge, mut ff) = (0.0, 0.0, 0u64);
    for (ty, &n) in &mapped {
        match lib.area.get(ty) {
            Some(a) => {
                ge += a * n as f64;
                if lib.sequential.contains(ty) {
                    ff += n;
                    ff_ge += a * n as f64;
                }
            }
            // Memories stay Yosys cells on purpose (reported as bits).
            None if ty.starts_with("$mem") => {}
            None => {
                return Err(format!(
                    "{n} cell(s) of type {ty} were not mapped to synth/cells.lib (see {})",
                    dir.join("yosys.log").display()
                ))
            }
        }
    }
    // The same sum as Yosys' own `stat -liberty` (which skips unmapped cells).
    let chip = parse_chip_area(&read(&dir.join("mapped.txt"))?).unwrap_or(0.0);
    if (chip - ge).abs() > 0.5 {
        return Err(format!(
            "area from cell counts ({ge:.1}) differs from Yosys' chip area ({chip:.1})"
        ));
    }
    let figures = BTreeMap::from([
        ("ge".to_owned(), round(ge, 1)),
        ("ge_comb".to_owned(), round(ge - ff_ge, 1)),
        ("ff".to_owned(), ff as f64),
        ("mem_bits".to_owned(), mem_bits as f64),
        ("depth".to_owned(), depth as f64),
        ("cells".to_owned(), generic.values().sum::<u64>() as f64),
    ]);
    Ok(Generic {
        figures,
        mapped,
        generic,
    })
}

/// A block's Yosys gates: its own (`own`, where each part is one black-box instance, counted
/// under the part's module name) with the instances replaced by the parts' gates.
fn with_parts_gates(own: &Cells, parts: &[String], gates: &[Cells]) -> Cells {
    let mut all: Cells = own
        .iter()
        .filter(|(ty, _)| !parts.iter().any(|p| p == ty.trim_start_matches('\\')))
        .map(|(ty, &n)| (ty.clone(), n))
        .collect();
    for g in gates {
        for (ty, &n) in g {
            *all.entry(ty.clone()).or_default() += n;
        }
    }
    all
}

/// Figures of an FPGA target from its `stat -json` cell counts.
pub fn fpga_figures(
    target: Target,
    cells: &BTreeMap<String, u64>,
) -> Result<BTreeMap<String, f64>, String> {
    if let Some((ty, n)) = cells.iter().find(|(t, _)| t.starts_with('$')) {
        return Err(format!("{n} cell(s) of type {ty} were left unmapped"));
    }
    let f = |k: &str, v: f64| (k.to_owned(), v);
    Ok(match target {
        Target::Ice40 => BTreeMap::from([
            f("lut4", count(cells, |t| t == "SB_LUT4") as f64),
            f("carry", count(cells, |t| t == "SB_CARRY") as f64),
            f("ff", count(cells, |t| t.starts_with("SB_DFF")) as f64),
            f(
                "bram",
                count(cells, |t| t.starts_with("SB_RAM40_4K")) as f64,
            ),
        ]),
        Target::Ecp5 => BTreeMap::from([
            f("lut4", count(cells, |t| t == "LUT4") as f64),
            f(
                "widemux",
                count(cells, |t| t == "PFUMX" || t == "L6MUX21") as f64,
            ),
            f("carry", count(cells, |t| t == "CCU2C") as f64),
            f("ff", count(cells, |t| t == "TRELLIS_FF") as f64),
            f("lutram", count(cells, |t| t == "TRELLIS_DPR16X4") as f64),
            f("dp16kd", count(cells, |t| t == "DP16KD") as f64),
        ]),
        Target::Xilinx => {
            let lut = count(cells, |t| {
                t.len() == 4 && t.starts_with("LUT") && t.as_bytes()[3].is_ascii_digit()
            });
            let bram18 = count(cells, |t| t.starts_with("RAMB18"));
            let bram36 = count(cells, |t| t.starts_with("RAMB36"));
            BTreeMap::from([
                f("lut", lut as f64),
                f("ff", count(cells, |t| t.starts_with("FD")) as f64),
                f("carry", count(cells, |t| t.starts_with("CARRY")) as f64),
                f("muxf", count(cells, |t| t.starts_with("MUXF")) as f64),
                f(
                    "lutram",
                    count(cells, |t| t.starts_with("RAM") && !t.starts_with("RAMB")) as f64,
                ),
                f("bram36", bram36 as f64 + bram18 as f64 / 2.0),
            ])
        }
        Target::Generic => unreachable!("generic figures come from generic_figures"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_counts_its_parts_gates_instead_of_their_instances() {
        let cells =
            |l: &[(&str, u64)]| -> Cells { l.iter().map(|&(t, n)| (t.to_owned(), n)).collect() };
        let own = cells(&[("$_AND_", 3), ("t__a", 1), ("\\t__b", 1), ("$_DFF_P_", 2)]);
        let parts = ["t__a".to_owned(), "t__b".to_owned()];
        let a = cells(&[("$_AND_", 10), ("$_OR_", 4)]);
        let b = cells(&[("$_DFF_P_", 5)]);
        assert_eq!(
            with_parts_gates(&own, &parts, &[a, b]),
            cells(&[("$_AND_", 13), ("$_OR_", 4), ("$_DFF_P_", 7)])
        );
    }

    #[test]
    fn a_run_stops_when_its_log_says_so() {
        let dir = std::env::temp_dir().join(format!("cdma-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let long = Duration::from_secs(120);
        // The tool prints its verdict, then would go on for a minute: it is killed.
        let stopped = run_logged_until(
            Command::new("sh").args(["-c", "echo 'TRELLIS_COMB: 9/ 8'; sleep 60; echo done"]),
            &dir,
            "t.log",
            long,
            &|log| log.contains("9/ 8"),
        );
        let log = read(&dir.join("t.log"));
        // Nothing to give up on: it runs to its end.
        let ran = run_logged_until(
            Command::new("sh").args(["-c", "echo one; sleep 3; echo two"]),
            &dir,
            "u.log",
            long,
            &|log| log.contains("three"),
        );
        let _ = std::fs::remove_dir_all(&dir);
        let stopped = stopped.expect("a status");
        assert!(
            !stopped.success() && stopped.code().is_none(),
            "killed: {stopped}"
        );
        assert!(!log.unwrap().contains("done"));
        assert!(ran.expect("a status").success());
    }

    #[test]
    fn cells_lib_areas_are_the_nangate_ratios_it_cites() {
        // The comment table of synth/cells.lib: Nangate X1 area / NAND2_X1 area (0.798 um^2).
        let lib = parse_liberty(CELLS_LIB).unwrap();
        let mut rows = 0;
        for line in CELLS_LIB.lines() {
            let w: Vec<&str> = line
                .trim_start_matches([' ', '*'])
                .split_whitespace()
                .collect();
            if w.len() == 4 && w[1].ends_with("_X1") {
                let um2: f64 = w[2].parse().unwrap();
                let ge: f64 = w[3].parse().unwrap();
                assert!((um2 / 0.798 - ge).abs() < 1e-4, "{line}");
                assert_eq!(lib.area[w[0]], ge, "{line}: table and cell differ");
                rows += 1;
            }
        }
        assert_eq!(rows, lib.area.len(), "every cell is in the cited table");
        assert_eq!(lib.area["NAND2"], 1.0);
        assert_eq!(
            lib.sequential.iter().collect::<Vec<_>>(),
            ["DFF"],
            "one flip-flop"
        );
    }

    #[test]
    fn parses_yosys_outputs() {
        let ltp = "\nLongest topological path in m (length=33):\n    0: \\a\n";
        assert_eq!(parse_ltp(ltp).unwrap(), 33);
        assert!(parse_ltp("nothing").is_err());
        let area = "   Chip area for module '\\m': 20942.545300\n";
        assert_eq!(parse_chip_area(area), Some(20942.5453));
        assert_eq!(parse_chip_area("no area"), None);
        let stat = r#"{"design": {"num_memory_bits": 128,
            "num_cells_by_type": {"NAND2": 3, "$mem_v2": 1}}}"#;
        let (cells, bits) = stat_json(stat).unwrap();
        assert_eq!((cells["NAND2"], cells["$mem_v2"], bits), (3, 1, 128));
        assert!(stat_json("{\"design\": {} }").is_err());
    }

    #[test]
    fn fpga_figures_count_by_family() {
        let c = |v: &[(&str, u64)]| v.iter().map(|(k, n)| (k.to_string(), *n)).collect();
        let ice = fpga_figures(
            Target::Ice40,
            &c(&[
                ("SB_LUT4", 10),
                ("SB_DFFE", 3),
                ("SB_DFF", 2),
                ("SB_RAM40_4K", 1),
            ]),
        )
        .unwrap();
        assert_eq!((ice["lut4"], ice["ff"], ice["bram"]), (10.0, 5.0, 1.0));
        let xc = fpga_figures(
            Target::Xilinx,
            &c(&[
                ("LUT1", 1),
                ("LUT6", 4),
                ("FDRE", 7),
                ("RAMB18E1", 1),
                ("RAMB36E1", 2),
                ("RAM32M", 3),
                ("MUXF7", 5),
            ]),
        )
        .unwrap();
        assert_eq!((xc["lut"], xc["ff"], xc["bram36"]), (5.0, 7.0, 2.5));
        assert_eq!((xc["lutram"], xc["muxf"]), (3.0, 5.0));
        assert!(fpga_figures(Target::Ice40, &c(&[("$_AND_", 1)])).is_err());
        // The 8-bit compressor's cells with synth/ecp5.ys.
        let ecp5 = fpga_figures(
            Target::Ecp5,
            &c(&[
                ("LUT4", 13017),
                ("PFUMX", 5150),
                ("L6MUX21", 2825),
                ("CCU2C", 22),
                ("TRELLIS_FF", 1120),
            ]),
        )
        .unwrap();
        assert_eq!((ecp5["lut4"], ecp5["widemux"]), (13017.0, 7975.0));
        assert_eq!(
            (ecp5["carry"], ecp5["ff"], ecp5["dp16kd"]),
            (22.0, 1120.0, 0.0)
        );
    }

    #[test]
    fn failure_message_names_the_error_and_its_warnings() {
        let log = "x\nWarning: Wire ud.\\w is used but has no driver.\nERROR: Found 1 problems in 'check -assert'.\n";
        let m = yosys_failure(log);
        assert!(m.starts_with("ERROR: Found 1 problems"), "{m}");
        assert!(m.contains("no driver"), "{m}");
    }
}
