//! [`ReadHold`]: the payload read beats between the read master and the datapath while a
//! descriptor streams (the controller's `Run` state), and when a read error is reported.
//!
//! Errors in earlier chunks win over later ones (docs/DESCRIPTORS.md, after step 8), but the
//! read side runs ahead of the chunk decisions: on COMPRESS the source of chunk `k + 1` may
//! come back while chunk `k` is still in the encoder, and chunk `k` may yet overflow
//! `dst_cap`. So on COMPRESS a beat with a read error is not passed on: it and every beat
//! behind it wait (`hold`) until every chunk before the beat is decided, and then the read
//! error is reported (the chunk holding the beat cannot be decided: its beat never came).
//! COPY and DECOMPRESS report a read error as its beat is taken.
//!
//! Which chunk the held beat is in: `in_left` counts the source bytes not yet passed on (from
//! `src_len`, down by `BB` per beat), so the held beat starts `src_len - in_left` bytes into
//! the source; the next undecided chunk starts `src_len - rem` bytes in and is `size` bytes
//! long (the controller's `rem` and `size`). The beat is in that chunk, and every chunk
//! before it decided, once `rem - in_left < size`.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::super::check::LEN_BITS;

/// The read beats of a streaming descriptor and its read error (see the module doc).
#[derive(LogicBlock)]
pub struct ReadHold {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Level: the descriptor streams (the controller's `Run` state); beats pass only then.
    /// Before it (and between DECOMPRESS windows), `in_left` is `src_len` and nothing held.
    pub run: Signal<In, Bit>,
    /// The descriptor is a COMPRESS (read errors wait for the chunks before them).
    pub comp: Signal<In, Bit>,
    /// Source bytes of the descriptor.
    pub src_len: Signal<In, Bits<LEN_BITS>>,
    /// Source bytes of the chunks not yet decided (the controller's `rem`).
    pub rem: Signal<In, Bits<LEN_BITS>>,
    /// Bytes of the next undecided chunk (the controller's `size`).
    pub size: Signal<In, Bits<LEN_BITS>>,
    /// Read master beat: valid.
    pub rd_valid: Signal<In, Bit>,
    /// Read master beat: its response was an error.
    pub rd_err: Signal<In, Bit>,
    /// Read master beat: taken (the datapath's `in_ready`, unless held).
    pub rd_ready: Signal<Out, Bit>,
    /// Datapath input beat: valid (the read master's, unless held).
    pub dp_valid: Signal<Out, Bit>,
    /// Datapath input beat: taken.
    pub dp_ready: Signal<In, Bit>,
    /// The descriptor ends with READ_ERROR now (while `run`).
    pub read_error: Signal<Out, Bit>,
    in_left: DFF<Bits<LEN_BITS>>,
    hold: DFF<Bit>,
    hold_now: Signal<Local, Bit>,
    bb: Constant<Bits<LEN_BITS>>,
}

impl ReadHold {
    /// The read hold of a bus of `bb` bytes per beat.
    pub fn new(bb: usize) -> Self {
        Self {
            clock: Default::default(),
            run: Default::default(),
            comp: Default::default(),
            src_len: Default::default(),
            rem: Default::default(),
            size: Default::default(),
            rd_valid: Default::default(),
            rd_err: Default::default(),
            rd_ready: Default::default(),
            dp_valid: Default::default(),
            dp_ready: Default::default(),
            read_error: Default::default(),
            in_left: Default::default(),
            hold: Default::default(),
            hold_now: Default::default(),
            bb: Constant::new((bb as u64).into()),
        }
    }
}

impl Logic for ReadHold {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, in_left, hold);
        self.hold_now.next =
            self.comp.val() & (self.hold.q.val() | (self.rd_valid.val() & self.rd_err.val()));
        self.rd_ready.next = self.run.val() & self.dp_ready.val() & !self.hold_now.val();
        self.dp_valid.next = self.run.val() & self.rd_valid.val() & !self.hold_now.val();
        if self.run.val() & self.rd_valid.val() & self.rd_ready.val() {
            self.in_left.d.next = self.in_left.q.val() - self.bb.val();
        }
        if self.run.val() & self.hold_now.val() {
            self.hold.d.next = true;
        }
        self.read_error.next = self.run.val()
            & ((!self.comp.val() & self.rd_valid.val() & self.rd_ready.val() & self.rd_err.val())
                | (self.hold.q.val()
                    & ((self.rem.val() - self.in_left.q.val()) < self.size.val())));
        if !self.run.val() {
            self.in_left.d.next = self.src_len.val();
            self.hold.d.next = false;
        }
    }
}
