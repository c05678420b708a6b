//! Descriptors and frames as the engine sees them: the operation of a control word, chunk
//! sizes, metadata length, the model's frame split into metadata and payload, and the three
//! descriptor kinds.

use cdma_model::dma::{control_word, Descriptor, EngineConfig, Op};
use cdma_model::{compress_frame, layout, Codec, ElemType, ElemWidth, FrameOptions};
use cdma_spec::desc as d;

/// The operation of a descriptor's control word (None for the reserved code).
pub fn desc_op(desc: &Descriptor) -> Option<Op> {
    match d::CTRL_OP.get(u64::from(desc.control)) {
        x if x == d::OP_COPY => Some(Op::Copy),
        x if x == d::OP_COMPRESS => Some(Op::Compress),
        x if x == d::OP_DECOMPRESS => Some(Op::Decompress),
        _ => None,
    }
}

/// The chunk sizes a random COMPRESS may use on `engine`: `max(7, log2 BB)` to
/// `CHUNK_LOG2_MAX`.
pub fn chunk_range(engine: &EngineConfig) -> std::ops::RangeInclusive<u8> {
    let lo = (engine.bus_bytes().trailing_zeros() as u8).max(layout::CHUNK_LOG2_MIN);
    lo..=engine.chunk_log2_max()
}

/// Bytes of header + index (and metadata CRC) a COMPRESS of `len` bytes in chunks of
/// `2^chunk_log2` may write: the version 4 size, the larger.
pub fn meta_bytes(len: u32, chunk_log2: u8) -> u64 {
    layout::meta_len_crc(layout::n_chunks(u64::from(len), chunk_log2))
}

/// A frame as the engine writes it: header + index (metadata) and payload, from the model.
#[derive(Clone, Debug)]
pub struct FrameParts {
    /// Header + index.
    pub meta: Vec<u8>,
    /// Payload.
    pub payload: Vec<u8>,
}

/// Compresses `data` with the model and splits the frame into metadata and payload.
pub fn frame_parts(data: &[u8], elem: ElemWidth, chunk_log2: u8) -> FrameParts {
    frame_parts_with(data, Codec::Zvc, ElemType::Raw(elem), chunk_log2)
}

/// [`frame_parts`] of a frame of `codec` over elements of `ty` (without CRCs: version 2 or
/// 3).
pub fn frame_parts_with(data: &[u8], codec: Codec, ty: ElemType, chunk_log2: u8) -> FrameParts {
    frame_parts_crc(data, (codec, ty), chunk_log2, false)
}

/// [`frame_parts_with`], version 4 (CRC32C) if `crc`: what a COMPRESS writes with
/// `no_crc` = `!crc`.
pub fn frame_parts_crc(
    data: &[u8],
    (codec, elem_type): (Codec, ElemType),
    chunk_log2: u8,
    crc: bool,
) -> FrameParts {
    let opts = FrameOptions {
        codec,
        elem_type,
        chunk_log2,
        crc,
    };
    let f = compress_frame(data, &opts).expect("whole elements, valid chunk size");
    let meta_len = layout::Header::parse(&f).expect("a frame").meta_len() as usize;
    FrameParts {
        meta: f[..meta_len].to_vec(),
        payload: f[meta_len..].to_vec(),
    }
}

/// Sets or clears a COMPRESS descriptor's `no_crc` flag (without CRCs: a version 2 or 3
/// frame).
pub fn with_no_crc(mut desc: Descriptor, no_crc: bool) -> Descriptor {
    let c = u64::from(desc.control);
    desc.control = d::CTRL_NO_CRC.set(c, u64::from(no_crc)) as u32;
    desc
}

/// A COMPRESS descriptor of `elem`-wide elements (no flags).
pub fn compress_desc(
    elem: ElemWidth,
    src: u64,
    len: u32,
    dst: u64,
    cap: u32,
    meta: u64,
    chunk_field: u8,
) -> Descriptor {
    Descriptor {
        control: control_word(Op::Compress, elem.bits(), chunk_field, false, false),
        src_len: len,
        src_addr: src,
        dst_addr: dst,
        dst_cap: cap,
        meta_addr: meta,
        ..Descriptor::default()
    }
}

/// A DECOMPRESS descriptor of `elem`-wide elements (no flags).
pub fn decompress_desc(
    elem: ElemWidth,
    payload: u64,
    payload_len: u32,
    dst: u64,
    cap: u32,
    meta: u64,
) -> Descriptor {
    Descriptor {
        control: control_word(Op::Decompress, elem.bits(), 0, false, false),
        src_len: payload_len,
        src_addr: payload,
        dst_addr: dst,
        dst_cap: cap,
        meta_addr: meta,
        ..Descriptor::default()
    }
}

/// A COPY descriptor (no flags; `src_len` is whole elements of `elem`).
pub fn copy_desc(elem: ElemWidth, src: u64, len: u32, dst: u64, cap: u32) -> Descriptor {
    Descriptor {
        control: control_word(Op::Copy, elem.bits(), 0, false, false),
        src_len: len,
        src_addr: src,
        dst_addr: dst,
        dst_cap: cap,
        ..Descriptor::default()
    }
}

/// Sets or clears the `irq` and `stop_on_error` flags of a descriptor.
pub fn with_flags(mut desc: Descriptor, irq: bool, stop_on_error: bool) -> Descriptor {
    let c = u64::from(desc.control);
    let c = d::CTRL_IRQ.set(c, u64::from(irq));
    desc.control = d::CTRL_STOP_ON_ERROR.set(c, u64::from(stop_on_error)) as u32;
    desc
}
