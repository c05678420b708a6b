//! [`BeatTable`]: for one full beat of the packed stream, where a block starting at each of
//! its `P` lanes would end, computed ahead so that the decompressor's block-to-block loop is
//! a table lookup (four sections, with pipeline registers in the parent between them).

use rust_hdl::core::prelude::*;

/// Bits per table entry; entry `j` is bits `[16j +: 16]`.
pub const ENTRY: usize = 16;

/// The block-end table of a beat of `P` lanes of `E` bits (`PW = P·E`, `BPW = PW/2`,
/// `SW = 8P`, `TW = 16P`). A block starting at lane `j` has its 32-bit mask in lanes
/// `j..j+M` (`M = 32/E`) and ends at lane `end_j = j + M + popcount(mask)`, counted from the
/// beat's lane 0 (up to `2P - 1`: a block is at most `P` lanes, so it ends in this beat or
/// the next). For `j > P - M` (*straddling* entries) the mask runs into the next beat, whose
/// first lanes' popcounts (`pre`) complete the entry when that beat is known.
///
/// * section 1 (`x` → `bp`): every byte's popcount (4 bits each);
/// * section 2 (`bp_q` → `sm`, `pre`; the beat's count `c2` → `lim`): per entry the popcount
///   of its mask bytes in this beat (8 bits each), and the popcounts of the beat's first
///   `t·E/8` bytes for `t = 1..M` (`pre`, 8 bits each, zero above); per entry the least `sm`
///   that ends it at or past the count, `max(c2 - j - M, 0)` (`lim`, 8 bits each), so that
///   section 3 compares once instead of adding and then comparing (issue 17: that chain of
///   two carry chains was the longest path at E = 8);
/// * section 3 (`sm_q`, `lim_q` → `raw`): per entry `e = j + M + sm` (7 bits), `e - P`
///   (7 bits, mod 128), `e ≥ P` (bit 14) and `e ≥` the count (bit 15, `sm ≥ lim`); and the entries'
///   `pp` (below) as two vectors, `ge3` for a beat that is not the last and `gc3` for one
///   that is, so that the stage after section 4 can read a beat's `pp` bits from registers;
/// * section 4 (`raw_h`, the beat's last flag `l`, the next beat's `pre_n` → `tab`): per
///   entry its end (bits 0..7), the next block's lane `nxt` (bits 7..14) and `pp` (bit 14:
///   the next block starts in a later beat). In a beat that is not the last, `pp = end ≥ P`
///   and `nxt = end mod P`; in the last beat (`c` lanes) `pp = end ≥ c` and `nxt = 0` when
///   `pp` (the next tensor starts on a fresh beat). A straddling entry always has `pp` (its
///   end is past lane `P`); in a last beat it cannot complete, and its end (`> c`) marks the
///   block truncated ([`super::finish::EntryFinish`] turns the ends into flags).
#[derive(LogicBlock, Default)]
pub struct BeatTable<
    const P: usize,
    const E: usize,
    const PW: usize,
    const BPW: usize,
    const SW: usize,
    const TW: usize,
> {
    /// Section 1: the beat (lanes at and above its count zero).
    pub x: Signal<In, Bits<PW>>,
    /// Section 1: byte `i`'s popcount in bits `[4i +: 4]`.
    pub bp: Signal<Out, Bits<BPW>>,
    /// Section 2: a registered `bp`.
    pub bp_q: Signal<In, Bits<BPW>>,
    /// Section 2: entry `j`'s in-beat mask popcount in bits `[8j +: 8]`.
    pub sm: Signal<Out, Bits<SW>>,
    /// Section 2: popcount of the beat's first `t` lanes in bits `[8(t-1) +: 8]`, `t < M`.
    pub pre: Signal<Out, Bits<24>>,
    /// Section 2: the beat's valid lanes (P unless it is the last).
    pub c2: Signal<In, Bits<7>>,
    /// Section 2: entry `j`'s `max(c2 - j - M, 0)` in bits `[8j +: 8]`.
    pub lim: Signal<Out, Bits<SW>>,
    /// Section 3: a registered `sm`.
    pub sm_q: Signal<In, Bits<SW>>,
    /// Section 3: a registered `lim`.
    pub lim_q: Signal<In, Bits<SW>>,
    /// Section 3: per entry `e`, `e - P`, `e ≥ P`, `e ≥` the beat's count.
    pub raw: Signal<Out, Bits<TW>>,
    /// Section 3: entry `j`'s `pp` in bit `j` if the beat is not the last.
    pub ge3: Signal<Out, Bits<P>>,
    /// Section 3: entry `j`'s `pp` in bit `j` if the beat is the last.
    pub gc3: Signal<Out, Bits<P>>,
    /// Section 4: a registered `raw`.
    pub raw_h: Signal<In, Bits<TW>>,
    /// Section 4: the beat is the tensor's last.
    pub l: Signal<In, Bit>,
    /// Section 4: the next beat's `pre` (ignored when `l`).
    pub pre_n: Signal<In, Bits<24>>,
    /// Section 4: per entry its end, `nxt` and `pp`.
    pub tab: Signal<Out, Bits<TW>>,
}

