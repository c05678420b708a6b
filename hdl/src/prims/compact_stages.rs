//! [`CompactStages`]: the pipelined compressor's compaction network, the shift counts
//! travelling with their elements, cut into three sections for pipeline registers.

use rust_hdl::core::prelude::*;

use super::lane_mask::lanes;
use super::zero_scan::{join, planes};

/// The ZVC compaction network (see [`crate::steer`] for why moving every non-zero element
/// down by its zero count `z`, bit `k` at stage `k`, is conflict-free). Unlike
/// [`super::Compact`], whose moves `ZvcSteer` computes ahead for all five stages, each lane
/// here carries its own count (bit-sliced: plane `b` holds bit `b` of every lane's count) and
/// a valid flag, and they move with the element: stage `k` moves the valid lanes whose plane
/// `k` is set down by `2^k`. So each stage is one 2:1 choice per lane controlled by the
/// source lane's own flags, and a register cut between stages only holds the data, the
/// counts still needed and the valid flags.
///
/// Section 1 runs stages 0–1, section 2 (from a registered section 1) stages 2–3, section 3
/// (from a registered section 2) stage 4 and clears the lanes left without an element. A
/// lane whose element moved away keeps a stale copy and is no longer valid, which is why the
/// final clear is needed.
#[derive(LogicBlock, Default)]
pub struct CompactStages<const E: usize, const W: usize> {
    /// Section 1's block: 32 lanes of `E` bits.
    pub d1: Signal<In, Bits<W>>,
    /// Section 1's counts, planes 0..5 (only non-zero lanes' are read).
    pub z1: Signal<In, Bits<160>>,
    /// Section 1's valid lanes (the mask).
    pub v1: Signal<In, Bits<32>>,
    /// The block after stages 0–1.
    pub y1: Signal<Out, Bits<W>>,
    /// Planes 2..5 of the counts after stages 0–1.
    pub zo1: Signal<Out, Bits<96>>,
    /// Valid lanes after stages 0–1.
    pub vo1: Signal<Out, Bits<32>>,
    /// Section 2's block (a registered `y1`).
    pub d2: Signal<In, Bits<W>>,
    /// Section 2's counts (a registered `zo1`).
    pub z2: Signal<In, Bits<96>>,
    /// Section 2's valid lanes (a registered `vo1`).
    pub v2: Signal<In, Bits<32>>,
    /// The block after stages 0–3.
    pub y2: Signal<Out, Bits<W>>,
    /// Plane 4 of the counts after stages 0–3.
    pub zo2: Signal<Out, Bits<32>>,
    /// Valid lanes after stages 0–3.
    pub vo2: Signal<Out, Bits<32>>,
    /// Section 3's block (a registered `y2`).
    pub d3: Signal<In, Bits<W>>,
    /// Section 3's counts (a registered `zo2`).
    pub z3: Signal<In, Bits<32>>,
    /// Section 3's valid lanes (a registered `vo2`).
    pub v3: Signal<In, Bits<32>>,
    /// The compacted block: the non-zero elements in lanes `0..pop`, zero above.
    pub y3: Signal<Out, Bits<W>>,
}

/// Stages `k0..k1` on `(d, z, v)`; `z[j]` is plane `zb + j`.
fn run<const E: usize, const W: usize>(
    mut d: Bits<W>,
    z: &mut [u32],
    zb: usize,
    mut v: u32,
    k0: usize,
    k1: usize,
) -> (Bits<W>, u32) {
    for k in k0..k1 {
        let s = 1u32 << k;
        let mv = v & z[k - zb];
        // Lane p takes lane p + s when that one moves.
        let take = mv >> s;
        let src = lanes::<E, W>(u64::from(mv).into());
        let dst = lanes::<E, W>(u64::from(take).into());
        d = (d & !dst) | ((d & src) >> ((E as u64) << k));
        for plane in z.iter_mut() {
            *plane = (*plane & !take) | ((*plane & mv) >> s);
        }
        v = (v & !mv) | take;
    }
    (d, v)
}

