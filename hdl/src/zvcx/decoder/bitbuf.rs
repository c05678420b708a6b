//! [`ZvcxBitBuf`]: the bit buffer's next value. The decoder's buffer holds the chunk's
//! unconsumed payload bits from bit 0 (zero above its count); each cycle it drops the block
//! the scanner measured (or everything, at a chunk's end) and appends the incoming word's
//! valid bytes above what remains. Also the padding after a chunk's last block (the 8 bits
//! above the block), in an `always` block of its own so the top's controls, which read it,
//! do not loop through the append logic.

use rust_hdl::core::prelude::*;

/// Buffer bits: three words (a word is taken while at most two remain).
pub const BUF: usize = 3072;
/// Words of the buffer.
const BW: usize = BUF / 64;

/// `q >> n` over 64-bit words.
fn shr(q: &[u64; BW], n: usize) -> [u64; BW] {
    let mut r = [0u64; BW];
    let (w, b) = (n / 64, n % 64);
    for (i, x) in r.iter_mut().enumerate() {
        let lo = q.get(i + w).copied().unwrap_or(0);
        let hi = q.get(i + w + 1).copied().unwrap_or(0);
        *x = if b == 0 {
            lo
        } else {
            (lo >> b) | (hi << (64 - b))
        };
    }
    r
}

/// The buffer's next value (see the module docs). Combinational.
#[derive(LogicBlock, Default)]
pub struct ZvcxBitBuf {
    /// The buffer register.
    pub q: Signal<In, Bits<BUF>>,
    /// Bits of the block at the bottom (from the scanner).
    pub len: Signal<In, Bits<12>>,
    /// Drop the bottom block (`len` bits).
    pub shift: Signal<In, Bit>,
    /// Drop everything (a chunk's last block left; its padding goes with it).
    pub clear: Signal<In, Bit>,
    /// Append `word` above the remaining bits.
    pub append: Signal<In, Bit>,
    /// The incoming word (byte `j` in bits `[8j +: 8]`).
    pub word: Signal<In, Bits<1024>>,
    /// Valid bytes of `word`; bytes at and above are ignored.
    pub wbytes: Signal<In, Bits<8>>,
    /// Bits that remain after the drop (where the word goes).
    pub rem: Signal<In, Bits<12>>,
    /// The buffer's next value.
    pub nxt: Signal<Out, Bits<BUF>>,
    /// The 8 bits above the bottom block (a chunk's padding).
    pub pad: Signal<Out, Bits<8>>,
}

impl Logic for ZvcxBitBuf {
    fn update(&mut self) {
        let mut q = [0u64; BW];
        for (j, x) in q.iter_mut().enumerate() {
            *x = self.q.val().get_bits::<64>(64 * j).to_u64();
        }
        let sh = shr(&q, self.len.val().to_u64() as usize);
        self.pad.next = (sh[0] & 0xFF).into();
        let mut n = if self.clear.val() {
            [0u64; BW]
        } else if self.shift.val() {
            sh
        } else {
            q
        };
        if self.append.val() {
            let nb = (self.wbytes.val().to_u64() as usize).min(128);
            let mut w = [0u64; BW];
            for j in 0..nb {
                let byte = self.word.val().get_bits::<8>(8 * j).to_u64();
                w[j / 8] |= byte << (8 * (j % 8));
            }
            // w << rem: shr by a negative amount, word by word.
            let r = self.rem.val().to_u64() as usize;
            let (ws, bs) = (r / 64, r % 64);
            for i in (0..BW).rev() {
                let lo = if i >= ws { w[i - ws] } else { 0 };
                let below = if i > ws { w[i - ws - 1] } else { 0 };
                let v = if bs == 0 {
                    lo
                } else {
                    (lo << bs) | (below >> (64 - bs))
                };
                n[i] |= v;
            }
        }
        let mut out = Bits::<BUF>::default();
        for (j, x) in n.iter().enumerate() {
            out.set_bits::<64>(64 * j, (*x).into());
        }
        self.nxt.next = out;
    }
    fn connect(&mut self) {
        self.nxt.connect();
        self.pad.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            r#"reg [{m}:0] sh, w;
reg [1023:0] wm;
integer b;
always @(*) begin
  sh = q >> len;
  pad = sh[7:0];
end
always @(*) begin
  for (b = 0; b < 128; b = b + 1) wm[b*8 +: 8] = (b < wbytes) ? word[b*8 +: 8] : 8'd0;
  w = {{{hi}'d0, wm}} << rem;
  nxt = clear ? {{{n}{{1'b0}}}} : shift ? sh : q;
  if (append) nxt = nxt | w;
end
"#,
            m = BUF - 1,
            hi = BUF - 1024,
            n = BUF
        ))
    }
}
