//! Wiring blocks that rust-hdl's `#[hdl_gen]` cannot express cleanly: zero-extension and
//! lane-mask replication. Both are pure wiring (no logic), emitted as Verilog concatenations;
//! their `update` does the same in Rust for the simulator.
//!
//! * [`ZeroExtend`]: rust-hdl's `bit_cast` widening is emitted as `(x & N'hff…)`, correct but
//!   a `verilator -Wall` WIDTH warning (an AND of a narrow and a wide operand); `{pad, x}` is
//!   width-clean.
//! * [`LaneMask`]: turning a per-lane flag vector into a bus mask (`E` copies of flag `i` in
//!   lane `i`) in `#[hdl_gen]` takes one conditional OR of the whole bus per lane, which Yosys
//!   elaborates into `lanes × width` multiplexers before optimising them away (minutes and
//!   gigabytes for E = 32); a replication concatenation is free.

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

/// Expands a flag vector into a lane mask: `y[i*E +: E] = {E{v[i]}}` for `i < N`, `W = N·E`.
#[derive(LogicBlock, Default)]
pub struct LaneMask<const N: usize, const E: usize, const W: usize> {
    /// One flag per lane.
    pub v: Signal<In, Bits<N>>,
    /// Lane `i` all ones iff `v[i]`.
    pub y: Signal<Out, Bits<W>>,
}

impl<const N: usize, const E: usize, const W: usize> Logic for LaneMask<N, E, W> {
    fn update(&mut self) {
        let lane: Bits<W> = Bits::<W>::mask() >> ((W - E) as u64);
        let mut y = Bits::<W>::default();
        for i in 0..N {
            if self.v.val().get_bit(i) {
                y = y | (lane << ((i * E) as u64));
            }
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        assert_eq!(N * E, W, "LaneMask: W must be N*E");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let parts = (0..N)
            .rev()
            .map(|i| format!("{{{E}{{v[{i}]}}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        Verilog::Custom(format!("always @(*) y = {{{parts}}};"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_mask_replicates_each_flag() {
        let mut uut = LaneMask::<4, 8, 32>::default();
        uut.connect_all();
        uut.v.next = 0b1010u64.into();
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.y.val().to_u64(), 0xFF00_FF00);
        let v = uut.hdl();
        let Verilog::Custom(text) = v else {
            panic!("custom verilog expected")
        };
        assert_eq!(
            text,
            "always @(*) y = {{8{v[3]}}, {8{v[2]}}, {8{v[1]}}, {8{v[0]}}};"
        );
    }

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
