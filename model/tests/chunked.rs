//! The chunked frame end to end: the overhead bound on incompressible data, the ratio on
//! zeros, round trips of the synthetic edge tensors at several chunk sizes, the raw/ZVC
//! decision at its boundary, and random access to single chunks.

use cdma_model::layout::{self, CHUNK_LOG2_DEFAULT};
use cdma_model::rng::XorShift64;
use cdma_model::{
    compress, compress_chunked, decompress, synthetic, zvc, ElemWidth, FormatError, FrameView,
};

const MIB: usize = 1 << 20;

/// Seeded xorshift64 bytes: incompressible for ZVC (a zero 32-bit element has probability
/// 2^-32).
fn random_bytes(n: usize, s: u64) -> Vec<u8> {
    XorShift64::new(s).bytes(n)
}

#[test]
fn random_mib_expands_by_at_most_half_a_percent() {
    let data = random_bytes(MIB, 0x5EED_0001);
    let f = compress(&data, ElemWidth::W32).unwrap();
    let n = MIB >> CHUNK_LOG2_DEFAULT;
    // Every chunk falls back to raw: exactly the header and one index word per chunk more.
    assert_eq!(f.len(), MIB + layout::HEADER_LEN + 4 * n);
    let expansion = (f.len() - MIB) as f64 / MIB as f64;
    println!(
        "1 MiB random bytes, E=32, 4 KiB chunks: {} -> {} bytes, expansion {:.4} %",
        MIB,
        f.len(),
        100.0 * expansion
    );
    assert!(expansion <= 0.005, "expansion {expansion}");
    assert!(FrameView::parse(&f).unwrap().index().iter().all(|e| e.raw));
    assert_eq!(decompress(&f).unwrap(), data);
}

#[test]
fn zero_mib_compresses_at_least_25x() {
    let data = vec![0u8; MIB];
    for (w, min_ratio) in [
        (ElemWidth::W32, 25.0),
        (ElemWidth::W16, 12.0),
        (ElemWidth::W8, 7.0),
    ] {
        let f = compress(&data, w).unwrap();
        let ratio = MIB as f64 / f.len() as f64;
        println!(
            "1 MiB zeros, {w}, 4 KiB chunks: {} -> {} bytes, ratio {ratio:.2}x",
            MIB,
            f.len()
        );
        // Per 4 KiB chunk: one 4-byte mask per 32 elements, plus header and index.
        let masks = 4 * (MIB / w.bytes() / 32);
        assert_eq!(f.len(), layout::HEADER_LEN + 4 * (MIB >> 12) + masks);
        assert!(ratio >= min_ratio, "{w}: ratio {ratio}");
        assert_eq!(decompress(&f).unwrap(), data);
    }
}

#[test]
fn edge_tensors_round_trip_at_several_chunk_sizes() {
    for w in ElemWidth::ALL {
        let tensors = synthetic::edge_tensors(w);
        assert!(tensors.len() > 50);
        let longest = tensors.iter().map(|(_, t)| t.len()).max().unwrap();
        // 2^24 is larger than every edge tensor: one chunk per tensor.
        assert!(longest < 1 << 24);
        for c in [7u8, 8, 10, 12, 24] {
            for (name, data) in &tensors {
                let f = compress_chunked(data, w, c)
                    .unwrap_or_else(|e| panic!("{name} {w} chunk 2^{c}: {e}"));
                let back = decompress(&f).unwrap_or_else(|e| panic!("{name} {w} 2^{c}: {e}"));
                assert_eq!(&back, data, "{name} {w} chunk 2^{c}");
                let n = data.len().div_ceil(1 << c);
                assert!(f.len() <= data.len() + layout::meta_len(n as u64) as usize);
                let v = FrameView::parse(&f).unwrap();
                assert_eq!(v.n_chunks(), n, "{name}");
                assert_eq!(v.header().chunk_log2, c);
            }
        }
    }
}

#[test]
fn raw_fallback_exactly_at_the_boundary() {
    // E=32, one 128-byte chunk: ZVC takes 4 + 4·nz bytes. 31 non-zero elements → 128 bytes,
    // not smaller → raw; 30 → 124 → ZVC.
    for (nz, raw, stored) in [(32, true, 128), (31, true, 128), (30, false, 124)] {
        let data: Vec<u8> = (0..32u32)
            .flat_map(|i| if i < nz { i + 1 } else { 0 }.to_le_bytes())
            .collect();
        assert_eq!(
            zvc::encoded_len(&data, ElemWidth::W32).unwrap(),
            4 + 4 * nz as usize
        );
        let f = compress_chunked(&data, ElemWidth::W32, 7).unwrap();
        let e = FrameView::parse(&f).unwrap().index()[0];
        assert_eq!((e.raw, e.stored_len), (raw, stored), "{nz} non-zero");
        assert_eq!(decompress(&f).unwrap(), data);
    }
}

