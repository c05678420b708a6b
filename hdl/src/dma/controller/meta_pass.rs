//! [`MetaPass`]: the metadata pass of a version 4 DECOMPRESS (docs/FORMAT.md rule 10a): one
//! read of the whole index and the metadata CRC after it, from the beat holding metadata byte
//! 32, before any entry is used or any payload read.
//!
//! The index beats go to the datapath's CRC unit as one message (`mp_*`: the first beat's
//! header lanes are its business, the last beat's index bytes end at `mp_cnt`); the stored
//! metadata CRC is taken from its beat (`exp`). `done` once every beat is in and the unit has
//! returned its state (`load`, which the controller puts into its metadata CRC), or at once
//! after the beats for an empty index; `err` if a beat had a bus error.
//!
//! Timing: every figure derived from `n` and `meta_addr` (the index's end, its beats, the read's
//! address and length, the CRC's lane) is registered in two stages (stage 1: the index's end,
//! the read's address and the CRC's lane; stage 2: beat counts), so no add of a count reaches
//! a handshake or the CRC unit in the cycle it is used. Both inputs hold from the state before the pass; the pass
//! waits two cycles after `go` rises (`w1`, `w2`) for the stages to fill.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::super::check::{log2, ADDR_BITS, LEN_BITS};
use crate::prims::ZeroExtend;
use cdma_spec::frame;

/// The metadata pass of a `DW`-bit engine (`BB = DW/8` bytes, `E = DW/32` words per beat,
/// `LGE = log2 E`, `LGDW = log2 DW`).
#[derive(LogicBlock)]
pub struct MetaPass<
    const DW: usize,
    const BB: usize,
    const E: usize,
    const LGE: usize,
    const LGDW: usize,
> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Level: the pass runs (low: it starts over).
    pub go: Signal<In, Bit>,
    /// The descriptor's `meta_addr`.
    pub meta_addr: Signal<In, Bits<ADDR_BITS>>,
    /// Index entries (`n_chunks`).
    pub n: Signal<In, Bits<LEN_BITS>>,
    /// Read request: address.
    pub rd_req_addr: Signal<Out, Bits<ADDR_BITS>>,
    /// Read request: beats.
    pub rd_req_beats: Signal<Out, Bits<LEN_BITS>>,
    /// Read request valid.
    pub rd_req_valid: Signal<Out, Bit>,
    /// Read request taken.
    pub rd_req_ready: Signal<In, Bit>,
    /// Read beat.
    pub rd_data: Signal<In, Bits<DW>>,
    /// Read beat: a bus error.
    pub rd_err: Signal<In, Bit>,
    /// Read beat valid.
    pub rd_valid: Signal<In, Bit>,
    /// Read beat taken.
    pub rd_ready: Signal<Out, Bit>,
    /// To the datapath: the pass runs (until its state is back).
    pub mp: Signal<Out, Bit>,
    /// To the datapath: an index beat is taken.
    pub mp_take: Signal<Out, Bit>,
    /// To the datapath: it is the first.
    pub mp_first: Signal<Out, Bit>,
    /// To the datapath: it is the last.
    pub mp_last: Signal<Out, Bit>,
    /// To the datapath: its index bytes end at this lane.
    pub mp_cnt: Signal<Out, Bits<8>>,
    /// From the datapath: the state after the index is there.
    pub mp_done: Signal<In, Bit>,
    /// Pulse: load the datapath's state into the metadata CRC.
    pub load: Signal<Out, Bit>,
    /// The pass is over.
    pub done: Signal<Out, Bit>,
    /// A beat of the pass had a bus error.
    pub err: Signal<Out, Bit>,
    /// The stored metadata CRC.
    pub exp: Signal<Out, Bits<32>>,
    issued: DFF<Bit>,
    bcnt: DFF<Bits<LEN_BITS>>,
    st_in: DFF<Bit>,
    err_r: DFF<Bit>,
    exp_r: DFF<Bits<32>>,
    /// `go` one and two cycles ago: the stages below hold this pass's figures.
    w1: DFF<Bit>,
    w2: DFF<Bit>,
    /// Stage 1: the index's end (byte), whether it has entries, the read's address, the
    /// stored CRC's lane.
    iend: DFF<Bits<LEN_BITS>>,
    nz: DFF<Bit>,
    addr_r: DFF<Bits<ADDR_BITS>>,
    lane: DFF<Bits<LGDW>>,
    /// Stage 2: the index's beats (minus one), the read's beats, the last beat's byte count.
    ibeats: DFF<Bits<LEN_BITS>>,
    ib_m1: DFF<Bits<LEN_BITS>>,
    tbeats: DFF<Bits<LEN_BITS>>,
    last_cnt: DFF<Bits<8>>,
    inz: DFF<Bit>,
    warm: Signal<Local, Bit>,
    aext: ZeroExtend<LEN_BITS, ADDR_BITS>,
    all_in: Signal<Local, Bit>,
    wl: Signal<Local, Bits<LGE>>,
    wlx: ZeroExtend<LGE, LGDW>,
    three: Constant<Bits<5>>,
    five: Constant<Bits<5>>,
    one: Constant<Bits<LEN_BITS>>,
    four: Constant<Bits<LEN_BITS>>,
    zero: Constant<Bits<LEN_BITS>>,
    hdr_bytes: Constant<Bits<LEN_BITS>>,
    hdr_beat0: Constant<Bits<LEN_BITS>>,
    first_beat: Constant<Bits<LEN_BITS>>,
    lg_bb: Constant<Bits<5>>,
    one_e: Constant<Bits<LGE>>,
    hdr_w: Constant<Bits<LGE>>,
    bb8: Constant<Bits<8>>,
    bb_m1_8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
}

