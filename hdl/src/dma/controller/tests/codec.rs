//! COMPRESS (a short index after the payload, then the header; capacity) and DECOMPRESS
//! (header and index fetch, checks, chunk commands).

use super::*;

pub(super) fn compress_writes_header_and_index_after_the_payload<U: Ctl>() {
    let mut tb = Tb::<U>::new();
    let d = Desc {
        op: OP_COMPRESS,
        cl: 7,
        ..copy::<U>(300)
    };
    tb.put(D0, &d.bytes());
    let decisions = [(100, false), (128, true), (44, true)];
    tb.decisions = decisions.iter().copied().collect();
    tb.run(D0);
    assert_eq!(tb.status(D0), (true, 0, 272));
    let cmds: Vec<Cmd> = tb.cmds.clone();
    let lens: Vec<u64> = cmds.iter().map(|c| c.chunk_len).collect();
    assert_eq!(lens, [128, 128, 44]);
    assert_eq!(
        cmds.iter().map(|c| c.last).collect::<Vec<_>>(),
        [false, false, true]
    );
    assert_eq!(tb.get(DST, 4), &[0xC0, 0xC1, 0xC2, 0xC3]);
    let want = hdr::<U>(300, 7, &decisions).bytes(&decisions);
    assert_eq!(tb.get(META, want.len()), &want[..]);
    // 44 bytes of metadata: the three entries (a beat of their own, partial, after the
    // payload: at DW = 256 (META + 32, 0xFFF), at 512 and 1024 (META, bytes 32..44)), then
    // the header beat with the header's 32 bytes strobed, last.
    let meta_writes: Vec<_> = tb
        .wr_strobes
        .iter()
        .copied()
        .filter(|w| w.0 >= META)
        .collect();
    let mut want_writes = write_beats::<U>(META + HEADER_LEN as u64, 12);
    want_writes.extend(header_writes::<U>(META));
    assert_eq!(meta_writes, want_writes);
}

pub(super) fn compress_stops_at_dst_cap<U: Ctl>() {
    let mut tb = Tb::<U>::new();
    let d = Desc {
        op: OP_COMPRESS,
        cl: 7,
        cap: 200,
        ..copy::<U>(300)
    };
    tb.put(D0, &d.bytes());
    tb.decisions = [(100, false), (128, true), (44, true)]
        .into_iter()
        .collect();
    tb.run(D0);
    assert_eq!(tb.status(D0), (true, code(error::DST_OVERFLOW), 0));
    assert_eq!(
        tb.cmds.len(),
        1,
        "the chunk that does not fit was forwarded"
    );
    assert!(tb.abort_cycles > 0);
    assert!(tb.wr_strobes.iter().all(|w| w.0 < META), "meta written");
}

fn decompress<U: Ctl>(entries: &[(u64, bool)], h: Hdr, cap: u64) -> Tb<U> {
    let mut tb = Tb::<U>::new();
    let plen: u64 = entries.iter().map(|e| e.0).sum();
    let d = Desc {
        op: OP_DECOMPRESS,
        src_len: plen,
        cap,
        ..copy::<U>(0)
    };
    tb.put(D0, &d.bytes());
    tb.put(META, &h.bytes(entries));
    tb.run(D0);
    tb
}

const ENTRIES: [(u64, bool); 3] = [(100, false), (128, true), (44, true)];

pub(super) fn decompress_sends_the_index_as_chunk_commands<U: Ctl>() {
    let tb = decompress::<U>(&ENTRIES, hdr::<U>(300, 7, &ENTRIES), 0x1000);
    assert_eq!(tb.status(D0), (true, 0, 300));
    let want: Vec<Cmd> = ENTRIES
        .iter()
        .zip([128, 128, 44])
        .enumerate()
        .map(|(i, (e, l))| Cmd {
            stored: e.0,
            raw: e.1,
            chunk_len: l,
            last: i == 2,
        })
        .collect();
    assert_eq!(tb.cmds, want);
    let out: Vec<u8> = (0..300u64).map(|i| (i * 3) as u8).collect();
    assert_eq!(tb.get(DST, 300), &out[..]);
}

/// A header + index of several bus beats (40 entries: 8 + 40 words = 192 bytes, 6 beats at
/// DW = 256, 3 at 512, 2 at 1024): every entry reaches the RAM and the chunk commands, the
/// checks pass.
pub(super) fn decompress_multi_beat_index<U: Ctl>() {
    let n = 40u64;
    let entries: Vec<(u64, bool)> = (0..n)
        .map(|i| match i {
            _ if i == n - 1 => (44, true),
            _ if i % 3 == 0 => (128, true),
            _ => (8 + 4 * (i % 29), false),
        })
        .collect();
    let ulen = (n - 1) * 128 + 44;
    let tb = decompress::<U>(&entries, hdr::<U>(ulen, 7, &entries), 0x2000);
    assert_eq!(tb.status(D0), (true, 0, ulen));
    // The header (its beats), then the index (one window): the beats from the one holding
    // entry 0 (byte 32) to the last, ceil(192 / BB) beats in all with the header's.
    let meta_bytes = (HEADER_LEN + 4 * entries.len()) as u64;
    let first = HEADER_LEN as u64 / U::BB;
    let meta_reads: Vec<_> = tb.rd_reqs.iter().copied().filter(|r| r.0 >= META).collect();
    assert_eq!(
        meta_reads[..2],
        [
            (META, header_beats::<U>()),
            (META + first * U::BB, beats::<U>(meta_bytes) - first)
        ]
    );
    let want: Vec<Cmd> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| Cmd {
            stored: e.0,
            raw: e.1,
            chunk_len: if i as u64 == n - 1 { 44 } else { 128 },
            last: i as u64 == n - 1,
        })
        .collect();
    assert_eq!(tb.cmds, want);
    // A bad entry in the last beat is still found.
    assert_eq!(
        (HEADER_LEN as u64 + 4 * 37) / U::BB,
        beats::<U>(meta_bytes) - 1,
        "entry 37 is in the last beat"
    );
    // (After the chunks before it: 37 commands.)
    let mut bad = entries.clone();
    bad[37] = (128, false);
    let tb = decompress::<U>(&bad, hdr::<U>(ulen, 7, &bad), 0x2000);
    assert_eq!(tb.status(D0), (true, code(error::BAD_INDEX), 0));
    assert_eq!(tb.cmds.len(), 37);
}

