//! `ZvcBusCompressor`: bus beats of raw data in, bus beats of the ZVC payload (or of the raw
//! bytes) out, one beat per cycle, for every element width in one datapath.
//!
//! Stages (docs/ARCHITECTURE.md, "Bus codec"):
//! 1. **Block queue** ([`RegQueue`], up to `k` beats): a block of `32·E/8` bytes spans
//!    `k = 32·E/8 / N` beats when it is wider than the bus, and its mask goes *in front* of its
//!    elements, so its first beat waits here until the block's last beat has arrived and the
//!    mask, gathered beat by beat (`acc`), is complete (`mask_r`, `mask_ok`). Blocks that fit
//!    in a beat (`k = 1`) take their masks from the beat itself and pass after one cycle.
//! 2. **Lanes and compaction** ([`ElemFlags`], [`BeatLanes`], [`ByteCompact`]): the head beat
//!    as byte lanes with the masks as always-kept lanes in front of their blocks, kept iff
//!    their element is non-zero (raw beats: every valid byte, no mask), compacted in order;
//!    registered (`c_*`).
//! 3. **Packer**: the compacted bytes appended to a buffer of `N + L` bytes whose bottom `N`
//!    bytes are the output beat; a full beat leaves when more than `N` bytes are held (so
//!    the last beat can carry `out_last`), and after the stream's last beat the rest leaves
//!    with byte strobes.
//!
//! A stream is the beats of one transfer: chunks back to back (`in_end` closes a chunk's
//! final, possibly partial, block; chunks other than the stream's last are whole blocks), the
//! last beat with `in_last`. After `in_last` no beat is taken until the stream's last output
//! beat has left. `in_ready` depends on registers and `out_ready` only.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::beat_lanes::BeatLanes;
use super::block_geom::BlockGeom;
use super::elem_flags::{ElemFlags, Low32};
use super::packer_dp::PackerDatapath;
use crate::port_docs::PortDocs;
use crate::prims::{ByteCompact, EnReg, RegQueue, ZeroExtend};

/// Port documentation of the bus compressor, in Verilog port order (the `///` comments of
/// its port fields below).
pub static BUS_COMPRESSOR_PORTS: PortDocs = PortDocs::new(include_str!("compressor.rs"), "$name");

/// Queue entry tag: bits 7:0 the valid bytes, then these flags. The beat is stored raw.
const F_RAW: u64 = 1 << 8;
/// Queue entry tag flag: the stream's last beat.
const F_LAST: u64 = 1 << 9;
/// Queue entry tag flag: the first beat of a block.
const F_FIRST: u64 = 1 << 10;

