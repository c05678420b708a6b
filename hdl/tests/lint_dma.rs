//! Runs hdl/lint/check.sh (Verilator `-Wall` with the waiver file, Yosys
//! `hierarchy -check; proc; check -assert`, no latches) on every DMA block emitted standalone:
//! the AXI masters and the CSR block (`cdma_hdl::dma::standalone_blocks`) and the datapath
//! blocks for every bus width (`cdma_hdl::dma::datapath_blocks`). The tools are required, as in
//! tests/lint.rs.

mod common;

use common::lint;

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
    let blocks: Vec<(String, String)> = [128, 256, 512, 1024]
        .into_iter()
        .flat_map(cdma_hdl::dma::datapath_blocks)
        .map(|b| (b.module, b.verilog))
        .collect();
    lint("cdma-hdl-lint-dma-datapath", &blocks);
}
