//! The golden DMA model: every error code through its path in the validation order of
//! docs/DESCRIPTORS.md, chains (stop / continue, IRQ and CSR results), the bus-beat read
//! rule, and COMPRESS → DECOMPRESS round trips whose bytes in memory are the frame of
//! `compress_chunked`.
//!
//! Every run is checked against the same invariant: the only bytes that changed are the
//! status write-backs, the outputs of successful descriptors, and the ranges the model
//! declares unspecified.

// Lists of one address range are what `DescOutcome::unspecified` holds, not a mistaken
// `(a..b).collect()`.
#![allow(clippy::single_range_in_vec_init)]

use std::ops::Range;

use cdma_model::dma::{
    codes, control_word, run_chain, status_word, BusError, ChainEnd, ChainOutcome, ConfigError,
    DescOutcome, Descriptor, EngineConfig, ErrorCode, Op, SparseMemory,
};
use cdma_model::{compress_chunked, spec, ElemWidth};
use cdma_spec::csr;

const DESC: u64 = 0x1000;
const SRC: u64 = 0x1_0000;
const DST: u64 = 0x4_0000;
const META: u64 = 0x8_0000;
const DST2: u64 = 0xC_0000;
const FILL: u8 = 0xCD;

fn within(r: &Range<u64>, allowed: &[Range<u64>]) -> bool {
    // Allowed ranges may touch or overlap; walk r through them.
    let mut at = r.start;
    loop {
        if at >= r.end {
            return true;
        }
        match allowed.iter().find(|a| a.start <= at && at < a.end) {
            Some(a) => at = a.end,
            None => return false,
        }
    }
}

/// Runs the chain at `head` and checks the invariant on what changed in memory.
fn run(mem: &mut SparseMemory, head: u64, cfg: &EngineConfig) -> ChainOutcome {
    let before = mem.clone();
    let o = run_chain(mem, head, cfg);
    let mut allowed = Vec::new();
    for d in &o.descs {
        allowed.extend(d.unspecified.iter().cloned());
        if let Some(word) = d.status_word {
            let wb = d.addr + 0x30..d.addr + 0x38;
            if !d.writeback_failed {
                let mut expect = word.to_le_bytes().to_vec();
                expect.extend_from_slice(&d.bytes_written.to_le_bytes());
                assert_eq!(mem.peek(wb.start, 8), expect, "write-back of {:#x}", d.addr);
            }
            allowed.push(wb);
        }
        if d.error == codes::OK {
            let desc = d.desc.unwrap();
            allowed.push(desc.dst_addr..desc.dst_addr + u64::from(d.bytes_written));
            if desc.control & 3 == 1 {
                let n = u64::from(u32::from_le_bytes(
                    mem.peek(desc.meta_addr + 8, 4).try_into().unwrap(),
                ));
                allowed.push(desc.meta_addr..desc.meta_addr + spec::meta_len(n));
            }
        } else {
            assert_eq!(d.bytes_written, 0, "bytes_written after an error");
        }
    }
    for r in mem.diff(&before) {
        assert!(within(&r, &allowed), "{r:x?} changed, allowed {allowed:x?}");
    }
    assert_eq!(o.desc_done as usize, o.descs.len());
    o
}

/// ReLU-like data of `n` `elem`-wide elements: about half zero, non-zero ones arbitrary.
fn relu(n: usize, elem: ElemWidth, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    (0..n)
        .flat_map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = if s % 100 < 50 {
                0
            } else {
                (s >> 20) as u32 | 1
            };
            v.to_le_bytes().into_iter().take(elem.bytes())
        })
        .collect()
}

fn cfg(bb: u32) -> EngineConfig {
    EngineConfig::new(bb).unwrap()
}

fn e32() -> EngineConfig {
    cfg(128)
}

fn ctrl(op: Op, elem_bits: u32, chunk_log2: u8) -> u32 {
    control_word(op, elem_bits, chunk_log2, false, false)
}

