//! COMPRESS index streaming: index beats written between payload beats as they complete, the
//! rest of the index and then the header after the payload, no chunk-count limit.

use super::*;

/// Where the many-chunk runs keep their source, payload and metadata (clear of the
/// testbench's error windows and of the descriptor).
const BIG_SRC: u64 = 0x10000;
const BIG_DST: u64 = 0x40000;
const BIG_META: u64 = 0x8000;
/// Chunks of 128 bytes (`chunk_log2` = 7), the smallest: the most index per payload.
const CHUNK: u64 = 128;

/// Decision `i`: ZVC sizes of one to five mask words' worth of elements, every seventh
/// chunk raw.
fn decision<U: Ctl>(i: u64) -> (u64, bool) {
    let eb = u64::from(elem_bits::<U>() / 8);
    if i % 7 == 3 {
        (CHUNK, true)
    } else {
        (4 * eb * (1 + i % 5), false)
    }
}

/// A COMPRESS of `n` chunks of 128 bytes at `BIG_*`, every chunk decided by [`decision`].
fn compress_chunks<U: Ctl>(n: u64) -> (Tb<U>, Vec<(u64, bool)>) {
    let mut tb = Tb::<U>::new();
    let d = Desc {
        op: OP_COMPRESS,
        cl: 7,
        src: BIG_SRC,
        dst: BIG_DST,
        cap: n * CHUNK,
        meta: BIG_META,
        ..copy::<U>(n * CHUNK)
    };
    tb.put(D0, &d.bytes());
    let decisions: Vec<(u64, bool)> = (0..n).map(decision::<U>).collect();
    tb.decisions = decisions.iter().copied().collect();
    tb.cycle_limit = 3000 + 10 * n * CHUNK / U::BB;
    tb.run(D0);
    (tb, decisions)
}

/// Asserts `got == want`, naming the first byte that differs (not printing them all).
fn same_bytes(got: &[u8], want: &[u8], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let bad = got.iter().zip(want).position(|(g, w)| g != w);
    assert!(bad.is_none(), "{what}: byte {bad:?} differs");
}

/// Checks the frame of [`compress_chunks`] in memory and the order of its writes; returns how
/// many index beats were written before the last payload beat.
fn check_frame<U: Ctl>(tb: &Tb<U>, decisions: &[(u64, bool)]) -> usize {
    let n = decisions.len() as u64;
    let plen: u64 = decisions.iter().map(|d| d.0).sum();
    assert_eq!(tb.status(D0), (true, 0, plen));
    // The payload (the datapath model's bytes) and the metadata, byte for byte.
    let payload: Vec<u8> = (0..plen).map(|i| (0xC0 ^ i) as u8).collect();
    same_bytes(tb.get(BIG_DST, plen as usize), &payload, "payload");
    let meta = hdr::<U>(n * CHUNK, 7, decisions).bytes(decisions);
    same_bytes(tb.get(BIG_META, meta.len()), &meta, "header + index");
    // Writes in order: (position, beat address, strobes).
    let writes: Vec<(usize, u64, u128)> = tb
        .wr_strobes
        .iter()
        .enumerate()
        .map(|(i, w)| (i, w.0, w.1))
        .collect();
    let in_meta = |a: u64| (BIG_META..BIG_META + meta.len() as u64).contains(&a);
    let meta_writes: Vec<_> = writes.iter().filter(|w| in_meta(w.1)).collect();
    let last_payload = writes
        .iter()
        .rfind(|w| (BIG_DST..BIG_DST + plen).contains(&w.1))
        .expect("payload written")
        .0;
    // Each index beat once, with exactly its entries' strobes, in order; the header beats
    // (its 32 bytes only) last, after the whole payload; then only the status write.
    let hw = header_writes::<U>(BIG_META);
    let (index, header) = meta_writes.split_at(meta_writes.len() - hw.len());
    let got: Vec<(u64, u128)> = header.iter().map(|w| (w.1, w.2)).collect();
    assert_eq!(got, hw, "header beats");
    assert!(
        header[0].0 > last_payload,
        "header before the payload's end"
    );
    assert_eq!(
        header[hw.len() - 1].0 + 2,
        writes.len(),
        "a write between header and status"
    );
    let index: Vec<(u64, u128)> = index.iter().map(|w| (w.1, w.2)).collect();
    assert_eq!(
        index,
        write_beats::<U>(BIG_META + HEADER_LEN as u64, 4 * n),
        "index beats"
    );
    meta_writes.iter().filter(|w| w.0 < last_payload).count()
}

/// 100 chunks: the index beats complete while the payload streams go in between payload
/// beats (all but the at most two still waiting when the payload ends).
pub(super) fn compress_streams_index_beats_between_payload_beats<U: Ctl>() {
    let (tb, decisions) = compress_chunks::<U>(100);
    let inserted = check_frame(&tb, &decisions);
    let index_beats = write_beats::<U>(BIG_META + HEADER_LEN as u64, 400).len();
    assert!(
        inserted + 2 >= index_beats,
        "only {inserted} of {index_beats} index beats written with the payload"
    );
}

/// More chunks than the index RAM of earlier versions held (1024): no limit, every entry in
/// place.
pub(super) fn compress_more_than_1024_chunks<U: Ctl>() {
    let (tb, decisions) = compress_chunks::<U>(1100);
    check_frame(&tb, &decisions);
}
