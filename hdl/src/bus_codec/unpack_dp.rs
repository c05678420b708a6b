//! [`UnpackDatapath`]: the wide half of the bus decompressor's input buffer: the input beat is
//! placed above the held bytes, then the bytes a decoded beat consumed leave at the bottom.
//!
//! Both the placement and the held-byte mask read only registers (`held`) and the input, so
//! the bytes consumed (the decode's late result) meet the buffer in one shifter; whether the
//! input beat is taken does not reach the data at all: a beat not taken sits above the held
//! bytes, where nothing reads it (the decompressor decodes a beat only from held bytes).

use rust_hdl::core::prelude::*;

/// The decompressor's next buffer for an `N`-byte bus (`W = 8·N`) and an `FW`-bit buffer:
/// `((sbuf below held) | (in_data at held)) >> cons` (bytes), cut to `FW` bits. Bytes above
/// the held ones after this cycle are garbage (an untaken beat, or the input beat's bytes past
/// its valid ones).
#[derive(LogicBlock, Default)]
pub struct UnpackDatapath<const N: usize, const W: usize, const FW: usize> {
    /// The buffer register.
    pub sbuf: Signal<In, Bits<FW>>,
    /// Bytes held in `sbuf` (the register, before this cycle's consumption).
    pub held: Signal<In, Bits<12>>,
    /// Bytes consumed this cycle (0 when no beat was decoded).
    pub cons: Signal<In, Bits<12>>,
    /// The input beat (appended at `held`, whether taken or not).
    pub in_data: Signal<In, Bits<W>>,
    /// The next buffer.
    pub nxt: Signal<Out, Bits<FW>>,
}

impl<const N: usize, const W: usize, const FW: usize> Logic for UnpackDatapath<N, W, FW> {
    fn update(&mut self) {
        let held = (self.held.val().to_u64() as usize).min(FW / 8);
        let cons = self.cons.val().to_u64() as usize;
        let sb = crate::prims::bytes_of(self.sbuf.val());
        let ib = crate::prims::bytes_of(self.in_data.val());
        let mut all: Vec<u8> = sb[..held].to_vec();
        all.extend_from_slice(&ib[..N]);
        let nxt: Vec<u8> = (0..FW / 8)
            .map(|j| all.get(j + cons).copied().unwrap_or(0))
            .collect();
        self.nxt.next = crate::prims::bits_of(&nxt);
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
        let aw = FW + W;
        Verilog::Custom(format!(
            "wire [{top}:0] ones = {{{aw}{{1'b1}}}};\n\
             wire [{top}:0] lo = {{{w}'d0, sbuf}} & ~(ones << {{held, 3'b0}});\n\
             wire [{top}:0] app = {{{fw}'d0, in_data}} << {{held, 3'b0}};\n\
             wire [{top}:0] all_b = (lo | app) >> {{cons, 3'b0}};\n\
             // The bytes above the buffer go (Verilator ignores `*unused*` names).\n\
             wire unused_hi = &{{1'b0, all_b[{top}:{fw}]}};\n\
             always @(*) nxt = all_b[{fwm}:0];\n",
            top = aw - 1,
            w = W,
            fw = FW,
            fwm = FW - 1,
        ))
    }
}