pub(super) fn decompress_header_and_index_checks<U: Ctl>() {
    let h = || hdr::<U>(300, 7, &ENTRIES);
    // A format element width that is not the descriptor's (16 at DW = 256).
    let other = u64::from(other_elem_bits::<U>());
    let e = ENTRIES;
    type Case = (&'static str, Hdr, Vec<(u64, bool)>, u64, error::ErrorCode);
    let cases: Vec<Case> = vec![
        (
            "magic",
            Hdr {
                magic: *b"cDMB",
                ..h()
            },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "version",
            Hdr { version: 1, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "codec",
            Hdr { codec: 2, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "elem 12",
            Hdr { elem: 12, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "chunk_log2 6",
            Hdr { cl: 6, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "reserved",
            Hdr { reserved: 1, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "n_chunks",
            Hdr { n: 4, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "ulen not whole elements",
            Hdr {
                elem: other,
                ulen: 301,
                ..h()
            },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "elem not the descriptor's",
            Hdr { elem: other, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "chunk_log2 13",
            Hdr {
                cl: 13,
                n: 1,
                ..h()
            },
            e.to_vec(),
            0x1000,
            error::UNSUPPORTED,
        ),
        ("ulen > dst_cap", h(), e.to_vec(), 299, error::DST_OVERFLOW),
        (
            "payload_len",
            Hdr { plen: 273, ..h() },
            e.to_vec(),
            0x1000,
            error::BAD_HEADER,
        ),
        (
            "raw size",
            hdr::<U>(300, 7, &[(127, true), (100, false), (45, true)]),
            vec![(127, true), (100, false), (45, true)],
            0x1000,
            error::BAD_INDEX,
        ),
        (
            "zvc not smaller",
            hdr::<U>(300, 7, &[(128, false), (100, false), (44, true)]),
            vec![(128, false), (100, false), (44, true)],
            0x1000,
            error::BAD_INDEX,
        ),
    ];
    for (name, h, entries, cap, want) in cases {
        // payload_len must still equal src_len unless that is the check under test.
        let tb = decompress::<U>(&entries, h, cap);
        let (done, st, bw) = tb.status(D0);
        assert_eq!((done, st, bw), (true, code(want), 0), "{name}");
        assert_eq!(tb.dp_starts, 0, "{name}: datapath started");
    }
    // Σ stored ≠ payload_len with every entry fine on its own: Σ = 272, payload_len one
    // element more (273 at DW = 256), so src_len is still a whole number of elements.
    let plen = 272 + u64::from(elem_bits::<U>() / 8);
    let mut tb = Tb::<U>::new();
    let d = Desc {
        op: OP_DECOMPRESS,
        src_len: plen,
        ..copy::<U>(0)
    };
    tb.put(D0, &d.bytes());
    tb.put(
        META,
        &Hdr {
            plen,
            ..hdr::<U>(300, 7, &ENTRIES)
        }
        .bytes(&ENTRIES),
    );
    tb.run(D0);
    assert_eq!(tb.status(D0), (true, code(error::BAD_INDEX), 0));
    // Found at the last entry, after chunks 0 and 1.
    assert_eq!(tb.cmds.len(), 2);
}

pub(super) fn decompress_payload_error_and_read_error<U: Ctl>() {
    let mut tb = Tb::<U>::new();
    tb.dp_error_now = true;
    let plen = 272;
    let d = Desc {
        op: OP_DECOMPRESS,
        src_len: plen,
        ..copy::<U>(0)
    };
    tb.put(D0, &d.bytes());
    tb.put(META, &hdr::<U>(300, 7, &ENTRIES).bytes(&ENTRIES));
    tb.run(D0);
    assert_eq!(tb.status(D0), (true, code(error::BAD_PAYLOAD), 0));
    assert!(tb.abort_cycles > 0);
    // A COPY whose source is unreadable.
    let mut tb = Tb::<U>::new();
    tb.put(
        D0,
        &Desc {
            src: RD_ERR_AT,
            ..copy::<U>(64)
        }
        .bytes(),
    );
    tb.run(D0);
    assert_eq!(tb.status(D0), (true, code(error::READ_ERROR), 0));
}
