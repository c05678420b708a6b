//! Descriptor fetch and checks, COPY, chaining, abort and status write-back errors.

use super::*;

pub(super) fn copy_writes_data_and_status_with_eight_strobes<U: Ctl>() {
    let mut tb = Tb::<U>::new();
    let d = Desc {
        irq: true,
        ..copy::<U>(100)
    };
    tb.put(D0, &d.bytes());
    let src = tb.get(SRC, 100).to_vec();
    // The rest of the last payload beat (28 bytes at every width: 100 = 3·32 + 4 = 64 + 36).
    let tail = (beats::<U>(100) * U::BB - 100) as usize;
    let after = tb.get(DST + 100, tail).to_vec();
    tb.run(D0);
    assert_eq!(tb.get(DST, 100), &src[..]);
    assert_eq!(tb.get(DST + 100, tail), &after[..], "wrote past src_len");
    assert_eq!(tb.status(D0), (true, 0, 100));
    // The payload beats: full beats, then the last one with the 100 mod BB bytes left.
    let payload: Vec<_> = tb
        .wr_strobes
        .iter()
        .copied()
        .filter(|w| w.0 >= DST)
        .collect();
    assert_eq!(payload, write_beats::<U>(DST, 100));
    // The status beat: one 8-byte write at desc + 0x30, nothing else of the descriptor
    // (DW = 256: beat desc + 0x20, strobes 0xFF << 16; 512, 1024: beat desc, 0xFF << 48).
    let st = *tb.wr_strobes.last().unwrap();
    assert_eq!([st], &write_beats::<U>(D0 + 0x30, 8)[..]);
    assert_eq!(tb.wr_strobes.len(), payload.len() + 1);
    let mut want = d.bytes();
    want[0x30..0x38].copy_from_slice(tb.get(D0 + 0x30, 8));
    assert_eq!(tb.get(D0, 64), &want[..]);
    assert!(!tb.out().error);
    assert_eq!((tb.desc_done, tb.dp_starts, tb.irq_error), (1, 1, 0));
    assert_eq!(tb.irq_done, 2, "irq flag + chain end");
}

/// Runs one descriptor and returns (status code, CSR err_code, dp starts).
/// Runs `d` alone on an engine of the test's element width only (so the other widths are
/// UNSUPPORTED); it must fail. Returns its status, the CSR error code and datapath starts.
fn run_one<U: Ctl>(d: Desc) -> (u64, u64, u32) {
    let mut tb = Tb::<U>::with_elem_mask(1 << elem_code(elem_bits::<U>()));
    tb.put(D0, &d.bytes());
    tb.run(D0);
    let (done, st, bw) = tb.status(D0);
    assert!(done);
    assert_eq!(bw, 0, "bytes_written after an error");
    assert!(tb.out().error);
    assert_eq!(tb.irq_error, 1);
    assert_eq!(tb.out().err_desc, D0);
    (st, tb.err_code(), tb.dp_starts)
}

