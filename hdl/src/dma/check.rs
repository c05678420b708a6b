//! The controller's checkers: register-free blocks whose inputs are registers of the
//! controller (the fetched descriptor, the fetched frame header), so they settle once per
//! clock edge. Each returns the first failing check's error code in the validation order
//! of the brief (docs/ARCHITECTURE.md, "DMA engine"), 0 when everything passes, plus the
//! fields and derived numbers the controller sequences with.
//!
//! Offsets, bit positions, codes and the magic are `cdma_spec` values put into sized
//! `Constant`s by the constructors; the bus-dependent limits (`BB`) come from the
//! constructor's `dw` argument, the element widths the engine runs from its `elem_mask`
//! (bit `c` set iff the descriptor element code `c` runs, HWCFG `elem_mask`).

use cdma_spec::{desc, error, frame};
use rust_hdl::core::prelude::*;
use rust_hdl::widgets::prelude::DFF;

use super::params::ENGINE_CHUNK_LOG2_MAX;

/// Bits of a descriptor (64 bytes).
pub const DESC_BITS: usize = desc::DESC_LEN * 8;
/// Bits of a frame header (32 bytes).
pub const HDR_BITS: usize = frame::HEADER_LEN * 8;
/// Bits of an error code.
pub const CODE_BITS: usize = error::CODE_BITS as usize;
/// Bits of the control word.
pub const CONTROL_BITS: usize = desc::CONTROL_FIELD.size * 8;
/// Bits of the control word's `op` field.
pub const OP_BITS: usize = desc::CTRL_OP.width as usize;
/// Bits of the control word's `elem` field.
pub const ELEM_BITS: usize = desc::CTRL_ELEM.width as usize;
/// Bits of the control word's `type` field.
pub const TYPE_BITS: usize = desc::CTRL_TYPE.width as usize;
/// Bits of the control word's `codec` field.
pub const CODEC_BITS: usize = desc::CTRL_CODEC.width as usize;
/// Bits of the control word's `chunk_log2` field.
pub const CL_BITS: usize = desc::CTRL_CHUNK_LOG2.width as usize;
/// Bits of a 32-bit length field (`src_len`, `dst_cap`).
pub const LEN_BITS: usize = desc::SRC_LEN_FIELD.size * 8;
/// Bits of an address field.
pub const ADDR_BITS: usize = desc::SRC_ADDR_FIELD.size * 8;
/// Bits of a header byte field (version, codec, elem_bits, chunk_log2).
pub const HBYTE_BITS: usize = frame::VERSION_FIELD.size * 8;
/// Bits of the header's 64-bit length fields.
pub const HLEN_BITS: usize = frame::UNCOMPRESSED_LEN_FIELD.size * 8;
/// Bits of a chunk index entry.
pub const ENTRY_BITS: usize = frame::INDEX_ENTRY_LEN * 8;

/// Index bits of a descriptor / header bit offset (`clog2` of their widths).
const DOFF: usize = 9;
const HOFF: usize = 8;

/// log2 of a power of two.
pub(crate) fn log2(x: usize) -> u64 {
    assert!(x.is_power_of_two(), "{x} is not a power of two");
    u64::from(x.trailing_zeros())
}

/// The `elem_mask` of an engine that runs every element width.
pub const ELEM_MASK_ALL: u8 = 0b111;

/// The `elem_mask` of the element widths `bits` (8, 16, 32).
///
/// # Panics
/// On any other width.
pub fn elem_mask_of(bits: &[u32]) -> u8 {
    desc::elem_mask_of(bits).unwrap_or_else(|| panic!("{bits:?}: a width has no element code"))
}

/// The spec's (type, width) rule as a bit table: bit `index(t, e, bits)` set iff type code
/// `t` may hold elements of width code `e` (`bits` bits): a type of that width, or raw.
fn type_table(index: impl Fn(u64, u64, u32) -> u64) -> u64 {
    let mut m = 0u64;
    for t in cdma_spec::zvcx::ELEM_TYPES {
        for (e, bits) in desc::ELEM_CODES {
            if t.bits == 0 || t.bits == bits {
                m |= 1 << index(u64::from(t.code), e, bits);
            }
        }
    }
    m
}

/// The descriptor checker's table, indexed `4·t + e` (type and width codes).
fn type_elem_table() -> u64 {
    type_table(|t, e, _| 4 * t + e)
}

/// The header checker's table, indexed `8·t + bits/8` (the header holds the width itself).
fn type_width_table() -> u64 {
    type_table(|t, _, bits| 8 * t + u64::from(bits / 8))
}

fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

fn code(e: error::ErrorCode) -> Constant<Bits<CODE_BITS>> {
    c(u64::from(e.code))
}

