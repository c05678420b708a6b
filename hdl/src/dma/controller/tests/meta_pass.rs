//! [`MetaPass`] on its own, in rust-hdl's simulator: `n_chunks` changes in the cycle the pass
//! starts (as the controller's header check loads it), a read master accepts the request at
//! once, and the pass must still ask for the new index's beats from the beat of metadata byte
//! 32, hand exactly the index beats to the CRC unit (the last one's byte count), take the
//! stored CRC from its lane, and end after the unit's state is back.

use super::super::meta_pass::MetaPass;
use crate::testutil::{clock_cycle, settle};
use cdma_spec::frame::HEADER_LEN;
use rust_hdl::core::prelude::*;

/// What one pass did.
#[derive(Debug, PartialEq)]
struct Seen {
    /// The request taken: address, beats.
    req: (u64, u64),
    /// Index beats handed to the unit: (first, last, byte count) each.
    beats: Vec<(bool, bool, u64)>,
    /// The stored CRC it took.
    exp: u64,
}

/// The pass a frame with `n` entries at `meta` should make on a `bb`-byte bus.
fn expected(bb: u64, meta: u64, n: u64) -> Seen {
    let hdr = HEADER_LEN as u64;
    let iend = hdr + 8 * n;
    let first = hdr / bb;
    let tbeats = (iend + 4).div_ceil(bb) - first;
    let ibeats = if n == 0 { 0 } else { iend.div_ceil(bb) - first };
    let beats = (0..ibeats)
        .map(|i| {
            let last = i + 1 == ibeats;
            (i == 0, last, if last { (iend - 1) % bb + 1 } else { bb })
        })
        .collect();
    Seen {
        req: (meta + first * bb, tbeats),
        beats,
        exp: word_at(iend),
    }
}

/// The word the read beats carry at metadata byte offset `o` (`o / 4` plus a tag).
fn word_at(o: u64) -> u64 {
    0xC0DE_0000 | (o / 4)
}

macro_rules! meta_pass_test {
    ($name:ident, $dw:expr, $bb:expr, $e:expr, $lge:expr, $lgdw:expr) => {
        #[test]
        fn $name() {
            const BB: u64 = $bb;
            let meta = 0x4_0000u64;
            for (prev, n) in [(0u64, 5u64), (9, 1), (1, 0), (0, 40), (40, 3)] {
                let mut uut = Box::<MetaPass<$dw, $bb, $e, $lge, $lgdw>>::default();
                uut.connect_all();
                // The previous descriptor's count for a while, the pass idle.
                uut.go.next = false;
                uut.n.next = prev.into();
                uut.meta_addr.next = meta.into();
                uut.rd_req_ready.next = true;
                uut.rd_valid.next = false;
                uut.rd_err.next = false;
                uut.mp_done.next = false;
                settle(&mut *uut);
                for _ in 0..4 {
                    clock_cycle!(&mut *uut);
                }
                // The header check loads the new count as the pass starts.
                uut.n.next = n.into();
                uut.go.next = true;
                settle(&mut *uut);
                let (mut req, mut beats, mut sent, mut unit_wait) = (None, vec![], 0u64, 0);
                let mut done = false;
                let want = expected(BB, meta, n);
                for cyc in 0..400u64 {
                    // This cycle's inputs: after the request, a read beat every other cycle
                    // (metadata bytes from the beat of byte 32 on: word w of the k-th beat
                    // read at byte offset 32 + BB·k + 4w, with a 1024-bit bus from byte 0);
                    // the CRC unit's state a few cycles after the last index beat.
                    if let Some((_, nb)) = req {
                        let base = (HEADER_LEN as u64 / BB + sent) * BB;
                        let words: Vec<u8> = (0..BB / 4)
                            .flat_map(|w| (word_at(base + 4 * w) as u32).to_le_bytes())
                            .collect();
                        uut.rd_data.next = crate::prims::bits_of::<$dw>(&words);
                        uut.rd_valid.next = sent < nb && cyc % 2 == 1;
                    }
                    uut.mp_done.next = false;
                    if beats.len() == want.beats.len() && !want.beats.is_empty() {
                        unit_wait += 1;
                        uut.mp_done.next = unit_wait > 3;
                    }
                    settle(&mut *uut);
                    // What the pass does in it.
                    if uut.rd_req_valid.val() {
                        assert!(req.is_none(), "a second request");
                        req = Some((
                            uut.rd_req_addr.val().to_u64(),
                            uut.rd_req_beats.val().to_u64(),
                        ));
                    }
                    if uut.rd_ready.val() && uut.rd_valid.val() {
                        if uut.mp_take.val() {
                            beats.push((
                                uut.mp_first.val(),
                                uut.mp_last.val(),
                                uut.mp_cnt.val().to_u64(),
                            ));
                        }
                        sent += 1;
                    }
                    if uut.done.val() {
                        done = true;
                        break;
                    }
                    clock_cycle!(&mut *uut);
                }
                assert!(done, "n {prev} -> {n}: the pass did not end");
                assert!(!uut.err.val());
                let seen = Seen {
                    req: req.expect("no request"),
                    beats,
                    exp: uut.exp.val().to_u64(),
                };
                assert_eq!(seen, want, "n {prev} -> {n}");
            }
        }
    };
}

meta_pass_test!(dw256_new_count_as_it_starts, 256, 32, 8, 3, 8);
meta_pass_test!(dw1024_new_count_as_it_starts, 1024, 128, 32, 5, 10);
