//! [`Crc32cBeat`]: CRC32C over a stream of bus beats, one beat per cycle at any bus width.
//!
//! Each beat holds `in_cnt` bytes from lane 0 (a message's beats are full but for its last).
//! The state advances over the whole beat in one matrix step ([`super::math::beat_rows`]) with
//! the lanes past `in_cnt` cleared, so a partial last beat is followed by `pad = BB - in_cnt`
//! zero bytes. Those are taken back after the message by the **tail**: one register that
//! multiplies the state by the inverse of 16 zero bytes (while 16 or more are left, buses
//! wider than 16 bytes) or of one zero byte per cycle ([`super::math::unshift_rows`]). A full
//! last beat needs no step: its state leaves 2 cycles after the beat; a partial one at most
//! [`latency_max`]`(BB)` cycles after it.
//!
//! **Use:** a message whose last beat is partial must be the last one ending until its state
//! has left (`out_valid`): in the engine it is the last chunk of a descriptor's data, or the
//! metadata pass's one message (chunks are whole beats: 128 bytes at least, the widest beat).
//! Full messages may end on every cycle. A message that ends while the tail still works on a
//! partial one cuts that one short: its state leaves at once, not unshifted (so wrong, never
//! lost: every message still gives exactly one `out_valid`, in order).
//!
//! The unit keeps the raw state: a CRC32C message starts from `in_init` = `0xFFFF_FFFF` and
//! its CRC is `out_crc ^ 0xFFFF_FFFF`; a message may also continue another one (`in_init` =
//! that one's `out_crc`), and leading lanes of a first beat that are not part of the message
//! can be cleared by the user and compensated by `in_init` = `unshift(init, lanes)`
//! ([`super::math::unshift`]: leading zeros from the unshifted state reach `init` exactly at
//! the message's first byte).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::math::{beat_rows, unshift_rows};
use crate::prims::{ByteKeep, Join, XorMatrix};

/// Zero bytes the tail's wide step takes back (buses wider than this many bytes have it).
pub const WIDE_STEP: usize = 16;

/// Cycles from a message's last beat to its `out_valid` at most on a `bb`-byte bus: 2 for a
/// full last beat; a partial one adds a cycle per wide step and per single byte of its pad
/// (`bb - 1` zero bytes at most): 17 at 16 bytes, 24 at 128.
pub const fn latency_max(bb: usize) -> usize {
    let pad = bb - 1;
    if bb > WIDE_STEP {
        2 + pad / WIDE_STEP + pad % WIDE_STEP
    } else {
        2 + pad
    }
}

/// CRC32C of messages streamed as `DW`-bit beats (`BB = DW/8` bytes, `XW = DW + 32`: the beat
/// matrix's inputs), one beat per cycle, no backpressure.
#[derive(LogicBlock)]
pub struct Crc32cBeat<const DW: usize, const BB: usize, const XW: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (drops the message in the tail).
    pub rst: Signal<In, Bit>,
    /// Beat: byte `j` at bits `8j..8j+8`; lanes from `in_cnt` on are ignored.
    pub in_data: Signal<In, Bits<DW>>,
    /// Bytes of the beat that belong to the message, from lane 0 (1 to `BB`).
    pub in_cnt: Signal<In, Bits<8>>,
    /// First beat of a message: its state starts from `in_init`.
    pub in_first: Signal<In, Bit>,
    /// Raw state before a message's first byte (CRC32C: `0xFFFF_FFFF`).
    pub in_init: Signal<In, Bits<32>>,
    /// Last beat of a message.
    pub in_last: Signal<In, Bit>,
    /// The beat is there (taken in the same cycle).
    pub in_valid: Signal<In, Bit>,
    /// Raw state after the message (CRC32C: `out_crc ^ 0xFFFF_FFFF`).
    pub out_crc: Signal<Out, Bits<32>>,
    /// `out_crc` is a message's (one cycle): 2 cycles after a full last beat, at most
    /// [`latency_max`]`(BB)` after a partial one.
    pub out_valid: Signal<Out, Bit>,
    keep: ByteKeep<BB, DW>,
    cat: Join<DW, 32, XW>,
    fwd: XorMatrix<XW>,
    // The tail: the state of the message being unshifted (`live`), the zero bytes left
    // (`rem`), the single-byte and wide steps, and the state that leaves (`oc`, `ov`).
    one: XorMatrix<32>,
    wide: XorMatrix<32>,
    w: DFF<Bits<32>>,
    rem: DFF<Bits<8>>,
    live: DFF<Bit>,
    oc: DFF<Bits<32>>,
    ov: DFF<Bit>,
    acc: DFF<Bits<32>>,
    s_in: Signal<Local, Bits<32>>,
    pad: Signal<Local, Bits<8>>,
    ends: Signal<Local, Bit>,
    bb: Constant<Bits<8>>,
    bb_m1: Constant<Bits<8>>,
    has_wide: Constant<Bit>,
    wide_n: Constant<Bits<8>>,
    one_n: Constant<Bits<8>>,
}

