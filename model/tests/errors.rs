//! Every `FormatError` variant, produced through the public API with the exact numbers, and
//! the order of docs/FORMAT.md's decoder rules.

use std::collections::BTreeSet;

use cdma_model::zvcx::ZvcxError;
use cdma_model::{
    compress, compress_chunked, compress_frame, compress_with, decompress, layout, zvc, Codec,
    ElemType, ElemWidth, FormatError, FrameOptions, FrameView,
};

/// Name of a variant. The match has no wildcard, so adding a variant without extending this
/// function (and, through `ALL_VARIANTS`, the test below) does not compile.
fn variant(e: &FormatError) -> &'static str {
    match e {
        FormatError::HeaderTooShort { .. } => "HeaderTooShort",
        FormatError::BadMagic { .. } => "BadMagic",
        FormatError::UnsupportedVersion { .. } => "UnsupportedVersion",
        FormatError::UnknownCodec { .. } => "UnknownCodec",
        FormatError::BadElemWidth { .. } => "BadElemWidth",
        FormatError::BadChunkLog2 { .. } => "BadChunkLog2",
        FormatError::ReservedNonZero { .. } => "ReservedNonZero",
        FormatError::UncompressedLenNotWholeElements { .. } => "UncompressedLenNotWholeElements",
        FormatError::OutputTooLarge { .. } => "OutputTooLarge",
        FormatError::ChunkCountMismatch { .. } => "ChunkCountMismatch",
        FormatError::IndexTruncated { .. } => "IndexTruncated",
        FormatError::RawChunkSizeMismatch { .. } => "RawChunkSizeMismatch",
        FormatError::ZvcChunkNotSmaller { .. } => "ZvcChunkNotSmaller",
        FormatError::ZvcChunkNotWholeElements { .. } => "ZvcChunkNotWholeElements",
        FormatError::PayloadLenMismatch { .. } => "PayloadLenMismatch",
        FormatError::Truncated { .. } => "Truncated",
        FormatError::TrailingBytes { .. } => "TrailingBytes",
        FormatError::BadChunk { .. } => "BadChunk",
        FormatError::PayloadEndsInsideBlock { .. } => "PayloadEndsInsideBlock",
        FormatError::MaskBitsPastEnd { .. } => "MaskBitsPastEnd",
        FormatError::ZeroElementInPayload { .. } => "ZeroElementInPayload",
        FormatError::ExcessPayload { .. } => "ExcessPayload",
        FormatError::InputNotWholeElements { .. } => "InputNotWholeElements",
        FormatError::TooManyChunks { .. } => "TooManyChunks",
        FormatError::ChunkOutOfRange { .. } => "ChunkOutOfRange",
        FormatError::UnknownElemType { .. } => "UnknownElemType",
        FormatError::ElemTypeWidthMismatch { .. } => "ElemTypeWidthMismatch",
        FormatError::ZvcX(_) => "ZvcX",
        FormatError::MetaCrcMismatch { .. } => "MetaCrcMismatch",
        FormatError::ChunkCrcMismatch { .. } => "ChunkCrcMismatch",
    }
}

const ALL_VARIANTS: [&str; 30] = [
    "HeaderTooShort",
    "BadMagic",
    "UnsupportedVersion",
    "UnknownCodec",
    "BadElemWidth",
    "BadChunkLog2",
    "ReservedNonZero",
    "UncompressedLenNotWholeElements",
    "OutputTooLarge",
    "ChunkCountMismatch",
    "IndexTruncated",
    "RawChunkSizeMismatch",
    "ZvcChunkNotSmaller",
    "ZvcChunkNotWholeElements",
    "PayloadLenMismatch",
    "Truncated",
    "TrailingBytes",
    "BadChunk",
    "PayloadEndsInsideBlock",
    "MaskBitsPastEnd",
    "ZeroElementInPayload",
    "ExcessPayload",
    "InputNotWholeElements",
    "TooManyChunks",
    "ChunkOutOfRange",
    "UnknownElemType",
    "ElemTypeWidthMismatch",
    "ZvcX",
    "MetaCrcMismatch",
    "ChunkCrcMismatch",
];

