//! Fault scenarios for the DMA engine: one function per fault, each a [`Scenario`] whose
//! descriptors carry the error code they are meant to end with (`PlannedDesc::intent`), so
//! the golden model cross-checks the builder (and the builder the model) before any RTL runs.
//!
//! Most fault chains are `good COPY → faulty descriptor → good COPY`: the first shows the
//! engine still works before the fault, the last that the chain goes on after it
//! (`stop_on_error` = 0), except where the fault ends the chain (fetch failure, write-back
//! failure, `stop_on_error` = 1) and the last descriptor's intent is "not visited".
//!
//! Also here: the large COMPRESS / DECOMPRESS of the throughput goal, and the long chain an
//! abort is aimed at.

use cdma_model::dma::{codes, control_word, Descriptor, EngineConfig, ErrorCode, Op};
use cdma_model::spec::IndexEntry;
use cdma_model::spec::{
    CHUNK_LOG2_FIELD, CODEC_FIELD, ELEM_BITS_FIELD, HEADER_LEN, INDEX_ENTRY_LEN, MAGIC_FIELD,
    N_CHUNKS_FIELD, PAYLOAD_LEN_FIELD, RESERVED_FIELD, UNCOMPRESSED_LEN_FIELD, VERSION_FIELD,
};
use cdma_model::ElemWidth;
use cdma_spec::desc as d;
use rand::Rng;

use crate::axi::{Access, ErrorRange, Resp};
use crate::dma_scenario::{
    compress_desc, copy_desc, decompress_desc, frame_parts, with_flags, ChainBuilder, RegionKind,
    Scenario, Tensor, DEFAULT_WINDOW,
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

fn builder(name: &str, engine: &EngineConfig, seed: u64) -> ChainBuilder {
    ChainBuilder::new(name, *engine, seed, DEFAULT_WINDOW)
}

/// A COPY of random data that is meant to succeed (`intent`: OK, or None when the chain is
/// meant to end before it).
fn good_copy(b: &mut ChainBuilder, intent: Option<ErrorCode>) -> usize {
    let engine = b.engine();
    let eb = engine.elem().bytes();
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
        copy_desc(&engine, src, len as u32, dst, len as u32),
        &format!("COPY {len} B"),
        intent,
    )
}

/// Where a bus fault is injected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// COPY source.
    CopySrc,
    /// COMPRESS source (in its second chunk).
    CompressSrc,
    /// DECOMPRESS payload (in its second chunk's stored bytes).
    DecompressPayload,
    /// A descriptor (fetch).
    Descriptor,
    /// DECOMPRESS frame header.
    Header,
    /// DECOMPRESS chunk index, past the beat holding the header.
    Index,
    /// COPY destination.
    CopyDst,
    /// COMPRESS destination (payload).
    CompressDst,
    /// COMPRESS metadata (header + index write).
    CompressMeta,
    /// DECOMPRESS destination.
    DecompressDst,
    /// The status write-back of a descriptor.
    StatusWriteback,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 11] = [
        Target::CopySrc,
        Target::CompressSrc,
        Target::DecompressPayload,
        Target::Descriptor,
        Target::Header,
        Target::Index,
        Target::CopyDst,
        Target::CompressDst,
        Target::CompressMeta,
        Target::DecompressDst,
        Target::StatusWriteback,
    ];
}

/// The parts of a DECOMPRESS-able frame placed in memory.
struct PlacedFrame {
    meta: u64,
    payload: u64,
    payload_len: u32,
    data_len: u32,
    parts: crate::dma_scenario::FrameParts,
}

/// Places the model's frame of `data` (header + index, payload) for a DECOMPRESS, after
/// `patch` edits the metadata and payload bytes.
fn place_frame(
    b: &mut ChainBuilder,
    data: &[u8],
    chunk_log2: u8,
    label: &str,
    patch: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>),
) -> PlacedFrame {
    let elem = b.engine().elem();
    let mut parts = frame_parts(data, elem, chunk_log2);
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
fn push_decompress(
    b: &mut ChainBuilder,
    f: &PlacedFrame,
    extra: u32,
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
            &engine,
            f.payload,
            f.payload_len + extra,
            dst,
            f.data_len,
            f.meta,
        ),
        label,
        Some(intent),
    );
}

