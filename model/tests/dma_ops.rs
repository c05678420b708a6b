//! The golden DMA model's three operations: COPY, COMPRESS and DECOMPRESS, their results in
//! memory and their streaming errors (overflow, bus errors, bad frames). Every run is checked
//! against the invariant of [`dma_common::run`].

// Lists of one address range are what `DescOutcome::unspecified` holds, not a mistaken
// `(a..b).collect()`.
#![allow(clippy::single_range_in_vec_init)]

mod dma_common;

use cdma_model::dma::{codes, BusError, Descriptor, EngineConfig, ErrorCode, SparseMemory};
use cdma_model::{compress_frame, layout, ElemType, ElemWidth, FrameOptions};
use cdma_spec::desc as d;

use dma_common::*;

// ---- COPY ----

#[test]
fn copy_moves_bytes_and_respects_the_capacity() {
    let data = relu(300, ElemWidth::W32, 1);
    let mut m = setup(&data, copy(1200, 1200));
    let d = single(&mut m, &e32(), codes::OK);
    assert_eq!(d.bytes_written, 1200);
    assert_eq!(m.peek(DST, 1200), data);
    assert_eq!(m.peek(DST + 1200, 8), [FILL; 8]);
    // One byte short of room: nothing but the status is written.
    early(
        &mut setup(&data, copy(1200, 1196)),
        &e32(),
        codes::DST_OVERFLOW,
    );
    // Zero bytes: nothing read or written.
    let mut m = setup(&[], copy(0, 0));
    m.add_read_error(SRC..SRC + 1, BusError::SlvErr);
    assert_eq!(single(&mut m, &e32(), codes::OK).bytes_written, 0);
}

#[test]
fn copy_bus_errors() {
    let data = relu(64, ElemWidth::W32, 2);
    let mut m = setup(&data, copy(256, 512));
    m.add_read_error(SRC + 200..SRC + 201, BusError::SlvErr);
    let d = single(&mut m, &e32(), codes::READ_ERROR);
    assert_eq!(d.unspecified, vec![DST..DST + 512]);
    let mut m = setup(&data, copy(256, 512));
    m.add_write_error(DST + 255..DST + 256, BusError::DecErr);
    let d = single(&mut m, &e32(), codes::WRITE_ERROR);
    assert_eq!(d.unspecified, vec![DST..DST + 512]);
    // A write error early and a read error late in a long COPY (several internal pieces):
    // the read error is reported.
    let long = vec![5u8; 200_000];
    let mut m = setup(&long, copy(200_000, 200_000));
    m.add_write_error(DST..DST + 1, BusError::SlvErr);
    m.add_read_error(SRC + 199_999..SRC + 200_000, BusError::SlvErr);
    single(&mut m, &e32(), codes::READ_ERROR);
    let mut m = setup(&long, copy(200_000, 200_000));
    single(&mut m, &e32(), codes::OK);
    assert_eq!(m.peek(DST, 200_000), long);
    // A write error range just past the data is not written, so no error.
    let mut m = setup(&data, copy(256, 512));
    m.add_write_error(DST + 256..DST + 257, BusError::DecErr);
    single(&mut m, &e32(), codes::OK);
}

// ---- COMPRESS ----

#[test]
fn compress_writes_the_frame() {
    for (bb, elem) in bus_elem_pairs() {
        let c = cfg(bb);
        for (n, chunk) in [(0usize, 0u8), (1, 7), (1000, 7), (1000, 0), (333, 9)] {
            // The default writes CRCs (version 4), `no_crc` a version 2 frame.
            for crc in [true, false] {
                let data = relu(n, elem, n as u64 + 9);
                let len = data.len() as u32;
                let mut desc = comp(elem.bits(), len, len + 4096, chunk);
                if !crc {
                    desc.control |= d::CTRL_NO_CRC.mask() as u32;
                }
                let mut m = setup(&data, desc);
                let d = single(&mut m, &c, codes::OK);
                let opts = FrameOptions {
                    chunk_log2: if chunk == 0 { 12 } else { chunk },
                    crc,
                    ..FrameOptions::new(ElemType::Raw(elem))
                };
                let frame = compress_frame(&data, &opts).unwrap();
                let meta = layout::Header::parse(&frame).unwrap().meta_len() as usize;
                assert_eq!(d.bytes_written as usize, frame.len() - meta);
                assert_eq!(
                    m.peek(META, meta),
                    &frame[..meta],
                    "BB {bb} n {n} crc {crc}"
                );
                assert_eq!(m.peek(DST, frame.len() - meta), &frame[meta..]);
            }
        }
    }
}

