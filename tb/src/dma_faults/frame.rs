//! Broken frames for DECOMPRESS: header fields, chunk index entries, ZVC payload.

use cdma_model::dma::{codes, EngineConfig, ErrorCode};
use cdma_model::layout::IndexEntry;
use cdma_model::layout::{
    CHUNK_LOG2_FIELD, CODEC_FIELD, CODEC_ZVCX, ELEM_BITS_FIELD, ELEM_TYPE_FIELD, HEADER_LEN,
    INDEX_ENTRY_LEN, MAGIC_FIELD, N_CHUNKS_FIELD, PAYLOAD_LEN_FIELD, RESERVED_FIELD,
    RESERVED_TYPED_FIELD, UNCOMPRESSED_LEN_FIELD, VERSION_FIELD, VERSION_TYPED,
};
use cdma_model::{ElemType, ElemWidth};

use super::parts::{
    builder, decompress_between_copies, good_copy, place_frame, put, relu_data, stored_offset,
};
use crate::dma_scenario::{decompress_desc, RegionKind, Scenario};

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
    /// uncompressed_len > dst_cap (DST_OVERFLOW).
    DstOverflow,
    /// Version 3 with a float type of another width (BAD_HEADER).
    TypeWidthMismatch,
    /// Version 3 with type code 6 (BAD_HEADER).
    TypeUnknown,
    /// Version 3 with a reserved byte (13–15) set (BAD_HEADER).
    TypedReserved,
    /// Version 3, codec ZVC-X, on an engine without it (UNSUPPORTED).
    ZvcxFrame,
}

impl HeaderFault {
    /// Every header fault.
    pub const ALL: [HeaderFault; 17] = [
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
        HeaderFault::DstOverflow,
        HeaderFault::TypeWidthMismatch,
        HeaderFault::TypeUnknown,
        HeaderFault::TypedReserved,
        HeaderFault::ZvcxFrame,
    ];

    /// The code the engine must report.
    pub fn code(self) -> ErrorCode {
        match self {
            HeaderFault::ChunkAboveMax | HeaderFault::ZvcxFrame => codes::UNSUPPORTED,
            HeaderFault::DstOverflow => codes::DST_OVERFLOW,
            _ => codes::BAD_HEADER,
        }
    }

    /// Whether the fault can be expressed on `engine` with `elem`-wide data (a length that
    /// is not whole 8-bit elements does not exist; a ZVC-X frame is a fault only on an
    /// engine without the codec).
    pub fn applies(self, engine: &EngineConfig, elem: ElemWidth) -> bool {
        match self {
            HeaderFault::UncompressedLen => elem.bits() > 8,
            HeaderFault::ZvcxFrame => !engine.has_zvcx(),
            _ => true,
        }
    }
}