/// Byte offset in the payload where chunk `i`'s stored bytes start.
fn stored_offset(meta: &[u8], i: usize) -> usize {
    (0..i)
        .map(|k| IndexEntry::read(&meta[HEADER_LEN..], k).stored_len as usize)
        .sum()
}

/// A read or write error (`resp` = SLVERR or DECERR) at `target`.
pub fn bus_fault(engine: &EngineConfig, seed: u64, target: Target, resp: Resp) -> Scenario {
    let name = format!("bus fault {target:?} {resp:?}");
    let mut b = builder(&name, engine, seed);
    let elem = engine.elem();
    let eb = elem.bytes();
    let bb = u64::from(engine.bus_bytes());
    let ee = *engine;
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    // 40 chunks: the index (160 B) reaches past the beat holding the header on every bus.
    let data = relu_data(40 * (1 << chunk) / eb, elem, &mut b.rng);
    let err = |lo: u64, len: u64, on: Access| ErrorRange::new(lo, lo + len, resp, on);
    // Which descriptor ends the chain early (fetch or write-back failure).
    let mut ends_chain = false;
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    match target {
        Target::CopySrc | Target::CopyDst => {
            let src = b.data(&data, RegionKind::Source, &format!("d{i} COPY src"));
            let dst = b.alloc(
                data.len() as u64,
                bb,
                RegionKind::Destination,
                &format!("d{i} COPY dst"),
            );
            let (code, e) = if target == Target::CopySrc {
                (codes::READ_ERROR, err(src + 1000, 4, Access::Read))
            } else {
                (codes::WRITE_ERROR, err(dst + 1000, 4, Access::Write))
            };
            b.error(e);
            let len = data.len() as u32;
            b.push(copy_desc(&ee, src, len, dst, len), "COPY", Some(code));
        }
        Target::CompressSrc | Target::CompressDst | Target::CompressMeta => {
            let parts = frame_parts(&data, elem, chunk);
            let src = b.data(&data, RegionKind::Source, &format!("d{i} COMPRESS src"));
            let dst = b.alloc(
                data.len() as u64,
                bb,
                RegionKind::Destination,
                &format!("d{i} COMPRESS dst"),
            );
            let meta = b.alloc(
                parts.meta.len() as u64,
                bb,
                RegionKind::Metadata,
                &format!("d{i} COMPRESS meta"),
            );
            let (code, e) = match target {
                Target::CompressSrc => (
                    codes::READ_ERROR,
                    err(src + (1 << chunk) + 8, 4, Access::Read),
                ),
                Target::CompressDst => (
                    codes::WRITE_ERROR,
                    err(dst + stored_offset(&parts.meta, 1) as u64, 4, Access::Write),
                ),
                _ => (codes::WRITE_ERROR, err(meta + 40, 4, Access::Write)),
            };
            b.error(e);
            let len = data.len() as u32;
            b.push(
                compress_desc(&ee, src, len, dst, len, meta, chunk),
                "COMPRESS",
                Some(code),
            );
        }
        Target::DecompressPayload | Target::Header | Target::Index | Target::DecompressDst => {
            let f = place_frame(&mut b, &data, chunk, &format!("d{i} DECOMPRESS"), |_, _| {});
            let dst = b.alloc(
                u64::from(f.data_len),
                bb,
                RegionKind::Destination,
                &format!("d{i} DECOMPRESS dst"),
            );
            let (code, e) = match target {
                Target::DecompressPayload => (
                    codes::READ_ERROR,
                    err(
                        f.payload + stored_offset(&f.parts.meta, 1) as u64,
                        4,
                        Access::Read,
                    ),
                ),
                Target::Header => (codes::READ_ERROR, err(f.meta + 8, 4, Access::Read)),
                Target::Index => {
                    // First index byte past the beat that holds the header.
                    let at = (f.meta + HEADER_LEN as u64).next_multiple_of(bb);
                    (codes::READ_ERROR, err(at, 4, Access::Read))
                }
                _ => (
                    codes::WRITE_ERROR,
                    err(dst + (1 << chunk) + 8, 4, Access::Write),
                ),
            };
            b.error(e);
            b.push(
                decompress_desc(&ee, f.payload, f.payload_len, dst, f.data_len, f.meta),
                "DECOMPRESS",
                Some(code),
            );
        }
        Target::Descriptor => {
            // The fault is on the next descriptor's own bytes, known once placed: push it
            // and inject after finish (see below).
            good_copy(&mut b, Some(codes::READ_ERROR));
            ends_chain = true;
        }
        Target::StatusWriteback => {
            // The descriptor succeeds but its write-back fails: the chain ends.
            good_copy(&mut b, Some(codes::OK));
            ends_chain = true;
        }
    }
    good_copy(&mut b, if ends_chain { None } else { Some(codes::OK) });
    let mut scn = b.finish();
    let p = &scn.descs[1];
    match target {
        Target::Descriptor => scn.errors.push(err(p.addr + 8, 8, Access::Read)),
        Target::StatusWriteback => scn.errors.push(err(
            p.addr + d::STATUS_FIELD.offset as u64,
            8,
            Access::Write,
        )),
        _ => {}
    }
    scn
}