#[test]
fn compress_overflow_is_found_chunk_by_chunk() {
    // 4 chunks of 128 bytes, all dense (raw): 512 payload bytes.
    let data = vec![0x11u8; 512];
    let mut m = setup(&data, comp(32, 512, 511, 7));
    let d = single(&mut m, &e32(), codes::DST_OVERFLOW);
    assert_eq!(
        d.unspecified,
        vec![DST..DST + 511, META..META + 32 + 32 + 4]
    );
    // Exactly enough room.
    let mut m = setup(&data, comp(32, 512, 512, 7));
    assert_eq!(single(&mut m, &e32(), codes::OK).bytes_written, 512);
    // Room is checked against the stored (compressed) sizes, not the input.
    let zeros = vec![0u8; 512];
    let mut m = setup(&zeros, comp(32, 512, 16, 7));
    assert_eq!(single(&mut m, &e32(), codes::OK).bytes_written, 16);
    let mut m = setup(&zeros, comp(32, 512, 15, 7));
    single(&mut m, &e32(), codes::DST_OVERFLOW);
}

#[test]
fn compress_bus_errors() {
    let data = relu(256, ElemWidth::W32, 3); // 1 KiB: 8 chunks of 128 bytes
    let d = comp(32, 1024, 2048, 7);
    let unspec = vec![DST..DST + 2048, META..META + 32 + 64 + 4];
    let mut m = setup(&data, d);
    m.add_read_error(SRC + 1000..SRC + 1001, BusError::SlvErr);
    assert_eq!(
        single(&mut m, &e32(), codes::READ_ERROR).unspecified,
        unspec
    );
    let mut m = setup(&data, d);
    m.add_write_error(DST..DST + 1, BusError::SlvErr);
    assert_eq!(
        single(&mut m, &e32(), codes::WRITE_ERROR).unspecified,
        unspec
    );
    let mut m = setup(&data, d);
    m.add_write_error(META + 63..META + 64, BusError::DecErr);
    assert_eq!(
        single(&mut m, &e32(), codes::WRITE_ERROR).unspecified,
        unspec
    );
    // In-stream errors come first: a write error in chunk 0 and a read error in chunk 7
    // (write responses arrive after the stream has moved on).
    let mut m = setup(&data, d);
    m.add_write_error(DST..DST + 1, BusError::SlvErr);
    m.add_read_error(SRC + 1023..SRC + 1024, BusError::SlvErr);
    single(&mut m, &e32(), codes::READ_ERROR);
    // A DST_OVERFLOW before the read error's chunk wins over it.
    let mut m = setup(&vec![0x22u8; 1024], Descriptor { dst_cap: 200, ..d });
    m.add_read_error(SRC + 1023..SRC + 1024, BusError::SlvErr);
    single(&mut m, &e32(), codes::DST_OVERFLOW);
}

// ---- DECOMPRESS ----

#[test]
fn decompress_restores_the_data() {
    for (bb, elem) in bus_elem_pairs() {
        let c = cfg(bb);
        for (n, chunk) in [(0usize, 12u8), (1, 7), (1000, 7), (5000, 12), (333, 9)] {
            let data = relu(n, elem, n as u64);
            let len = data.len() as u32;
            let (mut m, _) = setup_frame(&data, elem, chunk, |p| decomp(elem.bits(), p, len));
            let d = single(&mut m, &c, codes::OK);
            assert_eq!(d.bytes_written, len);
            assert_eq!(m.peek(DST, data.len()), data);
        }
    }
}