fn doff(f: cdma_spec::Field) -> Constant<Bits<DOFF>> {
    c((f.offset * 8) as u64)
}

fn hoff(f: cdma_spec::Field) -> Constant<Bits<HOFF>> {
    c((f.offset * 8) as u64)
}

/// Descriptor checks, steps 2–6 (step 1, the descriptor address, and the fetch's read
/// error are the controller's), and the descriptor's fields.
#[derive(LogicBlock)]
pub struct DescCheck {
    /// The fetched descriptor, byte `i` at bits `[8i +: 8]`.
    pub desc: Signal<In, Bits<DESC_BITS>>,
    /// First failing check's error code (0 = the descriptor can run).
    pub code: Signal<Out, Bits<CODE_BITS>>,
    /// `control.op`.
    pub op: Signal<Out, Bits<OP_BITS>>,
    /// `control.irq`.
    pub irq: Signal<Out, Bit>,
    /// `control.stop_on_error`.
    pub stop: Signal<Out, Bit>,
    /// `control.elem`, the element width code (valid when `code` is 0).
    pub elem: Signal<Out, Bits<ELEM_BITS>>,
    /// `control.type`, the element type code (COMPRESS; 0 = raw, the frame is then version 2).
    pub ty: Signal<Out, Bits<TYPE_BITS>>,
    /// `control.codec` is ZVC-X (COMPRESS; valid when `code` is 0).
    pub zvcx: Signal<Out, Bit>,
    /// COMPRESS chunk size, `control.chunk_log2` with 0 replaced by the default.
    pub chunk_log2: Signal<Out, Bits<CL_BITS>>,
    /// COMPRESS chunk count `ceil(src_len / 2^chunk_log2)` (valid when `code` is 0).
    pub n_chunks: Signal<Out, Bits<LEN_BITS>>,
    /// Bus beats of `src_len` bytes: `ceil(src_len / BB)`.
    pub src_beats: Signal<Out, Bits<LEN_BITS>>,
    /// `src_len`.
    pub src_len: Signal<Out, Bits<LEN_BITS>>,
    /// `src_addr`.
    pub src_addr: Signal<Out, Bits<ADDR_BITS>>,
    /// `dst_addr`.
    pub dst_addr: Signal<Out, Bits<ADDR_BITS>>,
    /// `dst_cap`.
    pub dst_cap: Signal<Out, Bits<LEN_BITS>>,
    /// `meta_addr`.
    pub meta_addr: Signal<Out, Bits<ADDR_BITS>>,
    /// `next`.
    pub next_desc: Signal<Out, Bits<ADDR_BITS>>,
    /// COMPRESS with CRC32C (`control.no_crc` clear): the frame is version 4.
    pub crc: Signal<Out, Bit>,
    control: Signal<Local, Bits<CONTROL_BITS>>,
    no_crc: Signal<Local, Bit>,
    cl_raw: Signal<Local, Bits<CL_BITS>>,
    codec: Signal<Local, Bits<CODEC_BITS>>,
    ty5: Signal<Local, Bits<5>>,
    el5: Signal<Local, Bits<5>>,
    res0: Signal<Local, Bits<LEN_BITS>>,
    res1: Signal<Local, Bits<ADDR_BITS>>,
    is_copy: Signal<Local, Bit>,
    is_comp: Signal<Local, Bit>,
    is_dec: Signal<Local, Bit>,
    bad: Signal<Local, Bit>,
    unsup: Signal<Local, Bit>,
    unaligned: Signal<Local, Bit>,
    cl_mask: Signal<Local, Bits<LEN_BITS>>,
    eb_mask: Signal<Local, Bits<LEN_BITS>>,
    f_control: Constant<Bits<DOFF>>,
    f_src_len: Constant<Bits<DOFF>>,
    f_src_addr: Constant<Bits<DOFF>>,
    f_dst_addr: Constant<Bits<DOFF>>,
    f_dst_cap: Constant<Bits<DOFF>>,
    f_res0: Constant<Bits<DOFF>>,
    f_meta: Constant<Bits<DOFF>>,
    f_next: Constant<Bits<DOFF>>,
    f_res1: Constant<Bits<DOFF>>,
    b_op: Constant<Bits<5>>,
    b_elem: Constant<Bits<5>>,
    b_irq: Constant<Bits<5>>,
    b_stop: Constant<Bits<5>>,
    b_cl: Constant<Bits<5>>,
    b_type: Constant<Bits<5>>,
    b_codec: Constant<Bits<5>>,
    b_no_crc: Constant<Bits<5>>,
    low3: Constant<Bits<5>>,
    low2: Constant<Bits<5>>,
    two: Constant<Bits<5>>,
    type_elem_ok: Constant<Bits<32>>,
    codec_zvc: Constant<Bits<CODEC_BITS>>,
    codec_zvcx: Constant<Bits<CODEC_BITS>>,
    // An engine without the ZVC-X codec refuses its descriptors as UNSUPPORTED.
    has_zvcx: Constant<Bit>,
    // An engine without CRC32C refuses COMPRESS with CRCs as UNSUPPORTED.
    has_crc: Constant<Bit>,
    op_copy: Constant<Bits<OP_BITS>>,
    op_comp: Constant<Bits<OP_BITS>>,
    op_dec: Constant<Bits<OP_BITS>>,
    elem_8: Constant<Bits<ELEM_BITS>>,
    elem_16: Constant<Bits<ELEM_BITS>>,
    elem_32: Constant<Bits<ELEM_BITS>>,
    elem_mask: Constant<Bits<4>>,
    ctl_rsvd: Constant<Bits<CONTROL_BITS>>,
    cl_default: Constant<Bits<CL_BITS>>,
    cl_fmt_min: Constant<Bits<CL_BITS>>,
    cl_fmt_max: Constant<Bits<CL_BITS>>,
    cl_eng_min: Constant<Bits<CL_BITS>>,
    cl_eng_max: Constant<Bits<CL_BITS>>,
    bb_mask: Constant<Bits<ADDR_BITS>>,
    bb_mask32: Constant<Bits<LEN_BITS>>,
    lg_bb: Constant<Bits<5>>,
    one: Constant<Bits<LEN_BITS>>,
    ok: Constant<Bits<CODE_BITS>>,
    e_bad_desc: Constant<Bits<CODE_BITS>>,
    e_unaligned: Constant<Bits<CODE_BITS>>,
    e_unsupported: Constant<Bits<CODE_BITS>>,
    e_overflow: Constant<Bits<CODE_BITS>>,
}