/// A DECOMPRESS of a frame whose header has `fault` (between two good COPYs).
pub fn bad_header(engine: &EngineConfig, seed: u64, fault: HeaderFault) -> Scenario {
    let mut b = builder(&format!("header {fault:?}"), engine, seed);
    let elem = b.elem();
    let eb = elem.bytes();
    let bb = u64::from(engine.bus_bytes());
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    // Not a whole number of chunks, but whole 32-bit words (so another element width is
    // still a valid header).
    let data = relu_data((5 * (1 << chunk) + 12) / eb, elem, &mut b.rng);
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let max = engine.chunk_log2_max();
    let other = ElemWidth::ALL
        .into_iter()
        .find(|e| *e != elem)
        .expect("three widths");
    let other_float = ElemType::ALL
        .into_iter()
        .find(|t| t.is_float() && t.width() != elem)
        .expect("floats of two widths at least");
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
            HeaderFault::TypeWidthMismatch => {
                put(VERSION_FIELD, m, u64::from(VERSION_TYPED));
                put(ELEM_TYPE_FIELD, m, u64::from(other_float.code()));
            }
            HeaderFault::TypeUnknown => {
                put(VERSION_FIELD, m, u64::from(VERSION_TYPED));
                put(ELEM_TYPE_FIELD, m, 6);
            }
            HeaderFault::TypedReserved => {
                put(VERSION_FIELD, m, u64::from(VERSION_TYPED));
                m[RESERVED_TYPED_FIELD.offset + 1] = 1;
            }
            HeaderFault::ZvcxFrame => {
                put(VERSION_FIELD, m, u64::from(VERSION_TYPED));
                put(CODEC_FIELD, m, u64::from(CODEC_ZVCX));
            }
            HeaderFault::ChunkAboveMax => {
                let c = max + 1;
                put(CHUNK_LOG2_FIELD, m, u64::from(c));
                put(N_CHUNKS_FIELD, m, ulen.div_ceil(1 << c));
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
        decompress_desc(elem, f.payload, src_len, dst, cap, f.meta),
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
    pub fn applies(self, elem: ElemWidth) -> bool {
        self != IndexFault::ZvcNotWhole || elem.bits() > 8
    }
}

/// A DECOMPRESS whose index has `fault` in its third entry (between two good COPYs).
pub fn bad_index(engine: &EngineConfig, seed: u64, fault: IndexFault) -> Scenario {
    let mut b = builder(&format!("index {fault:?}"), engine, seed);
    let elem = b.elem();
    let eb = elem.bytes() as u64;
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    let mut data = relu_data(6 * (1 << chunk) / eb as usize, elem, &mut b.rng);
    // Chunk 3 incompressible (no zero element), so a raw entry exists.
    let c3 = 3 << chunk..4 << chunk;
    for x in data[c3].chunks_mut(eb as usize) {
        x[0] |= 1;
    }
    let label = format!("DECOMPRESS index {fault:?}");
    decompress_between_copies(b, &data, chunk, &label, codes::BAD_INDEX, |m, _| {
        let mut extra = 0u32;
        let at = |k: usize| HEADER_LEN + k * INDEX_ENTRY_LEN;
        let entry = |m: &Vec<u8>, k: usize| IndexEntry::read(&m[HEADER_LEN..], k, false);
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
        extra
    })
}

/// A DECOMPRESS whose second chunk's ZVC payload has a zero element under a set mask bit
/// (BAD_PAYLOAD after the first chunk was written).
pub fn bad_payload(engine: &EngineConfig, seed: u64) -> Scenario {
    let mut b = builder("bad payload", engine, seed);
    let elem = b.elem();
    let eb = elem.bytes();
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    let data = relu_data(4 * (1 << chunk) / eb, elem, &mut b.rng);
    let label = "DECOMPRESS bad payload";
    decompress_between_copies(b, &data, chunk, label, codes::BAD_PAYLOAD, |m, p| {
        let e = IndexEntry::read(&m[HEADER_LEN..], 1, false);
        assert!(!e.raw, "chunk 1 is ReLU-like");
        let mut at = stored_offset(m, 1);
        // Skip blocks with an empty mask: their elements are all implicit.
        while u32::from_le_bytes(p[at..at + 4].try_into().expect("4 bytes")) == 0 {
            at += 4;
        }
        p[at + 4..at + 4 + eb].fill(0);
        0
    })
}

/// A DECOMPRESS whose last chunk holds 40 elements (a final block of 8) and whose ZVC payload
/// sets the mask bit of lane 20 in that block, with a non-zero element for it, index and
/// header lengths adjusted (docs/FORMAT.md rule 17b: BAD_PAYLOAD after the first chunks were
/// written).
pub fn mask_past_end(engine: &EngineConfig, seed: u64) -> Scenario {
    let mut b = builder("mask bit past the end", engine, seed);
    let elem = b.elem();
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
    let label = "DECOMPRESS mask bit past the end";
    decompress_between_copies(b, &data, chunk, label, codes::BAD_PAYLOAD, |m, p| {
        let at = HEADER_LEN + 2 * INDEX_ENTRY_LEN;
        assert_eq!(
            N_CHUNKS_FIELD.get(m),
            3,
            "two full chunks and the 40 elements"
        );
        let mut e = IndexEntry::read(&m[HEADER_LEN..], 2, false);
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
        // The DECOMPRESS reads the extra element too.
        eb as u32
    })
}
