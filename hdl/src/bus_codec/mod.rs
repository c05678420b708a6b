//! The bus codec: ZVC compression and decompression on bus beats of bytes, one datapath for
//! every element width (docs/ARCHITECTURE.md, "Bus codec").
//!
//! A beat of `N` bytes is laid out as `L = N + 4·max(1, N/32)` byte lanes, the block masks as
//! always-kept lanes in front of their blocks, a byte kept iff its element is non-zero, so one
//! compaction network ([`crate::prims::ByteCompact`]) and one packer serve 8-, 16- and 32-bit
//! elements alike, blocks that fit in a beat and blocks that span several beats.
//!
//! * [`ElemFlags`], [`Low32`]: the element flags (masks) of a beat.
//! * [`BeatLanes`]: the lane layout with its keep flags.
//! * [`PackerDatapath`]: the packer's wide half.
//! * `ZvcBusCompressor…` (compressor.rs): the compressor, one type per bus width.

mod beat_lanes;
mod compressor;
mod elem_flags;
mod packer_dp;
#[cfg(test)]
mod tests;

pub use beat_lanes::BeatLanes;
pub use compressor::{
    ZvcBusCompressorDw1024, ZvcBusCompressorDw128, ZvcBusCompressorDw256, ZvcBusCompressorDw512,
    BUS_COMPRESSOR_PORTS,
};
pub use elem_flags::{ElemFlags, Low32};
pub use packer_dp::PackerDatapath;

use crate::emit::{standalone_block, StandaloneBlock};

/// Bus widths (bits) the bus codec is generated for.
pub const BUS_CODEC_WIDTHS: [usize; 4] = [128, 256, 512, 1024];

/// The bus compressor for `dw` bits emitted standalone as `cdma_zvc_bus_compressor_dw{dw}`.
///
/// # Panics
/// For a width not in [`BUS_CODEC_WIDTHS`].
pub fn compressor_block(dw: usize) -> StandaloneBlock {
    let module = format!("cdma_zvc_bus_compressor_dw{dw}");
    match dw {
        128 => standalone_block(
            ZvcBusCompressorDw128::default(),
            &module,
            &BUS_COMPRESSOR_PORTS,
        ),
        256 => standalone_block(
            ZvcBusCompressorDw256::default(),
            &module,
            &BUS_COMPRESSOR_PORTS,
        ),
        512 => standalone_block(
            ZvcBusCompressorDw512::default(),
            &module,
            &BUS_COMPRESSOR_PORTS,
        ),
        1024 => standalone_block(
            ZvcBusCompressorDw1024::default(),
            &module,
            &BUS_COMPRESSOR_PORTS,
        ),
        other => panic!("cdma-hdl: no bus codec for a {other}-bit bus (have {BUS_CODEC_WIDTHS:?})"),
    }
}