fn copy(len: u32, cap: u32) -> Descriptor {
    Descriptor {
        control: ctrl(Op::Copy, 32, 0),
        src_len: len,
        src_addr: SRC,
        dst_addr: DST,
        dst_cap: cap,
        ..Descriptor::default()
    }
}

fn comp(elem_bits: u32, len: u32, cap: u32, chunk_log2: u8) -> Descriptor {
    Descriptor {
        control: ctrl(Op::Compress, elem_bits, chunk_log2),
        src_len: len,
        src_addr: SRC,
        dst_addr: DST,
        dst_cap: cap,
        meta_addr: META,
        ..Descriptor::default()
    }
}

fn decomp(elem_bits: u32, payload_len: u32, cap: u32) -> Descriptor {
    Descriptor {
        control: ctrl(Op::Decompress, elem_bits, 0),
        src_len: payload_len,
        src_addr: SRC,
        dst_addr: DST,
        dst_cap: cap,
        meta_addr: META,
        ..Descriptor::default()
    }
}

/// Memory with `data` at SRC and descriptor `d` at DESC.
fn setup(data: &[u8], d: Descriptor) -> SparseMemory {
    let mut m = SparseMemory::new(FILL);
    m.load(SRC, data);
    m.load(DESC, &d.to_bytes());
    m
}

/// A frame of `data` laid out for DECOMPRESS: header + index at META, payload at SRC.
/// Returns the memory (descriptor at DESC, from `mk(payload_len)`) and the frame.
fn setup_frame(
    data: &[u8],
    elem: ElemWidth,
    c: u8,
    mk: impl Fn(u32) -> Descriptor,
) -> (SparseMemory, Vec<u8>) {
    let f = compress_chunked(data, elem, c).unwrap();
    let meta = spec::Header::parse(&f).unwrap().meta_len() as usize;
    let mut m = SparseMemory::new(FILL);
    m.load(META, &f[..meta]);
    m.load(SRC, &f[meta..]);
    m.load(DESC, &mk((f.len() - meta) as u32).to_bytes());
    (m, f)
}

/// Runs the single descriptor at DESC and checks the CSR view of its result.
fn single(mem: &mut SparseMemory, c: &EngineConfig, want: ErrorCode) -> DescOutcome {
    let o = run(mem, DESC, c);
    assert_eq!(o.descs.len(), 1);
    let d = o.descs[0].clone();
    assert_eq!(d.error, want, "descriptor error");
    assert_eq!(d.status_word, Some(status_word(want)));
    assert_eq!(o.end, ChainEnd::Completed);
    let irq = u64::from(o.irq_status);
    assert_eq!(csr::IRQ_DONE.get(irq), 1);
    if want == codes::OK {
        assert_eq!(o.error(), None);
        assert_eq!(o.err_desc, None);
        assert_eq!(csr::IRQ_ERROR.get(irq), 0);
        assert!(d.unspecified.is_empty());
    } else {
        assert_eq!(o.error(), Some(want));
        assert_eq!(o.err_desc, Some(DESC));
        assert_eq!(csr::IRQ_ERROR.get(irq), 1);
        assert_eq!(csr::STATUS_BUSY.get(u64::from(o.status)), 0);
    }
    d
}

/// The descriptor failed before writing anything but its status.
fn early(mem: &mut SparseMemory, c: &EngineConfig, want: ErrorCode) {
    let before = mem.clone();
    let d = single(mem, c, want);
    assert!(
        d.unspecified.is_empty(),
        "{}: {:x?}",
        want.name,
        d.unspecified
    );
    for r in mem.diff(&before) {
        assert!(r.start >= DESC + 0x30 && r.end <= DESC + 0x38, "{r:x?}");
    }
}

// ---- step 1: fetching the descriptor ----

