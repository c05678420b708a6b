//! [`ByteKeep`]: a beat with the bytes from lane `n` on cleared.

use rust_hdl::core::prelude::*;

/// `y` = `x` with byte lanes `n..N` zero (`W = 8·N`; `n ≥ N` keeps every lane). One compare
/// per lane on a constant part-select, as the lane masks of [`super::Thermo`], with an 8-bit
/// count so that a 128-byte beat can be kept whole.
#[derive(LogicBlock, Default)]
pub struct ByteKeep<const N: usize, const W: usize> {
    /// The beat, byte `j` at bits `8j..8j+8`.
    pub x: Signal<In, Bits<W>>,
    /// Bytes to keep, from lane 0.
    pub n: Signal<In, Bits<8>>,
    /// The kept bytes, zeros above them.
    pub y: Signal<Out, Bits<W>>,
}

impl<const N: usize, const W: usize> Logic for ByteKeep<N, W> {
    fn update(&mut self) {
        let n = (self.n.val().to_u64() as usize).min(N);
        self.y.next = if n == 0 {
            Bits::<W>::default()
        } else {
            self.x.val() & (Bits::<W>::mask() >> ((W - 8 * n) as u64))
        };
    }
    fn connect(&mut self) {
        assert_eq!(8 * N, W, "ByteKeep: W must be 8*N");
        assert!(N < 256, "ByteKeep: n is 8 bits");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let body: String = (0..N)
            .map(|j| {
                format!(
                    "  y[{} +: 8] = n > 8'd{j} ? x[{} +: 8] : 8'd0;\n",
                    8 * j,
                    8 * j
                )
            })
            .collect();
        Verilog::Custom(format!("always @(*) begin\n{body}end"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::settle;

    #[test]
    fn keeps_the_leading_bytes() {
        let mut uut = ByteKeep::<4, 32>::default();
        uut.connect_all();
        uut.x.next = 0xAABB_CCDDu64.into();
        for (n, want) in [
            (0u64, 0u64),
            (1, 0xDD),
            (3, 0xBB_CCDD),
            (4, 0xAABB_CCDD),
            (200, 0xAABB_CCDD),
        ] {
            uut.n.next = n.into();
            settle(&mut uut);
            assert_eq!(uut.y.val().to_u64(), want, "n = {n}");
        }
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom Verilog expected")
        };
        assert!(
            text.contains("y[24 +: 8] = n > 8'd3 ? x[24 +: 8] : 8'd0;"),
            "{text}"
        );
    }
}
