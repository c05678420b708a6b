//! [`CrcPath`]: the datapath's CRC32C (frame version 4, docs/FORMAT.md "Version 4: CRC32C"):
//! one [`Crc32cBeat`] at the bus width, shared by the three jobs that never overlap, and one
//! small queue of CRCs (`D` entries, [`depth`]) between it and the controller.
//!
//! * **COMPRESS** (`comp`): the source beats as the datapath takes them (`s_*`), a message
//!   per chunk (a chunk starts at a beat; `s_end` ends it). Each chunk's CRC goes into the
//!   queue, whose head leaves with the chunk's decision (`d_crc`, `d_hold` while none; popped by
//!   `d_pop`). A beat that ends a chunk is taken only while fewer than `D` chunks wait
//!   for their decision (`s_hold`), so the queue never overflows; at 4 KiB chunks that is
//!   never the limit.
//! * **DECOMPRESS** (`dec`): each chunk command's expected CRC goes into the queue as the
//!   command is taken (`c_push`; `c_hold` while the queue is full); the output beats as the write
//!   side takes them (`o_*`) are the messages, and each result is compared with the head,
//!   which it pops: a mismatch sets the sticky `err`. `busy` while a command's CRC waits.
//! * **Metadata pass** (`mp`, a DECOMPRESS before its payload): the index beats as the
//!   controller takes them (`m_*`), one message whose raw state leaves on `m_state` with the
//!   `m_done` pulse. On a bus of 64 or 128 bytes the first beat also holds the 32 header
//!   bytes: they are cleared and the state starts at `unshift(0xFFFF_FFFF, 32)`, so it is
//!   `0xFFFF_FFFF` at the index's first byte.
//!
//! Beats reach the unit through a register stage (`r_*`), so chunk CRCs leave 3 cycles after a
//! chunk's last beat (a chunk is whole beats: 128 bytes at least); only a job's last message
//! (the data's last chunk, the metadata pass) may end in a partial beat, and nothing ends after
//! it in that job, as [`Crc32cBeat`] requires.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::crc::math::{unshift, INIT};
use crate::crc::Crc32cBeat;
use crate::prims::{Join, RegQueue};
use cdma_spec::frame;

/// CRCs the queue of a `bb`-byte datapath holds: chunks ended and not yet decided (COMPRESS),
/// chunk commands not yet checked (DECOMPRESS). A chunk of the smallest size (128 bytes) is
/// 8 beats at 16 bytes, 4 at 32, so 4 entries cover the decision's latency there; on wider
/// buses such chunks end every beat or two and 8 entries keep the source flowing.
pub const fn depth(bb: usize) -> usize {
    if bb <= 32 {
        4
    } else {
        8
    }
}

