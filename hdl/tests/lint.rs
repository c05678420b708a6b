//! Runs hdl/lint/check.sh (Verilator `-Wall` lint with the waiver file, Yosys
//! `hierarchy -check; proc; check -assert`, no latches) on every generated top.
//!
//! The tools are required, not optional: a missing tool fails the test with instructions,
//! so a machine without them cannot pass the suite silently.

use std::path::Path;
use std::process::Command;

fn require(tool: &str) {
    let found = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        found,
        "`{tool}` is not on PATH: the RTL lint test needs Verilator and Yosys \
         (install them with `apt-get install -y verilator yosys`; scripts/test does this)"
    );
}

#[test]
fn generated_verilog_is_lint_clean_and_latch_free() {
    require("verilator");
    require("yosys");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cdma-hdl-lint");
    // Stale files from an older run must not be checked (or hide a missing top).
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create lint dir");
    let tops = cdma_hdl::all_tops();
    for t in &tops {
        std::fs::write(dir.join(format!("{}.v", t.module)), &t.verilog).expect("write top");
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("--no-gen")
        .arg(&dir)
        .output()
        .expect("run hdl/lint/check.sh");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "hdl/lint/check.sh failed:\n{text}");
    // Every top was checked by both tools.
    for t in &tops {
        for tool in ["verilator -Wall  ok    ", "yosys proc       ok    "] {
            assert!(
                text.contains(&format!("{tool}{}\n", t.module)),
                "{} missing from the lint output:\n{text}",
                t.module
            );
        }
    }
}