impl<const DW: usize, const BB: usize, const E: usize, const LGE: usize, const LGDW: usize> Default
    for MetaPass<DW, BB, E, LGE, LGDW>
{
    fn default() -> Self {
        assert_eq!((8 * BB, 32 * E, 1 << LGE, 1 << LGDW), (DW, DW, E, DW));
        fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
            Constant::new(v.into())
        }
        let hb0 = (frame::HEADER_LEN / BB) as u64;
        Self {
            clock: Default::default(),
            go: Default::default(),
            meta_addr: Default::default(),
            n: Default::default(),
            rd_req_addr: Default::default(),
            rd_req_beats: Default::default(),
            rd_req_valid: Default::default(),
            rd_req_ready: Default::default(),
            rd_data: Default::default(),
            rd_err: Default::default(),
            rd_valid: Default::default(),
            rd_ready: Default::default(),
            mp: Default::default(),
            mp_take: Default::default(),
            mp_first: Default::default(),
            mp_last: Default::default(),
            mp_cnt: Default::default(),
            mp_done: Default::default(),
            load: Default::default(),
            done: Default::default(),
            err: Default::default(),
            exp: Default::default(),
            issued: Default::default(),
            bcnt: Default::default(),
            st_in: Default::default(),
            err_r: Default::default(),
            exp_r: Default::default(),
            w1: Default::default(),
            w2: Default::default(),
            iend: Default::default(),
            nz: Default::default(),
            addr_r: Default::default(),
            lane: Default::default(),
            ibeats: Default::default(),
            ib_m1: Default::default(),
            tbeats: Default::default(),
            last_cnt: Default::default(),
            inz: Default::default(),
            warm: Default::default(),
            aext: Default::default(),
            all_in: Default::default(),
            wl: Default::default(),
            wlx: Default::default(),
            three: c(3),
            five: c(5),
            one: c(1),
            four: c(4),
            zero: c(0),
            hdr_bytes: c(frame::HEADER_LEN as u64),
            hdr_beat0: c(hb0),
            first_beat: c(hb0 * BB as u64),
            lg_bb: c(log2(BB)),
            one_e: c(1),
            hdr_w: c((frame::HEADER_LEN / 4 % E) as u64),
            bb8: c(BB as u64),
            bb_m1_8: c(BB as u64 - 1),
            one8: c(1),
        }
    }
}