#[test]
fn unaligned_descriptor_is_not_fetched_or_written_back() {
    let mut m = setup(&[], copy(0, 0));
    m.load(DESC + 0x20, &copy(0, 0).to_bytes());
    let before = m.clone();
    let o = run(&mut m, DESC + 0x20, &e32());
    assert_eq!(o.end, ChainEnd::FetchFailed);
    assert_eq!(o.descs[0].error, codes::UNALIGNED);
    assert_eq!(o.descs[0].status_word, None);
    assert_eq!(o.descs[0].desc, None);
    assert_eq!(o.error(), Some(codes::UNALIGNED));
    assert_eq!(o.err_desc, Some(DESC + 0x20));
    assert_eq!(o.irq_status, 0b11);
    assert!(m.diff(&before).is_empty());
}

#[test]
fn descriptor_read_error_is_not_written_back() {
    for resp in [BusError::SlvErr, BusError::DecErr] {
        let mut m = setup(&[], copy(0, 0));
        m.add_read_error(DESC + 0x3F..DESC + 0x40, resp);
        let before = m.clone();
        let o = run(&mut m, DESC, &e32());
        assert_eq!(o.end, ChainEnd::FetchFailed);
        assert_eq!(o.descs[0].error, codes::READ_ERROR);
        assert_eq!(o.descs[0].status_word, None);
        assert!(m.diff(&before).is_empty());
    }
}

#[test]
fn reads_cover_whole_beats() {
    // A 64-byte descriptor at 0x1040 shares a 128-byte beat with 0x1000..0x1040 on the
    // E=32 engine (BB = 128) but not on the E=8 engine (BB = 32).
    for (bb, want) in [(128, codes::READ_ERROR), (64, codes::OK), (32, codes::OK)] {
        let mut m = SparseMemory::new(0);
        m.load(DESC + 0x40, &copy(0, 0).to_bytes());
        m.add_read_error(DESC + 0x3F..DESC + 0x40, BusError::SlvErr);
        let o = run(&mut m, DESC + 0x40, &cfg(bb));
        assert_eq!(o.descs[0].error, want, "BB = {bb}");
    }
    // The source's last beat is read whole: an error just past src_len fails a COPY whose
    // length is not a multiple of the beat, and not one that ends on a beat boundary.
    for (len, want) in [(100, codes::READ_ERROR), (128, codes::OK)] {
        let mut m = setup(&[7; 128], copy(len, 128));
        m.add_read_error(SRC + 127..SRC + 128, BusError::DecErr);
        if want == codes::OK {
            m.clear_errors();
            m.add_read_error(SRC + 128..SRC + 129, BusError::DecErr);
        }
        single(&mut m, &e32(), want);
    }
}

// ---- step 2: BAD_DESC ----

#[test]
fn bad_descriptors() {
    let base = comp(32, 256, 4096, 0);
    let mut cases: Vec<(&str, Descriptor)> = vec![
        (
            "op 3",
            Descriptor {
                control: base.control | 3,
                ..base
            },
        ),
        (
            "elem 3",
            Descriptor {
                control: base.control | 0xC,
                ..base
            },
        ),
        (
            "elem 3 on COPY",
            Descriptor {
                control: copy(0, 0).control | 0xC,
                ..copy(0, 0)
            },
        ),
        (
            "reserved0",
            Descriptor {
                reserved0: 1,
                ..base
            },
        ),
        (
            "reserved1",
            Descriptor {
                reserved1: 1 << 63,
                ..base
            },
        ),
        (
            "COPY chunk_log2 12",
            Descriptor {
                control: ctrl(Op::Copy, 32, 12),
                ..copy(0, 0)
            },
        ),
        (
            "DECOMPRESS chunk_log2 7",
            Descriptor {
                control: ctrl(Op::Decompress, 32, 7),
                ..base
            },
        ),
        (
            "src_len not whole elements",
            Descriptor {
                src_len: 254,
                ..base
            },
        ),
        ("COPY src_len not whole elements", copy(6, 64)),
    ];
    for bit in [6, 7, 13, 20, 31] {
        cases.push((
            "reserved control bit",
            Descriptor {
                control: base.control | 1 << bit,
                ..base
            },
        ));
    }
    for c in [1u8, 6, 25, 31] {
        cases.push(("COMPRESS chunk_log2 out of range", comp(32, 256, 4096, c)));
    }
    for (name, d) in cases {
        let mut m = setup(&[1; 256], d);
        eprintln!("case {name}");
        early(&mut m, &e32(), codes::BAD_DESC);
    }
}

