//! [`Join`]: a concatenation `{hi, lo}`.

use rust_hdl::core::prelude::*;

/// Concatenates two vectors: `y = {hi, lo}` (`W = A + B`), pure wiring. In `#[hdl_gen]` this
/// takes two zero-extensions, a shift and an OR of the full width.
#[derive(LogicBlock, Default)]
pub struct Join<const A: usize, const B: usize, const W: usize> {
    /// Low part (bits `0..A`).
    pub lo: Signal<In, Bits<A>>,
    /// High part (bits `A..A+B`).
    pub hi: Signal<In, Bits<B>>,
    /// `{hi, lo}`.
    pub y: Signal<Out, Bits<W>>,
}

impl<const A: usize, const B: usize, const W: usize> Logic for Join<A, B, W> {
    fn update(&mut self) {
        self.y.next =
            bit_cast::<W, A>(self.lo.val()) | (bit_cast::<W, B>(self.hi.val()) << (A as u64));
    }
    fn connect(&mut self) {
        assert_eq!(A + B, W, "Join: W must be A+B");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom("always @(*) y = {hi, lo};".into())
    }
}