/// A descriptor failing with `stop_on_error` = `stop`: with 1 the chain ends there, with 0
/// it goes on.
pub fn stop_on_error(engine: &EngineConfig, seed: u64, stop: bool) -> Scenario {
    let mut b = builder(&format!("stop_on_error={stop}"), engine, seed);
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let bb = u64::from(engine.bus_bytes());
    let src = b.alloc(256, bb, RegionKind::Source, &format!("d{i} COPY src"));
    let dst = b.alloc(128, bb, RegionKind::Destination, &format!("d{i} COPY dst"));
    // COPY longer than its capacity: DST_OVERFLOW before anything moves.
    let desc = with_flags(copy_desc(engine, src, 256, dst, 128), true, stop);
    b.push(desc, "COPY overflow", Some(codes::DST_OVERFLOW));
    good_copy(&mut b, if stop { None } else { Some(codes::OK) });
    b.finish()
}

/// What is wrong with a frame header (DECOMPRESS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderFault {
    /// Magic byte changed (BAD_HEADER).
    Magic,
    /// Version 1 (BAD_HEADER).
    Version,
    /// Codec 2 (BAD_HEADER).
    Codec,
    /// elem_bits 12 (BAD_HEADER).
    ElemBits,
    /// chunk_log2 6 (BAD_HEADER).
    ChunkLog2Low,
    /// chunk_log2 25 (BAD_HEADER).
    ChunkLog2High,
    /// reserved ≠ 0 (BAD_HEADER).
    Reserved,
    /// uncompressed_len not a whole number of elements (BAD_HEADER; needs E > 8).
    UncompressedLen,
    /// n_chunks off by one (BAD_HEADER).
    NChunks,
    /// Descriptor src_len ≠ payload_len (BAD_HEADER).
    SrcLen,
    /// Another valid element width than the engine's (UNSUPPORTED).
    OtherElem,
    /// chunk_log2 above CHUNK_LOG2_MAX, n_chunks consistent (UNSUPPORTED).
    ChunkAboveMax,
    /// More than 2^IDX_LOG2 chunks (UNSUPPORTED).
    TooManyChunks,
    /// uncompressed_len > dst_cap (DST_OVERFLOW).
    DstOverflow,
}

impl HeaderFault {
    /// Every header fault.
    pub const ALL: [HeaderFault; 14] = [
        HeaderFault::Magic,
        HeaderFault::Version,
        HeaderFault::Codec,
        HeaderFault::ElemBits,
        HeaderFault::ChunkLog2Low,
        HeaderFault::ChunkLog2High,
        HeaderFault::Reserved,
        HeaderFault::UncompressedLen,
        HeaderFault::NChunks,
        HeaderFault::SrcLen,
        HeaderFault::OtherElem,
        HeaderFault::ChunkAboveMax,
        HeaderFault::TooManyChunks,
        HeaderFault::DstOverflow,
    ];

