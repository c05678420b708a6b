//! The ZVC-X block decoder, `ZvcxDecompressor` (Verilog `cdma_zvcx_decompressor`): payload
//! words in, one 32-element block per cycle out, every rule of docs/FORMAT.md checked
//! (docs/ARCHITECTURE.md, "ZVC-X decoder").
//!
//! * [`tables`]: what the Verilog bodies take from `cdma_spec::zvcx` (prefix codes as
//!   `casez` tables, field sizes, the header bus layout, the longest header and block).
//! * [`hdr`]: the header bus between the stages, and the element parameters.
//! * [`scan`]: the length scanner, the decoder's one loop per cycle.
//! * [`bitbuf`]: the bit buffer's next value (drop the block, append a word).
//! * [`unpack`]: positions, repeat flags, fields, exponents, escapes, the in-block checks.
//! * [`top`]: the block itself: buffer, stage 1, output register, handshakes, chunk rules.
//!
//! The scanner, buffer and unpack bodies are hand-written Verilog generated from the spec's
//! tables, each with a Rust `update()` computing the same function for rust-hdl's simulator
//! (checked against each other under Verilator by the tests' `verilog_check` run).

pub mod bitbuf;
pub mod hdr;
pub mod scan;
pub mod tables;
pub mod top;
pub mod unpack;

#[cfg(test)]
mod tests;

pub use top::{ZvcxDecompressor, DECOMPRESSOR_PORTS};
