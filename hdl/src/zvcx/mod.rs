//! ZVC-X in hardware (docs/FORMAT.md, codec 2; docs/ARCHITECTURE.md, "ZVC-X codec"): the
//! block encoder and decoder at one 32-element block per cycle for every element type, and
//! what they share.
//!
//! * [`ElemParams`]: the element type's widths, from the spec's table.
//! * [`decoder`]: the block decoder [`ZvcxDecompressor`].

pub mod decoder;
mod elem_params;

pub use decoder::ZvcxDecompressor;
pub use elem_params::{params_of, ElemParams};
