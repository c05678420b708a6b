//! `AxiWriteMaster`: a write stream (start address, then beats with strobes and `last`) in,
//! AXI4 INCR write bursts out, store-and-forward per burst.
//!
//! * **Stream.** `wr_req_addr` (bus-aligned) opens a stream; its beats follow on `wr_*`, the
//!   last one with `wr_last` (a stream has at least one beat). When every burst of the stream
//!   has had its B response, `wr_done` is high for one cycle with `wr_err` = some BRESP of the
//!   stream was SLVERR/DECERR; the next stream is accepted from that cycle on (one stream at
//!   a time: a stream's B responses are awaited before the next one opens).
//! * **Bursts.** Beats go into a W FIFO (RAM, `2^FIFO_LOG2` entries of data, strobes and a
//!   burst-last flag; `FIFO_LOG2` = 5, 32 entries). A burst closes when its beat count reaches
//!   `WR_BURST_MAX` (constructor argument, 1..=16, default 16), when its next beat would cross
//!   a 4 KiB boundary, with a beat flagged `wr_close`, or with the stream's `last` beat; the closing beat is written with the
//!   burst-last flag, and the burst's AW (`awid = 0`, `awsize = log2(BB)`, INCR,
//!   `awcache = 0b0011`, `awprot = 0`) is presented from the next cycle. So AW is only issued
//!   for a burst whose beats are all in the FIFO, and W never waits on the producer mid-burst.
//!   W beats of closed bursts stream out of the FIFO (`wlast` = the stored flag) while the next
//!   burst fills, so a long stream keeps the W channel busy every cycle (the FIFO holds two
//!   bursts). AW requests wait in a two-entry queue; a beat is taken only while its second entry is free
//!   (a register), so a closing beat always finds room for its AW and `wr_ready` depends on
//!   registers only (never on `m_axi_awready` or `wr_valid`).
//! * **Address jumps.** A beat flagged `wr_jump` is written at `wr_jump_addr` (bus-aligned)
//!   instead of after the beat before it, and the beats after it continue from there. A jump
//!   starts a new burst, so the beat before it must have closed its burst: the producer flags
//!   that beat `wr_close` (a jump while a burst is being filled is a protocol error). The
//!   controller interleaves chunk-index beats into the payload this way: payload beat
//!   (`wr_close`), index beat (`wr_jump` to its meta address, `wr_close`), payload beat
//!   (`wr_jump` back to the payload address it tracks). `wr_close` is asked of the producer
//!   rather than closing the burst when the jump arrives because the beat before the jump is
//!   already in the W FIFO without its burst-last flag by then.
//! * **The top of the address space.** No burst reaches the last beat of the 64-bit address
//!   space (docs/DESCRIPTORS.md: such an access fails): in the top 4 KiB page a burst closes
//!   one beat early, before the beat at `2^64 - BB`; that beat and every beat of the stream
//!   after it are taken and dropped, and the stream ends with `wr_err` as if a slave had
//!   answered DECERR. So a stream never wraps around to address 0.
//! * **Write latency.** A beat written into the FIFO can leave on W two cycles later.
//! * **Abort.** `abort` (pulse or level): no further beat and no new stream is taken; bursts
//!   already closed (AW issued or presented) get all their W beats, as AXI requires, and their
//!   B responses are awaited; beats of the unclosed burst are discarded (FIFO flushed). Then
//!   the stream is closed without `wr_done` and `idle` rises.
//! * **`idle`**: no stream open and no abort in progress.
//!
//! `bid` is ignored (single ID); `bready` is always high.

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::{DFF, RAM};

use crate::prims::StrobeCount;

/// Port documentation of the write master, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static AXI_WRITE_PORTS: PortDocs = PortDocs::new(include_str!("mod.rs"), "$name");

/// Default largest write burst in beats.
pub const WR_BURST_MAX_DEFAULT: usize = 16;

/// log2 of the W FIFO depth.
pub const WR_FIFO_LOG2: usize = 5;

