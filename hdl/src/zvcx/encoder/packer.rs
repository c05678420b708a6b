//! [`Packer`]: the encoder's output stage, register-free: the holding register (`hc` < 1024
//! bits, or up to 1031 right after a raw f32 block) with the new block ORed in above it;
//! a 128-byte word leaves whenever 1024 bits are held, and at a chunk's end the rest leaves
//! padded to a byte (a word after the last block, or one more cycle when more than 1024 bits
//! were held: `pend`; in that cycle the next chunk's first block goes straight into the
//! holding register). While the held bits still make a full word (only after a raw f32
//! block, 1032 bits), no block is taken. The packer also makes the flow control (it steps when the
//! output register is free, takes the offered block when it can, and the stages before it
//! advance when their last stage is empty or taken): every input is a register or a port, so
//! the top's combinational block never feeds a packer output back into a packer input.

use rust_hdl::core::prelude::*;

use super::assemble::BLOCK_BITS;
use super::words::{bits_of_words, or_shifted, slice64, words_of};

/// Width of the holding register plus a shifted block: a block (at most `BLOCK_BITS`) joins
/// at most 1023 held bits.
const COMB_BITS: usize = 1024 + BLOCK_BITS;

/// One step of the packer.
#[derive(LogicBlock, Default)]
pub struct Packer {
    /// The output register holds a word (`out_valid`).
    pub ov: Signal<In, Bit>,
    /// The output port's `out_ready`.
    pub out_ready: Signal<In, Bit>,
    /// A block is offered (stage 2 holds one).
    pub v2: Signal<In, Bit>,
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
    /// The block is its chunk's last.
    pub blast: Signal<In, Bit>,
    /// The packer steps this cycle (the output register is free): the outputs below are
    /// loaded into the registers.
    pub step: Signal<Out, Bit>,
    /// The stages before the packer advance this cycle (stage 2 is empty or taken).
    pub adv: Signal<Out, Bit>,
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

/// The flow control: (step, take, adv) from `out_valid`, `out_ready`, the offered block and
/// the packer's state.
pub fn flow(ov: bool, out_ready: bool, v2: bool, hc: u32, pend: bool) -> (bool, bool, bool) {
    let step = !ov || out_ready;
    // With a chunk's end pending, its last word leaves this step (when at most 1024 bits
    // are held) and the next chunk's first block goes straight into the holding register.
    let can_take = step && if pend { hc <= 1024 } else { hc < 1024 };
    (step, v2 && can_take, !v2 || can_take)
}

/// The Rust model of one step that takes the offered block iff `take`.
pub fn pack(
    hold: &[u64],
    hc: u32,
    pend: bool,
    blk: &[u64],
    blen: u32,
    take: bool,
    blast: bool,
) -> PackOut {
    // The block joins the held bits, or (a chunk's end pending) starts the holding register.
    let merge = take && !pend;
    let mut comb = vec![0u64; COMB_BITS.div_ceil(64)];
    or_shifted(&mut comb, COMB_BITS, hold, 0);
    if merge {
        or_shifted(&mut comb, COMB_BITS, blk, hc as usize);
    }
    let t = (hc + if merge { blen } else { 0 }) & 0xFFF;
    let flg = pend || (merge && blast);
    let fin = flg && t <= 1024;
    let full = t >= 1024;
    let word = slice64(&comb, 0, 1024);
    let bytes = if fin {
        (((t >> 3) & 0xFF) + u32::from(t & 7 != 0)) & 0xFF
    } else {
        128
    };
    let fresh = take && pend;
    let (nhold, nhc) = if fin && fresh {
        (slice64(blk, 0, BLOCK_BITS), blen & 0x7FF)
    } else if fin {
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
        (!fin && full && flg) || (fresh && blast),
    )
}

impl Logic for Packer {
    fn update(&mut self) {
        let hc = self.hc.val().to_u64() as u32;
        let (step, take, adv) = flow(
            self.ov.val(),
            self.out_ready.val(),
            self.v2.val(),
            hc,
            self.pend.val(),
        );
        self.step.next = step;
        self.adv.next = adv;
        let (emit, word, bytes, wlast, nhold, nhc, npend) = pack(
            &words_of(self.hold.val()),
            hc,
            self.pend.val(),
            &words_of(self.blk.val()),
            self.blen.val().to_u64() as u32,
            take,
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
        self.step.connect();
        self.adv.connect();
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
            "wire step_ = ~ov | out_ready;\n\
             wire can_take = step_ & (pend ? (hc <= 11'd1024) : (hc < 11'd1024));\n\
             wire take_ = v2 & can_take;\n\
             wire merge = take_ & ~pend;\n\
             wire fresh = take_ & pend;\n\
             wire [{c1}:0] comb = {{{pad}'d0, hold}} | (merge ? ({{{pad}'d0, blk}} << hc) : {c}'d0);\n\
             wire [11:0] t = {{1'b0, hc}} + (merge ? {{1'b0, blen}} : 12'd0);\n\
             wire flg = pend | (merge & blast);\n\
             wire fin = flg & (t <= 12'd1024);\n\
             wire full = t >= 12'd1024;\n\
             wire [7:0] tb = t[10:3] + {{7'd0, |t[2:0]}};\n\
             wire [10:0] tr = t[10:0] - 11'd1024;\n\
             always @(*) begin\n\
             \x20   step = step_;\n\
             \x20   adv = ~v2 | can_take;\n\
             \x20   emit = fin | full;\n\
             \x20   word = comb[1023:0];\n\
             \x20   bytes = fin ? tb : 8'd128;\n\
             \x20   wlast = fin;\n\
             \x20   nhold = fin ? (fresh ? blk : {b}'d0) : (full ? comb[{hi}:1024] : comb[{b1}:0]);\n\
             \x20   nhc = fin ? (fresh ? blen : 11'd0) : (full ? tr : t[10:0]);\n\
             \x20   npend = (~fin & full & flg) | (fresh & blast);\n\
             end\n",
            c1 = c - 1,
            pad = c - b,
            hi = 1024 + b - 1,
            b1 = b - 1,
        ))
    }
}
