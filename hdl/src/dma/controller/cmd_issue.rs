//! [`CmdIssue`]: the DECOMPRESS chunk commands — the entry RAM the index window is checked
//! into (each entry's word, and with version 4 frames its CRC in a second RAM beside it) and
//! the command register that issues them in chunk order, one RAM read each.
//!
//! While `run`, a command is fetched for chunk `ck_cnt` whenever none is held or being
//! fetched and `ck_cnt` is below the limit (the window's end, or the entry that failed, `stop_at`); `fetch` is high in
//! the cycle its RAM words arrive, when the controller moves `ck_cnt` on. The command is
//! offered (`valid`) until `ck_ready`.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::{DFF, RAM};

use super::super::check::{ENTRY_BITS, LEN_BITS};
use super::super::params::IDX_WIN_LOG2;
use cdma_spec::frame;

/// The entry RAMs and the command register (see the module doc).
#[derive(LogicBlock)]
pub struct CmdIssue {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub rst: Signal<In, Bit>,
    /// Pulse: an operation starts (no command held).
    pub start: Signal<In, Bit>,
    /// RAM slot of the entry being written (its index modulo the window).
    pub w_addr: Signal<In, Bits<IDX_WIN_LOG2>>,
    /// The word being written (an entry's word or its CRC).
    pub w_data: Signal<In, Bits<32>>,
    /// Pulse: `w_data` is the entry's word.
    pub w_word: Signal<In, Bit>,
    /// Pulse: `w_data` is the entry's CRC.
    pub w_crc: Signal<In, Bit>,
    /// Level: commands are issued (DECOMPRESS payload).
    pub run: Signal<In, Bit>,
    /// The next chunk to command.
    pub ck_cnt: Signal<In, Bits<LEN_BITS>>,
    /// The index window's end: commands go up to (not including) this chunk...
    pub wend: Signal<In, Bits<LEN_BITS>>,
    /// ... unless an entry failed ...
    pub stopped: Signal<In, Bit>,
    /// ... this one.
    pub stop_at: Signal<In, Bits<LEN_BITS>>,
    /// Every chunk up to the limit has been fetched (`ck_cnt` is there).
    pub at_lim: Signal<Out, Bit>,
    /// Chunks of the frame.
    pub n: Signal<In, Bits<LEN_BITS>>,
    /// Uncompressed bytes of chunk `ck_cnt`.
    pub size: Signal<In, Bits<LEN_BITS>>,
    /// The datapath takes the command.
    pub ck_ready: Signal<In, Bit>,
    /// The command's entry arrives from the RAM: `ck_cnt` moves on.
    pub fetch: Signal<Out, Bit>,
    /// A command is held or being fetched.
    pub busy: Signal<Out, Bit>,
    /// Command: stored bytes.
    pub stored_len: Signal<Out, Bits<LEN_BITS>>,
    /// Command: stored raw.
    pub raw: Signal<Out, Bit>,
    /// Command: uncompressed bytes.
    pub chunk_len: Signal<Out, Bits<LEN_BITS>>,
    /// Command: the frame's last chunk.
    pub last: Signal<Out, Bit>,
    /// Command: the chunk's CRC32C (version 4).
    pub crc: Signal<Out, Bits<32>>,
    /// A command is held (the controller offers it while it runs).
    pub valid: Signal<Out, Bit>,
    ram: RAM<Bits<ENTRY_BITS>, IDX_WIN_LOG2>,
    cram: RAM<Bits<32>, IDX_WIN_LOG2>,
    v: DFF<Bit>,
    fetching: DFF<Bit>,
    len_r: DFF<Bits<LEN_BITS>>,
    raw_r: DFF<Bit>,
    size_r: DFF<Bits<LEN_BITS>>,
    last_r: DFF<Bit>,
    crc_r: DFF<Bits<32>>,
    lim: Signal<Local, Bits<LEN_BITS>>,
    one: Constant<Bits<LEN_BITS>>,
    size_mask: Constant<Bits<LEN_BITS>>,
    raw_mask: Constant<Bits<LEN_BITS>>,
}

