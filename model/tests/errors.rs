//! Every `FormatError` variant, produced through the public API with the exact numbers.

use std::collections::BTreeSet;

use cdma_model::{compress, decompress, spec, zvc, ElemWidth, FormatError};

/// Name of a variant. The match has no wildcard, so adding a variant without extending this
/// function (and, through `ALL_VARIANTS`, the test below) does not compile.
fn variant(e: &FormatError) -> &'static str {
    match e {
        FormatError::HeaderTooShort { .. } => "HeaderTooShort",
        FormatError::BadMagic { .. } => "BadMagic",
        FormatError::UnsupportedVersion { .. } => "UnsupportedVersion",
        FormatError::UnknownCodec { .. } => "UnknownCodec",
        FormatError::BadElemWidth { .. } => "BadElemWidth",
        FormatError::ReservedNonZero { .. } => "ReservedNonZero",
        FormatError::UncompressedLenNotWholeElements { .. } => "UncompressedLenNotWholeElements",
        FormatError::OutputTooLarge { .. } => "OutputTooLarge",
        FormatError::Truncated { .. } => "Truncated",
        FormatError::TrailingBytes { .. } => "TrailingBytes",
        FormatError::PayloadEndsInsideBlock { .. } => "PayloadEndsInsideBlock",
        FormatError::MaskBitsPastEnd { .. } => "MaskBitsPastEnd",
        FormatError::ZeroElementInPayload { .. } => "ZeroElementInPayload",
        FormatError::ExcessPayload { .. } => "ExcessPayload",
        FormatError::InputNotWholeElements { .. } => "InputNotWholeElements",
    }
}

const ALL_VARIANTS: [&str; 15] = [
    "HeaderTooShort",
    "BadMagic",
    "UnsupportedVersion",
    "UnknownCodec",
    "BadElemWidth",
    "ReservedNonZero",
    "UncompressedLenNotWholeElements",
    "OutputTooLarge",
    "Truncated",
    "TrailingBytes",
    "PayloadEndsInsideBlock",
    "MaskBitsPastEnd",
    "ZeroElementInPayload",
    "ExcessPayload",
    "InputNotWholeElements",
];

/// A valid E=32 frame of 40 elements (one full block, one partial block of 8).
fn sample_frame() -> (Vec<u8>, Vec<u8>) {
    let data: Vec<u8> = (0..40u32)
        .flat_map(|i| if i % 3 == 0 { 0 } else { i * 0x0101_0101 }.to_le_bytes())
        .collect();
    (compress(&data, ElemWidth::W32).unwrap(), data)
}

/// Builds a frame from raw header values and a payload.
fn frame(
    version: u8,
    codec: u8,
    bits: u8,
    reserved: u8,
    ulen: u64,
    plen: u64,
    p: &[u8],
) -> Vec<u8> {
    let mut f = b"cDMA".to_vec();
    f.extend_from_slice(&[version, codec, bits, reserved]);
    f.extend_from_slice(&ulen.to_le_bytes());
    f.extend_from_slice(&plen.to_le_bytes());
    f.extend_from_slice(p);
    f
}