    /// The code the engine must report.
    pub fn code(self) -> ErrorCode {
        match self {
            HeaderFault::OtherElem | HeaderFault::ChunkAboveMax | HeaderFault::TooManyChunks => {
                codes::UNSUPPORTED
            }
            HeaderFault::DstOverflow => codes::DST_OVERFLOW,
            _ => codes::BAD_HEADER,
        }
    }

    /// Whether the fault can be expressed on `engine` (a length that is not whole 8-bit
    /// elements does not exist).
    pub fn applies(self, engine: &EngineConfig) -> bool {
        self != HeaderFault::UncompressedLen || engine.elem_bits() > 8
    }
}

fn put(f: cdma_spec::Field, meta: &mut [u8], v: u64) {
    f.put(meta, v);
}

/// A DECOMPRESS of a frame whose header has `fault` (between two good COPYs).
pub fn bad_header(engine: &EngineConfig, seed: u64, fault: HeaderFault) -> Scenario {
    let mut b = builder(&format!("header {fault:?}"), engine, seed);
    let elem = engine.elem();
    let eb = elem.bytes();
    let bb = u64::from(engine.bus_bytes());
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    // Not a whole number of chunks, but whole 32-bit words (so another element width is
    // still a valid header).
    let data = relu_data((5 * (1 << chunk) + 12) / eb, elem, &mut b.rng);
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let max = engine.chunk_log2_max();
    let idx = engine.idx_log2();
    let other = ElemWidth::ALL
        .into_iter()
        .find(|e| *e != elem)
        .expect("three widths");
    let f = place_frame(&mut b, &data, chunk, &format!("d{i} DECOMPRESS"), |m, _| {
        let ulen = UNCOMPRESSED_LEN_FIELD.get(m);
        match fault {
            HeaderFault::Magic => m[MAGIC_FIELD.offset + 2] ^= 0x20,
            HeaderFault::Version => put(VERSION_FIELD, m, 1),
            HeaderFault::Codec => put(CODEC_FIELD, m, 2),
            HeaderFault::ElemBits => put(ELEM_BITS_FIELD, m, 12),
            HeaderFault::ChunkLog2Low => put(CHUNK_LOG2_FIELD, m, 6),
            HeaderFault::ChunkLog2High => put(CHUNK_LOG2_FIELD, m, 25),
            HeaderFault::Reserved => put(RESERVED_FIELD, m, 1),
            HeaderFault::UncompressedLen => put(UNCOMPRESSED_LEN_FIELD, m, ulen + 1),
            HeaderFault::NChunks => {
                let n = N_CHUNKS_FIELD.get(m);
                put(N_CHUNKS_FIELD, m, n + 1);
            }
            HeaderFault::SrcLen | HeaderFault::DstOverflow => {}
            HeaderFault::OtherElem => put(ELEM_BITS_FIELD, m, u64::from(other.bits())),
            HeaderFault::ChunkAboveMax => {
                let c = max + 1;
                put(CHUNK_LOG2_FIELD, m, u64::from(c));
                put(N_CHUNKS_FIELD, m, ulen.div_ceil(1 << c));
            }
            HeaderFault::TooManyChunks => {
                let n = (1u64 << idx) + 1;
                put(CHUNK_LOG2_FIELD, m, u64::from(chunk));
                put(UNCOMPRESSED_LEN_FIELD, m, n << chunk);
                put(N_CHUNKS_FIELD, m, n);
            }
        }
    });
    let cap = if fault == HeaderFault::DstOverflow {
        f.data_len - eb as u32
    } else {
        f.data_len
    };
    let src_len = if fault == HeaderFault::SrcLen {
        f.payload_len + eb as u32
    } else {
        f.payload_len
    };
    let dst = b.alloc(
        u64::from(f.data_len),
        bb,
        RegionKind::Destination,
        &format!("d{i} DECOMPRESS dst"),
    );
    b.push(
        decompress_desc(engine, f.payload, src_len, dst, cap, f.meta),
        &format!("DECOMPRESS header {fault:?}"),
        Some(fault.code()),
    );
    good_copy(&mut b, Some(codes::OK));
    b.finish()
}

