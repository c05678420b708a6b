//! Tests of the ZVC block codec: against a plain reference encoder, and the scalar and
//! SIMD-dispatched paths against each other.

use super::*;
use crate::rng::XorShift64;

/// Straightforward reference encoder, written from FORMAT.md without any tricks.
fn reference_encode(data: &[u8], b: usize) -> Vec<u8> {
    let elems: Vec<&[u8]> = data.chunks(b).collect();
    let mut out = Vec::new();
    for blk in elems.chunks(32) {
        let mut mask = 0u32;
        for (i, e) in blk.iter().enumerate() {
            if e.iter().any(|&x| x != 0) {
                mask |= 1 << i;
            }
        }
        out.extend_from_slice(&mask.to_le_bytes());
        for e in blk {
            if e.iter().any(|&x| x != 0) {
                out.extend_from_slice(e);
            }
        }
    }
    out
}

#[test]
fn matches_reference_at_many_lengths_and_sparsities() {
    let mut s = XorShift64::new(0x1234_5678_9abc_def0);
    for w in ElemWidth::ALL {
        let b = w.bytes();
        for n in (0..200).chain([1000, 1023, 1024, 1025]) {
            for zero_pct in [0u64, 30, 55, 90, 100] {
                let data: Vec<u8> = (0..n)
                    .flat_map(|_| {
                        let z = s.next() % 100 < zero_pct;
                        let v = s.next();
                        // Non-zero elements sometimes have a single set byte, so a
                        // zero test that looks at only part of the element would fail.
                        let bytes = if z {
                            0u32.to_le_bytes()
                        } else {
                            let one_byte = (v as usize >> 8) % b;
                            let mut e = [0u8; 4];
                            e[one_byte] = (v as u8) | 1;
                            if v & 0x8000 != 0 {
                                e = ((v >> 16) as u32 | 1).to_le_bytes();
                            }
                            e
                        };
                        bytes.into_iter().take(b).collect::<Vec<_>>()
                    })
                    .collect();
                let enc = encode(&data, w).unwrap();
                assert_eq!(
                    enc,
                    reference_encode(&data, b),
                    "{w} n={n} zeros={zero_pct}%"
                );
                assert_eq!(encoded_len(&data, w).unwrap(), enc.len());
                assert_eq!(decode(&enc, w, n).unwrap(), data, "{w} n={n}");
            }
        }
    }
}

/// The full-block loops dispatch to a SIMD kernel where available; the portable kernel
/// must give the same payload and the same decoded data on whole multi-block tensors.
fn scalar_and_dispatched_paths_agree<const B: usize, const N: usize>() {
    let mut s = XorShift64::new(0xFEED);
    for n_blocks in [1usize, 2, 7, 40] {
        for zero_pct in [0u64, 50, 90, 100] {
            let data: Vec<u8> = (0..n_blocks * 32)
                .flat_map(|_| {
                    let v = s.next();
                    let z = v % 100 < zero_pct;
                    let e = if z {
                        0
                    } else {
                        (v >> 8) as u32 | 1 << (v % (8 * B as u64))
                    };
                    e.to_le_bytes().into_iter().take(B)
                })
                .collect();
            let cap = n_blocks * (MASK_BYTES + N);
            let mut a = vec![MaybeUninit::new(0u8); cap];
            let mut b = vec![MaybeUninit::new(0u8); cap];
            let wa = encode_full_blocks::<Scalar<B>, B, N>(Scalar, &data, &mut a);
            let wb = encode_full_blocks_dispatch::<B, N>(&data, &mut b);
            assert_eq!(wa, wb);
            // SAFETY: both buffers were fully initialised with zeros above.
            let (a, b): (Vec<u8>, Vec<u8>) = unsafe {
                (
                    a[..wa].iter().map(|x| x.assume_init()).collect(),
                    b[..wb].iter().map(|x| x.assume_init()).collect(),
                )
            };
            assert_eq!(a, b);
            assert_eq!(a, reference_encode(&data, B));
            // Pad so every block takes the fast decode path.
            let mut padded = a.clone();
            padded.extend_from_slice(&[0; 132]);
            let mut da = vec![MaybeUninit::new(0u8); data.len()];
            let mut db = vec![MaybeUninit::new(0u8); data.len()];
            let ra = decode_fast_blocks::<Scalar<B>, B, N>(Scalar, &padded, n_blocks, &mut da);
            let rb = decode_fast_blocks_dispatch::<B, N>(&padded, n_blocks, &mut db);
            assert_eq!(ra, Ok((n_blocks, a.len())));
            assert_eq!(ra, rb);
            // SAFETY: initialised with zeros above.
            let (da, db): (Vec<u8>, Vec<u8>) = unsafe {
                (
                    da.iter().map(|x| x.assume_init()).collect(),
                    db.iter().map(|x| x.assume_init()).collect(),
                )
            };
            assert_eq!(da, data);
            assert_eq!(db, data);
        }
    }
}

#[test]
fn scalar_and_dispatched_paths_agree_all_widths() {
    scalar_and_dispatched_paths_agree::<1, 32>();
    scalar_and_dispatched_paths_agree::<2, 64>();
    scalar_and_dispatched_paths_agree::<4, 128>();
}

