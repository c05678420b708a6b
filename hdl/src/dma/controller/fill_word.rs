//! [`FillWord`]: the 32-bit word the controller's word engine shifts into the write beat in
//! `Fill` (docs/ARCHITECTURE.md, "Word engine"), and whether it is written: a header word
//! (`w < 8`, the header register's bottom word) or, writing the status (`smode`), the status
//! word and the bytes-written word at their offsets in the descriptor's beat, nothing
//! elsewhere. Combinational; `LGE` is log2 of the 32-bit words in a beat.

use cdma_spec::{desc, frame};
use rust_hdl::core::prelude::*;

use super::super::check::{CODE_BITS, LEN_BITS};
use crate::prims::ZeroExtend;

/// The word shifted into the write beat and its strobe (see the module doc).
#[derive(LogicBlock)]
pub struct FillWord<const LGE: usize> {
    /// Word index of the stream being written.
    pub w: Signal<In, Bits<LEN_BITS>>,
    /// Words the stream writes (a header stream: words `w < lim` are written).
    pub lim: Signal<In, Bits<LEN_BITS>>,
    /// The header register's bottom word (header word `w`).
    pub hdr_word: Signal<In, Bits<32>>,
    /// Writing the status words instead of the header.
    pub smode: Signal<In, Bit>,
    /// Word offset of the descriptor in its beat (its address's bits `LGE+1:2`).
    pub desc_word: Signal<In, Bits<LGE>>,
    /// The result code reported in the status word.
    pub code: Signal<In, Bits<CODE_BITS>>,
    /// Bytes written (the status word after the status).
    pub bw: Signal<In, Bits<LEN_BITS>>,
    /// The word.
    pub word: Signal<Out, Bits<32>>,
    /// The word is written (its strobe).
    pub wvalid: Signal<Out, Bit>,
    code32: ZeroExtend<CODE_BITS, 32>,
    status: Signal<Local, Bits<32>>,
    soff: Signal<Local, Bits<LGE>>,
    status_word: Constant<Bits<LGE>>,
    hdr_words: Constant<Bits<LEN_BITS>>,
    zero: Constant<Bits<32>>,
    one: Constant<Bits<LGE>>,
    st_done: Constant<Bits<32>>,
    st_err_lsb: Constant<Bits<5>>,
}

impl<const LGE: usize> Default for FillWord<LGE> {
    fn default() -> Self {
        Self {
            w: Default::default(),
            lim: Default::default(),
            hdr_word: Default::default(),
            smode: Default::default(),
            desc_word: Default::default(),
            soff: Default::default(),
            // The status word's offset in words, modulo the beat's words.
            status_word: Constant::new(
                ((desc::STATUS_FIELD.offset as u64 / 4) & ((1 << LGE) - 1)).into(),
            ),
            code: Default::default(),
            bw: Default::default(),
            word: Default::default(),
            wvalid: Default::default(),
            code32: Default::default(),
            status: Default::default(),
            hdr_words: Constant::new(((frame::HEADER_LEN / frame::INDEX_ENTRY_LEN) as u64).into()),
            zero: Constant::new(0u64.into()),
            one: Constant::new(1u64.into()),
            st_done: Constant::new(desc::STATUS_DONE.mask().into()),
            st_err_lsb: Constant::new(u64::from(desc::STATUS_ERROR.lsb).into()),
        }
    }
}

impl<const LGE: usize> Logic for FillWord<LGE> {
    #[hdl_gen]
    fn update(&mut self) {
        // Word offset of the status word in its beat.
        self.soff.next = self.desc_word.val() + self.status_word.val();
        self.code32.x.next = self.code.val();
        self.status.next = self.st_done.val() | (self.code32.y.val() << self.st_err_lsb.val());
        self.word.next = self.zero.val();
        self.wvalid.next = self.w.val() < self.lim.val();
        if self.w.val() < self.hdr_words.val() {
            self.word.next = self.hdr_word.val();
        }
        if self.smode.val() {
            self.word.next = self.zero.val();
            self.wvalid.next = false;
            if self.w.val().get_bits::<LGE>(0) == self.soff.val() {
                self.word.next = self.status.val();
                self.wvalid.next = true;
            }
            if self.w.val().get_bits::<LGE>(0) == self.soff.val() + self.one.val() {
                self.word.next = self.bw.val();
                self.wvalid.next = true;
            }
        }
    }
}
