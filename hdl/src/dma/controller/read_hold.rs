//! [`ReadHold`]: when a COMPRESS or DECOMPRESS read error is reported.
//!
//! Errors in earlier chunks win over later ones (docs/DESCRIPTORS.md, after step 8), but the
//! read side runs ahead of the chunk decisions: the source of chunk `k + 1` may come back
//! while chunk `k` is still in the encoder (and may yet overflow `dst_cap`) or in the decoder
//! (and may yet fail). So a beat with a read error is not passed on: it and every beat behind
//! it wait (`hold`; the controller gates the beats with it) until every chunk before the beat
//! is decided, and then the read error is reported (`due`; the chunk holding the beat cannot
//! be decided: its beat never came). COPY reports a read error as its beat is taken (the
//! controller).
//!
//! COMPRESS, which chunk the held beat is in: `in_left` counts the source bytes not yet passed
//! on (from `src_len`, down by `BB` per beat), so the held beat starts `src_len - in_left`
//! bytes into the source; the next undecided chunk starts `src_len - rem` bytes in and is
//! `size` bytes long (the controller's `rem` and `size`). The beat is in that chunk, and every
//! chunk before it decided, once `rem - in_left < size`.
//!
//! DECOMPRESS: the datapath says when its decoders need the next payload beat (`dp_need`: a
//! chunk waits for it, every chunk before it decided, a failed one only once all its stored
//! bytes were in).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::super::check::LEN_BITS;

/// When a COMPRESS or DECOMPRESS read error is reported (see the module doc). Both outputs are registers,
/// so the controller may read them in the same `update` that drives the inputs.
#[derive(LogicBlock)]
pub struct ReadHold {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Level: the controller's `Run` state (a COMPRESS, DECOMPRESS or COPY streams; the
    /// controller does not hold a COPY's beats). Before it, `in_left` is `rem` (a COMPRESS's
    /// `src_len`) and nothing is held.
    pub run: Signal<In, Bit>,
    /// Level: the stream is a DECOMPRESS's payload.
    pub dec: Signal<In, Bit>,
    /// DECOMPRESS: the datapath needs the next payload beat to decide its next chunk.
    pub dp_need: Signal<In, Bit>,
    /// Source bytes of the chunks not yet decided (the controller's `rem`).
    pub rem: Signal<In, Bits<LEN_BITS>>,
    /// Bytes of the next undecided chunk (the controller's `size`).
    pub size: Signal<In, Bits<LEN_BITS>>,
    /// A read master beat is offered and its response was an error.
    pub bad_beat: Signal<In, Bit>,
    /// A read master beat is offered and the datapath is ready (it passes if not held).
    pub beat: Signal<In, Bit>,
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
            dec: Default::default(),
            dp_need: Default::default(),
            rem: Default::default(),
            size: Default::default(),
            bad_beat: Default::default(),
            beat: Default::default(),
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
        self.hold_now.next = self.held.q.val() | self.bad_beat.val();
        if self.beat.val() & !self.hold_now.val() {
            self.in_left.d.next = self.in_left.q.val() - self.bb.val();
        }
        if self.hold_now.val() {
            self.held.d.next = true;
        }
        // (A cycle late: the chunk that needs the held beat cannot be decided meanwhile.)
        self.due_r.d.next =
            self.held.q.val() & ((self.rem.val() - self.in_left.q.val()) < self.size.val());
        if self.dec.val() {
            self.due_r.d.next = self.held.q.val() & self.dp_need.val();
        }
        if !self.run.val() {
            self.in_left.d.next = self.rem.val();
            self.held.d.next = false;
            self.due_r.d.next = false;
        }
        self.hold.next = self.held.q.val();
        self.due.next = self.due_r.q.val();
    }
}
