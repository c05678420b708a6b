//! cdma testbenches: stream tensors through the Verilated ZVC blocks (via `cdma-sim`) under
//! seeded valid/ready patterns and compare every byte with the golden model (`cdma-model`).
//!
//! - [`dut`]: the port-level traits the drivers use; [`adapters`] binds them to the generated
//!   Verilator wrappers.
//! - [`traffic`]: seeded valid/ready patterns.
//! - [`zvc`]: the stream drivers with protocol checks and hang limits.
//! - [`regress`]: corpus and edge cases, per-group summary table.
//! - [`axi`]: AXI4 slave memory model with protocol checker, for the DMA engine's `m_axi_*`;
//!   [`axil`]: AXI4-Lite master for its CSRs (`s_axil_*`); [`watchdog`]: cycle limits.

pub mod adapters;
pub mod axi;
pub mod axil;
pub mod dut;
pub mod regress;
pub mod traffic;
pub mod watchdog;
pub mod zvc;
