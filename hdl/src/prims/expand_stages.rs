//! [`ExpandSteer`] and [`ExpandStages`]: the pipelined decompressor's expansion network, each
//! cut into two sections for a pipeline register.

use rust_hdl::core::prelude::*;

use super::lane_mask::lanes;
use super::zero_scan::{join, planes};

/// Where each compacted element came from: the ZVC compaction (see [`crate::steer`]) run on
/// the zero counts themselves. Lane `i` of the block starts with its zero count `z_i`
/// (bit-sliced, plane `b` = bit `b` of every lane's count) and is valid iff the block's mask
/// has bit `i`; stage `k` (0..5) moves the valid lanes whose plane `k` is set down by `2^k`,
/// all five planes travelling with them. Afterwards compacted lane `q` holds `d_q`, how far
/// element `q` moves up when the block is expanded, and the valid lanes are `0..pop`.
///
/// Section 1 runs stages 0–2, section 2 (from a registered section 1) stages 3–4. A lane's
/// stale planes (its element moved away, nothing moved in) are left as they are; only valid
/// lanes are ever read.
#[derive(LogicBlock, Default)]
pub struct ExpandSteer {
    /// Section 1's counts: every lane's zero count, planes 0..5.
    pub z1: Signal<In, Bits<160>>,
    /// Section 1's valid lanes: the block's mask.
    pub v1: Signal<In, Bits<32>>,
    /// Planes after stages 0–2.
    pub zo1: Signal<Out, Bits<160>>,
    /// Valid lanes after stages 0–2.
    pub vo1: Signal<Out, Bits<32>>,
    /// Section 2's counts (a registered `zo1`).
    pub z2: Signal<In, Bits<160>>,
    /// Section 2's valid lanes (a registered `vo1`).
    pub v2: Signal<In, Bits<32>>,
    /// Every compacted lane's upward distance `d_q`, planes 0..5.
    pub d: Signal<Out, Bits<160>>,
    /// Valid compacted lanes (`0..pop`).
    pub vd: Signal<Out, Bits<32>>,
}

/// Compaction stages `k0..k1` on the lane vectors: planes `z`, valid `v`.
fn steer_run(z: &mut [u32], mut v: u32, k0: usize, k1: usize) -> u32 {
    for k in k0..k1 {
        let s = 1u32 << k;
        let mv = v & z[k];
        let take = mv >> s;
        for plane in z.iter_mut() {
            *plane = (*plane & !take) | ((*plane & mv) >> s);
        }
        v = (v & !mv) | take;
    }
    v
}