impl DescCheck {
    /// The checker of a `dw`-bit engine (`BB = dw/8`) that runs the element widths of
    /// `elem_mask`, with the ZVC-X codec iff `has_zvcx` and CRC32C iff `has_crc`.
    pub fn new(dw: usize, elem_mask: u8, has_zvcx: bool, has_crc: bool) -> Self {
        let bb = dw / 8;
        assert!(
            elem_mask != 0 && elem_mask <= ELEM_MASK_ALL,
            "elem_mask {elem_mask:#b}"
        );
        let ctl_used = desc::CONTROL_BITS.iter().fold(0u64, |m, f| m | f.mask());
        let b = |f: cdma_spec::BitField| c::<5>(u64::from(f.lsb));
        Self {
            desc: Default::default(),
            code: Default::default(),
            op: Default::default(),
            irq: Default::default(),
            stop: Default::default(),
            chunk_log2: Default::default(),
            n_chunks: Default::default(),
            src_beats: Default::default(),
            src_len: Default::default(),
            src_addr: Default::default(),
            dst_addr: Default::default(),
            dst_cap: Default::default(),
            meta_addr: Default::default(),
            next_desc: Default::default(),
            crc: Default::default(),
            control: Default::default(),
            no_crc: Default::default(),
            elem: Default::default(),
            ty: Default::default(),
            zvcx: Default::default(),
            cl_raw: Default::default(),
            codec: Default::default(),
            ty5: Default::default(),
            el5: Default::default(),
            res0: Default::default(),
            res1: Default::default(),
            is_copy: Default::default(),
            is_comp: Default::default(),
            is_dec: Default::default(),
            bad: Default::default(),
            unsup: Default::default(),
            unaligned: Default::default(),
            cl_mask: Default::default(),
            eb_mask: Default::default(),
            f_control: doff(desc::CONTROL_FIELD),
            f_src_len: doff(desc::SRC_LEN_FIELD),
            f_src_addr: doff(desc::SRC_ADDR_FIELD),
            f_dst_addr: doff(desc::DST_ADDR_FIELD),
            f_dst_cap: doff(desc::DST_CAP_FIELD),
            f_res0: doff(desc::RESERVED0_FIELD),
            f_meta: doff(desc::META_ADDR_FIELD),
            f_next: doff(desc::NEXT_FIELD),
            f_res1: doff(desc::RESERVED1_FIELD),
            b_op: b(desc::CTRL_OP),
            b_elem: b(desc::CTRL_ELEM),
            b_irq: b(desc::CTRL_IRQ),
            b_stop: b(desc::CTRL_STOP_ON_ERROR),
            b_cl: b(desc::CTRL_CHUNK_LOG2),
            b_type: b(desc::CTRL_TYPE),
            b_codec: b(desc::CTRL_CODEC),
            b_no_crc: b(desc::CTRL_NO_CRC),
            low3: c(desc::CTRL_TYPE.mask() >> desc::CTRL_TYPE.lsb),
            low2: c(desc::CTRL_ELEM.mask() >> desc::CTRL_ELEM.lsb),
            two: c(2),
            type_elem_ok: c(type_elem_table()),
            codec_zvc: c(desc::DESC_CODEC_ZVC),
            codec_zvcx: c(desc::DESC_CODEC_ZVCX),
            has_zvcx: Constant::new(has_zvcx),
            has_crc: Constant::new(has_crc),
            op_copy: c(desc::OP_COPY),
            op_comp: c(desc::OP_COMPRESS),
            op_dec: c(desc::OP_DECOMPRESS),
            elem_8: c(desc::ELEM_CODES[0].0),
            elem_16: c(desc::ELEM_CODES[1].0),
            elem_32: c(desc::ELEM_CODES[2].0),
            elem_mask: c(u64::from(elem_mask)),
            ctl_rsvd: c(!ctl_used & 0xFFFF_FFFF),
            cl_default: c(u64::from(frame::CHUNK_LOG2_DEFAULT)),
            cl_fmt_min: c(u64::from(frame::CHUNK_LOG2_MIN)),
            cl_fmt_max: c(u64::from(frame::CHUNK_LOG2_MAX)),
            cl_eng_min: c(log2(bb)),
            cl_eng_max: c(ENGINE_CHUNK_LOG2_MAX),
            bb_mask: c(bb as u64 - 1),
            bb_mask32: c(bb as u64 - 1),
            lg_bb: c(log2(bb)),
            one: c(1),
            ok: code(error::OK),
            e_bad_desc: code(error::BAD_DESC),
            e_unaligned: code(error::UNALIGNED),
            e_unsupported: code(error::UNSUPPORTED),
            e_overflow: code(error::DST_OVERFLOW),
        }
    }
}

