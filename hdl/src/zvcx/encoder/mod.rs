//! The ZVC-X block compressor ([`ZvcxCompressor`], Verilog `cdma_zvcx_compressor`): one
//! 32-element block per cycle, bit-exact with `cdma_model::zvcx::encode`
//! (docs/ARCHITECTURE.md, "ZVC-X encoder").
//!
//! * [`Analyze`] (stage 1), [`Head`] and [`Fields`] (stage 2, with the compaction network and
//!   `prims::StridePack`), [`Assemble`], [`Packer`] (stage 3): the Verilog leaves, each with
//!   its Rust model (`update()`);
//! * [`Info`]: the analysis bus between stages 1 and 2;
//! * `codes`: the spec's code tables as the leaves need them; `words`: wide-vector helpers.

mod analyze;
mod assemble;
mod codes;
mod fields;
mod head;
mod info;
mod packer;
mod top;
mod words;

#[cfg(test)]
mod tests;

pub use analyze::Analyze;
pub use assemble::{Assemble, BLOCK_BITS};
pub use fields::Fields;
pub use head::{Head, HEAD_BITS};
pub use info::{Info, INFO_BITS};
pub use packer::Packer;
pub use top::{ZvcxCompressor, ZVCX_COMPRESSOR_PORTS};
