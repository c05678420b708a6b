//! The building blocks of the fault chains: ReLU-like data, a good COPY, a model frame placed
//! for a DECOMPRESS (optionally patched), and the `good COPY → faulty DECOMPRESS → good COPY`
//! chain most frame faults are.

use cdma_model::dma::{codes, EngineConfig, ErrorCode};
use cdma_model::layout::IndexEntry;
use cdma_model::layout::HEADER_LEN;
use cdma_model::{Codec, ElemType, ElemWidth};
use rand::Rng;

use crate::dma_scenario::{
    copy_desc, decompress_desc, frame_parts_crc, ChainBuilder, RegionKind, Scenario, DEFAULT_WINDOW,
};

/// ReLU-like data: `n` elements of `elem`, about half zero, the others non-zero in every
/// width (so ZVC chunks are smaller than raw and have set mask bits).
pub fn relu_data(n: usize, elem: ElemWidth, rng: &mut impl Rng) -> Vec<u8> {
    let eb = elem.bytes();
    let mut out = Vec::with_capacity(n * eb);
    for _ in 0..n {
        let v: u32 = if rng.gen_bool(0.5) {
            0
        } else {
            rng.gen::<u32>() | 1
        };
        out.extend_from_slice(&v.to_le_bytes()[..eb]);
    }
    out
}

/// A builder in the default window.
pub(super) fn builder(name: &str, engine: &EngineConfig, seed: u64) -> ChainBuilder {
    ChainBuilder::new(name, *engine, seed, DEFAULT_WINDOW)
}

/// A builder of `elem`-wide descriptors in `window`.
pub(super) fn builder_of_width(
    name: &str,
    engine: &EngineConfig,
    elem: ElemWidth,
    seed: u64,
    window: std::ops::Range<u64>,
) -> ChainBuilder {
    let mut b = ChainBuilder::new(name, *engine, seed, window);
    b.set_elem(elem);
    b
}

/// A COPY of random data that is meant to succeed (`intent`: OK, or None when the chain is
/// meant to end before it).
pub(super) fn good_copy(b: &mut ChainBuilder, intent: Option<ErrorCode>) -> usize {
    let engine = b.engine();
    let eb = b.elem().bytes();
    let bb = u64::from(engine.bus_bytes());
    let len = b.rng.gen_range(1..=600 / eb) * eb;
    let i = b.next_index();
    let data: Vec<u8> = (0..len).map(|_| b.rng.gen()).collect();
    let src = b.data(&data, RegionKind::Source, &format!("d{i} COPY src"));
    let dst = b.alloc(
        len as u64,
        bb,
        RegionKind::Destination,
        &format!("d{i} COPY dst"),
    );
    b.push(
        copy_desc(b.elem(), src, len as u32, dst, len as u32),
        &format!("COPY {len} B"),
        intent,
    )
}

/// The parts of a DECOMPRESS-able frame placed in memory.
pub(super) struct PlacedFrame {
    pub(super) meta: u64,
    pub(super) payload: u64,
    pub(super) payload_len: u32,
    pub(super) data_len: u32,
    pub(super) parts: crate::dma_scenario::FrameParts,
}

/// Places a COMPRESS's regions: the source holding `data`, a destination of `dst_len` bytes
/// and a metadata region of `meta_len` bytes, labelled as descriptor `i`'s. Returns their
/// addresses (source, destination, metadata).
pub(super) fn compress_regions(
    b: &mut ChainBuilder,
    i: usize,
    data: &[u8],
    dst_len: u64,
    meta_len: u64,
) -> (u64, u64, u64) {
    let bb = u64::from(b.engine().bus_bytes());
    let src = b.data(data, RegionKind::Source, &format!("d{i} COMPRESS src"));
    let dst = b.alloc(
        dst_len,
        bb,
        RegionKind::Destination,
        &format!("d{i} COMPRESS dst"),
    );
    // Room for the metadata as a version 4 frame (36 + 8n bytes, the engine's default) when
    // `meta_len` is a version 2 or 3 frame's (32 + 4n).
    let meta = b.alloc(
        (2 * meta_len).saturating_sub(28).max(meta_len),
        bb,
        RegionKind::Metadata,
        &format!("d{i} COMPRESS meta"),
    );
    (src, dst, meta)
}

/// Places the model's frame of `data` (header + index, payload) for a DECOMPRESS, after
/// `patch` edits the metadata and payload bytes.
pub(super) fn place_frame(
    b: &mut ChainBuilder,
    data: &[u8],
    chunk_log2: u8,
    label: &str,
    patch: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>),
) -> PlacedFrame {
    let ty = ElemType::Raw(b.elem());
    place_frame_with(b, data, (Codec::Zvc, ty), chunk_log2, label, patch)
}

