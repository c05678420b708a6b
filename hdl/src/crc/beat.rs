//! [`Crc32cBeat`]: CRC32C over a stream of bus beats, one beat per cycle at any bus width.
//!
//! Each beat holds `in_cnt` bytes from lane 0 (a message's beats are full but for its last).
//! The state advances over the whole beat in one matrix step ([`super::math::beat_rows`]) with
//! the lanes past `in_cnt` cleared, so a partial last beat is followed by `BB - in_cnt` zero
//! bytes. Those are taken back by the **unshift** pipeline: [`UNSHIFT_STAGES`] registered
//! stages, stage `k` multiplying by the inverse of `2^k` zero bytes when bit `k` of the pad
//! count is set (the first `log2(BB)`: [`latency`]). A message's state leaves that many cycles after its last beat, whatever
//! its length, and a new message may start on the very next beat: no beat ever waits.
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

/// Unshift stages at most: pads of up to `2^7 - 1` bytes, enough for a 128-byte (1024-bit)
/// beat. A `BB`-byte beat's pad is below `BB`, so only the first `log2(BB)` stages work; the
/// others pass their input through without a register.
pub const UNSHIFT_STAGES: usize = 7;
/// Cycles from a message's last beat to its `out_valid` on a `bb`-byte bus: `log2(bb)`.
pub const fn latency(bb: usize) -> usize {
    bb.trailing_zeros() as usize
}

/// One unshift stage: `y = M·x` if the pad has bit `k` set, else `x`, registered with the pad
/// (bit `k` cleared: the bytes it stood for are taken back) and the valid flag; a stage that
/// is not `live` (its pad bit is never set) passes its inputs straight through.
#[derive(LogicBlock)]
pub struct CrcUnshift {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (clears `valid_out`).
    pub rst: Signal<In, Bit>,
    /// State in.
    pub x: Signal<In, Bits<32>>,
    /// Zero bytes still to take back.
    pub pad: Signal<In, Bits<8>>,
    /// `x` is a message's state.
    pub valid: Signal<In, Bit>,
    /// State out, a cycle later.
    pub y: Signal<Out, Bits<32>>,
    /// `pad` without bit `k`, a cycle later.
    pub pad_out: Signal<Out, Bits<8>>,
    /// `valid`, a cycle later.
    pub valid_out: Signal<Out, Bit>,
    m: XorMatrix<32>,
    r_x: DFF<Bits<32>>,
    r_pad: DFF<Bits<8>>,
    r_v: DFF<Bit>,
    sel: Constant<Bits<8>>,
    live: Constant<Bit>,
}

impl CrcUnshift {
    /// Stage `k`: takes back `2^k` zero bytes when bit `k` of `pad` is set; a wire if not
    /// `live`.
    pub fn new(k: usize, live: bool) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            x: Default::default(),
            pad: Default::default(),
            valid: Default::default(),
            y: Default::default(),
            pad_out: Default::default(),
            valid_out: Default::default(),
            m: XorMatrix::new(&unshift_rows(1 << k)),
            r_x: Default::default(),
            r_pad: Default::default(),
            r_v: Default::default(),
            sel: Constant::new((1u64 << k).into()),
            live: Constant::new(live),
        }
    }
}

impl Logic for CrcUnshift {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_x, r_pad, r_v);
        self.m.x.next = self.x.val();
        if (self.pad.val() & self.sel.val()).any() {
            self.r_x.d.next = self.m.y.val();
        } else {
            self.r_x.d.next = self.x.val();
        }
        self.r_pad.d.next = self.pad.val() & !self.sel.val();
        self.r_v.d.next = self.valid.val() & !self.rst.val();
        if self.live.val() {
            self.y.next = self.r_x.q.val();
            self.pad_out.next = self.r_pad.q.val();
            self.valid_out.next = self.r_v.q.val();
        } else {
            self.y.next = self.x.val();
            self.pad_out.next = self.pad.val();
            self.valid_out.next = self.valid.val();
        }
    }
}