impl<const DW: usize, const BB: usize, const XW: usize> Default for Crc32cBeat<DW, BB, XW> {
    fn default() -> Self {
        assert_eq!(8 * BB, DW, "Crc32cBeat: BB must be DW/8");
        assert_eq!(DW + 32, XW, "Crc32cBeat: XW must be DW+32");
        assert!(BB.is_power_of_two() && BB <= 128);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            in_data: Default::default(),
            in_cnt: Default::default(),
            in_first: Default::default(),
            in_init: Default::default(),
            in_last: Default::default(),
            in_valid: Default::default(),
            out_crc: Default::default(),
            out_valid: Default::default(),
            keep: Default::default(),
            cat: Default::default(),
            fwd: XorMatrix::new(&beat_rows(BB)),
            one: XorMatrix::new(&unshift_rows(1)),
            wide: XorMatrix::new(&unshift_rows(WIDE_STEP)),
            w: Default::default(),
            rem: Default::default(),
            live: Default::default(),
            oc: Default::default(),
            ov: Default::default(),
            acc: Default::default(),
            s_in: Default::default(),
            pad: Default::default(),
            ends: Default::default(),
            bb: Constant::new((BB as u64).into()),
            has_wide: Constant::new(BB > WIDE_STEP),
            wide_n: Constant::new((WIDE_STEP as u64).into()),
            one_n: Constant::new(1u64.into()),
            bb_m1: Constant::new((BB as u64 - 1).into()),
        }
    }
}

impl<const DW: usize, const BB: usize, const XW: usize> Logic for Crc32cBeat<DW, BB, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, acc, w, rem, live, oc, ov);
        // ---- the beat: its bytes (zeros past in_cnt) after the running or initial state
        self.keep.x.next = self.in_data.val();
        self.keep.n.next = self.in_cnt.val();
        if self.in_first.val() {
            self.s_in.next = self.in_init.val();
        } else {
            self.s_in.next = self.acc.q.val();
        }
        self.cat.lo.next = self.keep.y.val();
        self.cat.hi.next = self.s_in.val();
        self.fwd.x.next = self.cat.y.val();
        if self.in_valid.val() {
            self.acc.d.next = self.fwd.y.val();
        }
        // ---- the tail: a message's last state, less the zero bytes after its last byte
        self.pad.next = (self.bb.val() - self.in_cnt.val()) & self.bb_m1.val();
        self.ends.next = self.in_valid.val() & self.in_last.val();
        self.one.x.next = self.w.q.val();
        self.wide.x.next = self.w.q.val();
        self.ov.d.next = false;
        // The state in the tail leaves when its pad is taken back, or at once (cut short)
        // when the next message ends.
        if self.live.q.val() & (!self.rem.q.val().any() | self.ends.val()) {
            self.oc.d.next = self.w.q.val();
            self.ov.d.next = true;
            self.live.d.next = false;
        }
        if self.ends.val() {
            self.w.d.next = self.fwd.y.val();
            self.rem.d.next = self.pad.val();
            self.live.d.next = true;
        } else if self.live.q.val() & self.rem.q.val().any() {
            if self.has_wide.val() & (self.rem.q.val() >= self.wide_n.val()) {
                self.w.d.next = self.wide.y.val();
                self.rem.d.next = self.rem.q.val() - self.wide_n.val();
            } else {
                self.w.d.next = self.one.y.val();
                self.rem.d.next = self.rem.q.val() - self.one_n.val();
            }
        }
        if self.rst.val() {
            self.live.d.next = false;
            self.ov.d.next = false;
        }
        self.out_crc.next = self.oc.q.val();
        self.out_valid.next = self.ov.q.val();
    }
}

/// The unit of a 128-bit bus.
pub type Crc32cBeatDw128 = Crc32cBeat<128, 16, 160>;
/// The unit of a 256-bit bus.
pub type Crc32cBeatDw256 = Crc32cBeat<256, 32, 288>;
/// The unit of a 512-bit bus.
pub type Crc32cBeatDw512 = Crc32cBeat<512, 64, 544>;
/// The unit of a 1024-bit bus.
pub type Crc32cBeatDw1024 = Crc32cBeat<1024, 128, 1056>;