/// A valid E=32 frame of 72 elements in chunks of 2^7 bytes (128, 128, 32 bytes):
/// chunk 0 has 21 non-zero elements (ZVC, 88 bytes), chunk 1 is dense (raw, 128 bytes),
/// chunk 2 has 6 of 8 non-zero (ZVC, 28 bytes, mask 0xDB). Payload 244 bytes at frame
/// offset 44; frame 288 bytes.
fn sample() -> (Vec<u8>, Vec<u8>) {
    let data: Vec<u8> = (0..72u32)
        .flat_map(|i| {
            let zero = i % 3 == 0 && !(32..64).contains(&i);
            if zero { 0 } else { i * 0x0101_0101 }.to_le_bytes()
        })
        .collect();
    let f = compress_chunked(&data, ElemWidth::W32, 7).unwrap();
    (f, data)
}

const P: usize = 44; // payload offset in the sample frame
const C2: usize = P + 88 + 128; // chunk 2's stored bytes in the sample frame

/// The sample's data as a version 4 frame (CRCs): 60 bytes of header, index of 8-byte
/// entries and metadata CRC, then the same 244 payload bytes.
fn sample_crc() -> (Vec<u8>, Vec<u8>) {
    let (_, data) = sample();
    let opts = FrameOptions {
        chunk_log2: 7,
        ..FrameOptions::new(ElemType::Raw(ElemWidth::W32))
    };
    (compress_frame(&data, &opts).unwrap(), data)
}

const P4: usize = 60; // payload offset in the version 4 sample frame

fn patch(f: &[u8], at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut g = f.to_vec();
    g[at..at + bytes.len()].copy_from_slice(bytes);
    g
}

fn entry(f: &[u8], i: usize, word: u32) -> Vec<u8> {
    patch(f, 32 + 4 * i, &word.to_le_bytes())
}

fn bad_chunk(chunk: u32, offset: u64, stored_len: u32, source: FormatError) -> FormatError {
    FormatError::BadChunk {
        chunk,
        offset,
        stored_len,
        source: Box::new(source),
    }
}

