//! cdma testbenches: stream tensors through the Verilated ZVC blocks (via `cdma-sim`) under
//! seeded valid/ready patterns and compare every byte with the golden model (`cdma-model`).
//!
//! - [`dut`]: the port-level traits the drivers use; [`adapters`] binds them to the generated
//!   Verilator wrappers.
//! - [`traffic`]: seeded valid/ready patterns.
//! - [`zvc`]: the stream drivers with protocol checks and hang limits; [`error`]: the one
//!   error type of every bench ([`TbError`](error::TbError)).
//! - [`regress`]: corpus and edge cases, per-group summary table.
//! - [`zvcx_enc`]: the stream driver of the ZVC-X block compressor.
//! - [`axi`]: AXI4 slave memory model with protocol checker, for the DMA engine's `m_axi_*`;
//!   [`axil`]: AXI4-Lite master for its CSRs (`s_axil_*`); [`watchdog`]: cycle limits.
//! - DMA engine end to end: [`dma_scenario`] (memory image + descriptor chain + the golden
//!   model's expectation), [`dma_faults`] (one scenario per fault, throughput, abort),
//!   [`dma_check`] (comparison), [`dma`] (the bench and runner), [`dma_cases`] (case lists).
//! - [`zvcx_dec`]: the ZVC-X decoder's stream driver.

pub mod adapters;
pub mod axi;
pub mod axil;
pub mod dma;
pub mod dma_cases;
pub mod dma_check;
pub mod dma_faults;
pub mod dma_scenario;
pub mod dut;
pub mod error;
pub mod regress;
pub mod traffic;
pub mod watchdog;
pub mod zvc;
pub mod zvcx_dec;
pub mod zvcx_enc;
