//! CRC32C at line rate (docs/FORMAT.md "Version 4: CRC32C"): [`Crc32cBeat`] takes one bus
//! beat per cycle at every bus width, from the algebra in [`math`].
//!
//! * [`math`]: the reflected CRC32C update as GF(2) matrices (a whole beat; the inverse of
//!   zero bytes), computed when a block is built.
//! * [`Crc32cBeat`] (Verilog `cdma_crc32c_dw{DW}` when emitted alone): the beat unit and its
//!   tail, which takes a partial last beat's padding back.
//! * [`Crc32cStep8`]: 8 bytes in one combinational step (the controller's metadata CRC).

pub mod math;

mod beat;
mod step;
#[cfg(test)]
mod tests;

pub use beat::{
    latency_max, Crc32cBeat, Crc32cBeatDw1024, Crc32cBeatDw128, Crc32cBeatDw256, Crc32cBeatDw512,
    WIDE_STEP,
};
pub use step::{Crc32cStep8, STEP_BYTES};

use crate::emit::{standalone_block, StandaloneBlock};
use crate::port_docs::PortDocs;

/// Port documentation of [`Crc32cBeat`], from its doc comments.
pub static CRC_PORTS: PortDocs = PortDocs::new(include_str!("beat.rs"), "Crc32cBeat");

/// The CRC unit of a `dw`-bit bus emitted standalone as `cdma_crc32c_dw{dw}`.
///
/// # Panics
/// For a width other than 128, 256, 512 or 1024.
pub fn crc_block(dw: usize) -> StandaloneBlock {
    let module = format!("cdma_crc32c_dw{dw}");
    match dw {
        128 => standalone_block(Crc32cBeatDw128::default(), &module, &CRC_PORTS),
        256 => standalone_block(Crc32cBeatDw256::default(), &module, &CRC_PORTS),
        512 => standalone_block(Crc32cBeatDw512::default(), &module, &CRC_PORTS),
        1024 => standalone_block(Crc32cBeatDw1024::default(), &module, &CRC_PORTS),
        other => panic!("cdma-hdl: unsupported bus width {other} bits"),
    }
}
