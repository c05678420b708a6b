//! [`EntryFinish`]: a beat's block-end table turned into what the block-to-block loop and
//! the block pipeline read, once the beat behind it is known (stage Q of [`super::window`]).

use rust_hdl::core::prelude::*;

use super::table::{cat, field, ENTRY};

/// The table of a beat `k` ([`super::table::BeatTable`]'s `tab`, registered: `tq`) finished
/// with the beat `k + 1` behind it (its `pp` bits, count and last flag, all from registers:
/// the parent computes `lim` and `uu` as the beats arrive), `TW = 16P` bits. Each entry `j`
/// (the block starting at lane `j` of beat `k`) becomes:
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
/// * bit 15 `nn`: the next block is the last to start in its beat: the `pp` of the entry
///   `nxt` points to, in beat `k`'s table if not `pp`, else in beat `k + 1`'s.
///
/// When beat `k` is a tensor's last, what follows is another tensor (its `pp` entries have
/// `nxt = 0`); their `nn` is then meaningless and the loop does not read it.
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
    /// Beat `k + 1`'s `pp` bits (entry `j` in bit `j`) if it is not a last beat.
    pub gen: Signal<In, Bits<P>>,
    /// Beat `k + 1`'s `pp` bits if it is a last beat (read when `uu`; when beat `k` is a last
    /// beat, `nn` of its `pp` entries is not read).
    pub gcn: Signal<In, Bits<P>>,
    /// The finished table.
    pub tf: Signal<Out, Bits<TW>>,
}

impl<const P: usize, const TW: usize> Logic for EntryFinish<P, TW> {
    fn update(&mut self) {
        let tq = self.tq.val();
        let ppn = if self.uu.val() {
            self.gcn.val()
        } else {
            self.gen.val()
        };
        let (lim, cn, uu) = (
            self.lim.val().to_u64(),
            self.cn.val().to_u64(),
            self.uu.val(),
        );
        let mut tf = Bits::<TW>::default();
        for j in 0..P {
            let r = tq.get_bits::<16>(ENTRY * j).to_u64();
            let (end, nxt, pp) = (field(r, 0, 7), field(r, 7, 7), field(r, 14, 1) == 1);
            let nn = nxt < P as u64
                && if pp {
                    ppn.get_bit(nxt as usize)
                } else {
                    tq.get_bit(ENTRY * nxt as usize + 14)
                };
            let used_up = pp && uu && nxt >= cn;
            let nxt = if used_up { 127 } else { nxt };
            let v = u64::from(end > lim)
                | u64::from(end == lim) << 1
                | nxt << 7
                | u64::from(pp) << 14
                | u64::from(nn) << 15;
            tf.set_bits::<16>(ENTRY * j, v.into());
        }
        self.tf.next = tf;
    }
    fn connect(&mut self) {
        assert_eq!(ENTRY * P, TW, "EntryFinish: TW must be 16P");
        self.tf.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        // Each beat's `pp` vector, padded so that any `nxt` selects in range.
        let bits: Vec<String> = (0..P).map(|j| format!("tq[{}]", 16 * j + 14)).collect();
        v.push_str(&format!(
            "wire [127:0] ppq = {{{}'d0, {}}};\n\
             wire [127:0] gex = {{{}'d0, gen}};\n\
             wire [127:0] gcx = {{{}'d0, gcn}};\n",
            128 - P,
            cat(bits),
            128 - P,
            128 - P
        ));
        for j in 0..P {
            let lo = 16 * j;
            let (end, nx, pp) = (
                format!("tq[{}:{lo}]", lo + 6),
                format!("tq[{}:{}]", lo + 13, lo + 7),
                format!("tq[{}]", lo + 14),
            );
            v.push_str(&format!(
                "wire [15:0] tf{j} = {{({pp} ? (uu ? gcx[{nx}] : gex[{nx}]) : ppq[{nx}]), {pp}, \
                 (({pp} & uu & ({nx} >= cn)) ? 7'd127 : {nx}), 5'd0, \
                 ({end} == lim), ({end} > lim)}};\n"
            ));
        }
        let names = (0..P).map(|j| format!("tf{j}")).collect();
        v.push_str(&format!("always @(*) tf = {{{}}};\n", cat(names)));
        // Of `tq` its ends, `nxt` and `pp`.
        v.push_str("wire unused_bits = &{1'b0, tq};\n");
        Verilog::Custom(v)
    }
}
