//! [`Mux2`]: a 2:1 multiplexer as its own block.
//!
//! Choosing between two child outputs inside a block's `#[hdl_gen]` body (a local assigned in
//! an `if`) and feeding the result to another child can keep Verilator from splitting that
//! body, which it then reports as a combinational loop through the children (UNOPTFLAT);
//! the same choice as a block is one plain assignment.

use rust_hdl::core::prelude::*;

/// `y = sel ? a : b`.
#[derive(LogicBlock, Default)]
pub struct Mux2<const W: usize> {
    /// Select `a`.
    pub sel: Signal<In, Bit>,
    /// The value when `sel`.
    pub a: Signal<In, Bits<W>>,
    /// The value otherwise.
    pub b: Signal<In, Bits<W>>,
    /// The chosen value.
    pub y: Signal<Out, Bits<W>>,
}

impl<const W: usize> Logic for Mux2<W> {
    fn update(&mut self) {
        self.y.next = if self.sel.val() {
            self.a.val()
        } else {
            self.b.val()
        };
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom("always @(*) y = sel ? a : b;".into())
    }
}
