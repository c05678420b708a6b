//! The tracked baseline (synth/baseline.json) and `cdma synth --check`'s comparison with it.

use crate::flow::{self, metrics, Check, Report, Target};
use cdma_analysis::table::Table;
use std::collections::BTreeMap;
use std::path::Path;

/// Growth allowed by `--check` unless the baseline says otherwise.
pub const DEFAULT_TOLERANCE_PCT: f64 = 5.0;

/// Drop of a place-and-route Fmax allowed by `--check`, in percent ([`Check::FailDrop`]):
/// wider than the area tolerance because placement moves Fmax by a few percent on small
/// changes of the netlist, while a real regression (a longer critical path) costs more.
pub const FMAX_DROP_PCT: f64 = 10.0;

/// Figures of one block: its configuration and, per target, the figures by key.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BlockFigures {
    /// The emitted top the block belongs to.
    pub top: String,
    /// Element width of the configuration.
    pub elem_bits: u32,
    /// Target (`generic`, `ice40`, `ecp5`, `xilinx`, `pnr-ice40`, `pnr-ecp5`) → figure key →
    /// value.
    pub targets: BTreeMap<String, BTreeMap<String, f64>>,
    /// Notes per target (place and route: the device, or why it did not fit).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub notes: BTreeMap<String, String>,
}

/// Block name → figures.
pub type Figures = BTreeMap<String, BlockFigures>;

/// Collects reports into [`Figures`].
pub fn figures_of(reports: &[Report]) -> Figures {
    let mut f = Figures::new();
    for r in reports {
        let b = f.entry(r.block.clone()).or_insert_with(|| BlockFigures {
            top: r.top.clone(),
            elem_bits: r.elem_bits,
            ..BlockFigures::default()
        });
        b.targets.insert(r.target.clone(), r.metrics.clone());
        if let Some(n) = &r.note {
            b.notes.insert(r.target.clone(), n.clone());
        }
    }
    f
}

/// synth/baseline.json.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Baseline {
    /// How to read and regenerate this file.
    pub about: String,
    /// Growth `--check` allows, in percent.
    pub tolerance_pct: f64,
    /// Tool versions the figures were made with (`yosys`, `nextpnr-ice40`, `nextpnr-ecp5`).
    pub tools: BTreeMap<String, String>,
    /// The figures.
    pub blocks: Figures,
}

impl Default for Baseline {
    fn default() -> Self {
        Baseline {
            about: format!(
                "Figures of `cdma synth` (synth/AREA.md). `cdma synth --check` fails when a \
                 checked area figure grows by more than tolerance_pct or a place-and-route \
                 fmax_mhz drops by more than {FMAX_DROP_PCT} %; regenerate with `cdma synth \
                 --update-baseline` (add --pnr for the pnr-ice40 figures, --pnr --target ecp5 \
                 for the pnr-ecp5 ones) in the same change, then `cdma synth --write-doc`."
            ),
            tolerance_pct: DEFAULT_TOLERANCE_PCT,
            tools: BTreeMap::new(),
            blocks: Figures::new(),
        }
    }
}

impl Baseline {
    /// Reads a baseline file.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = flow::read(path)?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a baseline file, or starts an empty one if there is none.
    pub fn load_or_default(path: &Path) -> Result<Baseline, String> {
        if path.exists() {
            Baseline::load(path)
        } else {
            Ok(Baseline::default())
        }
    }

    /// Writes the baseline (pretty JSON, trailing newline).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        flow::write(path, &(text + "\n"))
    }

    /// The Yosys targets a run without `--target` synthesises `block` for: the generic flow,
    /// and those of [`Target::DEFAULT`]'s FPGA flows this baseline records for it. So a
    /// default run makes the figures the baseline tracks, and the FPGA flows of a block it
    /// does not track (a new block, the DMA engines and their datapaths: about 45 minutes of
    /// Yosys for the 1024-bit engine alone, and no iCE40 holds one) run only when asked for.
    pub fn default_targets(&self, block: &str) -> Vec<Target> {
        let recorded = |t: &Target| {
            self.blocks
                .get(block)
                .is_some_and(|b| b.targets.contains_key(t.name()))
        };
        Target::DEFAULT
            .into_iter()
            .filter(|t| *t == Target::Generic || recorded(t))
            .collect()
    }

    /// Replaces the figures of every (block, target) in `reports`, keeping the others, and
    /// records the tool versions. The `about` text is the code's (it explains the rules the
    /// code applies).
    pub fn merge(&mut self, reports: &[Report]) {
        self.about = Baseline::default().about;
        for r in reports {
            let b = self
                .blocks
                .entry(r.block.clone())
                .or_insert_with(|| BlockFigures {
                    top: r.top.clone(),
                    elem_bits: r.elem_bits,
                    ..BlockFigures::default()
                });
            b.top.clone_from(&r.top);
            b.elem_bits = r.elem_bits;
            b.targets.insert(r.target.clone(), r.metrics.clone());
            match &r.note {
                Some(n) => b.notes.insert(r.target.clone(), n.clone()),
                None => b.notes.remove(&r.target),
            };
            for (tool, version) in tool_versions(r) {
                self.tools.insert(tool, version);
            }
        }
    }
}