impl Logic for DescCheck {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- fields
        self.control.next = self
            .desc
            .val()
            .get_bits::<CONTROL_BITS>(self.f_control.val().index());
        self.src_len.next = self
            .desc
            .val()
            .get_bits::<LEN_BITS>(self.f_src_len.val().index());
        self.src_addr.next = self
            .desc
            .val()
            .get_bits::<ADDR_BITS>(self.f_src_addr.val().index());
        self.dst_addr.next = self
            .desc
            .val()
            .get_bits::<ADDR_BITS>(self.f_dst_addr.val().index());
        self.dst_cap.next = self
            .desc
            .val()
            .get_bits::<LEN_BITS>(self.f_dst_cap.val().index());
        self.res0.next = self
            .desc
            .val()
            .get_bits::<LEN_BITS>(self.f_res0.val().index());
        self.meta_addr.next = self
            .desc
            .val()
            .get_bits::<ADDR_BITS>(self.f_meta.val().index());
        self.next_desc.next = self
            .desc
            .val()
            .get_bits::<ADDR_BITS>(self.f_next.val().index());
        self.res1.next = self
            .desc
            .val()
            .get_bits::<ADDR_BITS>(self.f_res1.val().index());
        self.op.next = self
            .control
            .val()
            .get_bits::<OP_BITS>(self.b_op.val().index());
        self.elem.next = self
            .control
            .val()
            .get_bits::<ELEM_BITS>(self.b_elem.val().index());
        self.cl_raw.next = self
            .control
            .val()
            .get_bits::<CL_BITS>(self.b_cl.val().index());
        self.ty.next = self
            .control
            .val()
            .get_bits::<TYPE_BITS>(self.b_type.val().index());
        self.codec.next = self
            .control
            .val()
            .get_bits::<CODEC_BITS>(self.b_codec.val().index());
        self.zvcx.next = self.codec.val() == self.codec_zvcx.val();
        // 5-bit copies of type and elem to index the (type, elem) table at 4·type + elem.
        self.ty5.next =
            self.control.val().get_bits::<5>(self.b_type.val().index()) & self.low3.val();
        self.el5.next =
            self.control.val().get_bits::<5>(self.b_elem.val().index()) & self.low2.val();
        self.irq.next = self.control.val().get_bit(self.b_irq.val().index());
        self.stop.next = self.control.val().get_bit(self.b_stop.val().index());
        self.no_crc.next = self.control.val().get_bit(self.b_no_crc.val().index());
        self.is_copy.next = self.op.val() == self.op_copy.val();
        self.is_comp.next = self.op.val() == self.op_comp.val();
        self.is_dec.next = self.op.val() == self.op_dec.val();
        self.chunk_log2.next = self.cl_raw.val();
        if !self.cl_raw.val().any() {
            self.chunk_log2.next = self.cl_default.val();
        }
        // ---- derived numbers
        self.cl_mask.next = (self.one.val() << self.chunk_log2.val()) - self.one.val();
        self.eb_mask.next = (self.one.val() << self.elem.val()) - self.one.val();
        self.n_chunks.next = self.src_len.val() >> self.chunk_log2.val();
        if (self.src_len.val() & self.cl_mask.val()).any() {
            self.n_chunks.next = (self.src_len.val() >> self.chunk_log2.val()) + self.one.val();
        }
        self.src_beats.next = self.src_len.val() >> self.lg_bb.val();
        if (self.src_len.val() & self.bb_mask32.val()).any() {
            self.src_beats.next = (self.src_len.val() >> self.lg_bb.val()) + self.one.val();
        }
        // ---- step 2: BAD_DESC
        self.bad.next = (!self.is_copy.val() & !self.is_comp.val() & !self.is_dec.val())
            | ((self.elem.val() != self.elem_8.val())
                & (self.elem.val() != self.elem_16.val())
                & (self.elem.val() != self.elem_32.val()))
            | (self.control.val() & self.ctl_rsvd.val()).any()
            | self.res0.val().any()
            | self.res1.val().any()
            | (!self.is_comp.val() & self.cl_raw.val().any())
            | (!self.is_comp.val()
                & (self.ty.val().any() | self.codec.val().any() | self.no_crc.val()))
            | !self
                .type_elem_ok
                .val()
                .get_bit(((self.ty5.val() << self.two.val()) + self.el5.val()).index())
            | ((self.codec.val() != self.codec_zvc.val())
                & (self.codec.val() != self.codec_zvcx.val()))
            | (self.is_comp.val()
                & ((self.chunk_log2.val() < self.cl_fmt_min.val())
                    | (self.chunk_log2.val() > self.cl_fmt_max.val())));
        // ---- step 3: UNSUPPORTED
        self.unsup.next = ((self.is_comp.val() | self.is_dec.val())
            & !self.elem_mask.val().get_bit(self.elem.val().index()))
            | (self.is_comp.val()
                & ((self.chunk_log2.val() > self.cl_eng_max.val())
                    | (self.chunk_log2.val() < self.cl_eng_min.val())))
            | ((self.codec.val() == self.codec_zvcx.val()) & !self.has_zvcx.val())
            | (self.is_comp.val() & !self.no_crc.val() & !self.has_crc.val());
        self.crc.next = self.is_comp.val() & !self.no_crc.val();
        // ---- step 4: UNALIGNED
        self.unaligned.next = (self.src_addr.val() & self.bb_mask.val()).any()
            | (self.dst_addr.val() & self.bb_mask.val()).any()
            | ((self.is_comp.val() | self.is_dec.val())
                & (self.meta_addr.val() & self.bb_mask.val()).any());
        // ---- in order; steps 5 (length) and 6 (COPY capacity) last
        self.code.next = self.ok.val();
        if self.bad.val() {
            self.code.next = self.e_bad_desc.val();
        } else if self.unsup.val() {
            self.code.next = self.e_unsupported.val();
        } else if self.unaligned.val() {
            self.code.next = self.e_unaligned.val();
        } else if !self.is_dec.val() & (self.src_len.val() & self.eb_mask.val()).any() {
            self.code.next = self.e_bad_desc.val();
        } else if self.is_copy.val() & (self.src_len.val() > self.dst_cap.val()) {
            self.code.next = self.e_overflow.val();
        }
    }
}

