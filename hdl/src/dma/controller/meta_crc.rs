//! [`MetaCrc`]: the controller's metadata CRC32C (docs/FORMAT.md "Version 4: CRC32C": CRC32C
//! of the index bytes, then the 32 header bytes), kept as a raw state `mc`.
//!
//! COMPRESS: `init` at the start, each index entry as it is decided (`entry`, 8 bytes), then
//! the header's four 8-byte quarters (`hstep`, one per cycle, `hlast` on the fourth): `crc`
//! in that fourth cycle is the metadata CRC to write. DECOMPRESS: the datapath's CRC unit runs over the index
//! beats (the metadata pass) and its raw state is `load`ed, the header quarters follow, and
//! `ok` (with `hlast`) compares `crc` with the stored word (`exp`).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::super::check::HDR_BITS;
use crate::crc::math::INIT;
use crate::crc::Crc32cStep8;

/// The metadata CRC (see the module doc).
#[derive(LogicBlock)]
pub struct MetaCrc {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Pulse: the state starts over (`0xFFFF_FFFF`) and the header quarter count too.
    pub init: Signal<In, Bit>,
    /// Pulse: 8 index bytes, `entry` (first byte lowest), go into the state.
    pub push: Signal<In, Bit>,
    /// The index entry: its word in bits 31:0, its CRC in 63:32.
    pub entry: Signal<In, Bits<64>>,
    /// Level: the next header quarter goes into the state, one per cycle.
    pub hstep: Signal<In, Bit>,
    /// The frame header, byte `i` at bits `[8i +: 8]`.
    pub hdr: Signal<In, Bits<HDR_BITS>>,
    /// Pulse: the state becomes `lstate` (and the header quarter count starts over).
    pub load: Signal<In, Bit>,
    /// The raw state to load (the datapath's, after the index).
    pub lstate: Signal<In, Bits<32>>,
    /// The stored metadata CRC (DECOMPRESS).
    pub exp: Signal<In, Bits<32>>,
    /// The CRC after this cycle's step (`hstep`, else the entry's: the raw state after it,
    /// inverted): with `hlast`, the metadata CRC.
    pub crc: Signal<Out, Bits<32>>,
    /// The header quarter `hstep` takes now is the last (the fourth).
    pub hlast: Signal<Out, Bit>,
    /// `crc` equals the stored metadata CRC.
    pub ok: Signal<Out, Bit>,
    step: Crc32cStep8,
    mc: DFF<Bits<32>>,
    hk: DFF<Bits<2>>,
    hq: Signal<Local, Bits<64>>,
    init_c: Constant<Bits<32>>,
    hk_two: Constant<Bits<2>>,
    hk_one: Constant<Bits<2>>,
    hk_zero: Constant<Bits<2>>,
    hk_last: Constant<Bits<2>>,
}

impl Default for MetaCrc {
    fn default() -> Self {
        assert_eq!(HDR_BITS, 4 * 64, "the header is four 8-byte quarters");
        Self {
            clock: Default::default(),
            init: Default::default(),
            push: Default::default(),
            entry: Default::default(),
            hstep: Default::default(),
            hdr: Default::default(),
            load: Default::default(),
            lstate: Default::default(),
            exp: Default::default(),
            crc: Default::default(),
            hlast: Default::default(),
            ok: Default::default(),
            step: Default::default(),
            mc: Default::default(),
            hk: Default::default(),
            hq: Default::default(),
            init_c: Constant::new(u64::from(INIT).into()),
            hk_two: Constant::new(2u64.into()),
            hk_one: Constant::new(1u64.into()),
            hk_zero: Constant::new(0u64.into()),
            hk_last: Constant::new(3u64.into()),
        }
    }
}

impl Logic for MetaCrc {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, mc, hk);
        self.step.s.next = self.mc.q.val();
        // Header quarter hk: bytes 8·hk .. 8·hk + 8.
        if self.hk.q.val() == self.hk_zero.val() {
            self.hq.next = self.hdr.val().get_bits::<64>(0);
        } else if self.hk.q.val() == self.hk_one.val() {
            self.hq.next = self.hdr.val().get_bits::<64>(64);
        } else if self.hk.q.val() == self.hk_two.val() {
            self.hq.next = self.hdr.val().get_bits::<64>(128);
        } else {
            self.hq.next = self.hdr.val().get_bits::<64>(192);
        }
        if self.hstep.val() {
            self.step.d.next = self.hq.val();
        } else {
            self.step.d.next = self.entry.val();
        }
        if self.hstep.val() {
            self.mc.d.next = self.step.y.val();
            self.hk.d.next = self.hk.q.val() + self.hk_one.val();
        } else if self.push.val() {
            self.mc.d.next = self.step.y.val();
        }
        if self.init.val() {
            self.mc.d.next = self.init_c.val();
            self.hk.d.next = self.hk_zero.val();
        }
        if self.load.val() {
            self.mc.d.next = self.lstate.val();
            self.hk.d.next = self.hk_zero.val();
        }
        self.crc.next = !self.step.y.val();
        self.hlast.next = self.hk.q.val() == self.hk_last.val();
        self.ok.next = self.crc.val() == self.exp.val();
    }
}
