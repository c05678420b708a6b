//! End-to-end testbench of the DMA engine (`cdma_dma_top` and its bus-width variants).
//!
//! A [`DmaBench`] owns the Verilated top (any [`Dut`] with the ports of docs/ARCHITECTURE.md
//! "External ports"), the AXI4 memory on `m_axi_*` ([`AxiSlave`]) and the AXI-Lite master on
//! `s_axil_*` ([`AxiLiteDut`]). [`DmaBench::run`] loads a [`Scenario`]'s memory image,
//! programs the CSRs (CTRL.enable, HEAD, IRQ_ENABLE, IRQ_STATUS cleared, DOORBELL), cycles
//! under a [`Watchdog`] until STATUS.busy reads 0 (polled over AXI-Lite, and at once when
//! `irq` rises), and compares memory, status words, CSRs and PERF counters with the golden
//! model ([`crate::dma_check`]), plus the AXI protocol record and an idle bus at the end.
//!
//! Per cycle (the order of [`crate::axi`] and [`crate::axil`]): `csr.drive`, `mem.drive`,
//! `eval`, `csr.sample`, `mem.sample`, `tick`.
//!
//! [`DmaCase`] / [`DmaResult`] are the shape `cdma regress` can list next to the ZVC rows.

mod abort;
mod bench;
mod config;
mod judge;
mod report;
mod reset;
mod runner;
#[cfg(test)]
mod tests;

pub use bench::DmaBench;
pub use config::{
    abort_bound, configured_tops, engine_of, top_available, BenchConfig, DMA_TOPS,
    MATRIX_CONFIG_TOP, TOP, ZVCX_CONFIG_TOP,
};
pub use report::RunReport;
pub use runner::{run_case, run_case_on, AbortPlan, DmaCase, DmaResult, Interruption};

#[cfg(doc)]
use crate::{axi::AxiSlave, axil::AxiLiteDut, dma_scenario::Scenario, watchdog::Watchdog};
#[cfg(doc)]
use cdma_sim::Dut;
