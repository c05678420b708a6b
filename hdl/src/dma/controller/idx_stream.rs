//! [`IdxStream`]: COMPRESS index streaming (docs/ARCHITECTURE.md, "DMA engine") and the
//! write-beat source of the controller.
//!
//! Each chunk's index entry is shifted into `ib`, the metadata beat it belongs to (entry `i`
//! at byte `meta_addr + 32 + L·i`, `L` = 4, or 8 with CRCs: `wide`), from the top: `k` words
//! so far, `wv` their strobes; the first beat starts after the 32-byte header slot. A
//! complete beat moves to `ic` (address `ic_a`, strobes `ic_s`) whenever `ic` is free. The
//! next payload beat is then sent with `wr_close` and the `ic` beat is inserted after it
//! (`wr_jump` to its address); the payload goes on with a `wr_jump` back to `pa`, the
//! payload address tracked here. The controller pushes an entry only while `room`, pads a
//! partial last beat into place (`pad`: invalid words shifted in until it is complete) and,
//! after the payload, sends the waiting `ic` beat as one of its own (`send_ic`).
//!
//! When both `ic` and `ib` are full the controller stops taking decisions; a payload beat
//! must then come to take `ic` out, and does: `ib` then holds entries of chunks decided
//! after `ic` was loaded, `BB/L` of them, each storing at least `L` bytes (a ZVC chunk of at
//! least 128 bytes stores a 4-byte mask per 32 elements: 4 bytes for 32-bit elements in
//! 128-byte chunks, else at least 8), so at least `BB` payload bytes. The exceptions — ZVC-X
//! (a chunk may store one byte) and CRC entries of 128-byte chunks of 32-bit elements — set
//! `every_close`: every payload beat closes its burst and a waiting `ic` beat goes in as soon
//! as no payload beat is offered (payload bursts are one beat long then).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::super::check::{ADDR_BITS, LEN_BITS};
use crate::prims::{EnReg, Join, LaneMask};
use cdma_spec::frame;

/// The index stream of a `DW`-bit engine: `BB = DW/8` bytes and `E = DW/32` words per beat,
/// `DWM32 = DW - 32`, `DWM64 = DW - 64`.
#[derive(LogicBlock)]
pub struct IdxStream<
    const DW: usize,
    const BB: usize,
    const E: usize,
    const DWM32: usize,
    const DWM64: usize,
> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub rst: Signal<In, Bit>,
    /// Pulse: an operation starts (the first index beat, payload at `dst_addr`).
    pub start: Signal<In, Bit>,
    /// The descriptor's `meta_addr`.
    pub meta_addr: Signal<In, Bits<ADDR_BITS>>,
    /// The descriptor's `dst_addr`.
    pub dst_addr: Signal<In, Bits<ADDR_BITS>>,
    /// Pulse: shift `entry` into the index beat (only while `room`).
    pub push: Signal<In, Bit>,
    /// Entries are 8 bytes (`entry` whole), else 4 (`entry[31:0]`).
    pub wide: Signal<In, Bit>,
    /// With `push` and `wide`: the metadata CRC (`fin_crc`) is written, one word.
    pub half: Signal<In, Bit>,
    /// The decision's stored bytes (the entry's word).
    pub dec_stored_len: Signal<In, Bits<LEN_BITS>>,
    /// The decision is raw.
    pub dec_raw: Signal<In, Bit>,
    /// The decision's chunk CRC (version 4).
    pub dec_crc: Signal<In, Bits<32>>,
    /// The metadata CRC.
    pub fin_crc: Signal<In, Bits<32>>,
    /// The decision's entry: its word in bits 31:0, its CRC in 63:32 (what the metadata CRC
    /// takes; never the metadata CRC itself, which would loop back into it).
    pub entry: Signal<Out, Bits<64>>,
    /// Level: shift an unwritten word into a partial index beat (while `room`).
    pub pad: Signal<In, Bit>,
    /// The index beat has room for an entry.
    pub room: Signal<Out, Bit>,
    /// The index beat holds entries.
    pub partial: Signal<Out, Bit>,
    /// A complete index beat waits in `ic`.
    pub ic_v: Signal<Out, Bit>,
    /// Level: send the waiting `ic` beat as the controller's own (after the payload).
    pub send_ic: Signal<In, Bit>,
    /// Payload beats go out (the write stream is the payload's).
    pub sel_dp: Signal<In, Bit>,
    /// Every payload beat closes its burst (see the module doc).
    pub every_close: Signal<In, Bit>,
    /// The datapath holds nothing (no payload beat is coming).
    pub dp_idle: Signal<In, Bit>,
    /// The controller's own beat is valid (header, status).
    pub own_valid: Signal<In, Bit>,
    /// The controller's own beat.
    pub own_data: Signal<In, Bits<DW>>,
    /// Its strobes.
    pub own_strb: Signal<In, Bits<BB>>,
    /// Its address.
    pub own_addr: Signal<In, Bits<ADDR_BITS>>,
    /// It is the stream's last.
    pub own_last: Signal<In, Bit>,
    /// Payload write beat from the datapath.
    pub dp_wr_data: Signal<In, Bits<DW>>,
    /// Its strobes.
    pub dp_wr_strb: Signal<In, Bits<BB>>,
    /// Last payload beat.
    pub dp_wr_last: Signal<In, Bit>,
    /// Payload beat valid.
    pub dp_wr_valid: Signal<In, Bit>,
    /// The payload beat is taken.
    pub dp_wr_ready: Signal<Out, Bit>,
    /// Write beat data.
    pub wr_data: Signal<Out, Bits<DW>>,
    /// Write beat strobes.
    pub wr_strb: Signal<Out, Bits<BB>>,
    /// Last beat of the write stream.
    pub wr_last: Signal<Out, Bit>,
    /// The beat closes its burst.
    pub wr_close: Signal<Out, Bit>,
    /// The beat goes to `wr_jump_addr`.
    pub wr_jump: Signal<Out, Bit>,
    /// Its address.
    pub wr_jump_addr: Signal<Out, Bits<ADDR_BITS>>,
    /// Write beat valid.
    pub wr_valid: Signal<Out, Bit>,
    /// Write beat taken.
    pub wr_ready: Signal<In, Bit>,
    ecat: Join<32, 32, 64>,
    fcat: Join<32, 32, 64>,
    word: Signal<Local, Bits<32>>,
    raw_mask: Constant<Bits<LEN_BITS>>,
    zero32: Constant<Bits<32>>,
    ib: EnReg<DW>,
    j32: Join<DWM32, 32, DW>,
    j64: Join<DWM64, 64, DW>,
    ic_d: EnReg<DW>,
    strb: LaneMask<E, 4, BB>,
    k: DFF<Bits<8>>,
    wv: DFF<Bits<E>>,
    ia: DFF<Bits<ADDR_BITS>>,
    icv: DFF<Bit>,
    ic_s: DFF<Bits<BB>>,
    ic_a: DFF<Bits<ADDR_BITS>>,
    ins: DFF<Bit>,
    pa: DFF<Bits<ADDR_BITS>>,
    pjump: DFF<Bit>,
    ic_sel: Signal<Local, Bit>,
    load: Signal<Local, Bit>,
    k_e: Constant<Bits<8>>,
    k_one: Constant<Bits<8>>,
    k_two: Constant<Bits<8>>,
    k_zero: Constant<Bits<8>>,
    k_hdr: Constant<Bits<8>>,
    wv_top: Constant<Bits<E>>,
    wv_top2: Constant<Bits<E>>,
    wv_half: Constant<Bits<E>>,
    wv_zero: Constant<Bits<E>>,
    ia_hdr: Constant<Bits<ADDR_BITS>>,
    bb_addr: Constant<Bits<ADDR_BITS>>,
    top_beat: Constant<Bits<ADDR_BITS>>,
}

