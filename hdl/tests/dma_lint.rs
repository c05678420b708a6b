//! Runs hdl/lint/check.sh (Verilator `-Wall` with the waiver file, Yosys
//! `hierarchy -check; proc; check -assert`, no latches) on every DMA block
//! ([`cdma_hdl::dma::datapath_blocks`]) emitted standalone, for E = 8, 16, 32.

use std::path::Path;
use std::process::Command;

#[test]
fn dma_blocks_are_lint_clean_and_latch_free() {
    for tool in ["verilator", "yosys"] {
        let found = Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {tool}"))
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        assert!(
            found,
            "`{tool}` is not on PATH: install it with `apt-get install -y verilator yosys`"
        );
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cdma-hdl-dma-lint");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create lint dir");
    let blocks: Vec<_> = [8, 16, 32]
        .into_iter()
        .flat_map(cdma_hdl::dma::datapath_blocks)
        .collect();
    for b in &blocks {
        std::fs::write(dir.join(format!("{}.v", b.module)), &b.verilog).expect("write block");
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
    for b in &blocks {
        for tool in ["verilator -Wall  ok    ", "yosys proc       ok    "] {
            assert!(
                text.contains(&format!("{tool}{}\n", b.module)),
                "{} missing from the lint output:\n{text}",
                b.module
            );
        }
    }
}