#[test]
fn random_access_equals_the_slice_and_reads_only_its_chunk() {
    // ReLU-like E=16 data over 37 chunks of 256 bytes (the last one shorter), with some
    // chunks dense (raw) and some empty.
    let mut data = random_bytes(37 * 256 - 42, 7);
    for (i, x) in data.iter_mut().enumerate() {
        let chunk = i / 256;
        if (chunk % 5 == 1 && i % 4 < 2) || chunk % 7 == 3 || (chunk % 5 != 0 && i % 3 == 0) {
            *x = 0;
        }
    }
    let f = compress_chunked(&data, ElemWidth::W16, 8).unwrap();
    let v = FrameView::parse(&f).unwrap();
    assert_eq!(v.n_chunks(), 37);
    assert!(v.index().iter().any(|e| e.raw) && v.index().iter().any(|e| !e.raw));
    for i in (0..37).rev() {
        let r = v.chunk_range(i).unwrap();
        assert_eq!(
            v.chunk(i).unwrap(),
            &data[r.start as usize..r.end as usize],
            "chunk {i}"
        );
    }
    // Corrupt every other chunk's stored bytes beyond repair: chunk 10 still decodes, and
    // the whole frame reports the first broken chunk.
    let mut g = f.clone();
    let meta = v.meta_len();
    for i in (0..37).filter(|&i| i != 10) {
        let r = v.stored_range(i).unwrap();
        // All-ones bytes: every mask asks for all its elements, more than any stored ZVC
        // chunk holds (it is smaller than the chunk). A raw chunk is left alone (any bytes
        // are a valid raw chunk). (Overwriting only the first mask is not enough: the
        // following bytes can re-align into a valid block stream by chance.)
        if !v.index()[i].raw {
            g[meta + r.start..meta + r.end].fill(0xFF);
        }
    }
    let gv = FrameView::parse(&g).unwrap();
    let r = v.chunk_range(10).unwrap();
    assert_eq!(
        gv.chunk(10).unwrap(),
        &data[r.start as usize..r.end as usize]
    );
    let first_zvc = (0..37).find(|&i| i != 10 && !v.index()[i].raw).unwrap();
    let err = decompress(&g).unwrap_err();
    assert!(
        matches!(&err, FormatError::BadChunk { chunk, .. } if *chunk as usize == first_zvc),
        "{err} (first ZVC chunk other than 10: {first_zvc})"
    );
    // The offsets come from the index: the payload of chunk 10 alone, with the other
    // chunks' bytes replaced by garbage, gives the same chunk.
    let r10 = v.stored_range(10).unwrap();
    let mut h = vec![0xA5u8; f.len()];
    h[..meta].copy_from_slice(&f[..meta]);
    h[meta + r10.start..meta + r10.end].copy_from_slice(&f[meta + r10.start..meta + r10.end]);
    assert_eq!(
        FrameView::parse(&h).unwrap().chunk(10).unwrap(),
        &data[r.start as usize..r.end as usize]
    );
}

#[test]
fn chunk_larger_than_input_is_one_chunk() {
    let data = random_bytes(1000, 3);
    let f = compress_chunked(&data, ElemWidth::W8, 24).unwrap();
    let v = FrameView::parse(&f).unwrap();
    assert_eq!(v.n_chunks(), 1);
    assert_eq!(v.chunk_range(0).unwrap(), 0..1000);
    assert_eq!(v.chunk(0).unwrap(), data);
}

/// A forged frame that claims 1 TiB of data (2^16 chunks of 16 MiB, each "compressed" into one
/// 4-byte mask) is rejected at its first chunk; the decoder must not try to reserve the
/// claimed size first (that allocation would abort the process).
#[test]
fn forged_huge_frame_fails_without_allocating_its_claimed_size() {
    let n: u32 = 1 << 16;
    let h = layout::Header {
        codec: cdma_model::Codec::Zvc,
        elem_type: cdma_model::ElemType::Raw(ElemWidth::W32),
        chunk_log2: 24,
        n_chunks: n,
        uncompressed_len: u64::from(n) << 24,
        payload_len: 4 * u64::from(n),
        crc: false,
    };
    let mut f = h.to_bytes().to_vec();
    for _ in 0..n {
        f.extend_from_slice(&4u32.to_le_bytes()); // ZVC, 4 bytes
    }
    f.resize(f.len() + 4 * n as usize, 0); // every chunk: one all-zero mask
    match decompress(&f) {
        Err(FormatError::BadChunk {
            chunk: 0, source, ..
        }) => assert!(matches!(
            *source,
            FormatError::PayloadEndsInsideBlock { block: 1, .. }
        )),
        other => panic!("{other:?}"),
    }
}
