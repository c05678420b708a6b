//! Property tests: round trips for every width, and robustness of the decoder against
//! garbage and mutated frames (always `Err` or the correct data, never a panic).

use cdma_model::{compress, decompress, spec, zvc, ElemWidth, FormatError};
use proptest::prelude::*;

fn width() -> impl Strategy<Value = ElemWidth> {
    prop::sample::select(ElemWidth::ALL.to_vec())
}

/// Element-structured data: each element is zero with probability ~`zero_pct`, otherwise
/// arbitrary (possibly with only one non-zero byte). Lengths 0..300 elements, so most are not
/// multiples of 32.
fn tensor() -> impl Strategy<Value = (ElemWidth, Vec<u8>)> {
    (width(), 0u32..=100).prop_flat_map(|(w, zero_pct)| {
        let elem = (0u32..100, any::<u32>(), 0usize..5).prop_map(move |(r, v, one)| {
            let mut b = if r < zero_pct { 0 } else { v.max(1) }.to_le_bytes();
            if one < w.bytes() {
                // Keep a single byte so partial-element zero tests would be caught.
                let keep = b[one] | 1;
                b = [0; 4];
                b[one] = keep;
            }
            b[..w.bytes()].to_vec()
        });
        (
            Just(w),
            prop::collection::vec(elem, 0..300).prop_map(|v| v.concat()),
        )
    })
}

/// The decoder accepted `frame` and produced `data`: since the format is canonical (one
/// encoding per input), re-compressing must give back exactly the same frame.
fn assert_canonical(frame: &[u8], data: &[u8]) -> Result<(), TestCaseError> {
    let elem = ElemWidth::from_bits(u32::from(frame[6])).unwrap();
    prop_assert_eq!(compress(data, elem).unwrap(), frame.to_vec());
    Ok(())
}

/// A deliberately naive payload decoder written straight from docs/FORMAT.md's rules 10–13,
/// block by block; the optimised decoder must agree with it exactly, errors included.
fn reference_decode(p: &[u8], w: ElemWidth, n: usize) -> Result<Vec<u8>, FormatError> {
    let b = w.bytes();
    let mut out = Vec::new();
    let mut off = 0;
    for block in 0..n.div_ceil(32) {
        let valid = (n - block * 32).min(32);
        let available = p.len() - off;
        if available < 4 {
            return Err(FormatError::PayloadEndsInsideBlock {
                block,
                offset: off,
                needed: 4,
                available,
            });
        }
        let mask = u32::from_le_bytes([p[off], p[off + 1], p[off + 2], p[off + 3]]);
        let needed = 4 + mask.count_ones() as usize * b;
        if needed > available {
            return Err(FormatError::PayloadEndsInsideBlock {
                block,
                offset: off,
                needed,
                available,
            });
        }
        if valid < 32 && mask >> valid != 0 {
            return Err(FormatError::MaskBitsPastEnd { block, mask, valid });
        }
        let mut at = off + 4;
        for i in 0..valid {
            if mask & (1 << i) != 0 {
                let e = &p[at..at + b];
                if e.iter().all(|&x| x == 0) {
                    return Err(FormatError::ZeroElementInPayload {
                        block,
                        element: i,
                        offset: at,
                    });
                }
                out.extend_from_slice(e);
                at += b;
            } else {
                out.extend(std::iter::repeat_n(0, b));
            }
        }
        off += needed;
    }
    if off != p.len() {
        return Err(FormatError::ExcessPayload {
            extra: p.len() - off,
            payload_len: p.len(),
        });
    }
    Ok(out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn round_trip_arbitrary_bytes(w in width(), mut data in prop::collection::vec(any::<u8>(), 0..1500)) {
        data.truncate(data.len() / w.bytes() * w.bytes());
        let f = compress(&data, w).unwrap();
        prop_assert_eq!(f.len(), spec::HEADER_LEN + zvc::encoded_len(&data, w).unwrap());
        prop_assert_eq!(decompress(&f).unwrap(), data);
    }

    #[test]
    fn round_trip_sparse_tensors((w, data) in tensor()) {
        let f = compress(&data, w).unwrap();
        let payload = zvc::encode(&data, w).unwrap();
        prop_assert_eq!(&f[spec::HEADER_LEN..], &payload[..]);
        prop_assert_eq!(zvc::decode(&payload, w, data.len() / w.bytes()).unwrap(), data.clone());
        prop_assert_eq!(decompress(&f).unwrap(), data);
    }

    #[test]
    fn garbage_never_panics(frame in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(d) = decompress(&frame) {
            assert_canonical(&frame, &d)?;
        }
    }

    /// Random payload behind a plausible header, so the payload checks are reached.
    #[test]
    fn garbage_payload_behind_valid_header(
        w in width(),
        n in 0u64..120,
        payload in prop::collection::vec(prop_oneof![Just(0u8), any::<u8>()], 0..600),
    ) {
        let h = spec::Header { elem: w, uncompressed_len: n * w.bytes() as u64, payload_len: payload.len() as u64 };
        let mut frame = h.to_bytes().to_vec();
        frame.extend_from_slice(&payload);
        if let Ok(d) = decompress(&frame) {
            prop_assert_eq!(d.len() as u64, h.uncompressed_len);
            assert_canonical(&frame, &d)?;
        }
        let got = zvc::decode(&payload, w, n as usize);
        prop_assert_eq!(&got, &reference_decode(&payload, w, n as usize));
        if let Ok(d) = got {
            prop_assert_eq!(zvc::encode(&d, w).unwrap(), payload);
        }
    }

    #[test]
    fn mutated_frames((w, data) in tensor(), cut in any::<prop::sample::Index>(),
                      flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..4),
                      extra in prop::collection::vec(any::<u8>(), 1..40)) {
        let good = compress(&data, w).unwrap();
        // Payload truncated anywhere: exact same error as the reference decoder.
        let p = &good[spec::HEADER_LEN..];
        let pc = &p[..cut.index(p.len() + 1)];
        prop_assert_eq!(zvc::decode(pc, w, data.len() / w.bytes()), reference_decode(pc, w, data.len() / w.bytes()));
        // Frame truncated anywhere.
        let t = &good[..cut.index(good.len())];
        if let Ok(d) = decompress(t) {
            assert_canonical(t, &d)?;
        }
        // Bytes flipped (header or payload).
        let mut f = good.clone();
        for (i, x) in &flips {
            let i = i.index(f.len());
            f[i] ^= x;
        }
        if let Ok(d) = decompress(&f) {
            assert_canonical(&f, &d)?;
        }
        // Extended: trailing bytes, and the same with payload_len patched to cover them.
        let mut e = good.clone();
        e.extend_from_slice(&extra);
        prop_assert!(decompress(&e).is_err());
        let plen = (e.len() - spec::HEADER_LEN) as u64;
        e[16..24].copy_from_slice(&plen.to_le_bytes());
        if let Ok(d) = decompress(&e) {
            assert_canonical(&e, &d)?;
        }
    }
}