// ---- step 3: UNSUPPORTED ----

#[test]
fn unsupported_by_the_configuration() {
    let small_idx = e32().with_idx_log2(2).unwrap();
    let cases: Vec<(&str, EngineConfig, Descriptor)> = vec![
        (
            "COMPRESS E=16 on the E=32 engine",
            e32(),
            comp(16, 256, 4096, 0),
        ),
        (
            "COMPRESS E=32 on the E=8 engine",
            cfg(32),
            comp(32, 256, 4096, 0),
        ),
        ("DECOMPRESS E=8 on the E=32 engine", e32(), decomp(8, 0, 0)),
        (
            "chunk_log2 13 > CHUNK_LOG2_MAX 12",
            e32(),
            comp(32, 256, 4096, 13),
        ),
        (
            "chunk_log2 12 > CHUNK_LOG2_MAX 11",
            e32().with_chunk_log2_max(11).unwrap(),
            comp(32, 256, 4096, 0),
        ),
        (
            "5 chunks > 2^IDX_LOG2 = 4",
            small_idx,
            comp(32, 5 * 128, 1 << 20, 7),
        ),
    ];
    for (name, c, d) in cases {
        eprintln!("case {name}");
        let mut m = setup(&[1; 640], d);
        early(&mut m, &c, codes::UNSUPPORTED);
    }
    // Exactly 2^IDX_LOG2 chunks is fine, and COPY ignores the element width.
    let mut m = setup(&[1; 512], comp(32, 4 * 128, 1 << 20, 7));
    single(&mut m, &small_idx, codes::OK);
    let mut m = setup(
        &[1; 512],
        Descriptor {
            control: ctrl(Op::Copy, 8, 0),
            ..copy(512, 512)
        },
    );
    single(&mut m, &e32(), codes::OK);
}

#[test]
fn unsupported_is_checked_before_alignment_and_bad_desc_before_unsupported() {
    // UNSUPPORTED (step 3) before UNALIGNED (step 4).
    let d = Descriptor {
        src_addr: SRC + 4,
        ..comp(16, 256, 4096, 0)
    };
    early(&mut setup(&[], d), &e32(), codes::UNSUPPORTED);
    // BAD_DESC (step 2) before UNSUPPORTED (step 3).
    let d = Descriptor {
        reserved0: 5,
        ..comp(16, 256, 4096, 0)
    };
    early(&mut setup(&[], d), &e32(), codes::BAD_DESC);
    // UNALIGNED (step 4) before BAD_DESC for the length (step 5).
    let d = Descriptor {
        dst_addr: DST + 64,
        ..copy(6, 64)
    };
    early(&mut setup(&[], d), &e32(), codes::UNALIGNED);
    // BAD_DESC for the length (step 5) before DST_OVERFLOW (step 6).
    early(&mut setup(&[], copy(6, 0)), &e32(), codes::BAD_DESC);
}

// ---- step 4: UNALIGNED ----

