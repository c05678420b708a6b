//! DECOMPRESS index windows: the index read `2^IDX_WIN_LOG2` entries at a time between the
//! windows' payloads (no chunk-count limit), and index errors found mid-frame: reported after
//! the chunks before the failing entry, never reading payload past them.

use super::*;
use crate::dma::IDX_WIN_LOG2;

/// Where the many-chunk frames live (clear of the error windows, except where a test puts
/// the index into the read-error window on purpose).
const BIG_SRC: u64 = 0x10000;
const BIG_DST: u64 = 0x40000;
const BIG_META: u64 = 0x8000;
/// Chunks of 128 bytes (`chunk_log2` = 7).
const CHUNK: u64 = 128;
/// Entries per index window.
const WIN: u64 = 1 << IDX_WIN_LOG2;

/// Entry `i` of a frame of full 128-byte chunks: ZVC sizes of one to five mask words' worth,
/// every fifth chunk raw.
fn entry<U: Ctl>(i: u64) -> (u64, bool) {
    let eb = u64::from(elem_bits::<U>() / 8);
    if i % 5 == 2 {
        (CHUNK, true)
    } else {
        (4 * eb * (1 + i % 5), false)
    }
}

/// A DECOMPRESS of the frame of `entries` (128-byte chunks) at `BIG_*` with the index at
/// `meta`; `plen`: the header's payload_len and the descriptor's src_len.
fn run_frame<U: Ctl>(entries: &[(u64, bool)], meta: u64, plen: u64) -> Tb<U> {
    let mut tb = Tb::<U>::new();
    let n = entries.len() as u64;
    let d = Desc {
        op: OP_DECOMPRESS,
        src: BIG_SRC,
        dst: BIG_DST,
        cap: n * CHUNK,
        meta,
        ..copy::<U>(plen)
    };
    tb.put(D0, &d.bytes());
    let h = Hdr {
        plen,
        ..hdr::<U>(n * CHUNK, 7, entries)
    };
    tb.put(meta, &h.bytes(entries));
    tb.cycle_limit = 3000 + 20 * n * CHUNK / U::BB;
    tb.run(D0);
    tb
}

/// Payload beats read (requests at or above `BIG_SRC`, below the destination).
fn payload_beats(tb: &Tb<impl Ctl>) -> u64 {
    tb.rd_reqs
        .iter()
        .filter(|r| (BIG_SRC..BIG_DST).contains(&r.0))
        .map(|r| r.1)
        .sum()
}

/// The commands for the first `k` of `entries`.
fn commands(entries: &[(u64, bool)], k: usize) -> Vec<Cmd> {
    let n = entries.len();
    entries[..k]
        .iter()
        .enumerate()
        .map(|(i, e)| Cmd {
            stored: e.0,
            raw: e.1,
            chunk_len: CHUNK,
            last: i + 1 == n,
        })
        .collect()
}

/// 600 chunks, two windows (more than the 512 entries the RAM holds): every command in order,
/// the data written, each window's index read right after the payload of the window before it.
pub(super) fn decompress_more_than_one_index_window<U: Ctl>() {
    let n = 600;
    let entries: Vec<(u64, bool)> = (0..n).map(entry::<U>).collect();
    let plen: u64 = entries.iter().map(|e| e.0).sum();
    let tb = run_frame::<U>(&entries, BIG_META, plen);
    assert_eq!(tb.status(D0), (true, 0, n * CHUNK));
    assert!(
        tb.cmds == commands(&entries, entries.len()),
        "chunk commands"
    );
    let out: Vec<u8> = (0..n * CHUNK).map(|i| (i * 3) as u8).collect();
    assert!(tb.get(BIG_DST, out.len()) == &out[..], "data written");
    assert_eq!(payload_beats(&tb), beats::<U>(plen), "payload read once");
    // Reads: descriptor, header (its beats at meta_addr), then per window its index beats
    // (from the beat holding its first entry) and then its payload.
    assert_eq!(tb.rd_reqs[1], (BIG_META, header_beats::<U>()), "header");
    let rest = &tb.rd_reqs[2..];
    let first_beat = |k: u64| (BIG_META + HEADER_LEN as u64 + 4 * k * WIN) / U::BB * U::BB;
    let index_reads: Vec<u64> = rest.iter().filter(|r| r.0 < BIG_SRC).map(|r| r.0).collect();
    assert_eq!(index_reads, (0..2).map(first_beat).collect::<Vec<_>>());
    let s: String = rest
        .iter()
        .map(|r| if r.0 < BIG_SRC { 'i' } else { 'p' })
        .collect();
    let windows: Vec<&str> = s.split('i').skip(1).collect();
    assert_eq!(windows.len(), 2, "{s}");
    assert!(
        windows.iter().all(|w| w == &"p"),
        "one payload read per window: {s}"
    );
}