/// One case: its name, what the API returned, and the error it must have returned.
type Case = (&'static str, Result<Vec<u8>, FormatError>, FormatError);

/// All cases; checked one by one below.
fn cases() -> Vec<Case> {
    let (good, _) = sample();
    let mut v: Vec<Case> = Vec::new();
    let too_short = |len| FormatError::HeaderTooShort {
        len,
        header_len: 32,
    };
    v.push(("31-byte frame", decompress(&good[..31]), too_short(31)));
    v.push(("empty frame", decompress(&[]), too_short(0)));
    v.push((
        "magic CDMA",
        decompress(&patch(&good, 0, b"C")),
        FormatError::BadMagic {
            found: *b"CDMA",
            expected: *b"cDMA",
        },
    ));
    v.push((
        "version 1 (the old unchunked frame)",
        decompress(&patch(&good, 4, &[1])),
        FormatError::UnsupportedVersion {
            version: 1,
            supported: 4,
        },
    ));
    v.push((
        "codec 0",
        decompress(&patch(&good, 5, &[0])),
        FormatError::UnknownCodec {
            codec: 0,
            version: 2,
        },
    ));
    v.push((
        "codec 2 (ZVC-X) in a version 2 frame",
        decompress(&patch(&good, 5, &[2])),
        FormatError::UnknownCodec {
            codec: 2,
            version: 2,
        },
    ));
    // Version 3: byte 12 is the element type.
    let typed = compress_with(&[0u8; 64], Codec::ZvcX, ElemType::F16, 7).unwrap();
    assert_eq!(typed[4..6], [3, 2]);
    v.push((
        "version 3, elem_type 6",
        decompress(&patch(&typed, 12, &[6])),
        FormatError::UnknownElemType { code: 6 },
    ));
    v.push((
        "version 3, elem_type f32 (1) with elem_bits 16",
        decompress(&patch(&typed, 12, &[1])),
        FormatError::ElemTypeWidthMismatch {
            elem_type: "f32",
            type_bits: 32,
            elem_bits: 16,
        },
    ));
    v.push((
        "version 2, byte 12 set (part of its reserved word)",
        decompress(&patch(&good, 12, &[1])),
        FormatError::ReservedNonZero { value: 1 },
    ));
    // 32 zero f16 elements: one "00" block, padded: payload byte 0x00 at offset 36. A set
    // padding bit is a ZVC-X payload error inside chunk 0.
    v.push((
        "ZVC-X padding bit set",
        decompress(&patch(&typed, 36, &[0x04])),
        bad_chunk(
            0,
            0,
            1,
            FormatError::ZvcX(ZvcxError::PaddingNotZero { value: 1 }),
        ),
    ));
    v.push((
        "elem_bits 24",
        decompress(&patch(&good, 6, &[24])),
        FormatError::BadElemWidth { bits: 24 },
    ));
    v.push((
        "from_bits(64)",
        ElemWidth::from_bits(64).map(|_| vec![]),
        FormatError::BadElemWidth { bits: 64 },
    ));
    for bad in [0u8, 6, 25, 255] {
        v.push((
            "chunk_log2 out of range",
            decompress(&patch(&good, 7, &[bad])),
            FormatError::BadChunkLog2 {
                chunk_log2: bad,
                min: 7,
                max: 24,
            },
        ));
    }
    v.push((
        "compress with chunk_log2 6",
        compress_chunked(&[0; 4], ElemWidth::W32, 6),
        FormatError::BadChunkLog2 {
            chunk_log2: 6,
            min: 7,
            max: 24,
        },
    ));
    v.push((
        "reserved byte 13 = 0x40",
        decompress(&patch(&good, 13, &[0x40])),
        FormatError::ReservedNonZero { value: 0x4000 },
    ));
    v.push((
        "uncompressed_len 287 with E=32",
        decompress(&patch(&good, 16, &[31, 1])),
        FormatError::UncompressedLenNotWholeElements {
            len: 287,
            elem_bytes: 4,
        },
    ));
    v.push((
        "n_chunks 2 for 288 bytes in 128-byte chunks",
        decompress(&patch(&good, 8, &[2])),
        FormatError::ChunkCountMismatch {
            n_chunks: 2,
            expected: 3,
            uncompressed_len: 288,
            chunk_log2: 7,
        },
    ));
    // E=8, uncompressed_len 2^64 - 1: 2^57 chunks, which no 32-bit n_chunks can match.
    let mut huge = patch(&good, 6, &[8]);
    huge[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
    v.push((
        "uncompressed_len 2^64 - 1",
        decompress(&huge),
        FormatError::ChunkCountMismatch {
            n_chunks: 3,
            expected: 1 << 57,
            uncompressed_len: u64::MAX,
            chunk_log2: 7,
        },
    ));
    v.push((
        "zvc::decode with 2^62 E=32 elements",
        zvc::decode(&[], ElemWidth::W32, 1 << 62),
        FormatError::OutputTooLarge {
            n_elems: 1 << 62,
            elem_bytes: 4,
            max: isize::MAX as u64,
        },
    ));
    v.push((
        "frame cut inside the index",
        decompress(&good[..40]),
        FormatError::IndexTruncated {
            len: 40,
            n_chunks: 3,
            needed: 44,
        },
    ));
    v.push((
        "header only, 3 chunks",
        decompress(&good[..32]),
        FormatError::IndexTruncated {
            len: 32,
            n_chunks: 3,
            needed: 44,
        },
    ));
    v.push((
        "raw chunk 1 of 127 bytes",
        decompress(&entry(&good, 1, 0x8000_007F)),
        FormatError::RawChunkSizeMismatch {
            chunk: 1,
            stored_len: 127,
            chunk_len: 128,
        },
    ));
    v.push((
        "raw last chunk of 28 bytes (it is 32)",
        decompress(&entry(&good, 2, 0x8000_001C)),
        FormatError::RawChunkSizeMismatch {
            chunk: 2,
            stored_len: 28,
            chunk_len: 32,
        },
    ));
    v.push((
        "ZVC chunk 1 of 128 bytes",
        decompress(&entry(&good, 1, 128)),
        FormatError::ZvcChunkNotSmaller {
            chunk: 1,
            stored_len: 128,
            chunk_len: 128,
        },
    ));
    v.push((
        "ZVC chunk 0 of 87 bytes",
        decompress(&entry(&good, 0, 87)),
        FormatError::ZvcChunkNotWholeElements {
            chunk: 0,
            stored_len: 87,
            elem_bytes: 4,
        },
    ));
    v.push((
        "entries 0 and 2 both bad: the first is reported",
        decompress(&entry(&entry(&good, 2, 0x8000_0001), 0, 200)),
        FormatError::ZvcChunkNotSmaller {
            chunk: 0,
            stored_len: 200,
            chunk_len: 128,
        },
    ));
    v.push((
        "payload_len 245, index sums to 244",
        decompress(&patch(&good, 24, &[245])),
        FormatError::PayloadLenMismatch {
            payload_len: 245,
            index_sum: 244,
        },
    ));
    v.push((
        "chunk 2 entry 24, index sums to 240",
        decompress(&entry(&good, 2, 24)),
        FormatError::PayloadLenMismatch {
            payload_len: 244,
            index_sum: 240,
        },
    ));
    v.push((
        "frame missing its last byte",
        decompress(&good[..good.len() - 1]),
        FormatError::Truncated {
            payload_len: 244,
            available: 243,
        },
    ));
    let mut long = good.clone();
    long.extend_from_slice(&[0, 0, 0]);
    v.push((
        "3 bytes appended",
        decompress(&long),
        FormatError::TrailingBytes {
            payload_len: 244,
            extra: 3,
        },
    ));
    // Chunk 0's first stored element (its element 1; element 0 is zero) set to zero.
    v.push((
        "zero element stored in chunk 0",
        decompress(&patch(&good, P + 4, &[0; 4])),
        bad_chunk(
            0,
            0,
            88,
            FormatError::ZeroElementInPayload {
                block: 0,
                element: 1,
                offset: 4,
            },
        ),
    ));
    // Chunk 2 (8 elements, mask 0xDB): bit 0 moved to bit 8, popcount unchanged.
    v.push((
        "mask bit 8 in chunk 2's 8-element block",
        decompress(&patch(&good, C2, &[0xDA, 0x01])),
        bad_chunk(
            2,
            216,
            28,
            FormatError::MaskBitsPastEnd {
                block: 0,
                mask: 0x1DA,
                valid: 8,
            },
        ),
    ));
    v.push((
        "chunk 2's mask asks for 7 elements, 6 stored",
        decompress(&patch(&good, C2, &[0xDF])),
        bad_chunk(
            2,
            216,
            28,
            FormatError::PayloadEndsInsideBlock {
                block: 0,
                offset: 0,
                needed: 32,
                available: 28,
            },
        ),
    ));
    v.push((
        "chunk 2's mask asks for 5 elements, 6 stored",
        decompress(&patch(&good, C2, &[0x5B])),
        bad_chunk(
            2,
            216,
            28,
            FormatError::ExcessPayload {
                extra: 4,
                payload_len: 28,
            },
        ),
    ));
    v.push((
        "compress 7 bytes as E=32",
        compress(&[1; 7], ElemWidth::W32),
        FormatError::InputNotWholeElements {
            len: 7,
            elem_bytes: 4,
        },
    ));
    v.push((
        "2^56 + 1 bytes in 2^24-byte chunks",
        layout::chunk_count((1 << 56) + 1, 24).map(|_| vec![]),
        FormatError::TooManyChunks {
            len: (1 << 56) + 1,
            chunk_log2: 24,
            n_chunks: (1 << 32) + 1,
            max: u32::MAX as u64,
        },
    ));
    // Version 4: the metadata CRC (rule 10a) and the chunks' CRCs (rule 17a).
    let (checked, data) = sample_crc();
    let stored_meta = u32::from_le_bytes(checked[56..60].try_into().unwrap());
    let damaged = patch(&checked, 40, &[checked[40] ^ 0x10]);
    v.push((
        "version 4, an index entry's CRC damaged",
        decompress(&damaged),
        FormatError::MetaCrcMismatch {
            stored: stored_meta,
            computed: layout::meta_crc(&damaged[32..56], &damaged[..32]),
        },
    ));
    // Chunk 1 is stored raw at payload offset 88: a flipped bit there decodes "fine".
    let damaged = patch(&checked, P4 + 88 + 5, &[checked[P4 + 88 + 5] ^ 1]);
    v.push((
        "version 4, a bit of the raw chunk 1 flipped",
        decompress(&damaged),
        FormatError::ChunkCrcMismatch {
            chunk: 1,
            offset: 88,
            stored_len: 128,
            stored: layout::crc32c(&data[128..256]),
            computed: layout::crc32c(&damaged[P4 + 88..P4 + 216]),
        },
    ));
    v.push((
        "version 4 frame cut inside its metadata CRC",
        decompress(&checked[..58]),
        FormatError::IndexTruncated {
            len: 58,
            n_chunks: 3,
            needed: 60,
        },
    ));
    v.push((
        "chunk 3 of 3",
        FrameView::parse(&good).unwrap().chunk(3),
        FormatError::ChunkOutOfRange {
            chunk: 3,
            n_chunks: 3,
        },
    ));
    v
}

#[test]
fn each_case_produces_its_error() {
    for (name, got, want) in cases() {
        assert_eq!(got, Err(want), "case: {name}");
    }
}

#[test]
fn every_variant_is_covered_and_has_a_message() {
    let mut seen = BTreeSet::new();
    for (_, _, want) in cases() {
        seen.insert(variant(&want));
        if let FormatError::BadChunk { source, .. } = &want {
            seen.insert(variant(source));
        }
        // Messages carry the numbers: at least one digit, and no Debug formatting.
        let msg = want.to_string();
        assert!(msg.chars().any(|c| c.is_ascii_digit()), "{msg}");
    }
    let all: BTreeSet<_> = ALL_VARIANTS.into_iter().collect();
    assert_eq!(seen, all);
}

#[test]
fn sample_frame_is_as_described() {
    let (good, data) = sample();
    assert_eq!(good.len(), 288);
    let v = FrameView::parse(&good).unwrap();
    let words: Vec<u32> = v.index().iter().map(|e| e.to_word()).collect();
    assert_eq!(words, [88, 0x8000_0080, 28]);
    assert_eq!(good[C2], 0xDB);
    assert_eq!(decompress(&good).unwrap(), data);
}

#[test]
fn sample_crc_frame_is_as_described() {
    let (f, data) = sample_crc();
    assert_eq!(f.len(), 304);
    assert_eq!(f[4], 4);
    let v = FrameView::parse(&f).unwrap();
    assert_eq!(v.meta_len(), P4);
    let words: Vec<u32> = v.index().iter().map(|e| e.to_word()).collect();
    assert_eq!(words, [88, 0x8000_0080, 28]);
    for (i, e) in v.index().iter().enumerate() {
        let chunk = &data[128 * i..(128 * i + 128).min(data.len())];
        assert_eq!(e.crc, layout::crc32c(chunk), "chunk {i}");
    }
    assert_eq!(&f[P4..], &sample().0[44..]);
    assert_eq!(decompress(&f).unwrap(), data);
}

#[test]
fn first_fault_wins_across_rules() {
    let (good, _) = sample();
    // Bad magic and bad version: magic (rule 2) first.
    let f = patch(&patch(&good, 4, &[9]), 0, b"x");
    assert!(matches!(decompress(&f), Err(FormatError::BadMagic { .. })));
    // Bad index entry and trailing bytes: the index (rule 11) first.
    let mut f = entry(&good, 1, 0x8000_0001);
    f.push(0);
    assert!(matches!(
        decompress(&f),
        Err(FormatError::RawChunkSizeMismatch { .. })
    ));
    // Bad chunks 0 and 2: chunk 0 first.
    let f = patch(&patch(&good, C2, &[0x5B]), P + 4, &[0; 4]);
    assert!(matches!(
        decompress(&f),
        Err(FormatError::BadChunk { chunk: 0, .. })
    ));
    // A bad chunk does not stop random access to the others.
    let v = FrameView::parse(&f).unwrap();
    assert!(v.chunk(1).is_ok());
}

/// For each pair of adjacent rules of docs/FORMAT.md, a frame with both faults reports the
/// earlier rule.
#[test]
fn adjacent_rules_in_documented_order() {
    let (good, _) = sample();
    let cut = |f: Vec<u8>, n: usize| f[..n].to_vec();
    let tail = |mut f: Vec<u8>| {
        f.push(0);
        f
    };
    // (rule, frame with the fault of `rule` and of the next rule)
    let pairs: Vec<(u32, Vec<u8>)> = vec![
        (1, patch(&good[..20], 0, b"x")),
        (2, patch(&patch(&good, 0, b"x"), 4, &[1])),
        (3, patch(&patch(&good, 4, &[1]), 5, &[0])),
        (4, patch(&patch(&good, 5, &[0]), 6, &[24])),
        (5, patch(&patch(&good, 6, &[24]), 7, &[6])),
        (6, patch(&patch(&good, 7, &[6]), 13, &[1])),
        (7, patch(&patch(&good, 13, &[1]), 16, &[31, 1])),
        (8, patch(&patch(&good, 16, &[31, 1]), 8, &[2])),
        (9, cut(patch(&good, 8, &[2]), 40)),
        (10, cut(entry(&good, 1, 0x8000_007F), 40)),
        (11, entry(&good, 1, 0x8000_007F)),
        (12, entry(&good, 0, 200)),
        (13, patch(&entry(&good, 0, 87), 24, &[245])),
        (14, cut(patch(&good, 24, &[245]), 287)),
        (15, cut(good.clone(), 287)),
        (16, tail(patch(&good, C2, &[0x5B]))),
    ];
    let rule_of = |e: &FormatError| match e {
        FormatError::HeaderTooShort { .. } => 1,
        FormatError::BadMagic { .. } => 2,
        FormatError::UnsupportedVersion { .. } => 3,
        FormatError::UnknownCodec { .. } => 4,
        FormatError::BadElemWidth { .. } => 5,
        FormatError::BadChunkLog2 { .. } => 6,
        FormatError::ReservedNonZero { .. } => 7,
        FormatError::UncompressedLenNotWholeElements { .. } => 8,
        FormatError::ChunkCountMismatch { .. } => 9,
        FormatError::IndexTruncated { .. } => 10,
        FormatError::RawChunkSizeMismatch { .. } => 11,
        FormatError::ZvcChunkNotSmaller { .. } => 12,
        FormatError::ZvcChunkNotWholeElements { .. } => 13,
        FormatError::PayloadLenMismatch { .. } => 14,
        FormatError::Truncated { .. } => 15,
        FormatError::TrailingBytes { .. } => 16,
        FormatError::BadChunk { .. } => 17,
        _ => 0,
    };
    for (rule, f) in pairs {
        let e = decompress(&f).unwrap_err();
        assert_eq!(rule_of(&e), rule, "rule {rule} should come first: {e}");
    }
    // Rules 11–13 are per entry (11 → 13 for an entry, then the next entry), so rule 12 of
    // entry 0 comes before rule 11 of entry 1, and 13 before 11 of later entries.
    let e = decompress(&entry(&entry(&good, 1, 0x8000_007F), 0, 87)).unwrap_err();
    assert_eq!(rule_of(&e), 13, "{e}");
    // Rule 17 is the last.
    let e = decompress(&patch(&good, C2, &[0x5B])).unwrap_err();
    assert_eq!(rule_of(&e), 17, "{e}");
}

#[test]
fn messages_are_specific() {
    let e = FormatError::Truncated {
        payload_len: 100,
        available: 42,
    };
    assert_eq!(
        e.to_string(),
        "frame truncated: header says 100 payload bytes, only 42 follow the index"
    );
    let e = bad_chunk(
        2,
        216,
        28,
        FormatError::ExcessPayload {
            extra: 4,
            payload_len: 28,
        },
    );
    assert_eq!(
        e.to_string(),
        "chunk 2 (payload bytes 216..244): 4 payload bytes left over after the last block \
         (payload is 28 bytes)"
    );
    let e = FormatError::InputNotWholeElements {
        len: 7,
        elem_bytes: 4,
    };
    assert_eq!(
        e.to_string(),
        "input of 7 bytes is not a whole number of 4-byte elements (3 bytes too many)"
    );
}
