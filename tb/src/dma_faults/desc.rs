//! Broken descriptors (BAD_DESC, UNSUPPORTED, UNALIGNED) and destination overflows.

use cdma_model::dma::{
    codes, control_word, with_type_and_codec, Descriptor, EngineConfig, ErrorCode, Op,
};
use cdma_model::{ElemType, ElemWidth};
use cdma_spec::desc as d;
use rand::Rng;

use super::bus::stop_on_error;
use super::frame::{bad_header, HeaderFault};
use super::parts::{builder, compress_regions, good_copy, relu_data, stored_offset};
use crate::dma_scenario::{compress_desc, frame_parts, RegionKind, Scenario};

/// Which operation overflows its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// COPY with src_len > dst_cap (before anything moves).
    Copy,
    /// COMPRESS whose second chunk would end past dst_cap (the first was written).
    CompressMidStream,
    /// DECOMPRESS whose header's uncompressed_len > dst_cap.
    DecompressHeader,
}

/// DST_OVERFLOW in `op` (between two good COPYs).
pub fn dst_overflow(engine: &EngineConfig, seed: u64, op: Overflow) -> Scenario {
    match op {
        Overflow::Copy => {
            let mut s = stop_on_error(engine, seed, false);
            s.name = "DST_OVERFLOW COPY".into();
            s
        }
        Overflow::DecompressHeader => {
            let mut s = bad_header(engine, seed, HeaderFault::DstOverflow);
            s.name = "DST_OVERFLOW DECOMPRESS".into();
            s
        }
        Overflow::CompressMidStream => {
            let mut b = builder("DST_OVERFLOW COMPRESS", engine, seed);
            let elem = b.elem();
            let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
            let data = relu_data(4 * (1 << chunk) / elem.bytes(), elem, &mut b.rng);
            let parts = frame_parts(&data, elem, chunk);
            good_copy(&mut b, Some(codes::OK));
            let i = b.next_index();
            let cap = stored_offset(&parts.meta, 2) as u64 - 1;
            let meta_len = parts.meta.len() as u64;
            let (src, dst, meta) = compress_regions(&mut b, i, &data, cap, meta_len);
            let desc = compress_desc(elem, src, data.len() as u32, dst, cap as u32, meta, chunk);
            b.push(desc, "COMPRESS overflow", Some(codes::DST_OVERFLOW));
            good_copy(&mut b, Some(codes::OK));
            b.finish()
        }
    }
}

/// An invalid descriptor (BAD_DESC, UNSUPPORTED or UNALIGNED before anything is read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescFault {
    /// op = 3 (BAD_DESC).
    OpReserved,
    /// elem = 3 (BAD_DESC).
    ElemReserved,
    /// A reserved control bit (BAD_DESC).
    ReservedBit,
    /// reserved0 ≠ 0 (BAD_DESC).
    Reserved0,
    /// reserved1 ≠ 0 (BAD_DESC).
    Reserved1,
    /// COPY with chunk_log2 ≠ 0 (BAD_DESC).
    ChunkOnCopy,
    /// DECOMPRESS with chunk_log2 ≠ 0 (BAD_DESC).
    ChunkOnDecompress,
    /// COMPRESS chunk_log2 5 (BAD_DESC).
    ChunkTooSmall,
    /// COMPRESS chunk_log2 25 (BAD_DESC).
    ChunkTooLarge,
    /// src_len not a whole number of elements (BAD_DESC; needs E > 8).
    LenNotWhole,
    /// COMPRESS with another element width than the engine's (UNSUPPORTED).
    OtherElem,
    /// COMPRESS chunk_log2 above CHUNK_LOG2_MAX (UNSUPPORTED).
    ChunkAboveMax,
    /// COMPRESS type 6 or 7 (BAD_DESC).
    TypeReserved,
    /// COMPRESS with a float type of another width than `elem` (BAD_DESC).
    TypeWidthMismatch,
    /// COPY or DECOMPRESS with a type (BAD_DESC).
    TypeNotCompress,
    /// COMPRESS codec 2 or 3 (BAD_DESC).
    CodecReserved,
    /// COPY or DECOMPRESS asking for ZVC-X (BAD_DESC).
    CodecNotCompress,
    /// COMPRESS with ZVC-X on an engine without it (UNSUPPORTED).
    ZvcxUnsupported,
    /// src_addr off the bus alignment (UNALIGNED).
    UnalignedSrc,
    /// dst_addr off the bus alignment (UNALIGNED).
    UnalignedDst,
    /// meta_addr off the bus alignment (UNALIGNED).
    UnalignedMeta,
    /// src_addr 64-aligned but not bus-aligned on a 128-byte bus, else half a beat off
    /// (UNALIGNED).
    UnalignedHalfBeat,
    /// The descriptor itself 32 bytes off 64 (UNALIGNED at fetch; the chain ends).
    UnalignedDesc,
}

