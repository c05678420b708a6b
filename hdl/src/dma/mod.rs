//! The DMA engine's blocks (docs/ARCHITECTURE.md, "DMA engine").
//!
//! * [`axi_read`]: `AxiReadMaster` (request → INCR read bursts, beats out in order).
//! * [`axi_write`]: `AxiWriteMaster` (stream → store-and-forward INCR write bursts).
//! * [`csr`]: `CsrBlock` (AXI4-Lite slave with the `cdma_spec::csr` register map).
//! * [`controller`]: the frontend + midend (descriptor fetch and checks, sequencing of the
//!   masters and the datapath, the chunk index streamed (COMPRESS: written between payload
//!   beats; DECOMPRESS: read window by window), header write, status write-back,
//!   chaining, CSR status and IRQ, errors and abort).
//! * [`check`]: the controller's register-free checkers (descriptor, frame header).
//! * [`header`]: the frame header packer (COMPRESS), generated from `cdma_spec::frame`.
//! * [`chunk_scan`]: `ChunkScan`, per-chunk ZVC size and raw/ZVC decision (COMPRESS).
//! * [`chunk_fifo`]: `ChunkFifo`, a RAM FIFO of source beats (two chunks).
//! * [`datapath`]: the payload datapath (source framing, COMPRESS / DECOMPRESS / COPY paths).
//! * [`top`]: `DmaTop`, the engine (`cdma_dma_top`, `cdma_dma_dw256`, `cdma_dma_dw512`).
//! * [`params`]: the engine's generation parameters ([`ENGINE_CHUNK_LOG2_MAX`], [`IDX_WIN_LOG2`],
//!   [`BUS_WIDTHS`]).
//! * `blocks`: every block emitted standalone ([`standalone_blocks`], [`datapath_blocks`]).
//!
//! The hand-written Verilog primitives they use (lane masks, popcount, …) are in
//! [`crate::prims`].
//!
//! Every field offset, bit position, code and magic comes from `cdma-spec`; [`params`] holds
//! the engine's own generation parameters.
//!
//! Each block is generated per data-bus width `DW` ∈ {128, 256, 512, 1024} (`…Dw128`, …) by
//! a macro, and runs every element width the engine was generated for, chosen per descriptor
//! (`elem`). [`standalone_blocks`] emits each one as its own Verilog top
//! (module `cdma_dma_<block>[_dw<DW>]`) for the lint test; the engine top (`cdma_dma_top`)
//! instantiates them.

pub mod axi_read;
pub mod axi_write;
mod blocks;
pub mod check;
pub mod chunk_fifo;
pub mod chunk_scan;
pub mod controller;
pub mod crc_path;
#[cfg(test)]
mod crc_path_tests;
pub mod csr;
pub mod datapath;
#[cfg(test)]
mod datapath_tests;
pub mod header;
pub mod params;
pub mod top;
pub mod zvcx_dec;
#[cfg(test)]
mod zvcx_dec_tests;
pub mod zvcx_enc;
#[cfg(test)]
mod zvcx_enc_tests;
pub mod zvcx_off;

pub use axi_read::{
    AxiReadMasterDw1024, AxiReadMasterDw128, AxiReadMasterDw256, AxiReadMasterDw512, AXI_READ_PORTS,
};
pub use axi_write::{
    AxiWriteMasterDw1024, AxiWriteMasterDw128, AxiWriteMasterDw256, AxiWriteMasterDw512,
    AXI_WRITE_PORTS,
};
pub use controller::{
    controller_top, ControllerDw1024, ControllerDw128, ControllerDw256, ControllerDw512,
    CONTROLLER_PORTS,
};
pub use csr::{CsrBlock, HwCfg, CSR_PORTS};
pub use top::{
    dma_top, dma_top_with, DmaTopDw1024, DmaTopDw128, DmaTopDw256, DmaTopDw512, DmaTopZxDw1024,
    DmaTopZxDw128, DmaTopZxDw256, DmaTopZxDw512, DMA_TOP_PORTS,
};

pub use crate::emit::StandaloneBlock;
pub use blocks::{datapath_blocks, standalone_blocks};
pub use params::{BUS_WIDTHS, ENGINE_CHUNK_LOG2_MAX, IDX_WIN_LOG2};
