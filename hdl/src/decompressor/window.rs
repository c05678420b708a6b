//! [`Window`]: full beats in, one block's position per cycle out. The decompressor's one
//! serial dependency (where the next block starts depends on this block's mask) runs here
//! as a lookup in a table computed ahead.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::finish::{EntryFinish, EntryNn};
use super::lanes::HeadPick;
use super::table::BeatTable;
use crate::prims::{EnReg, Join, Mux2, Ring4};

/// Stages, all moving together while the beat queue has room (`room`):
/// 1. byte popcounts of the beat ([`BeatTable`] section 1);
/// 2. per start lane, the popcount of its mask bytes and the least one that ends its block
///    at the beat's count (`lim`), and the beat's prefix popcounts;
/// 3. *held beat* `H`: per start lane `j + M + popcount` and derived values. A beat waits
///    here until the next beat arrives (unless it is a tensor's last), because a block
///    starting in its last `M - 1` lanes has mask lanes in the next beat;
/// 4. *Q*: the completed table, which [`EntryFinish`] finishes with what it reads of the
///    beat now in `H` (each entry's `nn`: the next block is the last to start in its beat),
///    all from registers: `pnq` (that beat's `pp` bits) and `limq`/`uuq`/`cnq`, set as the
///    two beats move up;
/// 5. *F*: the finished table ([`EntryFinish`] of Q's), registered, but for `nn`: every
///    `pp` bit is read by all `P` entries, so on the way into F each entry keeps one
///    candidate per group of 4 lanes (`ngf`), and [`EntryNn`] picks the group on the way
///    out of F, into the queue;
/// 6. the *beat queue*: 4 entries (beat, last flag, finished table).
///
/// The *loop*: `s`, the block's start lane in the head beat, selects an entry of `ht`, a
/// copy of the head beat's table (`nxt` and `nn` per entry), and `lst` says that block is
/// the last to start in the head beat (it was the previous entry's `nn`). A block goes into
/// *X0* (the block pipeline's first registers, here so that no output of this block is
/// combinational) when the head's copy is loaded, the next beat is queued too (or the head
/// is a last beat), and X0's skid slot is empty; then `s` takes the entry's `nxt`
/// and `lst` its `nn`, and with `lst` the head is dropped and the copy reloaded from the
/// queue. A last beat whose lanes are used up (the previous block straddled into it) is
/// dropped without a block; after a last beat the next tensor starts at lane 0 with `lst`
/// from its entry 0. So the loop is `s` → a 7-bit multiplexer of `P` entries → `s`, and the
/// decision to drop a beat (which reloads the copy) comes from registers only; truncated
/// blocks still go (their end says so, checked by the parent on X0), and the loop moves on
/// as if they were whole.
///
/// *X0* is two slots: the head `A` (what the block pipeline reads; it moves with `adv`) and
/// a skid slot `B`. A block goes into `A` when `A` moves and `B` is empty, else into `B`;
/// `B` goes into `A` when `A` moves. So the loop waits on `B`'s valid flag, a flip-flop
/// beside it, not on `adv`, whose flip-flop drives every stage of the block pipeline
/// (issue 17: `cnt` → the loop → the head copy's enables was the longest path at E = 8
/// and 16). The cost is `B`'s copy of the window (`WW` flip-flops).
#[derive(LogicBlock)]
pub struct Window<
    const P: usize,
    const E: usize,
    const PW: usize,
    const BPW: usize,
    const SW: usize,
    const TW: usize,
    const WW: usize,
> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous clear of the queue, the loop and the stages (reset or error).
    pub clr: Signal<In, Bit>,
    /// Incoming beat: `P` lanes, fewer only on a tensor's last; unused lanes zero.
    pub y: Signal<In, Bits<PW>>,
    /// Its valid lanes.
    pub yc: Signal<In, Bits<7>>,
    /// It is the tensor's last beat.
    pub yl: Signal<In, Bit>,
    /// The beat is valid.
    pub yv: Signal<In, Bit>,
    /// The stages move on this cycle (the queue has room): the beat is taken.
    pub room: Signal<Out, Bit>,
    /// The block pipeline moves on this cycle (takes the block in X0, if any).
    pub adv: Signal<In, Bit>,
    /// X0 and its skid slot are emptied: the block in X0 is truncated (no block behind it
    /// goes; the parent stops the loop), a zero-checked block fails, or a reset.
    pub kill: Signal<In, Bit>,
    /// X0: the two beats the block lies in (head beat in the low half).
    pub wn: Signal<Out, Bits<WW>>,
    /// X0: the block's first lane in the head beat.
    pub s: Signal<Out, Bits<7>>,
    /// X0: `!s`, from a second register, for the mask's selection alone.
    pub sn: Signal<Out, Bits<7>>,
    /// X0: the block ends past its tensor's last lane (truncated payload).
    pub tr: Signal<Out, Bit>,
    /// X0: the block ends on its tensor's last lane: it is the tensor's last.
    pub fin: Signal<Out, Bit>,
    /// X0 holds a block.
    pub v: Signal<Out, Bit>,
    /// X0's skid slot holds a block (the next after `v`'s).
    pub vb: Signal<Out, Bit>,
    tb: BeatTable<P, E, PW, BPW, SW, TW>,
    xt1: EnReg<PW>,
    bp: EnReg<BPW>,
    ct1: DFF<Bits<7>>,
    lt1: DFF<Bit>,
    vt1: DFF<Bit>,
    xt2: EnReg<PW>,
    sm: EnReg<SW>,
    /// The table's `lim` (entry ends at or past the beat's count), beside `sm`.
    lim: EnReg<SW>,
    pre: DFF<Bits<24>>,
    ct2: DFF<Bits<7>>,
    lt2: DFF<Bit>,
    vt2: DFF<Bit>,
    xh: EnReg<PW>,
    rawh: EnReg<TW>,
    ch: DFF<Bits<7>>,
    lh: DFF<Bit>,
    vh: DFF<Bit>,
    xq: EnReg<PW>,
    tq: EnReg<TW>,
    /// Stage Q's beat is a tensor's last (bit 0).
    lq: DFF<Bits<1>>,
    vq: DFF<Bit>,
    /// For stage Q's beat: its tensor's end lane ([`EntryFinish`]'s `lim`), the beat behind
    /// it can be used up (`uu`), that beat's count; set as the two beats move up.
    limq: DFF<Bits<7>>,
    uuq: DFF<Bit>,
    cnq: DFF<Bits<7>>,
    /// The `pp` bits of the beat behind Q's ([`BeatTable`]'s `gc3` if `uuq`, else `ge3`), set
    /// as the two beats move up, so that [`EntryFinish`] reads them from a register.
    pnq: DFF<Bits<P>>,
    ef: EntryFinish<P, TW>,
    xf: EnReg<PW>,
    tf: EnReg<TW>,
    /// Stage F's `nn` candidates ([`EntryFinish`]'s `ng`), and the table with `nn` picked.
    ngf: EnReg<TW>,
    nf: EntryNn<P, TW>,
    /// Stage F's last flag.
    lf: DFF<Bits<1>>,
    vf: DFF<Bit>,
    /// Queue entries: lanes, finished table, last flag (the count is in the table's flags).
    /// The tables are read at `rh` (for the head's copy), the rest at `rp`.
    qd: Ring4<PW>,
    qt: Ring4<TW>,
    qc: Ring4<1>,
    wp: DFF<Bits<2>>,
    rp: DFF<Bits<2>>,
    occ: DFF<Bits<3>>,
    sr: DFF<Bits<7>>,
    /// The block at `s` is the last to start in the head beat.
    lst: DFF<Bit>,
    /// `ht`, `c0r`, `l0r` hold the head beat's.
    hv: DFF<Bit>,
    /// `rp + hv`: the queue entry the head's copy loads from (the head's when the copy holds
    /// none, else the one after it), a register so that the copy's input is one 4:1
    /// multiplexer by flip-flops (issue 17: `rp` → the copy was the longest path at E = 16).
    /// It moves by itself (`rhd`), not as `rp`'s next value plus `hv`'s: `rp` drives the
    /// queue's read multiplexers and is placed by them, away from the loop (issue 17: the
    /// loop → `rp`'s next value → `rh` was the longest path at E = 8).
    rh: DFF<Bits<2>>,
    /// `rp` and `hv` as they will be next cycle.
    rpn: Signal<Local, Bits<2>>,
    hvn: Signal<Local, Bit>,
    /// What `rh` moves by with `hv`: `hvn - hv` (mod 4).
    rhd: Signal<Local, Bits<2>>,
    ht: EnReg<TW>,
    hp: HeadPick<P, TW>,
    /// The head beat is a tensor's last.
    l0r: DFF<Bit>,
    wj: Join<PW, PW, WW>,
    wnr: EnReg<WW>,
    s0: DFF<Bits<7>>,
    /// `!s0`: its copy for the mask's selection (stored inverted so that synthesis keeps
    /// the two apart).
    s0n: DFF<Bits<7>>,
    tr0: DFF<Bit>,
    fin0: DFF<Bit>,
    v0: DFF<Bit>,
    /// X0's skid slot `B`: window, start lane, truncated, last, valid.
    wnb: EnReg<WW>,
    sb: DFF<Bits<7>>,
    trb: DFF<Bit>,
    finb: DFF<Bit>,
    vbr: DFF<Bit>,
    /// `A`'s next window: `B`'s if it holds a block, else the loop's.
    wsel: Mux2<WW>,
    en: Signal<Local, Bit>,
    /// The held stage takes the beat of stage 2 this cycle.
    hload: Signal<Local, Bit>,
    /// The held beat goes to stage Q this cycle.
    hgo: Signal<Local, Bit>,
    /// Stage F's beat is written to the queue this cycle.
    wr: Signal<Local, Bit>,
    /// The head is a last beat with its lanes used up: dropped without a block.
    ex0: Signal<Local, Bit>,
    /// The head beat is dropped this cycle.
    pop: Signal<Local, Bit>,
    /// A last beat is dropped: the next block is a fresh tensor's first, at lane 0.
    lpop: Signal<Local, Bit>,
    /// The head's copy (`ht`, `c0r`, `l0r`) loads this cycle.
    hen: Signal<Local, Bit>,
    /// A block goes this cycle.
    gol: Signal<Local, Bit>,
    /// One beat is queued; two are.
    h0: Signal<Local, Bit>,
    h1: Signal<Local, Bit>,
    /// 1 and 0 as a last flag.
    one1: Constant<Bits<1>>,
    zero1: Constant<Bits<1>>,
    zero7: Constant<Bits<7>>,
    /// `P`, and 127 (no end in sight) as a 7-bit lane.
    p7: Constant<Bits<7>>,
    none7: Constant<Bits<7>>,
    one2: Constant<Bits<2>>,
    three2: Constant<Bits<2>>,
    zero2: Constant<Bits<2>>,
    one3: Constant<Bits<3>>,
    two3: Constant<Bits<3>>,
    zero3: Constant<Bits<3>>,
}

