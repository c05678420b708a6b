//! [`ZeroScan`]: the pipelined compressor's zero-count scan (a Hillis–Steele prefix count
//! over 32 lanes on bit-sliced counts), cut into three sections for its pipeline registers.

use rust_hdl::core::prelude::*;

use crate::steer::CNT;

/// An inclusive prefix count over 32 lanes, counts bit-sliced: plane `b` (bits `[32b +: 32]`)
/// holds bit `b` of every lane's count. Step `k` adds to lane `i` the count of lane `i - 2^k`
/// (lanes below `2^k` add nothing); after steps `0..K` a lane holds at most `2^K`, so `K + 1`
/// planes. Started from a block's zero flags, lane `i` ends with the number of zero elements
/// in lanes `0..=i`.
///
/// The five steps are cut into three sections with registers (in the parent) between them:
/// `a` runs steps 0–1 from the zero flags, `b` steps 2–3, `c` step 4. Each step is a
/// ripple-carry adder per lane, bit-sliced (one 32-bit word per bit), kept short by the small
/// counts: step `k` adds `k + 1`-bit counts.
#[derive(LogicBlock, Default)]
pub struct ZeroScan {
    /// Section a's input: lane `i` set iff element `i` is zero.
    pub zero: Signal<In, Bits<32>>,
    /// Section a's output: counts after steps 0–1 (3 planes).
    pub a: Signal<Out, Bits<96>>,
    /// Section b's input (a registered `a`).
    pub a_q: Signal<In, Bits<96>>,
    /// Section b's output: counts after steps 0–3 (5 planes).
    pub b: Signal<Out, Bits<160>>,
    /// Section c's input (a registered `b`).
    pub b_q: Signal<In, Bits<160>>,
    /// Section c's output: every lane's count, planes 0..5 (a count of 32, all lanes zero,
    /// only occurs in lane 31 and is left out: only non-zero lanes' counts are used).
    pub c: Signal<Out, Bits<160>>,
    /// Lane 31's count after section c: the block's number of zero elements.
    pub total: Signal<Out, Bits<CNT>>,
}

/// Steps `k0..k1` on the planes `c` (grown to `k1 + 1` planes).
fn steps(mut c: Vec<u32>, k0: usize, k1: usize) -> Vec<u32> {
    c.resize(k1 + 1, 0);
    for k in k0..k1 {
        let mut carry = 0u32;
        for plane in c.iter_mut().take(k + 2) {
            let t = *plane << (1 << k);
            let x = *plane ^ t;
            let g = *plane & t;
            *plane = x ^ carry;
            carry = g | (carry & x);
        }
    }
    c
}

/// The 32-bit planes of a bit-sliced vector (plane `b` is bits `[32b +: 32]`).
pub(super) fn planes<const W: usize>(v: Bits<W>) -> Vec<u32> {
    (0..W / 32)
        .map(|b| v.get_bits::<32>(32 * b).to_u32())
        .collect()
}

/// Planes back into a bit-sliced vector (planes past `W / 32` are dropped).
pub(super) fn join<const W: usize>(c: &[u32]) -> Bits<W> {
    let mut y = Bits::<W>::default();
    for (b, p) in c.iter().take(W / 32).enumerate() {
        y.set_bits::<32>(32 * b, u64::from(*p).into());
    }
    y
}

