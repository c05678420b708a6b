//! [`LaneAny`]: the ZVC mask of a block, one reduction per lane on constant part-selects so
//! that Verilator evaluates word operations (see docs/PERFORMANCE.md, "Verilator bridge").

use rust_hdl::core::prelude::*;

/// Per-lane non-zero flags: `y[i] = |x[i*E +: E]` for the 32 lanes of a block (`W = 32·E`),
/// the block's ZVC mask. One reduction per constant part-select (a `#[hdl_gen]` loop can
/// only build it from shifted masks of the whole bus or width-mismatched bit inserts).
#[derive(LogicBlock, Default)]
pub struct LaneAny<const E: usize, const W: usize> {
    /// The block, element `i` in lane `i`.
    pub x: Signal<In, Bits<W>>,
    /// Bit `i` set iff lane `i` is non-zero.
    pub y: Signal<Out, Bits<32>>,
}

impl<const E: usize, const W: usize> Logic for LaneAny<E, W> {
    fn update(&mut self) {
        let mut y = Bits::<32>::default();
        for i in 0..32 {
            if self.x.val().get_bits::<E>(i * E).any() {
                y = y | (Bits::<32>::from(1u64) << (i as u64));
            }
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        assert_eq!(32 * E, W, "LaneAny: W must be 32*E");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let parts = (0..32)
            .rev()
            .map(|i| format!("|x[{}:{}]", i * E + E - 1, i * E))
            .collect::<Vec<_>>()
            .join(", ");
        Verilog::Custom(format!("always @(*) y = {{{parts}}};"))
    }
}