impl<
        const P: usize,
        const E: usize,
        const PW: usize,
        const BPW: usize,
        const SW: usize,
        const TW: usize,
        const WW: usize,
    > Default for Window<P, E, PW, BPW, SW, TW, WW>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            clr: Default::default(),
            y: Default::default(),
            yc: Default::default(),
            yl: Default::default(),
            yv: Default::default(),
            room: Default::default(),
            adv: Default::default(),
            kill: Default::default(),
            wn: Default::default(),
            v: Default::default(),
            s: Default::default(),
            sn: Default::default(),
            tr: Default::default(),
            fin: Default::default(),
            tb: Default::default(),
            xt1: Default::default(),
            bp: Default::default(),
            ct1: Default::default(),
            lt1: Default::default(),
            vt1: Default::default(),
            xt2: Default::default(),
            sm: Default::default(),
            lim: Default::default(),
            pre: Default::default(),
            ct2: Default::default(),
            lt2: Default::default(),
            vt2: Default::default(),
            xh: Default::default(),
            rawh: Default::default(),
            ch: Default::default(),
            lh: Default::default(),
            vh: Default::default(),
            xq: Default::default(),
            tq: Default::default(),
            lq: Default::default(),
            vq: Default::default(),
            limq: Default::default(),
            uuq: Default::default(),
            cnq: Default::default(),
            pnq: Default::default(),
            ef: Default::default(),
            xf: Default::default(),
            tf: Default::default(),
            ngf: Default::default(),
            nf: Default::default(),
            lf: Default::default(),
            vf: Default::default(),
            qd: Default::default(),
            qt: Default::default(),
            qc: Default::default(),
            wp: Default::default(),
            rp: Default::default(),
            occ: Default::default(),
            sr: Default::default(),
            lst: Default::default(),
            hv: Default::default(),
            rh: Default::default(),
            rpn: Default::default(),
            hvn: Default::default(),
            rhd: Default::default(),
            ht: Default::default(),
            hp: Default::default(),
            l0r: Default::default(),
            wj: Default::default(),
            wnr: Default::default(),
            s0: Default::default(),
            s0n: Default::default(),
            tr0: Default::default(),
            fin0: Default::default(),
            v0: Default::default(),
            wnb: Default::default(),
            sb: Default::default(),
            trb: Default::default(),
            finb: Default::default(),
            vbr: Default::default(),
            wsel: Default::default(),
            vb: Default::default(),
            en: Default::default(),
            hload: Default::default(),
            hgo: Default::default(),
            wr: Default::default(),
            ex0: Default::default(),
            pop: Default::default(),
            lpop: Default::default(),
            hen: Default::default(),
            gol: Default::default(),
            h0: Default::default(),
            h1: Default::default(),
            one1: Constant::new(1.into()),
            zero1: Constant::new(0.into()),
            zero7: Constant::new(0.into()),
            p7: Constant::new((P as u64).into()),
            none7: Constant::new(127.into()),
            one2: Constant::new(1.into()),
            three2: Constant::new(3.into()),
            zero2: Constant::new(0.into()),
            one3: Constant::new(1.into()),
            two3: Constant::new(2.into()),
            zero3: Constant::new(0.into()),
        }
    }
}

