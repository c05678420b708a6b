//! [`ZeroExtend`]: `{pad, x}`. rust-hdl's `bit_cast` widening is emitted as `(x & N'hff…)`,
//! correct but a `verilator -Wall` WIDTH warning (an AND of a narrow and a wide operand);
//! `{pad, x}` is width-clean.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_extend_pads_with_zeros() {
        let mut uut = ZeroExtend::<8, 12>::default();
        uut.connect_all();
        uut.x.next = 0xA5u64.into();
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.y.val().to_u64(), 0xA5);
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom verilog expected")
        };
        assert_eq!(text, "always @(*) y = {4'd0, x};");
    }
}
