//! Place and route on an iCE40 with nextpnr-ice40 (Debian's package).

use super::{fmax_of, used, Placed, SEED, WRAPPER};
use std::collections::BTreeMap;

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

/// A device of [`DEVICES`]: name, nextpnr flag, package, logic cells.
pub type Device = (&'static str, &'static str, &'static str, u64);

/// The device `--pnr-device` names.
pub fn device(name: &str) -> Result<&'static Device, String> {
    DEVICES
        .iter()
        .find(|d| d.0 == name)
        .ok_or_else(|| format!("unknown iCE40 device {name}"))
}

/// nextpnr-ice40's device, constraint and output arguments.
pub fn args(&(_, flag, package, _): &Device) -> Vec<String> {
    [flag, "--package", package, "--pcf-allow-unconstrained"]
        .into_iter()
        .chain(["--asc", "design.asc"])
        .map(String::from)
        .collect()
}

/// What nextpnr-ice40's log `log` says of a run on `device`.
pub fn placed(log: &str, &(name, _, package, _): &Device) -> Placed {
    let log = parse_log(log);
    let mut figures = BTreeMap::new();
    if let Some((used, avail)) = log.lc {
        figures.insert("lc".to_owned(), used as f64);
        figures.insert(
            "lc_pct".to_owned(),
            (used as f64 * 100.0 / avail as f64).round(),
        );
    }
    if let Some(r) = log.ram {
        figures.insert("ram".to_owned(), r as f64);
    }
    Placed {
        figures,
        fmax_mhz: log.fmax_mhz,
        note: format!(
            "iCE40 {name} ({package}), nextpnr seed {SEED}, target {TARGET_MHZ} MHz, wrapped in {WRAPPER}"
        ),
        overfull: log
            .lc
            .filter(|(used, avail)| used > avail)
            .map(|(used, avail)| format!("does not fit iCE40 {name}: {used} of {avail} logic cells")),
        error: log.error,
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

    #[test]
    fn an_overfull_device_is_said_and_a_routed_one_described() {
        let hx1k = device("hx1k").unwrap();
        let p = placed("Info: \t ICESTORM_LC:  6721/ 1280   525%\n", hx1k);
        assert_eq!(
            p.overfull.as_deref(),
            Some("does not fit iCE40 hx1k: 6721 of 1280 logic cells")
        );
        assert_eq!(p.figures["lc"], 6721.0);
        assert!(
            p.note.starts_with("iCE40 hx1k (tq144), nextpnr seed 1"),
            "{}",
            p.note
        );
        let fits = placed(
            "Info: \t ICESTORM_LC:  6721/ 7680   87%\n",
            device("hx8k").unwrap(),
        );
        assert_eq!(fits.overfull, None);
        assert!(device("hx9k").is_err());
        assert_eq!(args(hx1k)[..3], ["--hx1k", "--package", "tq144"]);
    }
}
