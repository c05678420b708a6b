//! The decompressor's lane selections: [`HeadPick`] (the block-to-block loop's table
//! lookup) and [`BlockExtract`] (a block out of two beats). Each is a multiplexer by a small
//! register, written as Verilog `case`s or one shift so that synthesis sees a plain
//! multiplexer tree.
//!
//! A start lane `s` is below `P = 32 + M` (`M` = 1, 2 or 4) wherever its selection is used,
//! so the selections decode only what they must ([`lane_of`]): lanes 0–31 by `s[4:0]`, lanes
//! 32.. by `s[5]` and `s`'s low bits. A `case` over all seven bits with a default arm costs
//! the loop a LUT level and its routing (issue 17: the E = 8 loop `sr` → `sr`).

use rust_hdl::core::prelude::*;

use super::table::ENTRY;

/// The lane a selection by `s` reads among `P` lanes: `s` itself when `s < P`; else
/// an unspecified one (the selection's result is then unused).
pub(crate) fn lane_of(s: u64, p: usize) -> usize {
    assert!(
        (33..=36).contains(&p) && (p - 32).is_power_of_two(),
        "lane_of: P must be 32 + M"
    );
    if s & 32 == 0 {
        (s & 31) as usize
    } else {
        32 + (s as usize & (p - 33))
    }
}

/// Verilog for `out = part(lane_of(s, p))` as two `case`s and a final choice by `s[5]`,
/// the decode [`lane_of`] describes; `part(j)` is the Verilog slice of lane `j`. `sel` is a
/// 7-bit signal holding `s`, or `!s` if `inv` (then the cases list the lanes in reverse: no
/// inverter in front of the multiplexers); `out` is a `reg` of `width` bits declared by the
/// caller (`lo_out` and `hi_out`, the two halves, are declared here).
fn lane_case(
    out: &str,
    width: usize,
    sel: &str,
    inv: bool,
    p: usize,
    part: impl Fn(usize) -> String,
) -> String {
    // The lane a case arm `j` of a `bits`-bit selection stands for.
    let lane = |j: usize, bits: u32| if inv { (1 << bits) - 1 - j } else { j };
    let mut v = format!(
        "reg [{w}:0] lo_{out};\nreg [{w}:0] hi_{out};\nalways @(*) begin\n   case ({sel}[4:0])\n",
        w = width - 1
    );
    for j in 0..31 {
        v.push_str(&format!("      5'd{j}: lo_{out} = {};\n", part(lane(j, 5))));
    }
    v.push_str(&format!(
        "      default: lo_{out} = {};\n   endcase\n",
        part(lane(31, 5))
    ));
    match p - 32 {
        1 => v.push_str(&format!("   hi_{out} = {};\n", part(32))),
        2 => v.push_str(&format!(
            "   hi_{out} = {sel}[0] ? {} : {};\n",
            part(32 + lane(1, 1)),
            part(32 + lane(0, 1))
        )),
        _ => {
            v.push_str(&format!("   case ({sel}[1:0])\n"));
            for j in 0..3 {
                v.push_str(&format!(
                    "      2'd{j}: hi_{out} = {};\n",
                    part(32 + lane(j, 2))
                ));
            }
            v.push_str(&format!(
                "      default: hi_{out} = {};\n   endcase\n",
                part(32 + lane(3, 2))
            ));
        }
    }
    let (one, zero) = if inv { ("lo", "hi") } else { ("hi", "lo") };
    v.push_str(&format!(
        "   {out} = {sel}[5] ? {one}_{out} : {zero}_{out};\nend\n"
    ));
    v
}

