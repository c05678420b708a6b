//! `AxiReadMaster`: narrow read requests `(addr, beats)` in, AXI4 INCR read bursts out, the
//! read data back in order as a beat stream with `last` (last beat of the request) and `err`.
//!
//! * **Bursts.** A request is cut into INCR bursts that never cross a 4 KiB boundary: each
//!   burst runs to the next boundary or to the end of the request. A 4 KiB page holds at most
//!   `4096 / BB ≤ 256` beats (`BB` = bus bytes ≥ 16), so a burst never exceeds the AXI limit of
//!   256 beats per INCR burst (reached exactly at 128 bits) and needs no logic of its own. Addresses must be bus-aligned (the
//!   controller guarantees it; the low `log2(BB)` address bits are passed through to `araddr`
//!   unchanged). A request of 0 beats is accepted and does nothing.
//! * **Outstanding bursts.** At most `READS_IN_FLIGHT` (constructor argument, 1..=16, default
//!   4) bursts are outstanding: counted from the cycle the AR is presented until its RLAST beat
//!   is taken. One AR per cycle while `arready` and a request is in progress. The next request
//!   is accepted as soon as the previous one's last AR is presented, while its data still
//!   arrives. A 16-entry queue of 1-bit flags (one per outstanding burst, in AR order) tells
//!   whether a burst is its request's last, which marks `rd_last` on its RLAST beat.
//! * **R channel.** A two-entry input buffer: `rready` = not full (a register), the beat
//!   stream (`rd_*`) leaves from its head register. One beat per cycle sustained, one cycle
//!   of added latency, and no combinational path from the R channel to the beat stream or
//!   from `rd_ready` to `rready`. `rd_err` is `rresp[1]` (SLVERR/DECERR).
//!   AXI returns bursts of one ID (0) in order, so the data leaves in request order.
//! * **Abort.** `abort` (a pulse or level): no further AR is issued and no request accepted
//!   (the request in progress is dropped; an AR already presented stays valid until taken, as
//!   AXI requires), every R beat is dropped with `rready` high until each outstanding burst's
//!   RLAST arrived; then `idle` rises and the block accepts requests again.
//! * **The top of the address space.** No burst reaches the last beat of the 64-bit address
//!   space (docs/DESCRIPTORS.md: such an access fails): in the top 4 KiB page a burst ends one
//!   beat early, before the beat at `2^64 - BB`; the request's beats from there on (the top
//!   beat and any that would wrap to address 0) are not put on the bus but delivered, after
//!   the data of the bursts before them, as beats with `rd_err` set and data 0, as if a slave
//!   had answered DECERR. So a request never wraps around to address 0.
//! * **`idle`**: no request in progress, no burst outstanding and no such beat left.
//!
//! AR fields: `arid = 0`, `arsize = log2(BB)`, `arburst = INCR`, `arcache = 0b0011`
//! (normal non-cacheable bufferable), `arprot = 0`. `rid` is ignored (single ID).

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use crate::prims::{Join, ZeroExtend};
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

/// Port documentation of the read master, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static AXI_READ_PORTS: PortDocs = PortDocs::new(include_str!("mod.rs"), "$name");

/// Default number of read bursts in flight.
pub const READS_IN_FLIGHT_DEFAULT: usize = 8;

/// Largest `READS_IN_FLIGHT` (size of the burst flag queue).
pub const READS_IN_FLIGHT_MAX: usize = 16;