/// The tool versions a report names: `yosys` always, `nextpnr-ice40` or `nextpnr-ecp5` (the
/// version's first word) for place and route (whose `tool` is "<yosys version>; <nextpnr
/// version>").
pub fn tool_versions(r: &Report) -> Vec<(String, String)> {
    let mut parts = r.tool.split("; ");
    let mut v = vec![];
    if let Some(y) = parts.next() {
        v.push(("yosys".to_owned(), y.to_owned()));
    }
    if let Some(n) = parts.next() {
        let tool = n.split_whitespace().next().unwrap_or("nextpnr");
        v.push((tool.to_owned(), n.to_owned()));
    }
    v
}

/// Verdict on one figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Within the tolerance.
    Ok,
    /// Grew beyond the tolerance (a failing figure).
    Fail,
    /// Grew beyond the tolerance (a warn-only figure).
    Warn,
    /// Improved beyond the tolerance (an area shrank, an Fmax rose): the baseline could be
    /// tightened.
    Improved,
    /// The baseline has no such figure.
    Missing,
}

/// The change of a figure `--check` accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// An area figure: growth up to this many percent.
    Growth(f64),
    /// A speed figure (higher is better): a drop down to this many percent.
    Drop(f64),
}

impl Limit {
    /// "within +5 %", "within -10 %".
    pub fn text(self) -> String {
        match self {
            Limit::Growth(t) => format!("within +{t} %"),
            Limit::Drop(t) => format!("within -{t} %"),
        }
    }
}

/// One compared figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Block name.
    pub block: String,
    /// Target.
    pub target: String,
    /// Figure key.
    pub metric: String,
    /// Baseline value.
    pub base: Option<f64>,
    /// Value now.
    pub now: f64,
    /// The change accepted.
    pub limit: Limit,
    /// Verdict.
    pub status: Status,
}

impl Row {
    /// Relative change in percent (`None` without a baseline value; infinite from 0).
    pub fn change_pct(&self) -> Option<f64> {
        let b = self.base?;
        Some(if b == 0.0 {
            if self.now == 0.0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (self.now - b) / b * 100.0
        })
    }
}

/// Compares every checked or warned figure of `reports` with the baseline: area figures
/// against the baseline's growth tolerance, Fmax against [`FMAX_DROP_PCT`].
pub fn compare(base: &Baseline, reports: &[Report]) -> Vec<Row> {
    let mut rows = vec![];
    for r in reports {
        for m in metrics(&r.target) {
            let limit = match m.check {
                Check::Info => continue,
                Check::Fail | Check::Warn => Limit::Growth(base.tolerance_pct),
                Check::FailDrop => Limit::Drop(FMAX_DROP_PCT),
            };
            let b = base
                .blocks
                .get(&r.block)
                .and_then(|b| b.targets.get(&r.target))
                .and_then(|t| t.get(m.key))
                .copied();
            let now = match r.metrics.get(m.key) {
                Some(&v) => v,
                // An Fmax the baseline has and this run lacks: the top no longer fits the
                // device (nextpnr routed nothing). Counted as 0 MHz, a 100 % drop.
                None if m.check == Check::FailDrop && b.is_some() => 0.0,
                None => continue,
            };
            let mut row = Row {
                block: r.block.clone(),
                target: r.target.clone(),
                metric: m.key.to_owned(),
                base: b,
                now,
                limit,
                status: Status::Missing,
            };
            row.status = match (row.change_pct(), limit) {
                (None, _) => Status::Missing,
                (Some(c), Limit::Growth(t)) if c > t => {
                    if m.check == Check::Fail {
                        Status::Fail
                    } else {
                        Status::Warn
                    }
                }
                (Some(c), Limit::Growth(t)) if c < -t => Status::Improved,
                (Some(c), Limit::Drop(t)) if c < -t => Status::Fail,
                (Some(c), Limit::Drop(t)) if c > t => Status::Improved,
                (Some(_), _) => Status::Ok,
            };
            rows.push(row);
        }
    }
    rows
}