impl<const DW: usize, const BB: usize, const E: usize, const DWM32: usize, const DWM64: usize>
    Default for IdxStream<DW, BB, E, DWM32, DWM64>
{
    fn default() -> Self {
        assert_eq!((8 * BB, 32 * E, DW - 32, DW - 64), (DW, DW, DWM32, DWM64));
        let hdr_words = (frame::HEADER_LEN / 4) as u64;
        let e = E as u64;
        let c8 = |v: u64| Constant::new(v.into());
        let ce = |v: u64| Constant::new(v.into());
        let ca = |v: u64| Constant::new(v.into());
        Self {
            clock: Default::default(),
            rst: Default::default(),
            start: Default::default(),
            meta_addr: Default::default(),
            dst_addr: Default::default(),
            push: Default::default(),
            wide: Default::default(),
            half: Default::default(),
            dec_stored_len: Default::default(),
            dec_raw: Default::default(),
            dec_crc: Default::default(),
            fin_crc: Default::default(),
            entry: Default::default(),
            ecat: Default::default(),
            fcat: Default::default(),
            word: Default::default(),
            raw_mask: Constant::new(frame::INDEX_RAW.mask().into()),
            zero32: Constant::new(0u64.into()),
            pad: Default::default(),
            room: Default::default(),
            partial: Default::default(),
            ic_v: Default::default(),
            send_ic: Default::default(),
            sel_dp: Default::default(),
            every_close: Default::default(),
            dp_idle: Default::default(),
            own_valid: Default::default(),
            own_data: Default::default(),
            own_strb: Default::default(),
            own_addr: Default::default(),
            own_last: Default::default(),
            dp_wr_data: Default::default(),
            dp_wr_strb: Default::default(),
            dp_wr_last: Default::default(),
            dp_wr_valid: Default::default(),
            dp_wr_ready: Default::default(),
            wr_data: Default::default(),
            wr_strb: Default::default(),
            wr_last: Default::default(),
            wr_close: Default::default(),
            wr_jump: Default::default(),
            wr_jump_addr: Default::default(),
            wr_valid: Default::default(),
            wr_ready: Default::default(),
            ib: Default::default(),
            j32: Default::default(),
            j64: Default::default(),
            ic_d: Default::default(),
            strb: Default::default(),
            k: Default::default(),
            wv: Default::default(),
            ia: Default::default(),
            icv: Default::default(),
            ic_s: Default::default(),
            ic_a: Default::default(),
            ins: Default::default(),
            pa: Default::default(),
            pjump: Default::default(),
            ic_sel: Default::default(),
            load: Default::default(),
            k_e: c8(e),
            k_one: c8(1),
            k_two: c8(2),
            k_zero: c8(0),
            // The first index entry follows the 32-byte header: word 8 of the meta region,
            // in beat 8 / E at word 8 mod E.
            k_hdr: c8(hdr_words % e),
            wv_top: ce(1 << (E - 1)),
            wv_top2: ce(3 << (E - 2)),
            wv_half: ce(1 << (E - 2)),
            wv_zero: ce(0),
            ia_hdr: ca((hdr_words / e) * BB as u64),
            bb_addr: ca(BB as u64),
            top_beat: ca(0u64.wrapping_sub(BB as u64)),
        }
    }
}