/// Entry `s` of the loop's copy of the head beat's finished table
/// ([`super::finish::EntryFinish`]): the next block's lane `nxt` and `nn`, and the block's
/// `tr` (truncated) and `fin` (the tensor's last).
#[derive(LogicBlock, Default)]
pub struct HeadPick<const P: usize, const TW: usize> {
    /// The head beat's finished table.
    pub t: Signal<In, Bits<TW>>,
    /// The block's first lane (`< P`; `≥ P` reads an unspecified entry).
    pub s: Signal<In, Bits<7>>,
    /// Entry `s`'s next lane.
    pub nxt: Signal<Out, Bits<7>>,
    /// Entry `s`'s `nn`: the next block is the last to start in its beat.
    pub nn: Signal<Out, Bit>,
    /// Entry `s`'s block is truncated.
    pub tr: Signal<Out, Bit>,
    /// Entry `s`'s block is its tensor's last.
    pub fin: Signal<Out, Bit>,
}

impl<const P: usize, const TW: usize> Logic for HeadPick<P, TW> {
    fn update(&mut self) {
        let j = lane_of(self.s.val().to_u64(), P);
        let e = self.t.val().get_bits::<16>(ENTRY * j).to_u64();
        self.nxt.next = (e >> 7 & 0x7F).into();
        self.nn.next = e >> 15 & 1 == 1;
        self.tr.next = e & 1 == 1;
        self.fin.next = e >> 1 & 1 == 1;
    }
    fn connect(&mut self) {
        assert_eq!(ENTRY * P, TW, "HeadPick: TW must be 16P");
        self.nxt.connect();
        self.nn.connect();
        self.tr.connect();
        self.fin.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::from("reg [15:0] e;\n");
        v.push_str(&lane_case("e", 16, "s", false, P, |j| {
            format!("t[{}:{}]", ENTRY * j + 15, ENTRY * j)
        }));
        v.push_str(
            "always @(*) nxt = e[13:7];\nalways @(*) nn = e[15];\n\
             always @(*) tr = e[0];\nalways @(*) fin = e[1];\n",
        );
        // The zero bits and `pp` (read from the queue, for a fresh tensor's first block).
        // `s[6]` only marks a used-up beat, when the lookup is unused.
        v.push_str("wire unused_e = &{1'b0, e[14], e[6:2], s[6]};\n");
        Verilog::Custom(v)
    }
}

/// A block out of a 2-beat window (`WW = 2·PW` bits, beat 0 in the low half), the block
/// starting at lane `s < P`, in two sections: section 1 selects its mask (lanes `s..s+M`,
/// `M = 32/E`) and the lanes `8·⌊s/8⌋ + M ..` (`HW = BW + 7E` bits, lanes past the window
/// zero); section 2 drops the remaining `s mod 8` lanes, leaving the block's 32 stored-element
/// lanes (`BW = 32E`; lanes past the block belong to the next one).
#[derive(LogicBlock, Default)]
pub struct BlockExtract<
    const P: usize,
    const E: usize,
    const WW: usize,
    const HW: usize,
    const BW: usize,
> {
    /// Section 1: beats `k` (lanes `0..P`) and `k + 1`.
    pub win: Signal<In, Bits<WW>>,
    /// Section 1: the block's first lane.
    pub s: Signal<In, Bits<7>>,
    /// Section 1: `!s`, from a copy of its register that selects the mask only (the copy
    /// holds `!s` so that synthesis does not merge it with `s`'s; issue 17: `s` → the mask
    /// was the longest path at E = 32, `s` fanning out to every lane of the window).
    pub sn: Signal<In, Bits<7>>,
    /// Section 1: the block's mask.
    pub mask: Signal<Out, Bits<32>>,
    /// Section 1: lanes from `8·⌊s/8⌋ + M` on.
    pub dh: Signal<Out, Bits<HW>>,
    /// Section 2: a registered `dh`.
    pub dh_q: Signal<In, Bits<HW>>,
    /// Section 2: `s mod 8`.
    pub slo: Signal<In, Bits<3>>,
    /// Section 2: the block's stored elements, compacted (lane 0 first).
    pub x: Signal<Out, Bits<BW>>,
}

