//! Shared by the lint tests: the tool check and one lint run of hdl/lint/check.sh.

use std::path::Path;
use std::process::Command;

/// Fails with install instructions unless `tool` is on PATH: the tools are required, not
/// optional, so a machine without them cannot pass the suite silently.
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

/// Writes `blocks` (module name, Verilog) into a fresh directory `dir_name` and lints them;
/// every block must be reported clean by both tools.
pub fn lint(dir_name: &str, blocks: &[(String, String)]) {
    require("verilator");
    require("yosys");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir_name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create lint dir");
    for (module, verilog) in blocks {
        std::fs::write(dir.join(format!("{module}.v")), verilog).expect("write block");
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
    for (module, _) in blocks {
        for tool in ["verilator -Wall  ok    ", "yosys proc       ok    "] {
            assert!(
                text.contains(&format!("{tool}{module}\n")),
                "{module} missing from the lint output:\n{text}"
            );
        }
    }
}