#[test]
fn unaligned_addresses() {
    for bb in [32u32, 64, 128] {
        let c = cfg(bb);
        let e = c.elem_bits();
        let half = u64::from(bb / 2);
        let cases = [
            Descriptor {
                src_addr: SRC + half,
                ..copy(64, 64)
            },
            Descriptor {
                dst_addr: DST + half,
                ..copy(64, 64)
            },
            Descriptor {
                src_addr: SRC + 4,
                ..comp(e, 256, 4096, 0)
            },
            Descriptor {
                meta_addr: META + half,
                ..comp(e, 256, 4096, 0)
            },
            Descriptor {
                meta_addr: META + 1,
                ..decomp(e, 0, 0)
            },
            Descriptor {
                dst_addr: DST + half,
                ..decomp(e, 0, 0)
            },
        ];
        for d in cases {
            early(&mut setup(&[1; 256], d), &c, codes::UNALIGNED);
        }
        // COPY does not use meta_addr.
        let d = Descriptor {
            meta_addr: 3,
            ..copy(64, 64)
        };
        single(&mut setup(&[1; 64], d), &c, codes::OK);
    }
}

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
    for bb in [32u32, 64, 128] {
        let c = cfg(bb);
        let elem = c.elem();
        for (n, chunk) in [(0usize, 0u8), (1, 7), (1000, 7), (1000, 0), (333, 9)] {
            let data = relu(n, elem, n as u64 + 9);
            let len = data.len() as u32;
            let mut m = setup(&data, comp(elem.bits(), len, len + 4096, chunk));
            let d = single(&mut m, &c, codes::OK);
            let frame = compress_chunked(&data, elem, if chunk == 0 { 12 } else { chunk }).unwrap();
            let meta = spec::Header::parse(&frame).unwrap().meta_len() as usize;
            assert_eq!(d.bytes_written as usize, frame.len() - meta);
            assert_eq!(m.peek(META, meta), &frame[..meta], "BB {bb} n {n}");
            assert_eq!(m.peek(DST, frame.len() - meta), &frame[meta..]);
        }
    }
}

