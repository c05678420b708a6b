//! ZVC-X unit tests: hand-computed blocks, round trips of every type, each decoding rule.

use super::*;
use crate::ElemWidth;

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn all_zero_block_is_its_mode_code() {
    // 32 zeros: "00", padded to one byte.
    assert_eq!(encode(&[0; 128], ElemType::F32).unwrap(), [0x00]);
    // Four zero blocks: 8 bits.
    assert_eq!(encode(&[0; 512], ElemType::F32).unwrap(), [0x00]);
    assert_eq!(decode(&[0x00], ElemType::F32, 128).unwrap(), vec![0; 512]);
}

/// One non-zero 1.0f32 at element 3 of a 32-element block, by hand: list mode "110", count−1
/// = 0 (2 bits), index 3 (5 bits), largest exponent 127 (8 bits, first coded block), k = 0
/// (4 bits), 0 escapes (2 bits), all positive (1), field: k + 0 + 23 = 23 bits of mantissa 0.
#[test]
fn one_value_block_by_hand() {
    let mut data = vec![0f32; 32];
    data[3] = 1.0;
    let bytes = f32s(&data);
    let got = encode(&bytes, ElemType::F32).unwrap();
    let mut want = Vec::new();
    {
        let mut w = BitWriter::new(&mut want);
        w.put_code(Code::parse("110"));
        w.put(0, 2);
        w.put(3, 5);
        w.put(127, 8);
        w.put(0, 4);
        w.put(0, 2);
        w.put(1, 1);
        w.put(0, 23);
        assert_eq!(w.written(), 48);
        w.finish();
    }
    assert_eq!(got, want);
    assert_eq!(
        got,
        [0x63, 0xFC, 0x01, 0x01, 0x00, 0x00],
        "docs/FORMAT.md's example"
    );
    assert_eq!(decode(&got, ElemType::F32, 32).unwrap(), bytes);
}

fn lcg(seed: u64) -> impl FnMut() -> u32 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) as u32
    }
}

/// ReLU-like data of a type: zeros, repeats, values over a few binades, the odd negative,
/// NaN or denormal, whole and partial blocks.
fn relu_like(ty: ElemType, n: usize, seed: u64) -> Vec<u8> {
    let mut r = lcg(seed);
    let eb = ty.width().bytes();
    let bits = ty.width().bits();
    let mut out = Vec::new();
    let mut last = 0u32;
    for _ in 0..n {
        let pick = r() % 100;
        let x: u32 = if pick < 45 {
            0
        } else if pick < 55 {
            last
        } else if pick < 58 {
            r() // anything: negative, NaN, denormal
        } else {
            let e = ty.exp_bits();
            let m = ty.man_bits();
            if e == 0 {
                r() | 1
            } else {
                let base = (1u32 << (e - 1)) - 1;
                let exp = base.saturating_sub(r() % 6);
                (exp << m) | (r() & ((1 << m) - 1))
            }
        };
        let x = if bits == 32 { x } else { x & ((1 << bits) - 1) };
        if x != 0 {
            last = x;
        }
        out.extend_from_slice(&x.to_le_bytes()[..eb]);
    }
    out
}

#[test]
fn every_type_round_trips_and_compresses_relu_data() {
    for ty in ElemType::ALL {
        for (n, seed) in [
            (0, 1),
            (1, 2),
            (31, 3),
            (32, 4),
            (33, 5),
            (1000, 6),
            (4096, 7),
        ] {
            let data = relu_like(ty, n, seed);
            let enc = encode(&data, ty).unwrap();
            assert_eq!(decode(&enc, ty, n).unwrap(), data, "{ty} n={n}");
            if n >= 1000 {
                assert!(
                    enc.len() < data.len(),
                    "{ty}: {} >= {}",
                    enc.len(),
                    data.len()
                );
            }
        }
    }
}

#[test]
fn random_bits_round_trip_raw_blocks() {
    let mut r = lcg(99);
    for ty in ElemType::ALL {
        let data: Vec<u8> = (0..4 * 100).map(|_| (r() | 1) as u8).collect();
        let data = &data[..data.len() / ty.width().bytes() * ty.width().bytes()];
        let n = data.len() / ty.width().bytes();
        let enc = encode(data, ty).unwrap();
        assert_eq!(decode(&enc, ty, n).unwrap(), data, "{ty}");
    }
}

/// Exponents far apart force escapes; k = 0 (all one exponent); repeats of an escaped value.
#[test]
fn escapes_equal_exponents_and_repeated_escapes_round_trip() {
    let mut v = vec![0f32; 64];
    for (i, x) in v.iter_mut().enumerate().take(32) {
        *x = 1.0 + i as f32 / 64.0; // one binade: k = 0
    }
    v[32] = 1.0e30;
    v[33] = 1.0;
    v[34] = 1.0e-30;
    v[35] = 1.0e-30; // a repeat of an escaped element
    v[40] = 3.0;
    v[41] = 2.5;
    let data = f32s(&v);
    let enc = encode(&data, ElemType::F32).unwrap();
    assert_eq!(decode(&enc, ElemType::F32, 64).unwrap(), data);
}