pub(super) fn descriptor_validation_errors_in_order<U: Ctl>() {
    let comp = |len| Desc {
        op: OP_COMPRESS,
        cl: 7,
        ..copy::<U>(len)
    };
    // Element codes the format knows that the engine under test does not run (it runs
    // `elem_bits` only): at DW = 256, 1 (16 bits) and 2 (32 bits).
    let own = elem_code(elem_bits::<U>());
    let (other1, other2) = ((own + 1) % 3, (own + 2) % 3);
    let cases: Vec<(&str, Desc, error::ErrorCode)> = vec![
        (
            "op 3",
            Desc {
                op: 3,
                ..copy::<U>(64)
            },
            error::BAD_DESC,
        ),
        (
            "elem 3",
            Desc {
                elem: 3,
                ..copy::<U>(64)
            },
            error::BAD_DESC,
        ),
        (
            "reserved control bit",
            Desc {
                rsvd_ctl: 1 << 7,
                ..copy::<U>(64)
            },
            error::BAD_DESC,
        ),
        (
            "reserved0",
            Desc {
                res0: 1,
                ..copy::<U>(64)
            },
            error::BAD_DESC,
        ),
        (
            "chunk_log2 for COPY",
            Desc {
                cl: 7,
                ..copy::<U>(64)
            },
            error::BAD_DESC,
        ),
        (
            "COMPRESS chunk_log2 6",
            Desc { cl: 6, ..comp(64) },
            error::BAD_DESC,
        ),
        (
            "COMPRESS chunk_log2 25",
            Desc { cl: 25, ..comp(64) },
            error::BAD_DESC,
        ),
        (
            "BAD_DESC before UNALIGNED",
            Desc {
                res0: 1,
                src: SRC + 4,
                ..copy::<U>(64)
            },
            error::BAD_DESC,
        ),
        (
            "COMPRESS elem not E",
            Desc {
                elem: other1,
                ..comp(64)
            },
            error::UNSUPPORTED,
        ),
        (
            "COMPRESS chunk_log2 13",
            Desc { cl: 13, ..comp(64) },
            error::UNSUPPORTED,
        ),
        (
            "UNSUPPORTED before UNALIGNED",
            Desc {
                elem: other2,
                src: SRC + 1,
                op: OP_DECOMPRESS,
                cl: 0,
                ..copy::<U>(64)
            },
            error::UNSUPPORTED,
        ),
        (
            "src unaligned",
            Desc {
                src: SRC + U::BB / 2,
                ..copy::<U>(64)
            },
            error::UNALIGNED,
        ),
        (
            "dst unaligned",
            Desc {
                dst: DST + 8,
                ..copy::<U>(64)
            },
            error::UNALIGNED,
        ),
        (
            "meta unaligned",
            Desc {
                meta: META + 4,
                ..comp(64)
            },
            error::UNALIGNED,
        ),
        (
            "UNALIGNED before DST_OVERFLOW",
            Desc {
                dst: DST + 8,
                cap: 10,
                ..copy::<U>(64)
            },
            error::UNALIGNED,
        ),
        (
            "COPY overflow",
            Desc {
                cap: 63,
                ..copy::<U>(64)
            },
            error::DST_OVERFLOW,
        ),
    ];
    // Step 5: src_len a whole number of E-bit elements (COPY included), after UNALIGNED and
    // before DST_OVERFLOW; only E > 8 has lengths that are not (65 bytes at DW = 512, 1024).
    let mut cases = cases;
    if elem_bits::<U>() > 8 {
        let odd = 64 + 1;
        cases.extend([
            (
                "COPY src_len not whole elements",
                copy::<U>(odd),
                error::BAD_DESC,
            ),
            (
                "COMPRESS src_len not whole elements",
                comp(odd),
                error::BAD_DESC,
            ),
            (
                "UNALIGNED before length",
                Desc {
                    dst: DST + 8,
                    ..copy::<U>(odd)
                },
                error::UNALIGNED,
            ),
            (
                "length before DST_OVERFLOW",
                Desc {
                    cap: 10,
                    ..copy::<U>(odd)
                },
                error::BAD_DESC,
            ),
        ]);
    } else {
        // At DW = 256 every length is whole elements.
        let mut tb = Tb::<U>::new();
        tb.put(D0, &copy::<U>(65).bytes());
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, 0, 65));
    }
    for (name, d, want) in cases {
        eprintln!("case {name}");
        let (st, csr, starts) = run_one::<U>(d);
        assert_eq!((st, csr), (code(want), code(want)), "{name}");
        assert_eq!(starts, 0, "{name}: datapath started");
    }
    // meta_addr is not checked for COPY.
    let mut tb = Tb::<U>::new();
    tb.put(
        D0,
        &Desc {
            meta: META + 4,
            ..copy::<U>(64)
        }
        .bytes(),
    );
    tb.run(D0);
    assert_eq!(tb.status(D0), (true, 0, 64));
    // An engine of every element width runs each (the elements the datapath sees: dp_elem).
    for elem in 0..3 {
        let mut tb = Tb::<U>::new();
        tb.put(D0, &Desc { elem, ..comp(256) }.bytes());
        tb.decisions = [(128, true), (128, true)].into_iter().collect();
        tb.run(D0);
        let (done, st, _) = tb.status(D0);
        assert_eq!((done, st, tb.dp_starts), (true, 0, 1), "elem code {elem}");
        assert_eq!(tb.out().dp_elem, elem, "elem code {elem}");
    }
}

pub(super) fn unaligned_or_unreadable_descriptor_ends_chain_without_write_back<U: Ctl>() {
    for (head, want) in [(D0 + 8, error::UNALIGNED), (RD_ERR_AT, error::READ_ERROR)] {
        let mut tb = Tb::<U>::new();
        tb.run(head);
        assert_eq!(tb.err_code(), code(want));
        assert!(tb.out().error);
        assert_eq!(tb.out().err_desc, head);
        assert!(tb.wr_strobes.is_empty(), "wrote something");
        // Visited, so counted (docs/DESCRIPTORS.md), though never written back.
        assert_eq!((tb.desc_done, tb.irq_error, tb.irq_done), (1, 1, 1));
    }
}

