//! The decompressor's lane selections: [`HeadPick`] (the block-to-block loop's table
//! lookup) and [`BlockExtract`] (a block out of two beats). Each is a multiplexer by a small
//! register, written as Verilog `case`s or one shift so that synthesis sees a plain
//! multiplexer tree.

use rust_hdl::core::prelude::*;

use super::table::ENTRY;

/// Entry `s` of the loop's copy of the head beat's finished table
/// ([`super::finish::EntryFinish`]): the next block's lane `nxt` and `nn`, and the block's
/// `tr` (truncated) and `fin` (the tensor's last).
#[derive(LogicBlock, Default)]
pub struct HeadPick<const P: usize, const TW: usize> {
    /// The head beat's finished table.
    pub t: Signal<In, Bits<TW>>,
    /// The block's first lane (`< P`; `≥ P` reads entry 0).
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
        let s = self.s.val().to_u64() as usize;
        let j = if s < P { s } else { 0 };
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
        let mut v = String::from("reg [15:0] e;\nalways @(*) begin\n   case (s)\n");
        for j in 1..P {
            v.push_str(&format!(
                "      7'd{j}: e = t[{}:{}];\n",
                16 * j + 15,
                16 * j
            ));
        }
        v.push_str("      default: e = t[15:0];\n   endcase\nend\n");
        v.push_str(
            "always @(*) nxt = e[13:7];\nalways @(*) nn = e[15];\n\
             always @(*) tr = e[0];\nalways @(*) fin = e[1];\n",
        );
        // The zero bits and `pp` (read from the queue, for a fresh tensor's first block).
        v.push_str("wire unused_e = &{1'b0, e[14], e[6:2]};\n");
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
        let s = (self.s.val().to_u64() as usize).min(P - 1);
        self.mask.next = window::<WW, 32>(self.win.val(), s * E);
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
        v.push_str("always @(*) begin\n   case (s)\n");
        for j in 1..P {
            v.push_str(&format!(
                "      7'd{j}: mask = wz[{}:{}];\n",
                j * E + 31,
                j * E
            ));
        }
        v.push_str("      default: mask = wz[31:0];\n   endcase\n");
        v.push_str("   case (s[6:3])\n");
        for g in 1..Self::GROUPS {
            let lo = (8 * g + m) * E;
            v.push_str(&format!("      4'd{g}: dh = wz[{}:{lo}];\n", lo + HW - 1));
        }
        v.push_str(&format!(
            "      default: dh = wz[{}:{}];\n   endcase\n",
            m * E + HW - 1,
            m * E
        ));
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