impl Default for CmdIssue {
    fn default() -> Self {
        let c = |v: u64| Constant::new(v.into());
        Self {
            clock: Default::default(),
            rst: Default::default(),
            start: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
            w_word: Default::default(),
            w_crc: Default::default(),
            run: Default::default(),
            ck_cnt: Default::default(),
            wend: Default::default(),
            stopped: Default::default(),
            stop_at: Default::default(),
            at_lim: Default::default(),
            lim: Default::default(),
            n: Default::default(),
            size: Default::default(),
            ck_ready: Default::default(),
            fetch: Default::default(),
            busy: Default::default(),
            stored_len: Default::default(),
            raw: Default::default(),
            chunk_len: Default::default(),
            last: Default::default(),
            crc: Default::default(),
            valid: Default::default(),
            ram: Default::default(),
            cram: Default::default(),
            v: Default::default(),
            fetching: Default::default(),
            len_r: Default::default(),
            raw_r: Default::default(),
            size_r: Default::default(),
            last_r: Default::default(),
            crc_r: Default::default(),
            one: c(1),
            size_mask: c(frame::INDEX_SIZE.mask()),
            raw_mask: c(frame::INDEX_RAW.mask()),
        }
    }
}

impl Logic for CmdIssue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, v, fetching, len_r, raw_r, size_r, last_r, crc_r);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.cram.read_clock.next = self.clock.val();
        self.cram.write_clock.next = self.clock.val();
        self.ram.write_address.next = self.w_addr.val();
        self.cram.write_address.next = self.w_addr.val();
        self.ram.write_data.next = self.w_data.val();
        self.cram.write_data.next = self.w_data.val();
        self.ram.write_enable.next = self.w_word.val();
        self.cram.write_enable.next = self.w_crc.val();
        self.ram.read_address.next = self.ck_cnt.val().get_bits::<IDX_WIN_LOG2>(0);
        self.cram.read_address.next = self.ck_cnt.val().get_bits::<IDX_WIN_LOG2>(0);
        self.lim.next = self.wend.val();
        if self.stopped.val() {
            self.lim.next = self.stop_at.val();
        }
        // (Not from `lim`, which the fetch below reads with `run`: Verilator would see
        // `at_lim` depend on `run`, a false loop through the controller.)
        if self.stopped.val() {
            self.at_lim.next = self.ck_cnt.val() == self.stop_at.val();
        } else {
            self.at_lim.next = self.ck_cnt.val() == self.wend.val();
        }
        self.fetch.next = self.fetching.q.val();
        self.busy.next = self.v.q.val() | self.fetching.q.val();
        self.stored_len.next = self.len_r.q.val();
        self.raw.next = self.raw_r.q.val();
        self.chunk_len.next = self.size_r.q.val();
        self.last.next = self.last_r.q.val();
        self.crc.next = self.crc_r.q.val();
        // (Not gated by `run`: the controller offers it in Run only, and an output that
        // depended on `run` would loop through the controller in Verilator's eyes.)
        self.valid.next = self.v.q.val();
        if self.run.val() {
            if self.v.q.val() & self.ck_ready.val() {
                self.v.d.next = false;
            }
            if !self.v.q.val() & !self.fetching.q.val() & (self.ck_cnt.val() < self.lim.val()) {
                self.fetching.d.next = true;
            }
            if self.fetching.q.val() {
                self.fetching.d.next = false;
                self.v.d.next = true;
                self.len_r.d.next = self.ram.read_data.val() & self.size_mask.val();
                self.raw_r.d.next = (self.ram.read_data.val() & self.raw_mask.val()).any();
                self.size_r.d.next = self.size.val();
                self.last_r.d.next = (self.ck_cnt.val() + self.one.val()) == self.n.val();
                self.crc_r.d.next = self.cram.read_data.val();
            }
        }
        if self.start.val() | self.rst.val() {
            self.v.d.next = false;
            self.fetching.d.next = false;
        }
    }
}