pub(super) fn chain_goes_on_or_stops_after_an_error<U: Ctl>() {
    for stop in [false, true] {
        let mut tb = Tb::<U>::new();
        let bad = Desc {
            op: 3,
            stop,
            next: D1,
            ..copy::<U>(64)
        };
        let good = Desc {
            dst: DST + 0x200,
            ..copy::<U>(96)
        };
        tb.put(D0, &bad.bytes());
        tb.put(D1, &good.bytes());
        tb.run(D0);
        assert_eq!(tb.status(D0), (true, code(error::BAD_DESC), 0));
        if stop {
            assert_eq!(tb.get(D1 + 0x30, 4), &0xDEAD_BEEFu32.to_le_bytes());
            assert_eq!(tb.desc_done, 1);
        } else {
            assert_eq!(tb.status(D1), (true, 0, 96));
            assert_eq!(tb.desc_done, 2);
        }
        // error stays set for the chain; err_code names the failure.
        assert!(tb.out().error);
        assert_eq!(tb.err_code(), code(error::BAD_DESC));
    }
}

pub(super) fn abort_writes_aborted_status_and_ends_the_chain<U: Ctl>() {
    let mut tb = Tb::<U>::new();
    tb.put(
        D0,
        &Desc {
            next: D1,
            stop: false,
            ..copy::<U>(256)
        }
        .bytes(),
    );
    tb.put(D1, &copy::<U>(64).bytes());
    tb.inp.head = D0;
    tb.inp.doorbell = true;
    tb.step();
    tb.inp.doorbell = false;
    // Run until the payload read is requested, then stall the read data and abort.
    let mut n = 0;
    while tb.dp_starts == 0 {
        tb.step();
        n += 1;
        assert!(n < 500, "payload never started");
    }
    tb.rd_stall = true;
    for _ in 0..5 {
        tb.step();
    }
    tb.inp.abort = true;
    tb.step();
    tb.inp.abort = false;
    let t0 = tb.cycles;
    while tb.out().busy {
        tb.step();
        assert!(tb.cycles - t0 < 200, "abort did not end the chain");
    }
    assert!(tb.abort_cycles > 0);
    assert_eq!(tb.status(D0), (true, code(error::ABORTED), 0));
    assert_eq!(
        tb.get(D1 + 0x30, 4),
        &0xDEAD_BEEFu32.to_le_bytes(),
        "chain went on"
    );
    assert_eq!(tb.err_code(), code(error::ABORTED));
}

pub(super) fn status_write_error_ends_the_chain<U: Ctl>() {
    let mut tb = Tb::<U>::new();
    let d = WR_ERR_AT;
    tb.put(
        d,
        &Desc {
            next: D1,
            stop: false,
            ..copy::<U>(64)
        }
        .bytes(),
    );
    tb.put(D1, &copy::<U>(64).bytes());
    tb.run(d);
    assert_eq!(tb.err_code(), code(error::WRITE_ERROR));
    assert_eq!(tb.desc_done, 1);
    assert_eq!(
        tb.get(D1 + 0x30, 4),
        &0xDEAD_BEEFu32.to_le_bytes(),
        "chain went on"
    );
}

pub(super) fn empty_copy_and_empty_compress<U: Ctl>() {
    let mut tb = Tb::<U>::new();
    tb.put(
        D0,
        &Desc {
            next: D1,
            ..copy::<U>(0)
        }
        .bytes(),
    );
    tb.put(
        D1,
        &Desc {
            op: OP_COMPRESS,
            ..copy::<U>(0)
        }
        .bytes(),
    );
    tb.run(D0);
    assert_eq!(tb.status(D0), (true, 0, 0));
    assert_eq!(tb.status(D1), (true, 0, 0));
    assert_eq!(tb.dp_starts, 0);
    let want = hdr::<U>(0, u64::from(fr::CHUNK_LOG2_DEFAULT), &[]).bytes(&[]);
    assert_eq!(tb.get(META, 32), &want[..]);
    // The header alone: 32 bytes, one beat at every width.
    let meta: Vec<_> = tb
        .wr_strobes
        .iter()
        .copied()
        .filter(|w| w.0 >= META)
        .collect();
    assert_eq!(meta, write_beats::<U>(META, HEADER_LEN as u64));
}
