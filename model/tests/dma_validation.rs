//! The golden DMA model's validation: every early error code through its path in the order
//! of docs/DESCRIPTORS.md (fetch, BAD_DESC, UNSUPPORTED, UNALIGNED) and the bus-beat read
//! rule. Every run is checked against the invariant of [`dma_common::run`].

// Lists of one address range are what `DescOutcome::unspecified` holds, not a mistaken
// `(a..b).collect()`.
#![allow(clippy::single_range_in_vec_init)]

mod dma_common;

use cdma_model::dma::{codes, BusError, ChainEnd, Descriptor, EngineConfig, Op, SparseMemory};
use cdma_model::ElemWidth;

use dma_common::*;

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
        (
            "no_crc on COPY",
            Descriptor {
                control: copy(0, 0).control | 1 << 6,
                ..copy(0, 0)
            },
        ),
        (
            "no_crc on DECOMPRESS",
            Descriptor {
                control: decomp(32, 0, 0).control | 1 << 6,
                ..decomp(32, 0, 0)
            },
        ),
    ];
    for bit in [7, 13, 19, 22, 31] {
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
    let cases: Vec<(&str, EngineConfig, Descriptor)> = vec![
        (
            "COMPRESS E=16 on an engine of 32-bit elements",
            cfg_only(128, ElemWidth::W32),
            comp(16, 256, 4096, 0),
        ),
        (
            "COMPRESS E=32 on an engine of 8- and 16-bit elements",
            cfg(32)
                .with_elem_widths(&[ElemWidth::W8, ElemWidth::W16])
                .unwrap(),
            comp(32, 256, 4096, 0),
        ),
        (
            "DECOMPRESS E=8 on an engine of 32-bit elements",
            cfg_only(128, ElemWidth::W32),
            decomp(8, 0, 0),
        ),
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
            "COMPRESS with CRCs on an engine without them",
            e32().with_crc(false),
            comp(32, 256, 4096, 0),
        ),
    ];
    for (name, c, d) in cases {
        eprintln!("case {name}");
        let mut m = setup(&[1; 640], d);
        early(&mut m, &c, codes::UNSUPPORTED);
    }
    // COMPRESS has no chunk-count limit (the index is streamed, not held), COPY runs every
    // element width, and an engine of every width compresses each.
    let mut m = setup(&[1; 640], comp(32, 5 * 128, 1 << 20, 7));
    single(&mut m, &e32(), codes::OK);
    let mut m = setup(
        &[1; 512],
        Descriptor {
            control: ctrl(Op::Copy, 8, 0),
            ..copy(512, 512)
        },
    );
    single(&mut m, &cfg_only(128, ElemWidth::W32), codes::OK);
    for (bb, e) in bus_elem_pairs() {
        let mut m = setup(&[1; 640], comp(e.bits(), 640, 4096, 0));
        single(&mut m, &cfg(bb), codes::OK);
    }
}

#[test]
fn unsupported_is_checked_before_alignment_and_bad_desc_before_unsupported() {
    // UNSUPPORTED (step 3) before UNALIGNED (step 4).
    let e32_only = cfg_only(128, ElemWidth::W32);
    let d = Descriptor {
        src_addr: SRC + 4,
        ..comp(16, 256, 4096, 0)
    };
    early(&mut setup(&[], d), &e32_only, codes::UNSUPPORTED);
    // BAD_DESC (step 2) before UNSUPPORTED (step 3).
    let d = Descriptor {
        reserved0: 5,
        ..comp(16, 256, 4096, 0)
    };
    early(&mut setup(&[], d), &e32_only, codes::BAD_DESC);
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
    for (bb, e) in bus_elem_pairs() {
        let c = cfg(bb);
        let e = e.bits();
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