/// A bad entry (and a running sum past payload_len) in the second window, entry 536:
/// BAD_INDEX after the chunks before it, whose data is written; no payload read past them.
pub(super) fn decompress_bad_entry_after_earlier_chunks<U: Ctl>() {
    let n = 560u64;
    let mut entries: Vec<(u64, bool)> = (0..n).map(entry::<U>).collect();
    let plen: u64 = entries.iter().map(|e| e.0).sum();
    let bad_at = 536usize;
    let before: u64 = entries[..bad_at].iter().map(|e| e.0).sum();
    let out: Vec<u8> = (0..bad_at as u64 * CHUNK).map(|i| (i * 3) as u8).collect();
    // Rule 11 (a raw entry of the wrong size), then a good entry whose size is more than the
    // payload left (payload_len one element short of the sum through it).
    let eb = u64::from(elem_bits::<U>() / 8);
    let good = entries[bad_at];
    for (name, e, plen) in [
        ("rule 11", (CHUNK - 4, true), plen),
        ("running sum", good, before + good.0 - eb),
    ] {
        entries[bad_at] = e;
        let tb = run_frame::<U>(&entries, BIG_META, plen);
        assert_eq!(tb.status(D0), (true, code(error::BAD_INDEX), 0), "{name}");
        assert!(tb.cmds == commands(&entries, bad_at), "{name}: commands");
        assert!(
            tb.get(BIG_DST, out.len()) == &out[..],
            "{name}: data before"
        );
        assert_eq!(
            payload_beats(&tb),
            beats::<U>(before),
            "{name}: payload read"
        );
    }
    // Entry 0 bad: nothing started, nothing written.
    entries[0] = (CHUNK - 4, true);
    let tb = run_frame::<U>(&entries, BIG_META, plen);
    assert_eq!(tb.status(D0), (true, code(error::BAD_INDEX), 0));
    assert_eq!((tb.dp_starts, payload_beats(&tb)), (0, 0));
}

/// A read error on the index beat holding entry 536, in the second window (the index reaches
/// into the read-error window): READ_ERROR after the 536 chunks before it, as a bad entry
/// there would be.
pub(super) fn decompress_index_read_error<U: Ctl>() {
    let n = 560u64;
    let entries: Vec<(u64, bool)> = (0..n).map(entry::<U>).collect();
    let plen: u64 = entries.iter().map(|e| e.0).sum();
    // Entry 536 at byte 32 + 2144 = 2176 = 17·128 of the metadata: the first byte of the
    // error window, at the start of a beat at every width.
    let meta = RD_ERR_AT - 2176;
    let tb = run_frame::<U>(&entries, meta, plen);
    assert_eq!(tb.status(D0), (true, code(error::READ_ERROR), 0));
    assert!(
        tb.cmds == commands(&entries, 536),
        "commands before entry 536"
    );
    let before: u64 = entries[..536].iter().map(|e| e.0).sum();
    assert_eq!(payload_beats(&tb), beats::<U>(before));
}
