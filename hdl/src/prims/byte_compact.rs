//! [`ByteCompact`]: a log-depth compaction network over `L` byte lanes with its own steering:
//! the kept lanes move down, in order, to lanes `0..n`.
//!
//! The bus codec's compressor (`crate::bus_codec`) lays a beat out as byte lanes (the block
//! masks as always-kept lanes in front of their block's bytes, a byte kept when its element
//! is non-zero, so one network serves every element width) and compacts it here.
//!
//! Same construction as the ZVC blocks' `ZvcSteer` + [`Compact`](super::Compact), generalised
//! from 32 element lanes to `L` byte lanes: lane `i` (kept) moves down by `z_i`, the number
//! of dropped lanes below it, in `T = ceil(log2 L)` stages of `2^k` lanes, LSB first, which is
//! conflict-free (see steer.rs), so each stage is one 2:1 choice per lane. `z` is computed
//! bit-sliced on `L`-bit lane vectors by a Hillis–Steele scan (`T` steps of a bit-sliced adder
//! of `T` planes: counts modulo `2^T`, exact except when every lane is dropped and `L = 2^T`,
//! which `n` handles apart), and the move flags travel with their lanes through the stages.

use rust_hdl::core::prelude::*;

/// Stages of the network: `2^T ≥ L`, so every move `z_i < L` is a sum of stage shifts.
pub(super) fn stages(l: usize) -> usize {
    (usize::BITS - (l - 1).leading_zeros()) as usize
}

/// Compacts the kept byte lanes of `d` to lanes `0..n` (in order), zero above.
#[derive(LogicBlock, Default)]
pub struct ByteCompact<const L: usize, const W: usize> {
    /// Input lanes: lane `i` in bits `[8i +: 8]`.
    pub d: Signal<In, Bits<W>>,
    /// Lane `i` is kept iff bit `i` is set.
    pub keep: Signal<In, Bits<L>>,
    /// The kept lanes in order from lane 0, every other lane zero.
    pub y: Signal<Out, Bits<W>>,
    /// Number of kept lanes.
    pub n: Signal<Out, Bits<12>>,
}

impl<const L: usize, const W: usize> Logic for ByteCompact<L, W> {
    fn update(&mut self) {
        let (d, keep) = (super::bytes_of(self.d.val()), self.keep.val());
        let kept: Vec<u8> = (0..L).filter(|i| keep.get_bit(*i)).map(|i| d[i]).collect();
        self.n.next = (kept.len() as u64).into();
        self.y.next = super::bits_of(&kept);
    }
    fn connect(&mut self) {
        assert_eq!(8 * L, W, "ByteCompact: W must be 8*L");
        assert!(L >= 2 && L < 4096, "ByteCompact: 2 <= L < 4096");
        self.y.connect();
        self.n.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(compact_verilog(L))
    }
}