/// The comparison as an aligned table; each row says the change it accepts.
pub fn diff_table(rows: &[Row]) -> String {
    let mut t = Table::new(
        [
            "block", "target", "figure", "baseline", "now", "change", "accepted", "status",
        ]
        .map(String::from)
        .to_vec(),
    );
    let mut last = None;
    for r in rows {
        if last.is_some() && last != Some(&r.block) {
            t.rule();
        }
        last = Some(&r.block);
        let change = match r.change_pct() {
            None => "n/a".to_owned(),
            Some(c) if c.is_infinite() => "+inf %".to_owned(),
            Some(c) => format!("{c:+.1} %"),
        };
        let status = match (r.status, r.limit) {
            (Status::Ok, _) => "ok".to_owned(),
            (Status::Fail, Limit::Growth(t)) => format!("FAIL (> +{t} %)"),
            (Status::Fail, Limit::Drop(t)) => format!("FAIL (< -{t} %)"),
            (Status::Warn, Limit::Growth(t)) => format!("warning (> +{t} %)"),
            (Status::Warn, Limit::Drop(t)) => format!("warning (< -{t} %)"),
            (Status::Improved, Limit::Growth(_)) => "smaller: update the baseline".to_owned(),
            (Status::Improved, Limit::Drop(_)) => "faster: update the baseline".to_owned(),
            (Status::Missing, _) => "FAIL: not in the baseline".to_owned(),
        };
        t.row(vec![
            r.block.clone(),
            r.target.clone(),
            r.metric.clone(),
            r.base.map_or("n/a".into(), trim),
            trim(r.now),
            change,
            r.limit.text(),
            status,
        ]);
    }
    t.text()
}

