//! [`ZvcxDecompressor`] (Verilog `cdma_zvcx_decompressor`): ZVC-X payload words in, one
//! decoded 32-element block per cycle out, every rule of docs/FORMAT.md checked.
//!
//! Pipeline: the bit buffer ([`ZvcxBitBuf`], 3 words) and the length scanner ([`ZvcxScan`])
//! form the one loop (buffer register -> scanner -> shift -> buffer register); a measured
//! block is copied with its header into stage 1; the unpack stage ([`ZvcxUnpack`]) decodes
//! stage 1 into the output register. Latency: 2 cycles from the block's bits being buffered.
//!
//! Chunks: the first word of a chunk latches `ty`, `elem` and `in_elems`; blocks are taken
//! while elements are left; the chunk's last block also checks that the `in_last` word has
//! arrived (else more payload follows: excess), that fewer than 8 bits follow it and that they
//! are zero; then the buffer is cleared. No word of the next chunk is taken before that (in
//! that same cycle at the earliest). A block is taken when its measured length fits in the
//! buffer; if it does not and the chunk's payload is all in (or the buffer is full, which no
//! valid block needs), the payload ends inside a block.
//!
//! Errors (sticky `error` until `rst`; then the buffer and stage 1 are cleared, every word is
//! taken and dropped, nothing more is emitted; a block already in the output register is
//! still delivered): any rule of the unpack stage, the ones above, a word with `in_bytes` 0 or
//! above 128 or short but not last, a chunk of 0 or more than 2^24 elements.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::bitbuf::{ZvcxBitBuf, BUF};
use super::scan::ZvcxScan;
use super::tables::{BLK, HDR, WIN};
use super::unpack::ZvcxUnpack;
use crate::port_docs::PortDocs;
use crate::prims::{EnReg, ZeroExtend};
use crate::zvcx::ElemParams;

/// Port documentation of [`ZvcxDecompressor`] (its fields' `///` comments).
pub static DECOMPRESSOR_PORTS: PortDocs = PortDocs::new(include_str!("top.rs"), "ZvcxDecompressor");

/// The ZVC-X block decompressor (see the module docs).
#[derive(LogicBlock)]
pub struct ZvcxDecompressor {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high; clears `error`.
    pub rst: Signal<In, Bit>,
    /// Element type code (cdma_spec::zvcx ELEM_TYPES), latched with a chunk's first word.
    pub ty: Signal<In, Bits<3>>,
    /// Raw width code (0 = 8, 1 = 16, 2 = 32 bits) for ty = raw, latched like ty.
    pub elem: Signal<In, Bits<2>>,
    /// 128 payload bytes, byte j in bits [8j +: 8]; stream bit i is bit i%8 of byte i/8.
    pub in_data: Signal<In, Bits<1024>>,
    /// Valid bytes of the word, 1..128; only a chunk's last word may be short.
    pub in_bytes: Signal<In, Bits<8>>,
    /// Last word of the chunk's payload.
    pub in_last: Signal<In, Bit>,
    /// Elements of the chunk (1..2^24), read with the chunk's first word.
    pub in_elems: Signal<In, Bits<25>>,
    /// Input handshake: the word is valid.
    pub in_valid: Signal<In, Bit>,
    /// Input handshake: the word is taken this cycle if in_valid (never depends on in_valid).
    pub in_ready: Signal<Out, Bit>,
    /// One decoded block, element i in [32i +: 32] zero-extended; lanes >= out_len zero.
    pub out_data: Signal<Out, Bits<1024>>,
    /// Elements in the block (32 except a chunk's last).
    pub out_len: Signal<Out, Bits<6>>,
    /// Last block of the chunk.
    pub out_last: Signal<Out, Bit>,
    /// Output handshake: the block is valid.
    pub out_valid: Signal<Out, Bit>,
    /// Output handshake: the block is taken this cycle if out_valid.
    pub out_ready: Signal<In, Bit>,
    /// Sticky until rst: the payload breaks a rule of docs/FORMAT.md (any ZvcxError) or a word or chunk size is out of range; input is then dropped with in_ready high.
    pub error: Signal<Out, Bit>,
    // --- chunk state and the loop
    ty_r: DFF<Bits<3>>,
    elem_r: DFF<Bits<2>>,
    params: ElemParams,
    bufr: EnReg<BUF>,
    bb: ZvcxBitBuf,
    scan: ZvcxScan,
    cnt: DFF<Bits<12>>,
    left: DFF<Bits<25>>,
    blen: DFF<Bits<6>>,
    tail: DFF<Bit>,
    first: DFF<Bit>,
    err: DFF<Bit>,
    zx_bytes: ZeroExtend<8, 12>,
    zx_blen: ZeroExtend<6, 25>,
    // --- stage 1 and the unpack stage
    s_blk: EnReg<BLK>,
    s_hdr: DFF<Bits<HDR>>,
    s_valid: DFF<Bit>,
    s_last: DFF<Bit>,
    s_coded: DFF<Bit>,
    s_blen: DFF<Bits<6>>,
    s_first: DFF<Bit>,
    s_width: DFF<Bits<6>>,
    s_e: DFF<Bits<4>>,
    s_m: DFF<Bits<5>>,
    s_float: DFF<Bit>,
    prev: DFF<Bits<8>>,
    unpack: ZvcxUnpack,
    // --- output register
    o_data: EnReg<1024>,
    o_len: DFF<Bits<6>>,
    o_last: DFF<Bit>,
    o_valid: DFF<Bit>,
    // --- locals
    active: Signal<Local, Bit>,
    lastblk: Signal<Local, Bit>,
    fits: Signal<Local, Bit>,
    out_free: Signal<Local, Bit>,
    s_free: Signal<Local, Bit>,
    s_adv: Signal<Local, Bit>,
    try_dec: Signal<Local, Bit>,
    blk_err: Signal<Local, Bit>,
    hang: Signal<Local, Bit>,
    dec: Signal<Local, Bit>,
    done: Signal<Local, Bit>,
    rem: Signal<Local, Bits<12>>,
    acc: Signal<Local, Bit>,
    starting: Signal<Local, Bit>,
    word_bad: Signal<Local, Bit>,
    append: Signal<Local, Bit>,
    u_bad: Signal<Local, Bit>,
    o_en: Signal<Local, Bit>,
    left_n: Signal<Local, Bits<25>>,
    // --- constants
    k32_25: Constant<Bits<25>>,
    k0_25: Constant<Bits<25>>,
    kmax_25: Constant<Bits<25>>,
    k32_6: Constant<Bits<6>>,
    k0_12: Constant<Bits<12>>,
    k8_12: Constant<Bits<12>>,
    k2048_12: Constant<Bits<12>>,
    k0_8: Constant<Bits<8>>,
    k128_8: Constant<Bits<8>>,
}