#[test]
fn compress_overflow_is_found_chunk_by_chunk() {
    // 4 chunks of 128 bytes, all dense (raw): 512 payload bytes.
    let data = vec![0x11u8; 512];
    let mut m = setup(&data, comp(32, 512, 511, 7));
    let d = single(&mut m, &e32(), codes::DST_OVERFLOW);
    assert_eq!(d.unspecified, vec![DST..DST + 511, META..META + 32 + 16]);
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
    let unspec = vec![DST..DST + 2048, META..META + 64];
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
    for bb in [32u32, 64, 128] {
        let c = cfg(bb);
        let elem = c.elem();
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
            "13 chunks > 2^3",
            m0.clone(),
            e32().with_idx_log2(3).unwrap(),
            codes::UNSUPPORTED,
        ),
        (
            "elem_bits 16 ≠ E",
            at(&m0, 6, &[16]),
            e32(),
            codes::UNSUPPORTED,
        ),
        (
            "chunk_log2 8 > CHUNK_LOG2_MAX 7",
            at(&at(&m0, 7, &[8]), 8, &[7]),
            e32().with_chunk_log2_max(7).unwrap(),
            codes::UNSUPPORTED,
        ),
        (
            "raw entry of 127 bytes",
            at(&m0, 32 + 4, &[127, 0, 0, 0x80]),
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
    // payload_len (in the header) must equal src_len, and the index must sum to it.
    let mut m = m0.clone();
    m.load(DESC, &decomp(32, plen + 4, 1600).to_bytes());
    early(&mut m, &e32(), codes::BAD_HEADER);
    let mut m = m0.clone();
    m.load(DESC, &decomp(32, plen + 4, 1600).to_bytes());
    m.load(META + 24, &(plen + 4).to_le_bytes());
    early(&mut m, &e32(), codes::BAD_INDEX);
    // uncompressed_len must fit dst_cap (checked before the payload length).
    let mut m = m0.clone();
    m.load(DESC, &decomp(32, plen + 4, 1596).to_bytes());
    early(&mut m, &e32(), codes::DST_OVERFLOW);
    // Read error on the header.
    let mut m = m0.clone();
    m.add_read_error(META + 31..META + 32, BusError::SlvErr);
    early(&mut m, &e32(), codes::READ_ERROR);
    // On the E=8 engine (BB = 32) the header is one beat and the 13-entry index two more, so
    // an error in the index's last beat is seen only after the header was checked.
    let data8 = relu(1600, ElemWidth::W8, 4);
    let (m8, _) = setup_frame(&data8, ElemWidth::W8, 7, |p| decomp(8, p, 1600));
    let mut m = m8.clone();
    m.add_read_error(META + 83..META + 84, BusError::SlvErr);
    early(&mut m, &cfg(32), codes::READ_ERROR);
    let mut m = m8.clone();
    m.load(META, b"x");
    m.add_read_error(META + 83..META + 84, BusError::SlvErr);
    early(&mut m, &cfg(32), codes::BAD_HEADER);
    let mut m = m8.clone();
    m.load(META + 32 + 12 * 4, &[0, 0, 0, 0x80]);
    m.add_read_error(META + 83..META + 84, BusError::SlvErr);
    early(&mut m, &cfg(32), codes::READ_ERROR);
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
    let mut m = chain3(128, false, [false; 3]);
    m.add_write_error(DESC + 0x40 + 0x37..DESC + 0x40 + 0x38, BusError::SlvErr);
    let o = run(&mut m, DESC, &e32());
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

/// COMPRESS then DECOMPRESS in one chain, laid out so that the metadata ends where the
/// payload starts: memory then holds exactly the frame file of `compress_chunked`.
#[test]
fn compress_then_decompress_chain_round_trips_through_memory() {
    for bb in [32u32, 64, 128] {
        let c = cfg(bb);
        let elem = c.elem();
        for chunk in [7u8, 8, 12] {
            // 24 chunks: 32 + 4·24 = 128 bytes of metadata, a multiple of every bus width.
            let len = (23 << chunk) + (1 << chunk) / 2;
            let data = relu(
                len / elem.bytes(),
                elem,
                u64::from(chunk) * 77 + u64::from(bb),
            );
            let frame = compress_chunked(&data, elem, chunk).unwrap();
            let meta_len = 128u64;
            assert_eq!(spec::Header::parse(&frame).unwrap().meta_len(), meta_len);
            let payload_len = (frame.len() as u64 - meta_len) as u32;
            let mut m = SparseMemory::new(FILL);
            m.load(SRC, &data);
            let d0 = Descriptor {
                control: control_word(Op::Compress, elem.bits(), chunk, false, true),
                next: DESC + 0x40,
                dst_addr: META + meta_len,
                dst_cap: frame.len() as u32,
                ..comp(elem.bits(), len as u32, 0, chunk)
            };
            let d1 = Descriptor {
                control: control_word(Op::Decompress, elem.bits(), 0, true, true),
                src_addr: META + meta_len,
                src_len: payload_len,
                dst_addr: DST2,
                dst_cap: len as u32,
                ..decomp(elem.bits(), 0, 0)
            };
            m.load(DESC, &d0.to_bytes());
            m.load(DESC + 0x40, &d1.to_bytes());
            let o = run(&mut m, DESC, &c);
            assert_eq!(o.end, ChainEnd::Completed, "BB {bb} chunk {chunk}");
            assert_eq!(o.status, 0);
            assert_eq!(o.descs[0].bytes_written, payload_len);
            assert_eq!(o.descs[1].bytes_written, len as u32);
            assert_eq!(m.peek(META, frame.len()), frame, "frame in memory");
            assert_eq!(m.peek(DST2, len), data, "data back");
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
    assert_eq!(
        e32().with_idx_log2(33),
        Err(ConfigError::IdxLog2 { value: 33 })
    );
    let c = EngineConfig::default();
    assert_eq!(
        (
            c.bus_bytes(),
            c.elem_bits(),
            c.chunk_log2_max(),
            c.idx_log2()
        ),
        (128, 32, 12, 10)
    );
    assert_eq!(cfg(32).elem(), ElemWidth::W8);
    assert_eq!(cfg(64).elem_bits(), 16);
    // HWCFG: bus_bytes_log2 7, elem_bits 32, chunk_log2_max 12, reads_in_flight 4.
    assert_eq!(c.hwcfg(4), 0x040C_2007);
    let d = comp(32, 1, 2, 9);
    assert_eq!(Descriptor::from_bytes(&d.to_bytes()), d);
    assert_eq!(d.control, 0x0909);
    assert_eq!(status_word(codes::BAD_INDEX), 0x0701);
}