impl DescFault {
    /// Every descriptor fault.
    pub const ALL: [DescFault; 23] = [
        DescFault::OpReserved,
        DescFault::ElemReserved,
        DescFault::ReservedBit,
        DescFault::Reserved0,
        DescFault::Reserved1,
        DescFault::ChunkOnCopy,
        DescFault::ChunkOnDecompress,
        DescFault::ChunkTooSmall,
        DescFault::ChunkTooLarge,
        DescFault::LenNotWhole,
        DescFault::OtherElem,
        DescFault::ChunkAboveMax,
        DescFault::TypeReserved,
        DescFault::TypeWidthMismatch,
        DescFault::TypeNotCompress,
        DescFault::CodecReserved,
        DescFault::CodecNotCompress,
        DescFault::ZvcxUnsupported,
        DescFault::UnalignedSrc,
        DescFault::UnalignedDst,
        DescFault::UnalignedMeta,
        DescFault::UnalignedHalfBeat,
        DescFault::UnalignedDesc,
    ];

    /// The code the engine must report.
    pub fn code(self) -> ErrorCode {
        use DescFault::*;
        match self {
            OtherElem | ChunkAboveMax | ZvcxUnsupported => codes::UNSUPPORTED,
            UnalignedSrc | UnalignedDst | UnalignedMeta | UnalignedHalfBeat | UnalignedDesc => {
                codes::UNALIGNED
            }
            _ => codes::BAD_DESC,
        }
    }

    /// Whether the fault can be expressed on `engine` with `elem`-wide data: a length that
    /// is not whole 8-bit elements does not exist, and an engine of every width has no other.
    pub fn applies(self, engine: &EngineConfig, elem: ElemWidth) -> bool {
        match self {
            DescFault::LenNotWhole => elem.bits() > 8,
            DescFault::OtherElem => engine.elem_widths().len() < ElemWidth::ALL.len(),
            DescFault::ZvcxUnsupported => !engine.has_zvcx(),
            _ => true,
        }
    }
}