/// What is wrong with a chunk index (DECOMPRESS; all BAD_INDEX).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexFault {
    /// A raw entry whose size is not its chunk's.
    RawSize,
    /// A ZVC entry not smaller than its chunk.
    ZvcNotSmaller,
    /// A ZVC entry that is not a whole number of elements (needs E > 8).
    ZvcNotWhole,
    /// Valid entries whose sum is not payload_len (header and descriptor agree on a longer
    /// payload).
    SumMismatch,
}

impl IndexFault {
    /// Every index fault.
    pub const ALL: [IndexFault; 4] = [
        IndexFault::RawSize,
        IndexFault::ZvcNotSmaller,
        IndexFault::ZvcNotWhole,
        IndexFault::SumMismatch,
    ];

    /// Whether the fault can be expressed on `engine`.
    pub fn applies(self, engine: &EngineConfig) -> bool {
        self != IndexFault::ZvcNotWhole || engine.elem_bits() > 8
    }
}

/// A DECOMPRESS whose index has `fault` in its third entry (between two good COPYs).
pub fn bad_index(engine: &EngineConfig, seed: u64, fault: IndexFault) -> Scenario {
    let mut b = builder(&format!("index {fault:?}"), engine, seed);
    let elem = engine.elem();
    let eb = elem.bytes() as u64;
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    let mut data = relu_data(6 * (1 << chunk) / eb as usize, elem, &mut b.rng);
    // Chunk 3 incompressible (no zero element), so a raw entry exists.
    let c3 = 3 << chunk..4 << chunk;
    for x in data[c3].chunks_mut(eb as usize) {
        x[0] |= 1;
    }
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let mut extra = 0u32;
    let f = place_frame(&mut b, &data, chunk, &format!("d{i} DECOMPRESS"), |m, _| {
        let at = |k: usize| HEADER_LEN + k * INDEX_ENTRY_LEN;
        let entry = |m: &Vec<u8>, k: usize| IndexEntry::read(&m[HEADER_LEN..], k);
        let set = |m: &mut Vec<u8>, k: usize, e: IndexEntry| {
            m[at(k)..at(k) + 4].copy_from_slice(&e.to_word().to_le_bytes());
        };
        let chunk_len = 1u32 << chunk;
        match fault {
            IndexFault::RawSize => {
                let mut e = entry(m, 3);
                assert!(e.raw, "chunk 3 is incompressible");
                e.stored_len -= eb as u32;
                set(m, 3, e);
            }
            IndexFault::ZvcNotSmaller => {
                let mut e = entry(m, 2);
                assert!(!e.raw, "chunk 2 is ReLU-like");
                e.stored_len = chunk_len;
                set(m, 2, e);
            }
            IndexFault::ZvcNotWhole => {
                let mut e = entry(m, 2);
                e.stored_len += 1;
                set(m, 2, e);
            }
            IndexFault::SumMismatch => {
                let p = PAYLOAD_LEN_FIELD.get(m);
                PAYLOAD_LEN_FIELD.put(m, p + eb);
                extra = eb as u32;
            }
        }
    });
    push_decompress(
        &mut b,
        &f,
        extra,
        &format!("DECOMPRESS index {fault:?}"),
        codes::BAD_INDEX,
    );
    good_copy(&mut b, Some(codes::OK));
    b.finish()
}

/// A DECOMPRESS whose second chunk's ZVC payload has a zero element under a set mask bit
/// (BAD_PAYLOAD after the first chunk was written).
pub fn bad_payload(engine: &EngineConfig, seed: u64) -> Scenario {
    let mut b = builder("bad payload", engine, seed);
    let elem = engine.elem();
    let eb = elem.bytes();
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    let data = relu_data(4 * (1 << chunk) / eb, elem, &mut b.rng);
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let f = place_frame(&mut b, &data, chunk, &format!("d{i} DECOMPRESS"), |m, p| {
        let e = IndexEntry::read(&m[HEADER_LEN..], 1);
        assert!(!e.raw, "chunk 1 is ReLU-like");
        let mut at = stored_offset(m, 1);
        // Skip blocks with an empty mask: their elements are all implicit.
        while u32::from_le_bytes(p[at..at + 4].try_into().expect("4 bytes")) == 0 {
            at += 4;
        }
        p[at + 4..at + 4 + eb].fill(0);
    });
    push_decompress(&mut b, &f, 0, "DECOMPRESS bad payload", codes::BAD_PAYLOAD);
    good_copy(&mut b, Some(codes::OK));
    b.finish()
}

