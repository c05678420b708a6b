//! ZVC-X in hardware (docs/FORMAT.md, codec 2; docs/ARCHITECTURE.md, "ZVC-X codec"): the
//! block encoder and decoder at one 32-element block per cycle for every element type, and
//! what they share.
//!
//! * [`ElemParams`]: the element type's widths, from the spec's table.
//! * [`encoder`]: the block compressor [`ZvcxCompressor`] (`cdma_zvcx_compressor`).
//! * [`ElemLanes`]: a block's bytes as 32 zero-extended element lanes.
//! * [`ZvcxGather`]: bus beats of a chunk as blocks, one per cycle.
//! * [`ZvcxScatter`]: blocks back into bus beats.
//! * [`WordToBeats`]: the codec's 128-byte words as bus beats (the gatherer at 32-bit
//!   elements goes the other way).
//! * [`decoder`]: the block decoder [`ZvcxDecompressor`].

pub mod decoder;
mod elem_params;
pub mod encoder;
mod gather;
#[cfg(test)]
mod gather_tests;
mod gearbox;
#[cfg(test)]
mod gearbox_tests;
mod lanes;
mod scatter;
#[cfg(test)]
mod scatter_tests;

pub use decoder::ZvcxDecompressor;
pub use elem_params::{params_of, ElemParams};
pub use encoder::{ZvcxCompressor, ZVCX_COMPRESSOR_PORTS};
pub use gather::{gather_block, place_bytes, BlockPlace, ZvcxGather, GATHER_PORTS};
pub use gearbox::{WordPart, WordToBeats, WORD_BYTES};
pub use lanes::{elem_of, lane_bytes, ElemLanes, LaneBytes, BLOCK_BITS};
pub use scatter::{scatter_block, unplace_bytes, BlockUnplace, ZvcxScatter, SCATTER_PORTS};
