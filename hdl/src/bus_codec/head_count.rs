//! [`HeadCount`]: the bytes the first beat of the block at the front of the bus decompressor's
//! *next* window takes, for every way this cycle can end, chosen by the bytes consumed.
//!
//! Why: the decompressor's one loop is "window → the block's mask → its popcount → bytes
//! consumed → the buffer shifted → window". Counted from the shifted window, the popcount sits
//! after the shift, in the loop. Here it is counted before: for every byte position `p` the
//! window may start at next (`0..=L`), the count of the block whose mask starts there, from the
//! bytes as they will be (held bytes, then the input beat above them); the bytes consumed only
//! pick one of `L + 1` precomputed counts, and the decompressor registers it (`cfq`). The loop
//! is then a register → the bytes consumed → a multiplexer → the register.
//!
//! The count is `4 + (E/8)·popcount(the mask's first ne bits)`, `ne = min(32, 8·N/E)` the
//! elements of the block's first beat (the 4 mask bytes and its non-zero elements). It is the
//! first beat's byte count only where a beat holds at most one block (`8·N/E ≤ 32`); the
//! decompressor uses it only there.

use rust_hdl::core::prelude::*;

use super::elem_flags::elem_bytes;
use super::unpack_dp::{bits_for, buffer_bytes};

/// The first-beat byte count of the block at the next window's front of an `N`-byte bus
/// (`W = 8·N`) with an `FW`-bit buffer (`FW = 8·(L + N)`).
#[derive(LogicBlock, Default)]
pub struct HeadCount<const N: usize, const W: usize, const FW: usize> {
    /// The buffer register.
    pub sbuf: Signal<In, Bits<FW>>,
    /// Bytes held in `sbuf` (at most `FW/8`).
    pub held: Signal<In, Bits<12>>,
    /// The input beat, as if appended at `held` (its bytes above the held ones).
    pub in_data: Signal<In, Bits<W>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; 3 as 32).
    pub elem: Signal<In, Bits<2>>,
    /// Bytes the beat decoded this cycle consumes (`0..=L`), if `go`.
    pub c: Signal<In, Bits<12>>,
    /// A beat is decoded this cycle: the next window starts at byte `c`, else at byte 0.
    pub go: Signal<In, Bit>,
    /// The first-beat byte count of the block whose mask starts at the next window's byte 0
    /// (0 if that is past `L`).
    pub cnt: Signal<Out, Bits<12>>,
}

impl<const N: usize, const W: usize, const FW: usize> HeadCount<N, W, FW> {
    /// Window bytes `L`.
    fn lanes() -> usize {
        FW / 8 - N
    }
}

/// Elements of a block's first beat for element width code `elem` (capped at the block's 32).
fn first_elems(n: usize, elem: u64) -> usize {
    (n / elem_bytes(elem)).min(32)
}

impl<const N: usize, const W: usize, const FW: usize> Logic for HeadCount<N, W, FW> {
    fn update(&mut self) {
        let (all, cons) = buffer_bytes::<N, W, FW>(
            self.sbuf.val(),
            self.held.val(),
            self.in_data.val(),
            self.c.val(),
            self.go.val(),
        );
        let elem = self.elem.val().to_u64();
        let mask = (0..4).fold(0u64, |m, b| {
            m | u64::from(all.get(cons + b).copied().unwrap_or(0)) << (8 * b)
        });
        let ne = first_elems(N, elem);
        let pc = (mask & ((1u64 << ne) - 1)).count_ones() as usize;
        let cnt = if cons <= Self::lanes() {
            4 + pc * elem_bytes(elem)
        } else {
            0
        };
        self.cnt.next = (cnt as u64).into();
    }
    fn connect(&mut self) {
        assert_eq!(8 * N, W, "HeadCount: W must be 8*N");
        assert!(FW > W && FW.is_multiple_of(8), "HeadCount: FW = 8*(L + N)");
        self.cnt.connect();
    }
    fn hdl(&self) -> Verilog {
        let (l, aw) = (Self::lanes(), FW + W);
        let (hb, cb) = (bits_for(FW / 8), bits_for(l));
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
                    format!("(12'd4 + {{6'd0, {s}}} * 12'd{})", elem_bytes(e))
                })
                .collect();
            counts.push_str(&format!(
                "wire [11:0] f{p} = elem[1] ? {} : elem[0] ? {} : {};\n",
                per_elem[2], per_elem[1], per_elem[0]
            ));
        }
        let top_byte = used_q.max(if used_h { l + 1 } else { 0 });
        let mut v = format!(
            "wire [{t}:0] ones = {{{aw}{{1'b1}}}};\n\
             wire [{t}:0] all_b = ({{{W}'d0, sbuf}} & ~(ones << {{held[{hm}:0], 3'b0}}))\n    \
             | ({{{FW}'d0, in_data}} << {{held[{hm}:0], 3'b0}});\n\
             // Only the first bytes are read, `held` is at most FW/8 and `c` at most L\n\
             // (Verilator ignores `*unused*` names).\n\
             wire unused_hi = &{{1'b0, all_b[{t}:{u}], held[11:{hb}], c[11:{cb}]}};\n",
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
        // `go` is late (it waits for every check of the beat): it picks between the count at
        // byte `c` and the one at byte 0, after the multiplexer `c` drives.
        v.push_str(&format!(
            "reg [11:0] at_c;\nalways @(*) begin\n    case (c[{}:0])\n",
            cb - 1
        ));
        for p in 0..=l {
            v.push_str(&format!("        {cb}'d{p}: at_c = f{p};\n"));
        }
        v.push_str(
            "        default: at_c = 12'd0;\n    endcase\nend\nalways @(*) cnt = go ? at_c : f0;\n",
        );
        Verilog::Custom(v)
    }
}
