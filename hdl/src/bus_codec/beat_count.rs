//! [`BeatCount`]: the bytes of the next output beat of a chunk, `min(N, remaining)`.
//!
//! A block of its own (not a local of the decompressor's body) so that the decompressor's
//! combinational children read it, not a local shared with the logic that reads their
//! outputs: that sharing keeps Verilator from splitting the body and it reports a loop.

use rust_hdl::core::prelude::*;

/// `y = min(N, x)` for an `N`-byte bus (`N` ≤ 128).
#[derive(LogicBlock, Default)]
pub struct BeatCount<const N: usize> {
    /// Bytes remaining.
    pub x: Signal<In, Bits<32>>,
    /// Bytes of the next beat.
    pub y: Signal<Out, Bits<8>>,
}

impl<const N: usize> Logic for BeatCount<N> {
    fn update(&mut self) {
        self.y.next = (self.x.val().to_u64().min(N as u64)).into();
    }
    fn connect(&mut self) {
        assert!(N <= 128, "BeatCount: N <= 128");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "always @(*) y = (x >= 32'd{N}) ? 8'd{N} : x[7:0];\n\
             wire unused_ok = &{{1'b0, x[31:8]}};\n"
        ))
    }
}
