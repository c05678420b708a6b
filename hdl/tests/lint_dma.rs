//! Runs hdl/lint/check.sh (Verilator `-Wall` with the waiver file, Yosys
//! `hierarchy -check; proc; check -assert`, no latches) on every DMA block emitted standalone:
//! the AXI masters and the CSR block (`cdma_hdl::dma::standalone_blocks`) and the datapath
//! blocks for E = 8, 16, 32 (`cdma_hdl::dma::datapath_blocks`). The tools are required, as in
//! tests/lint.rs.

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

/// Writes `blocks` (module name, Verilog) into a fresh directory `dir_name` and lints them;
/// every block must be reported clean by both tools.
fn lint(dir_name: &str, blocks: &[(String, String)]) {
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

#[test]
fn axi_masters_and_csr_are_lint_clean_and_latch_free() {
    let blocks: Vec<(String, String)> = cdma_hdl::dma::standalone_blocks()
        .into_iter()
        .map(|b| (b.module, b.verilog))
        .collect();
    lint("cdma-hdl-lint-dma", &blocks);
}

#[test]
fn datapath_blocks_are_lint_clean_and_latch_free() {
    let blocks: Vec<(String, String)> = [8, 16, 32]
        .into_iter()
        .flat_map(cdma_hdl::dma::datapath_blocks)
        .map(|b| (b.module, b.verilog))
        .collect();
    lint("cdma-hdl-lint-dma-datapath", &blocks);
}