/// The CRC path of a `DW`-bit datapath (`BB = DW/8`, `XW = DW + 32`, as [`Crc32cBeat`]; `D`
/// = [`depth`]`(BB)` CRCs queued).
#[derive(LogicBlock)]
pub struct CrcPath<const DW: usize, const BB: usize, const XW: usize, const D: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (the datapath's: reset, start or abort): empties the queue, clears
    /// `err`.
    pub rst: Signal<In, Bit>,
    /// COMPRESS of a version 4 frame.
    pub comp: Signal<In, Bit>,
    /// DECOMPRESS of a version 4 frame.
    pub dec: Signal<In, Bit>,
    /// The metadata pass runs (level, until `m_done`).
    pub mp: Signal<In, Bit>,
    /// A read beat: the source (COMPRESS) or an index beat (metadata pass).
    pub in_data: Signal<In, Bits<DW>>,
    /// COMPRESS: bytes of the source beat taken.
    pub s_cnt: Signal<In, Bits<8>>,
    /// COMPRESS: the source beat ends its chunk.
    pub s_end: Signal<In, Bit>,
    /// COMPRESS: the datapath takes the source beat.
    pub s_take: Signal<In, Bit>,
    /// COMPRESS: the source beat offered must wait: it ends a chunk (`s_end`) and `D`
    /// chunks wait for their decisions.
    pub s_hold: Signal<Out, Bit>,
    /// COMPRESS: the oldest chunk's CRC32C, for its decision.
    pub d_crc: Signal<Out, Bits<32>>,
    /// COMPRESS: the decision is taken with `d_crc`.
    pub d_pop: Signal<In, Bit>,
    /// COMPRESS: the decision must wait for its chunk's CRC (the queue is empty).
    pub d_hold: Signal<Out, Bit>,
    /// DECOMPRESS: the expected CRC32C of the chunk commanded.
    pub c_crc: Signal<In, Bits<32>>,
    /// DECOMPRESS: the chunk command is taken.
    pub c_push: Signal<In, Bit>,
    /// DECOMPRESS: the chunk command must wait: `D` CRCs wait for their data.
    pub c_hold: Signal<Out, Bit>,
    /// DECOMPRESS: the output beat.
    pub o_data: Signal<In, Bits<DW>>,
    /// DECOMPRESS: bytes of the output beat.
    pub o_cnt: Signal<In, Bits<8>>,
    /// DECOMPRESS: the output beat ends its chunk.
    pub o_end: Signal<In, Bit>,
    /// DECOMPRESS: the output beat is taken.
    pub o_take: Signal<In, Bit>,
    /// DECOMPRESS: a chunk's data did not match its CRC (sticky until `rst`).
    pub err: Signal<Out, Bit>,
    /// DECOMPRESS: a chunk's CRC waits for its data's (the queue is not empty).
    pub busy: Signal<Out, Bit>,
    /// Metadata pass: the controller takes an index beat.
    pub m_take: Signal<In, Bit>,
    /// Metadata pass: the first index beat.
    pub m_first: Signal<In, Bit>,
    /// Metadata pass: the last index beat.
    pub m_last: Signal<In, Bit>,
    /// Metadata pass: index bytes in the beat up to (all lanes below) this count.
    pub m_cnt: Signal<In, Bits<8>>,
    /// Metadata pass: the raw state after the index.
    pub m_state: Signal<Out, Bits<32>>,
    /// Metadata pass: `m_state` is there (one cycle; the unit's result, whatever the mode:
    /// outputs depend on registers only, the user gates them with its mode).
    pub m_done: Signal<Out, Bit>,
    unit: Crc32cBeat<DW, BB, XW>,
    // A CRC is its bits 30:0 as the entry's data and bit 31 as its tag.
    cq: RegQueue<31, 1, D>,
    head: Join<31, 1, 32>,
    nf: DFF<Bit>,
    /// The unit's input stage: the beat chosen by the mode, a cycle before the unit takes it.
    r_data: DFF<Bits<DW>>,
    r_cnt: DFF<Bits<8>>,
    r_first: DFF<Bit>,
    r_init: DFF<Bits<32>>,
    r_last: DFF<Bit>,
    r_valid: DFF<Bit>,
    b_last: Signal<Local, Bit>,
    b_valid: Signal<Local, Bit>,
    pend: DFF<Bits<4>>,
    err_r: DFF<Bit>,
    fin: Signal<Local, Bits<32>>,
    s_room: Signal<Local, Bit>,
    d_valid: Signal<Local, Bit>,
    c_room: Signal<Local, Bit>,
    s_fin: Signal<Local, Bit>,
    lead: Constant<Bits<DW>>,
    init: Constant<Bits<32>>,
    init_lead: Constant<Bits<32>>,
    ones: Constant<Bits<32>>,
    depth: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    zero4: Constant<Bits<4>>,
}

impl<const DW: usize, const BB: usize, const XW: usize, const D: usize> Default
    for CrcPath<DW, BB, XW, D>
{
    fn default() -> Self {
        assert_eq!(8 * BB, DW);
        assert_eq!(D, depth(BB), "CrcPath: D must be depth(BB)");
        // The first index byte's lane in the first index beat (the pass reads from the beat
        // that holds metadata byte 32).
        let lead = frame::HEADER_LEN % BB;
        let mut keep = Bits::<DW>::mask();
        if lead > 0 {
            keep = keep & !(Bits::<DW>::mask() >> ((DW - 8 * lead) as u64));
        }
        Self {
            clock: Default::default(),
            rst: Default::default(),
            comp: Default::default(),
            dec: Default::default(),
            mp: Default::default(),
            in_data: Default::default(),
            s_cnt: Default::default(),
            s_end: Default::default(),
            s_take: Default::default(),
            s_room: Default::default(),
            s_hold: Default::default(),
            d_crc: Default::default(),
            d_valid: Default::default(),
            d_pop: Default::default(),
            d_hold: Default::default(),
            c_crc: Default::default(),
            c_push: Default::default(),
            c_room: Default::default(),
            c_hold: Default::default(),
            o_data: Default::default(),
            o_cnt: Default::default(),
            o_end: Default::default(),
            o_take: Default::default(),
            err: Default::default(),
            busy: Default::default(),
            m_take: Default::default(),
            m_first: Default::default(),
            m_last: Default::default(),
            m_cnt: Default::default(),
            m_state: Default::default(),
            m_done: Default::default(),
            unit: Default::default(),
            cq: Default::default(),
            head: Default::default(),
            nf: Default::default(),
            r_data: Default::default(),
            r_cnt: Default::default(),
            r_first: Default::default(),
            r_init: Default::default(),
            r_last: Default::default(),
            r_valid: Default::default(),
            b_last: Default::default(),
            b_valid: Default::default(),
            pend: Default::default(),
            err_r: Default::default(),
            fin: Default::default(),
            s_fin: Default::default(),
            lead: Constant::new(keep),
            init: Constant::new(u64::from(INIT).into()),
            init_lead: Constant::new(u64::from(unshift(INIT, lead)).into()),
            ones: Constant::new(u64::from(u32::MAX).into()),
            depth: Constant::new((D as u64).into()),
            one4: Constant::new(1u64.into()),
            zero4: Constant::new(0u64.into()),
        }
    }
}