/// The steering of a byte-lane network over `l` lanes, shared by [`ByteCompact`] and
/// [`ByteExpand`](super::ByteExpand): the scan, per compaction stage `k` the lanes that move
/// (`mv{k}`, positions before stage `k`), with `v{T}` (the lanes holding a kept lane after the
/// last stage) when `final_lanes`, and the output `n` (kept lanes). Returns `T`.
pub(super) fn steer_verilog(l: usize, final_lanes: bool, v: &mut String) -> usize {
    let t = stages(l);
    let top = l - 1;
    let wire = |v: &mut String, name: String, expr: String| {
        v.push_str(&format!("wire [{top}:0] {name} = {expr};\n"));
    };
    // Scan: plane b of step s holds bit b of each lane's inclusive count of dropped lanes.
    wire(v, "p0_0".into(), "~keep".into());
    for b in 1..t {
        wire(v, format!("p0_{b}"), format!("{l}'d0"));
    }
    for s in 0..t {
        let sh = 1usize << s;
        wire(v, format!("cy{s}_0"), format!("{l}'d0"));
        for b in 0..t {
            wire(
                v,
                format!("x{s}_{b}"),
                format!("p{s}_{b} ^ (p{s}_{b} << {sh})"),
            );
            wire(
                v,
                format!("p{}_{b}", s + 1),
                format!("x{s}_{b} ^ cy{s}_{b}"),
            );
            if b + 1 < t {
                // The carry out of the top plane is dropped: counts are modulo 2^T.
                wire(
                    v,
                    format!("g{s}_{b}"),
                    format!("p{s}_{b} & (p{s}_{b} << {sh})"),
                );
                wire(
                    v,
                    format!("cy{s}_{}", b + 1),
                    format!("g{s}_{b} | (cy{s}_{b} & x{s}_{b})"),
                );
            }
        }
    }
    // Stages: z planes (the move distance of each kept lane) and the lanes holding one.
    wire(v, "v0".into(), "keep".into());
    for b in 0..t {
        wire(v, format!("z0_{b}"), format!("p{t}_{b} & keep"));
    }
    for k in 0..t {
        let sh = 1usize << k;
        wire(v, format!("mv{k}"), format!("v{k} & z{k}_{k}"));
        if k + 1 < t || final_lanes {
            wire(
                v,
                format!("v{}", k + 1),
                format!("(v{k} & ~z{k}_{k}) | (mv{k} >> {sh})"),
            );
        }
        for b in k + 1..t {
            wire(
                v,
                format!("z{}_{b}", k + 1),
                format!("(z{k}_{b} & ~mv{k}) | ((z{k}_{b} & mv{k}) >> {sh})"),
            );
        }
    }
    // The top lane's count is the number of dropped lanes modulo 2^T; it is only ambiguous
    // when no lane is kept (L dropped, L = 2^T), which `|keep` decides.
    let zc = (0..t)
        .rev()
        .map(|b| format!("p{t}_{b}[{top}]"))
        .collect::<Vec<_>>()
        .join(", ");
    v.push_str(&format!(
        "always @(*) n = (|keep) ? 12'd{l} - {{{}'d0, {zc}}} : 12'd0;\n",
        12 - t
    ));
    t
}

/// One network lane `q` of stage wire `s{k}`: bits `[8q+7:8q]`.
pub(super) fn lane(k: usize, q: usize) -> String {
    format!("s{k}[{}:{}]", 8 * q + 7, 8 * q)
}

/// `{{8{f[l-1]}}, …, {8{f[0]}}}`: a byte-lane mask from the `l` flags `f`.
pub(super) fn byte_mask(f: &str, l: usize) -> String {
    let parts = (0..l)
        .rev()
        .map(|i| format!("{{8{{{f}[{i}]}}}}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{{{parts}}}")
}

/// The Verilog body of [`ByteCompact`] for `l` lanes.
fn compact_verilog(l: usize) -> String {
    let mut v = String::new();
    let t = steer_verilog(l, true, &mut v);
    v.push_str(&format!("wire [{}:0] s0 = d;\n", 8 * l - 1));
    for k in 0..t {
        let sh = 1usize << k;
        v.push_str(&format!("wire [{}:0] s{};\n", 8 * l - 1, k + 1));
        for p in 0..l {
            let rhs = if p + sh < l {
                format!("mv{k}[{}] ? {} : {}", p + sh, lane(k, p + sh), lane(k, p))
            } else {
                lane(k, p)
            };
            v.push_str(&format!("assign {} = {rhs};\n", lane(k + 1, p)));
        }
    }
    v.push_str(&format!(
        "always @(*) y = s{t} & {};\n",
        byte_mask(&format!("v{t}"), l)
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{settle, XorShift64};

    #[test]
    fn stage_counts() {
        assert_eq!(stages(20), 5);
        assert_eq!(stages(144), 8);
        assert_eq!(stages(32), 5);
        assert_eq!(stages(2), 1);
    }

    #[test]
    fn compacts_kept_lanes_in_order() {
        let mut uut = ByteCompact::<20, 160>::default();
        uut.connect_all();
        let mut rng = XorShift64::new(7);
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
            let kept: Vec<u8> = (0..20)
                .filter(|i| keep >> i & 1 == 1)
                .map(|i| bytes[i])
                .collect();
            let y = uut.y.val();
            for i in 0..20 {
                let want = kept.get(i).copied().unwrap_or(0) as u64;
                assert_eq!(y.get_bits::<8>(8 * i).to_u64(), want, "lane {i}");
            }
            assert_eq!(uut.n.val().to_u64(), kept.len() as u64);
        }
    }
}
