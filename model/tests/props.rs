//! Property tests: round trips for every width and chunk size, and robustness of the
//! decoder against garbage and mutated frames (always `Err` or the correct data, never a
//! panic).

use cdma_model::layout::{self, Header, IndexEntry};
use cdma_model::{
    compress_chunked, compress_frame, decompress, zvc, Codec, ElemType, ElemWidth, FormatError,
    FrameOptions, FrameView,
};
use proptest::prelude::*;

fn width() -> impl Strategy<Value = ElemWidth> {
    prop::sample::select(ElemWidth::ALL.to_vec())
}

/// Chunk sizes from the smallest (128 bytes, so the tensors below span many chunks) to
/// larger than any tensor here.
fn chunk_log2() -> impl Strategy<Value = u8> {
    prop_oneof![7u8..=9, Just(12u8), Just(24u8)]
}

/// Element-structured data: each element is zero with probability ~`zero_pct`, otherwise
/// arbitrary (possibly with only one non-zero byte). Lengths 0..600 elements, so most are not
/// multiples of 32 and many cross chunk boundaries.
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
            prop::collection::vec(elem, 0..600).prop_map(|v| v.concat()),
        )
    })
}

/// The frame a compressor following docs/FORMAT.md writes for `data`, except that chunks
/// `like` stores raw are stored raw here too: the format lets an encoder store any chunk raw,
/// so a decoder accepts those, and every other byte of an accepted frame is determined.
fn encode_like(data: &[u8], like: &FrameView) -> Vec<u8> {
    let h = *like.header();
    let mut index = Vec::new();
    let mut payload = Vec::new();
    for (i, chunk) in data.chunks(1 << h.chunk_log2).enumerate() {
        let mut e = if like.index()[i].raw {
            payload.extend_from_slice(chunk);
            IndexEntry {
                stored_len: chunk.len() as u32,
                raw: true,
                crc: 0,
            }
        } else {
            cdma_model::encode_chunk_with(chunk, h.codec, h.elem_type, &mut payload)
        };
        e.crc = if h.crc { layout::crc32c(chunk) } else { 0 };
        let mut b = [0u8; 8];
        e.write(&mut b, h.crc);
        index.extend_from_slice(&b[..h.entry_len()]);
    }
    let h = Header {
        payload_len: payload.len() as u64,
        ..h
    };
    let mut meta = [&h.to_bytes()[..], &index].concat();
    if h.crc {
        let m = layout::meta_crc(&index, &h.to_bytes());
        meta.extend_from_slice(&m.to_le_bytes());
    }
    [meta, payload].concat()
}

/// The decoder accepted `frame` and produced `data`: re-encoding `data` with the frame's
/// parameters (and its raw choices) must give back exactly the same frame.
fn assert_canonical(frame: &[u8], data: &[u8]) -> Result<(), TestCaseError> {
    let v = FrameView::parse(frame).unwrap();
    prop_assert_eq!(as_version_of(frame, encode_like(data, &v)), frame.to_vec());
    // A frame whose chunks are all stored as the compressor decides is its output.
    let h = v.header();
    let opts = FrameOptions {
        codec: h.codec,
        elem_type: h.elem_type,
        chunk_log2: h.chunk_log2,
        crc: h.crc,
    };
    let default = compress_frame(data, &opts).unwrap();
    let raw_by_choice = v
        .index()
        .iter()
        .zip(FrameView::parse(&default).unwrap().index())
        .any(|(a, b)| a.raw && !b.raw);
    if !raw_by_choice {
        prop_assert_eq!(as_version_of(frame, default), frame.to_vec());
    }
    Ok(())
}

/// Untyped ZVC is also a valid version 3 frame (writers write it as version 2, so version 2
/// readers read it): a damaged version byte 2 -> 3 is the one other frame of the same data.
/// `written` with the version of `frame` in that case.
fn as_version_of(frame: &[u8], mut written: Vec<u8>) -> Vec<u8> {
    if frame[4] == layout::VERSION_TYPED && written[4] == layout::VERSION {
        written[4] = layout::VERSION_TYPED;
    }
    written
}