/// A DECOMPRESS whose last chunk holds 40 elements (a final block of 8) and whose ZVC payload
/// sets the mask bit of lane 20 in that block, with a non-zero element for it, index and
/// header lengths adjusted (docs/FORMAT.md rule 17b: BAD_PAYLOAD after the first chunks were
/// written).
pub fn mask_past_end(engine: &EngineConfig, seed: u64) -> Scenario {
    let mut b = builder("mask bit past the end", engine, seed);
    let elem = engine.elem();
    let eb = elem.bytes();
    // Chunks large enough for the 40 elements of the last one.
    let chunk = 7
        .max(engine.bus_bytes().trailing_zeros())
        .max((40 * eb).next_power_of_two().trailing_zeros()) as u8;
    let mut data = relu_data(2 * (1 << chunk) / eb, elem, &mut b.rng);
    // The last chunk: every third element non-zero, so it is stored ZVC.
    for i in 0..40 {
        let mut v = vec![0u8; eb];
        if i % 3 == 0 {
            v[0] = 1 + i as u8;
        }
        data.extend(v);
    }
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let f = place_frame(&mut b, &data, chunk, &format!("d{i} DECOMPRESS"), |m, p| {
        let at = HEADER_LEN + 2 * INDEX_ENTRY_LEN;
        assert_eq!(
            N_CHUNKS_FIELD.get(m),
            3,
            "two full chunks and the 40 elements"
        );
        let mut e = IndexEntry::read(&m[HEADER_LEN..], 2);
        assert!(!e.raw, "the last chunk is sparse");
        let start = stored_offset(m, 2);
        let mask0 = u32::from_le_bytes(p[start..start + 4].try_into().expect("4 bytes"));
        let m1 = start + 4 + mask0.count_ones() as usize * eb;
        p[m1 + 2] |= 1 << 4;
        // Lane 20 follows every element of the block: its element ends the payload.
        p.extend(std::iter::once(0x5A).chain(std::iter::repeat_n(0, eb - 1)));
        e.stored_len += eb as u32;
        m[at..at + 4].copy_from_slice(&e.to_word().to_le_bytes());
        put(PAYLOAD_LEN_FIELD, m, p.len() as u64);
        assert!(
            matches!(
                cdma_model::zvc::decode(&p[start..], elem, 40),
                Err(cdma_model::FormatError::MaskBitsPastEnd { .. })
            ),
            "the patched chunk breaks rule 17b"
        );
    });
    push_decompress(
        &mut b,
        &f,
        eb as u32,
        "DECOMPRESS mask bit past the end",
        codes::BAD_PAYLOAD,
    );
    good_copy(&mut b, Some(codes::OK));
    b.finish()
}

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
            let elem = engine.elem();
            let bb = u64::from(engine.bus_bytes());
            let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
            let data = relu_data(4 * (1 << chunk) / elem.bytes(), elem, &mut b.rng);
            let parts = frame_parts(&data, elem, chunk);
            good_copy(&mut b, Some(codes::OK));
            let i = b.next_index();
            let src = b.data(&data, RegionKind::Source, &format!("d{i} COMPRESS src"));
            let cap = stored_offset(&parts.meta, 2) as u64 - 1;
            let dst = b.alloc(
                cap,
                bb,
                RegionKind::Destination,
                &format!("d{i} COMPRESS dst"),
            );
            let meta = b.alloc(
                parts.meta.len() as u64,
                bb,
                RegionKind::Metadata,
                &format!("d{i} COMPRESS meta"),
            );
            let desc = compress_desc(engine, src, data.len() as u32, dst, cap as u32, meta, chunk);
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
    /// COMPRESS of more than 2^IDX_LOG2 chunks (UNSUPPORTED).
    TooManyChunks,
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
    pub const ALL: [DescFault; 18] = [
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
        DescFault::TooManyChunks,
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
            OtherElem | ChunkAboveMax | TooManyChunks => codes::UNSUPPORTED,
            UnalignedSrc | UnalignedDst | UnalignedMeta | UnalignedHalfBeat | UnalignedDesc => {
                codes::UNALIGNED
            }
            _ => codes::BAD_DESC,
        }
    }

    /// Whether the fault can be expressed on `engine`.
    pub fn applies(self, engine: &EngineConfig) -> bool {
        self != DescFault::LenNotWhole || engine.elem_bits() > 8
    }
}

