//! The golden DMA model's chains: stop / continue after errors, IRQ and CSR results, failed
//! write-backs and fetches, the model's descriptor limit, COMPRESS → DECOMPRESS round trips
//! whose bytes in memory are the frame of `compress_chunked`, and the engine configurations.

// Lists of one address range are what `DescOutcome::unspecified` holds, not a mistaken
// `(a..b).collect()`.
#![allow(clippy::single_range_in_vec_init)]

mod dma_common;

use cdma_model::dma::{
    codes, control_word, status_word, BusError, ChainEnd, ConfigError, Descriptor, EngineConfig,
    Op, SparseMemory,
};
use cdma_model::{compress_frame, layout, ElemType, ElemWidth, FrameOptions};
use cdma_spec::{csr, desc as d};

use dma_common::*;

// ---- chains ----

/// Three COPY descriptors at DESC, DESC + 0x40, DESC + 0x80; the middle one's src_len is
/// `mid_len` and its control word gets `mid_flags`.
fn chain3(mid_len: u32, stop: bool, irq: [bool; 3]) -> SparseMemory {
    let mut m = SparseMemory::new(FILL);
    m.load(SRC, &[9; 256]);
    for i in 0..3u64 {
        let len = if i == 1 { mid_len } else { 128 };
        let d = Descriptor {
            control: control_word(Op::Copy, 32, 0, irq[i as usize], i == 1 && stop),
            src_len: len,
            src_addr: SRC,
            dst_addr: DST + 0x1000 * i,
            dst_cap: 256,
            next: if i < 2 { DESC + 0x40 * (i + 1) } else { 0 },
            ..Descriptor::default()
        };
        m.load(DESC + 0x40 * i, &d.to_bytes());
    }
    m
}

#[test]
fn chain_continues_after_an_error_without_stop_on_error() {
    let mut m = chain3(6, false, [false; 3]);
    let o = run(&mut m, DESC, &e32());
    assert_eq!(o.end, ChainEnd::Completed);
    let errs: Vec<_> = o.descs.iter().map(|d| d.error).collect();
    assert_eq!(errs, [codes::OK, codes::BAD_DESC, codes::OK]);
    assert_eq!(o.desc_done, 3);
    assert_eq!(o.error(), Some(codes::BAD_DESC));
    assert_eq!(o.err_desc, Some(DESC + 0x40));
    assert_eq!(o.irq_status, 0b11);
    assert_eq!(m.peek(DST + 0x2000, 128), [9; 128]);
}

#[test]
fn chain_stops_on_error_when_asked() {
    let mut m = chain3(6, true, [false; 3]);
    let o = run(&mut m, DESC, &e32());
    assert_eq!(o.end, ChainEnd::StoppedOnError);
    assert_eq!(o.descs.len(), 2);
    assert_eq!(o.desc_done, 2);
    assert_eq!(o.error(), Some(codes::BAD_DESC));
    assert_eq!(m.peek(DST + 0x2000, 128), [FILL; 128]);
    // stop_on_error on a descriptor that succeeds changes nothing.
    let mut m = chain3(128, true, [false; 3]);
    let o = run(&mut m, DESC, &e32());
    assert_eq!(o.end, ChainEnd::Completed);
    assert_eq!(o.descs.len(), 3);
    assert_eq!((o.status, o.err_desc, o.irq_status), (0, None, 0b01));
}

#[test]
fn irq_flags_and_csr_bits() {
    let mut m = chain3(128, false, [false, true, false]);
    let o = run(&mut m, DESC, &e32());
    let flags: Vec<bool> = o.descs.iter().map(|d| d.irq_done).collect();
    assert_eq!(flags, [false, true, false]);
    assert_eq!(o.irq_status, 1, "done only (the chain ended)");
    assert_eq!(o.status, 0);
    // The last failure's code and address are what STATUS and ERR_DESC show.
    let mut m = chain3(6, false, [false; 3]);
    let bad = Descriptor {
        next: 0,
        ..copy(128, 64)
    }; // DST_OVERFLOW
    m.load(DESC + 0x80, &bad.to_bytes());
    let o = run(&mut m, DESC, &e32());
    assert_eq!(o.error(), Some(codes::DST_OVERFLOW));
    assert_eq!(o.err_desc, Some(DESC + 0x80));
    let s = u64::from(o.status);
    assert_eq!(csr::STATUS_ERR_CODE.get(s), 9);
    assert_eq!(csr::STATUS_ERROR.get(s), 1);
}

