//! The cdma specification as data (OpenTitan style).
//!
//! Every byte offset, bit position and code that more than one part of cdma needs lives here
//! exactly once: the golden model (`cdma-model`) encodes and decodes with these tables, the RTL
//! generator (`cdma-hdl`) turns them into Verilog constants, and docs/DESCRIPTORS.md and
//! docs/FORMAT.md contain tables rendered from them (tests check the documents verbatim).
//!
//! * [`frame`]: the chunked frame: header, chunk index entry.
//! * [`zvcx`]: the ZVC-X codec's element types, code tables and field sizes.
//! * [`desc`]: the DMA descriptor in memory, its control word and status word.
//! * [`csr`]: the AXI4-Lite register map.
//! * [`error`]: the error codes the engine reports.
//! * [`c_header`]: all of the above as a C header for software that drives the engine.
//! * [`json`]: all of the above as JSON, for software and testbenches outside Rust.
//!
//! All multi-byte fields are little-endian.

pub mod c_header;
pub mod csr;
pub mod desc;
pub mod error;
pub mod field;
pub mod frame;
pub mod json;
pub mod zvcx;

pub use c_header::c_header;
pub use field::{BitField, Field};
