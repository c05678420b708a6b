//! [`IndexWindow`]: the arithmetic of the controller's DECOMPRESS index windows — the window
//! `[wbase, wend)` and its index beats (for registers the controller loads the cycle before
//! it requests them), the payload beats its checked entries cover, and the
//! check of the entry arriving against docs/FORMAT.md rules 11–13 (13 for ZVC frames) and the running sum of
//! stored sizes (rule 14, entry by entry); version 4 frames (`crc`) have 8-byte entries, two
//! metadata words each, the entry's word then its CRC.

use cdma_spec::frame;
use rust_hdl::core::prelude::*;

use super::super::check::{log2, CL_BITS, ELEM_BITS, LEN_BITS};
use super::super::params::IDX_WIN_LOG2;

/// The window's bounds and reads, and the entry check (combinational).
#[derive(LogicBlock)]
pub struct IndexWindow {
    /// First entry of the window.
    pub wbase: Signal<In, Bits<LEN_BITS>>,
    /// Entries of the frame (`n_chunks`).
    pub n: Signal<In, Bits<LEN_BITS>>,
    /// Word of the metadata region in the word engine (the entry arriving is word `w`).
    pub w: Signal<In, Bits<LEN_BITS>>,
    /// The index entry arriving (word `w`).
    pub entry: Signal<In, Bits<32>>,
    /// Uncompressed bytes of the frame from the arriving entry's chunk on.
    pub rem: Signal<In, Bits<LEN_BITS>>,
    /// The chunk size is `2^chunk_log2` bytes.
    pub chunk_log2: Signal<In, Bits<CL_BITS>>,
    /// Element width code of the frame (a ZVC chunk stores whole elements, rule 13).
    pub elem: Signal<In, Bits<ELEM_BITS>>,
    /// The frame's codec is ZVC-X (whose payloads are any number of bytes: no rule 13).
    pub zvcx: Signal<In, Bit>,
    /// The frame is version 4: an entry is two words (its word, its CRC).
    pub crc: Signal<In, Bit>,
    /// Stored bytes of the entries checked so far (their running sum).
    pub off: Signal<In, Bits<LEN_BITS>>,
    /// Payload bytes left for the arriving entry and those after it (`payload_len - off`,
    /// a register).
    pub left: Signal<In, Bits<LEN_BITS>>,
    /// The last entry's metadata word (a register of [`Self::last_word`]).
    pub last_w: Signal<In, Bits<LEN_BITS>>,
    /// Payload beats requested so far.
    pub pr_beats: Signal<In, Bits<LEN_BITS>>,
    /// End of the window, `min(n, wbase + 2^IDX_WIN_LOG2)` (a register).
    pub wend: Signal<In, Bits<LEN_BITS>>,
    /// End of the window after it, `min(n, wend + 2^IDX_WIN_LOG2)`.
    pub wend_next: Signal<Out, Bits<LEN_BITS>>,
    /// Metadata word of the window's first entry, `8 + wbase` (`8 + 2·wbase` with `crc`).
    pub wlo: Signal<Out, Bits<LEN_BITS>>,
    /// Metadata word after the window's last entry, `8 + wend` (`8 + 2·wend`).
    pub whi: Signal<Out, Bits<LEN_BITS>>,
    /// The entry that metadata word `w` belongs to.
    pub ent: Signal<Out, Bits<LEN_BITS>>,
    /// Word `w` is an entry's CRC (the second word of a version 4 entry).
    pub crc_word: Signal<Out, Bit>,
    /// First word of the beat holding word `wlo`.
    pub first_word: Signal<Out, Bits<LEN_BITS>>,
    /// The beat holding word `whi - 1`, the window's last index beat (in beats).
    pub beat_hi: Signal<Out, Bits<LEN_BITS>>,
    /// The beat holding word `wlo`, less one: the window's index beats are
    /// `beat_hi - beat_lo_m1`.
    pub beat_lo_m1: Signal<Out, Bits<LEN_BITS>>,
    /// Payload beats the checked entries cover (`ceil(off / BB)`), not yet requested.
    pub pay_new: Signal<Out, Bits<LEN_BITS>>,
    /// Payload beats the checked entries cover (`ceil(off / BB)`).
    pub pay_all: Signal<Out, Bits<LEN_BITS>>,
    /// The last entry's metadata word, `8 + n - 1` (`8 + 2·(n - 1)`), for `last_w`.
    pub last_word: Signal<Out, Bits<LEN_BITS>>,
    /// The arriving entry's `stored_len`.
    pub len: Signal<Out, Bits<LEN_BITS>>,
    /// `rem` less the uncompressed size of the arriving entry's chunk (`min(rem, chunk)`).
    pub rem_next: Signal<Out, Bits<LEN_BITS>>,
    /// The arriving entry breaks rule 11, 12 or 13, stores more than the payload left, or is
    /// the frame's last and leaves some.
    pub bad: Signal<Out, Bit>,
    wfull: Signal<Local, Bits<LEN_BITS>>,
    chunk: Signal<Local, Bits<LEN_BITS>>,
    raw: Signal<Local, Bit>,
    last: Signal<Local, Bit>,
    hmask: Signal<Local, Bits<LEN_BITS>>,
    rem_small: Signal<Local, Bit>,
    size_eq: Signal<Local, Bit>,
    size_ge: Signal<Local, Bit>,
    ones: Constant<Bits<LEN_BITS>>,
    zero: Constant<Bits<LEN_BITS>>,
    eb_mask: Signal<Local, Bits<LEN_BITS>>,
    wrel: Signal<Local, Bits<LEN_BITS>>,
    cb: Signal<Local, Bits<5>>,
    win: Constant<Bits<LEN_BITS>>,
    one5: Constant<Bits<5>>,
    zero5: Constant<Bits<5>>,
    hdr_words: Constant<Bits<LEN_BITS>>,
    one: Constant<Bits<LEN_BITS>>,
    lg_e: Constant<Bits<5>>,
    lg_bb: Constant<Bits<5>>,
    bb_m1: Constant<Bits<LEN_BITS>>,
    size_mask: Constant<Bits<LEN_BITS>>,
    raw_mask: Constant<Bits<LEN_BITS>>,
}