fn err(payload: &[u8], ty: ElemType, n: usize) -> ZvcxError {
    match decode(payload, ty, n) {
        Err(FormatError::ZvcX(e)) => e,
        other => panic!("expected a ZVC-X error, got {other:?}"),
    }
}

fn bits(parts: &[(u64, u32)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = BitWriter::new(&mut out);
    for &(v, n) in parts {
        w.put(v, n);
    }
    w.finish();
    out
}

#[test]
fn each_decoding_rule_has_its_error() {
    let raw8 = ElemType::Raw(ElemWidth::W8);
    // Ends inside: a mask block with no mask.
    assert!(matches!(
        err(&[0b10], raw8, 32),
        ZvcxError::EndsInsideBlock { block: 0, .. }
    ));
    // Mask of 0: no non-zero.
    assert!(matches!(
        err(&bits(&[(0b10, 2), (0, 32)]), raw8, 32),
        ZvcxError::NoNonZero { .. }
    ));
    // Mask bit past a 5-element block.
    assert!(matches!(
        err(&bits(&[(0b10, 2), (1 << 7, 32), (9, 8)]), raw8, 5),
        ZvcxError::PositionPastEnd {
            elem: 7,
            len: 5,
            ..
        }
    ));
    // List "110": 2 indices, 4 then 4.
    assert!(matches!(
        err(
            &bits(&[(0b011, 3), (1, 2), (4, 5), (4, 5), (7, 8), (7, 8)]),
            raw8,
            32
        ),
        ZvcxError::ListNotIncreasing {
            index: 4,
            previous: 4,
            ..
        }
    ));
    // Group "10": map with group 2, empty sub-mask.
    assert!(matches!(
        err(&bits(&[(0b01, 2), (0b100, 8), (0, 4)]), raw8, 32),
        ZvcxError::EmptyGroup { group: 2, .. }
    ));
    // A raw8 element 0 marked non-zero (dense "11110").
    let mut dense = vec![(0b01111, 5)];
    dense.extend((0..32).map(|i| (u64::from(i != 7) * 5, 8)));
    assert!(matches!(
        err(&bits(&dense), raw8, 32),
        ZvcxError::ZeroElement { elem: 7, .. }
    ));
    // f16: k = 7 > 5 exponent bits. List, 1 value at 0, max exp 15, k 7.
    let f16 = ElemType::F16;
    assert!(matches!(
        err(
            &bits(&[
                (0b011, 3),
                (0, 2),
                (0, 5),
                (15, 5),
                (7, 3),
                (0, 2),
                (1, 1),
                (0, 15)
            ]),
            f16,
            32
        ),
        ZvcxError::KTooLarge {
            k: 7,
            exp_bits: 5,
            ..
        }
    ));
    // Escape count 1 with k = 0.
    assert!(matches!(
        err(
            &bits(&[
                (0b011, 3),
                (0, 2),
                (0, 5),
                (15, 5),
                (0, 3),
                (1, 2),
                (1, 1),
                (1, 10)
            ]),
            f16,
            32
        ),
        ZvcxError::EscapeCount {
            declared: 1,
            found: 0,
            k: 0,
            ..
        }
    ));
    // Offset 3 below a largest exponent of 2 (k = 2, offset field 3 = all ones would be an
    // escape, so use k = 3, offset 3).
    assert!(matches!(
        err(
            &bits(&[
                (0b011, 3),
                (0, 2),
                (0, 5),
                (2, 5),
                (3, 3),
                (0, 2),
                (1, 1),
                (3 << 10 | 1, 13)
            ]),
            f16,
            32
        ),
        ZvcxError::ExponentUnderflow {
            offset: 3,
            max_exp: 2,
            ..
        }
    ));
    // Second coded block's delta takes the exponent below 0: first block max exp 1, then
    // "1110" sign 1, |d| = 4 + 3.
    let mut two = vec![
        (0b011, 3),
        (0, 2),
        (0, 5),
        (1, 5),
        (0, 3),
        (0, 2),
        (1, 1),
        (1, 10),
    ];
    two.extend([(0b011, 3), (0, 2), (0, 5), (0b0111, 4), (1, 1), (3, 2)]);
    assert!(matches!(
        err(&bits(&two), f16, 64),
        ZvcxError::MaxExpOutOfRange {
            block: 1,
            value: -6,
            max: 31,
            ..
        }
    ));
    // Padding: a zero block then a set bit; then a whole extra byte.
    assert!(matches!(
        err(&[0b100], raw8, 32),
        ZvcxError::PaddingNotZero { value: 1 }
    ));
    assert!(matches!(
        err(&[0, 0], raw8, 32),
        ZvcxError::ExcessPayload { bits: 14 }
    ));
}