impl<const DW: usize, const BB: usize, const E: usize, const LGE: usize, const LGDW: usize> Logic
    for MetaPass<DW, BB, E, LGE, LGDW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, issued, bcnt, st_in, err_r, exp_r, w1, w2, iend, nz, addr_r, lane, ibeats,
            ib_m1, tbeats, last_cnt, inz
        );
        self.w1.d.next = self.go.val();
        self.w2.d.next = self.go.val() & self.w1.q.val();
        self.warm.next = self.go.val() & self.w2.q.val();
        // ---- stage 1: the index is metadata bytes [32, iend), the stored CRC [iend, iend + 4)
        self.iend.d.next = (self.n.val() << self.three.val()) + self.hdr_bytes.val();
        self.nz.d.next = self.n.val().any();
        self.aext.x.next = self.first_beat.val();
        self.addr_r.d.next = self.meta_addr.val() + self.aext.y.val();
        // The stored CRC: word (iend / 4) mod E = (8 + 2n) mod E of the last beat.
        self.wl.next = (self.n.val().get_bits::<LGE>(0) << self.one_e.val()) + self.hdr_w.val();
        self.wlx.x.next = self.wl.val();
        self.lane.d.next = self.wlx.y.val() << self.five.val();
        // ---- stage 2: the read covers both from the beat of byte 32, the message only the
        // index's beats
        self.ib_m1.d.next =
            ((self.iend.q.val() - self.one.val()) >> self.lg_bb.val()) - self.hdr_beat0.val();
        self.ibeats.d.next = self.zero.val();
        if self.nz.q.val() {
            self.ibeats.d.next = ((self.iend.q.val() - self.one.val()) >> self.lg_bb.val())
                + self.one.val()
                - self.hdr_beat0.val();
        }
        self.inz.d.next = self.nz.q.val();
        self.tbeats.d.next = ((self.iend.q.val() + self.four.val() - self.one.val())
            >> self.lg_bb.val())
            + self.one.val()
            - self.hdr_beat0.val();
        // The index's last byte is at lane (iend - 1) mod BB of its last beat.
        self.last_cnt.d.next = ((self.iend.q.val().get_bits::<8>(0) - self.one8.val())
            & self.bb_m1_8.val())
            + self.one8.val();
        self.rd_req_addr.next = self.addr_r.q.val();
        self.rd_req_beats.next = self.tbeats.q.val();
        self.rd_req_valid.next = self.warm.val() & !self.issued.q.val();
        if self.rd_req_ready.val() & self.warm.val() {
            self.issued.d.next = true;
        }
        // ---- the beats
        self.all_in.next = self.bcnt.q.val() == self.tbeats.q.val();
        self.rd_ready.next = self.warm.val() & self.issued.q.val() & !self.all_in.val();
        self.mp_take.next =
            self.rd_ready.val() & self.rd_valid.val() & (self.bcnt.q.val() < self.ibeats.q.val());
        self.mp_first.next = !self.bcnt.q.val().any();
        self.mp_last.next = self.bcnt.q.val() == self.ib_m1.q.val();
        self.mp_cnt.next = self.bb8.val();
        if self.mp_last.val() {
            self.mp_cnt.next = self.last_cnt.q.val();
        }
        if self.rd_ready.val() & self.rd_valid.val() {
            self.bcnt.d.next = self.bcnt.q.val() + self.one.val();
            self.err_r.d.next = self.err_r.q.val() | self.rd_err.val();
            self.exp_r.d.next = self.rd_data.val().get_bits::<32>(self.lane.q.val().index());
        }
        // ---- the unit's state after the index (none to wait for without entries)
        self.mp.next = self.warm.val() & !self.st_in.q.val() & self.inz.q.val();
        self.load.next = self.mp.val() & self.mp_done.val();
        if self.load.val() {
            self.st_in.d.next = true;
        }
        self.done.next =
            self.warm.val() & self.all_in.val() & (self.st_in.q.val() | !self.inz.q.val());
        self.err.next = self.err_r.q.val();
        self.exp.next = self.exp_r.q.val();
        if !self.go.val() {
            self.issued.d.next = false;
            self.bcnt.d.next = self.zero.val();
            self.st_in.d.next = false;
            self.err_r.d.next = false;
        }
    }
}
