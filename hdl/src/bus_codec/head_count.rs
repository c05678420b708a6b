//! [`HeadCount`] and [`CountPick`]: the bytes the first beat of the block at the front of the
//! bus decompressor's window takes, counted a cycle ahead for every place the window can start.
//!
//! Why: the decompressor's one loop is "window → the block's mask → its popcount → bytes
//! consumed → the buffer shifted → window". Counted from the shifted window, the popcount sits
//! after the shift, in the loop. [`HeadCount`] counts before it: for every byte position `p`
//! the next window may start at (`0..=L`), the count of the block whose mask starts there,
//! from the bytes as they will be (held bytes, then the input beat above them), from
//! registers only. The decompressor registers all `L + 1` counts with the bytes consumed and
//! whether a beat was decoded; the next cycle [`CountPick`] picks the one the window starts
//! at. So neither the bytes consumed nor the late "a beat is decoded" reach the counting (the
//! input beat's placement, the popcounts and sums), and the loop is registers → one
//! multiplexer → the bytes consumed.
//!
//! The count is `4 + (E/8)·popcount(the mask's first ne bits)`, `ne = min(32, 8·N/E)` the
//! elements of the block's first beat (the 4 mask bytes and its non-zero elements): at most
//! `4 + min(32·E/8, N)`, 132 at 1024 bits, so 8 bits each. It is the first beat's byte count
//! only where a beat holds at most one block (`8·N/E ≤ 32`); the decompressor uses it only
//! there.

use rust_hdl::core::prelude::*;

use super::elem_flags::elem_bytes;
use super::unpack_dp::{bits_for, buffer_bytes};

/// The first-beat byte counts of the blocks at every place the next window of an `N`-byte bus
/// (`W = 8·N`) with an `FW`-bit buffer (`FW = 8·(L + N)`) can start, 8 bits each
/// (`FP = 8·(L + 1)`).
#[derive(LogicBlock, Default)]
pub struct HeadCount<const N: usize, const W: usize, const FW: usize, const FP: usize> {
    /// The buffer register.
    pub sbuf: Signal<In, Bits<FW>>,
    /// Bytes held in `sbuf` (at most `FW/8`).
    pub held: Signal<In, Bits<12>>,
    /// The input beat, as if appended at `held` (its bytes above the held ones).
    pub in_data: Signal<In, Bits<W>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; 3 as 32).
    pub elem: Signal<In, Bits<2>>,
    /// Bits `[8p +: 8]`: the first-beat byte count of the block whose mask starts at byte `p`
    /// of the held bytes and the input beat above them (`p` in `0..=L`).
    pub f: Signal<Out, Bits<FP>>,
}

/// The count [`HeadCount`] made a cycle before for the byte the window starts at now.
#[derive(LogicBlock, Default)]
pub struct CountPick<const FP: usize> {
    /// [`HeadCount`]'s counts, registered.
    pub f: Signal<In, Bits<FP>>,
    /// The bytes the beat decoded in that cycle consumed (`0..=L`), registered.
    pub c: Signal<In, Bits<12>>,
    /// A beat was decoded in that cycle, registered: the window starts at byte `c`, else 0.
    pub go: Signal<In, Bit>,
    /// The first-beat byte count of the block at the window's byte 0 (0 if `c` is past `L`).
    pub cnt: Signal<Out, Bits<12>>,
}

impl<const N: usize, const W: usize, const FW: usize, const FP: usize> HeadCount<N, W, FW, FP> {
    /// Window bytes `L`.
    fn lanes() -> usize {
        FW / 8 - N
    }
}

/// Elements of a block's first beat for element width code `elem` (capped at the block's 32).
fn first_elems(n: usize, elem: u64) -> usize {
    (n / elem_bytes(elem)).min(32)
}