impl<const DW: usize, const BB: usize, const XW: usize, const D: usize> Logic
    for CrcPath<DW, BB, XW, D>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, nf, pend, err_r, r_data, r_cnt, r_first, r_init, r_last, r_valid);
        self.unit.clock.next = self.clock.val();
        self.unit.rst.next = self.rst.val();
        self.cq.clock.next = self.clock.val();
        self.cq.rst.next = self.rst.val();
        self.head.lo.next = self.cq.q.val();
        self.head.hi.next = self.cq.qt.val();
        // ---- the unit's beat: index beats (metadata pass), output beats (DECOMPRESS) or
        // source beats (COMPRESS); a message starts after a reset or a message's end
        self.r_init.d.next = self.init.val();
        if self.mp.val() {
            self.r_data.d.next = self.in_data.val();
            if self.m_first.val() {
                self.r_data.d.next = self.in_data.val() & self.lead.val();
                self.r_init.d.next = self.init_lead.val();
            }
            self.r_cnt.d.next = self.m_cnt.val();
            self.r_first.d.next = self.m_first.val();
            self.b_last.next = self.m_last.val();
            self.b_valid.next = self.m_take.val();
        } else if self.dec.val() {
            self.r_data.d.next = self.o_data.val();
            self.r_cnt.d.next = self.o_cnt.val();
            self.r_first.d.next = self.nf.q.val();
            self.b_last.next = self.o_end.val();
            self.b_valid.next = self.o_take.val();
        } else {
            self.r_data.d.next = self.in_data.val();
            self.r_cnt.d.next = self.s_cnt.val();
            self.r_first.d.next = self.nf.q.val();
            self.b_last.next = self.s_end.val();
            self.b_valid.next = self.s_take.val() & self.comp.val();
        }
        self.r_last.d.next = self.b_last.val();
        self.r_valid.d.next = self.b_valid.val();
        if self.b_valid.val() {
            self.nf.d.next = self.b_last.val();
        }
        // The unit takes the beat a cycle later, from registers: the mode's and the
        // handshakes' logic does not reach its byte mask and matrices in the same cycle.
        self.unit.in_data.next = self.r_data.q.val();
        self.unit.in_cnt.next = self.r_cnt.q.val();
        self.unit.in_first.next = self.r_first.q.val();
        self.unit.in_init.next = self.r_init.q.val();
        self.unit.in_last.next = self.r_last.q.val();
        self.unit.in_valid.next = self.r_valid.q.val();
        self.fin.next = self.unit.out_crc.val() ^ self.ones.val();
        self.m_state.next = self.unit.out_crc.val();
        self.m_done.next = self.unit.out_valid.val();
        // ---- the queue: COMPRESS pushes results and pops with decisions; DECOMPRESS pushes
        // commands' CRCs and pops with results
        self.d_crc.next = self.head.y.val();
        self.d_valid.next = self.cq.count.val().any();
        self.s_fin.next = self.s_take.val() & self.s_end.val() & self.comp.val();
        self.s_room.next = self.pend.q.val() < self.depth.val();
        self.c_room.next = self.cq.count.val() < self.depth.val();
        self.busy.next = self.cq.count.val().any();
        // The holds are this block's (not the datapath's locals), so the datapath's logic,
        // which reads them with its other children's handshakes, has no local that also
        // feeds a child: Verilator then splits it without a combinational loop.
        self.s_hold.next = self.comp.val() & self.s_end.val() & !self.s_room.val();
        self.d_hold.next = self.comp.val() & !self.d_valid.val();
        self.c_hold.next = self.dec.val() & !self.c_room.val();
        self.err.next = self.err_r.q.val();
        self.cq.d.next = self.fin.val().get_bits::<31>(0);
        self.cq.t.next = self.fin.val().get_bits::<1>(31);
        self.cq.push.next = false;
        self.cq.pop.next = false;
        if self.dec.val() {
            self.cq.d.next = self.c_crc.val().get_bits::<31>(0);
            self.cq.t.next = self.c_crc.val().get_bits::<1>(31);
            self.cq.push.next = self.c_push.val();
            if self.unit.out_valid.val() & !self.mp.val() {
                self.cq.pop.next = true;
                if self.fin.val() != self.head.y.val() {
                    self.err_r.d.next = true;
                }
            }
        } else if self.comp.val() {
            self.cq.push.next = self.unit.out_valid.val();
            self.cq.pop.next = self.d_pop.val();
        }
        // Chunks ended and not yet decided (COMPRESS), at most D.
        if self.s_fin.val() & !self.d_pop.val() {
            self.pend.d.next = self.pend.q.val() + self.one4.val();
        } else if !self.s_fin.val() & self.d_pop.val() {
            self.pend.d.next = self.pend.q.val() - self.one4.val();
        }
        if self.rst.val() {
            self.nf.d.next = true;
            self.r_valid.d.next = false;
            self.pend.d.next = self.zero4.val();
            self.err_r.d.next = false;
        }
    }
}