macro_rules! axi_read_master {
    ($(#[$doc:meta])* $name:ident, dw: $dw:tt, lg: $lg:tt) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// Request: byte address of the first beat (bus-aligned).
            pub rd_req_addr: Signal<In, Bits<64>>,
            /// Request: number of bus beats to read (0: accepted, nothing read).
            pub rd_req_beats: Signal<In, Bits<32>>,
            /// Request handshake: valid.
            pub rd_req_valid: Signal<In, Bit>,
            /// Request handshake: the request is taken this cycle if valid.
            pub rd_req_ready: Signal<Out, Bit>,
            /// Read beat data (passthrough of `m_axi_rdata`).
            pub rd_data: Signal<Out, Bits<$dw>>,
            /// This beat is the last beat of its request.
            pub rd_last: Signal<Out, Bit>,
            /// RRESP of this beat was SLVERR or DECERR.
            pub rd_err: Signal<Out, Bit>,
            /// Read beat handshake: valid.
            pub rd_valid: Signal<Out, Bit>,
            /// Read beat handshake: the consumer takes the beat this cycle if `rd_valid`.
            pub rd_ready: Signal<In, Bit>,
            /// Abort: issue no more AR, drop R beats until all outstanding bursts ended.
            pub abort: Signal<In, Bit>,
            /// No request in progress and no burst outstanding.
            pub idle: Signal<Out, Bit>,
            /// AXI AR: ID (always 0).
            pub m_axi_arid: Signal<Out, Bit>,
            /// AXI AR: burst start address.
            pub m_axi_araddr: Signal<Out, Bits<64>>,
            /// AXI AR: burst length - 1.
            pub m_axi_arlen: Signal<Out, Bits<8>>,
            /// AXI AR: log2(bus bytes).
            pub m_axi_arsize: Signal<Out, Bits<3>>,
            /// AXI AR: burst type INCR (1).
            pub m_axi_arburst: Signal<Out, Bits<2>>,
            /// AXI AR: cache attributes 0b0011.
            pub m_axi_arcache: Signal<Out, Bits<4>>,
            /// AXI AR: protection 0.
            pub m_axi_arprot: Signal<Out, Bits<3>>,
            /// AXI AR: valid.
            pub m_axi_arvalid: Signal<Out, Bit>,
            /// AXI AR: ready.
            pub m_axi_arready: Signal<In, Bit>,
            /// AXI R: ID (ignored: one ID only).
            pub m_axi_rid: Signal<In, Bit>,
            /// AXI R: data.
            pub m_axi_rdata: Signal<In, Bits<$dw>>,
            /// AXI R: response (bit 1 set: SLVERR/DECERR).
            pub m_axi_rresp: Signal<In, Bits<2>>,
            /// AXI R: last beat of the burst.
            pub m_axi_rlast: Signal<In, Bit>,
            /// AXI R: valid.
            pub m_axi_rvalid: Signal<In, Bit>,
            /// AXI R: ready.
            pub m_axi_rready: Signal<Out, Bit>,
            // --- request in progress
            req_active: DFF<Bit>,
            cur_addr: DFF<Bits<64>>,
            // Facts of `cur_addr`, registered with it: beats from it to the burst's end - 1
            // (to the 4 KiB boundary, in the top page to the beat before the top beat; the
            // inverted beat index, below 256 beats), it is in the top page, it is the top
            // beat (a request there issues no burst: its beats are delivered as errors).
            bnd_m1: DFF<Bits<8>>,
            top_page: DFF<Bit>,
            at_top: DFF<Bit>,
            // Beats left in the request - 1 (the burst length field's form, so issuing a
            // burst subtracts the burst's beats without a 32-bit adder: see `rem_lo`).
            rem_m1: DFF<Bits<32>>,
            // --- AR register
            ar_valid: DFF<Bit>,
            ar_addr: DFF<Bits<64>>,
            ar_len: DFF<Bits<8>>,
            // --- outstanding bursts and their "last of request" flags (oldest in bit 0)
            outstanding: DFF<Bits<5>>,
            flags: DFF<Bits<16>>,
            aborting: DFF<Bit>,
            // --- the request reached the top beat: `top_left` + 1 error beats of its own to
            // deliver once the bursts before them are out
            past_top: DFF<Bit>,
            top_left: DFF<Bits<32>>,
            // --- R input buffer: two entries (head `r0_*`), count
            rb_cnt: DFF<Bits<2>>,
            r0_data: DFF<Bits<$dw>>,
            r0_last: DFF<Bit>,
            r0_err: DFF<Bit>,
            r1_data: DFF<Bits<$dw>>,
            r1_last: DFF<Bit>,
            r1_err: DFF<Bit>,
            rb_push: Signal<Local, Bit>,
            rb_pop: Signal<Local, Bit>,
            rb_head: Signal<Local, Bit>,
            two2: Constant<Bits<2>>,
            one2: Constant<Bits<2>>,
            zero2: Constant<Bits<2>>,
            // --- locals
            next_top: Signal<Local, Bit>,
            req_top_page: Signal<Local, Bit>,
            req_bnd_m1: Signal<Local, Bits<8>>,
            rem_lo_a: ZeroExtend<8, 9>,
            rem_lo_b: ZeroExtend<8, 9>,
            rem_lo: Signal<Local, Bits<9>>,
            rem_hi: Signal<Local, Bits<24>>,
            rem_next: Join<8, 24, 32>,
            req_rem_m1: Join<8, 24, 32>,
            big: Signal<Local, Bit>,
            len_m1: Signal<Local, Bits<8>>,
            dropping: Signal<Local, Bit>,
            issue: Signal<Local, Bit>,
            top_out: Signal<Local, Bit>,
            top_pop: Signal<Local, Bit>,
            pop: Signal<Local, Bit>,
            cnt_after_pop: Signal<Local, Bits<5>>,
            flags_after_pop: Signal<Local, Bits<16>>,
            // --- constants
            rif: Constant<Bits<5>>,
            one5: Constant<Bits<5>>,
            zero5: Constant<Bits<5>>,
            one16: Constant<Bits<16>>,
            zero16: Constant<Bits<16>>,
            one32: Constant<Bits<32>>,
            zero32: Constant<Bits<32>>,
            one24: Constant<Bits<24>>,
            one64: Constant<Bits<64>>,
            page_off: Constant<Bits<64>>,
            page_ones: Constant<Bits<52>>,
            top_beat: Constant<Bits<64>>,
            zero_data: Constant<Bits<$dw>>,
            beat_mask: Constant<Bits<8>>,
            one8: Constant<Bits<8>>,
            page_ones_m1: Constant<Bits<52>>,
            size: Constant<Bits<3>>,
            incr: Constant<Bits<2>>,
            cache: Constant<Bits<4>>,
            prot: Constant<Bits<3>>,
        }

        impl $name {
            /// Bus data width in bits.
            pub const DW: usize = $dw;
            /// log2 of the bus width in bytes (`arsize`).
            pub const SIZE_LOG2: usize = $lg;

            /// A read master keeping at most `reads_in_flight` bursts outstanding.
            ///
            /// # Panics
            /// If `reads_in_flight` is 0 or above [`READS_IN_FLIGHT_MAX`].
            pub fn new(reads_in_flight: usize) -> Self {
                assert!(
                    (1..=READS_IN_FLIGHT_MAX).contains(&reads_in_flight),
                    "READS_IN_FLIGHT must be 1..={READS_IN_FLIGHT_MAX}, got {reads_in_flight}"
                );
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    rd_req_addr: Default::default(),
                    rd_req_beats: Default::default(),
                    rd_req_valid: Default::default(),
                    rd_req_ready: Default::default(),
                    rd_data: Default::default(),
                    rd_last: Default::default(),
                    rd_err: Default::default(),
                    rd_valid: Default::default(),
                    rd_ready: Default::default(),
                    abort: Default::default(),
                    idle: Default::default(),
                    m_axi_arid: Default::default(),
                    m_axi_araddr: Default::default(),
                    m_axi_arlen: Default::default(),
                    m_axi_arsize: Default::default(),
                    m_axi_arburst: Default::default(),
                    m_axi_arcache: Default::default(),
                    m_axi_arprot: Default::default(),
                    m_axi_arvalid: Default::default(),
                    m_axi_arready: Default::default(),
                    m_axi_rid: Default::default(),
                    m_axi_rdata: Default::default(),
                    m_axi_rresp: Default::default(),
                    m_axi_rlast: Default::default(),
                    m_axi_rvalid: Default::default(),
                    m_axi_rready: Default::default(),
                    req_active: Default::default(),
                    cur_addr: Default::default(),
                    bnd_m1: Default::default(),
                    top_page: Default::default(),
                    at_top: Default::default(),
                    rem_m1: Default::default(),
                    ar_valid: Default::default(),
                    ar_addr: Default::default(),
                    ar_len: Default::default(),
                    outstanding: Default::default(),
                    flags: Default::default(),
                    aborting: Default::default(),
                    past_top: Default::default(),
                    top_left: Default::default(),
                    rb_cnt: Default::default(),
                    r0_data: Default::default(),
                    r0_last: Default::default(),
                    r0_err: Default::default(),
                    r1_data: Default::default(),
                    r1_last: Default::default(),
                    r1_err: Default::default(),
                    rb_push: Default::default(),
                    rb_pop: Default::default(),
                    rb_head: Default::default(),
                    two2: Constant::new(2u64.into()),
                    one2: Constant::new(1u64.into()),
                    zero2: Constant::new(0u64.into()),
                    next_top: Default::default(),
                    req_top_page: Default::default(),
                    req_bnd_m1: Default::default(),
                    rem_lo_a: Default::default(),
                    rem_lo_b: Default::default(),
                    rem_lo: Default::default(),
                    rem_hi: Default::default(),
                    rem_next: Default::default(),
                    req_rem_m1: Default::default(),
                    big: Default::default(),
                    len_m1: Default::default(),
                    dropping: Default::default(),
                    issue: Default::default(),
                    top_out: Default::default(),
                    top_pop: Default::default(),
                    pop: Default::default(),
                    cnt_after_pop: Default::default(),
                    flags_after_pop: Default::default(),
                    rif: Constant::new((reads_in_flight as u64).into()),
                    one5: Constant::new(1u64.into()),
                    zero5: Constant::new(0u64.into()),
                    one16: Constant::new(1u64.into()),
                    zero16: Constant::new(0u64.into()),
                    one32: Constant::new(1u64.into()),
                    zero32: Constant::new(0u64.into()),
                    one24: Constant::new(1u64.into()),
                    one64: Constant::new(1u64.into()),
                    page_off: Constant::new(0xFFFu64.into()),
                    page_ones: Constant::new(((1u64 << 52) - 1).into()),
                    top_beat: Constant::new((0u64.wrapping_sub(1 << $lg)).into()),
                    zero_data: Constant::new(0u64.into()),
                    beat_mask: Constant::new(((4096u64 >> $lg) - 1).into()),
                    one8: Constant::new(1u64.into()),
                    page_ones_m1: Constant::new(((1u64 << 52) - 2).into()),
                    size: Constant::new(($lg as u64).into()),
                    incr: Constant::new(1u64.into()),
                    cache: Constant::new(0b0011u64.into()),
                    prot: Constant::new(0u64.into()),
                }
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new(READS_IN_FLIGHT_DEFAULT)
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, req_active, cur_addr, bnd_m1, top_page, at_top, rem_m1, ar_valid, ar_addr, ar_len,
                    outstanding, flags, aborting, past_top, top_left, rb_cnt, r0_data, r0_last, r0_err, r1_data,
                    r1_last, r1_err
                );
                // ---- the next burst of the request in progress: to the 4 KiB boundary
                // (`bnd_m1`) or to its end. `bnd_m1`, `top_page` and `at_top` describe
                // `cur_addr` and are registered with it (set where it is), so the comparisons
                // of its 64 bits are not on the path from `rem_m1` to the next burst.
                self.big.next = self.rem_m1.q.val().get_bits::<24>(8).any()
                    | (self.rem_m1.q.val().get_bits::<8>(0) > self.bnd_m1.q.val());
                self.len_m1.next = self.rem_m1.q.val().get_bits::<8>(0);
                if self.big.val() {
                    self.len_m1.next = self.bnd_m1.q.val();
                }
                // The next page (after a burst to the boundary) is the top page.
                self.next_top.next =
                    self.cur_addr.q.val().get_bits::<52>(12) == self.page_ones_m1.val();
                // The same facts of a new request's address.
                self.req_top_page.next =
                    self.rd_req_addr.val().get_bits::<52>(12) == self.page_ones.val();
                self.req_bnd_m1.next =
                    (!self.rd_req_addr.val().get_bits::<8>($lg)) & self.beat_mask.val();
                if self.req_top_page.val() {
                    self.req_bnd_m1.next = ((!self.rd_req_addr.val().get_bits::<8>($lg))
                        & self.beat_mask.val())
                        - self.one8.val();
                }
                self.dropping.next = self.aborting.q.val() | self.abort.val();
                self.issue.next = self.req_active.q.val()
                    & (!self.ar_valid.q.val() | self.m_axi_arready.val())
                    & (self.outstanding.q.val() < self.rif.val())
                    & !self.dropping.val()
                    & !self.at_top.q.val();
                if self.req_active.q.val() & self.at_top.q.val() & !self.dropping.val() {
                    self.req_active.d.next = false;
                    self.past_top.d.next = true;
                    self.top_left.d.next = self.rem_m1.q.val();
                }
                // `rem_m1 - (bnd_m1 + 1)` = `rem_m1 + !bnd_m1` (`bnd_m1` zero-extended) as a
                // carry-select: a 32-bit adder of a variable operand ripples through every
                // bit in the generic flow, so the low byte adds (9 bits) and its carry picks
                // the high 24 bits unchanged or decremented (a log-depth tree), as adding the
                // upper ones of `!bnd_m1` does.
                self.rem_lo_a.x.next = self.rem_m1.q.val().get_bits::<8>(0);
                self.rem_lo_b.x.next = !self.bnd_m1.q.val();
                self.rem_lo.next = self.rem_lo_a.y.val() + self.rem_lo_b.y.val();
                self.rem_hi.next = self.rem_m1.q.val().get_bits::<24>(8) - self.one24.val();
                if self.rem_lo.val().get_bit(8) {
                    self.rem_hi.next = self.rem_m1.q.val().get_bits::<24>(8);
                }
                self.rem_next.lo.next = self.rem_lo.val().get_bits::<8>(0);
                self.rem_next.hi.next = self.rem_hi.val();
                // A new request's beats - 1, the same way (an unconditional 32-bit decrement
                // ripples too): the low byte decrements, its borrow the high 24 bits.
                self.req_rem_m1.lo.next =
                    self.rd_req_beats.val().get_bits::<8>(0) - self.one8.val();
                self.req_rem_m1.hi.next = self.rd_req_beats.val().get_bits::<24>(8);
                if !self.rd_req_beats.val().get_bits::<8>(0).any() {
                    self.req_rem_m1.hi.next =
                        self.rd_req_beats.val().get_bits::<24>(8) - self.one24.val();
                }
                // ---- AR register
                if self.ar_valid.q.val() & self.m_axi_arready.val() {
                    self.ar_valid.d.next = false;
                }
                if self.issue.val() {
                    self.ar_valid.d.next = true;
                    self.ar_addr.d.next = self.cur_addr.q.val();
                    self.ar_len.d.next = self.len_m1.val();
                    // Only a burst that ends at the boundary is followed by another (in the
                    // top page: by the top beat).
                    // The next burst starts a page (beat index 0), or is the top beat.
                    self.cur_addr.d.next = (self.cur_addr.q.val() | self.page_off.val())
                        + self.one64.val();
                    self.top_page.d.next = self.next_top.val();
                    self.at_top.d.next = false;
                    self.bnd_m1.d.next = self.beat_mask.val();
                    if self.next_top.val() {
                        self.bnd_m1.d.next = self.beat_mask.val() - self.one8.val();
                    }
                    if self.top_page.q.val() {
                        self.cur_addr.d.next = self.top_beat.val();
                        self.top_page.d.next = true;
                        self.at_top.d.next = true;
                    }
                    // Only read when the request goes on (`big`): then the burst is
                    // `bnd_m1 + 1` beats.
                    self.rem_m1.d.next = self.rem_next.y.val();
                    if !self.big.val() {
                        self.req_active.d.next = false;
                    }
                }
                // ---- R input buffer (two entries): `rready` is "not full", a register, and
                // the beat stream leaves from the head register, so no combinational path
                // crosses the block between the R channel and the beat stream
                self.m_axi_rready.next = self.rb_cnt.q.val() != self.two2.val();
                self.rb_push.next = self.m_axi_rvalid.val() & self.m_axi_rready.val();
                self.rb_head.next = self.rb_cnt.q.val() != self.zero2.val();
                self.rb_pop.next =
                    self.rb_head.val() & (self.rd_ready.val() | self.dropping.val());
                if self.rb_pop.val() {
                    self.r0_data.d.next = self.r1_data.q.val();
                    self.r0_last.d.next = self.r1_last.q.val();
                    self.r0_err.d.next = self.r1_err.q.val();
                }
                if self.rb_push.val() {
                    if (self.rb_cnt.q.val() == self.zero2.val())
                        | ((self.rb_cnt.q.val() == self.one2.val()) & self.rb_pop.val())
                    {
                        self.r0_data.d.next = self.m_axi_rdata.val();
                        self.r0_last.d.next = self.m_axi_rlast.val();
                        self.r0_err.d.next = self.m_axi_rresp.val().get_bit(1);
                    } else {
                        self.r1_data.d.next = self.m_axi_rdata.val();
                        self.r1_last.d.next = self.m_axi_rlast.val();
                        self.r1_err.d.next = self.m_axi_rresp.val().get_bit(1);
                    }
                }
                if self.rb_push.val() & !self.rb_pop.val() {
                    self.rb_cnt.d.next = self.rb_cnt.q.val() + self.one2.val();
                }
                if !self.rb_push.val() & self.rb_pop.val() {
                    self.rb_cnt.d.next = self.rb_cnt.q.val() - self.one2.val();
                }
                // ---- outstanding bursts: +1 per AR presented, -1 per RLAST leaving the
                // buffer; the flag of a request's last burst is queued behind the older ones
                self.pop.next = self.rb_pop.val() & self.r0_last.q.val();
                self.cnt_after_pop.next = self.outstanding.q.val();
                self.flags_after_pop.next = self.flags.q.val();
                if self.pop.val() {
                    self.cnt_after_pop.next = self.outstanding.q.val() - self.one5.val();
                    self.flags_after_pop.next = self.flags.q.val() >> 1;
                }
                self.outstanding.d.next = self.cnt_after_pop.val();
                self.flags.d.next = self.flags_after_pop.val();
                if self.issue.val() {
                    self.outstanding.d.next = self.cnt_after_pop.val() + self.one5.val();
                    if !self.big.val() {
                        self.flags.d.next = self.flags_after_pop.val()
                            | (self.one16.val() << self.cnt_after_pop.val());
                    }
                }
                // ---- requests
                self.rd_req_ready.next = !self.req_active.q.val()
                    & !self.past_top.q.val()
                    & !self.dropping.val()
                    & !self.rst.val();
                if self.rd_req_valid.val() & self.rd_req_ready.val() {
                    self.req_active.d.next = self.rd_req_beats.val().any();
                    self.cur_addr.d.next = self.rd_req_addr.val();
                    self.top_page.d.next = self.req_top_page.val();
                    self.at_top.d.next = self.rd_req_addr.val() == self.top_beat.val();
                    self.bnd_m1.d.next = self.req_bnd_m1.val();
                    self.rem_m1.d.next = self.req_rem_m1.y.val();
                }
                // ---- abort: drop the request, drain the outstanding bursts
                if self.abort.val() {
                    self.aborting.d.next = true;
                    self.req_active.d.next = false;
                    self.past_top.d.next = false;
                } else if self.outstanding.q.val() == self.zero5.val() {
                    self.aborting.d.next = false;
                }
                if self.rst.val() {
                    self.req_active.d.next = false;
                    self.ar_valid.d.next = false;
                    self.outstanding.d.next = self.zero5.val();
                    self.flags.d.next = self.zero16.val();
                    self.aborting.d.next = false;
                    self.past_top.d.next = false;
                    self.rb_cnt.d.next = self.zero2.val();
                }
                self.idle.next = !self.req_active.q.val()
                    & !self.past_top.q.val()
                    & (self.outstanding.q.val() == self.zero5.val());
                // ---- beat stream from the buffer head, then the request's beats past the
                // top once every burst before them is out
                self.top_out.next = self.past_top.q.val()
                    & (self.outstanding.q.val() == self.zero5.val())
                    & !self.rb_head.val();
                self.rd_valid.next = (self.rb_head.val() | self.top_out.val()) & !self.dropping.val();
                self.rd_data.next = self.r0_data.q.val();
                self.rd_last.next = self.r0_last.q.val() & self.flags.q.val().get_bit(0);
                self.rd_err.next = self.r0_err.q.val();
                self.top_pop.next = self.top_out.val() & self.rd_ready.val() & !self.dropping.val();
                if self.top_out.val() {
                    self.rd_data.next = self.zero_data.val();
                    self.rd_last.next = self.top_left.q.val() == self.zero32.val();
                    self.rd_err.next = true;
                }
                if self.top_pop.val() {
                    self.top_left.d.next = self.top_left.q.val() - self.one32.val();
                    if self.top_left.q.val() == self.zero32.val() {
                        self.past_top.d.next = false;
                    }
                }
                // ---- AR outputs
                self.m_axi_arid.next = false;
                self.m_axi_araddr.next = self.ar_addr.q.val();
                self.m_axi_arlen.next = self.ar_len.q.val();
                self.m_axi_arsize.next = self.size.val();
                self.m_axi_arburst.next = self.incr.val();
                self.m_axi_arcache.next = self.cache.val();
                self.m_axi_arprot.next = self.prot.val();
                self.m_axi_arvalid.next = self.ar_valid.q.val();
            }
        }
    };
}

axi_read_master!(
    /// AXI4 read master for a 128-bit data bus (16 bytes per beat).
    AxiReadMasterDw128, dw: 128, lg: 4
);
axi_read_master!(
    /// AXI4 read master for a 256-bit data bus (32 bytes per beat).
    AxiReadMasterDw256, dw: 256, lg: 5
);
axi_read_master!(
    /// AXI4 read master for a 512-bit data bus (64 bytes per beat).
    AxiReadMasterDw512, dw: 512, lg: 6
);
axi_read_master!(
    /// AXI4 read master for a 1024-bit data bus (128 bytes per beat).
    AxiReadMasterDw1024, dw: 1024, lg: 7
);

#[cfg(test)]
mod tests;
