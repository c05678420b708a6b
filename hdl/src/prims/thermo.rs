//! [`Thermo`]: a thermometer lane mask from a lane count. `#[hdl_gen]` would need one
//! conditional OR of the whole vector per lane, or a variable shift of an all-ones word.

use rust_hdl::core::prelude::*;

/// Thermometer lane mask: `W = N·G` bits in `N` groups of `G`; group `i` is all ones iff
/// `i < n`, else zero (`n ≥ N` gives all ones).
#[derive(LogicBlock, Default)]
pub struct Thermo<const N: usize, const G: usize, const W: usize> {
    /// Number of leading groups to set.
    pub n: Signal<In, Bits<7>>,
    /// Groups `0..n` all ones.
    pub y: Signal<Out, Bits<W>>,
}

impl<const N: usize, const G: usize, const W: usize> Logic for Thermo<N, G, W> {
    fn update(&mut self) {
        let n = (self.n.val().to_u64() as usize).min(N);
        self.y.next = if n == 0 {
            Bits::<W>::default()
        } else {
            Bits::<W>::mask() >> ((W - n * G) as u64)
        };
    }
    fn connect(&mut self) {
        assert_eq!(N * G, W, "Thermo: W must be N*G");
        assert!(N < 128, "Thermo: n is 7 bits");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let parts = (0..N)
            .rev()
            .map(|i| format!("{{{G}{{n > 7'd{i}}}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        Verilog::Custom(format!("always @(*) y = {{{parts}}};"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::settle;

    #[test]
    fn thermo_sets_leading_groups() {
        let mut uut = Thermo::<4, 8, 32>::default();
        uut.connect_all();
        for (n, want) in [
            (0u64, 0u64),
            (1, 0xFF),
            (3, 0xFF_FFFF),
            (4, 0xFFFF_FFFF),
            (9, 0xFFFF_FFFF),
        ] {
            uut.n.next = n.into();
            settle(&mut uut);
            assert_eq!(uut.y.val().to_u64(), want, "n = {n}");
        }
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom verilog expected")
        };
        assert_eq!(
            text,
            "always @(*) y = {{8{n > 7'd3}}, {8{n > 7'd2}}, {8{n > 7'd1}}, {8{n > 7'd0}}};"
        );
    }
}
