//! [`BeatLanes`]: a bus beat laid out as the byte lanes the compaction network packs, with the
//! block masks as always-kept lanes in front of their block's bytes.
//!
//! The layout is fixed (it does not depend on the element width, so no lane multiplexer):
//! the beat is cut into `S = max(1, N/32)` regions of `R = N/S` bytes, each preceded by a
//! 4-byte *mask slot*: region `s` starts at lane `(R + 4)·s`, its slot's bytes first, then
//! its `R` data bytes; `L = N + 4·S` lanes in all. What the element width changes is only
//! which lanes are kept:
//! * a data byte iff it is below `cnt` and (raw, or its element is non-zero);
//! * a mask slot iff it starts a block: when a block (`32·E/8` bytes) fits in the beat, the
//!   slots at the block starts (every slot for E = 8, every other for E = 16 on a 64-byte
//!   region pitch, …) that lie below `cnt`, holding the block's mask from the beat's own
//!   element flags; when a block spans `k > 1` beats, slot 0 of the block's first beat
//!   (`first`), holding `kmask`, the block's mask gathered by the compressor over its
//!   `k` beats. Never in a raw beat.
//!
//! Compacting the kept lanes in order gives exactly the ZVC payload bytes of the beat
//! (docs/FORMAT.md: per block the 32-bit little-endian mask, then its non-zero elements).

use rust_hdl::core::prelude::*;

use super::elem_flags::elem_bytes;

/// Mask slots of an `n`-byte beat.
pub(crate) fn slots(n: usize) -> usize {
    (n / 32).max(1)
}

/// Lanes of the layout of an `n`-byte beat.
pub(crate) fn lanes(n: usize) -> usize {
    n + 4 * slots(n)
}

/// What lane a piece of the beat occupies.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lane {
    /// Data byte `j`.
    Data(usize),
    /// Byte `b` of mask slot `s`.
    Mask(usize, usize),
}

/// The layout of an `n`-byte beat, lane by lane.
fn layout(n: usize) -> Vec<Lane> {
    let r = n / slots(n);
    (0..slots(n))
        .flat_map(|s| {
            (0..4)
                .map(move |b| Lane::Mask(s, b))
                .chain((0..r).map(move |i| Lane::Data(s * r + i)))
        })
        .collect()
}

/// One element width's rule for mask slot `s` of an `n`-byte beat: `None` if the slot never
/// holds a mask, else whether the mask comes from the beat's own flags (`Some(Some(word))`:
/// flag word `word` of `ef`) or from the gathered `kmask` (`Some(None)`: slot 0 of a block's
/// first beat).
fn slot_rule(n: usize, elem: u64, s: usize) -> Option<Option<usize>> {
    let (r, kb) = (n / slots(n), 32 * elem_bytes(elem));
    if kb <= n {
        (s * r).is_multiple_of(kb).then_some(Some(s * r / kb))
    } else {
        (s == 0).then_some(None)
    }
}

/// Lays an `N`-byte beat (`W = 8·N`) out as `L` byte lanes (`WL = 8·L`) with keep flags.
#[derive(LogicBlock, Default)]
pub struct BeatLanes<const N: usize, const W: usize, const L: usize, const WL: usize> {
    /// The beat: byte `j` in bits `[8j +: 8]`.
    pub d: Signal<In, Bits<W>>,
    /// Element flags of the beat, packed from bit 0 ([`super::ElemFlags`]).
    pub ef: Signal<In, Bits<N>>,
    /// Valid bytes of the beat (`0..=N`).
    pub cnt: Signal<In, Bits<8>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits).
    pub elem: Signal<In, Bits<2>>,
    /// Store the beat's bytes as they are (a raw chunk, COPY): no masks, every valid byte.
    pub raw: Signal<In, Bit>,
    /// The beat is the first of a block that spans several beats.
    pub first: Signal<In, Bit>,
    /// The mask of the block whose first beat this is (blocks spanning several beats).
    pub kmask: Signal<In, Bits<32>>,
    /// The lanes, lane `i` in bits `[8i +: 8]`.
    pub y: Signal<Out, Bits<WL>>,
    /// Kept lanes.
    pub ykeep: Signal<Out, Bits<L>>,
}