impl IndexWindow {
    /// The window arithmetic of a `dw`-bit engine (`E = dw/32` entries and `BB = dw/8` bytes
    /// per beat).
    pub fn new(dw: usize) -> Self {
        let (e, bb) = (dw as u64 / 32, dw as u64 / 8);
        let c = |v: u64| Constant::new(v.into());
        Self {
            wbase: Default::default(),
            n: Default::default(),
            w: Default::default(),
            entry: Default::default(),
            rem: Default::default(),
            chunk_log2: Default::default(),
            elem: Default::default(),
            zvcx: Default::default(),
            crc: Default::default(),
            chunk: Default::default(),
            off: Default::default(),
            left: Default::default(),
            last_w: Default::default(),
            last_word: Default::default(),
            pr_beats: Default::default(),
            wend: Default::default(),
            wlo: Default::default(),
            whi: Default::default(),
            ent: Default::default(),
            crc_word: Default::default(),
            first_word: Default::default(),
            beat_hi: Default::default(),
            beat_lo_m1: Default::default(),
            wend_next: Default::default(),
            pay_new: Default::default(),
            pay_all: Default::default(),
            len: Default::default(),
            rem_next: Default::default(),
            bad: Default::default(),
            wfull: Default::default(),
            raw: Default::default(),
            last: Default::default(),
            hmask: Default::default(),
            rem_small: Default::default(),
            size_eq: Default::default(),
            size_ge: Default::default(),
            ones: c(u64::from(u32::MAX)),
            zero: c(0),
            eb_mask: Default::default(),
            wrel: Default::default(),
            cb: Default::default(),
            win: c(1 << IDX_WIN_LOG2),
            one5: Constant::new(1u64.into()),
            zero5: Constant::new(0u64.into()),
            hdr_words: c((frame::HEADER_LEN / frame::INDEX_ENTRY_LEN) as u64),
            one: c(1),
            lg_e: Constant::new(log2(e as usize).into()),
            lg_bb: Constant::new(log2(bb as usize).into()),
            bb_m1: c(bb - 1),
            size_mask: c(frame::INDEX_SIZE.mask()),
            raw_mask: c(frame::INDEX_RAW.mask()),
        }
    }
}

