//! The engine's generation parameters (everything else comes from `cdma-spec`).

/// Largest `chunk_log2` the engine's chunk buffers hold (4 KiB chunks); the format allows up
/// to `cdma_spec::frame::CHUNK_LOG2_MAX` (24), larger chunks are refused as UNSUPPORTED.
pub const ENGINE_CHUNK_LOG2_MAX: u64 = 12;
/// log2 of the chunk index RAM depth: at most `2^IDX_LOG2` chunks per descriptor.
pub const IDX_LOG2: usize = 10;
/// Data-bus widths the generator supports.
pub const BUS_WIDTHS: [usize; 3] = [256, 512, 1024];
