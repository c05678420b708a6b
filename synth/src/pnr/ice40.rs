//! Place and route on an iCE40 with nextpnr-ice40 (Debian's package).

use super::{fmax_of, used, yosys_script, Arch, Outcome, Setup, SEED, WRAPPER};
use crate::flow;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// iCE40 devices `--pnr-device` accepts: name, nextpnr flag, package, logic cells.
pub const DEVICES: [(&str, &str, &str, u64); 3] = [
    ("hx8k", "--hx8k", "ct256", 7680),
    ("up5k", "--up5k", "sg48", 5280),
    ("hx1k", "--hx1k", "tq144", 1280),
];

/// Target frequency given to nextpnr (MHz): above what these blocks reach, so the
/// timing-driven placer works on the critical path; the achieved Fmax is what is reported.
pub const TARGET_MHZ: u32 = 100;

/// What nextpnr-ice40's log says: last "Max frequency" (after routing), logic cells and
/// block RAMs used/available.
#[derive(Debug, Default, PartialEq)]
pub struct PnrLog {
    /// Achieved Fmax of the clock, MHz.
    pub fmax_mhz: Option<f64>,
    /// ICESTORM_LC used and available.
    pub lc: Option<(u64, u64)>,
    /// ICESTORM_RAM used.
    pub ram: Option<u64>,
    /// First ERROR line.
    pub error: Option<String>,
}

/// Parses nextpnr-ice40's log.
pub fn parse_log(log: &str) -> PnrLog {
    let mut p = PnrLog::default();
    for l in log.lines() {
        p.fmax_mhz = fmax_of(l).or(p.fmax_mhz);
        if let Some(u) = used(l, "ICESTORM_LC") {
            p.lc = Some(u);
        }
        if let Some((u, _)) = used(l, "ICESTORM_RAM") {
            p.ram = Some(u);
        }
        if p.error.is_none() && l.starts_with("ERROR:") {
            p.error = Some(l.to_owned());
        }
    }
    p
}

/// Synthesises the wrapped top in `dir` (design.v and wrap.v written) for iCE40 and places
/// and routes it on the device.
pub fn run(dir: &Path, top: &str, setup: &Setup) -> Result<Outcome, String> {
    let Setup {
        tool,
        yosys,
        timeout,
    } = *setup;
    let &(name, flag, package, _) = DEVICES
        .iter()
        .find(|d| d.0 == tool.device)
        .ok_or_else(|| format!("unknown iCE40 device {}", tool.device))?;
    let start = Instant::now();
    flow::run_yosys(dir, &yosys_script(Arch::Ice40, top), timeout)?;
    let status = flow::run_logged(
        Command::new(&tool.program)
            .arg(flag)
            .args(["--package", package, "--json", "netlist.json"])
            .args(["--pcf-allow-unconstrained", "--timing-allow-fail"])
            .args([
                "--seed",
                &SEED.to_string(),
                "--freq",
                &TARGET_MHZ.to_string(),
            ])
            .args(["--asc", "design.asc"]),
        dir,
        "nextpnr.log",
        timeout.saturating_sub(start.elapsed()),
    )?;
    let log = parse_log(&flow::read(&dir.join("nextpnr.log"))?);
    let mut figs = BTreeMap::new();
    if let Some((used, avail)) = log.lc {
        figs.insert("lc".to_owned(), used as f64);
        figs.insert(
            "lc_pct".to_owned(),
            (used as f64 * 100.0 / avail as f64).round(),
        );
    }
    if let Some(r) = log.ram {
        figs.insert("ram".to_owned(), r as f64);
    }
    let tool_names = format!("{yosys}; {}", tool.version);
    if status.success() {
        let f = log.fmax_mhz.ok_or_else(|| {
            format!(
                "nextpnr-ice40 reported no Fmax (log: {})",
                dir.join("nextpnr.log").display()
            )
        })?;
        figs.insert("fmax_mhz".to_owned(), (f * 10.0).round() / 10.0);
        let note = format!(
            "iCE40 {name} ({package}), nextpnr seed {SEED}, target {TARGET_MHZ} MHz, wrapped in {WRAPPER}"
        );
        return Ok(Outcome {
            figures: figs,
            note: Some(note),
            tool: tool_names,
        });
    }
    match (log.lc, &log.error) {
        // Over-full devices are a result (it does not fit), not a failure of the run.
        (Some((used, avail)), _) if used > avail => Ok(Outcome {
            figures: figs,
            note: Some(format!(
                "does not fit iCE40 {name}: {used} of {avail} logic cells"
            )),
            tool: tool_names,
        }),
        _ => Err(format!(
            "nextpnr-ice40 failed ({status}): {} (log: {})",
            log.error.as_deref().unwrap_or("no ERROR line"),
            dir.join("nextpnr.log").display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fmax_and_utilisation() {
        let log = "Info: Device utilisation:\n\
                   Info: \t         ICESTORM_LC:  6721/ 7680    87%\n\
                   Info: \t        ICESTORM_RAM:     0/   32     0%\n\
                   Info: Max frequency for clock 'clock$SB_IO_IN_$glb_clk': 29.80 MHz (FAIL at 100.00 MHz)\n\
                   Info: Max frequency for clock 'clock$SB_IO_IN_$glb_clk': 31.47 MHz (FAIL at 100.00 MHz)\n";
        let p = parse_log(log);
        assert_eq!(p.fmax_mhz, Some(31.47));
        assert_eq!(p.lc, Some((6721, 7680)));
        assert_eq!(p.ram, Some(0));
        assert_eq!(p.error, None);
        assert!(parse_log("ERROR: x\n").error.is_some());
    }
}
