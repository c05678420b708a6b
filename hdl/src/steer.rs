//! `ZvcSteer`: the control half of the log-depth compaction network, shared by the
//! compressor (compaction) and the decompressor (expansion, the same network run backwards).
//!
//! Element `i` of a block with mask `m` is non-zero iff `m[i]`. In the compacted block it sits
//! at lane `i - z_i`, where `z_i` is the number of zero elements below it. The network moves
//! every non-zero element down by `z_i` lanes in five stages, stage `k` moving by `2^k` the
//! elements whose `z_i` has bit `k` set, LSB first. LSB first is what makes it conflict-free:
//! after stages `0..k` two elements `i < j` sit at `i - (z_i mod 2^k)` and
//! `j - (z_j mod 2^k)`; equal positions would need `z_j - z_i ≡ j - i (mod 2^k)` with
//! `0 ≤ z_j - z_i < j - i < 2^k`, impossible. So each stage is one 2:1 choice per lane instead
//! of 32 barrel shifters.
//!
//! This block only depends on the 32-bit mask, so it is width-independent and cheap: it works
//! on 32-bit *lane vectors* (bit `i` = lane `i`). `z` is kept bit-sliced (`c[b]` holds bit `b`
//! of every lane's count) and computed with a Hillis–Steele scan of bit-sliced adders
//! (5 steps, log depth). It outputs, per stage `k`, which lanes move (`mv[k]`) and which
//! valid lanes stay (`st[k]`), both indexed by lane position *before* stage `k`; and the
//! block's popcount.

use rust_hdl::core::prelude::*;

/// Width of the element counts used throughout the datapath (lane counts up to `2P = 72`,
/// shifted left by up to `log2(32)` to make bit offsets up to 2304).
pub const CNT: usize = 12;

/// Control of the compaction/expansion network for one block mask.
#[derive(LogicBlock)]
pub struct ZvcSteer {
    /// Block mask: bit `i` set ⇔ element `i` is non-zero.
    pub mask: Signal<In, Bits<32>>,
    /// `mv[k]` bit `p`: the element at lane `p` before stage `k` moves down by `2^k`.
    pub mv: [Signal<Out, Bits<32>>; 5],
    /// `st[k]` bit `p`: a (non-zero) element is at lane `p` before stage `k` and stays.
    pub st: [Signal<Out, Bits<32>>; 5],
    /// Number of non-zero elements (0..=32).
    pub pop: Signal<Out, Bits<CNT>>,
    /// Bit-sliced per-lane zero counts (planes 0..5).
    c: [Signal<Local, Bits<32>>; 6],
    /// Scan operand: the planes shifted by the scan distance.
    t: [Signal<Local, Bits<32>>; 6],
    /// Bit-sliced adder carry / propagate / generate.
    carry: Signal<Local, Bits<32>>,
    x: Signal<Local, Bits<32>>,
    g: Signal<Local, Bits<32>>,
    /// Lanes holding an element before the current stage.
    v: Signal<Local, Bits<32>>,
    /// Total number of zero elements.
    zc: Signal<Local, Bits<CNT>>,
    zero32: Constant<Bits<32>>,
    zero_cnt: Constant<Bits<CNT>>,
    one_cnt: Constant<Bits<CNT>>,
    b32_cnt: Constant<Bits<CNT>>,
}

impl Default for ZvcSteer {
    fn default() -> Self {
        Self {
            mask: Default::default(),
            mv: Default::default(),
            st: Default::default(),
            pop: Default::default(),
            c: Default::default(),
            t: Default::default(),
            carry: Default::default(),
            x: Default::default(),
            g: Default::default(),
            v: Default::default(),
            zc: Default::default(),
            zero32: Constant::new(0.into()),
            zero_cnt: Constant::new(0.into()),
            one_cnt: Constant::new(1.into()),
            b32_cnt: Constant::new(32.into()),
        }
    }
}