impl Default for ZvcxDecompressor {
    fn default() -> Self {
        ZvcxDecompressor {
            clock: Default::default(),
            rst: Default::default(),
            ty: Default::default(),
            elem: Default::default(),
            in_data: Default::default(),
            in_bytes: Default::default(),
            in_last: Default::default(),
            in_elems: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_len: Default::default(),
            out_last: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            error: Default::default(),
            ty_r: Default::default(),
            elem_r: Default::default(),
            params: Default::default(),
            bufr: Default::default(),
            bb: Default::default(),
            scan: Default::default(),
            cnt: Default::default(),
            left: Default::default(),
            blen: Default::default(),
            tail: Default::default(),
            first: Default::default(),
            err: Default::default(),
            zx_bytes: Default::default(),
            zx_blen: Default::default(),
            s_blk: Default::default(),
            s_hdr: Default::default(),
            s_valid: Default::default(),
            s_last: Default::default(),
            s_coded: Default::default(),
            s_blen: Default::default(),
            s_first: Default::default(),
            s_width: Default::default(),
            s_e: Default::default(),
            s_m: Default::default(),
            s_float: Default::default(),
            prev: Default::default(),
            unpack: Default::default(),
            o_data: Default::default(),
            o_len: Default::default(),
            o_last: Default::default(),
            o_valid: Default::default(),
            active: Default::default(),
            lastblk: Default::default(),
            fits: Default::default(),
            out_free: Default::default(),
            s_free: Default::default(),
            s_adv: Default::default(),
            try_dec: Default::default(),
            blk_err: Default::default(),
            hang: Default::default(),
            dec: Default::default(),
            done: Default::default(),
            rem: Default::default(),
            acc: Default::default(),
            starting: Default::default(),
            word_bad: Default::default(),
            append: Default::default(),
            u_bad: Default::default(),
            o_en: Default::default(),
            left_n: Default::default(),
            k32_25: Constant::new(32.into()),
            k0_25: Constant::new(0.into()),
            kmax_25: Constant::new((1u64 << 24).into()),
            k32_6: Constant::new(32.into()),
            k0_12: Constant::new(0.into()),
            k8_12: Constant::new(8.into()),
            k2048_12: Constant::new(((BUF - 1024) as u64).into()),
            k0_8: Constant::new(0.into()),
            k128_8: Constant::new(128.into()),
        }
    }
}