/// Verilog of steps `k0..k1` from input `input` (`k0 + 1` planes): wires `{s}{k}_{b}` hold
/// plane `b` before step `k`. Returns the text; the planes after the last step are
/// `{s}{k1}_{b}` for `b ≤ k1`, except that when `top_bit31` the top plane (`b = k1`) is only
/// built for lane 31, as the scalar `{s}{k1}_{k1}_31`.
fn steps_verilog(s: &str, input: &str, k0: usize, k1: usize, top_bit31: bool) -> String {
    let mut v = String::new();
    for b in 0..=k0 {
        let (hi, lo) = (32 * b + 31, 32 * b);
        v.push_str(&format!("wire [31:0] {s}{k0}_{b} = {input}[{hi}:{lo}];\n"));
    }
    for k in k0..k1 {
        let sh = 1 << k;
        let n = k + 1;
        // The new top plane starts empty (not declared where only its lane 31 is built).
        if !(k + 1 == k1 && top_bit31) {
            v.push_str(&format!("wire [31:0] {s}{k}_{n} = 32'd0;\n"));
        }
        v.push_str(&format!("wire [31:0] {s}cy{k}_0 = 32'd0;\n"));
        for b in 0..=n {
            let c = format!("{s}{k}_{b}");
            let x = format!("{s}x{k}_{b}");
            let cy = format!("{s}cy{k}_{b}");
            if k + 1 == k1 && b == n && top_bit31 {
                // The top plane of the last step: only lane 31 is used (the block's count).
                v.push_str(&format!("wire {s}{n}_{b}_31 = {s}cy{k}_{b}_31;\n"));
                continue;
            }
            v.push_str(&format!("wire [31:0] {x} = {c} ^ ({c} << {sh});\n"));
            v.push_str(&format!("wire [31:0] {s}{n}_{b} = {x} ^ {cy};\n"));
            // The top plane's carry out is always zero (the counts fit): not declared.
            if k + 1 == k1 && b + 1 == n && top_bit31 {
                v.push_str(&format!(
                    "wire {s}cy{k}_{n}_31 = ({c}[31] & {c}[{}]) | ({cy}[31] & {x}[31]);\n",
                    31 - sh
                ));
            } else if b < n {
                v.push_str(&format!(
                    "wire [31:0] {s}cy{k}_{} = ({c} & ({c} << {sh})) | ({cy} & {x});\n",
                    b + 1
                ));
            }
        }
    }
    v
}

fn concat(s: &str, k: usize, planes: usize) -> String {
    (0..planes)
        .rev()
        .map(|b| format!("{s}{k}_{b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Logic for ZeroScan {
    fn update(&mut self) {
        let a = steps(vec![self.zero.val().to_u32()], 0, 2);
        self.a.next = join::<96>(&a);
        let b = steps(planes(self.a_q.val()), 2, 4);
        self.b.next = join::<160>(&b);
        let c = steps(planes(self.b_q.val()), 4, 5);
        self.c.next = join::<160>(&c);
        let total: u64 = (0..6).map(|b| u64::from(c[b] >> 31 & 1) << b).sum();
        self.total.next = total.into();
    }
    fn connect(&mut self) {
        self.a.connect();
        self.b.connect();
        self.c.connect();
        self.total.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        v.push_str(&steps_verilog("sa", "zero", 0, 2, false));
        v.push_str(&format!("always @(*) a = {{{}}};\n", concat("sa", 2, 3)));
        v.push_str(&steps_verilog("sb", "a_q", 2, 4, false));
        v.push_str(&format!("always @(*) b = {{{}}};\n", concat("sb", 4, 5)));
        v.push_str(&steps_verilog("sc", "b_q", 4, 5, true));
        v.push_str(&format!("always @(*) c = {{{}}};\n", concat("sc", 5, 5)));
        let top = (0..5)
            .rev()
            .map(|b| format!("sc5_{b}[31]"))
            .collect::<Vec<_>>()
            .join(", ");
        v.push_str(&format!(
            "always @(*) total = {{{}'d0, sc5_5_31, {top}}};\n",
            CNT - 6
        ));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cdma_model::rng::XorShift64;

    /// The three sections, chained, give every lane the number of zero lanes at or below it,
    /// and the block's zero count.
    #[test]
    fn sections_count_zeros_below_each_lane() {
        let mut rng = XorShift64::new(9);
        let mut masks = vec![0u32, !0, 1, 1 << 31, 0x5555_5555, 0xFFFF_0000];
        masks.extend((0..100).map(|_| rng.next() as u32));
        let mut uut = ZeroScan::default();
        uut.connect_all();
        for mask in masks {
            uut.zero.next = u64::from(!mask).into();
            assert!(simulate(&mut uut, 100));
            uut.a_q.next = uut.a.val();
            assert!(simulate(&mut uut, 100));
            uut.b_q.next = uut.b.val();
            assert!(simulate(&mut uut, 100));
            let p = planes(uut.c.val());
            for i in 0..32 {
                if mask >> i & 1 == 1 {
                    let got: u32 = (0..5).map(|bit| (p[bit] >> i & 1) << bit).sum();
                    let want = (!mask & (u32::MAX >> (31 - i))).count_ones();
                    assert_eq!(got, want, "lane {i} of mask {mask:#x}");
                }
            }
            assert_eq!(uut.total.val().to_u32(), mask.count_zeros(), "{mask:#x}");
        }
    }
}
