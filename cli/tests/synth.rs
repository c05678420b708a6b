//! `cdma synth --check` on the 8-bit compressor (every target: generic gates, iCE40, Xilinx)
//! against the committed synth/baseline.json, as the user runs it (the built binary, Yosys
//! from scripts/setup). Then the same reports against a baseline whose figures are 10 % smaller
//! must fail the check: the check can fail.

mod common;

use common::{cdma, text};
use std::path::{Path, PathBuf};

const BLOCK: &str = "cdma_zvc_compressor_e8";

fn synth_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../synth")
}

#[test]
fn compressor_e8_is_within_the_baseline_and_growth_fails_the_check() {
    let dir = std::env::temp_dir().join(format!("cdma-cli-synth-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let reports = dir.join("reports");
    let r = reports.to_str().unwrap();

    let o = cdma(&[
        "synth", "--elem", "8", "--block", BLOCK, "--out", r, "--check",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "cdma synth --check failed:\n{t}");
    for figure in ["ge", "ff", "lut4", "lut"] {
        assert!(
            t.contains(figure),
            "the check table names the {figure} figure:\n{t}"
        );
    }
    assert!(t.contains("within +5 %"), "{t}");

    // A baseline 10 % smaller than the committed one: the same reports now grew by ~11 %.
    let mut base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(synth_dir().join("baseline.json")).unwrap())
            .unwrap();
    let targets = base["blocks"][BLOCK]["targets"]
        .as_object_mut()
        .expect("the baseline has the 8-bit compressor");
    for figs in targets.values_mut() {
        for v in figs.as_object_mut().unwrap().values_mut() {
            *v = serde_json::json!(v.as_f64().unwrap() * 0.9);
        }
    }
    let smaller = dir.join("smaller.json");
    std::fs::write(&smaller, serde_json::to_string_pretty(&base).unwrap()).unwrap();
    let o = cdma(&[
        "synth",
        "--elem",
        "8",
        "--block",
        BLOCK,
        "--from-reports",
        r,
        "--baseline",
        smaller.to_str().unwrap(),
        "--check",
    ]);
    let t = text(&o);
    assert!(
        !o.status.success(),
        "growth of 11 % must fail the check:\n{t}"
    );
    assert!(t.contains("synth --check failed"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}
