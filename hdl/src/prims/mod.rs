//! The hand-written Verilog primitives: small blocks that rust-hdl's `#[hdl_gen]` cannot
//! express cleanly or cheaply, each with a hand-written Verilog body (`hdl()`) and a Rust
//! `update` computing the same function for rust-hdl's simulator, one per file. The rust-hdl
//! unit tests exercise the Rust side; the Verilog side is checked by the Verilator
//! regression (tb/) against the golden model and, in the tests of the DMA blocks that use
//! them, by `verilog_check` (a block's emitted Verilog replayed in Verilator against its
//! rust-hdl simulation, cycle by cycle).
//!
//! * [`ZeroExtend`]: `{pad, x}` (rust-hdl's `bit_cast` widening is not `-Wall` clean).
//! * [`LaneMask`], [`Thermo`]: lane masks from per-lane flags or from a lane count.
//! * [`Join`]: a concatenation `{hi, lo}`.
//! * [`LaneAny`], [`Compact`], [`Expand`], [`EnReg`]: the ZVC mask, the network's element
//!   movers and a wide enable register, written per lane on constant part-selects so that
//!   Verilator evaluates word operations (see docs/PERFORMANCE.md, "Verilator bridge").
//! * [`PopCount`]: the number of set bits of a vector.
//! * [`ZeroScan`], [`CompactStages`]: the pipelined compressor's zero-count scan and
//!   compaction network, each cut into sections for the pipeline registers between them.
//! * [`LaneRot`]: the compressor packer's lane rotation, cut into two sections.
//! * [`ByteCompact`], [`ByteExpand`]: the bus codec's compaction network over byte lanes,
//!   with its steering, and the same network run backwards.
//! * [`RegQueue`]: a small FIFO in flip-flops.
//! * [`BeatSlice`]: a register slice (skid buffer) between two blocks' beat handshakes, a
//!   two-entry [`RegQueue`] with its handshakes (no Verilog body of its own).
//! * [`Mux2`]: a 2:1 multiplexer between children (keeps Verilator's graph loop-free).
//! * [`StridePack`]: 32 lanes of `F` bits each packed back to back (the ZVC-X encoder's
//!   field packer, `F` chosen per block).
//! * [`XorMatrix`], [`ByteKeep`]: a constant GF(2) matrix (the CRC units' update) and a
//!   beat's leading bytes.
//!
//! The DMA's `ChunkFifo` and `HeaderPack` also have Verilog bodies but are engine blocks,
//! not primitives; they stay with the engine in `dma/`.

use rust_hdl::core::prelude::*;

mod beat_slice;
mod byte_compact;
mod byte_expand;
mod byte_keep;
mod compact;
mod compact_stages;
mod en_reg;
mod expand;
mod expand_stages;
mod join;
mod lane_any;
mod lane_mask;
mod lane_rot;
mod mux2;
mod popcount;
mod reg_queue;
mod ring4;
mod stride_pack;
mod thermo;
#[cfg(test)]
pub(crate) mod verilog_check;
mod xor_matrix;
mod zero_extend;
mod zero_scan;

pub use beat_slice::BeatSlice;
pub use byte_compact::ByteCompact;
pub use byte_expand::ByteExpand;
pub use byte_keep::ByteKeep;
pub use compact::Compact;
pub use compact_stages::CompactStages;
pub use en_reg::EnReg;
pub use expand::Expand;
pub use expand_stages::{ExpandStages, ExpandSteer};
pub use join::Join;
pub use lane_any::LaneAny;
pub use lane_mask::LaneMask;
pub use lane_rot::LaneRot;
pub use mux2::Mux2;
pub use popcount::{PopCount, PopCount32, StrobeCount};
pub use reg_queue::RegQueue;
pub use ring4::Ring4;
pub use stride_pack::StridePack;
pub use thermo::Thermo;
pub use xor_matrix::XorMatrix;
pub use zero_extend::ZeroExtend;
pub use zero_scan::ZeroScan;

/// The bytes of a vector, byte `j` = bits `[8j +: 8]` (simulation models of the byte-lane
/// primitives; 64 bits at a time, which is what makes the wide models fast enough).
pub(crate) fn bytes_of<const W: usize>(v: Bits<W>) -> Vec<u8> {
    let mut out = Vec::with_capacity(W / 8);
    let mut j = 0;
    while j + 64 <= W {
        out.extend_from_slice(&v.get_bits::<64>(j).to_u64().to_le_bytes());
        j += 64;
    }
    while j + 8 <= W {
        out.push(v.get_bits::<8>(j).to_u64() as u8);
        j += 8;
    }
    out
}

/// The vector of `bytes` (zero above them): the inverse of [`bytes_of`].
pub(crate) fn bits_of<const W: usize>(bytes: &[u8]) -> Bits<W> {
    let mut v = Bits::<W>::default();
    let mut j = 0;
    while j + 64 <= W && j / 8 + 8 <= bytes.len() {
        let w = u64::from_le_bytes(bytes[j / 8..j / 8 + 8].try_into().expect("8 bytes"));
        v.set_bits::<64>(j, w.into());
        j += 64;
    }
    while j + 8 <= W && j / 8 < bytes.len() {
        v.set_bits::<8>(j, (bytes[j / 8] as u64).into());
        j += 8;
    }
    v
}
