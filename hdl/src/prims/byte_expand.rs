//! [`ByteExpand`]: [`ByteCompact`](super::ByteCompact) run backwards: lanes `0..n` of the input
//! move up, in order, to the kept lanes.
//!
//! The bus codec's decompressor lays its output beat out like the compressor (masks in front
//! of their blocks, a byte kept iff its element's mask bit is set), and this network puts the
//! compressed bytes there. Same steering as the compaction (`steer_verilog`): stage `k`, from
//! the last down to 0, fills the lanes flagged in `mv{k}` from `2^k` lanes below; lanes
//! past the kept ones and stale copies are never selected into a kept lane (the argument of
//! the ZVC blocks' `Expand`), and the final mask zeroes every lane that is not kept.

use rust_hdl::core::prelude::*;

use super::byte_compact::{byte_mask, lane, steer_verilog};

/// Moves lanes `0..n` of `d` to the kept lanes of `keep`, in order; other lanes zero.
#[derive(LogicBlock, Default)]
pub struct ByteExpand<const L: usize, const W: usize> {
    /// Input lanes: the bytes to place in lanes `0..n` (lanes above are ignored).
    pub d: Signal<In, Bits<W>>,
    /// The lanes to fill, in order.
    pub keep: Signal<In, Bits<L>>,
    /// Lane `i` of the `m`-th kept lane holds input lane `m`; lanes not kept are zero.
    pub y: Signal<Out, Bits<W>>,
    /// Number of kept lanes (input lanes used).
    pub n: Signal<Out, Bits<12>>,
}

impl<const L: usize, const W: usize> Logic for ByteExpand<L, W> {
    fn update(&mut self) {
        let (d, keep) = (super::bytes_of(self.d.val()), self.keep.val());
        let mut y = vec![0u8; L];
        let mut n = 0;
        for (i, lane) in y.iter_mut().enumerate() {
            if keep.get_bit(i) {
                *lane = d[n];
                n += 1;
            }
        }
        self.y.next = super::bits_of(&y);
        self.n.next = (n as u64).into();
    }
    fn connect(&mut self) {
        assert_eq!(8 * L, W, "ByteExpand: W must be 8*L");
        assert!(L >= 2 && L < 4096, "ByteExpand: 2 <= L < 4096");
        self.y.connect();
        self.n.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        let t = steer_verilog(L, false, &mut v);
        v.push_str(&format!("wire [{}:0] s{t} = d;\n", W - 1));
        for k in (0..t).rev() {
            let sh = 1usize << k;
            v.push_str(&format!("wire [{}:0] s{k};\n", W - 1));
            for p in 0..L {
                let rhs = if p >= sh {
                    format!("mv{k}[{p}] ? {} : {}", lane(k + 1, p - sh), lane(k + 1, p))
                } else {
                    lane(k + 1, p)
                };
                v.push_str(&format!("assign {} = {rhs};\n", lane(k, p)));
            }
        }
        v.push_str(&format!("always @(*) y = s0 & {};\n", byte_mask("keep", L)));
        // The last stage's move flags of lanes below 2^(T-1) have no lane below to fill
        // from (the compaction's argument); the steering computes them anyway.
        let sh = 1usize << (t - 1);
        v.push_str(&format!(
            "wire unused_ok = &{{1'b0, mv{}[{}:0]}};\n",
            t - 1,
            sh - 1
        ));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{settle, XorShift64};

    #[test]
    fn expands_to_kept_lanes_in_order() {
        let mut uut = ByteExpand::<20, 160>::default();
        uut.connect_all();
        let mut rng = XorShift64::new(8);
        for _ in 0..50 {
            let bytes = rng.bytes(20);
            let keep = rng.next() & 0xF_FFFF;
            let mut d = Bits::<160>::default();
            for (i, b) in bytes.iter().enumerate() {
                d.set_bits::<8>(8 * i, (*b as u64).into());
            }
            uut.d.next = d;
            uut.keep.next = keep.into();
            settle(&mut uut);
            let mut m = 0;
            for i in 0..20 {
                let want = if keep >> i & 1 == 1 {
                    m += 1;
                    bytes[m - 1]
                } else {
                    0
                };
                assert_eq!(
                    uut.y.val().get_bits::<8>(8 * i).to_u64(),
                    want as u64,
                    "lane {i}"
                );
            }
            assert_eq!(uut.n.val().to_u64(), m as u64);
        }
    }
}
