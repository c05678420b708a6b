//! Analysis and benchmarking for cdma: how well ZVC compresses the activation corpus against
//! general-purpose codecs, what that buys when activations are offloaded over PCIe, and how
//! fast the golden model runs.
//!
//! * [`codecs`]: ZVC (one stream + header), [`rl`] (run-length of zeros), zlib-6, lz4, zstd-3
//!   sizes, and the chunked frame `cdma compress` writes, each verified to round-trip.
//! * [`analyze`]: per-tensor rows over a corpus and their groupings; text/markdown/JSON.
//! * [`offload`]: the offload-time model of docs/MODEL.md (vDNN vs cDMA).
//! * [`plot`]: SVG plots.
//! * [`bench`]: the single-thread throughput core shared by `cdma bench` and the
//!   `cdma-model` `throughput` example.
//! * [`table`]: aligned text / markdown tables.

#![deny(missing_docs)]

pub mod analyze;
pub mod bench;
pub mod codecs;
pub mod offload;
pub mod plot;
pub mod rl;
pub mod table;
