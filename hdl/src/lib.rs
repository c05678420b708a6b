//! cdma RTL written with rust-hdl: the ZVC compressor and decompressor, the DMA engine, and
//! their Verilog emission ([`tops()`], [`dma_tops`], [`all_tops`] in [`mod@tops`]; renaming,
//! file header and port lists in [`emit`]).
//!
//! The blocks are generated for three element widths by macros (`…E8`, `…E16`, `…E32`)
//! because stable Rust has no const-generic width arithmetic (`P·E`, `2P·E`).

#![warn(missing_docs)]

pub mod bus_codec;
pub mod compressor;
pub mod crc;
pub mod decompressor;
pub mod dma;
pub mod emit;
pub mod ip;
pub mod port_docs;
pub mod prims;
pub mod steer;
pub mod tops;
pub mod zvcx;

#[cfg(test)]
mod testutil;

pub use compressor::{ZvcCompressorE16, ZvcCompressorE32, ZvcCompressorE8, COMPRESSOR_PORTS};
pub use decompressor::{
    ZvcDecompressorE16, ZvcDecompressorE32, ZvcDecompressorE8, DECOMPRESSOR_PORTS,
};
pub use emit::{Dir, Port, Top};
pub use tops::{
    all_tops, dma_tops, packed_lanes, tops, zvc_elem_bits, zvcx_tops, COUNT_BITS, ELEM_WIDTHS,
    ZVC_LOOP_PATH,
};
