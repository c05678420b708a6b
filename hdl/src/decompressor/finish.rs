//! [`EntryFinish`] and [`EntryNn`]: a beat's block-end table turned into what the
//! block-to-block loop and the block pipeline read, once the beat behind it is known (stages
//! Q and F of [`super::window`]).

use rust_hdl::core::prelude::*;

use super::table::{cat, field, ENTRY};

/// Entries' `nn` lookups are split in groups of 4 lanes (`nxt mod 4` picks in every group on
/// the way into stage F, `nxt / 4` the group after it): `(P + 3) / 4` groups.
const fn groups(p: usize) -> usize {
    p.div_ceil(4)
}

/// The table of a beat `k` ([`super::table::BeatTable`]'s `tab`, registered: `tq`) finished
/// with the beat `k + 1` behind it (its `pp` bits, count and last flag, all from registers:
/// the parent computes `lim`, `uu` and `ppn` as the beats arrive), `TW = 16P` bits. Each
/// entry `j` (the block starting at lane `j` of beat `k`) becomes:
///
/// * bit 0 `tr`: the block is truncated: it ends past its tensor's end lane `lim` (beat
///   `k`'s count if `k` is a last beat, else `P` + beat `k + 1`'s count if that one is,
///   else 127: none);
/// * bit 1 `fin`: it ends on `lim`: the tensor's last block;
/// * bits 2..7: zero (the end itself is not needed past here);
/// * bits 7..14 `nxt`: the next block's lane as in `tq`, except 127 when the next block
///   would start past the end of a last beat `k + 1` (the block used that beat up: the loop
///   drops it without a block);
/// * bit 14 `pp`: as in `tq`;
/// * bit 15: zero here; [`EntryNn`] sets it to `nn`, from `ng`.
///
/// `nn`, the next block is the last to start in its beat, is the `pp` of the entry `nxt`
/// points to, in beat `k`'s table if not `pp`, else in beat `k + 1`'s (`ppn`). Every `pp` bit
/// is read by all `P` entries, so the lookup is split over two stages: here, per entry `j`
/// and group `g` of 4 lanes, `ng` bit `16j + g` is the `pp` of lane `4g + nxt mod 4` (0 past
/// `P`); [`EntryNn`] picks group `nxt / 4` of what stage F registered.
///
/// When beat `k` is a tensor's last, what follows is another tensor (its `pp` entries have
/// `nxt = 0`); their `nn` is then meaningless and the loop does not read it, nor that of a
/// used-up entry (`nxt` 127, so `nn` 0: the loop drops the beat on it).
#[derive(LogicBlock, Default)]
pub struct EntryFinish<const P: usize, const TW: usize> {
    /// Beat `k`'s table.
    pub tq: Signal<In, Bits<TW>>,
    /// The tensor's end lane counted from beat `k`'s lane 0 (127: not in beats `k`, `k + 1`).
    pub lim: Signal<In, Bits<7>>,
    /// Beat `k + 1` is a tensor's last and beat `k` is not (it can be used up).
    pub uu: Signal<In, Bit>,
    /// Beat `k + 1`'s valid lanes.
    pub cn: Signal<In, Bits<7>>,
    /// Beat `k + 1`'s `pp` bits (entry `j` in bit `j`), as a last beat if `uu`, else as one
    /// that is not (when beat `k` is a last beat, `nn` of its `pp` entries is not read).
    pub ppn: Signal<In, Bits<P>>,
    /// The table without `nn`.
    pub tf: Signal<Out, Bits<TW>>,
    /// Per entry `j`, bits `16j + g`: the `pp` bit of lane `4g + nxt mod 4`.
    pub ng: Signal<Out, Bits<TW>>,
}