impl Logic for ZvcxDecompressor {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ty_r, elem_r, cnt, left, blen, tail, first, err, s_hdr, s_valid, s_last,
            s_coded, s_blen, s_first, s_width, s_e, s_m, s_float, prev, o_len, o_last, o_valid
        );
        self.bufr.clock.next = self.clock.val();
        self.s_blk.clock.next = self.clock.val();
        self.o_data.clock.next = self.clock.val();
        self.params.ty.next = self.ty_r.q.val();
        self.params.elem.next = self.elem_r.q.val();
        // ---- the loop: measure the block at the bottom of the buffer
        self.scan.win.next = self.bufr.q.val().get_bits::<WIN>(0);
        self.scan.blen.next = self.blen.q.val();
        self.scan.first.next = self.first.q.val();
        self.scan.width.next = self.params.width.val();
        self.scan.exp_bits.next = self.params.exp_bits.val();
        self.scan.man_bits.next = self.params.man_bits.val();
        self.scan.k_bits.next = self.params.k_bits.val();
        self.scan.float.next = self.params.float.val();
        self.bb.q.next = self.bufr.q.val();
        self.bb.len.next = self.scan.len.val();
        self.active.next = self.left.q.val() != self.k0_25.val();
        self.lastblk.next = self.left.q.val() <= self.k32_25.val();
        self.fits.next = self.scan.len.val() <= self.cnt.q.val();
        self.out_free.next = !self.o_valid.q.val() | self.out_ready.val();
        self.s_adv.next = self.s_valid.q.val() & self.out_free.val();
        self.s_free.next = !self.s_valid.q.val() | self.out_free.val();
        self.try_dec.next = self.active.val()
            & !self.err.q.val()
            & self.s_free.val()
            & (self.fits.val() | self.tail.q.val());
        // Ends inside a block; or the chunk's last block with more payload to come, more
        // than 7 bits after it, or non-zero padding.
        self.blk_err.next = self.try_dec.val()
            & (!self.fits.val()
                | (self.lastblk.val()
                    & (!self.tail.q.val()
                        | ((self.cnt.q.val() - self.scan.len.val()) >= self.k8_12.val())
                        | (self.bb.pad.val() != self.k0_8.val()))));
        // A block longer than the buffer can hold while it waits: no valid block is.
        self.hang.next = self.active.val()
            & !self.err.q.val()
            & !self.fits.val()
            & !self.tail.q.val()
            & (self.cnt.q.val() > self.k2048_12.val());
        self.dec.next = self.try_dec.val() & !self.blk_err.val();
        self.done.next = self.dec.val() & self.lastblk.val();
        self.rem.next = self.cnt.q.val();
        if self.dec.val() {
            self.rem.next = self.cnt.q.val() - self.scan.len.val();
        }
        if self.done.val() {
            self.rem.next = self.k0_12.val();
        }
        // ---- input words
        self.in_ready.next = !self.rst.val()
            & (self.err.q.val()
                | ((!self.tail.q.val() | self.done.val())
                    & (self.rem.val() <= self.k2048_12.val())));
        self.acc.next = self.in_valid.val() & self.in_ready.val() & !self.err.q.val();
        self.starting.next = !self.active.val() | self.done.val();
        self.word_bad.next = (self.in_bytes.val() == self.k0_8.val())
            | (self.in_bytes.val() > self.k128_8.val())
            | ((self.in_bytes.val() != self.k128_8.val()) & !self.in_last.val())
            | (self.starting.val()
                & ((self.in_elems.val() == self.k0_25.val())
                    | (self.in_elems.val() > self.kmax_25.val())));
        self.append.next = self.acc.val() & !self.word_bad.val();
        self.bb.shift.next = self.dec.val() & !self.done.val();
        self.bb.clear.next = self.done.val();
        self.bb.append.next = self.append.val();
        self.bb.word.next = self.in_data.val();
        self.bb.wbytes.next = self.in_bytes.val();
        self.bb.rem.next = self.rem.val();
        self.bufr.d.next = self.bb.nxt.val();
        self.bufr.en.next = true;
        self.bufr.clr.next = self.rst.val() | self.err.q.val();
        self.zx_bytes.x.next = self.in_bytes.val();
        self.cnt.d.next = self.rem.val();
        if self.append.val() {
            self.cnt.d.next = self.rem.val() + (self.zx_bytes.y.val() << 3);
        }
        self.zx_blen.x.next = self.blen.q.val();
        self.left_n.next = self.left.q.val();
        if self.dec.val() {
            self.left_n.next = self.left.q.val() - self.zx_blen.y.val();
        }
        if self.append.val() & self.starting.val() {
            self.left_n.next = self.in_elems.val();
            self.ty_r.d.next = self.ty.val();
            self.elem_r.d.next = self.elem.val();
            self.first.d.next = true;
        }
        if self.done.val() & !self.append.val() {
            self.tail.d.next = false;
        }
        if self.append.val() {
            self.tail.d.next = self.in_last.val();
        }
        if self.dec.val() & self.scan.coded.val() {
            self.first.d.next = false;
        }
        if self.append.val() & self.starting.val() {
            self.first.d.next = true;
        }
        self.left.d.next = self.left_n.val();
        self.blen.d.next = self.k32_6.val();
        if self.left_n.val() < self.k32_25.val() {
            self.blen.d.next = self.left_n.val().get_bits::<6>(0);
        }
        // ---- stage 1
        self.s_blk.d.next = self.bufr.q.val().get_bits::<BLK>(0);
        self.s_blk.en.next = self.dec.val();
        self.s_blk.clr.next = false;
        if self.s_adv.val() {
            self.s_valid.d.next = false;
        }
        if self.dec.val() {
            self.s_valid.d.next = true;
            self.s_hdr.d.next = self.scan.hdr.val();
            self.s_last.d.next = self.lastblk.val();
            self.s_coded.d.next = self.scan.coded.val();
            self.s_blen.d.next = self.blen.q.val();
            self.s_first.d.next = self.first.q.val();
            self.s_width.d.next = self.params.width.val();
            self.s_e.d.next = self.params.exp_bits.val();
            self.s_m.d.next = self.params.man_bits.val();
            self.s_float.d.next = self.params.float.val();
        }
        self.unpack.blk.next = self.s_blk.q.val();
        self.unpack.hdr.next = self.s_hdr.q.val();
        self.unpack.blen.next = self.s_blen.q.val();
        self.unpack.first.next = self.s_first.q.val();
        self.unpack.prev.next = self.prev.q.val();
        self.unpack.width.next = self.s_width.q.val();
        self.unpack.exp_bits.next = self.s_e.q.val();
        self.unpack.man_bits.next = self.s_m.q.val();
        self.unpack.float.next = self.s_float.q.val();
        self.u_bad.next = self.s_valid.q.val() & self.unpack.err.val();
        self.o_en.next = self.s_adv.val() & !self.unpack.err.val() & !self.err.q.val();
        if self.o_en.val() & self.s_coded.q.val() & self.s_float.q.val() {
            self.prev.d.next = self.unpack.max_exp.val();
        }
        // ---- output register
        self.o_data.d.next = self.unpack.data.val();
        self.o_data.en.next = self.o_en.val();
        self.o_data.clr.next = self.rst.val();
        if self.out_ready.val() {
            self.o_valid.d.next = false;
        }
        if self.o_en.val() {
            self.o_valid.d.next = true;
            self.o_len.d.next = self.s_blen.q.val();
            self.o_last.d.next = self.s_last.q.val();
        }
        self.out_data.next = self.o_data.q.val();
        self.out_len.next = self.o_len.q.val();
        self.out_last.next = self.o_last.q.val();
        self.out_valid.next = self.o_valid.q.val();
        // ---- errors
        if (self.acc.val() & self.word_bad.val())
            | self.blk_err.val()
            | self.hang.val()
            | self.u_bad.val()
        {
            self.err.d.next = true;
        }
        self.error.next = self.err.q.val();
        if self.err.q.val() {
            self.left.d.next = self.k0_25.val();
            self.tail.d.next = false;
            self.cnt.d.next = self.k0_12.val();
            self.s_valid.d.next = false;
        }
        if self.rst.val() {
            self.left.d.next = self.k0_25.val();
            self.blen.d.next = self.k32_6.val();
            self.tail.d.next = false;
            self.first.d.next = true;
            self.err.d.next = false;
            self.cnt.d.next = self.k0_12.val();
            self.s_valid.d.next = false;
            self.o_valid.d.next = false;
            self.prev.d.next = self.k0_8.val();
            self.ty_r.d.next = self.ty.val();
            self.elem_r.d.next = self.elem.val();
        }
    }
}