impl<const DW: usize, const BB: usize, const E: usize, const DWM32: usize, const DWM64: usize> Logic
    for IdxStream<DW, BB, E, DWM32, DWM64>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, k, wv, ia, icv, ic_s, ic_a, ins, pa, pjump);
        self.ib.clock.next = self.clock.val();
        self.ic_d.clock.next = self.clock.val();
        self.ib.clr.next = false;
        self.ic_d.clr.next = false;
        self.j32.lo.next = self.ib.q.val().get_bits::<DWM32>(32);
        // The entry: the decision's word (and CRC), or the metadata CRC alone.
        self.word.next = self.dec_stored_len.val();
        if self.dec_raw.val() {
            self.word.next = self.dec_stored_len.val() | self.raw_mask.val();
        }
        self.ecat.lo.next = self.word.val();
        self.ecat.hi.next = self.dec_crc.val();
        self.fcat.lo.next = self.fin_crc.val();
        self.fcat.hi.next = self.zero32.val();
        self.entry.next = self.ecat.y.val();
        self.j32.hi.next = self.word.val();
        self.j64.lo.next = self.ib.q.val().get_bits::<DWM64>(64);
        if self.half.val() {
            self.j64.hi.next = self.fcat.y.val();
        } else {
            self.j64.hi.next = self.ecat.y.val();
        }
        self.strb.v.next = self.wv.q.val();
        self.ic_d.d.next = self.ib.q.val();
        self.room.next = self.k.q.val() < self.k_e.val();
        self.partial.next = self.wv.q.val().any();
        self.ic_v.next = self.icv.q.val();
        // ---- the index beat: entries (one word, or two) or padding words from the top
        self.ib.en.next = self.push.val() | self.pad.val();
        self.ib.d.next = self.j32.y.val();
        if self.push.val() & self.wide.val() {
            self.ib.d.next = self.j64.y.val();
            self.k.d.next = self.k.q.val() + self.k_two.val();
            self.wv.d.next = (self.wv.q.val() >> 2) | self.wv_top2.val();
            if self.half.val() {
                self.wv.d.next = (self.wv.q.val() >> 2) | self.wv_half.val();
            }
        } else if self.push.val() {
            self.k.d.next = self.k.q.val() + self.k_one.val();
            self.wv.d.next = (self.wv.q.val() >> 1) | self.wv_top.val();
        } else if self.pad.val() {
            self.k.d.next = self.k.q.val() + self.k_one.val();
            self.wv.d.next = self.wv.q.val() >> 1;
        }
        // ---- a complete index beat moves to ic as soon as ic is free
        // (From the registers, not the `room` output: read back, it would tie the output to
        // this block's inputs in Verilator's eyes, a false loop through the controller.)
        self.load.next = (self.k.q.val() >= self.k_e.val()) & !self.icv.q.val();
        self.ic_d.en.next = self.load.val();
        if self.load.val() {
            self.icv.d.next = true;
            self.ic_s.d.next = self.strb.y.val();
            self.ic_a.d.next = self.ia.q.val();
            self.ia.d.next = self.ia.q.val() + self.bb_addr.val();
            // Index beats never wrap around the address space: from the top beat on they
            // all go to the top beat, which the write master drops with an error.
            if self.ia.q.val() == self.top_beat.val() {
                self.ia.d.next = self.top_beat.val();
            }
            self.k.d.next = self.k_zero.val();
            self.wv.d.next = self.wv_zero.val();
        }
        // ---- write beat source: own beats (the controller's, ic) each a burst at their
        // address; payload beats follow each other (after an inserted index beat: jump to pa)
        self.ic_sel.next = self.send_ic.val();
        self.wr_data.next = self.own_data.val();
        self.wr_strb.next = self.own_strb.val();
        self.wr_last.next = self.own_last.val();
        self.wr_valid.next = self.own_valid.val();
        self.wr_close.next = true;
        self.wr_jump.next = true;
        self.wr_jump_addr.next = self.own_addr.val();
        self.dp_wr_ready.next = false;
        if self.send_ic.val() {
            self.wr_valid.next = true;
            self.wr_last.next = false;
            if self.wr_ready.val() {
                self.icv.d.next = false;
            }
        } else if self.sel_dp.val() & self.ins.q.val() {
            // The index beat inserted after the payload beat that closed its burst.
            self.ic_sel.next = true;
            self.wr_valid.next = true;
            self.wr_last.next = false;
            if self.wr_ready.val() {
                self.ins.d.next = false;
                self.icv.d.next = false;
                self.pjump.d.next = true;
            }
        } else if self.sel_dp.val() {
            self.wr_data.next = self.dp_wr_data.val();
            self.wr_strb.next = self.dp_wr_strb.val();
            self.wr_last.next = self.dp_wr_last.val();
            self.wr_valid.next = self.dp_wr_valid.val();
            self.dp_wr_ready.next = self.wr_ready.val();
            self.wr_jump.next = self.pjump.q.val();
            self.wr_jump_addr.next = self.pa.q.val();
            // A complete index beat goes in after this beat, which closes its burst (or,
            // every_close, whenever no payload beat is offered).
            self.wr_close.next = self.icv.q.val() | self.every_close.val();
            if self.dp_wr_valid.val() & self.wr_ready.val() {
                self.pa.d.next = self.pa.q.val() + self.bb_addr.val();
                self.pjump.d.next = false;
                if self.icv.q.val() & !self.dp_wr_last.val() {
                    self.ins.d.next = true;
                }
            } else if self.every_close.val() & self.icv.q.val() & !self.dp_idle.val() {
                self.ins.d.next = true;
            }
        }
        if self.ic_sel.val() {
            self.wr_data.next = self.ic_d.q.val();
            self.wr_strb.next = self.ic_s.q.val();
            self.wr_jump_addr.next = self.ic_a.q.val();
        }
        if self.start.val() {
            // The first index beat holds entry 0 after the header slot; nothing waits for
            // insertion; the payload starts at dst_addr.
            self.ia.d.next = self.meta_addr.val() + self.ia_hdr.val();
            if (self.meta_addr.val() + self.ia_hdr.val()) < self.meta_addr.val() {
                self.ia.d.next = self.top_beat.val();
            }
            self.k.d.next = self.k_hdr.val();
            self.wv.d.next = self.wv_zero.val();
            self.icv.d.next = false;
            self.ins.d.next = false;
            self.pa.d.next = self.dst_addr.val();
            self.pjump.d.next = false;
        }
        if self.rst.val() {
            self.k.d.next = self.k_zero.val();
            self.wv.d.next = self.wv_zero.val();
            self.icv.d.next = false;
            self.ins.d.next = false;
        }
    }
}