impl Logic for ZvcSteer {
    #[hdl_gen]
    fn update(&mut self) {
        // Inclusive prefix count of zero elements: lane i of the planes ends as the number of
        // zero elements in 0..=i (equal to z_i on non-zero lanes).
        self.c[0].next = !self.mask.val();
        for b in 1..6 {
            self.c[b].next = self.zero32.val();
        }
        for k in 0..5 {
            for b in 0..6 {
                self.t[b].next = self.c[b].val() << (1 << k);
            }
            self.carry.next = self.zero32.val();
            for b in 0..6 {
                self.x.next = self.c[b].val() ^ self.t[b].val();
                self.g.next = self.c[b].val() & self.t[b].val();
                self.c[b].next = self.x.val() ^ self.carry.val();
                self.carry.next = self.g.val() | (self.carry.val() & self.x.val());
            }
        }
        // Lane 31 of the inclusive count is the block's number of zeros.
        self.zc.next = self.zero_cnt.val();
        if self.c[0].val().get_bit(31) {
            self.zc.next = self.zc.val() | self.one_cnt.val();
        }
        if self.c[1].val().get_bit(31) {
            self.zc.next = self.zc.val() | (self.one_cnt.val() << 1);
        }
        if self.c[2].val().get_bit(31) {
            self.zc.next = self.zc.val() | (self.one_cnt.val() << 2);
        }
        if self.c[3].val().get_bit(31) {
            self.zc.next = self.zc.val() | (self.one_cnt.val() << 3);
        }
        if self.c[4].val().get_bit(31) {
            self.zc.next = self.zc.val() | (self.one_cnt.val() << 4);
        }
        if self.c[5].val().get_bit(31) {
            self.zc.next = self.zc.val() | (self.one_cnt.val() << 5);
        }
        self.pop.next = self.b32_cnt.val() - self.zc.val();
        // The network, on lane vectors: shift amounts travel with their elements.
        self.v.next = self.mask.val();
        for b in 0..5 {
            self.c[b].next = self.c[b].val() & self.mask.val();
        }
        for k in 0..5 {
            self.mv[k].next = self.v.val() & self.c[k].val();
            self.st[k].next = self.v.val() & !self.c[k].val();
            for b in 0..5 {
                self.c[b].next = (self.c[b].val() & !self.mv[k].val())
                    | ((self.c[b].val() & self.mv[k].val()) >> (1 << k));
            }
            self.v.next = self.st[k].val() | (self.mv[k].val() >> (1 << k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the combinational block on `mask` and replays its controls on lane indices:
    /// compaction must put element i (non-zero) at lane popcount(mask below i).
    fn check(mask: u32) {
        let mut uut = ZvcSteer::default();
        uut.connect_all();
        uut.mask.next = (mask as u64).into();
        assert!(simulate(&mut uut, 1000), "did not settle");
        assert_eq!(
            uut.pop.val().to_u32(),
            mask.count_ones(),
            "pop of {mask:#x}"
        );
        let mut lanes: Vec<Option<usize>> =
            (0..32).map(|i| (mask >> i & 1 == 1).then_some(i)).collect();
        for k in 0..5 {
            let mv = uut.mv[k].val().to_u32();
            let st = uut.st[k].val().to_u32();
            let mut next = vec![None; 32];
            for (p, lane) in lanes.iter().enumerate() {
                let (m, s) = (mv >> p & 1 == 1, st >> p & 1 == 1);
                assert_eq!(m || s, lane.is_some(), "stage {k} lane {p} mask {mask:#x}");
                assert!(!(m && s));
                if lane.is_some() {
                    let to = if m { p - (1 << k) } else { p };
                    assert!(next[to].is_none(), "collision at stage {k}");
                    next[to] = *lane;
                }
            }
            lanes = next;
        }
        let expect: Vec<Option<usize>> = (0..32)
            .filter(|i| mask >> i & 1 == 1)
            .map(Some)
            .chain(std::iter::repeat(None))
            .take(32)
            .collect();
        assert_eq!(lanes, expect, "mask {mask:#x}");
    }

    #[test]
    fn compacts_every_pattern_class() {
        let mut rng = cdma_model::rng::XorShift64::new(0x1234_5678);
        let mut masks = vec![
            0,
            !0,
            1,
            1 << 31,
            0x5555_5555,
            0xAAAA_AAAA,
            0xFFFF_0000,
            0x0000_FFFF,
        ];
        for _ in 0..200 {
            // deterministic pseudo-random masks of every density
            let x = rng.next() as u32;
            masks.push(x);
            masks.push(x & (x >> 3));
            masks.push(x | (x >> 2));
        }
        for m in masks {
            check(m);
        }
    }
}
