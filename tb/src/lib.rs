//! cdma testbenches: stream tensors through the Verilated ZVC blocks (via `cdma-sim`) under
//! seeded valid/ready patterns and compare every byte with the golden model (`cdma-model`).
//!
//! - [`dut`]: the port-level traits the drivers use; [`adapters`] binds them to the generated
//!   Verilator wrappers.
//! - [`traffic`]: seeded valid/ready patterns.
//! - [`zvc`]: the stream drivers with protocol checks and hang limits.
//! - [`regress`]: corpus and edge cases, per-group summary table.

pub mod adapters;
pub mod dut;
pub mod regress;
pub mod traffic;
pub mod zvc;
