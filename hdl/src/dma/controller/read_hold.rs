//! [`ReadHold`]: when a COMPRESS read error is reported.
//!
//! Errors in earlier chunks win over later ones (docs/DESCRIPTORS.md, after step 8), but the
//! read side runs ahead of the chunk decisions: the source of chunk `k + 1` may come back
//! while chunk `k` is still in the encoder, and chunk `k` may yet overflow `dst_cap`. So a
//! beat with a read error is not passed on: it and every beat behind it wait (`hold`; the
//! controller gates the beats with it) until every chunk before the beat is decided, and then
//! the read error is reported (`due`; the chunk holding the beat cannot be decided: its beat
//! never came). COPY and DECOMPRESS report a read error as its beat is taken (the controller).
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

/// When a COMPRESS read error is reported (see the module doc). Both outputs are registers,
/// so the controller may read them in the same `update` that drives the inputs.
#[derive(LogicBlock)]
pub struct ReadHold {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Level: a COMPRESS streams (the controller's `Run` state). Before it, `in_left` is
    /// `src_len` and nothing is held.
    pub run: Signal<In, Bit>,
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
    /// Datapath input: ready (a beat not held passes when valid and ready).
    pub dp_ready: Signal<In, Bit>,
    /// A read error was seen: its beat and every beat after it are held back.
    pub hold: Signal<Out, Bit>,
    /// The held read error is due: every chunk before its beat is decided.
    pub due: Signal<Out, Bit>,
    in_left: DFF<Bits<LEN_BITS>>,
    held: DFF<Bit>,
    due_r: DFF<Bit>,
    hold_now: Signal<Local, Bit>,
    bb: Constant<Bits<LEN_BITS>>,
}

impl ReadHold {
    /// The read hold of a bus of `bb` bytes per beat.
    pub fn new(bb: usize) -> Self {
        Self {
            clock: Default::default(),
            run: Default::default(),
            src_len: Default::default(),
            rem: Default::default(),
            size: Default::default(),
            rd_valid: Default::default(),
            rd_err: Default::default(),
            dp_ready: Default::default(),
            hold: Default::default(),
            due: Default::default(),
            in_left: Default::default(),
            held: Default::default(),
            due_r: Default::default(),
            hold_now: Default::default(),
            bb: Constant::new((bb as u64).into()),
        }
    }
}

impl Logic for ReadHold {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, in_left, held, due_r);
        self.hold_now.next = self.held.q.val() | (self.rd_valid.val() & self.rd_err.val());
        if self.rd_valid.val() & self.dp_ready.val() & !self.hold_now.val() {
            self.in_left.d.next = self.in_left.q.val() - self.bb.val();
        }
        if self.hold_now.val() {
            self.held.d.next = true;
        }
        // (A cycle late: the chunk that needs the held beat cannot be decided meanwhile.)
        self.due_r.d.next =
            self.held.q.val() & ((self.rem.val() - self.in_left.q.val()) < self.size.val());
        if !self.run.val() {
            self.in_left.d.next = self.src_len.val();
            self.held.d.next = false;
            self.due_r.d.next = false;
        }
        self.hold.next = self.held.q.val();
        self.due.next = self.due_r.q.val();
    }
}