#[test]
fn encode_into_appends() {
    let mut out = vec![1, 2, 3];
    encode_into(&[0, 0, 5, 0], ElemWidth::W8, &mut out).unwrap();
    assert_eq!(out, [1, 2, 3, 0b100, 0, 0, 0, 5]);
}

#[test]
fn decode_errors_leave_output_untouched() {
    let mut out = vec![7u8; 3];
    let enc = encode(&[1u8; 40], ElemWidth::W8).unwrap();
    let err = decode_into(&enc[..enc.len() - 1], ElemWidth::W8, 40, &mut out);
    assert!(err.is_err());
    assert_eq!(out, vec![7u8; 3]);
}

#[test]
fn payload_ending_in_mask_or_elements() {
    // Two full E=32 blocks, all non-zero: 2 * (4 + 128) bytes.
    let data = vec![0xABu8; 256];
    let enc = encode(&data, ElemWidth::W32).unwrap();
    assert_eq!(enc.len(), 264);
    // Cut inside the second block's elements.
    assert_eq!(
        decode(&enc[..200], ElemWidth::W32, 64),
        Err(FormatError::PayloadEndsInsideBlock {
            block: 1,
            offset: 132,
            needed: 132,
            available: 68
        })
    );
    // Cut inside the second block's mask.
    assert_eq!(
        decode(&enc[..134], ElemWidth::W32, 64),
        Err(FormatError::PayloadEndsInsideBlock {
            block: 1,
            offset: 132,
            needed: 4,
            available: 2
        })
    );
    // Cut inside the first block, via the "masks alone do not fit" pre-check.
    assert_eq!(
        decode(&enc[..7], ElemWidth::W32, 64),
        Err(FormatError::PayloadEndsInsideBlock {
            block: 0,
            offset: 0,
            needed: 132,
            available: 7
        })
    );
    // A gigantic element count with a tiny payload must fail fast, not allocate.
    assert_eq!(
        decode(&[0, 0, 0, 0], ElemWidth::W8, usize::MAX / 4),
        Err(FormatError::PayloadEndsInsideBlock {
            block: 1,
            offset: 4,
            needed: 4,
            available: 0
        })
    );
}

#[test]
fn zero_element_reported_before_later_truncation() {
    // 64 E=8 elements but a 5-byte payload: the masks do not fit (pre-check path), yet
    // block 0's stored zero element comes first in stream order.
    assert_eq!(
        decode(&[1, 0, 0, 0, 0], ElemWidth::W8, 64),
        Err(FormatError::ZeroElementInPayload {
            block: 0,
            element: 0,
            offset: 4
        })
    );
}

#[test]
fn mask_bits_past_end_of_partial_block() {
    // n = 3 (E=16): mask may only use bits 0..3.
    let payload = [0b1001, 0, 0, 0, 1, 0, 2, 0];
    assert_eq!(
        decode(&payload, ElemWidth::W16, 3),
        Err(FormatError::MaskBitsPastEnd {
            block: 0,
            mask: 0b1001,
            valid: 3
        })
    );
    // Bit 31 in the partial block of a 2-block tensor.
    let mut p = encode(&[0u8; 33], ElemWidth::W8).unwrap();
    p[7] = 0x80;
    p.push(9);
    assert_eq!(
        decode(&p, ElemWidth::W8, 33),
        Err(FormatError::MaskBitsPastEnd {
            block: 1,
            mask: 0x8000_0000,
            valid: 1
        })
    );
}

#[test]
fn excess_payload() {
    let mut p = encode(&[0u8, 1, 0, 2], ElemWidth::W8).unwrap();
    p.push(0);
    assert_eq!(
        decode(&p, ElemWidth::W8, 4),
        Err(FormatError::ExcessPayload {
            extra: 1,
            payload_len: 7
        })
    );
    // n = 0 takes no payload at all.
    assert_eq!(
        decode(&[0, 0, 0, 0], ElemWidth::W32, 0),
        Err(FormatError::ExcessPayload {
            extra: 4,
            payload_len: 4
        })
    );
}

#[test]
fn output_too_large() {
    assert_eq!(
        decode(&[], ElemWidth::W32, usize::MAX / 2),
        Err(FormatError::OutputTooLarge {
            n_elems: (usize::MAX / 2) as u64,
            elem_bytes: 4,
            max: isize::MAX as u64
        })
    );
    assert!(matches!(
        decode(&[], ElemWidth::W16, usize::MAX / 2 + 1),
        Err(FormatError::OutputTooLarge { .. })
    ));
}

#[test]
fn input_not_whole_elements() {
    for (len, w) in [
        (1, ElemWidth::W16),
        (3, ElemWidth::W32),
        (6, ElemWidth::W32),
    ] {
        let e = FormatError::InputNotWholeElements {
            len,
            elem_bytes: w.bytes(),
        };
        let data = vec![1u8; len];
        assert_eq!(encode(&data, w), Err(e.clone()));
        assert_eq!(encoded_len(&data, w), Err(e.clone()));
        let mut out = vec![5];
        assert_eq!(encode_into(&data, w, &mut out), Err(e));
        assert_eq!(out, vec![5]);
    }
}
