//! [`MaskChain`]: the masks of the blocks at the front of a compressed byte window, when the
//! blocks fit in a beat: block 0's mask is the window's first 4 bytes, block `i + 1`'s starts
//! `4 + popcount(mask_i)·E/8` bytes after block `i`'s.
//!
//! This chain is the decompressor's one serial dependency (a block's position depends on the
//! previous block's popcount); on an `N`-byte bus it is `S = N/32` steps long (E = 8; fewer
//! blocks per beat for wider elements use its first steps only).

use rust_hdl::core::prelude::*;

use super::elem_flags::elem_bytes;

/// The first `S = max(1, N/32)` block masks of a window of `L` bytes (`WL = 8·L`), packed:
/// block `i`'s mask in bits `[32i +: 32]` of `ef` (truncated to `N` bits; zero above `32·S`).
/// Masks past the blocks the window holds are garbage, and so is every mask of a block that
/// does not fit in the beat; the decompressor uses neither.
#[derive(LogicBlock, Default)]
pub struct MaskChain<const N: usize, const WL: usize> {
    /// The compressed window: byte `j` in bits `[8j +: 8]`, block 0 from byte 0.
    pub win: Signal<In, Bits<WL>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits).
    pub elem: Signal<In, Bits<2>>,
    /// The block masks, block `i` in bits `[32i +: 32]`.
    pub ef: Signal<Out, Bits<N>>,
}

/// Blocks the chain follows on an `n`-byte bus.
fn blocks(n: usize) -> usize {
    (n / 32).max(1)
}

impl<const N: usize, const WL: usize> Logic for MaskChain<N, WL> {
    fn update(&mut self) {
        let win = crate::prims::bytes_of(self.win.val());
        let eb = elem_bytes(self.elem.val().to_u64());
        let mut ef = Bits::<N>::default();
        let mut o = 0usize;
        for i in 0..blocks(N) {
            let mut m = 0u64;
            for b in 0..4 {
                if let Some(x) = win.get(o + b) {
                    m |= u64::from(*x) << (8 * b);
                }
            }
            for bit in 0..32 {
                if 32 * i + bit < N {
                    ef = ef.replace_bit(32 * i + bit, m >> bit & 1 == 1);
                }
            }
            o += 4 + (m.count_ones() as usize) * eb;
        }
        self.ef.next = ef;
    }
    fn connect(&mut self) {
        assert_eq!(WL % 8, 0, "MaskChain: WL must be whole bytes");
        self.ef.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        v.push_str("wire [11:0] o0 = 12'd0;\n");
        for i in 0..blocks(N) {
            // The window shifted down to block i (bits past the window read as zero).
            v.push_str(&format!(
                "wire [{top}:0] sh{i} = win >> {{o{i}, 3'b0}};\nwire [31:0] m{i} = sh{i}[31:0];\n",
                top = WL - 1
            ));
            if i + 1 < blocks(N) {
                v.push_str(&format!(
                    "wire [5:0] pc{i} = {};\n",
                    popcount(&format!("m{i}"))
                ));
                v.push_str(&format!(
                    "wire [11:0] o{} = o{i} + 12'd4 + (elem[1] ? {{4'd0, pc{i}, 2'b0}} : \
                     elem[0] ? {{5'd0, pc{i}, 1'b0}} : {{6'd0, pc{i}}});\n",
                    i + 1
                ));
            }
            v.push_str(&format!(
                "wire unused_sh{i} = &{{1'b0, sh{i}[{}:32]}};\n",
                WL - 1
            ));
        }
        if blocks(N) == 1 {
            // One block per beat at most: no offset to compute (Verilator ignores `*unused*`).
            v.push_str("wire unused_elem = &{1'b0, elem};\n");
        }
        let masks = (0..blocks(N))
            .rev()
            .map(|i| format!("m{i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let bits = 32 * blocks(N);
        if bits == N {
            v.push_str(&format!("always @(*) ef = {{{masks}}};\n"));
        } else if bits < N {
            v.push_str(&format!("always @(*) ef = {{{}'d0, {masks}}};\n", N - bits));
        } else {
            // A bus narrower than a block: no block fits, the mask is only a placeholder.
            v.push_str(&format!(
                "wire unused_ef = &{{1'b0, m0[31:{N}]}};\nalways @(*) ef = m0[{}:0];\n",
                N - 1
            ));
        }
        Verilog::Custom(v)
    }
}

/// A 6-bit popcount of the 32-bit wire `m` as a balanced adder tree (Verilog expression).
fn popcount(m: &str) -> String {
    let mut terms: Vec<String> = (0..32).map(|i| format!("{{5'd0, {m}[{i}]}}")).collect();
    while terms.len() > 1 {
        terms = terms
            .chunks(2)
            .map(|p| format!("({} + {})", p[0], p[1]))
            .collect();
    }
    terms.pop().unwrap_or_default()
}