/// The keep flags of an `N`-byte beat's `L` lanes (module docs): data bytes below `cnt`
/// whose element flag is set (every one when `raw`), mask slots that start a block.
fn keep_flags<const N: usize, const L: usize>(
    ef: Bits<N>,
    cnt: usize,
    elem: u64,
    raw: bool,
    first: bool,
) -> Bits<L> {
    let (r, eb) = (N / slots(N), elem_bytes(elem));
    let mut ykeep = Bits::<L>::default();
    for (lane, what) in layout(N).into_iter().enumerate() {
        let kept = match what {
            Lane::Data(j) => j < cnt && (raw || ef.get_bit(j / eb)),
            Lane::Mask(s, _) => match slot_rule(N, elem, s) {
                None => false,
                Some(Some(_)) => cnt > s * r && !raw,
                Some(None) => first && cnt > 0 && !raw,
            },
        };
        ykeep = ykeep.replace_bit(lane, kept);
    }
    ykeep
}

impl<const N: usize, const W: usize, const L: usize, const WL: usize> Logic
    for BeatLanes<N, W, L, WL>
{
    fn update(&mut self) {
        let (d, ef) = (crate::prims::bytes_of(self.d.val()), self.ef.val());
        let cnt = self.cnt.val().to_u64() as usize;
        let (elem, raw, first) = (self.elem.val().to_u64(), self.raw.val(), self.first.val());
        let kmask = self.kmask.val().to_u64();
        let y: Vec<u8> = layout(N)
            .into_iter()
            .map(|what| match what {
                Lane::Data(j) => d[j],
                Lane::Mask(s, b) => match slot_rule(N, elem, s) {
                    None => 0,
                    Some(Some(w)) => ef.get_bits::<32>(32 * w).get_bits::<8>(8 * b).to_u64() as u8,
                    Some(None) => (kmask >> (8 * b)) as u8,
                },
            })
            .collect();
        self.y.next = crate::prims::bits_of(&y);
        self.ykeep.next = keep_flags::<N, L>(ef, cnt, elem, raw, first);
    }
    fn connect(&mut self) {
        assert_eq!(8 * N, W, "BeatLanes: W must be 8*N");
        assert_eq!(lanes(N), L, "BeatLanes: L must be N + 4*max(1, N/32)");
        assert_eq!(8 * L, WL, "BeatLanes: WL must be 8*L");
        self.y.connect();
        self.ykeep.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(lanes_verilog(N, true))
    }
}

/// The keep flags of [`BeatLanes`] alone (the decompressor lays out its output beat, whose
/// bytes come from the expansion network, not from here).
#[derive(LogicBlock, Default)]
pub struct LaneKeep<const N: usize, const L: usize> {
    /// Element flags of the beat, packed from bit 0 (from the block masks).
    pub ef: Signal<In, Bits<N>>,
    /// Valid bytes of the beat (`0..=N`).
    pub cnt: Signal<In, Bits<8>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits).
    pub elem: Signal<In, Bits<2>>,
    /// A raw beat: every valid byte, no mask.
    pub raw: Signal<In, Bit>,
    /// The beat is the first of a block that spans several beats.
    pub first: Signal<In, Bit>,
    /// Kept lanes.
    pub ykeep: Signal<Out, Bits<L>>,
}

impl<const N: usize, const L: usize> Logic for LaneKeep<N, L> {
    fn update(&mut self) {
        let cnt = self.cnt.val().to_u64() as usize;
        self.ykeep.next = keep_flags::<N, L>(
            self.ef.val(),
            cnt,
            self.elem.val().to_u64(),
            self.raw.val(),
            self.first.val(),
        );
    }
    fn connect(&mut self) {
        assert_eq!(lanes(N), L, "LaneKeep: L must be N + 4*max(1, N/32)");
        self.ykeep.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(lanes_verilog(N, false))
    }
}

/// The beat's data bytes out of its lane layout (the mask slots dropped): byte `j` from lane
/// `j + 4·(j/R + 1)`.
#[derive(LogicBlock, Default)]
pub struct SlotDrop<const N: usize, const W: usize, const L: usize, const WL: usize> {
    /// The lanes.
    pub y: Signal<In, Bits<WL>>,
    /// The data bytes.
    pub d: Signal<Out, Bits<W>>,
}

impl<const N: usize, const W: usize, const L: usize, const WL: usize> Logic
    for SlotDrop<N, W, L, WL>
{
    fn update(&mut self) {
        let y = crate::prims::bytes_of(self.y.val());
        let mut d = vec![0u8; N];
        for (lane, what) in layout(N).into_iter().enumerate() {
            if let Lane::Data(j) = what {
                d[j] = y[lane];
            }
        }
        self.d.next = crate::prims::bits_of(&d);
    }
    fn connect(&mut self) {
        assert_eq!(lanes(N), L, "SlotDrop: L must be N + 4*max(1, N/32)");
        self.d.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut parts = vec![];
        let mut slots = vec!["1'b0".to_string()];
        for (lane, what) in layout(N).into_iter().enumerate() {
            let sel = format!("y[{}:{}]", 8 * lane + 7, 8 * lane);
            match what {
                Lane::Data(_) => parts.push(sel),
                Lane::Mask(..) => slots.push(sel),
            }
        }
        parts.reverse();
        Verilog::Custom(format!(
            "// The mask slots carry no output byte (Verilator ignores `*unused*` names).\n\
             wire unused_slots = &{{{}}};\nalways @(*) d = {{{}}};\n",
            slots.join(", "),
            parts.join(", ")
        ))
    }
}