/// A descriptor with `fault` (between two good COPYs; after `UnalignedDesc` the chain ends).
pub fn bad_desc(engine: &EngineConfig, seed: u64, fault: DescFault) -> Scenario {
    use DescFault::*;
    let mut b = builder(&format!("descriptor {fault:?}"), engine, seed);
    let elem = b.elem();
    let bb = u64::from(engine.bus_bytes());
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let len: u32 = 1024;
    let src = b.alloc(
        u64::from(len) + bb,
        bb,
        RegionKind::Source,
        &format!("d{i} src"),
    );
    let dst = b.alloc(
        u64::from(len) + bb,
        bb,
        RegionKind::Destination,
        &format!("d{i} dst"),
    );
    let meta = b.alloc(
        crate::dma_scenario::meta_bytes(len, 7) + bb,
        bb,
        RegionKind::Metadata,
        &format!("d{i} meta"),
    );
    let e = elem.bits();
    // A width the engine does not run (OtherElem applies only when there is one).
    let other = ElemWidth::ALL
        .into_iter()
        .find(|w| !engine.supports(*w))
        .unwrap_or(elem)
        .bits();
    let comp = |ctrl: u32| Descriptor {
        control: ctrl,
        src_len: len,
        src_addr: src,
        dst_addr: dst,
        dst_cap: len,
        meta_addr: meta,
        ..Descriptor::default()
    };
    let mut desc = comp(control_word(Op::Compress, e, 0, false, false));
    let off = 4 * b.rng.gen_range(1..bb / 4);
    let mut desc_off = None;
    match fault {
        OpReserved => desc.control = d::CTRL_OP.set(u64::from(desc.control), 3) as u32,
        ElemReserved => desc.control = control_word(Op::Copy, 0, 0, false, false) | (3 << 2),
        ReservedBit => {
            // (Bit 6 is `no_crc` now.)
            let bit = [7u32, 13, 14, 19, 22, 31][b.rng.gen_range(0..6)];
            desc.control |= 1 << bit;
        }
        Reserved0 => desc.reserved0 = 1 << b.rng.gen_range(0..32),
        Reserved1 => desc.reserved1 = 1 << b.rng.gen_range(0..64),
        ChunkOnCopy => desc.control = control_word(Op::Copy, e, 12, false, false),
        ChunkOnDecompress => desc.control = control_word(Op::Decompress, e, 12, false, false),
        ChunkTooSmall => desc.control = control_word(Op::Compress, e, 5, false, false),
        ChunkTooLarge => desc.control = control_word(Op::Compress, e, 25, false, false),
        LenNotWhole => {
            desc.control = control_word(Op::Copy, e, 0, false, false);
            desc.src_len = len - 1;
        }
        OtherElem => desc.control = control_word(Op::Compress, other, 0, false, false),
        ChunkAboveMax => {
            let c = engine.chunk_log2_max() + 1;
            desc.control = control_word(Op::Compress, e, c, false, false);
        }
        TypeReserved => {
            let ty = b.rng.gen_range(6..8);
            desc.control = with_type_and_codec(desc.control, ty, false);
        }
        TypeWidthMismatch => {
            // A float type of another width than the descriptor's.
            let floats: Vec<ElemType> = ElemType::ALL
                .into_iter()
                .filter(|t| t.is_float() && t.width() != elem)
                .collect();
            let ty = floats[b.rng.gen_range(0..floats.len())].code();
            desc.control = with_type_and_codec(desc.control, ty, false);
        }
        TypeNotCompress => {
            let op = [Op::Copy, Op::Decompress][b.rng.gen_range(0..2)];
            let ty = b.rng.gen_range(1..6);
            desc.control = with_type_and_codec(control_word(op, e, 0, false, false), ty, false);
        }
        CodecReserved => {
            let codec = b.rng.gen_range(2..4u64);
            desc.control = d::CTRL_CODEC.set(u64::from(desc.control), codec) as u32;
        }
        CodecNotCompress => {
            let op = [Op::Copy, Op::Decompress][b.rng.gen_range(0..2)];
            desc.control = with_type_and_codec(control_word(op, e, 0, false, false), 0, true);
        }
        ZvcxUnsupported => desc.control = with_type_and_codec(desc.control, 0, true),
        UnalignedSrc => desc.src_addr += off,
        UnalignedDst => desc.dst_addr += off,
        UnalignedMeta => desc.meta_addr += off,
        UnalignedHalfBeat => desc.src_addr += bb / 2,
        UnalignedDesc => desc_off = Some(32),
    }
    b.push_at(desc, &format!("{fault:?}"), Some(fault.code()), desc_off);
    good_copy(
        &mut b,
        if fault == UnalignedDesc {
            None
        } else {
            Some(codes::OK)
        },
    );
    b.finish()
}