/// Verilog wires `{s}z{k}_{b}` (planes) and `{s}v{k}` before stage `k` of the count
/// compaction, for stages `k0..k1`; the caller wires the `k0` names.
fn steer_verilog(s: &str, k0: usize, k1: usize) -> String {
    let mut v = String::new();
    for k in k0..k1 {
        let (sh, n) = (1usize << k, k + 1);
        v.push_str(&format!("wire [31:0] {s}mv{k} = {s}v{k} & {s}z{k}_{k};\n"));
        for b in 0..5 {
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

fn split_planes(s: &str, k: usize, input: &str) -> String {
    (0..5)
        .map(|b| {
            format!(
                "wire [31:0] {s}z{k}_{b} = {input}[{}:{}];\n",
                32 * b + 31,
                32 * b
            )
        })
        .collect()
}

fn concat_planes(s: &str, k: usize, n: usize) -> String {
    (0..n)
        .rev()
        .map(|b| format!("{s}z{k}_{b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Logic for ExpandSteer {
    fn update(&mut self) {
        let mut z = planes(self.z1.val());
        let v = steer_run(&mut z, self.v1.val().to_u32(), 0, 3);
        self.zo1.next = join::<160>(&z);
        self.vo1.next = u64::from(v).into();
        let mut z = planes(self.z2.val());
        let v = steer_run(&mut z, self.v2.val().to_u32(), 3, 5);
        self.d.next = join::<160>(&z);
        self.vd.next = u64::from(v).into();
    }
    fn connect(&mut self) {
        self.zo1.connect();
        self.vo1.connect();
        self.d.connect();
        self.vd.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = split_planes("a", 0, "z1");
        v.push_str("wire [31:0] av0 = v1;\n");
        v.push_str(&steer_verilog("a", 0, 3));
        v.push_str(&format!(
            "always @(*) zo1 = {{{}}};\n",
            concat_planes("a", 3, 5)
        ));
        v.push_str("always @(*) vo1 = av3;\n");
        v.push_str(&split_planes("b", 3, "z2"));
        v.push_str("wire [31:0] bv3 = v2;\n");
        v.push_str(&steer_verilog("b", 3, 5));
        v.push_str(&format!(
            "always @(*) d = {{{}}};\n",
            concat_planes("b", 5, 5)
        ));
        v.push_str("always @(*) vd = bv5;\n");
        Verilog::Custom(v)
    }
}

/// The expansion network: each compacted element moves up by its distance `d_q`, bit `k` at
/// stage `k`, from stage 4 down to 0, the lower bits of `d` and the valid flag travelling
/// with it. Every intermediate placement is one of the compaction's (run backwards), so no
/// two elements ever meet. Section 1 runs stages 4–3, section 2 (from a registered section
/// 1) stages 2–0 and clears the lanes left without an element.
#[derive(LogicBlock, Default)]
pub struct ExpandStages<const E: usize, const W: usize> {
    /// Section 1's compacted elements (lanes `0..pop`).
    pub x1: Signal<In, Bits<W>>,
    /// Section 1's distances, planes 0..5 ([`ExpandSteer`]'s `d`).
    pub d1: Signal<In, Bits<160>>,
    /// Section 1's valid lanes ([`ExpandSteer`]'s `vd`).
    pub v1: Signal<In, Bits<32>>,
    /// The elements after stages 4–3.
    pub y1: Signal<Out, Bits<W>>,
    /// Planes 0..3 of the distances after stages 4–3.
    pub do1: Signal<Out, Bits<96>>,
    /// Valid lanes after stages 4–3.
    pub vo1: Signal<Out, Bits<32>>,
    /// Section 2's elements (a registered `y1`).
    pub x2: Signal<In, Bits<W>>,
    /// Section 2's distances (a registered `do1`).
    pub d2: Signal<In, Bits<96>>,
    /// Section 2's valid lanes (a registered `vo1`).
    pub v2: Signal<In, Bits<32>>,
    /// The expanded block: element `i` in lane `i`, zero where the mask is clear.
    pub y2: Signal<Out, Bits<W>>,
}

/// Expansion stages `k1 - 1` down to `k0` on `(x, d, v)`; `d[j]` is plane `j`.
fn expand_run<const E: usize, const W: usize>(
    mut x: Bits<W>,
    d: &mut [u32],
    mut v: u32,
    k0: usize,
    k1: usize,
) -> (Bits<W>, u32) {
    for k in (k0..k1).rev() {
        let s = 1u32 << k;
        let mv = v & d[k];
        let take = mv << s;
        let dst = lanes::<E, W>(u64::from(take).into());
        x = (x & !dst) | ((x << ((E as u64) << k)) & dst);
        for plane in d.iter_mut() {
            *plane = (*plane & !take) | ((*plane & mv) << s);
        }
        v = (v & !mv) | take;
    }
    (x, v)
}

/// Verilog of expansion stages `k1 - 1` down to `k0`: wires `{s}x{k}`, `{s}d{k}_{b}` (planes
/// `b < k` only), `{s}v{k}` after the stages above `k` (inputs are the `k1` names).
fn expand_verilog<const E: usize, const W: usize>(s: &str, k0: usize, k1: usize) -> String {
    let mut v = String::new();
    let el = |r: usize| format!("{}:{}", r * E + E - 1, r * E);
    for k in (k0..k1).rev() {
        let (sh, n) = (1usize << k, k + 1);
        v.push_str(&format!("wire [31:0] {s}mv{k} = {s}v{n} & {s}d{n}_{k};\n"));
        v.push_str(&format!("wire [{}:0] {s}x{k};\n", W - 1));
        for p in 0..32 {
            let rhs = if p >= sh {
                let (a, b) = (el(p - sh), el(p));
                format!("{s}mv{k}[{}] ? {s}x{n}[{a}] : {s}x{n}[{b}]", p - sh)
            } else {
                format!("{s}x{n}[{}]", el(p))
            };
            v.push_str(&format!("assign {s}x{k}[{}] = {rhs};\n", el(p)));
        }
        for b in 0..k {
            let pl = format!("{s}d{n}_{b}");
            v.push_str(&format!(
                "wire [31:0] {s}d{k}_{b} = ({pl} & ~({s}mv{k} << {sh})) | (({pl} & {s}mv{k}) << {sh});\n"
            ));
        }
        v.push_str(&format!(
            "wire [31:0] {s}v{k} = ({s}v{n} & ~{s}mv{k}) | ({s}mv{k} << {sh});\n"
        ));
    }
    v
}

impl<const E: usize, const W: usize> Logic for ExpandStages<E, W> {
    fn update(&mut self) {
        let mut d = planes(self.d1.val());
        let (x, v) = expand_run::<E, W>(self.x1.val(), &mut d, self.v1.val().to_u32(), 3, 5);
        self.y1.next = x;
        self.do1.next = join::<96>(&d[..3]);
        self.vo1.next = u64::from(v).into();
        let mut d = planes(self.d2.val());
        let (x, v) = expand_run::<E, W>(self.x2.val(), &mut d, self.v2.val().to_u32(), 0, 3);
        self.y2.next = x & lanes::<E, W>(u64::from(v).into());
    }
    fn connect(&mut self) {
        assert_eq!(32 * E, W, "ExpandStages: W must be 32*E");
        self.y1.connect();
        self.do1.connect();
        self.vo1.connect();
        self.y2.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = format!("wire [{}:0] ax5 = x1;\n", W - 1);
        for b in 0..5 {
            let (hi, lo) = (32 * b + 31, 32 * b);
            v.push_str(&format!("wire [31:0] ad5_{b} = d1[{hi}:{lo}];\n"));
        }
        v.push_str("wire [31:0] av5 = v1;\n");
        v.push_str(&expand_verilog::<E, W>("a", 3, 5));
        v.push_str("always @(*) y1 = ax3;\n");
        v.push_str("always @(*) do1 = {ad3_2, ad3_1, ad3_0};\n");
        v.push_str("always @(*) vo1 = av3;\n");
        v.push_str(&format!("wire [{}:0] bx3 = x2;\n", W - 1));
        for b in 0..3 {
            let (hi, lo) = (32 * b + 31, 32 * b);
            v.push_str(&format!("wire [31:0] bd3_{b} = d2[{hi}:{lo}];\n"));
        }
        v.push_str("wire [31:0] bv3 = v2;\n");
        v.push_str(&expand_verilog::<E, W>("b", 0, 3));
        let keep = (0..32)
            .rev()
            .map(|i| format!("{{{E}{{bv0[{i}]}}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        v.push_str(&format!("always @(*) y2 = bx0 & {{{keep}}};\n"));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prims::ZeroScan;
    use cdma_model::rng::XorShift64;

    /// Scan, steer and both expansion sections chained (registers between sections copied by
    /// hand) put every stored element back in its lane, for masks of every density.
    #[test]
    fn sections_expand_a_compacted_block() {
        let mut rng = XorShift64::new(5);
        let mut masks = vec![0u32, !0, 1, 1 << 31, 0x5555_5555, 0xFFFF_0000, 0x8000_0001];
        masks.extend((0..200).map(|_| rng.next() as u32 & rng.next() as u32));
        masks.extend((0..100).map(|_| rng.next() as u32));
        let mut scan = ZeroScan::default();
        let mut steer = ExpandSteer::default();
        let mut net = ExpandStages::<8, 256>::default();
        scan.connect_all();
        steer.connect_all();
        net.connect_all();
        for mask in masks {
            let elems: Vec<u64> = (0..32)
                .map(|i| {
                    if mask >> i & 1 == 1 {
                        1 + rng.next() % 255
                    } else {
                        0
                    }
                })
                .collect();
            let stored: Vec<u64> = elems.iter().copied().filter(|&x| x != 0).collect();
            let mut x = Bits::<256>::default();
            for (q, e) in stored.iter().enumerate() {
                x.set_bits::<8>(8 * q, (*e).into());
            }
            // Lanes past the stored elements hold the next block's data: garbage.
            for q in stored.len()..32 {
                x.set_bits::<8>(8 * q, (rng.next() & 0xFF).into());
            }
            scan.zero.next = u64::from(!mask).into();
            assert!(simulate(&mut scan, 100));
            scan.a_q.next = scan.a.val();
            assert!(simulate(&mut scan, 100));
            scan.b_q.next = scan.b.val();
            assert!(simulate(&mut scan, 100));
            steer.z1.next = scan.c.val();
            steer.v1.next = u64::from(mask).into();
            assert!(simulate(&mut steer, 100));
            steer.z2.next = steer.zo1.val();
            steer.v2.next = steer.vo1.val();
            assert!(simulate(&mut steer, 100));
            assert_eq!(steer.vd.val().to_u32(), ((1u64 << stored.len()) - 1) as u32);
            net.x1.next = x;
            net.d1.next = steer.d.val();
            net.v1.next = steer.vd.val();
            assert!(simulate(&mut net, 100));
            net.x2.next = net.y1.val();
            net.d2.next = net.do1.val();
            net.v2.next = net.vo1.val();
            assert!(simulate(&mut net, 100));
            let got: Vec<u64> = (0..32)
                .map(|i| net.y2.val().get_bits::<8>(8 * i).to_u64())
                .collect();
            assert_eq!(got, elems, "mask {mask:#x}");
        }
    }
}
