//! [`Assemble`]: one block's bit string: the head, then the packed fields at `hlen`, then the
//! escaped exponents at `hlen + flen` (at most 1032 bits: a raw f32 block).

use rust_hdl::core::prelude::*;

use super::head::HEAD_BITS;
use super::words::{bits_of_words, or_shifted, words_of};

/// Width of a block's bit string (≥ 1032, a whole number of bytes).
pub const BLOCK_BITS: usize = 1040;

/// The block's bit string from its parts.
#[derive(LogicBlock, Default)]
pub struct Assemble {
    /// Head bits (zero above `hlen`).
    pub head: Signal<In, Bits<HEAD_BITS>>,
    /// Head length.
    pub hlen: Signal<In, Bits<8>>,
    /// Packed fields (zero above `flen`).
    pub pf: Signal<In, Bits<1024>>,
    /// Field bits.
    pub flen: Signal<In, Bits<11>>,
    /// Escaped exponents (zero above `elen`).
    pub escv: Signal<In, Bits<24>>,
    /// Escaped exponent bits.
    pub elen: Signal<In, Bits<5>>,
    /// The block's bits, stream bit `i` in bit `i`, zero above `blen`.
    pub blk: Signal<Out, Bits<BLOCK_BITS>>,
    /// The block's length in bits.
    pub blen: Signal<Out, Bits<11>>,
}

/// The Rust model: (block words, blen).
pub fn assemble(
    head: &[u64],
    hlen: u32,
    pf: &[u64],
    flen: u32,
    escv: u32,
    elen: u32,
) -> (Vec<u64>, u32) {
    let mut out = vec![0u64; BLOCK_BITS.div_ceil(64)];
    or_shifted(&mut out, BLOCK_BITS, head, 0);
    or_shifted(&mut out, BLOCK_BITS, pf, hlen as usize);
    or_shifted(
        &mut out,
        BLOCK_BITS,
        &[u64::from(escv)],
        ((hlen + flen) & 0xFFF) as usize,
    );
    (out, (hlen + flen + elen) & 0x7FF)
}

impl Logic for Assemble {
    fn update(&mut self) {
        let (b, l) = assemble(
            &words_of(self.head.val()),
            self.hlen.val().to_u64() as u32,
            &words_of(self.pf.val()),
            self.flen.val().to_u64() as u32,
            self.escv.val().to_u64() as u32,
            self.elen.val().to_u64() as u32,
        );
        self.blk.next = bits_of_words(&b);
        self.blen.next = u64::from(l).into();
    }
    fn connect(&mut self) {
        self.blk.connect();
        self.blen.connect();
    }
    fn hdl(&self) -> Verilog {
        let b = BLOCK_BITS;
        Verilog::Custom(format!(
            "wire [11:0] eat = {{4'd0, hlen}} + {{1'b0, flen}};\n\
             always @(*) begin\n\
             \x20   blk = {{{}'d0, head}} | ({{{}'d0, pf}} << hlen) | ({{{}'d0, escv}} << eat);\n\
             \x20   blen = {{3'd0, hlen}} + flen + {{6'd0, elen}};\n\
             end\n",
            b - HEAD_BITS,
            b - 1024,
            b - 24
        ))
    }
}
