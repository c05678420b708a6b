//! ZVC-X property tests: every element type round-trips arbitrary bytes and float-like tensors
//! (specials included) through whole frames, and the decoder never panics on garbage or
//! mutated payloads (it returns an error or elements of the right length).

use cdma_model::{compress_with, decompress, zvcx, Codec, ElemType, FrameView};
use proptest::prelude::*;

fn elem_type() -> impl Strategy<Value = ElemType> {
    prop::sample::select(ElemType::ALL.to_vec())
}

fn chunk_log2() -> impl Strategy<Value = u8> {
    prop_oneof![7u8..=9, Just(12u8)]
}

/// Float-like elements of `ty`: zeros, repeats of the previous value, values within a few
/// binades of a per-tensor exponent, and specials (±0, NaN, infinity, denormals, anything).
fn float_like(ty: ElemType) -> impl Strategy<Value = Vec<u8>> {
    let bits = ty.width().bits();
    let (e, m) = (ty.exp_bits(), ty.man_bits());
    let base = if e == 0 { 0 } else { (1u32 << (e - 1)) - 1 };
    let elem = (0u32..100, any::<u32>(), 0u32..12, any::<bool>());
    (prop::collection::vec(elem, 0..700), 0u32..100).prop_map(move |(v, zero_pct)| {
        let mut last = 1u32;
        let mut out = Vec::new();
        for (r, x, spread, neg) in v {
            let value = if r < zero_pct {
                0
            } else if r % 7 == 0 {
                last
            } else if r % 11 == 0 {
                x // any pattern: NaN, infinity, denormal, -0.0
            } else if e == 0 {
                x | 1
            } else {
                let exp = base.saturating_sub(spread).max(1) & ((1 << e) - 1);
                (u32::from(neg && r % 13 == 0) << (e + m)) | (exp << m) | (x & ((1 << m) - 1))
            };
            let value = if bits == 32 {
                value
            } else {
                value & ((1 << bits) - 1)
            };
            if value != 0 {
                last = value;
            }
            out.extend_from_slice(&value.to_le_bytes()[..ty.width().bytes()]);
        }
        out
    })
}

fn typed_tensor() -> impl Strategy<Value = (ElemType, Vec<u8>)> {
    elem_type().prop_flat_map(|t| (Just(t), float_like(t)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn round_trip_arbitrary_bytes(t in elem_type(), c in chunk_log2(),
                                  mut data in prop::collection::vec(any::<u8>(), 0..1500)) {
        let eb = t.width().bytes();
        data.truncate(data.len() / eb * eb);
        let f = compress_with(&data, Codec::ZvcX, t, c).unwrap();
        prop_assert!(f.len() <= data.len() + 32 + 4 * data.len().div_ceil(1 << c));
        prop_assert_eq!(decompress(&f).unwrap(), data);
    }

    #[test]
    fn round_trip_float_like_tensors((t, data) in typed_tensor(), c in chunk_log2()) {
        let f = compress_with(&data, Codec::ZvcX, t, c).unwrap();
        let v = FrameView::parse(&f).unwrap();
        prop_assert_eq!(v.header().elem_type, t);
        prop_assert_eq!(decompress(&f).unwrap(), data.clone());
        let n = data.len() / t.width().bytes();
        let p = zvcx::encode(&data, t).unwrap();
        prop_assert_eq!(zvcx::decode(&p, t, n).unwrap(), data);
    }

    /// Random bytes as a payload: an error, or `n` elements that encode back to a payload
    /// decoding to the same elements.
    #[test]
    fn garbage_payload_never_panics(t in elem_type(), n in 0usize..200,
                                    p in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(d) = zvcx::decode(&p, t, n) {
            prop_assert_eq!(d.len(), n * t.width().bytes());
            let again = zvcx::encode(&d, t).unwrap();
            prop_assert_eq!(zvcx::decode(&again, t, n).unwrap(), d);
        }
    }

    /// One flipped bit in a real payload: an error or some elements, never a panic.
    #[test]
    fn mutated_payload_never_panics((t, data) in typed_tensor(), at in any::<prop::sample::Index>(),
                                    bit in 0u8..8) {
        let mut p = zvcx::encode(&data, t).unwrap();
        let n = data.len() / t.width().bytes();
        if !p.is_empty() {
            let i = at.index(p.len());
            p[i] ^= 1 << bit;
            if let Ok(d) = zvcx::decode(&p, t, n) {
                prop_assert_eq!(d.len(), data.len());
            }
        }
    }

    /// Garbage after a valid version 3 ZVC-X header prefix: frames are rejected or decoded,
    /// never a panic.
    #[test]
    fn garbage_typed_frames_never_panic(t in elem_type(),
                                        rest in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut f = compress_with(&[], Codec::ZvcX, t, 7).unwrap();
        f.truncate(16);
        f.extend_from_slice(&rest);
        let _ = decompress(&f);
    }
}