/// DECOMPRESS frame header checks (step 7 up to the index), and the header's fields. The
/// header's `elem_bits` must be the descriptor's element width (BAD_HEADER otherwise; a width
/// the engine does not run was refused with the descriptor, UNSUPPORTED).
#[derive(LogicBlock)]
pub struct HdrCheck {
    /// Clock, rising edge: `code` comes a cycle after `hdr` (the chunk count's check is
    /// registered half way).
    pub clock: Signal<In, Clock>,
    /// The fetched header, byte `i` at bits `[8i +: 8]`.
    pub hdr: Signal<In, Bits<HDR_BITS>>,
    /// The descriptor's `src_len` (must equal `payload_len`).
    pub src_len: Signal<In, Bits<LEN_BITS>>,
    /// The descriptor's `dst_cap` (must hold `uncompressed_len`).
    pub dst_cap: Signal<In, Bits<LEN_BITS>>,
    /// The descriptor's element width code (the header's `elem_bits` must be that width).
    pub elem_code: Signal<In, Bits<ELEM_BITS>>,
    /// First failing check's error code (0 = OK).
    pub code: Signal<Out, Bits<CODE_BITS>>,
    /// `n_chunks`.
    pub n_chunks: Signal<Out, Bits<LEN_BITS>>,
    /// `chunk_log2` (low bits; valid when `code` is 0).
    pub chunk_log2: Signal<Out, Bits<CL_BITS>>,
    /// `uncompressed_len` (low 32 bits; it fits when `code` is 0).
    pub ulen: Signal<Out, Bits<LEN_BITS>>,
    /// `payload_len` (low 32 bits; equals `src_len` when `code` is 0).
    pub plen: Signal<Out, Bits<LEN_BITS>>,
    /// The frame's codec is ZVC-X (valid when `code` is 0).
    pub zvcx: Signal<Out, Bit>,
    /// The frame's `elem_type` code (0 for version 2; valid when `code` is 0).
    pub ty: Signal<Out, Bits<TYPE_BITS>>,
    /// The frame is version 4: 8-byte index entries with CRC32C, a metadata CRC.
    pub crc: Signal<Out, Bit>,
    magic: Signal<Local, Bits<32>>,
    version: Signal<Local, Bits<HBYTE_BITS>>,
    codec: Signal<Local, Bits<HBYTE_BITS>>,
    elem: Signal<Local, Bits<HBYTE_BITS>>,
    cl: Signal<Local, Bits<HBYTE_BITS>>,
    reserved: Signal<Local, Bits<32>>,
    ulen64: Signal<Local, Bits<HLEN_BITS>>,
    plen64: Signal<Local, Bits<HLEN_BITS>>,
    ulen_hi: Signal<Local, Bits<32>>,
    plen_hi: Signal<Local, Bits<32>>,
    cl_mask: Signal<Local, Bits<HLEN_BITS>>,
    // `uncompressed_len >> chunk_log2` and whether bits were shifted out, registered: the
    // 64-bit shift and mask, then the increment and compare with `n_chunks`, would be one
    // long path from the header register to the code.
    shr_r: DFF<Bits<HLEN_BITS>>,
    rnz_r: DFF<Bit>,
    ceil: Signal<Local, Bits<HLEN_BITS>>,
    ceil_lo: Signal<Local, Bits<32>>,
    ceil_hi: Signal<Local, Bits<32>>,
    want_elem: Signal<Local, Bits<HBYTE_BITS>>,
    v2: Signal<Local, Bit>,
    v3: Signal<Local, Bit>,
    v4: Signal<Local, Bit>,
    etype: Signal<Local, Bits<8>>,
    etype_idx: Signal<Local, Bits<8>>,
    bad_v2: Signal<Local, Bit>,
    bad_v3: Signal<Local, Bit>,
    bad: Signal<Local, Bit>,
    unsup: Signal<Local, Bit>,
    f_magic: Constant<Bits<HOFF>>,
    f_version: Constant<Bits<HOFF>>,
    f_codec: Constant<Bits<HOFF>>,
    f_elem: Constant<Bits<HOFF>>,
    f_cl: Constant<Bits<HOFF>>,
    f_n: Constant<Bits<HOFF>>,
    f_reserved: Constant<Bits<HOFF>>,
    f_ulen: Constant<Bits<HOFF>>,
    f_plen: Constant<Bits<HOFF>>,
    v_magic: Constant<Bits<32>>,
    v_version: Constant<Bits<HBYTE_BITS>>,
    v_version_typed: Constant<Bits<HBYTE_BITS>>,
    v_version_crc: Constant<Bits<HBYTE_BITS>>,
    v_codec: Constant<Bits<HBYTE_BITS>>,
    v_codec_zvcx: Constant<Bits<HBYTE_BITS>>,
    n_types: Constant<Bits<8>>,
    three8: Constant<Bits<8>>,
    type_width_ok: Constant<Bits<256>>,
    // An engine without the ZVC-X codec refuses its frames as UNSUPPORTED.
    has_zvcx: Constant<Bit>,
    // An engine without CRC32C refuses version 4 frames as UNSUPPORTED.
    has_crc: Constant<Bit>,
    eb_8: Constant<Bits<HBYTE_BITS>>,
    eb_16: Constant<Bits<HBYTE_BITS>>,
    eb_32: Constant<Bits<HBYTE_BITS>>,
    m_16: Constant<Bits<HLEN_BITS>>,
    m_32: Constant<Bits<HLEN_BITS>>,
    cl_fmt_min: Constant<Bits<HBYTE_BITS>>,
    cl_fmt_max: Constant<Bits<HBYTE_BITS>>,
    cl_eng_max: Constant<Bits<HBYTE_BITS>>,
    one: Constant<Bits<HLEN_BITS>>,
    ok: Constant<Bits<CODE_BITS>>,
    e_bad_header: Constant<Bits<CODE_BITS>>,
    e_unsupported: Constant<Bits<CODE_BITS>>,
    e_overflow: Constant<Bits<CODE_BITS>>,
}