impl<const N: usize, const W: usize, const FW: usize, const FP: usize> Logic
    for HeadCount<N, W, FW, FP>
{
    fn update(&mut self) {
        let (all, _) = buffer_bytes::<N, W, FW>(
            self.sbuf.val(),
            self.held.val(),
            self.in_data.val(),
            0.into(),
            false,
        );
        let elem = self.elem.val().to_u64();
        let ne = first_elems(N, elem);
        let counts: Vec<u8> = (0..=Self::lanes())
            .map(|p| {
                let mask = (0..4).fold(0u64, |m, b| {
                    m | u64::from(all.get(p + b).copied().unwrap_or(0)) << (8 * b)
                });
                let pc = (mask & ((1u64 << ne) - 1)).count_ones() as usize;
                (4 + pc * elem_bytes(elem)) as u8
            })
            .collect();
        self.f.next = crate::prims::bits_of(&counts);
    }
    fn connect(&mut self) {
        assert_eq!(8 * N, W, "HeadCount: W must be 8*N");
        assert!(FW > W && FW.is_multiple_of(8), "HeadCount: FW = 8*(L + N)");
        assert_eq!(FP, 8 * (Self::lanes() + 1), "HeadCount: FP = 8*(L + 1)");
        self.f.connect();
    }
    fn hdl(&self) -> Verilog {
        let (l, aw) = (Self::lanes(), FW + W);
        let hb = bits_for(FW / 8);
        // Per start position: the count for each element width, from the set bits of the
        // mask's first bytes (`q`) or of its first nibble (`h`).
        let mut used_q = 0; // bytes whose `q` is read: 0..used_q
        let mut used_h = false;
        let mut counts = String::new();
        for p in 0..=l {
            let per_elem: Vec<String> = (0..3u64)
                .map(|e| {
                    let ne = first_elems(N, e);
                    let s = if ne >= 8 {
                        used_q = used_q.max(p + ne / 8);
                        (p..p + ne / 8)
                            .map(|j| format!("{{2'd0, q{j}}}"))
                            .collect::<Vec<_>>()
                            .join(" + ")
                    } else {
                        used_h = true;
                        format!("{{2'd0, h{p}}}")
                    };
                    format!("(8'd4 + {{2'd0, {s}}} * 8'd{})", elem_bytes(e))
                })
                .collect();
            counts.push_str(&format!(
                "wire [7:0] f{p} = elem[1] ? {} : elem[0] ? {} : {};\n",
                per_elem[2], per_elem[1], per_elem[0]
            ));
        }
        let top_byte = used_q.max(if used_h { l + 1 } else { 0 });
        let mut v = format!(
            "wire [{t}:0] ones = {{{aw}{{1'b1}}}};\n\
             wire [{t}:0] all_b = ({{{W}'d0, sbuf}} & ~(ones << {{held[{hm}:0], 3'b0}}))\n    \
             | ({{{FW}'d0, in_data}} << {{held[{hm}:0], 3'b0}});\n\
             // Only the first bytes are read, `held` is at most FW/8\n\
             // (Verilator ignores `*unused*` names).\n\
             wire unused_hi = &{{1'b0, all_b[{t}:{u}], held[11:{hb}]}};\n",
            t = aw - 1,
            hm = hb - 1,
            u = 8 * top_byte,
        );
        let bit = |j: usize, i: usize| format!("{{3'd0, all_b[{}]}}", 8 * j + i);
        for j in 0..used_q {
            let sum: Vec<String> = (0..8).map(|i| bit(j, i)).collect();
            v.push_str(&format!("wire [3:0] q{j} = {};\n", sum.join(" + ")));
        }
        if used_h {
            for j in 0..=l {
                let sum: Vec<String> = (0..4).map(|i| bit(j, i)).collect();
                v.push_str(&format!("wire [3:0] h{j} = {};\n", sum.join(" + ")));
            }
        }
        v.push_str(&counts);
        let all: Vec<String> = (0..=l).rev().map(|p| format!("f{p}")).collect();
        v.push_str(&format!("always @(*) f = {{{}}};\n", all.join(", ")));
        Verilog::Custom(v)
    }
}

impl<const FP: usize> Logic for CountPick<FP> {
    fn update(&mut self) {
        let l = FP / 8 - 1;
        let c = self.c.val().to_u64() as usize;
        let p = if self.go.val() { c } else { 0 };
        let cnt = if p <= l {
            self.f.val().get_bits::<8>(8 * p).to_u64()
        } else {
            0
        };
        self.cnt.next = cnt.into();
    }
    fn connect(&mut self) {
        assert!(FP >= 8 && FP.is_multiple_of(8), "CountPick: FP = 8*(L + 1)");
        self.cnt.connect();
    }
    fn hdl(&self) -> Verilog {
        let l = FP / 8 - 1;
        let cb = bits_for(l);
        let mut v = format!(
            "// `c` is at most L (Verilator ignores `*unused*` names).\n\
             wire unused_hi = &{{1'b0, c[11:{cb}]}};\n\
             reg [7:0] at_c;\nalways @(*) begin\n    case (c[{}:0])\n",
            cb - 1
        );
        for p in 0..=l {
            v.push_str(&format!(
                "        {cb}'d{p}: at_c = f[{}:{}];\n",
                8 * p + 7,
                8 * p
            ));
        }
        v.push_str(
            "        default: at_c = 8'd0;\n    endcase\nend\n\
             always @(*) cnt = {4'd0, go ? at_c : f[7:0]};\n",
        );
        Verilog::Custom(v)
    }
}
