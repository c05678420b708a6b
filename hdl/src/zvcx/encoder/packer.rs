//! [`Packer`]: the encoder's output stage, register-free: the holding register (`hc` < 1024
//! bits, or up to 1031 right after a raw f32 block) with the new block ORed in above it;
//! a 128-byte word leaves whenever 1024 bits are held, and at a chunk's end the rest leaves
//! padded to a byte (a word after the last block, or one more cycle when more than 1024 bits
//! were held). While the held bits still make a full word or a chunk's end is pending, no
//! block is taken (`pend`; the top only offers a block when `hc < 1024` and not `pend`).

use rust_hdl::core::prelude::*;

use super::assemble::BLOCK_BITS;
use super::words::{bits_of_words, or_shifted, slice64, words_of};

/// Width of the holding register plus a shifted block.
const COMB_BITS: usize = 2 * BLOCK_BITS;

/// One step of the packer.
#[derive(LogicBlock, Default)]
pub struct Packer {
    /// Held bits (zero above `hc`).
    pub hold: Signal<In, Bits<BLOCK_BITS>>,
    /// Number of held bits.
    pub hc: Signal<In, Bits<11>>,
    /// A chunk's end is pending: its last bits still have to leave.
    pub pend: Signal<In, Bit>,
    /// The offered block (zero above `blen`).
    pub blk: Signal<In, Bits<BLOCK_BITS>>,
    /// Its length in bits.
    pub blen: Signal<In, Bits<11>>,
    /// The block is taken this step.
    pub take: Signal<In, Bit>,
    /// The block is its chunk's last.
    pub blast: Signal<In, Bit>,
    /// A word leaves this step.
    pub emit: Signal<Out, Bit>,
    /// The word: the lowest 1024 held bits.
    pub word: Signal<Out, Bits<1024>>,
    /// Its valid bytes (128, or 1..=128 for a chunk's last word).
    pub bytes: Signal<Out, Bits<8>>,
    /// The word is its chunk's last.
    pub wlast: Signal<Out, Bit>,
    /// Held bits after the step.
    pub nhold: Signal<Out, Bits<BLOCK_BITS>>,
    /// Their count.
    pub nhc: Signal<Out, Bits<11>>,
    /// The chunk's end still pending after the step.
    pub npend: Signal<Out, Bit>,
}

/// The model's output: (emit, word, bytes, wlast, nhold, nhc, npend).
pub type PackOut = (bool, Vec<u64>, u32, bool, Vec<u64>, u32, bool);

/// The Rust model of one step.
#[allow(clippy::too_many_arguments)]
pub fn pack(
    hold: &[u64],
    hc: u32,
    pend: bool,
    blk: &[u64],
    blen: u32,
    take: bool,
    blast: bool,
) -> PackOut {
    let mut comb = vec![0u64; COMB_BITS.div_ceil(64)];
    or_shifted(&mut comb, COMB_BITS, hold, 0);
    if take {
        or_shifted(&mut comb, COMB_BITS, blk, hc as usize);
    }
    let t = (hc + if take { blen } else { 0 }) & 0xFFF;
    let flg = pend || (take && blast);
    let fin = flg && t <= 1024;
    let full = t >= 1024;
    let word = slice64(&comb, 0, 1024);
    let bytes = if fin { ((t + 7) >> 3) & 0xFF } else { 128 };
    let (nhold, nhc) = if fin {
        (vec![0; BLOCK_BITS.div_ceil(64)], 0)
    } else if full {
        (slice64(&comb, 1024, BLOCK_BITS), (t - 1024) & 0x7FF)
    } else {
        (slice64(&comb, 0, BLOCK_BITS), t & 0x7FF)
    };
    (
        fin || full,
        word,
        bytes,
        fin,
        nhold,
        nhc,
        !fin && full && flg,
    )
}

impl Logic for Packer {
    fn update(&mut self) {
        let (emit, word, bytes, wlast, nhold, nhc, npend) = pack(
            &words_of(self.hold.val()),
            self.hc.val().to_u64() as u32,
            self.pend.val(),
            &words_of(self.blk.val()),
            self.blen.val().to_u64() as u32,
            self.take.val(),
            self.blast.val(),
        );
        self.emit.next = emit;
        self.word.next = bits_of_words(&word);
        self.bytes.next = u64::from(bytes).into();
        self.wlast.next = wlast;
        self.nhold.next = bits_of_words(&nhold);
        self.nhc.next = u64::from(nhc).into();
        self.npend.next = npend;
    }
    fn connect(&mut self) {
        self.emit.connect();
        self.word.connect();
        self.bytes.connect();
        self.wlast.connect();
        self.nhold.connect();
        self.nhc.connect();
        self.npend.connect();
    }
    fn hdl(&self) -> Verilog {
        let (b, c) = (BLOCK_BITS, COMB_BITS);
        Verilog::Custom(format!(
            "wire [{c1}:0] comb = {{{b}'d0, hold}} | (take ? ({{{b}'d0, blk}} << hc) : {c}'d0);\n\
             wire [11:0] t = {{1'b0, hc}} + (take ? {{1'b0, blen}} : 12'd0);\n\
             wire flg = pend | (take & blast);\n\
             wire fin = flg & (t <= 12'd1024);\n\
             wire full = t >= 12'd1024;\n\
             wire [11:0] tb = t + 12'd7;\n\
             wire [11:0] tr = t - 12'd1024;\n\
             always @(*) begin\n\
             \x20   emit = fin | full;\n\
             \x20   word = comb[1023:0];\n\
             \x20   bytes = fin ? tb[10:3] : 8'd128;\n\
             \x20   wlast = fin;\n\
             \x20   nhold = fin ? {b}'d0 : (full ? comb[{hi}:1024] : comb[{b1}:0]);\n\
             \x20   nhc = fin ? 11'd0 : (full ? tr[10:0] : t[10:0]);\n\
             \x20   npend = ~fin & full & flg;\n\
             end\n",
            c1 = c - 1,
            hi = 1024 + b - 1,
            b1 = b - 1,
        ))
    }
}