macro_rules! bus_compressor {
    (
        $(#[$doc:meta])*
        $name:ident, n: $n:tt, w: $w:tt, l: $l:tt, wl: $wl:tt, fw: $fw:tt, d: $d:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high: drops everything held.
            pub rst: Signal<In, Bit>,
            /// Element width code of the stream (0 = 8, 1 = 16, 2 = 32 bits), held stable while a
            /// stream is in flight.
            pub elem: Signal<In, Bits<2>>,
            /// Input beat: byte `j` in bits `[8j +: 8]`.
            pub in_data: Signal<In, Bits<$w>>,
            /// Valid bytes of the input beat (1..N; the bytes above are ignored).
            pub in_cnt: Signal<In, Bits<8>>,
            /// Store this beat's bytes unchanged (a raw chunk, COPY) instead of ZVC-encoding it.
            pub in_raw: Signal<In, Bit>,
            /// Last beat of a chunk: its final block ends here (partial if the chunk ends
            /// inside a block).
            pub in_end: Signal<In, Bit>,
            /// Last beat of the stream (implies `in_end`): flush the output after it.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Output beat: the stream's output bytes in order, byte `j` in bits `[8j +: 8]`
            /// (bytes without a strobe are zero).
            pub out_data: Signal<Out, Bits<$w>>,
            /// Byte strobes: all ones except on the stream's final beat.
            pub out_strb: Signal<Out, Bits<$n>>,
            /// The stream's last output beat.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            // ---- stage 1: block queue
            bq: RegQueue<$w, 11, $d>,
            tag: ZeroExtend<8, 11>,
            fin: ElemFlags<$n, $w>,
            fin32: Low32<$n>,
            bpos: DFF<Bits<3>>,
            boff: DFF<Bits<5>>,
            acc: DFF<Bits<32>>,
            mask_r: DFF<Bits<32>>,
            mask_ok: DFF<Bit>,
            drain: DFF<Bit>,
            // ---- stage 2: lanes, compaction, register
            fh: ElemFlags<$n, $w>,
            lanes: BeatLanes<$n, $w, $l, $wl>,
            net: ByteCompact<$l, $wl>,
            c_data: EnReg<$wl>,
            c_n: DFF<Bits<12>>,
            c_last: DFF<Bit>,
            c_valid: DFF<Bit>,
            // ---- stage 3: packer
            sbuf: EnReg<$fw>,
            b: DFF<Bits<12>>,
            fl: DFF<Bit>,
            pdp: PackerDatapath<$n, $w, $wl, $fw>,
            geom: BlockGeom<$n>,
            kx: ZeroExtend<3, 4>,
            // ---- locals
            kone: Signal<Local, Bit>,
            km1: Signal<Local, Bits<3>>,
            g: Signal<Local, Bits<5>>,
            bend: Signal<Local, Bit>,
            take: Signal<Local, Bit>,
            first_in: Signal<Local, Bit>,
            acc_in: Signal<Local, Bits<32>>,
            tag_in: Signal<Local, Bits<11>>,
            hv: Signal<Local, Bit>,
            need_mask: Signal<Local, Bit>,
            pop: Signal<Local, Bit>,
            c_take: Signal<Local, Bit>,
            full: Signal<Local, Bit>,
            le2: Signal<Local, Bit>,
            ovalid: Signal<Local, Bit>,
            olast: Signal<Local, Bit>,
            emit: Signal<Local, Bit>,
            pos: Signal<Local, Bits<12>>,
            // ---- constants
            zero5: Constant<Bits<5>>,
            zero_q: Constant<Bits<4>>,
            zero3: Constant<Bits<3>>,
            one3: Constant<Bits<3>>,
            zero32: Constant<Bits<32>>,
            zero12: Constant<Bits<12>>,
            beat: Constant<Bits<12>>,
            beat2: Constant<Bits<12>>,
            f_raw: Constant<Bits<11>>,
            f_last: Constant<Bits<11>>,
            f_first: Constant<Bits<11>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    elem: Default::default(),
                    in_data: Default::default(),
                    in_cnt: Default::default(),
                    in_raw: Default::default(),
                    in_end: Default::default(),
                    in_last: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_data: Default::default(),
                    out_strb: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    bq: Default::default(),
                    tag: Default::default(),
                    fin: Default::default(),
                    fin32: Default::default(),
                    bpos: Default::default(),
                    boff: Default::default(),
                    acc: Default::default(),
                    mask_r: Default::default(),
                    mask_ok: Default::default(),
                    drain: Default::default(),
                    fh: Default::default(),
                    lanes: Default::default(),
                    net: Default::default(),
                    c_data: Default::default(),
                    c_n: Default::default(),
                    c_last: Default::default(),
                    c_valid: Default::default(),
                    sbuf: Default::default(),
                    b: Default::default(),
                    fl: Default::default(),
                    pdp: Default::default(),
                    geom: Default::default(),
                    kx: Default::default(),
                    kone: Default::default(),
                    km1: Default::default(),
                    g: Default::default(),
                    bend: Default::default(),
                    take: Default::default(),
                    first_in: Default::default(),
                    acc_in: Default::default(),
                    tag_in: Default::default(),
                    hv: Default::default(),
                    need_mask: Default::default(),
                    pop: Default::default(),
                    c_take: Default::default(),
                    full: Default::default(),
                    le2: Default::default(),
                    ovalid: Default::default(),
                    olast: Default::default(),
                    emit: Default::default(),
                    pos: Default::default(),
                    zero5: Constant::new(0.into()),
                    zero_q: Constant::new(0.into()),
                    zero3: Constant::new(0.into()),
                    one3: Constant::new(1.into()),
                    zero32: Constant::new(0.into()),
                    zero12: Constant::new(0.into()),
                    beat: Constant::new($n.into()),
                    beat2: Constant::new((2 * $n).into()),
                    f_raw: Constant::new(F_RAW.into()),
                    f_last: Constant::new(F_LAST.into()),
                    f_first: Constant::new(F_FIRST.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, bpos, boff, acc, mask_r, mask_ok, drain, c_n, c_last, c_valid, b, fl);
                clock!(self, clock, bq, c_data, sbuf);
                // ---- the element width (BlockGeom): beats per block - 1 (the block queue
                // holds up to k beats), elements per beat when a block spans several beats
                self.geom.elem.next = self.elem.val();
                self.km1.next = self.geom.km1.val();
                self.g.next = self.geom.g.val();
                self.kx.x.next = self.geom.km1.val();
                self.kone.next = self.km1.val() == self.zero3.val();
                // ---- stage 3 control first: what the packer takes decides what moves
                self.full.next = self.b.q.val() > self.beat.val();
                self.ovalid.next = self.full.val() | self.fl.q.val();
                self.olast.next = self.fl.q.val() & !self.full.val();
                self.emit.next = self.ovalid.val() & self.out_ready.val();
                self.pos.next = self.b.q.val();
                if self.emit.val() {
                    if self.full.val() {
                        self.pos.next = self.b.q.val() - self.beat.val();
                    } else {
                        self.pos.next = self.zero12.val();
                    }
                }
                // C moves in when the buffer will hold at most a beat (pos <= N), decided
                // from b's register and out_ready, not from pos (a subtract the handshakes
                // would wait for): without a full beat leaving pos = b (or 0), with one
                // pos = b - N.
                self.le2.next = self.b.q.val() <= self.beat2.val();
                self.c_take.next = self.c_valid.q.val()
                    & !self.fl.q.val()
                    & (!self.full.val() | (self.emit.val() & self.le2.val()));
                // ---- stage 2: the head beat leaves the queue into the C register
                self.hv.next = self.bq.count.val() != self.zero_q.val();
                self.need_mask.next =
                    !self.kone.val() & !self.bq.qt.val().get_bit(8) & self.bq.qt.val().get_bit(10);
                self.pop.next = self.hv.val()
                    & (!self.c_valid.q.val() | self.c_take.val())
                    & (!self.need_mask.val() | self.mask_ok.q.val())
                    & !self.rst.val();
                self.fh.d.next = self.bq.q.val();
                self.fh.cnt.next = self.bq.qt.val().get_bits::<8>(0);
                self.fh.elem.next = self.elem.val();
                self.lanes.d.next = self.bq.q.val();
                self.lanes.ef.next = self.fh.ef.val();
                self.lanes.cnt.next = self.bq.qt.val().get_bits::<8>(0);
                self.lanes.elem.next = self.elem.val();
                self.lanes.raw.next = self.bq.qt.val().get_bit(8);
                self.lanes.first.next = self.bq.qt.val().get_bit(10);
                self.lanes.kmask.next = self.mask_r.q.val();
                self.net.d.next = self.lanes.y.val();
                self.net.keep.next = self.lanes.ykeep.val();
                self.c_data.d.next = self.net.y.val();
                self.c_data.en.next = self.pop.val();
                self.c_data.clr.next = self.rst.val();
                if self.pop.val() {
                    self.c_n.d.next = self.net.n.val();
                    self.c_last.d.next = self.bq.qt.val().get_bit(9);
                }
                self.c_valid.d.next = self.pop.val() | (self.c_valid.q.val() & !self.c_take.val());
                // ---- stage 1: a beat arrives
                self.in_ready.next = !self.rst.val()
                    & !self.drain.q.val()
                    & ((self.bq.count.val() <= self.kx.y.val()) | self.pop.val());
                self.take.next = self.in_valid.val() & self.in_ready.val();
                self.first_in.next = self.bpos.q.val() == self.zero3.val();
                self.fin.d.next = self.in_data.val();
                self.fin.cnt.next = self.in_cnt.val();
                self.fin.elem.next = self.elem.val();
                self.acc_in.next = self.acc.q.val();
                if self.first_in.val() {
                    self.acc_in.next = self.zero32.val();
                }
                self.fin32.x.next = self.fin.ef.val();
                self.acc_in.next = self.acc_in.val() | (self.fin32.y.val() << self.boff.q.val());
                self.bend.next = self.in_end.val() | (self.bpos.q.val() == self.km1.val());
                self.tag.x.next = self.in_cnt.val();
                self.tag_in.next = self.tag.y.val();
                if self.in_raw.val() {
                    self.tag_in.next = self.tag_in.val() | self.f_raw.val();
                }
                if self.in_last.val() {
                    self.tag_in.next = self.tag_in.val() | self.f_last.val();
                }
                if self.first_in.val() {
                    self.tag_in.next = self.tag_in.val() | self.f_first.val();
                }
                self.bq.d.next = self.in_data.val();
                self.bq.t.next = self.tag_in.val();
                self.bq.push.next = self.take.val();
                self.bq.pop.next = self.pop.val();
                self.bq.rst.next = self.rst.val();
                if self.pop.val() & self.need_mask.val() {
                    self.mask_ok.d.next = false;
                }
                if self.take.val() & !self.in_raw.val() {
                    self.acc.d.next = self.acc_in.val();
                    if !self.kone.val() & self.bend.val() {
                        self.mask_r.d.next = self.acc_in.val();
                        self.mask_ok.d.next = true;
                    }
                }
                if self.take.val() {
                    self.bpos.d.next = self.bpos.q.val() + self.one3.val();
                    self.boff.d.next = self.boff.q.val() + self.g.val();
                    if self.bend.val() {
                        self.bpos.d.next = self.zero3.val();
                        self.boff.d.next = self.zero5.val();
                    }
                    if self.in_last.val() {
                        self.drain.d.next = true;
                    }
                }
                // ---- stage 3: the packer
                self.pdp.sbuf.next = self.sbuf.q.val();
                self.pdp.shift.next = self.emit.val();
                self.pdp.c.next = self.c_data.q.val();
                self.pdp.take.next = self.c_take.val();
                self.pdp.pos.next = self.pos.val();
                self.pdp.b.next = self.b.q.val();
                self.sbuf.d.next = self.pdp.nxt.val();
                self.sbuf.en.next = self.emit.val() | self.c_take.val();
                self.sbuf.clr.next = self.rst.val();
                self.b.d.next = self.pos.val();
                if self.c_take.val() {
                    self.b.d.next = self.pos.val() + self.c_n.q.val();
                    if self.c_last.q.val() {
                        self.fl.d.next = true;
                    }
                }
                if self.emit.val() & self.olast.val() {
                    self.fl.d.next = false;
                    self.drain.d.next = false;
                }
                if self.rst.val() {
                    self.bpos.d.next = self.zero3.val();
                    self.boff.d.next = self.zero5.val();
                    self.mask_ok.d.next = false;
                    self.drain.d.next = false;
                    self.c_valid.d.next = false;
                    self.b.d.next = self.zero12.val();
                    self.fl.d.next = false;
                }
                self.out_data.next = self.pdp.beat.val();
                self.out_strb.next = self.pdp.strb.val();
                self.out_last.next = self.olast.val();
                self.out_valid.next = self.ovalid.val();
            }
        }
    };
}

bus_compressor!(
    /// Bus compressor for a 128-bit bus (16 bytes per beat).
    ZvcBusCompressorDw128, n: 16, w: 128, l: 20, wl: 160, fw: 288, d: 8
);
bus_compressor!(
    /// Bus compressor for a 256-bit bus (32 bytes per beat).
    ZvcBusCompressorDw256, n: 32, w: 256, l: 36, wl: 288, fw: 544, d: 4
);
bus_compressor!(
    /// Bus compressor for a 512-bit bus (64 bytes per beat).
    ZvcBusCompressorDw512, n: 64, w: 512, l: 72, wl: 576, fw: 1088, d: 2
);
bus_compressor!(
    /// Bus compressor for a 1024-bit bus (128 bytes per beat).
    ZvcBusCompressorDw1024, n: 128, w: 1024, l: 144, wl: 1152, fw: 2176, d: 1
);
