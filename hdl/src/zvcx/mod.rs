//! ZVC-X in hardware (docs/FORMAT.md, codec 2; docs/ARCHITECTURE.md, "ZVC-X codec"): the
//! block encoder and decoder at one 32-element block per cycle for every element type, and
//! what they share.
//!
//! * [`ElemParams`]: the element type's widths, from the spec's table.
//! * [`ElemLanes`]: a block's bytes as 32 zero-extended element lanes.
//! * [`ZvcxGather`]: bus beats of a chunk as blocks, one per cycle.

mod elem_params;
mod gather;
#[cfg(test)]
mod gather_tests;
mod lanes;

pub use elem_params::{params_of, ElemParams};
pub use gather::{gather_block, place_bytes, BlockPlace, ZvcxGather, GATHER_PORTS};
pub use lanes::{elem_of, ElemLanes, BLOCK_BITS};