#[test]
fn failed_write_back_ends_the_chain() {
    // The engine writes whole beats: on a 128-byte bus descriptors 0 and 1 share a beat, so a
    // write error in descriptor 1's status bytes already fails descriptor 0's write-back.
    let mut m = chain3(128, false, [false; 3]);
    m.add_write_error(DESC + 0x40 + 0x37..DESC + 0x40 + 0x38, BusError::SlvErr);
    let o = run(&mut m, DESC, &e32());
    assert_eq!(o.end, ChainEnd::WritebackFailed);
    assert_eq!(o.descs.len(), 1);
    assert!(o.descs[0].writeback_failed);
    // On a 16-byte bus it is descriptor 1's alone.
    let mut m = chain3(128, false, [false; 3]);
    m.add_write_error(DESC + 0x40 + 0x37..DESC + 0x40 + 0x38, BusError::SlvErr);
    let o = run(&mut m, DESC, &cfg(16));
    assert_eq!(o.end, ChainEnd::WritebackFailed);
    assert_eq!(o.descs.len(), 2);
    assert!(o.descs[1].writeback_failed);
    assert_eq!(o.descs[1].error, codes::OK, "the copy itself succeeded");
    assert_eq!(o.error(), Some(codes::WRITE_ERROR));
    assert_eq!(o.err_desc, Some(DESC + 0x40));
    assert_eq!(o.irq_status, 0b11);
    assert_eq!(m.peek(DESC + 0x70, 8), [0; 8], "as software left it");
}

#[test]
fn chain_into_an_unaligned_or_unreadable_next() {
    let mut m = chain3(128, false, [false; 3]);
    let d = Descriptor {
        next: DESC + 0x48,
        ..copy(128, 256)
    };
    m.load(DESC, &d.to_bytes());
    let o = run(&mut m, DESC, &e32());
    assert_eq!(o.end, ChainEnd::FetchFailed);
    assert_eq!(o.descs.len(), 2);
    assert_eq!(o.descs[1].error, codes::UNALIGNED);
    assert_eq!(o.err_desc, Some(DESC + 0x48));
    assert_eq!(o.descs[0].error, codes::OK);
}

#[test]
fn endless_chain_stops_at_the_model_limit() {
    let mut m = setup(
        &[1; 128],
        Descriptor {
            next: DESC,
            ..copy(128, 128)
        },
    );
    let o = run(&mut m, DESC, &e32().with_desc_limit(5));
    assert_eq!(o.end, ChainEnd::Limit);
    assert_eq!(o.descs.len(), 5);
    assert_eq!(o.status, 0);
}

// ---- round trip ----