const M7: u64 = 0x7F;

impl<
        const P: usize,
        const E: usize,
        const PW: usize,
        const BPW: usize,
        const SW: usize,
        const TW: usize,
    > BeatTable<P, E, PW, BPW, SW, TW>
{
    const M: usize = 32 / E;

    /// Bytes of entry `j`'s mask inside this beat.
    fn entry_bytes(j: usize) -> std::ops::Range<usize> {
        let b = j * E / 8;
        b..(b + 4).min(PW / 8)
    }

    fn straddles(j: usize) -> bool {
        j + Self::M > P
    }
}

/// Bits `[at, at + w)` of a table entry.
pub(super) fn field(v: u64, at: usize, w: usize) -> u64 {
    (v >> at) & ((1 << w) - 1)
}

/// Verilog concatenation of per-lane or per-entry names given lane 0 first (so lane 0 ends
/// up in the low bits).
pub(super) fn cat(mut names: Vec<String>) -> String {
    names.reverse();
    names.join(", ")
}

impl<
        const P: usize,
        const E: usize,
        const PW: usize,
        const BPW: usize,
        const SW: usize,
        const TW: usize,
    > Logic for BeatTable<P, E, PW, BPW, SW, TW>
{
    fn update(&mut self) {
        let m = Self::M;
        // Section 1.
        let mut bp = Bits::<BPW>::default();
        for i in 0..PW / 8 {
            let n = self.x.val().get_bits::<8>(8 * i).to_u64().count_ones();
            bp.set_bits::<4>(4 * i, u64::from(n).into());
        }
        self.bp.next = bp;
        // Section 2.
        let byte = |i: usize| self.bp_q.val().get_bits::<4>(4 * i).to_u64();
        let mut sm = Bits::<SW>::default();
        for j in 0..P {
            let s: u64 = Self::entry_bytes(j).map(byte).sum();
            sm.set_bits::<8>(8 * j, s.into());
        }
        self.sm.next = sm;
        let mut pre = 0u64;
        for t in 1..m {
            let s: u64 = (0..t * E / 8).map(byte).sum();
            pre |= s << (8 * (t - 1));
        }
        self.pre.next = pre.into();
        let c2 = self.c2.val().to_u64();
        let mut lim = Bits::<SW>::default();
        for j in 0..P {
            lim.set_bits::<8>(8 * j, c2.saturating_sub((j + m) as u64).into());
        }
        self.lim.next = lim;
        // Section 3.
        let mut raw = Bits::<TW>::default();
        for j in 0..P {
            let s = self.sm_q.val().get_bits::<8>(8 * j).to_u64();
            let e = (s + (j + m) as u64) & M7;
            let sub = (s + (j + m) as u64).wrapping_sub(P as u64) & M7;
            let ge = u64::from(s + (j + m) as u64 >= P as u64);
            let gec = u64::from(s >= self.lim_q.val().get_bits::<8>(8 * j).to_u64());
            raw.set_bits::<16>(ENTRY * j, (e | sub << 7 | ge << 14 | gec << 15).into());
        }
        self.raw.next = raw;
        let pp_vec = |bit: usize| {
            (0..P).fold(Bits::<P>::default(), |v, j| {
                v.replace_bit(j, Self::straddles(j) || raw.get_bit(ENTRY * j + bit))
            })
        };
        self.ge3.next = pp_vec(14);
        self.gc3.next = pp_vec(15);
        // Section 4.
        let l = self.l.val();
        let pre_n = self.pre_n.val().to_u64();
        let mut tab = Bits::<TW>::default();
        for j in 0..P {
            let r = self.raw_h.val().get_bits::<16>(ENTRY * j).to_u64();
            let (e, sub, ge, gec) = (
                field(r, 0, 7),
                field(r, 7, 7),
                field(r, 14, 1) == 1,
                field(r, 15, 1) == 1,
            );
            let (end, nxt, pp) = if Self::straddles(j) {
                let add = if l {
                    0
                } else {
                    field(pre_n, 8 * (j + m - P - 1), 7)
                };
                let nxt = if l { 0 } else { (sub + add) & M7 };
                ((e + add) & M7, nxt, true)
            } else {
                let pp = if l { gec } else { ge };
                let nxt = match (pp, l) {
                    (false, _) => e,
                    (true, true) => 0,
                    (true, false) => sub,
                };
                (e, nxt, pp)
            };
            tab.set_bits::<16>(ENTRY * j, (end | nxt << 7 | u64::from(pp) << 14).into());
        }
        self.tab.next = tab;
    }
    fn connect(&mut self) {
        assert_eq!(P * E, PW, "BeatTable: PW must be P*E");
        assert_eq!(PW / 2, BPW, "BeatTable: BPW must be PW/2");
        assert_eq!(8 * P, SW, "BeatTable: SW must be 8P");
        assert_eq!(ENTRY * P, TW, "BeatTable: TW must be 16P");
        assert!(Self::M <= 4 && P >= 32 + Self::M, "BeatTable: P too small");
        self.bp.connect();
        self.sm.connect();
        self.pre.connect();
        self.lim.connect();
        self.raw.connect();
        self.ge3.connect();
        self.gc3.connect();
        self.tab.connect();
    }
    fn hdl(&self) -> Verilog {
        let m = Self::M;
        let mut v = String::new();
        // Section 1.
        for i in 0..PW / 8 {
            let terms = (0..8)
                .map(|b| format!("{{3'b0, x[{}]}}", 8 * i + b))
                .collect::<Vec<_>>()
                .join(" + ");
            v.push_str(&format!("wire [3:0] bp{i} = {terms};\n"));
        }
        let names = (0..PW / 8).map(|i| format!("bp{i}")).collect();
        v.push_str(&format!("always @(*) bp = {{{}}};\n", cat(names)));
        // Section 2.
        let sum = |r: std::ops::Range<usize>| {
            r.map(|i| format!("{{4'b0, bp_q[{}:{}]}}", 4 * i + 3, 4 * i))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        for j in 0..P {
            v.push_str(&format!(
                "wire [7:0] sm{j} = {};\n",
                sum(Self::entry_bytes(j))
            ));
        }
        let names = (0..P).map(|j| format!("sm{j}")).collect();
        v.push_str(&format!("always @(*) sm = {{{}}};\n", cat(names)));
        let mut pres = vec![];
        for t in 1..4 {
            if t < m {
                v.push_str(&format!("wire [7:0] pre{t} = {};\n", sum(0..t * E / 8)));
                pres.push(format!("pre{t}"));
            } else {
                pres.push("8'd0".to_string());
            }
        }
        v.push_str(&format!("always @(*) pre = {{{}}};\n", cat(pres)));
        for j in 0..P {
            let k = j + m;
            v.push_str(&format!(
                "wire [7:0] lim{j} = (c2 > 7'd{k}) ? {{1'b0, c2 - 7'd{k}}} : 8'd0;\n"
            ));
        }
        let names = (0..P).map(|j| format!("lim{j}")).collect();
        v.push_str(&format!("always @(*) lim = {{{}}};\n", cat(names)));
        // Section 3.
        for j in 0..P {
            let s = format!("sm_q[{}:{}]", 8 * j + 6, 8 * j);
            let sub = ((j + m) as i64 - P as i64).rem_euclid(128);
            let lim = P as i64 - (j + m) as i64;
            let ge = if lim <= 0 {
                "1'b1".to_string()
            } else {
                format!("(sm_q[{}:{}] >= 8'd{lim})", 8 * j + 7, 8 * j)
            };
            v.push_str(&format!(
                "wire [6:0] e{j} = {s} + 7'd{};\n\
                 wire [15:0] raw{j} = {{(sm_q[{hi}:{lo}] >= lim_q[{hi}:{lo}]), {ge}, \
                 {s} + 7'd{sub}, e{j}}};\n",
                j + m,
                hi = 8 * j + 7,
                lo = 8 * j,
            ));
        }
        let names = (0..P).map(|j| format!("raw{j}")).collect();
        v.push_str(&format!("always @(*) raw = {{{}}};\n", cat(names)));
        for (name, bit) in [("ge3", 14), ("gc3", 15)] {
            let pps = (0..P)
                .map(|j| {
                    if Self::straddles(j) {
                        "1'b1".to_string()
                    } else {
                        format!("raw{j}[{bit}]")
                    }
                })
                .collect();
            v.push_str(&format!("always @(*) {name} = {{{}}};\n", cat(pps)));
        }
        // Section 4.
        for j in 0..P {
            let (e, sub, ge, gec) = (
                format!("raw_h[{}:{}]", 16 * j + 6, 16 * j),
                format!("raw_h[{}:{}]", 16 * j + 13, 16 * j + 7),
                format!("raw_h[{}]", 16 * j + 14),
                format!("raw_h[{}]", 16 * j + 15),
            );
            let entry = if Self::straddles(j) {
                let lo = 8 * (j + m - P - 1);
                let add = format!("pre_n[{}:{}]", lo + 6, lo);
                format!("{{1'b0, 1'b1, (l ? 7'd0 : {sub} + {add}), (l ? {e} : {e} + {add})}}")
            } else {
                let pp = format!("(l ? {gec} : {ge})");
                format!("{{1'b0, {pp}, ({pp} ? (l ? 7'd0 : {sub}) : {e}), {e}}}")
            };
            v.push_str(&format!("wire [15:0] tab{j} = {entry};\n"));
        }
        let names = (0..P).map(|j| format!("tab{j}")).collect();
        v.push_str(&format!("always @(*) tab = {{{}}};\n", cat(names)));
        // Bits no entry reads (the fields' spare top bits, `pre_n` where no entry straddles).
        v.push_str("wire unused_bits = &{1'b0, sm_q, raw_h, pre_n};\n");
        Verilog::Custom(v)
    }
}
