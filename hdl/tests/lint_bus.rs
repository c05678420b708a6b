//! Runs hdl/lint/check.sh (Verilator `-Wall` with the waiver file, Yosys
//! `hierarchy -check; proc; check -assert`, no latches) on the bus codec's blocks emitted
//! standalone for every bus width (`cdma_hdl::bus_codec`). The tools are required, as in
//! tests/lint.rs.

mod common;

use common::lint;

#[test]
fn bus_compressors_are_lint_clean_and_latch_free() {
    let blocks: Vec<(String, String)> = cdma_hdl::bus_codec::BUS_CODEC_WIDTHS
        .into_iter()
        .map(cdma_hdl::bus_codec::compressor_block)
        .map(|b| (b.module, b.verilog))
        .collect();
    lint("cdma-hdl-lint-bus", &blocks);
}