/// A figure without trailing zeros (`20942.5`, `856`).
pub fn trim(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_owned).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(block: &str, target: &str, figs: &[(&str, f64)]) -> Report {
        Report {
            block: block.into(),
            top: block.into(),
            elem_bits: 8,
            target: target.into(),
            tool: "Yosys 0.23 (git sha1 7ce5011c24b)".into(),
            seconds: 1.0,
            metrics: figs.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            cells: BTreeMap::new(),
            generic_cells: BTreeMap::new(),
            note: None,
            key: None,
        }
    }

    fn base() -> Baseline {
        let mut b = Baseline::default();
        b.merge(&[
            report(
                "c",
                "generic",
                &[
                    ("ge", 1000.0),
                    ("ff", 100.0),
                    ("mem_bits", 0.0),
                    ("depth", 30.0),
                    ("cells", 9.0),
                ],
            ),
            report(
                "c",
                "ice40",
                &[("lut4", 500.0), ("ff", 100.0), ("bram", 0.0)],
            ),
        ]);
        b
    }

    #[test]
    fn default_targets_are_generic_and_the_recorded_fpga_flows() {
        let mut b = base();
        b.merge(&[report("p", "pnr-ecp5", &[("fmax_mhz", 50.0)])]);
        b.merge(&[report("x", "xilinx", &[("lut", 5.0)])]);
        // `c` has generic and iCE40 figures: those two, in report order.
        assert_eq!(b.default_targets("c"), [Target::Generic, Target::Ice40]);
        assert_eq!(b.default_targets("x"), [Target::Generic, Target::Xilinx]);
        // Unknown, or with no FPGA flow of the defaults recorded: the generic flow only.
        assert_eq!(b.default_targets("new"), [Target::Generic]);
        assert_eq!(b.default_targets("p"), [Target::Generic]);
    }

    fn statuses(rows: &[Row]) -> Vec<(String, Status)> {
        rows.iter().map(|r| (r.metric.clone(), r.status)).collect()
    }

    #[test]
    fn growth_beyond_tolerance_fails_and_within_passes() {
        let b = base();
        let same = report(
            "c",
            "generic",
            &[
                ("ge", 1050.0),
                ("ff", 100.0),
                ("mem_bits", 0.0),
                ("depth", 30.0),
                ("cells", 99.0),
            ],
        );
        let rows = compare(&b, &[same]);
        assert!(rows.iter().all(|r| r.status == Status::Ok), "{rows:?}");
        // `cells` is informational: never compared.
        assert!(rows.iter().all(|r| r.metric != "cells"));

        let grown = report(
            "c",
            "generic",
            &[
                ("ge", 1051.0),
                ("ff", 90.0),
                ("mem_bits", 8.0),
                ("depth", 32.0),
            ],
        );
        let rows = compare(&b, &[grown]);
        assert_eq!(
            statuses(&rows),
            [
                ("ge".into(), Status::Fail),
                ("ff".into(), Status::Improved),
                ("mem_bits".into(), Status::Fail),
                ("depth".into(), Status::Warn),
            ]
        );
        let text = diff_table(&rows);
        assert!(text.contains("+5.1 %") && text.contains("FAIL"), "{text}");
        assert!(text.contains("+inf %"), "{text}");
    }

    #[test]
    fn an_fmax_drop_beyond_ten_percent_fails_and_a_gain_passes() {
        for target in ["pnr-ecp5", "pnr-ice40"] {
            let mut b = base();
            b.merge(&[report("c", target, &[("fmax_mhz", 50.0), ("ff", 10.0)])]);
            let verdict = |fmax: Option<f64>| {
                let mut figs = vec![("ff", 99.0)];
                figs.extend(fmax.map(|f| ("fmax_mhz", f)));
                let rows = compare(&b, &[report("c", target, &figs)]);
                assert_eq!(rows.len(), 1, "only Fmax is checked in a {target} report");
                assert_eq!(rows[0].limit, Limit::Drop(FMAX_DROP_PCT));
                (rows[0].status, diff_table(&rows))
            };
            let (s, text) = verdict(Some(44.5));
            assert_eq!(s, Status::Fail, "11 % slower fails ({target})");
            assert!(
                text.contains("fmax_mhz") && text.contains("-11.0 %"),
                "{text}"
            );
            assert!(
                text.contains("within -10 %") && text.contains("FAIL (< -10 %)"),
                "{text}"
            );
            let (s, text) = verdict(Some(45.5));
            assert_eq!(s, Status::Ok, "9 % slower passes ({target})");
            assert!(
                text.contains("within -10 %") && text.contains("ok"),
                "{text}"
            );
            assert_eq!(verdict(Some(52.0)).0, Status::Ok, "a gain passes");
            let (s, text) = verdict(Some(60.0));
            assert_eq!(s, Status::Improved, "a large gain passes too");
            assert!(text.contains("faster: update the baseline"), "{text}");
            // No Fmax any more: the top no longer fits the device.
            let (s, text) = verdict(None);
            assert_eq!(s, Status::Fail, "{text}");
            assert!(text.contains("-100.0 %"), "{text}");
        }
        // Area figures keep their growth rule next to it.
        let rows = compare(&base(), &[report("c", "ice40", &[("lut4", 526.0)])]);
        assert_eq!(rows[0].limit, Limit::Growth(5.0));
        assert_eq!(rows[0].status, Status::Fail);
        assert!(diff_table(&rows).contains("within +5 %"));
    }

    #[test]
    fn blocks_and_targets_without_a_baseline_fail() {
        let rows = compare(
            &base(),
            &[
                report("d", "generic", &[("ge", 1.0)]),
                report("c", "xilinx", &[("lut", 1.0)]),
            ],
        );
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.status == Status::Missing));
    }

    #[test]
    fn merge_replaces_what_was_run_and_keeps_the_rest() {
        let mut b = base();
        let mut r = report("c", "generic", &[("ge", 7.0)]);
        r.tool = "Yosys 9.9; nextpnr-ice40 0.4".into();
        b.merge(&[r]);
        assert_eq!(b.blocks["c"].targets["generic"]["ge"], 7.0);
        assert_eq!(b.blocks["c"].targets["ice40"]["lut4"], 500.0);
        assert_eq!(b.tools["yosys"], "Yosys 9.9");
        assert_eq!(b.tools["nextpnr-ice40"], "nextpnr-ice40 0.4");
        let mut e = report("c", "pnr-ecp5", &[("lut4", 9.0)]);
        e.tool = "Yosys 9.9; nextpnr-ecp5 0.11.1".into();
        b.merge(&[e]);
        assert_eq!(b.tools["nextpnr-ecp5"], "nextpnr-ecp5 0.11.1");
        assert_eq!(b.tools["nextpnr-ice40"], "nextpnr-ice40 0.4");
        assert_eq!(b.blocks["c"].targets["pnr-ecp5"]["lut4"], 9.0);
        assert_eq!(b.about, Baseline::default().about, "the code's text");
        let text = serde_json::to_string(&b).unwrap();
        assert_eq!(serde_json::from_str::<Baseline>(&text).unwrap(), b);
    }
}