fn check_structure(f: &[u8], data: &[u8], w: ElemWidth, c: u8) -> Result<(), TestCaseError> {
    let v = FrameView::parse(f).unwrap();
    let n = data.len().div_ceil(1 << c);
    prop_assert_eq!(v.n_chunks(), n);
    prop_assert!(f.len() <= data.len() + layout::HEADER_LEN + 4 * n);
    for (i, chunk) in data.chunks(1 << c).enumerate() {
        let z = zvc::encode(chunk, w).unwrap();
        let stored = &v.payload()[v.stored_range(i).unwrap()];
        if z.len() < chunk.len() {
            prop_assert!(!v.index()[i].raw);
            prop_assert_eq!(stored, &z[..]);
        } else {
            prop_assert!(v.index()[i].raw);
            prop_assert_eq!(stored, chunk);
        }
        prop_assert_eq!(v.chunk(i).unwrap(), chunk.to_vec());
    }
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
    fn round_trip_arbitrary_bytes(w in width(), c in chunk_log2(),
                                  mut data in prop::collection::vec(any::<u8>(), 0..1500)) {
        data.truncate(data.len() / w.bytes() * w.bytes());
        let f = compress_chunked(&data, w, c).unwrap();
        check_structure(&f, &data, w, c)?;
        prop_assert_eq!(decompress(&f).unwrap(), data);
    }

    #[test]
    fn round_trip_sparse_tensors((w, data) in tensor(), c in chunk_log2()) {
        let f = compress_chunked(&data, w, c).unwrap();
        check_structure(&f, &data, w, c)?;
        prop_assert_eq!(decompress(&f).unwrap(), data.clone());
        let payload = zvc::encode(&data, w).unwrap();
        prop_assert_eq!(zvc::decode(&payload, w, data.len() / w.bytes()).unwrap(), data);
    }

    #[test]
    fn garbage_never_panics(frame in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(d) = decompress(&frame) {
            assert_canonical(&frame, &d)?;
        }
    }

    /// Random bytes in place of one chunk's stored bytes, behind a consistent header and
    /// index, so the chunk payload rules are reached; and the bare ZVC decoder against the
    /// naive one on the same bytes.
    #[test]
    fn garbage_chunk_behind_valid_index(
        (w, data) in tensor(),
        c in 7u8..=9,
        pick in any::<prop::sample::Index>(),
        raw in any::<bool>(),
        garbage in prop::collection::vec(prop_oneof![Just(0u8), any::<u8>()], 0..600),
    ) {
        prop_assume!(!data.is_empty());
        let good = compress_chunked(&data, w, c).unwrap();
        let v = FrameView::parse(&good).unwrap();
        let i = pick.index(v.n_chunks());
        let chunk_len = v.chunk_range(i).unwrap().end - v.chunk_range(i).unwrap().start;
        // A stored size the index rules accept: raw = the chunk, ZVC = fewer whole elements.
        let mut g = garbage;
        let stored_len = if raw {
            g.resize(chunk_len as usize, 0);
            chunk_len as usize
        } else {
            let max = (chunk_len as usize / w.bytes() - 1) * w.bytes();
            let n = (g.len() / w.bytes() * w.bytes()).min(max);
            g.truncate(n);
            n
        };
        let e = IndexEntry { stored_len: stored_len as u32, raw, crc: 0 };
        let mut f = good[..v.meta_len()].to_vec();
        f[32 + 4 * i..36 + 4 * i].copy_from_slice(&e.to_word().to_le_bytes());
        let r = v.stored_range(i).unwrap();
        let payload = [&v.payload()[..r.start], &g, &v.payload()[r.end..]].concat();
        let plen = payload.len() as u64;
        f[24..32].copy_from_slice(&plen.to_le_bytes());
        f.extend_from_slice(&payload);
        let n = chunk_len as usize / w.bytes();
        match decompress(&f) {
            Ok(d) => {
                prop_assert_eq!(d.len(), data.len());
                assert_canonical(&f, &d)?;
            }
            Err(FormatError::BadChunk { chunk, source, .. }) => {
                prop_assert_eq!(chunk as usize, i);
                prop_assert_eq!(Err(*source), reference_decode(&g, w, n));
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
        let got = zvc::decode(&g, w, n);
        prop_assert_eq!(&got, &reference_decode(&g, w, n));
        if let Ok(d) = got {
            prop_assert_eq!(zvc::encode(&d, w).unwrap(), g);
        }
    }

    #[test]
    fn mutated_frames((w, data) in tensor(), c in chunk_log2(), cut in any::<prop::sample::Index>(),
                      flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..4),
                      extra in prop::collection::vec(any::<u8>(), 1..40)) {
        let good = compress_chunked(&data, w, c).unwrap();
        // Frame truncated anywhere.
        let t = &good[..cut.index(good.len())];
        prop_assert!(decompress(t).is_err());
        // Bytes flipped (header, index or payload).
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
        let plen = (e.len() - FrameView::parse(&good).unwrap().meta_len()) as u64;
        e[24..32].copy_from_slice(&plen.to_le_bytes());
        prop_assert!(decompress(&e).is_err());
    }

    /// Version 4: whatever bytes are flipped, a frame with CRCs decodes to the original data or
    /// fails; it never decodes cleanly to anything else (a miss has probability 2^-32 per
    /// damaged chunk, far below what 1000 cases can hit). Each codec, CRCs on.
    #[test]
    fn damaged_crc_frames_never_decode_to_other_data(
        (w, data) in tensor(), c in chunk_log2(), zvcx in any::<bool>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..4)) {
        let elem_type = match (zvcx, w) {
            (true, ElemWidth::W32) => ElemType::F32,
            (true, ElemWidth::W16) => ElemType::Bf16,
            (true, ElemWidth::W8) => ElemType::E4m3,
            (false, _) => ElemType::Raw(w),
        };
        let opts = FrameOptions {
            codec: if zvcx { Codec::ZvcX } else { Codec::Zvc },
            chunk_log2: c,
            ..FrameOptions::new(elem_type)
        };
        let good = compress_frame(&data, &opts).unwrap();
        prop_assert_eq!(good[4], 4);
        prop_assert_eq!(decompress(&good).unwrap(), data.clone());
        let mut f = good.clone();
        for (i, x) in &flips {
            let i = i.index(f.len());
            f[i] ^= x;
        }
        if let Ok(d) = decompress(&f) {
            prop_assert_eq!(d, data);
        }
    }
}
