//! [`BlockGeom`]: how a 32-element block lies on an `N`-byte bus for the element width of a
//! stream, shared by the bus compressor and decompressor.

use rust_hdl::core::prelude::*;

use super::elem_flags::elem_bytes;

/// Beats per block `k` of an `n`-byte bus for element width code `elem` (1 when a block fits
/// in a beat), and the elements per beat when `k > 1` (else 0).
pub(crate) fn geometry(n: usize, elem: u64) -> (usize, usize) {
    let eb = elem_bytes(elem);
    let k = (32 * eb / n).max(1);
    (k, if k > 1 { n / eb } else { 0 })
}

/// The element width codes (bit `e`, code 3 as 2) at which an `n`-byte beat holds more than
/// one block (the bus decompressor then counts the bytes a beat uses from its kept lanes, not
/// from registers).
pub(crate) fn slow_elems(n: usize) -> u64 {
    (0..4u64)
        .filter(|&e| n / elem_bytes(e) > 32)
        .map(|e| 1 << e)
        .sum()
}

/// The block geometry of an `N`-byte bus for the stream's element width.
#[derive(LogicBlock, Default)]
pub struct BlockGeom<const N: usize> {
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; 3 as 32).
    pub elem: Signal<In, Bits<2>>,
    /// Beats per block minus one (`k - 1`; 0 when a block fits in a beat).
    pub km1: Signal<Out, Bits<3>>,
    /// Elements per beat when a block spans several beats (the mask bits a beat covers),
    /// else 0.
    pub g: Signal<Out, Bits<5>>,
}

impl<const N: usize> Logic for BlockGeom<N> {
    fn update(&mut self) {
        let (k, g) = geometry(N, self.elem.val().to_u64());
        self.km1.next = ((k - 1) as u64).into();
        self.g.next = (g as u64).into();
    }
    fn connect(&mut self) {
        assert!(
            (16..=128).contains(&N) && N.is_power_of_two(),
            "BlockGeom: N in 16..=128"
        );
        self.km1.connect();
        self.g.connect();
    }
    fn hdl(&self) -> Verilog {
        let pick = |f: &dyn Fn(usize, usize) -> usize, bits: usize| {
            let v: Vec<usize> = (0..3)
                .map(|e| {
                    let (k, g) = geometry(N, e);
                    f(k, g)
                })
                .collect();
            format!(
                "elem[1] ? {bits}'d{} : elem[0] ? {bits}'d{} : {bits}'d{}",
                v[2], v[1], v[0]
            )
        };
        Verilog::Custom(format!(
            "always @(*) km1 = {};\nalways @(*) g = {};\n",
            pick(&|k, _| k - 1, 3),
            pick(&|_, g| g, 5)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_over_beats_and_elements_per_beat() {
        assert_eq!(geometry(16, 2), (8, 4));
        assert_eq!(geometry(16, 0), (2, 16));
        assert_eq!(geometry(32, 1), (2, 16));
        assert_eq!(geometry(64, 2), (2, 16));
        assert_eq!(geometry(128, 2), (1, 0));
        assert_eq!(geometry(128, 0), (1, 0));
    }
}
