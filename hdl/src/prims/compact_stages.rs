//! [`CompactStages`]: the pipelined compressor's compaction network, the shift counts
//! travelling with their elements, cut into two sections for a pipeline register.

use rust_hdl::core::prelude::*;

use super::lane_mask::lanes;

/// The ZVC compaction network (see [`crate::steer`] for why moving every non-zero element
/// down by its zero count `z`, bit `k` at stage `k`, is conflict-free). Unlike
/// [`super::Compact`], whose moves `ZvcSteer` computes ahead for all five stages, each lane
/// here carries its own count (bit-sliced: plane `b` holds bit `b` of every lane's count) and
/// a valid flag, and they move with the element: stage `k` moves the valid lanes whose plane
/// `k` is set down by `2^k`. So each stage is one 2:1 choice per lane controlled by the
/// source lane's own flags, and a register cut between stages only holds the data, the
/// counts still needed and the valid flags.
///
/// Section 1 runs stages 0–2, section 2 (from a registered section 1) stages 3–4 and clears
/// the lanes left without an element. A lane whose element moved away keeps a stale copy
/// and is no longer valid, which is why the final clear is needed.
#[derive(LogicBlock, Default)]
pub struct CompactStages<const E: usize, const W: usize> {
    /// Section 1's block: 32 lanes of `E` bits.
    pub d1: Signal<In, Bits<W>>,
    /// Section 1's counts, planes 0..5 (only non-zero lanes' are read).
    pub z1: Signal<In, Bits<160>>,
    /// Section 1's valid lanes (the mask).
    pub v1: Signal<In, Bits<32>>,
    /// The block after stages 0–2.
    pub y1: Signal<Out, Bits<W>>,
    /// Planes 3 and 4 of the counts after stages 0–2.
    pub zo1: Signal<Out, Bits<64>>,
    /// Valid lanes after stages 0–2.
    pub vo1: Signal<Out, Bits<32>>,
    /// Section 2's block (a registered `y1`).
    pub d2: Signal<In, Bits<W>>,
    /// Section 2's counts (a registered `zo1`).
    pub z2: Signal<In, Bits<64>>,
    /// Section 2's valid lanes (a registered `vo1`).
    pub v2: Signal<In, Bits<32>>,
    /// The compacted block: the non-zero elements in lanes `0..pop`, zero above.
    pub y2: Signal<Out, Bits<W>>,
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
        let mut z: Vec<u32> = (0..5)
            .map(|b| self.z1.val().get_bits::<32>(32 * b).to_u32())
            .collect();
        let (d, v) = run::<E, W>(self.d1.val(), &mut z, 0, self.v1.val().to_u32(), 0, 3);
        self.y1.next = d;
        self.zo1.next = (u64::from(z[3]) | u64::from(z[4]) << 32).into();
        self.vo1.next = u64::from(v).into();
        let mut z: Vec<u32> = (0..2)
            .map(|b| self.z2.val().get_bits::<32>(32 * b).to_u32())
            .collect();
        let (d, v) = run::<E, W>(self.d2.val(), &mut z, 3, self.v2.val().to_u32(), 3, 5);
        self.y2.next = d & lanes::<E, W>(u64::from(v).into());
    }
    fn connect(&mut self) {
        assert_eq!(32 * E, W, "CompactStages: W must be 32*E");
        self.y1.connect();
        self.zo1.connect();
        self.vo1.connect();
        self.y2.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        v.push_str(&format!("wire [{}:0] s1d0 = d1;\n", W - 1));
        for b in 0..5 {
            let (hi, lo) = (32 * b + 31, 32 * b);
            v.push_str(&format!("wire [31:0] s1z0_{b} = z1[{hi}:{lo}];\n"));
        }
        v.push_str("wire [31:0] s1v0 = v1;\n");
        v.push_str(&stages_verilog::<E, W>("s1", 0, 3));
        v.push_str("always @(*) y1 = s1d3;\n");
        v.push_str("always @(*) zo1 = {s1z3_4, s1z3_3};\n");
        v.push_str("always @(*) vo1 = s1v3;\n");
        v.push_str(&format!("wire [{}:0] s2d3 = d2;\n", W - 1));
        v.push_str("wire [31:0] s2z3_3 = z2[31:0];\n");
        v.push_str("wire [31:0] s2z3_4 = z2[63:32];\n");
        v.push_str("wire [31:0] s2v3 = v2;\n");
        v.push_str(&stages_verilog::<E, W>("s2", 3, 5));
        let keep = (0..32)
            .rev()
            .map(|i| format!("{{{E}{{s2v5[{i}]}}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        v.push_str(&format!("always @(*) y2 = s2d5 & {{{keep}}};\n"));
        Verilog::Custom(v)
    }
}
