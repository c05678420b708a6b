//! [`UnpackDatapath`]: the wide half of the bus decompressor's input buffer: the bytes a
//! decoded beat consumed leave at the bottom, an input beat is appended above the rest.

use rust_hdl::core::prelude::*;

/// The decompressor's next buffer for an `N`-byte bus (`W = 8·N`) and an `FW`-bit buffer.
/// The held bytes start at byte 0, zero above them; so are the appended ones (the input beat
/// is cut to its valid bytes).
#[derive(LogicBlock, Default)]
pub struct UnpackDatapath<const N: usize, const W: usize, const FW: usize> {
    /// The buffer register.
    pub sbuf: Signal<In, Bits<FW>>,
    /// Bytes consumed this cycle (0 when no beat was decoded).
    pub cons: Signal<In, Bits<12>>,
    /// Append the input beat this cycle.
    pub take: Signal<In, Bit>,
    /// The input beat.
    pub in_data: Signal<In, Bits<W>>,
    /// Valid bytes of the input beat (`0..=N`).
    pub in_cnt: Signal<In, Bits<8>>,
    /// Byte at which the input beat is appended (bytes held after this cycle's consumption).
    pub pos: Signal<In, Bits<12>>,
    /// The next buffer.
    pub nxt: Signal<Out, Bits<FW>>,
}

impl<const N: usize, const W: usize, const FW: usize> Logic for UnpackDatapath<N, W, FW> {
    fn update(&mut self) {
        let mut nxt = self.sbuf.val() >> (8 * self.cons.val().to_u64());
        if self.take.val() {
            let cnt = (self.in_cnt.val().to_u64() as usize).min(N);
            let bytes = crate::prims::bytes_of(self.in_data.val());
            let ext = crate::prims::bits_of::<FW>(&bytes[..cnt]);
            nxt = nxt | (ext << (8 * self.pos.val().to_u64()));
        }
        self.nxt.next = nxt;
    }
    fn connect(&mut self) {
        assert_eq!(8 * N, W, "UnpackDatapath: W must be 8*N");
        assert!(
            FW >= 2 * W,
            "UnpackDatapath: the buffer holds at least two beats"
        );
        self.nxt.connect();
    }
    fn hdl(&self) -> Verilog {
        let strb = (0..N)
            .rev()
            .map(|j| format!("{{8{{in_cnt > 8'd{j}}}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        Verilog::Custom(format!(
            "wire [{top}:0] ext = {{{pad}'d0, in_data & {{{strb}}}}};\n\
             always @(*) nxt = (sbuf >> {{cons, 3'b0}}) | (take ? (ext << {{pos, 3'b0}}) : {fw}'d0);\n",
            top = FW - 1,
            pad = FW - W,
            fw = FW,
        ))
    }
}