/// Verilog of stages `k0..k1`, wires `{s}d{k}`, `{s}z{k}_{b}` (planes `b > k` only: a stage
/// no longer needs its own plane), `{s}v{k}` before stage `k`; the inputs are wired to the
/// `k0` names by the caller.
fn stages_verilog<const E: usize, const W: usize>(s: &str, k0: usize, k1: usize) -> String {
    let mut v = String::new();
    let el = |r: usize| format!("{}:{}", r * E + E - 1, r * E);
    for k in k0..k1 {
        let (sh, n) = (1usize << k, k + 1);
        v.push_str(&format!("wire [31:0] {s}mv{k} = {s}v{k} & {s}z{k}_{k};\n"));
        v.push_str(&format!("wire [{}:0] {s}d{n};\n", W - 1));
        for p in 0..32 {
            let rhs = if p + sh < 32 {
                let (a, b) = (el(p + sh), el(p));
                format!("{s}mv{k}[{}] ? {s}d{k}[{a}] : {s}d{k}[{b}]", p + sh)
            } else {
                format!("{s}d{k}[{}]", el(p))
            };
            v.push_str(&format!("assign {s}d{n}[{}] = {rhs};\n", el(p)));
        }
        for b in n..5 {
            let pl = format!("{s}z{k}_{b}");
            v.push_str(&format!(
                "wire [31:0] {s}z{n}_{b} = ({pl} & ~({s}mv{k} >> {sh})) | (({pl} & {s}mv{k}) >> {sh});\n"
            ));
        }
        v.push_str(&format!(
            "wire [31:0] {s}v{n} = ({s}v{k} & ~{s}mv{k}) | ({s}mv{k} >> {sh});\n"
        ));
    }
    v
}

impl<const E: usize, const W: usize> Logic for CompactStages<E, W> {
    fn update(&mut self) {
        let mut z = planes(self.z1.val());
        let (d, v) = run::<E, W>(self.d1.val(), &mut z, 0, self.v1.val().to_u32(), 0, 2);
        self.y1.next = d;
        self.zo1.next = join(&z[2..]);
        self.vo1.next = u64::from(v).into();
        let mut z = planes(self.z2.val());
        let (d, v) = run::<E, W>(self.d2.val(), &mut z, 2, self.v2.val().to_u32(), 2, 4);
        self.y2.next = d;
        self.zo2.next = join(&z[2..]);
        self.vo2.next = u64::from(v).into();
        let mut z = planes(self.z3.val());
        let (d, v) = run::<E, W>(self.d3.val(), &mut z, 4, self.v3.val().to_u32(), 4, 5);
        self.y3.next = d & lanes::<E, W>(u64::from(v).into());
    }
    fn connect(&mut self) {
        assert_eq!(32 * E, W, "CompactStages: W must be 32*E");
        self.y1.connect();
        self.zo1.connect();
        self.vo1.connect();
        self.y2.connect();
        self.zo2.connect();
        self.vo2.connect();
        self.y3.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        // Section `s`'s inputs `d{s}`, `z{s}` (planes `k0..5`), `v{s}` as the names of
        // stage `k0`, its stages, and its outputs.
        for (s, k0, k1) in [(1, 0, 2), (2, 2, 4), (3, 4, 5)] {
            v.push_str(&format!("wire [{}:0] s{s}d{k0} = d{s};\n", W - 1));
            for b in k0..5 {
                let (hi, lo) = (32 * (b - k0) + 31, 32 * (b - k0));
                v.push_str(&format!("wire [31:0] s{s}z{k0}_{b} = z{s}[{hi}:{lo}];\n"));
            }
            v.push_str(&format!("wire [31:0] s{s}v{k0} = v{s};\n"));
            v.push_str(&stages_verilog::<E, W>(&format!("s{s}"), k0, k1));
            if k1 < 5 {
                let zo = (k1..5)
                    .rev()
                    .map(|b| format!("s{s}z{k1}_{b}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                v.push_str(&format!("always @(*) y{s} = s{s}d{k1};\n"));
                v.push_str(&format!("always @(*) zo{s} = {{{zo}}};\n"));
                v.push_str(&format!("always @(*) vo{s} = s{s}v{k1};\n"));
            }
        }
        let keep = (0..32)
            .rev()
            .map(|i| format!("{{{E}{{s3v5[{i}]}}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        v.push_str(&format!("always @(*) y3 = s3d5 & {{{keep}}};\n"));
        Verilog::Custom(v)
    }
}
