//! The golden DMA model and CRC32C (frame version 4): DECOMPRESS checks the metadata CRC
//! before any payload (BAD_CRC or READ_ERROR, nothing written) and each chunk's CRC as its
//! data goes out (BAD_CRC at the end unless another error ended the descriptor first); an
//! engine without CRCs refuses version 4 frames. Every run is checked against the invariant
//! of [`dma_common::run`].

// Lists of one address range are what `DescOutcome::unspecified` holds.
#![allow(clippy::single_range_in_vec_init)]

mod dma_common;

use cdma_model::dma::{codes, BusError, SparseMemory};
use cdma_model::{compress_frame, layout, ElemType, ElemWidth, FrameOptions, FrameView};

use dma_common::*;

/// 1600 bytes of 32-bit elements as a version 4 frame of 13 chunks of 128 bytes: the
/// metadata at META, the payload at SRC, a DECOMPRESS descriptor at DESC. Returns the memory
/// and the frame.
fn v4(data: &[u8]) -> (SparseMemory, Vec<u8>) {
    let opts = FrameOptions {
        chunk_log2: 7,
        ..FrameOptions::new(ElemType::Raw(ElemWidth::W32))
    };
    let f = compress_frame(data, &opts).unwrap();
    let meta = layout::Header::parse(&f).unwrap().meta_len() as usize;
    assert_eq!(meta, 32 + 8 * 13 + 4);
    let mut m = SparseMemory::new(FILL);
    m.load(META, &f[..meta]);
    m.load(SRC, &f[meta..]);
    m.load(DESC, &decomp(32, (f.len() - meta) as u32, 1600).to_bytes());
    (m, f)
}

#[test]
fn version_4_frames_decompress_on_every_bus() {
    let data = relu(400, ElemWidth::W32, 11);
    let (m0, _) = v4(&data);
    for bb in [16, 32, 64, 128] {
        let mut m = m0.clone();
        assert_eq!(single(&mut m, &cfg(bb), codes::OK).bytes_written, 1600);
        assert_eq!(m.peek(DST, 1600), data);
    }
    // An engine without CRCs does not read them.
    early(&mut m0.clone(), &e32().with_crc(false), codes::UNSUPPORTED);
}

#[test]
fn a_damaged_index_or_header_fails_the_metadata_crc_before_any_payload() {
    let data = relu(400, ElemWidth::W32, 12);
    let (m0, _) = v4(&data);
    // A flipped bit in an entry's word, in an entry's CRC, in the metadata CRC itself, and in
    // the header's reserved-free fields that still pass the header checks (n_chunks is
    // checked against the length, so the payload length's high byte: then src_len differs,
    // BAD_HEADER; use the index).
    for off in [32u64, 32 + 4, 32 + 8 * 12 + 7, 32 + 8 * 13, 32 + 8 * 13 + 3] {
        let mut m = m0.clone();
        let b = m.peek(META + off, 1)[0];
        m.load(META + off, &[b ^ 0x10]);
        early(&mut m, &e32(), codes::BAD_CRC);
    }
    // A bus error on the last index beat or on the metadata CRC's: READ_ERROR, nothing written.
    for off in [32 + 8 * 12, 32 + 8 * 13 + 3] {
        let mut m = m0.clone();
        m.add_read_error(META + off..META + off + 1, BusError::SlvErr);
        early(&mut m, &e32(), codes::READ_ERROR);
    }
    // A bad entry whose CRCs were made to match is an index error (checked after the CRC).
    let (mut m, mut f) = v4(&data);
    f[32 + 8 * 3] = 127;
    f[32 + 8 * 3 + 3] = 0x80;
    let n = 13;
    let crc = layout::meta_crc(&f[32..32 + 8 * n], &f[..32]);
    f[32 + 8 * n..36 + 8 * n].copy_from_slice(&crc.to_le_bytes());
    m.load(META, &f[..36 + 8 * n]);
    let d = single(&mut m, &e32(), codes::BAD_INDEX);
    assert_eq!(m.peek(DST, 3 * 128), &data[..3 * 128], "chunks 0-2");
    assert_eq!(d.unspecified, vec![DST..DST + 1600]);
}

#[test]
fn a_chunk_that_does_not_match_its_crc_ends_with_bad_crc_after_all_the_data() {
    // Chunks 1 and 2 dense (stored raw), the rest ReLU-like (ZVC).
    let mut data = relu(400, ElemWidth::W32, 13);
    data[128..384].fill(0x5A);
    let (m0, f) = v4(&data);
    let v = FrameView::parse(&f).unwrap();
    let raw = (0..v.n_chunks()).find(|&i| v.index()[i].raw).unwrap();
    let zvc = (0..v.n_chunks()).find(|&i| !v.index()[i].raw).unwrap();
    // A flipped bit in a raw chunk's payload decodes, to other data: BAD_CRC, and every chunk
    // was written (the damaged one as decoded).
    let r = v.stored_range(raw).unwrap();
    let mut m = m0.clone();
    let b = m.peek(SRC + r.start as u64, 1)[0];
    m.load(SRC + r.start as u64, &[b ^ 1]);
    let d = single(&mut m, &e32(), codes::BAD_CRC);
    assert_eq!(d.unspecified, vec![DST..DST + 1600]);
    let mut want = data.clone();
    want[raw * 128] ^= 1;
    assert_eq!(m.peek(DST, 1600), want);
    // A payload error in a later chunk wins over the CRC mismatch.
    let later = (raw + 1..v.n_chunks()).find(|&i| !v.index()[i].raw);
    if let Some(z) = later {
        let rz = v.stored_range(z).unwrap();
        m.load(SRC + rz.start as u64, &vec![0xFF; rz.len()]);
        single(&mut m, &e32(), codes::BAD_PAYLOAD);
    }
    // A write error wins over it too.
    let mut m = m0.clone();
    m.load(SRC + r.start as u64, &[b ^ 1]);
    m.add_write_error(DST..DST + 1, BusError::SlvErr);
    single(&mut m, &e32(), codes::WRITE_ERROR);
    // A damaged ZVC chunk that still decodes (a non-zero element's byte changed).
    let rz = v.stored_range(zvc).unwrap();
    let mut m = m0.clone();
    let at = SRC + rz.start as u64 + 4;
    let b = m.peek(at, 1)[0];
    m.load(at, &[b ^ 0x40]);
    let d = single(&mut m, &e32(), codes::BAD_CRC);
    assert_eq!(d.bytes_written, 0);
    single(&mut m0.clone(), &e32(), codes::OK);
}
