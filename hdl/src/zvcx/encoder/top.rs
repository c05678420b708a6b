//! [`ZvcxCompressor`] (Verilog `cdma_zvcx_compressor`): one 32-element block per cycle in,
//! the chunk's ZVC-X payload (`cdma_model::zvcx::encode`) out in 128-byte words, for every
//! element type.
//!
//! Pipeline (each stage's logic a register-free child reading registers only):
//! 0. the input register (`s0_*`) takes a block when `in_ready`;
//! 1. [`Analyze`] → register `s1_*`: non-zeros, repeats, largest exponent, escape counts and
//!    the cheapest (repeat, positions, k);
//! 2. [`Head`] (raw vs coded against `prev`, the chunk's previous coded largest exponent, and
//!    the head bits), [`Fields`] → `ZvcSteer` + `Compact` (the kept lanes to the bottom) →
//!    [`StridePack`] → [`Assemble`] → register `s2_*`: the block's bit string;
//! 3. [`Packer`]: the bit string ORed onto the holding register; full words and, at a
//!    chunk's end, the byte-padded rest go to the output register (`o_*`).
//!
//! Stages 0..2 move together (`adv`) whenever stage 2 is empty or the packer takes its
//! block; the packer steps whenever the output register is free. `in_ready` depends on
//! registers and `out_ready` only.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::analyze::Analyze;
use super::assemble::{Assemble, BLOCK_BITS};
use super::fields::Fields;
use super::head::Head;
use super::info::INFO_BITS;
use super::packer::Packer;
use crate::port_docs::PortDocs;
use crate::prims::{Compact, EnReg, StridePack};
use crate::steer::ZvcSteer;
use crate::zvcx::ElemParams;

/// Port documentation of the ZVC-X compressor (the `///` comments of its port fields).
pub static ZVCX_COMPRESSOR_PORTS: PortDocs =
    PortDocs::new(include_str!("top.rs"), "ZvcxCompressor");

/// The ZVC-X block compressor.
#[derive(LogicBlock)]
pub struct ZvcxCompressor {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: drops every block and bit held.
    pub rst: Signal<In, Bit>,
    /// Element type code (`cdma_spec::zvcx` `ELEM_TYPES`), sampled with each block.
    pub ty: Signal<In, Bits<3>>,
    /// Raw width code (0 = 8, 1 = 16, 2 = 32 bits) for `ty` = raw, sampled with each block.
    pub elem: Signal<In, Bits<2>>,
    /// One block: element `i` in bits `[32i +: 32]`, zero-extended from its width; lanes at
    /// and above `in_len` zero.
    pub in_data: Signal<In, Bits<1024>>,
    /// Elements in this block, 1..32 (< 32 only for a chunk's last block).
    pub in_len: Signal<In, Bits<6>>,
    /// Last block of the chunk: the chunk's bits are padded to a byte and its last word
    /// carries `out_last`; the next block starts a new chunk.
    pub in_last: Signal<In, Bit>,
    /// Input handshake: valid.
    pub in_valid: Signal<In, Bit>,
    /// Input handshake: the block is taken this cycle if `in_valid`.
    pub in_ready: Signal<Out, Bit>,
    /// 128 payload bytes, byte `j` in bits `[8j +: 8]`; stream bit `i` is bit `i % 8` of
    /// byte `i / 8`.
    pub out_data: Signal<Out, Bits<1024>>,
    /// Valid bytes of this word: 128, except the chunk's last word (1..128); bytes above are
    /// zero.
    pub out_bytes: Signal<Out, Bits<8>>,
    /// Last word of the chunk's payload.
    pub out_last: Signal<Out, Bit>,
    /// Output handshake: valid.
    pub out_valid: Signal<Out, Bit>,
    /// Output handshake: the word is taken this cycle if `out_valid`.
    pub out_ready: Signal<In, Bit>,
    // ---- stage 0: input register
    s0_d: EnReg<1024>,
    s0_len: DFF<Bits<6>>,
    s0_last: DFF<Bit>,
    s0_ty: DFF<Bits<3>>,
    s0_el: DFF<Bits<2>>,
    s0_v: DFF<Bit>,
    p0: ElemParams,
    an: Analyze,
    // ---- stage 1
    s1_d: EnReg<1024>,
    s1_i: EnReg<INFO_BITS>,
    s1_last: DFF<Bit>,
    s1_ty: DFF<Bits<3>>,
    s1_el: DFF<Bits<2>>,
    s1_v: DFF<Bit>,
    p1: ElemParams,
    hd: Head,
    fd: Fields,
    steer: ZvcSteer,
    net: Compact<32, 1024>,
    sp: StridePack,
    asm: Assemble,
    prev: DFF<Bits<8>>,
    prev_v: DFF<Bit>,
    // ---- stage 2
    s2_b: EnReg<BLOCK_BITS>,
    s2_len: DFF<Bits<11>>,
    s2_last: DFF<Bit>,
    s2_v: DFF<Bit>,
    // ---- stage 3: packer and output register
    pk: Packer,
    hold: EnReg<BLOCK_BITS>,
    hc: DFF<Bits<11>>,
    pend: DFF<Bit>,
    o_d: EnReg<1024>,
    o_bytes: DFF<Bits<8>>,
    o_last: DFF<Bit>,
    o_v: DFF<Bit>,
    // ---- locals
    adv: Signal<Local, Bit>,
    // ---- constants
    zero11: Constant<Bits<11>>,
}