impl<const P: usize, const TW: usize> Logic for EntryFinish<P, TW> {
    fn update(&mut self) {
        let tq = self.tq.val();
        let ppn = self.ppn.val();
        let (lim, cn, uu) = (
            self.lim.val().to_u64(),
            self.cn.val().to_u64(),
            self.uu.val(),
        );
        let mut tf = Bits::<TW>::default();
        let mut ng = Bits::<TW>::default();
        for j in 0..P {
            let r = tq.get_bits::<16>(ENTRY * j).to_u64();
            let (end, nxt, pp) = (field(r, 0, 7), field(r, 7, 7), field(r, 14, 1) == 1);
            for g in 0..groups(P) {
                let lane = 4 * g + (nxt & 3) as usize;
                let b = lane < P
                    && if pp {
                        ppn.get_bit(lane)
                    } else {
                        tq.get_bit(ENTRY * lane + 14)
                    };
                ng = ng.replace_bit(ENTRY * j + g, b);
            }
            let used_up = pp && uu && nxt >= cn;
            let nxt = if used_up { 127 } else { nxt };
            let v =
                u64::from(end > lim) | u64::from(end == lim) << 1 | nxt << 7 | u64::from(pp) << 14;
            tf.set_bits::<16>(ENTRY * j, v.into());
        }
        self.tf.next = tf;
        self.ng.next = ng;
    }
    fn connect(&mut self) {
        assert_eq!(ENTRY * P, TW, "EntryFinish: TW must be 16P");
        assert!(groups(P) <= ENTRY, "EntryFinish: P too large");
        self.tf.connect();
        self.ng.connect();
    }
    fn hdl(&self) -> Verilog {
        let gw = 4 * groups(P);
        let mut v = String::new();
        // Each beat's `pp` vector, padded to whole groups.
        let bits: Vec<String> = (0..P).map(|j| format!("tq[{}]", 16 * j + 14)).collect();
        let pad = |s: String| {
            if gw > P {
                format!("{{{}'d0, {s}}}", gw - P)
            } else {
                s
            }
        };
        v.push_str(&format!(
            "wire [{}:0] ppq = {};\nwire [{}:0] pnx = {};\n",
            gw - 1,
            pad(format!("{{{}}}", cat(bits))),
            gw - 1,
            pad("ppn".to_string())
        ));
        let mut ngs = vec![];
        for j in 0..P {
            let lo = 16 * j;
            let (end, nx, pp) = (
                format!("tq[{}:{lo}]", lo + 6),
                format!("tq[{}:{}]", lo + 13, lo + 7),
                format!("tq[{}]", lo + 14),
            );
            // Every group's lane `nxt mod 4` shifted down to its lane 0.
            v.push_str(&format!(
                "wire [{}:0] sh{j} = ({pp} ? pnx : ppq) >> tq[{}:{}];\n",
                gw - 1,
                lo + 8,
                lo + 7
            ));
            let g: Vec<String> = (0..groups(P))
                .map(|g| format!("sh{j}[{}]", 4 * g))
                .collect();
            ngs.push(format!("{}'d0, {}", 16 - groups(P), cat(g)));
            v.push_str(&format!(
                "wire [15:0] tf{j} = {{1'b0, {pp}, \
                 (({pp} & uu & ({nx} >= cn)) ? 7'd127 : {nx}), 5'd0, \
                 ({end} == lim), ({end} > lim)}};\n"
            ));
        }
        let names = (0..P).map(|j| format!("tf{j}")).collect();
        v.push_str(&format!("always @(*) tf = {{{}}};\n", cat(names)));
        v.push_str(&format!("always @(*) ng = {{{}}};\n", cat(ngs)));
        // Of `tq` its ends, `nxt` and `pp`; of the shifted groups their lane 0.
        let sh: Vec<String> = (0..P).map(|j| format!("sh{j}")).collect();
        v.push_str(&format!(
            "wire unused_bits = &{{1'b0, tq, {}}};\n",
            sh.join(", ")
        ));
        Verilog::Custom(v)
    }
}

/// Stage F's table ([`EntryFinish`]'s `tf` and `ng`, registered) with each entry's `nn`
/// (bit 15) picked from its groups: group `nxt / 4` of `ng` (0 past the groups), into the
/// beat queue.
#[derive(LogicBlock, Default)]
pub struct EntryNn<const P: usize, const TW: usize> {
    /// The table without `nn`.
    pub tf: Signal<In, Bits<TW>>,
    /// Per entry `j`, bits `16j + g`: the `pp` bit of lane `4g + nxt mod 4`.
    pub ng: Signal<In, Bits<TW>>,
    /// The finished table.
    pub t: Signal<Out, Bits<TW>>,
}

impl<const P: usize, const TW: usize> Logic for EntryNn<P, TW> {
    fn update(&mut self) {
        let (tf, ng) = (self.tf.val(), self.ng.val());
        let mut t = Bits::<TW>::default();
        for j in 0..P {
            let r = tf.get_bits::<16>(ENTRY * j).to_u64();
            let g = field(r, 9, 5) as usize;
            let nn = g < groups(P) && ng.get_bit(ENTRY * j + g);
            let v = field(r, 0, 15) | u64::from(nn) << 15;
            t.set_bits::<16>(ENTRY * j, v.into());
        }
        self.t.next = t;
    }
    fn connect(&mut self) {
        assert_eq!(ENTRY * P, TW, "EntryNn: TW must be 16P");
        self.t.connect();
    }
    fn hdl(&self) -> Verilog {
        let n = groups(P);
        let mut v = String::new();
        for j in 0..P {
            let lo = 16 * j;
            v.push_str(&format!(
                "wire [31:0] gx{j} = {{{}'d0, ng[{}:{lo}]}};\n\
                 wire [15:0] t{j} = {{gx{j}[tf[{}:{}]], tf[{}:{lo}]}};\n",
                32 - n,
                lo + n - 1,
                lo + 13,
                lo + 9,
                lo + 14
            ));
        }
        let names = (0..P).map(|j| format!("t{j}")).collect();
        v.push_str(&format!("always @(*) t = {{{}}};\n", cat(names)));
        // Bit 15 of `tf`, `ng` past the groups.
        v.push_str("wire unused_bits = &{1'b0, tf, ng};\n");
        Verilog::Custom(v)
    }
}
