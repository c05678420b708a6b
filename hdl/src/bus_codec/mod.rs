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
//! * [`MaskChain`], [`LaneKeep`], [`SlotDrop`], [`Widen32`], [`UnpackDatapath`],
//!   [`HeadCount`], [`CountPick`], [`PastEnd`]: the decompressor's block masks, keep flags,
//!   output bytes, input buffer, the first-beat byte counts (counted a cycle ahead, then
//!   picked) and the rule 17b check.
//! * `ZvcBusCompressor…` (compressor.rs) and `ZvcBusDecompressor…` (decompressor.rs): the
//!   codec, one type per bus width.

mod beat_count;
mod beat_lanes;
mod block_geom;
mod compressor;
mod decompressor;
#[cfg(test)]
mod decompressor_tests;
mod elem_flags;
mod head_count;
mod mask_chain;
mod packer_dp;
mod past_end;
#[cfg(test)]
mod tests;
mod unpack_dp;

pub use beat_count::BeatCount;
pub use beat_lanes::{BeatLanes, LaneKeep, SlotDrop};
pub use block_geom::BlockGeom;
pub use compressor::{
    ZvcBusCompressorDw1024, ZvcBusCompressorDw128, ZvcBusCompressorDw256, ZvcBusCompressorDw512,
    BUS_COMPRESSOR_PORTS,
};
pub use decompressor::{
    ZvcBusDecompressorDw1024, ZvcBusDecompressorDw128, ZvcBusDecompressorDw256,
    ZvcBusDecompressorDw512, BUS_DECOMPRESSOR_PORTS,
};
pub use elem_flags::{ElemFlags, Low32, Widen32};
pub use head_count::{CountPick, HeadCount};
pub use mask_chain::MaskChain;
pub use packer_dp::PackerDatapath;
pub use past_end::PastEnd;
pub use unpack_dp::UnpackDatapath;

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

/// The bus decompressor for `dw` bits emitted standalone as
/// `cdma_zvc_bus_decompressor_dw{dw}`.
///
/// # Panics
/// For a width not in [`BUS_CODEC_WIDTHS`].
pub fn decompressor_block(dw: usize) -> StandaloneBlock {
    let module = format!("cdma_zvc_bus_decompressor_dw{dw}");
    let ports = &BUS_DECOMPRESSOR_PORTS;
    match dw {
        128 => standalone_block(ZvcBusDecompressorDw128::default(), &module, ports),
        256 => standalone_block(ZvcBusDecompressorDw256::default(), &module, ports),
        512 => standalone_block(ZvcBusDecompressorDw512::default(), &module, ports),
        1024 => standalone_block(ZvcBusDecompressorDw1024::default(), &module, ports),
        other => panic!("cdma-hdl: no bus codec for a {other}-bit bus (have {BUS_CODEC_WIDTHS:?})"),
    }
}
