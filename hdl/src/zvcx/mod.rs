//! ZVC-X in hardware (docs/FORMAT.md, codec 2; docs/ARCHITECTURE.md, "ZVC-X codec"): the
//! block encoder and decoder at one 32-element block per cycle for every element type, and
//! what they share.
//!
//! * [`ElemParams`]: the element type's widths, from the spec's table.
//! * [`encoder`]: the block compressor [`ZvcxCompressor`] (`cdma_zvcx_compressor`).

mod elem_params;
pub mod encoder;

pub use elem_params::{params_of, ElemParams};
pub use encoder::{ZvcxCompressor, ZVCX_COMPRESSOR_PORTS};
