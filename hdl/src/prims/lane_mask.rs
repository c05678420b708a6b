//! [`LaneMask`]: a per-lane flag vector as a bus mask (`E` copies of flag `i` in lane `i`).
//! In `#[hdl_gen]` this takes one conditional OR of the whole bus per lane, which Yosys
//! elaborates into `lanes × width` multiplexers before optimising them away (minutes and
//! gigabytes for E = 32); a replication concatenation is free.

use rust_hdl::core::prelude::*;

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

/// Lane vector of a network stage ([`super::Compact`], [`super::Expand`]): `E` copies of flag `i` in lane `i` (the Rust model of `{E{v[i]}}`).
pub(super) fn lanes<const E: usize, const W: usize>(v: Bits<32>) -> Bits<W> {
    let lane: Bits<W> = Bits::<W>::mask() >> ((W - E) as u64);
    let mut y = Bits::<W>::default();
    for i in 0..W / E {
        if v.get_bit(i) {
            y = y | (lane << ((i * E) as u64));
        }
    }
    y
}

/// `{{E{keep[31]}}, …, {E{keep[0]}}}`: the Verilog lane mask of the 32-bit `keep`
/// flags ([`super::Compact`], [`super::Expand`]).
pub(super) fn replicate(e: usize) -> String {
    let parts = (0..32)
        .rev()
        .map(|i| format!("{{{e}{{keep[{i}]}}}}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{{{parts}}}")
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
}
