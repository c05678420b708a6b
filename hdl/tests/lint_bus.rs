//! Runs hdl/lint/check.sh (Verilator `-Wall` with the waiver file, Yosys
//! `hierarchy -check; proc; check -assert`, no latches) on the bus codec's blocks emitted
//! standalone for every bus width (`cdma_hdl::bus_codec`). The tools are required, as in
//! tests/lint.rs.

mod common;

use common::lint;

#[test]
fn bus_codec_blocks_are_lint_clean_and_latch_free() {
    use cdma_hdl::bus_codec::{compressor_block, decompressor_block, BUS_CODEC_WIDTHS};
    let blocks: Vec<(String, String)> = BUS_CODEC_WIDTHS
        .into_iter()
        .flat_map(|dw| [compressor_block(dw), decompressor_block(dw)])
        .map(|b| (b.module, b.verilog))
        .collect();
    lint("cdma-hdl-lint-bus", &blocks);
}