/// One case: its name, what the API returned, and the error it must have returned.
type Case = (&'static str, Result<Vec<u8>, FormatError>, FormatError);

/// All cases; checked one by one below.
fn cases() -> Vec<Case> {
    let (good, _) = sample_frame();
    let payload_len = good.len() - spec::HEADER_LEN;
    let mut v = Vec::new();

    v.push((
        "23-byte frame",
        decompress(&good[..23]),
        FormatError::HeaderTooShort {
            len: 23,
            header_len: 24,
        },
    ));
    v.push((
        "empty frame",
        decompress(&[]),
        FormatError::HeaderTooShort {
            len: 0,
            header_len: 24,
        },
    ));
    let mut bad = good.clone();
    bad[0] = b'C';
    v.push((
        "magic CDMA",
        decompress(&bad),
        FormatError::BadMagic {
            found: *b"CDMA",
            expected: *b"cDMA",
        },
    ));
    let mut bad = good.clone();
    bad[4] = 2;
    v.push((
        "version 2",
        decompress(&bad),
        FormatError::UnsupportedVersion {
            version: 2,
            supported: 1,
        },
    ));
    let mut bad = good.clone();
    bad[5] = 0;
    v.push((
        "codec 0",
        decompress(&bad),
        FormatError::UnknownCodec { codec: 0 },
    ));
    let mut bad = good.clone();
    bad[6] = 24;
    v.push((
        "elem_bits 24",
        decompress(&bad),
        FormatError::BadElemWidth { bits: 24 },
    ));
    v.push((
        "from_bits(64)",
        ElemWidth::from_bits(64).map(|_| vec![]),
        FormatError::BadElemWidth { bits: 64 },
    ));
    let mut bad = good.clone();
    bad[7] = 0x40;
    v.push((
        "reserved 0x40",
        decompress(&bad),
        FormatError::ReservedNonZero { value: 0x40 },
    ));
    v.push((
        "uncompressed_len 6 with E=32",
        decompress(&frame(1, 1, 32, 0, 6, 4, &[0; 4])),
        FormatError::UncompressedLenNotWholeElements {
            len: 6,
            elem_bytes: 4,
        },
    ));
    v.push((
        "uncompressed_len 2^63 with E=16",
        decompress(&frame(1, 1, 16, 0, 1 << 63, 0, &[])),
        FormatError::OutputTooLarge {
            n_elems: 1 << 62,
            elem_bytes: 2,
            max: isize::MAX as u64,
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
        "frame missing its last byte",
        decompress(&good[..good.len() - 1]),
        FormatError::Truncated {
            payload_len: payload_len as u64,
            available: payload_len - 1,
        },
    ));
    v.push((
        "payload_len u64::MAX",
        decompress(&frame(1, 1, 8, 0, 0, u64::MAX, &[])),
        FormatError::Truncated {
            payload_len: u64::MAX,
            available: 0,
        },
    ));
    let mut bad = good.clone();
    bad.extend_from_slice(&[0, 0, 0]);
    v.push((
        "3 bytes appended",
        decompress(&bad),
        FormatError::TrailingBytes {
            payload_len: payload_len as u64,
            extra: 3,
        },
    ));
    // Header says 40 elements, payload is one all-ones mask and 2 of its 32 elements.
    let mut p = vec![0xFF; 4];
    p.extend_from_slice(&[7; 8]);
    v.push((
        "payload ends inside block 0's elements",
        decompress(&frame(1, 1, 32, 0, 160, 12, &p)),
        FormatError::PayloadEndsInsideBlock {
            block: 0,
            offset: 0,
            needed: 132,
            available: 12,
        },
    ));
    // 40 elements, first block all zero (4 bytes), then only 2 bytes of block 1's mask.
    v.push((
        "payload ends inside block 1's mask",
        decompress(&frame(1, 1, 32, 0, 160, 6, &[0, 0, 0, 0, 0, 0])),
        FormatError::PayloadEndsInsideBlock {
            block: 1,
            offset: 4,
            needed: 4,
            available: 2,
        },
    ));
    // 40 elements: full block all zero, partial block (8 elements) with mask bit 8 set.
    v.push((
        "mask bit 8 in an 8-element final block",
        decompress(&frame(
            1,
            1,
            32,
            0,
            160,
            12,
            &[0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 4],
        )),
        FormatError::MaskBitsPastEnd {
            block: 1,
            mask: 0x100,
            valid: 8,
        },
    ));
    // 40 E=32 elements: block 0 stores elements 0 and 5, element 5's value is zero.
    let mut p = vec![0b10_0001, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0];
    p.extend_from_slice(&[0, 0, 0, 0]); // block 1: all zero
    v.push((
        "zero element stored in a full block",
        decompress(&frame(1, 1, 32, 0, 160, 16, &p)),
        FormatError::ZeroElementInPayload {
            block: 0,
            element: 5,
            offset: 8,
        },
    ));
    // 128 E=32 elements, all non-zero (4 full blocks, long enough for the decoder's fast
    // path), with block 1's element 3 overwritten by zero in the payload.
    let dense: Vec<u8> = (1..=128u32).flat_map(|i| i.to_le_bytes()).collect();
    let mut f = compress(&dense, ElemWidth::W32).unwrap();
    let at = spec::HEADER_LEN + 132 + 4 + 3 * 4;
    f[at..at + 4].fill(0);
    v.push((
        "zero element stored in a full block, fast path",
        decompress(&f),
        FormatError::ZeroElementInPayload {
            block: 1,
            element: 3,
            offset: 132 + 4 + 12,
        },
    ));
    // The same for E=8 and E=16 (portable kernel).
    for w in [ElemWidth::W8, ElemWidth::W16] {
        let dense: Vec<u8> = (0..128 * w.bytes()).map(|i| (i % 251 + 1) as u8).collect();
        let mut f = compress(&dense, w).unwrap();
        let at = spec::HEADER_LEN + 4 + 32 * w.bytes() + 4 + 5 * w.bytes();
        f[at..at + w.bytes()].fill(0);
        v.push((
            "zero element stored, fast path, narrow elements",
            decompress(&f),
            FormatError::ZeroElementInPayload {
                block: 1,
                element: 5,
                offset: 4 + 32 * w.bytes() + 4 + 5 * w.bytes(),
            },
        ));
    }
    // 3 E=16 elements (a partial block): element 2 stored as zero.
    v.push((
        "zero element stored in a partial block",
        decompress(&frame(1, 1, 16, 0, 6, 8, &[0b110, 0, 0, 0, 9, 9, 0, 0])),
        FormatError::ZeroElementInPayload {
            block: 0,
            element: 2,
            offset: 6,
        },
    ));
    // 2 elements of E=8, both zero: payload should be 4 bytes, here 5.
    v.push((
        "one element left after the last block",
        decompress(&frame(1, 1, 8, 0, 2, 5, &[0, 0, 0, 0, 9])),
        FormatError::ExcessPayload {
            extra: 1,
            payload_len: 5,
        },
    ));
    v.push((
        "0 elements with a mask",
        decompress(&frame(1, 1, 16, 0, 0, 4, &[0, 0, 0, 0])),
        FormatError::ExcessPayload {
            extra: 4,
            payload_len: 4,
        },
    ));
    v.push((
        "compress 7 bytes as E=32",
        compress(&[1; 7], ElemWidth::W32),
        FormatError::InputNotWholeElements {
            len: 7,
            elem_bytes: 4,
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
        // Messages carry the numbers: at least one digit, and no Debug formatting.
        let msg = want.to_string();
        assert!(msg.chars().any(|c| c.is_ascii_digit()), "{msg}");
    }
    let all: BTreeSet<_> = ALL_VARIANTS.into_iter().collect();
    assert_eq!(seen, all);
}

#[test]
fn sample_frame_is_valid() {
    let (good, data) = sample_frame();
    assert_eq!(decompress(&good).unwrap(), data);
}

#[test]
fn messages_are_specific() {
    let e = FormatError::Truncated {
        payload_len: 100,
        available: 42,
    };
    assert_eq!(
        e.to_string(),
        "frame truncated: header says 100 payload bytes, only 42 follow the header"
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