/// CRC32C of messages streamed as `DW`-bit beats (`BB = DW/8` bytes, `XW = DW + 32`: the beat
/// matrix's inputs), one beat per cycle, no backpressure.
#[derive(LogicBlock)]
pub struct Crc32cBeat<const DW: usize, const BB: usize, const XW: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (drops the messages in the unshift pipeline).
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
    /// `out_crc` is a message's, `log2(BB)` cycles after its last beat ([`latency`]; one cycle).
    pub out_valid: Signal<Out, Bit>,
    keep: ByteKeep<BB, DW>,
    cat: Join<DW, 32, XW>,
    fwd: XorMatrix<XW>,
    u0: CrcUnshift,
    u1: CrcUnshift,
    u2: CrcUnshift,
    u3: CrcUnshift,
    u4: CrcUnshift,
    u5: CrcUnshift,
    u6: CrcUnshift,
    acc: DFF<Bits<32>>,
    s_in: Signal<Local, Bits<32>>,
    bb: Constant<Bits<8>>,
    bb_m1: Constant<Bits<8>>,
}

impl<const DW: usize, const BB: usize, const XW: usize> Default for Crc32cBeat<DW, BB, XW> {
    fn default() -> Self {
        assert_eq!(8 * BB, DW, "Crc32cBeat: BB must be DW/8");
        assert_eq!(DW + 32, XW, "Crc32cBeat: XW must be DW+32");
        assert!(BB.is_power_of_two() && BB <= 1 << UNSHIFT_STAGES);
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
            u0: CrcUnshift::new(0, 0 < latency(BB)),
            u1: CrcUnshift::new(1, 1 < latency(BB)),
            u2: CrcUnshift::new(2, 2 < latency(BB)),
            u3: CrcUnshift::new(3, 3 < latency(BB)),
            u4: CrcUnshift::new(4, 4 < latency(BB)),
            u5: CrcUnshift::new(5, 5 < latency(BB)),
            u6: CrcUnshift::new(6, 6 < latency(BB)),
            acc: Default::default(),
            s_in: Default::default(),
            bb: Constant::new((BB as u64).into()),
            bb_m1: Constant::new((BB as u64 - 1).into()),
        }
    }
}

impl<const DW: usize, const BB: usize, const XW: usize> Logic for Crc32cBeat<DW, BB, XW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, acc);
        self.u0.clock.next = self.clock.val();
        self.u1.clock.next = self.clock.val();
        self.u2.clock.next = self.clock.val();
        self.u3.clock.next = self.clock.val();
        self.u4.clock.next = self.clock.val();
        self.u5.clock.next = self.clock.val();
        self.u6.clock.next = self.clock.val();
        self.u0.rst.next = self.rst.val();
        self.u1.rst.next = self.rst.val();
        self.u2.rst.next = self.rst.val();
        self.u3.rst.next = self.rst.val();
        self.u4.rst.next = self.rst.val();
        self.u5.rst.next = self.rst.val();
        self.u6.rst.next = self.rst.val();
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
        // ---- a message's last state, less the zero bytes after its last byte
        self.u0.x.next = self.fwd.y.val();
        self.u0.pad.next = (self.bb.val() - self.in_cnt.val()) & self.bb_m1.val();
        self.u0.valid.next = self.in_valid.val() & self.in_last.val();
        self.u1.x.next = self.u0.y.val();
        self.u1.pad.next = self.u0.pad_out.val();
        self.u1.valid.next = self.u0.valid_out.val();
        self.u2.x.next = self.u1.y.val();
        self.u2.pad.next = self.u1.pad_out.val();
        self.u2.valid.next = self.u1.valid_out.val();
        self.u3.x.next = self.u2.y.val();
        self.u3.pad.next = self.u2.pad_out.val();
        self.u3.valid.next = self.u2.valid_out.val();
        self.u4.x.next = self.u3.y.val();
        self.u4.pad.next = self.u3.pad_out.val();
        self.u4.valid.next = self.u3.valid_out.val();
        self.u5.x.next = self.u4.y.val();
        self.u5.pad.next = self.u4.pad_out.val();
        self.u5.valid.next = self.u4.valid_out.val();
        self.u6.x.next = self.u5.y.val();
        self.u6.pad.next = self.u5.pad_out.val();
        self.u6.valid.next = self.u5.valid_out.val();
        self.out_crc.next = self.u6.y.val();
        // Every pad bit has been taken back by now (the check costs a few gates and keeps
        // the last stage's pad read).
        self.out_valid.next = self.u6.valid_out.val() & !self.u6.pad_out.val().any();
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