/// The Verilog body of [`BeatLanes`] (`with_data`) or [`LaneKeep`] for an `n`-byte beat.
fn lanes_verilog(n: usize, with_data: bool) -> String {
    let r = n / slots(n);
    let mut v = String::new();
    let mut uses_k = false;
    for s in 0..slots(n) {
        // Per element width code 0, 1, 2: (active, mask word) of the slot.
        let per_elem: Vec<(String, String)> = (0..3)
            .map(|elem| match slot_rule(n, elem, s) {
                None => ("1'b0".into(), "32'd0".into()),
                Some(Some(w)) => (
                    format!("(cnt > 8'd{})", s * r),
                    format!("ef[{}:{}]", 32 * w + 31, 32 * w),
                ),
                Some(None) => {
                    uses_k = true;
                    ("(first & (cnt > 8'd0))".into(), "kmask".into())
                }
            })
            .collect();
        let pick = |f: fn(&(String, String)) -> &String| {
            format!(
                "elem[1] ? {} : elem[0] ? {} : {}",
                f(&per_elem[2]),
                f(&per_elem[1]),
                f(&per_elem[0])
            )
        };
        v.push_str(&format!("wire act{s} = ~raw & ({});\n", pick(|p| &p.0)));
        if with_data {
            v.push_str(&format!("wire [31:0] m{s} = {};\n", pick(|p| &p.1)));
        }
    }
    if !uses_k {
        // Every block fits in a beat of this width, so no mask is gathered over beats:
        // consumed here so that lint sees them read (Verilator ignores `*unused*` names).
        let unused = if with_data { "first, kmask" } else { "first" };
        v.push_str(&format!("wire unused_ok = &{{1'b0, {unused}}};\n"));
    }
    let (mut ys, mut ks) = (vec![], vec![]);
    for what in layout(n) {
        match what {
            Lane::Data(j) => {
                ys.push(format!("d[{}:{}]", 8 * j + 7, 8 * j));
                ks.push(format!(
                    "((cnt > 8'd{j}) & (raw | (elem[1] ? ef[{}] : elem[0] ? ef[{}] : ef[{j}])))",
                    j / 4,
                    j / 2
                ));
            }
            Lane::Mask(s, b) => {
                ys.push(format!("m{s}[{}:{}]", 8 * b + 7, 8 * b));
                ks.push(format!("act{s}"));
            }
        }
    }
    ys.reverse();
    ks.reverse();
    if with_data {
        v.push_str(&format!("always @(*) y = {{{}}};\n", ys.join(", ")));
    }
    v.push_str(&format!("always @(*) ykeep = {{{}}};\n", ks.join(", ")));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_puts_a_slot_before_each_region() {
        assert_eq!(lanes(16), 20);
        assert_eq!(lanes(128), 144);
        let l = layout(64);
        assert_eq!(l.len(), 72);
        assert_eq!(l[0], Lane::Mask(0, 0));
        assert_eq!(l[4], Lane::Data(0));
        assert_eq!(l[36], Lane::Mask(1, 0));
        assert_eq!(l[40], Lane::Data(32));
        assert_eq!(layout(16)[4], Lane::Data(0));
    }

    #[test]
    fn slot_rules_follow_the_block_size() {
        // 128-byte beat: E = 8 every slot, E = 16 every other, E = 32 slot 0 only.
        let rule = |e, s| slot_rule(128, e, s);
        assert_eq!((0..4).map(|s| rule(0, s)).collect::<Vec<_>>(), {
            vec![Some(Some(0)), Some(Some(1)), Some(Some(2)), Some(Some(3))]
        });
        assert_eq!(rule(1, 2), Some(Some(1)));
        assert_eq!(rule(1, 1), None);
        assert_eq!(rule(2, 3), None);
        // 32-byte beat, E = 32: a block spans four beats, slot 0 of its first.
        assert_eq!(slot_rule(32, 2, 0), Some(None));
        assert_eq!(slot_rule(16, 0, 0), Some(None));
    }
}
