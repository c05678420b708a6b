//! [`PopCount`]: the number of set bits of a vector, as one adder expression over
//! zero-extended bits (every operand `Y` bits wide, `verilator -Wall` clean), with a Rust model
//! for rust-hdl's simulator.
//!
//! Two sites use it, each with the adder form it had before the two popcounts became one:
//! the AXI write master's strobe count ([`StrobeCount`], a balanced tree) and `ChunkScan`'s
//! lane count ([`PopCount32`], a flat sum). Both compute the same function; the form is a
//! parameter only so that each site's Verilog (and its synthesis baseline) stays unchanged.

use rust_hdl::core::prelude::*;

/// Number of set bits of `x` (`N` bits) as a `Y`-bit sum (`N < 2^Y`); the Verilog is a
/// balanced adder tree if `TREE`, else a flat left-to-right sum.
#[derive(LogicBlock, Default)]
pub struct PopCount<const N: usize, const Y: usize, const TREE: bool> {
    /// The bits to count.
    pub x: Signal<In, Bits<N>>,
    /// How many of them are set.
    pub y: Signal<Out, Bits<Y>>,
}

/// The strobed bytes of a W beat (`N ≤ 255` strobes, 8-bit count, balanced tree).
pub type StrobeCount<const N: usize> = PopCount<N, 8, true>;

/// Population count of a 32-bit vector (0..=32, 6 bits, flat sum).
pub type PopCount32 = PopCount<32, 6, false>;

impl<const N: usize, const Y: usize, const TREE: bool> Logic for PopCount<N, Y, TREE> {
    fn update(&mut self) {
        let n = (0..N).filter(|&i| self.x.val().get_bit(i)).count();
        self.y.next = (n as u64).into();
    }
    fn connect(&mut self) {
        assert!(N < 1 << Y, "PopCount: N must fit Y bits");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let bit = |i: usize| format!("{{{}'d0, x[{i}]}}", Y - 1);
        fn tree(lo: usize, hi: usize, bit: &dyn Fn(usize) -> String) -> String {
            if hi - lo == 1 {
                bit(lo)
            } else {
                let mid = (lo + hi) / 2;
                format!("({} + {})", tree(lo, mid, bit), tree(mid, hi, bit))
            }
        }
        let sum = if TREE {
            tree(0, N, &bit)
        } else {
            (0..N).map(bit).collect::<Vec<_>>().join(" + ")
        };
        Verilog::Custom(format!("always @(*) y = {sum};"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::settle;

    #[test]
    fn popcount_counts() {
        let mut uut = PopCount32::default();
        uut.connect_all();
        for x in [0u64, 1, 0x8000_0001, 0xFFFF_FFFF, 0x1234_5678] {
            uut.x.next = x.into();
            settle(&mut uut);
            assert_eq!(uut.y.val().to_u64(), u64::from((x as u32).count_ones()));
        }
    }

    #[test]
    fn popcount32_emits_a_flat_width_clean_sum() {
        let Verilog::Custom(text) = PopCount::<3, 2, false>::default().hdl() else {
            panic!("custom verilog expected")
        };
        assert_eq!(
            text,
            "always @(*) y = {1'd0, x[0]} + {1'd0, x[1]} + {1'd0, x[2]};"
        );
    }

    #[test]
    fn popcount_counts_and_emits_a_balanced_width_clean_sum() {
        let mut uut = StrobeCount::<5>::default();
        uut.connect_all();
        uut.x.next = 0b10110u64.into();
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.y.val().to_u64(), 3);
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom verilog expected")
        };
        assert_eq!(
            text,
            "always @(*) y = (({7'd0, x[0]} + {7'd0, x[1]}) + ({7'd0, x[2]} + ({7'd0, x[3]} + {7'd0, x[4]})));"
        );
    }
}
