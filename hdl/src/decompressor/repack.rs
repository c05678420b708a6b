//! [`Repack`]: the decompressor's input side. Payload beats may hold any number of lanes
//! (1..P); this turns them into full beats of `P` lanes (only a tensor's last beat may be
//! partial), so that a block, at most `P` lanes, always lies within two consecutive beats.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::prims::{EnReg, LaneRot, Thermo};

/// Three stages and an output register, moving together while `en`:
/// 1. *input register*: the beat, its lanes at and above its count cleared; the *offset*
///    register (lanes already in the beat being filled) moves by its count: `total = offset
///    + count`, modulo `P` (to 0 after a last beat);
/// 2. the beat rotated up by the offset's bits 0–2 ([`LaneRot`] section 1, mod `P` lanes);
/// 3. and by its bits 3–5 (section 2): the beat placed at the offset, split by a thermometer
///    of the offset into `lo` (its lanes at and above the offset: they fill the beat being
///    filled) and `hi` (below it: what spills into the next one);
/// 4. the *holding register* `h` (the beat being filled) OR `lo` is a full beat when
///    `total ≥ P`, then `h` takes `hi`; a last beat ends the tensor's stream: a beat of
///    `total` lanes, or when `total > P` a full beat and then, in the empty slot that always
///    follows a last beat (`held_last`: the parent takes no beat behind it), the leftover
///    `total - P` lanes.
///
/// Only the offset (a 7-bit adder) and the holding register (a 2:1 choice) feed back; the
/// placement is two registered halves of one rotation (the compressor's packer does the
/// same), not a barrel shift by the offset in one cycle.
#[derive(LogicBlock)]
pub struct Repack<const P: usize, const E: usize, const PW: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous clear of every stage, the offset and the holding register.
    pub clr: Signal<In, Bit>,
    /// Every stage moves on this cycle.
    pub en: Signal<In, Bit>,
    /// Input beat (lanes at and above `in_count` are ignored).
    pub in_data: Signal<In, Bits<PW>>,
    /// Its valid lanes (1..P).
    pub in_count: Signal<In, Bits<7>>,
    /// It is the tensor's last beat.
    pub in_last: Signal<In, Bit>,
    /// A beat enters this cycle (it is taken and well formed).
    pub in_take: Signal<In, Bit>,
    /// The input register holds a last beat: take no beat in the cycle it moves on.
    pub held_last: Signal<Out, Bit>,
    /// Output beat: `P` lanes, fewer only on a tensor's last; unused lanes zero.
    pub y: Signal<Out, Bits<PW>>,
    /// Its valid lanes.
    pub yc: Signal<Out, Bits<7>>,
    /// It is the tensor's last beat.
    pub yl: Signal<Out, Bit>,
    /// The output register holds a beat.
    pub yv: Signal<Out, Bit>,
    d0: EnReg<PW>,
    c0: DFF<Bits<7>>,
    l0: DFF<Bit>,
    v0: DFF<Bit>,
    off: DFF<Bits<7>>,
    th: Thermo<P, E, PW>,
    rot: LaneRot<E, PW>,
    r1: EnReg<PW>,
    o1: DFF<Bits<7>>,
    t1: DFF<Bits<7>>,
    l1: DFF<Bit>,
    v1: DFF<Bit>,
    /// Lanes below stage 2's offset.
    tho: Thermo<P, E, PW>,
    lo: EnReg<PW>,
    hi: EnReg<PW>,
    t2: DFF<Bits<7>>,
    l2: DFF<Bit>,
    v2: DFF<Bit>,
    /// Stage 3's beat completes the beat being filled (`t2 ≥ P`), and a beat goes out when
    /// it moves on (`v2` and full or last): both set a stage earlier, so that the holding
    /// register's choice and the output register's enable come from flip-flops (issue 17:
    /// `t2`'s compare into `yr`'s enable was the longest path at E = 16).
    f2: DFF<Bit>,
    g2: DFF<Bit>,
    h: EnReg<PW>,
    fl: DFF<Bit>,
    flc: DFF<Bits<7>>,
    yr: EnReg<PW>,
    ycr: DFF<Bits<7>>,
    ylr: DFF<Bit>,
    yvr: DFF<Bit>,
    /// The input register's beat brings the beat being filled to this many lanes.
    tot: Signal<Local, Bits<7>>,
    /// Stage 2's beat completes the beat being filled (`t1 ≥ P`; registered as `f2`).
    full1: Signal<Local, Bit>,
    p7: Constant<Bits<7>>,
    zero7: Constant<Bits<7>>,
}

impl<const P: usize, const E: usize, const PW: usize> Default for Repack<P, E, PW> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            clr: Default::default(),
            en: Default::default(),
            in_data: Default::default(),
            in_count: Default::default(),
            in_last: Default::default(),
            in_take: Default::default(),
            held_last: Default::default(),
            y: Default::default(),
            yc: Default::default(),
            yl: Default::default(),
            yv: Default::default(),
            d0: Default::default(),
            c0: Default::default(),
            l0: Default::default(),
            v0: Default::default(),
            off: Default::default(),
            th: Default::default(),
            rot: Default::default(),
            r1: Default::default(),
            o1: Default::default(),
            t1: Default::default(),
            l1: Default::default(),
            v1: Default::default(),
            tho: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            t2: Default::default(),
            l2: Default::default(),
            v2: Default::default(),
            f2: Default::default(),
            g2: Default::default(),
            h: Default::default(),
            fl: Default::default(),
            flc: Default::default(),
            yr: Default::default(),
            ycr: Default::default(),
            ylr: Default::default(),
            yvr: Default::default(),
            tot: Default::default(),
            full1: Default::default(),
            p7: Constant::new((P as u64).into()),
            zero7: Constant::new(0.into()),
        }
    }
}

