//! Golden model of the descriptor-driven DMA engine (docs/DESCRIPTORS.md).
//!
//! [`run_chain`] walks a descriptor chain in a byte-addressed [`Memory`] exactly as the engine
//! does — same validation order, same error codes, same bytes written — and reports per
//! descriptor what it did ([`DescOutcome`]) and what the CSRs show afterwards
//! ([`ChainOutcome`]). Timing is not modelled: the model cannot abort (the RTL reports
//! ABORTED), and where the engine's result after a streaming error depends on timing the
//! model names the affected memory instead ([`DescOutcome::unspecified`]).
//!
//! Layouts (descriptor, control/status words, CSR bits, error codes) come from `cdma_spec`;
//! the frame the engine writes is the one of [`crate::compress_chunked`], with header + index
//! at `meta_addr` and the payload at `dst_addr`.
//!
//! One concern per module: `memory` (the bus-side memory and its faults), `bus` (beat-wise
//! reads, strobed writes), `config` (what an engine accepts), `descriptor` (the in-memory
//! layout), `ops` (the checks and the three operations) and `chain` (the chain walk and the
//! CSRs). Everything public is re-exported here: users write `cdma_model::dma::X`.

mod bus;
mod chain;
mod config;
mod descriptor;
mod memory;
mod ops;

/// The error codes (`codes::OK`, `codes::BAD_DESC`, …).
pub use cdma_spec::error as codes;
pub use cdma_spec::error::ErrorCode;

pub use chain::{run_chain, ChainEnd, ChainOutcome, DescOutcome};
pub use config::{ConfigError, EngineConfig};
pub use descriptor::{control_word, status_word, with_type_and_codec, Descriptor, Op};
pub use memory::{BusError, BusFault, Memory, SparseMemory};