/// COMPRESS then DECOMPRESS in one chain. Without CRCs (`no_crc`) the metadata ends where the
/// payload starts, so memory holds exactly the frame file of `compress_chunked`; with them
/// (the default, version 4) the metadata (36 + 8n bytes, never a whole beat) and the payload
/// are apart, and together they are the frame of `compress_frame`.
#[test]
fn compress_then_decompress_chain_round_trips_through_memory() {
    for (bb, elem) in bus_elem_pairs() {
        let c = cfg(bb);
        for chunk in [7u8, 8, 12] {
            for crc in [false, true] {
                // 24 chunks: 32 + 4·24 = 128 bytes of metadata without CRCs.
                let len = (23 << chunk) + (1 << chunk) / 2;
                let data = relu(
                    len / elem.bytes(),
                    elem,
                    u64::from(chunk) * 77 + u64::from(bb),
                );
                let opts = FrameOptions {
                    chunk_log2: chunk,
                    crc,
                    ..FrameOptions::new(ElemType::Raw(elem))
                };
                let frame = compress_frame(&data, &opts).unwrap();
                let meta_len = layout::Header::parse(&frame).unwrap().meta_len();
                assert_eq!(meta_len, if crc { 36 + 8 * 24 } else { 128 });
                let pay_at = META + meta_len.next_multiple_of(128);
                let payload_len = (frame.len() as u64 - meta_len) as u32;
                let mut m = SparseMemory::new(FILL);
                m.load(SRC, &data);
                let no_crc = if crc { 0 } else { d::CTRL_NO_CRC.mask() as u32 };
                let d0 = Descriptor {
                    control: control_word(Op::Compress, elem.bits(), chunk, false, true) | no_crc,
                    next: DESC + 0x40,
                    dst_addr: pay_at,
                    dst_cap: frame.len() as u32,
                    ..comp(elem.bits(), len as u32, 0, chunk)
                };
                let d1 = Descriptor {
                    control: control_word(Op::Decompress, elem.bits(), 0, true, true),
                    src_addr: pay_at,
                    src_len: payload_len,
                    dst_addr: DST2,
                    dst_cap: len as u32,
                    ..decomp(elem.bits(), 0, 0)
                };
                m.load(DESC, &d0.to_bytes());
                m.load(DESC + 0x40, &d1.to_bytes());
                let o = run(&mut m, DESC, &c);
                assert_eq!(
                    o.end,
                    ChainEnd::Completed,
                    "BB {bb} chunk {chunk} crc {crc}"
                );
                assert_eq!(o.status, 0);
                assert_eq!(o.descs[0].bytes_written, payload_len);
                assert_eq!(o.descs[1].bytes_written, len as u32);
                let mut got = m.peek(META, meta_len as usize);
                got.extend(m.peek(pay_at, payload_len as usize));
                assert_eq!(got, frame, "frame in memory");
                assert_eq!(m.peek(DST2, len), data, "data back");
            }
        }
    }
}

#[test]
fn configurations() {
    assert_eq!(
        EngineConfig::new(48),
        Err(ConfigError::BusBytes { bus_bytes: 48 })
    );
    assert_eq!(
        e32().with_chunk_log2_max(25),
        Err(ConfigError::ChunkLog2Max { value: 25 })
    );
    let c = EngineConfig::default();
    assert_eq!(
        (c.bus_bytes(), c.elem_widths(), c.chunk_log2_max()),
        (128, ElemWidth::ALL.to_vec(), 12)
    );
    assert_eq!(
        EngineConfig::new(16).unwrap().with_elem_widths(&[]),
        Err(ConfigError::NoElemWidth)
    );
    let c16 = cfg(64).with_elem_widths(&[ElemWidth::W16]).unwrap();
    assert_eq!(c16.elem_widths(), vec![ElemWidth::W16]);
    assert!(c16.supports(ElemWidth::W16) && !c16.supports(ElemWidth::W8));
    // HWCFG: bus_bytes_log2 7, crc 1, elem_mask 0b111, codec_mask 0b01 (ZVC),
    // chunk_log2_max 12, reads_in_flight 4; with ZVC-X, codec_mask 0b11; without CRC, crc 0.
    assert_eq!(c.hwcfg(4), 0x040C_1717);
    assert_eq!(c16.hwcfg(4) >> 8 & 0xF, 0b010);
    assert_eq!(c.with_zvcx(true).hwcfg(4), 0x040C_3717);
    assert_eq!(c.with_crc(false).hwcfg(4), 0x040C_1707);
    let d = comp(32, 1, 2, 9);
    assert_eq!(Descriptor::from_bytes(&d.to_bytes()), d);
    assert_eq!(d.control, 0x0909);
    assert_eq!(status_word(codes::BAD_INDEX), 0x0701);
}