#[test]
fn decompress_header_and_index_errors_write_nothing() {
    let data = relu(400, ElemWidth::W32, 4); // 1600 bytes: 13 chunks of 128
    let mk = |p| decomp(32, p, 1600);
    let (m0, f) = setup_frame(&data, ElemWidth::W32, 7, mk);
    let plen = (f.len() - 32 - 52) as u32;
    let at = |m: &SparseMemory, off: u64, bytes: &[u8]| {
        let mut m = m.clone();
        m.load(META + off, bytes);
        m
    };
    let cases: Vec<(&str, SparseMemory, EngineConfig, ErrorCode)> = vec![
        ("bad magic", at(&m0, 0, b"x"), e32(), codes::BAD_HEADER),
        ("version 1", at(&m0, 4, &[1]), e32(), codes::BAD_HEADER),
        ("codec 2", at(&m0, 5, &[2]), e32(), codes::BAD_HEADER),
        ("elem_bits 12", at(&m0, 6, &[12]), e32(), codes::BAD_HEADER),
        ("chunk_log2 6", at(&m0, 7, &[6]), e32(), codes::BAD_HEADER),
        ("reserved", at(&m0, 15, &[1]), e32(), codes::BAD_HEADER),
        (
            "uncompressed_len not whole",
            at(&m0, 16, &[0x41, 6]),
            e32(),
            codes::BAD_HEADER,
        ),
        ("n_chunks 12", at(&m0, 8, &[12]), e32(), codes::BAD_HEADER),
        (
            "elem_bits 16 ≠ the descriptor's 32",
            at(&m0, 6, &[16]),
            e32(),
            codes::BAD_HEADER,
        ),
        (
            "chunk_log2 8 > CHUNK_LOG2_MAX 7",
            at(&at(&m0, 7, &[8]), 8, &[7]),
            e32().with_chunk_log2_max(7).unwrap(),
            codes::UNSUPPORTED,
        ),
        (
            "raw entry of 127 bytes",
            at(&m0, 32, &[127, 0, 0, 0x80]),
            e32(),
            codes::BAD_INDEX,
        ),
        (
            "ZVC entry of 128 bytes",
            at(&m0, 32, &[128, 0, 0, 0]),
            e32(),
            codes::BAD_INDEX,
        ),
        (
            "ZVC entry of 3 bytes",
            at(&m0, 32, &[3, 0, 0, 0]),
            e32(),
            codes::BAD_INDEX,
        ),
    ];
    for (name, mut m, c, want) in cases {
        eprintln!("case {name}");
        early(&mut m, &c, want);
    }
    // payload_len (in the header) must equal src_len, and the index must sum to it: checked
    // at the last entry, after the chunks before it are written.
    let mut m = m0.clone();
    m.load(DESC, &decomp(32, plen + 4, 1600).to_bytes());
    early(&mut m, &e32(), codes::BAD_HEADER);
    let mut m = m0.clone();
    m.load(DESC, &decomp(32, plen + 4, 1600).to_bytes());
    m.load(META + 24, &(plen + 4).to_le_bytes());
    let d = single(&mut m, &e32(), codes::BAD_INDEX);
    assert_eq!(d.unspecified, vec![DST..DST + 1600]);
    assert_eq!(
        m.peek(DST, 12 * 128),
        &data[..12 * 128],
        "chunks before the last entry"
    );
    // An entry that is bad on its own after the first: the chunks before it are written.
    let mut m = at(&m0, 32 + 4, &[127, 0, 0, 0x80]);
    let d = single(&mut m, &e32(), codes::BAD_INDEX);
    assert_eq!(d.unspecified, vec![DST..DST + 1600]);
    assert_eq!(m.peek(DST, 128), &data[..128], "chunk 0");
    // uncompressed_len must fit dst_cap (checked before the payload length).
    let mut m = m0.clone();
    m.load(DESC, &decomp(32, plen + 4, 1596).to_bytes());
    early(&mut m, &e32(), codes::DST_OVERFLOW);
    // Read error on the header.
    let mut m = m0.clone();
    m.add_read_error(META + 31..META + 32, BusError::SlvErr);
    early(&mut m, &e32(), codes::READ_ERROR);
    // On the E=8 engine (BB = 32) the header is one beat and the 13-entry index two more, so
    // an error in the index's last beat (entries 8–12) is seen only after the header was
    // checked, at entry 8, after chunks 0–7 are written; it wins over a bad entry 12.
    let data8 = relu(1600, ElemWidth::W8, 4);
    let (m8, _) = setup_frame(&data8, ElemWidth::W8, 7, |p| decomp(8, p, 1600));
    let mut m = m8.clone();
    m.add_read_error(META + 83..META + 84, BusError::SlvErr);
    let d = single(&mut m, &cfg(32), codes::READ_ERROR);
    assert_eq!(d.unspecified, vec![DST..DST + 1600]);
    assert_eq!(m.peek(DST, 8 * 128), &data8[..8 * 128], "chunks 0-7");
    let mut m = m8.clone();
    m.load(META, b"x");
    m.add_read_error(META + 83..META + 84, BusError::SlvErr);
    early(&mut m, &cfg(32), codes::BAD_HEADER);
    let mut m = m8.clone();
    m.load(META + 32 + 12 * 4, &[0, 0, 0, 0x80]);
    m.add_read_error(META + 83..META + 84, BusError::SlvErr);
    single(&mut m, &cfg(32), codes::READ_ERROR);
    single(&mut m8.clone(), &cfg(32), codes::OK);
    // On the E=32 engine the same byte is in the header's beat.
    let mut m = m0.clone();
    m.add_read_error(META + 83..META + 84, BusError::SlvErr);
    early(&mut m, &e32(), codes::READ_ERROR);
    // The original frame is fine.
    single(&mut m0.clone(), &e32(), codes::OK);
}