/// A descriptor with `fault` (between two good COPYs; after `UnalignedDesc` the chain ends).
pub fn bad_desc(engine: &EngineConfig, seed: u64, fault: DescFault) -> Scenario {
    use DescFault::*;
    let mut b = builder(&format!("descriptor {fault:?}"), engine, seed);
    let elem = engine.elem();
    let bb = u64::from(engine.bus_bytes());
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let len: u32 = if fault == TooManyChunks {
        ((1u32 << engine.idx_log2()) + 1) << 7
    } else {
        1024
    };
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
    let e = engine.elem_bits();
    let other = ElemWidth::ALL
        .into_iter()
        .find(|w| *w != elem)
        .expect("three widths")
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
            let bit = [6u32, 7, 13, 20, 31][b.rng.gen_range(0..5)];
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
        TooManyChunks => desc.control = control_word(Op::Compress, e, 7, false, false),
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

/// Every fault scenario that applies to `engine`, each seeded from `seed`.
pub fn all_faults(engine: &EngineConfig, seed: u64) -> Vec<Scenario> {
    let mut v = Vec::new();
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        s
    };
    for t in Target::ALL {
        for r in [Resp::Slverr, Resp::Decerr] {
            v.push(bus_fault(engine, next(), t, r));
        }
    }
    for stop in [false, true] {
        v.push(stop_on_error(engine, next(), stop));
    }
    for f in HeaderFault::ALL.into_iter().filter(|f| f.applies(engine)) {
        v.push(bad_header(engine, next(), f));
    }
    for f in IndexFault::ALL.into_iter().filter(|f| f.applies(engine)) {
        v.push(bad_index(engine, next(), f));
    }
    v.push(bad_payload(engine, next()));
    v.push(mask_past_end(engine, next()));
    for o in [
        Overflow::Copy,
        Overflow::CompressMidStream,
        Overflow::DecompressHeader,
    ] {
        v.push(dst_overflow(engine, next(), o));
    }
    for f in DescFault::ALL.into_iter().filter(|f| f.applies(engine)) {
        v.push(bad_desc(engine, next(), f));
    }
    v
}

/// One large COMPRESS of `data` (chunks of `2^CHUNK_LOG2_MAX`, capacity `src_len`), alone in
/// its chain: the read side of the throughput goal.
pub fn throughput_compress(engine: &EngineConfig, data: &[u8], seed: u64) -> Scenario {
    let mut b = builder("throughput COMPRESS", engine, seed);
    let bb = u64::from(engine.bus_bytes());
    let chunk = engine.chunk_log2_max();
    let parts = frame_parts(data, engine.elem(), chunk);
    let src = b.data(data, RegionKind::Source, "d0 COMPRESS src");
    let dst = b.alloc(
        data.len() as u64,
        bb,
        RegionKind::Destination,
        "d0 COMPRESS dst",
    );
    let meta = b.alloc(
        parts.meta.len() as u64,
        bb,
        RegionKind::Metadata,
        "d0 COMPRESS meta",
    );
    let len = data.len() as u32;
    b.push(
        compress_desc(engine, src, len, dst, len, meta, chunk),
        "COMPRESS (throughput)",
        Some(codes::OK),
    );
    b.finish()
}

/// One large DECOMPRESS of the model's frame of `data`, alone in its chain: the write side
/// of the throughput goal.
pub fn throughput_decompress(engine: &EngineConfig, data: &[u8], seed: u64) -> Scenario {
    let mut b = builder("throughput DECOMPRESS", engine, seed);
    let f = place_frame(
        &mut b,
        data,
        engine.chunk_log2_max(),
        "d0 DECOMPRESS",
        |_, _| {},
    );
    push_decompress(&mut b, &f, 0, "DECOMPRESS (throughput)", codes::OK);
    b.finish()
}