impl HdrCheck {
    /// The header checker (the engine's `CHUNK_LOG2_MAX` limits the chunk size) of an engine
    /// with the ZVC-X codec iff `has_zvcx` and CRC32C iff `has_crc`.
    pub fn new(has_zvcx: bool, has_crc: bool) -> Self {
        // Element widths in code order (8, 16, 32 bits).
        let eb = desc::ELEM_CODES.map(|(_, bits)| bits);
        Self {
            clock: Default::default(),
            hdr: Default::default(),
            src_len: Default::default(),
            dst_cap: Default::default(),
            elem_code: Default::default(),
            code: Default::default(),
            n_chunks: Default::default(),
            chunk_log2: Default::default(),
            ulen: Default::default(),
            plen: Default::default(),
            zvcx: Default::default(),
            ty: Default::default(),
            crc: Default::default(),
            magic: Default::default(),
            version: Default::default(),
            codec: Default::default(),
            elem: Default::default(),
            cl: Default::default(),
            reserved: Default::default(),
            ulen64: Default::default(),
            plen64: Default::default(),
            ulen_hi: Default::default(),
            plen_hi: Default::default(),
            cl_mask: Default::default(),
            shr_r: Default::default(),
            rnz_r: Default::default(),
            ceil: Default::default(),
            ceil_lo: Default::default(),
            ceil_hi: Default::default(),
            want_elem: Default::default(),
            v2: Default::default(),
            v3: Default::default(),
            v4: Default::default(),
            etype: Default::default(),
            etype_idx: Default::default(),
            bad_v2: Default::default(),
            bad_v3: Default::default(),
            bad: Default::default(),
            unsup: Default::default(),
            f_magic: hoff(frame::MAGIC_FIELD),
            f_version: hoff(frame::VERSION_FIELD),
            f_codec: hoff(frame::CODEC_FIELD),
            f_elem: hoff(frame::ELEM_BITS_FIELD),
            f_cl: hoff(frame::CHUNK_LOG2_FIELD),
            f_n: hoff(frame::N_CHUNKS_FIELD),
            f_reserved: hoff(frame::RESERVED_FIELD),
            f_ulen: hoff(frame::UNCOMPRESSED_LEN_FIELD),
            f_plen: hoff(frame::PAYLOAD_LEN_FIELD),
            v_magic: c(u64::from(u32::from_le_bytes(frame::MAGIC))),
            v_version: c(u64::from(frame::VERSION)),
            v_version_typed: c(u64::from(frame::VERSION_TYPED)),
            v_version_crc: c(u64::from(frame::VERSION_CRC)),
            v_codec: c(u64::from(frame::CODEC_ZVC)),
            v_codec_zvcx: c(u64::from(frame::CODEC_ZVCX)),
            n_types: c(8),
            three8: c(3),
            type_width_ok: c(type_width_table()),
            has_zvcx: Constant::new(has_zvcx),
            has_crc: Constant::new(has_crc),
            eb_8: c(u64::from(eb[0])),
            eb_16: c(u64::from(eb[1])),
            eb_32: c(u64::from(eb[2])),
            m_16: c(u64::from(eb[1] / 8 - 1)),
            m_32: c(u64::from(eb[2] / 8 - 1)),
            cl_fmt_min: c(u64::from(frame::CHUNK_LOG2_MIN)),
            cl_fmt_max: c(u64::from(frame::CHUNK_LOG2_MAX)),
            cl_eng_max: c(ENGINE_CHUNK_LOG2_MAX),
            one: c(1),
            ok: code(error::OK),
            e_bad_header: code(error::BAD_HEADER),
            e_unsupported: code(error::UNSUPPORTED),
            e_overflow: code(error::DST_OVERFLOW),
        }
    }
}