#[test]
fn decompress_payload_errors() {
    let data = relu(400, ElemWidth::W32, 5);
    let (m0, f) = setup_frame(&data, ElemWidth::W32, 7, |p| decomp(32, p, 2000));
    let v = cdma_model::FrameView::parse(&f).unwrap();
    let z = (0..v.n_chunks()).find(|&i| !v.index()[i].raw).unwrap();
    let r = v.stored_range(z).unwrap();
    let unspec = vec![DST..DST + 2000];
    // A ZVC chunk whose stored bytes are all ones cannot decode.
    let mut m = m0.clone();
    m.load(SRC + r.start as u64, &vec![0xFF; r.len()]);
    assert_eq!(
        single(&mut m, &e32(), codes::BAD_PAYLOAD).unspecified,
        unspec
    );
    // Read error in the payload's last byte.
    let mut m = m0.clone();
    let end = SRC + v.payload().len() as u64;
    m.add_read_error(end - 1..end, BusError::SlvErr);
    assert_eq!(
        single(&mut m, &e32(), codes::READ_ERROR).unspecified,
        unspec
    );
    // Read error and bad payload in the same chunk: the read error is reported.
    let mut m = m0.clone();
    m.load(SRC + r.start as u64, &vec![0xFF; r.len()]);
    m.add_read_error(SRC + r.end as u64 - 1..SRC + r.end as u64, BusError::SlvErr);
    single(&mut m, &e32(), codes::READ_ERROR);
    // Write error on the destination.
    let mut m = m0.clone();
    m.add_write_error(DST + 1599..DST + 1600, BusError::DecErr);
    assert_eq!(
        single(&mut m, &e32(), codes::WRITE_ERROR).unspecified,
        unspec
    );
}