/// A long chain to abort: every tensor compressed and restored (a round trip each), in a
/// window of its own (`window`) so a second chain can run beside it afterwards.
pub fn abort_chain(
    engine: &EngineConfig,
    tensors: &[Tensor],
    seed: u64,
    window: std::ops::Range<u64>,
) -> Scenario {
    let opts = crate::dma_scenario::RandomOpts {
        max_copies: 2,
        max_unaligned: 0,
        window,
        ..Default::default()
    };
    crate::dma_scenario::random_chain_with("abort", engine, tensors, seed, &opts, |b| {
        b.junk_status(false)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dma_check::merge;
    use crate::dma_scenario::check_intents;
    use cdma_model::dma::ChainEnd;

    fn engines() -> Vec<EngineConfig> {
        [32, 64, 128]
            .map(|bb| EngineConfig::new(bb).unwrap())
            .to_vec()
    }

    /// Every fault scenario produces its intended code in the golden model (a cross-check of
    /// builder and model), on every bus width, and changes nothing outside destinations,
    /// metadata and status words.
    #[test]
    fn every_fault_gets_its_intended_code_from_the_model() {
        for engine in engines() {
            let all = all_faults(&engine, 11);
            assert!(all.len() >= 60, "{}", all.len());
            for scn in &all {
                let exp = scn.expect();
                let bad = check_intents(scn, &exp);
                assert!(
                    bad.is_empty(),
                    "{} (BB {}): {bad:?}",
                    scn.name,
                    engine.bus_bytes()
                );
                crate::dma_scenario::tests::check_layout(scn);
                crate::dma_scenario::tests::check_model_writes(scn, &exp);
            }
        }
    }

    #[test]
    fn bus_faults_end_the_chain_where_the_rules_say() {
        let e = EngineConfig::default();
        let end = |t, r| bus_fault(&e, 1, t, r).expect().outcome.end;
        assert_eq!(end(Target::Descriptor, Resp::Slverr), ChainEnd::FetchFailed);
        assert_eq!(
            end(Target::StatusWriteback, Resp::Decerr),
            ChainEnd::WritebackFailed
        );
        assert_eq!(end(Target::CopySrc, Resp::Decerr), ChainEnd::Completed);
        assert_eq!(
            stop_on_error(&e, 1, true).expect().outcome.end,
            ChainEnd::StoppedOnError
        );
        // Streaming errors leave the destination unspecified, early ones nothing.
        let s = bus_fault(&e, 2, Target::CompressSrc, Resp::Slverr).expect();
        assert_eq!(merge(s.unspecified).len(), 2);
        assert!(bad_header(&e, 3, HeaderFault::Magic)
            .expect()
            .unspecified
            .is_empty());
        // The index error really lies past the header's beat.
        let s = bus_fault(&e, 4, Target::Index, Resp::Slverr);
        let p = &s.descs[1].desc;
        assert!(s.errors[0].lo >= p.meta_addr + 128);
    }

    #[test]
    fn throughput_and_abort_scenarios_run_in_the_model() {
        let e = EngineConfig::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let data = relu_data(256 * 1024, ElemWidth::W32, &mut rng);
        for scn in [
            throughput_compress(&e, &data, 1),
            throughput_decompress(&e, &data, 2),
        ] {
            let exp = scn.expect();
            assert_eq!(check_intents(&scn, &exp), Vec::<String>::new());
        }
        let ts: Vec<Tensor> = (0..3)
            .map(|i| Tensor {
                name: format!("t{i}"),
                data: relu_data(8000, ElemWidth::W32, &mut rng),
            })
            .collect();
        let s = abort_chain(&e, &ts, 3, DEFAULT_WINDOW);
        // Status words start zero, so `done` in memory is the engine's.
        let m = s.model_memory();
        for p in &s.descs {
            assert_eq!(m.peek(p.addr + 0x30, 8), vec![0; 8]);
        }
    }
    use rand::SeedableRng;
}
