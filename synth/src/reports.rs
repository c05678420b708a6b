//! Reports of an earlier `cdma synth` run, read back (`--from-reports`).

use crate::flow::{self, Report};
use std::path::Path;

/// Reads one report.
pub fn load_report(path: &Path) -> Result<Report, String> {
    serde_json::from_str(&flow::read(path)?)
        .map_err(|e| format!("{}: not a `cdma synth` report: {e}", path.display()))
}

/// Reads the reports of an earlier run that match the selection.
pub fn load_reports(
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
        let r = load_report(&path)?;
        // elem_bits 0: a DMA engine, every element width.
        if (elems.contains(&r.elem_bits) || r.elem_bits == 0)
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