/// [`place_frame`] of a frame of codec and element type `codec_ty` (its width the builder's).
pub(super) fn place_frame_with(
    b: &mut ChainBuilder,
    data: &[u8],
    codec_ty: (Codec, ElemType),
    chunk_log2: u8,
    label: &str,
    patch: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>),
) -> PlacedFrame {
    place_frame_crc(b, data, (codec_ty, chunk_log2, false), label, patch)
}

/// [`place_frame_with`], a version 4 frame (CRC32C) if `crc`.
pub(super) fn place_frame_crc(
    b: &mut ChainBuilder,
    data: &[u8],
    (codec_ty, chunk_log2, crc): ((Codec, ElemType), u8, bool),
    label: &str,
    patch: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>),
) -> PlacedFrame {
    let mut parts = frame_parts_crc(data, codec_ty, chunk_log2, crc);
    let payload_len = parts.payload.len() as u32;
    patch(&mut parts.meta, &mut parts.payload);
    let meta = b.data(&parts.meta, RegionKind::Metadata, &format!("{label} meta"));
    let payload = b.data(
        &parts.payload,
        RegionKind::Source,
        &format!("{label} payload"),
    );
    PlacedFrame {
        meta,
        payload,
        payload_len,
        data_len: data.len() as u32,
        parts,
    }
}

/// Allocates a destination of `f`'s data length and pushes the DECOMPRESS of `f` into it,
/// reading `extra` bytes past the payload length the frame had before its patch.
pub(super) fn push_decompress(
    b: &mut ChainBuilder,
    f: &PlacedFrame,
    extra: i64,
    label: &str,
    intent: ErrorCode,
) {
    let engine = b.engine();
    let i = b.next_index();
    let dst = b.alloc(
        u64::from(f.data_len),
        u64::from(engine.bus_bytes()),
        RegionKind::Destination,
        &format!("d{i} DECOMPRESS dst"),
    );
    b.push(
        decompress_desc(
            b.elem(),
            f.payload,
            u32::try_from(i64::from(f.payload_len) + extra).expect("a payload length"),
            dst,
            f.data_len,
            f.meta,
        ),
        label,
        Some(intent),
    );
}

/// Byte offset in the payload where chunk `i`'s stored bytes start.
pub(super) fn stored_offset(meta: &[u8], i: usize) -> usize {
    (0..i)
        .map(|k| IndexEntry::read(&meta[HEADER_LEN..], k, false).stored_len as usize)
        .sum()
}

/// Writes `v` into field `f` of the frame header `meta`.
pub(super) fn put(f: cdma_spec::Field, meta: &mut [u8], v: u64) {
    f.put(meta, v);
}

/// `good COPY → DECOMPRESS of data's frame (chunks of `2^chunk_log2`) → good COPY`, the frame
/// edited by `patch` before it is placed; `patch` returns how many bytes past the payload
/// length the frame had before its patch the DECOMPRESS reads.
pub(super) fn decompress_between_copies(
    b: ChainBuilder,
    data: &[u8],
    chunk_log2: u8,
    label: &str,
    intent: ErrorCode,
    patch: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>) -> u32,
) -> Scenario {
    let ty = ElemType::Raw(b.elem());
    decompress_between_copies_with(
        b,
        data,
        (Codec::Zvc, ty),
        chunk_log2,
        label,
        intent,
        |m, p| i64::from(patch(m, p)),
    )
}

/// [`decompress_between_copies`] of a frame of codec and element type `codec_ty`; `patch`
/// returns how many bytes more (or, negative, fewer) than the payload length the frame had
/// before its patch the DECOMPRESS reads.
pub(super) fn decompress_between_copies_with(
    mut b: ChainBuilder,
    data: &[u8],
    codec_ty: (Codec, ElemType),
    chunk_log2: u8,
    label: &str,
    intent: ErrorCode,
    patch: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>) -> i64,
) -> Scenario {
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let mut extra = 0;
    let f = place_frame_with(
        &mut b,
        data,
        codec_ty,
        chunk_log2,
        &format!("d{i} DECOMPRESS"),
        |m, p| {
            extra = patch(m, p);
        },
    );
    push_decompress(&mut b, &f, extra, label, intent);
    good_copy(&mut b, Some(codes::OK));
    b.finish()
}