impl<
        const P: usize,
        const E: usize,
        const PW: usize,
        const BPW: usize,
        const SW: usize,
        const TW: usize,
        const WW: usize,
    > Logic for Window<P, E, PW, BPW, SW, TW, WW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ct1, lt1, vt1, pre, ct2, lt2, vt2, ch, lh, vh, lq, vq, limq, uuq, cnq,
            pnq, lf, vf, wp, rp, occ, sr, lst, hv, rh, l0r, s0, s0n, tr0, fin0, v0, sb, trb, finb,
            vbr
        );
        self.wnr.clock.next = self.clock.val();
        self.wnb.clock.next = self.clock.val();
        self.xt1.clock.next = self.clock.val();
        self.bp.clock.next = self.clock.val();
        self.xt2.clock.next = self.clock.val();
        self.sm.clock.next = self.clock.val();
        self.lim.clock.next = self.clock.val();
        self.xh.clock.next = self.clock.val();
        self.rawh.clock.next = self.clock.val();
        self.xq.clock.next = self.clock.val();
        self.tq.clock.next = self.clock.val();
        self.xf.clock.next = self.clock.val();
        self.tf.clock.next = self.clock.val();
        self.ngf.clock.next = self.clock.val();
        self.ht.clock.next = self.clock.val();
        self.qd.clock.next = self.clock.val();
        self.qt.clock.next = self.clock.val();
        self.qc.clock.next = self.clock.val();
        self.room.next = !self.occ.q.val().get_bit(2);
        // Not gated by `clr`: what `clr` must clear (valid flags, pointers) it clears below,
        // and the wide registers' enables come straight from a flip-flop.
        self.en.next = !self.occ.q.val().get_bit(2);
        // ---- stages 1 and 2: popcounts
        self.tb.x.next = self.y.val();
        self.xt1.d.next = self.y.val();
        self.bp.d.next = self.tb.bp.val();
        self.tb.bp_q.next = self.bp.q.val();
        self.xt2.d.next = self.xt1.q.val();
        self.sm.d.next = self.tb.sm.val();
        self.tb.c2.next = self.ct1.q.val();
        self.lim.d.next = self.tb.lim.val();
        self.lim.en.next = self.en.val();
        self.lim.clr.next = false;
        self.xt1.en.next = self.en.val();
        self.bp.en.next = self.en.val();
        self.xt2.en.next = self.en.val();
        self.sm.en.next = self.en.val();
        self.xt1.clr.next = false;
        self.bp.clr.next = false;
        self.xt2.clr.next = false;
        self.sm.clr.next = false;
        if self.en.val() {
            self.ct1.d.next = self.yc.val();
            self.lt1.d.next = self.yl.val();
            self.vt1.d.next = self.yv.val();
            self.pre.d.next = self.tb.pre.val();
            self.ct2.d.next = self.ct1.q.val();
            self.lt2.d.next = self.lt1.q.val();
            self.vt2.d.next = self.vt1.q.val();
        }
        // ---- stage 3: the held beat, on to stage Q once the next one is here
        self.tb.sm_q.next = self.sm.q.val();
        self.tb.lim_q.next = self.lim.q.val();
        self.xh.d.next = self.xt2.q.val();
        self.rawh.d.next = self.tb.raw.val();
        // The held stage loads when its beat leaves (next beat here, or a last beat) or it is
        // empty.
        self.hload.next = self.en.val() & (self.vt2.q.val() | !self.vh.q.val() | self.lh.q.val());
        self.xh.en.next = self.hload.val();
        self.rawh.en.next = self.hload.val();
        self.xh.clr.next = false;
        self.rawh.clr.next = false;
        if self.hload.val() {
            self.ch.d.next = self.ct2.q.val();
            self.lh.d.next = self.lt2.q.val();
            self.vh.d.next = self.vt2.q.val();
        }
        self.hgo.next = self.en.val() & self.vh.q.val() & (self.lh.q.val() | self.vt2.q.val());
        self.tb.raw_h.next = self.rawh.q.val();
        self.tb.l.next = self.lh.q.val();
        self.tb.pre_n.next = self.pre.q.val();
        // ---- stage Q: the table completed with `nn` from the beat behind it, then queued
        self.xq.d.next = self.xh.q.val();
        self.tq.d.next = self.tb.tab.val();
        self.xq.en.next = self.hgo.val();
        self.tq.en.next = self.hgo.val();
        self.xq.clr.next = false;
        self.tq.clr.next = false;
        // The beat behind the one going to Q is the one coming into H (unless that one is a
        // last beat, whose successor does not matter).
        if self.hgo.val() {
            self.lq.d.next = self.zero1.val();
            self.limq.d.next = self.none7.val();
            if self.lt2.q.val() {
                self.limq.d.next = self.p7.val() + self.ct2.q.val();
            }
            self.uuq.d.next = self.lt2.q.val();
            self.cnq.d.next = self.ct2.q.val();
            self.pnq.d.next = self.tb.ge3.val();
            if self.lt2.q.val() & !self.lh.q.val() {
                self.pnq.d.next = self.tb.gc3.val();
            }
            if self.lh.q.val() {
                self.lq.d.next = self.one1.val();
                self.limq.d.next = self.ch.q.val();
                self.uuq.d.next = false;
            }
        }
        if self.en.val() {
            self.vq.d.next = self.hgo.val();
        }
        self.ef.tq.next = self.tq.q.val();
        self.ef.lim.next = self.limq.q.val();
        self.ef.uu.next = self.uuq.q.val();
        self.ef.cn.next = self.cnq.q.val();
        self.ef.ppn.next = self.pnq.q.val();
        // ---- stage F: the finished table, then queued
        self.xf.d.next = self.xq.q.val();
        self.tf.d.next = self.ef.tf.val();
        self.ngf.d.next = self.ef.ng.val();
        self.xf.en.next = self.en.val();
        self.tf.en.next = self.en.val();
        self.ngf.en.next = self.en.val();
        self.xf.clr.next = false;
        self.tf.clr.next = false;
        self.ngf.clr.next = false;
        if self.en.val() {
            self.lf.d.next = self.lq.q.val();
            self.vf.d.next = self.vq.q.val();
        }
        self.wr.next = self.en.val() & self.vf.q.val();
        self.qd.wd.next = self.xf.q.val();
        self.nf.tf.next = self.tf.q.val();
        self.nf.ng.next = self.ngf.q.val();
        self.qt.wd.next = self.nf.t.val();
        self.qc.wd.next = self.lf.q.val();
        self.qd.we.next = self.wr.val();
        self.qt.we.next = self.wr.val();
        self.qc.we.next = self.wr.val();
        self.qd.wa.next = self.wp.q.val();
        self.qt.wa.next = self.wp.q.val();
        self.qc.wa.next = self.wp.q.val();
        if self.wr.val() {
            self.wp.d.next = self.wp.q.val() + self.one2.val();
        }
        // ---- the loop
        self.qd.ra.next = self.rp.q.val();
        self.qt.ra.next = self.rh.q.val();
        // The last flags are read where the copy loads (`rh`), not at `rp`: `rp` drives the
        // window's read multiplexers and is placed by them (issue 17: `rp` → `l0r` was the
        // longest path at E = 16).
        self.qc.ra.next = self.rh.q.val();
        self.hp.t.next = self.ht.q.val();
        self.hp.s.next = self.sr.q.val();
        self.h0.next = self.occ.q.val() >= self.one3.val();
        self.h1.next = self.occ.q.val() >= self.two3.val();
        // A start lane of 64 or more (127) marks the used-up last beat (EntryFinish).
        // Not gated by `clr` (nor is `gol`): what they move, `clr` resets below; X0 is
        // kept empty under `clr` where it loads.
        self.ex0.next = self.hv.q.val() & self.sr.q.val().get_bit(6);
        self.gol.next = self.hv.q.val()
            & (self.l0r.q.val() | self.h1.val())
            & !self.ex0.val()
            & !self.vbr.q.val();
        self.pop.next = self.ex0.val() | (self.gol.val() & self.lst.q.val());
        self.lpop.next = self.ex0.val() | (self.gol.val() & self.lst.q.val() & self.l0r.q.val());
        // The copy loads from the entry after the head when the head is dropped, from the
        // head itself when it holds none (then `s` is 0).
        self.hen.next = self.pop.val() | !self.hv.q.val();
        self.ht.d.next = self.qt.q0.val();
        self.ht.en.next = self.hen.val();
        self.ht.clr.next = false;
        self.hvn.next = self.hv.q.val();
        if self.hen.val() {
            self.l0r.d.next = self.qc.q0.val().any();
            self.hvn.next = self.h0.val();
            if self.hv.q.val() {
                self.hvn.next = self.h1.val();
            }
        }
        if self.gol.val() {
            self.sr.d.next = self.hp.nxt.val();
            self.lst.d.next = self.hp.nn.val();
        }
        if self.lpop.val() | !self.hv.q.val() {
            self.lst.d.next = self.qt.q0.val().get_bit(14);
        }
        if self.ex0.val() {
            self.sr.d.next = self.zero7.val();
        }
        self.rpn.next = self.rp.q.val();
        if self.pop.val() {
            self.rpn.next = self.rp.q.val() + self.one2.val();
        }
        if self.wr.val() & !self.pop.val() {
            self.occ.d.next = self.occ.q.val() + self.one3.val();
        }
        if !self.wr.val() & self.pop.val() {
            self.occ.d.next = self.occ.q.val() - self.one3.val();
        }
        if self.clr.val() {
            self.vt1.d.next = false;
            self.vt2.d.next = false;
            self.vh.d.next = false;
            self.vq.d.next = false;
            self.vf.d.next = false;
            self.hvn.next = false;
            self.lst.d.next = false;
            self.wp.d.next = self.zero2.val();
            self.rpn.next = self.zero2.val();
            self.occ.d.next = self.zero3.val();
            self.sr.d.next = self.zero7.val();
        }
        // rh = rp + hv moves with `hv` (by hvn - hv) and with `rp` (by one on a pop).
        self.rhd.next = self.zero2.val();
        if self.hvn.val() & !self.hv.q.val() {
            self.rhd.next = self.one2.val();
        }
        if !self.hvn.val() & self.hv.q.val() {
            self.rhd.next = self.three2.val();
        }
        self.hv.d.next = self.hvn.val();
        self.rp.d.next = self.rpn.val();
        self.rh.d.next = self.rh.q.val() + self.rhd.val();
        if self.pop.val() {
            self.rh.d.next = self.rh.q.val() + self.rhd.val() + self.one2.val();
        }
        if self.clr.val() {
            self.rh.d.next = self.zero2.val();
        }
        // ---- X0: the block that goes, with its two beats; into `A` when it moves and `B`
        // is empty, else into `B`. `B` loads whenever it is empty (its enable a flip-flop).
        self.wj.lo.next = self.qd.q0.val();
        self.wj.hi.next = self.qd.q1.val();
        self.wnb.d.next = self.wj.y.val();
        self.wnb.en.next = !self.vbr.q.val();
        self.wnb.clr.next = false;
        if !self.vbr.q.val() {
            self.sb.d.next = self.sr.q.val();
            self.trb.d.next = self.hp.tr.val();
            self.finb.d.next = self.hp.fin.val();
            self.vbr.d.next = self.gol.val() & !self.adv.val() & !self.clr.val();
        }
        if self.vbr.q.val() & self.adv.val() {
            self.vbr.d.next = false;
        }
        // Blocks behind a truncated one (or a zero-checked one) are dropped, and a reset
        // drops X0's blocks too.
        if self.kill.val() {
            self.vbr.d.next = false;
        }
        self.wsel.sel.next = self.vbr.q.val();
        self.wsel.a.next = self.wnb.q.val();
        self.wsel.b.next = self.wj.y.val();
        self.wnr.d.next = self.wsel.y.val();
        self.wnr.en.next = self.adv.val();
        self.wnr.clr.next = false;
        if self.adv.val() {
            self.s0.d.next = self.sr.q.val();
            self.s0n.d.next = !self.sr.q.val();
            self.tr0.d.next = self.hp.tr.val();
            self.fin0.d.next = self.hp.fin.val();
            self.v0.d.next = self.gol.val() & !self.clr.val();
            if self.vbr.q.val() {
                self.s0.d.next = self.sb.q.val();
                self.s0n.d.next = !self.sb.q.val();
                self.tr0.d.next = self.trb.q.val();
                self.fin0.d.next = self.finb.q.val();
                self.v0.d.next = true;
            }
        }
        if self.kill.val() {
            self.v0.d.next = false;
        }
        self.wn.next = self.wnr.q.val();
        self.s.next = self.s0.q.val();
        self.sn.next = self.s0n.q.val();
        self.tr.next = self.tr0.q.val();
        self.fin.next = self.fin0.q.val();
        self.v.next = self.v0.q.val();
        self.vb.next = self.vbr.q.val();
    }
}
