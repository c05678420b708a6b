//! `cdma synth --check` on the 8-bit compressor (every target: generic gates, iCE40, Xilinx)
//! against the committed synth/baseline.json, as the user runs it (the built binary, Yosys
//! from scripts/setup). Then the same reports against a baseline whose figures are 10 % smaller
//! must fail the check: the check can fail. The ECP5 Fmax check of the same block from
//! reports, and the report cache on a small block.

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

/// `cdma synth --check --target ecp5 --pnr` compares the ECP5 place-and-route figures of the
/// 8-bit compressor with the committed baseline: its Fmax may drop by 10 %, not 11 %. The
/// reports are made by hand from the baseline's own figures (`--from-reports`), so this runs
/// no tool (nextpnr-ecp5 takes minutes on that block) and follows a re-measured baseline.
#[test]
fn ecp5_fmax_of_the_compressor_is_checked_against_the_baseline() {
    let dir = std::env::temp_dir().join(format!("cdma-cli-synth-fmax-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(synth_dir().join("baseline.json")).unwrap())
            .unwrap();
    let block = &base["blocks"][BLOCK];
    let figures = |target: &str| {
        block["targets"][target]
            .as_object()
            .unwrap_or_else(|| panic!("the baseline has {target} figures of {BLOCK}"))
            .clone()
    };
    let write = |target: &str, fmax_factor: f64| {
        let mut metrics = figures(target);
        let fmax = match metrics.get("fmax_mhz") {
            Some(v) => v.as_f64().unwrap(),
            // The pipelined 8-bit compressor no longer fits an HX8K: no iCE40 Fmax to copy.
            None if target == "pnr-ice40" => 30.0,
            None => panic!("the baseline has an Fmax of {BLOCK} for {target}"),
        };
        metrics.insert("fmax_mhz".into(), serde_json::json!(fmax * fmax_factor));
        let report = serde_json::json!({
            "block": BLOCK, "top": BLOCK, "elem_bits": 8, "target": target,
            "tool": "hand-made", "seconds": 0.0, "metrics": metrics, "cells": {},
            "note": block["notes"][target],
        });
        std::fs::write(
            dir.join(format!("{BLOCK}.{target}.json")),
            serde_json::to_string_pretty(&report).unwrap(),
        )
        .unwrap();
    };
    // An iCE40 run far slower than its baseline: not selected by --target ecp5 --pnr.
    write("pnr-ice40", 0.5);
    let check = || {
        cdma(&[
            "synth",
            "--check",
            "--target",
            "ecp5",
            "--pnr",
            "--block",
            BLOCK,
            "--elem",
            "8",
            "--from-reports",
            dir.to_str().unwrap(),
        ])
    };

    write("pnr-ecp5", 0.91);
    let o = check();
    let t = text(&o);
    assert!(o.status.success(), "9 % slower is within the limit:\n{t}");
    assert!(
        t.contains("pnr-ecp5") && t.contains("fmax_mhz") && t.contains("within -10 %"),
        "the table shows the Fmax row and its limit:\n{t}"
    );
    assert!(!t.contains("pnr-ice40"), "only the ECP5 reports:\n{t}");

    write("pnr-ecp5", 0.89);
    let o = check();
    let t = text(&o);
    assert!(!o.status.success(), "11 % slower fails the check:\n{t}");
    assert!(t.contains("FAIL (< -10 %)"), "{t}");

    write("pnr-ecp5", 1.2);
    let o = check();
    assert!(o.status.success(), "faster passes:\n{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A job whose inputs did not change is not run again: the second run of a small block reuses
/// its report ("cached", no Yosys work directory made), `--no-cache` runs it, and a report
/// whose key differs (another Verilog, script or tool made it) is not reused.
#[test]
fn a_second_run_of_an_unchanged_block_is_cached() {
    const NET: &str = "cdma_zvc_compressor_e8__dp__net";
    let dir = std::env::temp_dir().join(format!("cdma-cli-synth-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("reports");
    let work = out.join("work").join(format!("{NET}.generic"));
    let report = out.join(format!("{NET}.generic.json"));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "synth",
            "--elem",
            "8",
            "--block",
            NET,
            "--target",
            "generic",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = cdma(&args);
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        (String::from_utf8_lossy(&o.stdout).to_string(), t)
    };

    let (first, t) = run(&[]);
    assert!(!t.contains("cached") && t.contains("done in"), "{t}");
    let key = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&report).unwrap())
        .unwrap()["key"]
        .as_str()
        .expect("the report records its key")
        .to_owned();
    assert_eq!(key.len(), 64, "a SHA-256 in hex: {key}");

    std::fs::remove_dir_all(out.join("work")).unwrap();
    let (second, t) = run(&[]);
    assert!(t.contains(&format!("{NET} generic cached")), "{t}");
    assert!(!work.exists(), "a cached job makes no Yosys work directory");
    assert_eq!(first, second, "the same figures");

    let (_, t) = run(&["--no-cache"]);
    assert!(!t.contains("cached"), "{t}");
    assert!(work.join("yosys.log").exists(), "--no-cache runs Yosys");

    // A report made from other inputs: its key differs, the job runs.
    let text_now = std::fs::read_to_string(&report).unwrap();
    std::fs::write(&report, text_now.replace(&key, &"0".repeat(64))).unwrap();
    std::fs::remove_dir_all(out.join("work")).unwrap();
    let (_, t) = run(&[]);
    assert!(!t.contains("cached") && work.exists(), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}