impl Default for ZvcxCompressor {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            ty: Default::default(),
            elem: Default::default(),
            in_data: Default::default(),
            in_len: Default::default(),
            in_last: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_bytes: Default::default(),
            out_last: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            s0_d: Default::default(),
            s0_len: Default::default(),
            s0_last: Default::default(),
            s0_ty: Default::default(),
            s0_el: Default::default(),
            s0_v: Default::default(),
            p0: Default::default(),
            an: Default::default(),
            s1_d: Default::default(),
            s1_i: Default::default(),
            s1_last: Default::default(),
            s1_ty: Default::default(),
            s1_el: Default::default(),
            s1_v: Default::default(),
            p1: Default::default(),
            hd: Default::default(),
            fd: Default::default(),
            steer: Default::default(),
            net: Default::default(),
            sp: Default::default(),
            asm: Default::default(),
            prev: Default::default(),
            prev_v: Default::default(),
            s2_b: Default::default(),
            s2_len: Default::default(),
            s2_last: Default::default(),
            s2_v: Default::default(),
            pk: Default::default(),
            hold: Default::default(),
            hc: Default::default(),
            pend: Default::default(),
            o_d: Default::default(),
            o_bytes: Default::default(),
            o_last: Default::default(),
            o_v: Default::default(),
            adv: Default::default(),
            zero11: Constant::new(0u64.into()),
        }
    }
}

