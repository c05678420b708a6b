//! [`MetaPass`]: the metadata pass of a version 4 DECOMPRESS (docs/FORMAT.md rule 10a): one
//! read of the whole index and the metadata CRC after it, from the beat holding metadata byte
//! 32, before any entry is used or any payload read.
//!
//! The index beats go to the datapath's CRC unit as one message (`mp_*`: the first beat's
//! header lanes are its business, the last beat's index bytes end at `mp_cnt`); the stored
//! metadata CRC is taken from its beat (`exp`). `done` once every beat is in and the unit has
//! returned its state (`load`, which the controller puts into its metadata CRC), or at once
//! after the beats for an empty index; `err` if a beat had a bus error.

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
    aext: ZeroExtend<LEN_BITS, ADDR_BITS>,
    iend: Signal<Local, Bits<LEN_BITS>>,
    ibeats: Signal<Local, Bits<LEN_BITS>>,
    tbeats: Signal<Local, Bits<LEN_BITS>>,
    all_in: Signal<Local, Bit>,
    wl: Signal<Local, Bits<LGE>>,
    wlx: ZeroExtend<LGE, LGDW>,
    lane: Signal<Local, Bits<LGDW>>,
    last_cnt: Signal<Local, Bits<8>>,
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
            aext: Default::default(),
            iend: Default::default(),
            ibeats: Default::default(),
            tbeats: Default::default(),
            all_in: Default::default(),
            wl: Default::default(),
            wlx: Default::default(),
            lane: Default::default(),
            last_cnt: Default::default(),
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
        dff_setup!(self, clock, issued, bcnt, st_in, err_r, exp_r);
        // ---- the index is metadata bytes [32, iend), the stored CRC [iend, iend + 4); the
        // read covers both from the beat of byte 32, the message only the index's beats
        self.iend.next = (self.n.val() << self.three.val()) + self.hdr_bytes.val();
        self.ibeats.next = self.zero.val();
        if self.n.val().any() {
            self.ibeats.next = ((self.iend.val() - self.one.val()) >> self.lg_bb.val())
                + self.one.val()
                - self.hdr_beat0.val();
        }
        self.tbeats.next = ((self.iend.val() + self.four.val() - self.one.val())
            >> self.lg_bb.val())
            + self.one.val()
            - self.hdr_beat0.val();
        self.aext.x.next = self.first_beat.val();
        self.rd_req_addr.next = self.meta_addr.val() + self.aext.y.val();
        self.rd_req_beats.next = self.tbeats.val();
        self.rd_req_valid.next = self.go.val() & !self.issued.q.val();
        if self.rd_req_ready.val() & self.go.val() {
            self.issued.d.next = true;
        }
        // ---- the beats
        self.all_in.next = self.bcnt.q.val() == self.tbeats.val();
        self.rd_ready.next = self.go.val() & self.issued.q.val() & !self.all_in.val();
        self.mp_take.next =
            self.rd_ready.val() & self.rd_valid.val() & (self.bcnt.q.val() < self.ibeats.val());
        self.mp_first.next = !self.bcnt.q.val().any();
        self.mp_last.next = (self.bcnt.q.val() + self.one.val()) == self.ibeats.val();
        // The index's last byte is at lane (iend - 1) mod BB of its last beat.
        self.last_cnt.next = ((self.iend.val().get_bits::<8>(0) - self.one8.val())
            & self.bb_m1_8.val())
            + self.one8.val();
        self.mp_cnt.next = self.bb8.val();
        if self.mp_last.val() {
            self.mp_cnt.next = self.last_cnt.val();
        }
        // The stored CRC: word (iend / 4) mod E = (8 + 2n) mod E of the last beat.
        self.wl.next = (self.n.val().get_bits::<LGE>(0) << self.one_e.val()) + self.hdr_w.val();
        self.wlx.x.next = self.wl.val();
        self.lane.next = self.wlx.y.val() << self.five.val();
        if self.rd_ready.val() & self.rd_valid.val() {
            self.bcnt.d.next = self.bcnt.q.val() + self.one.val();
            self.err_r.d.next = self.err_r.q.val() | self.rd_err.val();
            self.exp_r.d.next = self.rd_data.val().get_bits::<32>(self.lane.val().index());
        }
        // ---- the unit's state after the index (none to wait for without entries)
        self.mp.next = self.go.val() & !self.st_in.q.val() & self.ibeats.val().any();
        self.load.next = self.mp.val() & self.mp_done.val();
        if self.load.val() {
            self.st_in.d.next = true;
        }
        self.done.next =
            self.go.val() & self.all_in.val() & (self.st_in.q.val() | !self.ibeats.val().any());
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