impl Logic for IndexWindow {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- the window and its index beats
        self.wfull.next = self.wend.val() + self.win.val();
        self.wend_next.next = self.wfull.val();
        if self.n.val() < self.wfull.val() {
            self.wend_next.next = self.n.val();
        }
        // Entries are one word, or two with CRCs (cb: their log2 in words).
        self.cb.next = self.zero5.val();
        if self.crc.val() {
            self.cb.next = self.one5.val();
        }
        self.wlo.next = (self.wbase.val() << self.cb.val()) + self.hdr_words.val();
        self.whi.next = (self.wend.val() << self.cb.val()) + self.hdr_words.val();
        self.wrel.next = self.w.val() - self.hdr_words.val();
        self.ent.next = self.wrel.val() >> self.cb.val();
        self.crc_word.next = self.crc.val() & self.wrel.val().get_bit(0);
        self.first_word.next = (self.wlo.val() >> self.lg_e.val()) << self.lg_e.val();
        self.beat_hi.next = (self.whi.val() - self.one.val()) >> self.lg_e.val();
        self.beat_lo_m1.next = (self.wlo.val() >> self.lg_e.val()) - self.one.val();
        // ---- payload: ceil(off / BB) beats, less those requested
        self.pay_all.next = self.off.val() >> self.lg_bb.val();
        if (self.off.val() & self.bb_m1.val()).any() {
            self.pay_all.next = (self.off.val() >> self.lg_bb.val()) + self.one.val();
        }
        self.pay_new.next = self.pay_all.val() - self.pr_beats.val();
        // ---- the entry arriving
        self.len.next = self.entry.val() & self.size_mask.val();
        self.raw.next = (self.entry.val() & self.raw_mask.val()).any();
        self.chunk.next = self.one.val() << self.chunk_log2.val();
        self.eb_mask.next = (self.one.val() << self.elem.val()) - self.one.val();
        // The chunk is a power of two: rem < chunk iff rem has no bit at or above chunk_log2
        // (hmask), and the compares with size are made with rem and chunk apart, then
        // selected, so they do not wait for the choice (nor does rem_next).
        self.hmask.next = self.ones.val() << self.chunk_log2.val();
        self.rem_small.next = !(self.rem.val() & self.hmask.val()).any();
        self.rem_next.next = self.rem.val() - self.chunk.val();
        self.size_eq.next = self.len.val() == self.chunk.val();
        self.size_ge.next = (self.len.val() & self.hmask.val()).any();
        if self.rem_small.val() {
            self.rem_next.next = self.zero.val();
            self.size_eq.next = self.len.val() == self.rem.val();
            self.size_ge.next = self.len.val() >= self.rem.val();
        }
        // The last entry's word, 8 + (n - 1) << cb, for the register last_w.
        self.last_word.next = (self.n.val() << self.cb.val()) + self.hdr_words.val()
            - (self.one.val() << self.cb.val());
        self.last.next = self.w.val() == self.last_w.val();
        // Rule 14 as a running sum: more than the payload left, or the last short of it.
        self.bad.next = (self.len.val() > self.left.val())
            | (self.last.val() & (self.len.val() != self.left.val()));
        if self.raw.val() {
            // Rule 11.
            if !self.size_eq.val() {
                self.bad.next = true;
            }
        } else if self.size_ge.val()
            | (!self.zvcx.val() & (self.len.val() & self.eb_mask.val()).any())
        {
            // Rules 12 and 13.
            self.bad.next = true;
        }
    }
}
