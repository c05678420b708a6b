//! [`UnpackDatapath`]: the wide half of the bus decompressor's input buffer: the input beat is
//! placed above the held bytes, then the bytes a decoded beat consumed leave at the bottom.
//!
//! Both the placement and the held-byte mask read only registers (`held`) and the input, so
//! the bytes consumed meet the buffer in one shifter (as wide as `L` needs, not the 12 bits of
//! the count), and whether a beat is decoded at all (the decode's late result, after every
//! check) only picks between the shifted and the unshifted bytes; whether the input beat is
//! taken does not reach the data at all: a beat not taken sits above the held bytes, where
//! nothing reads it (the decompressor decodes a beat only from held bytes).

use rust_hdl::core::prelude::*;

/// The decompressor's next buffer for an `N`-byte bus (`W = 8·N`) and an `FW`-bit buffer:
/// `((sbuf below held) | (in_data at held)) >> (go ? c : 0)` (bytes), cut to `FW` bits. Bytes above
/// the held ones after this cycle are garbage (an untaken beat, or the input beat's bytes past
/// its valid ones).
#[derive(LogicBlock, Default)]
pub struct UnpackDatapath<const N: usize, const W: usize, const FW: usize> {
    /// The buffer register.
    pub sbuf: Signal<In, Bits<FW>>,
    /// Bytes held in `sbuf` (the register, before this cycle's consumption).
    pub held: Signal<In, Bits<12>>,
    /// Bytes the beat decoded this cycle consumes (`0..=L`, `L = FW/8 - N`), if `go`.
    pub c: Signal<In, Bits<12>>,
    /// A beat is decoded this cycle (its `c` bytes leave).
    pub go: Signal<In, Bit>,
    /// The input beat (appended at `held`, whether taken or not).
    pub in_data: Signal<In, Bits<W>>,
    /// The next buffer.
    pub nxt: Signal<Out, Bits<FW>>,
}

/// Bits to address byte positions `0..=max`.
pub(crate) fn bits_for(max: usize) -> usize {
    (usize::BITS - max.leading_zeros()) as usize
}

/// The model of the buffer before its shift, shared with [`super::HeadCount`]: the held
/// bytes of `sbuf`, then the input beat's `N` bytes; and where the next window starts (`c` if
/// `go`, else 0).
pub(crate) fn buffer_bytes<const N: usize, const W: usize, const FW: usize>(
    sbuf: Bits<FW>,
    held: Bits<12>,
    in_data: Bits<W>,
    c: Bits<12>,
    go: bool,
) -> (Vec<u8>, usize) {
    let held = (held.to_u64() as usize).min(FW / 8);
    let mut all: Vec<u8> = crate::prims::bytes_of(sbuf)[..held].to_vec();
    all.extend_from_slice(&crate::prims::bytes_of(in_data)[..N]);
    (all, if go { c.to_u64() as usize } else { 0 })
}

impl<const N: usize, const W: usize, const FW: usize> Logic for UnpackDatapath<N, W, FW> {
    fn update(&mut self) {
        let (all, cons) = buffer_bytes::<N, W, FW>(
            self.sbuf.val(),
            self.held.val(),
            self.in_data.val(),
            self.c.val(),
            self.go.val(),
        );
        debug_assert!(cons <= FW / 8 - N, "UnpackDatapath: c past the window");
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
        let (hb, cb) = (bits_for(FW / 8), bits_for(FW / 8 - N));
        Verilog::Custom(format!(
            "wire [{top}:0] ones = {{{aw}{{1'b1}}}};\n\
             wire [{top}:0] lo = {{{w}'d0, sbuf}} & ~(ones << {{held[{hm}:0], 3'b0}});\n\
             wire [{top}:0] app = {{{fw}'d0, in_data}} << {{held[{hm}:0], 3'b0}};\n\
             wire [{top}:0] all_b = lo | app;\n\
             wire [{top}:0] sh_b = all_b >> {{c[{cm}:0], 3'b0}};\n\
             // The bytes above the buffer go; `held` is at most FW/8 and `c` at most L\n\
             // (Verilator ignores `*unused*` names).\n\
             wire unused_hi = &{{1'b0, all_b[{top}:{fw}], sh_b[{top}:{fw}], held[11:{hb}], c[11:{cb}]}};\n\
             always @(*) nxt = go ? sh_b[{fwm}:0] : all_b[{fwm}:0];\n",
            top = aw - 1,
            w = W,
            fw = FW,
            fwm = FW - 1,
            hm = hb - 1,
            cm = cb - 1,
        ))
    }
}