macro_rules! axi_write_master {
    ($(#[$doc:meta])* $name:ident, dw: $dw:tt, sw: $sw:tt, lg: $lg:tt, fa: $fa:tt, fp: $fp:tt) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// Stream: byte address of the first beat (bus-aligned).
            pub wr_req_addr: Signal<In, Bits<64>>,
            /// Stream open handshake: valid.
            pub wr_req_valid: Signal<In, Bit>,
            /// Stream open handshake: taken this cycle if `wr_req_valid`.
            pub wr_req_ready: Signal<Out, Bit>,
            /// Write beat data.
            pub wr_data: Signal<In, Bits<$dw>>,
            /// Write beat byte strobes (passed to `m_axi_wstrb`).
            pub wr_strb: Signal<In, Bits<$sw>>,
            /// Last beat of the stream.
            pub wr_last: Signal<In, Bit>,
            /// The beat closes its burst (the next beat may jump).
            pub wr_close: Signal<In, Bit>,
            /// The beat is written at `wr_jump_addr` and starts a new burst there (the beat
            /// before it must have closed its burst: `wr_close`, `wr_last` or a full burst).
            pub wr_jump: Signal<In, Bit>,
            /// With `wr_jump`: bus-aligned byte address of the beat.
            pub wr_jump_addr: Signal<In, Bits<64>>,
            /// Write beat handshake: valid.
            pub wr_valid: Signal<In, Bit>,
            /// Write beat handshake: taken this cycle if `wr_valid`.
            pub wr_ready: Signal<Out, Bit>,
            /// One-cycle pulse: every burst of the stream got its B response.
            pub wr_done: Signal<Out, Bit>,
            /// With `wr_done`: some BRESP of the stream was SLVERR or DECERR.
            pub wr_err: Signal<Out, Bit>,
            /// Abort: take no more beats, finish the bursts whose AW was issued, then idle.
            pub abort: Signal<In, Bit>,
            /// No stream open and no abort in progress.
            pub idle: Signal<Out, Bit>,
            /// AXI AW: ID (always 0).
            pub m_axi_awid: Signal<Out, Bit>,
            /// AXI AW: burst start address.
            pub m_axi_awaddr: Signal<Out, Bits<64>>,
            /// AXI AW: burst length - 1.
            pub m_axi_awlen: Signal<Out, Bits<8>>,
            /// AXI AW: log2(bus bytes).
            pub m_axi_awsize: Signal<Out, Bits<3>>,
            /// AXI AW: burst type INCR (1).
            pub m_axi_awburst: Signal<Out, Bits<2>>,
            /// AXI AW: cache attributes 0b0011.
            pub m_axi_awcache: Signal<Out, Bits<4>>,
            /// AXI AW: protection 0.
            pub m_axi_awprot: Signal<Out, Bits<3>>,
            /// AXI AW: valid.
            pub m_axi_awvalid: Signal<Out, Bit>,
            /// AXI AW: ready.
            pub m_axi_awready: Signal<In, Bit>,
            /// AXI W: data.
            pub m_axi_wdata: Signal<Out, Bits<$dw>>,
            /// AXI W: byte strobes.
            pub m_axi_wstrb: Signal<Out, Bits<$sw>>,
            /// AXI W: last beat of the burst.
            pub m_axi_wlast: Signal<Out, Bit>,
            /// AXI W: valid.
            pub m_axi_wvalid: Signal<Out, Bit>,
            /// AXI W: ready.
            pub m_axi_wready: Signal<In, Bit>,
            /// AXI B: ID (ignored: one ID only).
            pub m_axi_bid: Signal<In, Bit>,
            /// AXI B: response (bit 1 set: SLVERR/DECERR).
            pub m_axi_bresp: Signal<In, Bits<2>>,
            /// AXI B: valid.
            pub m_axi_bvalid: Signal<In, Bit>,
            /// AXI B: ready (always 1).
            pub m_axi_bready: Signal<Out, Bit>,
            /// Strobed bytes of the W beat taken in the previous cycle, 0 if none (the
            /// CSR block's `perf_wr_bytes`; registered, one cycle after the W handshake).
            pub w_bytes: Signal<Out, Bits<8>>,
            // --- stream state
            open: DFF<Bit>,
            last_in: DFF<Bit>,
            // the stream reached the top beat: the rest of its beats are dropped
            past_top: DFF<Bit>,
            aborting: DFF<Bit>,
            err: DFF<Bit>,
            // --- the burst being filled: start address, beats so far; address of the next beat
            f_addr: DFF<Bits<64>>,
            f_cnt: DFF<Bits<8>>,
            // The burst's last beat index (`cap` of its first beat, held for the others).
            cap_q: DFF<Bits<8>>,
            next_addr: DFF<Bits<64>>,
            // --- AW register
            aw_valid: DFF<Bit>,
            aw_addr: DFF<Bits<64>>,
            aw_len: DFF<Bits<8>>,
            // --- second AW entry (queued behind the presented one)
            aw1_valid: DFF<Bit>,
            aw1_addr: DFF<Bits<64>>,
            aw1_len: DFF<Bits<8>>,
            aw_pop: Signal<Local, Bit>,
            // --- closed bursts whose W beats are not all sent / whose B has not returned
            w_bursts: DFF<Bits<8>>,
            b_out: DFF<Bits<16>>,
            // --- W FIFO: RAMs with registered read, write pointer, its one-cycle-delayed
            // copy (what the read side may see), read pointer (one wrap bit each)
            wp: DFF<Bits<$fp>>,
            wpd: DFF<Bits<$fp>>,
            rp: DFF<Bits<$fp>>,
            ram_data: RAM<Bits<$dw>, $fa>,
            ram_strb: RAM<Bits<$sw>, $fa>,
            ram_last: RAM<Bit, $fa>,
            // --- strobed bytes of the W beat taken (registered)
            strb_count: StrobeCount<$sw>,
            w_bytes_q: DFF<Bits<8>>,
            // --- locals
            dropping: Signal<Local, Bit>,
            take: Signal<Local, Bit>,
            at_top: Signal<Local, Bit>,
            top_page: Signal<Local, Bit>,
            beat_addr: Signal<Local, Bits<64>>,
            burst_addr: Signal<Local, Bits<64>>,
            f_full: Signal<Local, Bit>,
            f_empty: Signal<Local, Bit>,
            boundary_m1: Signal<Local, Bits<8>>,
            cut: Signal<Local, Bit>,
            cap: Signal<Local, Bits<8>>,
            idx_inv: Signal<Local, Bits<8>>,
            full_first: Signal<Local, Bit>,
            full: Signal<Local, Bit>,
            write: Signal<Local, Bit>,
            closes: Signal<Local, Bit>,
            pop: Signal<Local, Bit>,
            w_end: Signal<Local, Bit>,
            rp_next: Signal<Local, Bits<$fp>>,
            // --- constants
            depth: Constant<Bits<$fp>>,
            one_fp: Constant<Bits<$fp>>,
            zero_fp: Constant<Bits<$fp>>,
            one8: Constant<Bits<8>>,
            zero8: Constant<Bits<8>>,
            one16: Constant<Bits<16>>,
            zero16: Constant<Bits<16>>,
            wbm_m1: Constant<Bits<8>>,
            wbm_one: Constant<Bit>,
            bb64: Constant<Bits<64>>,
            one64: Constant<Bits<64>>,
            page_off: Constant<Bits<64>>,
            page_base: Constant<Bits<64>>,
            addr_inc: Signal<Local, Bits<64>>,
            top_beat: Constant<Bits<64>>,
            page_ones: Constant<Bits<52>>,
            beat_mask: Constant<Bits<8>>,
            size: Constant<Bits<3>>,
            incr: Constant<Bits<2>>,
            cache: Constant<Bits<4>>,
            prot: Constant<Bits<3>>,
        }

        impl $name {
            /// Bus data width in bits.
            pub const DW: usize = $dw;
            /// log2 of the bus width in bytes (`awsize`).
            pub const SIZE_LOG2: usize = $lg;
            /// W FIFO entries.
            pub const FIFO_DEPTH: usize = 1 << $fa;

            /// A write master issuing bursts of at most `wr_burst_max` beats.
            ///
            /// # Panics
            /// If `wr_burst_max` is 0 or above half the W FIFO depth.
            pub fn new(wr_burst_max: usize) -> Self {
                assert!(
                    (1..=Self::FIFO_DEPTH / 2).contains(&wr_burst_max),
                    "WR_BURST_MAX must be 1..={}, got {wr_burst_max}",
                    Self::FIFO_DEPTH / 2
                );
                let bb = 1u64 << $lg;
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    wr_req_addr: Default::default(),
                    wr_req_valid: Default::default(),
                    wr_req_ready: Default::default(),
                    wr_data: Default::default(),
                    wr_strb: Default::default(),
                    wr_last: Default::default(),
                    wr_close: Default::default(),
                    wr_jump: Default::default(),
                    wr_jump_addr: Default::default(),
                    wr_valid: Default::default(),
                    wr_ready: Default::default(),
                    wr_done: Default::default(),
                    wr_err: Default::default(),
                    abort: Default::default(),
                    idle: Default::default(),
                    m_axi_awid: Default::default(),
                    m_axi_awaddr: Default::default(),
                    m_axi_awlen: Default::default(),
                    m_axi_awsize: Default::default(),
                    m_axi_awburst: Default::default(),
                    m_axi_awcache: Default::default(),
                    m_axi_awprot: Default::default(),
                    m_axi_awvalid: Default::default(),
                    m_axi_awready: Default::default(),
                    m_axi_wdata: Default::default(),
                    m_axi_wstrb: Default::default(),
                    m_axi_wlast: Default::default(),
                    m_axi_wvalid: Default::default(),
                    m_axi_wready: Default::default(),
                    m_axi_bid: Default::default(),
                    m_axi_bresp: Default::default(),
                    m_axi_bvalid: Default::default(),
                    m_axi_bready: Default::default(),
                    w_bytes: Default::default(),
                    open: Default::default(),
                    last_in: Default::default(),
                    past_top: Default::default(),
                    aborting: Default::default(),
                    err: Default::default(),
                    f_addr: Default::default(),
                    f_cnt: Default::default(),
                    cap_q: Default::default(),
                    next_addr: Default::default(),
                    aw_valid: Default::default(),
                    aw_addr: Default::default(),
                    aw_len: Default::default(),
                    aw1_valid: Default::default(),
                    aw1_addr: Default::default(),
                    aw1_len: Default::default(),
                    aw_pop: Default::default(),
                    w_bursts: Default::default(),
                    b_out: Default::default(),
                    wp: Default::default(),
                    wpd: Default::default(),
                    rp: Default::default(),
                    ram_data: Default::default(),
                    ram_strb: Default::default(),
                    ram_last: Default::default(),
                    strb_count: Default::default(),
                    w_bytes_q: Default::default(),
                    dropping: Default::default(),
                    take: Default::default(),
                    at_top: Default::default(),
                    top_page: Default::default(),
                    beat_addr: Default::default(),
                    burst_addr: Default::default(),
                    f_full: Default::default(),
                    f_empty: Default::default(),
                    boundary_m1: Default::default(),
                    cut: Default::default(),
                    cap: Default::default(),
                    idx_inv: Default::default(),
                    full_first: Default::default(),
                    full: Default::default(),
                    write: Default::default(),
                    closes: Default::default(),
                    pop: Default::default(),
                    w_end: Default::default(),
                    rp_next: Default::default(),
                    depth: Constant::new((1u64 << $fa).into()),
                    one_fp: Constant::new(1u64.into()),
                    zero_fp: Constant::new(0u64.into()),
                    one8: Constant::new(1u64.into()),
                    zero8: Constant::new(0u64.into()),
                    one16: Constant::new(1u64.into()),
                    zero16: Constant::new(0u64.into()),
                    wbm_m1: Constant::new((wr_burst_max as u64 - 1).into()),
                    wbm_one: Constant::new(wr_burst_max == 1),
                    bb64: Constant::new(bb.into()),
                    one64: Constant::new(1u64.into()),
                    page_off: Constant::new(0xFFFu64.into()),
                    page_base: Constant::new((!0xFFFu64).into()),
                    addr_inc: Default::default(),
                    top_beat: Constant::new((0u64.wrapping_sub(bb)).into()),
                    page_ones: Constant::new(((1u64 << 52) - 1).into()),
                    beat_mask: Constant::new(((4096u64 >> $lg) - 1).into()),
                    size: Constant::new(($lg as u64).into()),
                    incr: Constant::new(1u64.into()),
                    cache: Constant::new(0b0011u64.into()),
                    prot: Constant::new(0u64.into()),
                }
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new(WR_BURST_MAX_DEFAULT)
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, open, last_in, past_top, aborting, err, f_addr, f_cnt, cap_q, next_addr, aw_valid, aw_addr,
                    aw_len, aw1_valid, aw1_addr, aw1_len, w_bursts, b_out, wp, wpd, rp, w_bytes_q
                );
                self.ram_data.write_clock.next = self.clock.val();
                self.ram_data.read_clock.next = self.clock.val();
                self.ram_strb.write_clock.next = self.clock.val();
                self.ram_strb.read_clock.next = self.clock.val();
                self.ram_last.write_clock.next = self.clock.val();
                self.ram_last.read_clock.next = self.clock.val();
                self.dropping.next = self.aborting.q.val() | self.abort.val();
                // ---- FIFO status: full from the real pointers, empty from the delayed
                // write pointer (an entry is readable once the RAM holds it)
                self.f_full.next = (self.wp.q.val() - self.rp.q.val()) == self.depth.val();
                self.f_empty.next = self.rp.q.val() == self.wpd.q.val();
                self.wpd.d.next = self.wp.q.val();
                // ---- the offered beat's address (after the previous beat, or its jump) and
                // the start of the burst it belongs to (itself when it opens one)
                self.beat_addr.next = self.next_addr.q.val();
                if self.wr_jump.val() {
                    self.beat_addr.next = self.wr_jump_addr.val();
                }
                self.burst_addr.next = self.f_addr.q.val();
                if self.f_cnt.q.val() == self.zero8.val() {
                    self.burst_addr.next = self.beat_addr.val();
                }
                // ---- where a burst opened by this beat must close (only used when it opens
                // one, `cap_q` holds it for the beats after): WR_BURST_MAX beats, or the
                // beat before the 4 KiB boundary (beats left in the page - 1 = the inverted
                // beat index of its start); in the top page one beat earlier, before the top
                // beat (a burst starting there is dropped, its cap does not matter)
                self.boundary_m1.next =
                    (!self.beat_addr.val().get_bits::<8>($lg)) & self.beat_mask.val();
                self.top_page.next = self.beat_addr.val().get_bits::<52>(12) == self.page_ones.val();
                if self.top_page.val() {
                    self.boundary_m1.next = ((!self.beat_addr.val().get_bits::<8>($lg))
                        & self.beat_mask.val())
                        - self.one8.val();
                }
                self.cut.next = self.boundary_m1.val() < self.wbm_m1.val();
                self.cap.next = self.wbm_m1.val();
                if self.cut.val() {
                    self.cap.next = self.boundary_m1.val();
                }
                // ---- beats in
                self.wr_ready.next = self.open.q.val()
                    & !self.last_in.q.val()
                    & !self.dropping.val()
                    & !self.f_full.val()
                    & !self.aw1_valid.q.val()
                    & !self.rst.val();
                // A beat at the top beat, and every beat after it, is taken and dropped.
                self.take.next = self.wr_valid.val() & self.wr_ready.val();
                self.at_top.next = self.beat_addr.val() == self.top_beat.val();
                self.write.next = self.take.val() & !self.at_top.val() & !self.past_top.q.val();
                if self.take.val() & (self.at_top.val() | self.past_top.q.val()) {
                    self.past_top.d.next = true;
                    self.err.d.next = true;
                    if self.wr_last.val() {
                        self.last_in.d.next = true;
                    }
                }
                // The burst is full at `cap` beats - 1: for its first beat `cap` is 0 iff
                // WR_BURST_MAX is 1 or the beat is the page's last before the boundary (in the
                // top page the one before the top beat), and `cap` is registered for the
                // beats after it, so the address comparisons are not on the path from a
                // beat's address to its `closes` and from there to the AW queue.
                self.idx_inv.next =
                    (!self.beat_addr.val().get_bits::<8>($lg)) & self.beat_mask.val();
                self.full_first.next = self.wbm_one.val() | (self.idx_inv.val() == self.zero8.val());
                if self.top_page.val() {
                    self.full_first.next = self.wbm_one.val() | (self.idx_inv.val() == self.one8.val());
                }
                self.full.next = self.f_cnt.q.val() == self.cap_q.q.val();
                if self.f_cnt.q.val() == self.zero8.val() {
                    self.full.next = self.full_first.val();
                }
                self.closes.next = self.write.val()
                    & (self.wr_last.val() | self.wr_close.val() | self.full.val());
                self.ram_data.write_address.next = self.wp.q.val().get_bits::<$fa>(0);
                self.ram_strb.write_address.next = self.wp.q.val().get_bits::<$fa>(0);
                self.ram_last.write_address.next = self.wp.q.val().get_bits::<$fa>(0);
                self.ram_data.write_data.next = self.wr_data.val();
                self.ram_strb.write_data.next = self.wr_strb.val();
                self.ram_last.write_data.next = self.closes.val();
                self.ram_data.write_enable.next = self.write.val();
                self.ram_strb.write_enable.next = self.write.val();
                self.ram_last.write_enable.next = self.write.val();
                // The address after this beat, as a carry-select: the page offset adds a
                // beat (wrapping at the boundary), the page number increments only when the
                // beat was the page's last (an unconditional 64-bit increment ripples through
                // every bit in the generic flow; the selected one is a log-depth tree).
                self.addr_inc.next = (self.beat_addr.val() & self.page_base.val())
                    | (((self.beat_addr.val() & self.page_off.val()) + self.bb64.val())
                        & self.page_off.val());
                if self.idx_inv.val() == self.zero8.val() {
                    self.addr_inc.next = (self.beat_addr.val() | self.page_off.val()) + self.one64.val();
                }
                if self.write.val() {
                    self.wp.d.next = self.wp.q.val() + self.one_fp.val();
                    self.f_cnt.d.next = self.f_cnt.q.val() + self.one8.val();
                    self.f_addr.d.next = self.burst_addr.val();
                    if self.f_cnt.q.val() == self.zero8.val() {
                        self.cap_q.d.next = self.cap.val();
                    }
                    self.next_addr.d.next = self.addr_inc.val();
                }
                // ---- AW: a two-entry queue (the presented entry `aw_*`, the one behind it
                // `aw1_*`); a closing beat is only taken while `aw1` is free, so it always
                // finds a slot, and the beat path never depends on `awready`
                self.aw_pop.next = self.aw_valid.q.val() & self.m_axi_awready.val();
                if self.aw_pop.val() {
                    self.aw_valid.d.next = self.aw1_valid.q.val();
                    self.aw_addr.d.next = self.aw1_addr.q.val();
                    self.aw_len.d.next = self.aw1_len.q.val();
                    self.aw1_valid.d.next = false;
                }
                if self.closes.val() {
                    if self.aw_valid.q.val() & !self.aw_pop.val() {
                        self.aw1_valid.d.next = true;
                        self.aw1_addr.d.next = self.burst_addr.val();
                        self.aw1_len.d.next = self.f_cnt.q.val();
                    } else {
                        self.aw_valid.d.next = true;
                        self.aw_addr.d.next = self.burst_addr.val();
                        self.aw_len.d.next = self.f_cnt.q.val();
                    }
                    self.f_cnt.d.next = self.zero8.val();
                    if self.wr_last.val() {
                        self.last_in.d.next = true;
                    }
                }
                // ---- W: the FIFO's head while it belongs to a closed burst
                self.m_axi_wvalid.next =
                    (self.w_bursts.q.val() != self.zero8.val()) & !self.f_empty.val();
                self.m_axi_wdata.next = self.ram_data.read_data.val();
                self.m_axi_wstrb.next = self.ram_strb.read_data.val();
                self.m_axi_wlast.next = self.ram_last.read_data.val();
                self.pop.next = self.m_axi_wvalid.val() & self.m_axi_wready.val();
                self.w_end.next = self.pop.val() & self.ram_last.read_data.val();
                self.rp_next.next = self.rp.q.val();
                if self.pop.val() {
                    self.rp_next.next = self.rp.q.val() + self.one_fp.val();
                }
                self.rp.d.next = self.rp_next.val();
                self.strb_count.x.next = self.ram_strb.read_data.val();
                self.w_bytes_q.d.next = self.zero8.val();
                if self.pop.val() {
                    self.w_bytes_q.d.next = self.strb_count.y.val();
                }
                self.w_bytes.next = self.w_bytes_q.q.val();
                self.ram_data.read_address.next = self.rp_next.val().get_bits::<$fa>(0);
                self.ram_strb.read_address.next = self.rp_next.val().get_bits::<$fa>(0);
                self.ram_last.read_address.next = self.rp_next.val().get_bits::<$fa>(0);
                if self.closes.val() & !self.w_end.val() {
                    self.w_bursts.d.next = self.w_bursts.q.val() + self.one8.val();
                }
                if !self.closes.val() & self.w_end.val() {
                    self.w_bursts.d.next = self.w_bursts.q.val() - self.one8.val();
                }
                // ---- B: always ready; a closed burst is outstanding until its B
                self.m_axi_bready.next = true;
                if self.closes.val() & !self.m_axi_bvalid.val() {
                    self.b_out.d.next = self.b_out.q.val() + self.one16.val();
                }
                if !self.closes.val() & self.m_axi_bvalid.val() {
                    self.b_out.d.next = self.b_out.q.val() - self.one16.val();
                }
                if self.m_axi_bvalid.val() & self.m_axi_bresp.val().get_bit(1) {
                    self.err.d.next = true;
                }
                // ---- stream done: last beat in, every B back
                self.wr_done.next = self.open.q.val()
                    & self.last_in.q.val()
                    & (self.b_out.q.val() == self.zero16.val())
                    & !self.aborting.q.val();
                self.wr_err.next = self.err.q.val();
                if self.wr_done.val() {
                    self.open.d.next = false;
                    self.last_in.d.next = false;
                }
                // ---- open a stream
                self.wr_req_ready.next = !self.open.q.val() & !self.dropping.val() & !self.rst.val();
                if self.wr_req_valid.val() & self.wr_req_ready.val() {
                    self.open.d.next = true;
                    self.next_addr.d.next = self.wr_req_addr.val();
                    self.f_cnt.d.next = self.zero8.val();
                    self.err.d.next = false;
                    self.past_top.d.next = false;
                }
                // ---- abort: once every closed burst has sent its W beats and got its B,
                // drop the unclosed burst's beats and close the stream
                // (`abort` may be held as a level until `idle`: only an open stream starts an
                // abort, and the drain completes whether or not `abort` is still high)
                if self.abort.val() & self.open.q.val() {
                    self.aborting.d.next = true;
                }
                if self.aborting.q.val()
                    & (self.b_out.q.val() == self.zero16.val())
                    & (self.w_bursts.q.val() == self.zero8.val())
                {
                    self.aborting.d.next = false;
                    self.open.d.next = false;
                    self.last_in.d.next = false;
                    self.past_top.d.next = false;
                    self.err.d.next = false;
                    self.f_cnt.d.next = self.zero8.val();
                    self.rp.d.next = self.wp.q.val();
                }
                if self.rst.val() {
                    self.open.d.next = false;
                    self.last_in.d.next = false;
                    self.past_top.d.next = false;
                    self.aborting.d.next = false;
                    self.err.d.next = false;
                    self.f_cnt.d.next = self.zero8.val();
                    self.aw_valid.d.next = false;
                    self.aw1_valid.d.next = false;
                    self.w_bursts.d.next = self.zero8.val();
                    self.b_out.d.next = self.zero16.val();
                    self.wp.d.next = self.zero_fp.val();
                    self.wpd.d.next = self.zero_fp.val();
                    self.rp.d.next = self.zero_fp.val();
                }
                self.idle.next = !self.open.q.val() & !self.aborting.q.val();
                // ---- AW outputs
                self.m_axi_awid.next = false;
                self.m_axi_awaddr.next = self.aw_addr.q.val();
                self.m_axi_awlen.next = self.aw_len.q.val();
                self.m_axi_awsize.next = self.size.val();
                self.m_axi_awburst.next = self.incr.val();
                self.m_axi_awcache.next = self.cache.val();
                self.m_axi_awprot.next = self.prot.val();
                self.m_axi_awvalid.next = self.aw_valid.q.val();
            }
        }
    };
}

axi_write_master!(
    /// AXI4 write master for a 128-bit data bus (16 bytes per beat).
    AxiWriteMasterDw128, dw: 128, sw: 16, lg: 4, fa: 5, fp: 6
);
axi_write_master!(
    /// AXI4 write master for a 256-bit data bus (32 bytes per beat).
    AxiWriteMasterDw256, dw: 256, sw: 32, lg: 5, fa: 5, fp: 6
);
axi_write_master!(
    /// AXI4 write master for a 512-bit data bus (64 bytes per beat).
    AxiWriteMasterDw512, dw: 512, sw: 64, lg: 6, fa: 5, fp: 6
);
axi_write_master!(
    /// AXI4 write master for a 1024-bit data bus (128 bytes per beat).
    AxiWriteMasterDw1024, dw: 1024, sw: 128, lg: 7, fa: 5, fp: 6
);

#[cfg(test)]
mod tests;