impl Logic for ZvcxCompressor {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s0_len, s0_last, s0_ty, s0_el, s0_v, s1_last, s1_ty, s1_el, s1_v, prev,
            prev_v, s2_len, s2_last, s2_v, hc, pend, o_bytes, o_last, o_v
        );
        clock!(self, clock, s0_d, s1_d, s1_i, s2_b, hold, o_d);
        // ---- flow control: the packer decides what moves (from registers and out_ready)
        self.pk.ov.next = self.o_v.q.val();
        self.pk.out_ready.next = self.out_ready.val();
        self.pk.v2.next = self.s2_v.q.val();
        self.pk.hold.next = self.hold.q.val();
        self.pk.hc.next = self.hc.q.val();
        self.pk.pend.next = self.pend.q.val();
        self.pk.blk.next = self.s2_b.q.val();
        self.pk.blen.next = self.s2_len.q.val();
        self.pk.blast.next = self.s2_last.q.val();
        self.adv.next = self.pk.adv.val() & !self.rst.val();
        self.in_ready.next = self.adv.val();
        // ---- stage 0
        self.s0_d.d.next = self.in_data.val();
        self.s0_d.en.next = self.adv.val() & self.in_valid.val();
        self.s0_d.clr.next = false;
        if self.adv.val() {
            self.s0_v.d.next = self.in_valid.val();
            self.s0_len.d.next = self.in_len.val();
            self.s0_last.d.next = self.in_last.val();
            self.s0_ty.d.next = self.ty.val();
            self.s0_el.d.next = self.elem.val();
        }
        self.p0.ty.next = self.s0_ty.q.val();
        self.p0.elem.next = self.s0_el.q.val();
        self.an.d.next = self.s0_d.q.val();
        self.an.len.next = self.s0_len.q.val();
        self.an.w.next = self.p0.width.val();
        self.an.e.next = self.p0.exp_bits.val();
        self.an.m.next = self.p0.man_bits.val();
        self.an.kb.next = self.p0.k_bits.val();
        self.an.fl.next = self.p0.float.val();
        // ---- stage 1
        self.s1_d.d.next = self.s0_d.q.val();
        self.s1_d.en.next = self.adv.val();
        self.s1_d.clr.next = false;
        self.s1_i.d.next = self.an.info.val();
        self.s1_i.en.next = self.adv.val();
        self.s1_i.clr.next = false;
        if self.adv.val() {
            self.s1_v.d.next = self.s0_v.q.val();
            self.s1_last.d.next = self.s0_last.q.val();
            self.s1_ty.d.next = self.s0_ty.q.val();
            self.s1_el.d.next = self.s0_el.q.val();
        }
        self.p1.ty.next = self.s1_ty.q.val();
        self.p1.elem.next = self.s1_el.q.val();
        self.hd.info.next = self.s1_i.q.val().get_bits::<107>(0);
        self.hd.prev_v.next = self.prev_v.q.val();
        self.hd.prev.next = self.prev.q.val();
        self.hd.w.next = self.p1.width.val();
        self.hd.e.next = self.p1.exp_bits.val();
        self.hd.kb.next = self.p1.k_bits.val();
        self.hd.fl.next = self.p1.float.val();
        self.fd.d.next = self.s1_d.q.val();
        self.fd.info.next = self.s1_i.q.val().get_bits::<85>(86);
        self.fd.raw.next = self.hd.raw.val();
        self.fd.w.next = self.p1.width.val();
        self.fd.e.next = self.p1.exp_bits.val();
        self.fd.m.next = self.p1.man_bits.val();
        self.fd.fl.next = self.p1.float.val();
        self.steer.mask.next = self.fd.keep.val();
        self.net.d.next = self.fd.f.val();
        for k in 0..5 {
            self.net.mv[k].next = self.steer.mv[k].val();
        }
        self.net.keep.next = self.steer.st[4].val() | (self.steer.mv[4].val() >> 16);
        self.sp.d.next = self.net.y.val();
        self.sp.fw.next = self.fd.fw.val();
        self.asm.head.next = self.hd.head.val();
        self.asm.hlen.next = self.hd.hlen.val();
        self.asm.pf.next = self.sp.y.val();
        self.asm.flen.next = self.fd.flen.val();
        self.asm.escv.next = self.fd.escv.val();
        self.asm.elen.next = self.fd.elen.val();
        // (`#[hdl_gen]` takes only literal slice bounds: 0 +: HEAD_INFO = 107 for Head,
        // FIELDS_INFO_AT = 86 +: FIELDS_INFO = 85 for Fields and max_exp; info.rs checks them.)
        // The loop: prev -> Head (raw vs coded) -> prev. Forgotten after a chunk's last block.
        if self.adv.val() & self.s1_v.q.val() {
            if self.s1_last.q.val() {
                self.prev_v.d.next = false;
            } else if self.hd.coded.val() {
                self.prev_v.d.next = true;
                self.prev.d.next = self.s1_i.q.val().get_bits::<8>(86);
            }
        }
        // ---- stage 2
        self.s2_b.d.next = self.asm.blk.val();
        self.s2_b.en.next = self.adv.val();
        self.s2_b.clr.next = false;
        if self.adv.val() {
            self.s2_v.d.next = self.s1_v.q.val();
            self.s2_len.d.next = self.asm.blen.val();
            self.s2_last.d.next = self.s1_last.q.val();
        }
        // ---- stage 3: packer
        self.hold.d.next = self.pk.nhold.val();
        self.hold.en.next = self.pk.step.val();
        self.hold.clr.next = self.rst.val();
        self.o_d.d.next = self.pk.word.val();
        self.o_d.en.next = self.pk.step.val() & self.pk.emit.val();
        self.o_d.clr.next = false;
        if self.pk.step.val() {
            self.hc.d.next = self.pk.nhc.val();
            self.pend.d.next = self.pk.npend.val();
            self.o_v.d.next = self.pk.emit.val();
            self.o_bytes.d.next = self.pk.bytes.val();
            self.o_last.d.next = self.pk.wlast.val();
        }
        if self.rst.val() {
            self.s0_v.d.next = false;
            self.s1_v.d.next = false;
            self.s2_v.d.next = false;
            self.prev_v.d.next = false;
            self.hc.d.next = self.zero11.val();
            self.pend.d.next = false;
            self.o_v.d.next = false;
        }
        self.out_data.next = self.o_d.q.val();
        self.out_bytes.next = self.o_bytes.q.val();
        self.out_last.next = self.o_last.q.val();
        self.out_valid.next = self.o_v.q.val();
    }
}