impl<const P: usize, const E: usize, const WW: usize, const HW: usize, const BW: usize>
    BlockExtract<P, E, WW, HW, BW>
{
    const M: usize = 32 / E;
    /// Groups of 8 lanes a start lane can fall in.
    const GROUPS: usize = P.div_ceil(8);
}

/// Bits `[at, at + N)` of `v`, zero past its end.
fn window<const W: usize, const N: usize>(v: Bits<W>, at: usize) -> Bits<N> {
    if at >= W {
        return Bits::<N>::default();
    }
    let shifted = v >> (at as u64);
    let mut y = Bits::<N>::default();
    for i in 0..N.min(W - at) {
        y = y.replace_bit(i, shifted.get_bit(i));
    }
    y
}

impl<const P: usize, const E: usize, const WW: usize, const HW: usize, const BW: usize> Logic
    for BlockExtract<P, E, WW, HW, BW>
{
    fn update(&mut self) {
        let s = lane_of(self.s.val().to_u64(), P);
        let sm = lane_of(!self.sn.val().to_u64() & 0x7F, P);
        self.mask.next = window::<WW, 32>(self.win.val(), sm * E);
        self.dh.next = window::<WW, HW>(self.win.val(), (s / 8 * 8 + Self::M) * E);
        let slo = self.slo.val().to_u64() as usize;
        self.x.next = window::<HW, BW>(self.dh_q.val(), slo * E);
    }
    fn connect(&mut self) {
        assert_eq!(2 * P * E, WW, "BlockExtract: WW must be 2*P*E");
        assert_eq!(32 * E, BW, "BlockExtract: BW must be 32*E");
        assert_eq!(BW + 7 * E, HW, "BlockExtract: HW must be BW + 7E");
        self.mask.connect();
        self.dh.connect();
        self.x.connect();
    }
    fn hdl(&self) -> Verilog {
        let m = Self::M;
        // The window padded with zeros so that every selection is in range.
        let pad = ((8 * (Self::GROUPS - 1) + m) * E + HW).saturating_sub(WW);
        let mut v = if pad == 0 {
            format!("wire [{}:0] wz = win;\n", WW - 1)
        } else {
            format!("wire [{}:0] wz = {{{pad}'d0, win}};\n", WW + pad - 1)
        };
        v.push_str(&lane_case("mask", 32, "sn", true, P, |j| {
            format!("wz[{}:{}]", j * E + 31, j * E)
        }));
        // Lanes `8g + M ..` for the group `g = ⌊s/8⌋` (0..=4, as `P ≤ 36`): by `s[4:3]`, and
        // group 4 when `s[5]`.
        assert!(Self::GROUPS == 5, "BlockExtract: P must be 33..=36");
        let dh = |g: usize| format!("wz[{}:{}]", (8 * g + m) * E + HW - 1, (8 * g + m) * E);
        v.push_str(&format!(
            "reg [{}:0] dh_lo;\nalways @(*) begin\n   case (s[4:3])\n",
            HW - 1
        ));
        for g in 0..3 {
            v.push_str(&format!("      2'd{g}: dh_lo = {};\n", dh(g)));
        }
        v.push_str(&format!("      default: dh_lo = {};\n   endcase\n", dh(3)));
        v.push_str(&format!("   dh = s[5] ? {} : dh_lo;\nend\n", dh(4)));
        // `s[6]` only marks a used-up beat, when no block is taken; `s[2:0]` is section 2's
        // `slo`, registered by the parent.
        v.push_str("wire unused_s = &{1'b0, s[6], s[2:0], sn[6]};\n");
        v.push_str("always @(*) begin\n");
        v.push_str("   case (slo)\n");
        for r in 1..8 {
            v.push_str(&format!(
                "      3'd{r}: x = dh_q[{}:{}];\n",
                r * E + BW - 1,
                r * E
            ));
        }
        v.push_str(&format!(
            "      default: x = dh_q[{}:0];\n   endcase\nend\n",
            BW - 1
        ));
        Verilog::Custom(v)
    }
}
