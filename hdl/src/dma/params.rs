//! The engine's generation parameters (everything else comes from `cdma-spec`).

/// Largest `chunk_log2` the engine's chunk buffers hold (4 KiB chunks); the format allows up
/// to `cdma_spec::frame::CHUNK_LOG2_MAX` (24), larger chunks are refused as UNSUPPORTED.
pub const ENGINE_CHUNK_LOG2_MAX: u64 = 12;
/// log2 of the DECOMPRESS index window: the controller reads and checks the chunk index
/// `2^IDX_WIN_LOG2` entries at a time into its entry RAM (that deep), each window's entries
/// before that window's payload. Not a limit: any number of chunks runs, window by window.
pub const IDX_WIN_LOG2: usize = 9;
/// Data-bus widths the generator supports.
pub const BUS_WIDTHS: [usize; 4] = [128, 256, 512, 1024];
