//! Runs hdl/lint/check.sh (Verilator `-Wall` lint with the waiver file, Yosys
//! `hierarchy -check; proc; check -assert`, no latches) on every generated top.
//!
//! The tools are required, not optional: a missing tool fails the test with instructions,
//! so a machine without them cannot pass the suite silently.

mod common;

#[test]
fn generated_verilog_is_lint_clean_and_latch_free() {
    let tops: Vec<(String, String)> = cdma_hdl::all_tops()
        .into_iter()
        .map(|t| (t.module, t.verilog))
        .collect();
    common::lint("cdma-hdl-lint", &tops);
}
