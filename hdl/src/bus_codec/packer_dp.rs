//! [`PackerDatapath`]: the wide, register-free half of the bus compressor's packer: the next
//! buffer (the held bytes, shifted down a beat when one leaves, with the compacted bytes
//! appended above them), the output beat and its strobes.

use rust_hdl::core::prelude::*;

/// The packer's next buffer and output beat for an `N`-byte bus (`W = 8·N`), `WL`-bit
/// compacted input and an `FW`-bit buffer (`8·(N + L)`). Reads registers only (see
/// docs/PERFORMANCE.md, "Verilator bridge"): the buffer, the C register and the controls.
#[derive(LogicBlock, Default)]
pub struct PackerDatapath<const N: usize, const W: usize, const WL: usize, const FW: usize> {
    /// The buffer register: held bytes from byte 0, zero above them.
    pub sbuf: Signal<In, Bits<FW>>,
    /// A beat leaves this cycle: the buffer moves down `N` bytes.
    pub shift: Signal<In, Bit>,
    /// The compacted bytes (zero above their count).
    pub c: Signal<In, Bits<WL>>,
    /// Append `c` this cycle.
    pub take: Signal<In, Bit>,
    /// Byte at which `c` is appended (bytes held after this cycle's output, at most `N`).
    pub pos: Signal<In, Bits<12>>,
    /// Bytes held (for the strobes of a final partial beat).
    pub b: Signal<In, Bits<12>>,
    /// The next buffer.
    pub nxt: Signal<Out, Bits<FW>>,
    /// The output beat: the buffer's bottom `N` bytes.
    pub beat: Signal<Out, Bits<W>>,
    /// Strobes of the output beat: all ones when `b ≥ N`, else bytes `0..b`.
    pub strb: Signal<Out, Bits<N>>,
}

impl<const N: usize, const W: usize, const WL: usize, const FW: usize> Logic
    for PackerDatapath<N, W, WL, FW>
{
    fn update(&mut self) {
        let sbuf = self.sbuf.val();
        let mut nxt = if self.shift.val() {
            sbuf >> (8 * N as u64)
        } else {
            sbuf
        };
        if self.take.val() {
            let mut ext = Bits::<FW>::default();
            ext.set_bits::<WL>(0, self.c.val());
            nxt = nxt | (ext << (8 * self.pos.val().to_u64()));
        }
        self.nxt.next = nxt;
        self.beat.next = sbuf.get_bits::<W>(0);
        let b = self.b.val().to_u64() as usize;
        self.strb.next = if b >= N {
            Bits::<N>::mask()
        } else {
            Bits::<N>::mask() >> ((N - b) as u64)
        };
    }
    fn connect(&mut self) {
        assert_eq!(8 * N, W, "PackerDatapath: W must be 8*N");
        assert!(
            FW >= W + WL,
            "PackerDatapath: the buffer holds a beat and an input"
        );
        self.nxt.connect();
        self.beat.connect();
        self.strb.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "wire [{top}:0] base = shift ? (sbuf >> {beat_bits}) : sbuf;\n\
             wire [{top}:0] ext = {{{pad}'d0, c}};\n\
             always @(*) nxt = base | (take ? (ext << {{pos, 3'b0}}) : {fw}'d0);\n\
             always @(*) beat = sbuf[{wtop}:0];\n\
             always @(*) strb = (b >= 12'd{N}) ? {{{N}{{1'b1}}}} : ~({{{N}{{1'b1}}}} << b);\n",
            top = FW - 1,
            beat_bits = 8 * N,
            pad = FW - WL,
            fw = FW,
            wtop = W - 1,
        ))
    }
}