impl Default for HdrCheck {
    fn default() -> Self {
        Self::new(false, true)
    }
}

impl Logic for HdrCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.magic.next = self.hdr.val().get_bits::<32>(self.f_magic.val().index());
        self.version.next = self
            .hdr
            .val()
            .get_bits::<HBYTE_BITS>(self.f_version.val().index());
        self.codec.next = self
            .hdr
            .val()
            .get_bits::<HBYTE_BITS>(self.f_codec.val().index());
        self.elem.next = self
            .hdr
            .val()
            .get_bits::<HBYTE_BITS>(self.f_elem.val().index());
        self.cl.next = self
            .hdr
            .val()
            .get_bits::<HBYTE_BITS>(self.f_cl.val().index());
        self.n_chunks.next = self.hdr.val().get_bits::<LEN_BITS>(self.f_n.val().index());
        self.reserved.next = self.hdr.val().get_bits::<32>(self.f_reserved.val().index());
        self.ulen64.next = self
            .hdr
            .val()
            .get_bits::<HLEN_BITS>(self.f_ulen.val().index());
        self.plen64.next = self
            .hdr
            .val()
            .get_bits::<HLEN_BITS>(self.f_plen.val().index());
        self.ulen.next = self.ulen64.val().get_bits::<LEN_BITS>(0);
        self.ulen_hi.next = self.ulen64.val().get_bits::<32>(32);
        self.plen.next = self.plen64.val().get_bits::<LEN_BITS>(0);
        self.plen_hi.next = self.plen64.val().get_bits::<32>(32);
        self.chunk_log2.next = self.cl.val().get_bits::<CL_BITS>(0);
        // ceil(uncompressed_len / 2^chunk_log2) without overflow, from registers (a cycle
        // after the header).
        self.shr_r.clock.next = self.clock.val();
        self.rnz_r.clock.next = self.clock.val();
        self.cl_mask.next = (self.one.val() << self.cl.val()) - self.one.val();
        self.shr_r.d.next = self.ulen64.val() >> self.cl.val();
        self.rnz_r.d.next = (self.ulen64.val() & self.cl_mask.val()).any();
        self.ceil.next = self.shr_r.q.val();
        if self.rnz_r.q.val() {
            self.ceil.next = self.shr_r.q.val() + self.one.val();
        }
        self.ceil_lo.next = self.ceil.val().get_bits::<32>(0);
        self.ceil_hi.next = self.ceil.val().get_bits::<32>(32);
        // The descriptor's width in bits: 8 << code (codes 0, 1, 2 = 8, 16, 32 bits).
        self.want_elem.next = self.eb_8.val() << self.elem_code.val();
        // Version 2: codec ZVC, bytes 12–15 reserved. Version 3: codec ZVC or ZVC-X, byte 12
        // a type of the descriptor's width (which `elem_bits` must be), bytes 13–15 reserved.
        // Version 4 has version 3's header (and CRCs after the index).
        self.v2.next = self.version.val() == self.v_version.val();
        self.v4.next = self.version.val() == self.v_version_crc.val();
        self.v3.next = (self.version.val() == self.v_version_typed.val()) | self.v4.val();
        self.etype.next = self.reserved.val().get_bits::<8>(0);
        // 8·type + width/8 (the type table's index, modulo 256: a type ≥ 8 is refused by
        // itself).
        self.etype_idx.next =
            (self.etype.val() << self.three8.val()) + (self.want_elem.val() >> self.three8.val());
        self.bad_v2.next =
            self.v2.val() & ((self.codec.val() != self.v_codec.val()) | self.reserved.val().any());
        self.bad_v3.next = self.v3.val()
            & (((self.codec.val() != self.v_codec.val())
                & (self.codec.val() != self.v_codec_zvcx.val()))
                | self.reserved.val().get_bits::<24>(8).any()
                | (self.etype.val() >= self.n_types.val())
                | !self
                    .type_width_ok
                    .val()
                    .get_bit(self.etype_idx.val().index()));
        self.bad.next = (self.magic.val() != self.v_magic.val())
            | (!self.v2.val() & !self.v3.val())
            | self.bad_v2.val()
            | self.bad_v3.val()
            | ((self.elem.val() != self.eb_8.val())
                & (self.elem.val() != self.eb_16.val())
                & (self.elem.val() != self.eb_32.val()))
            | (self.elem.val() != self.want_elem.val())
            | (self.cl.val() < self.cl_fmt_min.val())
            | (self.cl.val() > self.cl_fmt_max.val())
            | ((self.elem.val() == self.eb_16.val()) & (self.ulen64.val() & self.m_16.val()).any())
            | ((self.elem.val() == self.eb_32.val()) & (self.ulen64.val() & self.m_32.val()).any())
            | self.ceil_hi.val().any()
            | (self.ceil_lo.val() != self.n_chunks.val());
        self.zvcx.next = self.codec.val() == self.v_codec_zvcx.val();
        self.ty.next = self.etype.val().get_bits::<TYPE_BITS>(0);
        self.crc.next = self.v4.val();
        self.unsup.next = (self.cl.val() > self.cl_eng_max.val())
            | ((self.codec.val() == self.v_codec_zvcx.val()) & !self.has_zvcx.val())
            | (self.v4.val() & !self.has_crc.val());
        self.code.next = self.ok.val();
        if self.bad.val() {
            self.code.next = self.e_bad_header.val();
        } else if self.unsup.val() {
            self.code.next = self.e_unsupported.val();
        } else if self.ulen_hi.val().any() | (self.ulen.val() > self.dst_cap.val()) {
            self.code.next = self.e_overflow.val();
        } else if self.plen_hi.val().any() | (self.plen.val() != self.src_len.val()) {
            self.code.next = self.e_bad_header.val();
        }
    }
}