impl<const P: usize, const E: usize, const PW: usize> Logic for Repack<P, E, PW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, c0, l0, v0, off, o1, t1, l1, v1, t2, l2, v2, f2, g2, fl, flc, ycr, ylr,
            yvr
        );
        self.d0.clock.next = self.clock.val();
        self.r1.clock.next = self.clock.val();
        self.lo.clock.next = self.clock.val();
        self.hi.clock.next = self.clock.val();
        self.h.clock.next = self.clock.val();
        self.yr.clock.next = self.clock.val();
        // ---- stage 1: the input register (unused lanes cleared) and the offset
        self.th.n.next = self.in_count.val();
        self.d0.d.next = self.in_data.val() & self.th.y.val();
        self.d0.en.next = self.en.val();
        self.d0.clr.next = false;
        self.tot.next = self.off.q.val() + self.c0.q.val();
        if self.en.val() {
            self.c0.d.next = self.in_count.val();
            self.l0.d.next = self.in_last.val();
            self.v0.d.next = self.in_take.val();
            if self.v0.q.val() {
                self.off.d.next = self.tot.val();
                if self.tot.val() >= self.p7.val() {
                    self.off.d.next = self.tot.val() - self.p7.val();
                }
                if self.l0.q.val() {
                    self.off.d.next = self.zero7.val();
                }
            }
        }
        self.held_last.next = self.v0.q.val() & self.l0.q.val();
        // ---- stage 2: rotated by the offset's low bits
        self.rot.x1.next = self.d0.q.val();
        self.rot.n1.next = self.off.q.val().get_bits::<3>(0);
        self.r1.d.next = self.rot.y1.val();
        self.r1.en.next = self.en.val();
        self.r1.clr.next = false;
        if self.en.val() {
            self.o1.d.next = self.off.q.val();
            self.t1.d.next = self.tot.val();
            self.l1.d.next = self.l0.q.val();
            self.v1.d.next = self.v0.q.val();
        }
        // ---- stage 3: and by its high bits: placed at the offset, split there
        self.full1.next = self.t1.q.val() >= self.p7.val();
        self.rot.x2.next = self.r1.q.val();
        self.rot.n2.next = self.o1.q.val().get_bits::<3>(3);
        self.tho.n.next = self.o1.q.val();
        self.lo.d.next = self.rot.y2.val() & !self.tho.y.val();
        self.hi.d.next = self.rot.y2.val() & self.tho.y.val();
        self.lo.en.next = self.en.val();
        self.hi.en.next = self.en.val();
        self.lo.clr.next = false;
        self.hi.clr.next = false;
        if self.en.val() {
            self.t2.d.next = self.t1.q.val();
            self.l2.d.next = self.l1.q.val();
            self.v2.d.next = self.v1.q.val();
            self.f2.d.next = self.full1.val();
            self.g2.d.next = self.v1.q.val() & (self.full1.val() | self.l1.q.val());
        }
        // ---- stage 4: the beat being filled, the output beat
        self.h.d.next = self.h.q.val() | self.lo.q.val();
        if self.f2.q.val() {
            self.h.d.next = self.hi.q.val();
        }
        self.h.en.next = self.en.val() & self.v2.q.val();
        self.h.clr.next = self.clr.val()
            | (self.en.val()
                & (self.fl.q.val() | (self.v2.q.val() & self.l2.q.val() & !self.f2.q.val())));
        self.yr.d.next = self.h.q.val() | self.lo.q.val();
        if self.fl.q.val() {
            self.yr.d.next = self.h.q.val();
        }
        self.yr.en.next = self.en.val() & (self.fl.q.val() | self.g2.q.val());
        self.yr.clr.next = false;
        if self.en.val() {
            self.yvr.d.next = self.fl.q.val() | self.g2.q.val();
            self.fl.d.next = false;
            if self.fl.q.val() {
                self.ycr.d.next = self.flc.q.val();
                self.ylr.d.next = true;
            }
            if self.v2.q.val() & self.f2.q.val() {
                self.ycr.d.next = self.p7.val();
                self.ylr.d.next = self.l2.q.val() & (self.t2.q.val() == self.p7.val());
                self.fl.d.next = self.l2.q.val() & (self.t2.q.val() != self.p7.val());
                self.flc.d.next = self.t2.q.val() - self.p7.val();
            }
            if self.v2.q.val() & !self.f2.q.val() & self.l2.q.val() {
                self.ycr.d.next = self.t2.q.val();
                self.ylr.d.next = true;
            }
        }
        if self.clr.val() {
            self.v0.d.next = false;
            self.v1.d.next = false;
            self.v2.d.next = false;
            self.g2.d.next = false;
            self.off.d.next = self.zero7.val();
            self.fl.d.next = false;
            self.yvr.d.next = false;
        }
        self.y.next = self.yr.q.val();
        self.yc.next = self.ycr.q.val();
        self.yl.next = self.ylr.q.val();
        self.yv.next = self.yvr.q.val();
    }
}
