//! `ZeroExtend`: zero-extension of a bit vector, emitted as a Verilog concatenation.
//!
//! Why a block of its own: rust-hdl's `bit_cast` widening is emitted as `(x & N'hff…)`, which
//! is correct Verilog but trips `verilator -Wall` WIDTH (an AND of a narrow and a wide
//! operand). A concatenation `{pad, x}` says the same thing and is width-clean, so every
//! widening in the datapath goes through this block instead of `bit_cast`.

use rust_hdl::core::prelude::*;

/// Zero-extends `x` (N bits) to `y` (M bits, M > N): `y = {(M-N)'d0, x}`.
#[derive(LogicBlock, Default)]
pub struct ZeroExtend<const N: usize, const M: usize> {
    /// Narrow input.
    pub x: Signal<In, Bits<N>>,
    /// `x` zero-extended to M bits.
    pub y: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for ZeroExtend<N, M> {
    fn update(&mut self) {
        self.y.next = bit_cast::<M, N>(self.x.val());
    }
    fn connect(&mut self) {
        assert!(M > N, "ZeroExtend must widen ({N} -> {M})");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("always @(*) y = {{{}'d0, x}};", M - N))
    }
}
