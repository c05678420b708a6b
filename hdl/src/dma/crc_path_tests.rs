//! [`CrcPath`] in rust-hdl's simulator against the golden model's CRC32C: COMPRESS chunk CRCs
//! leave in chunk order with the decisions, however slowly these are taken (and a chunk's
//! last beat waits while `depth(BB)` CRCs do); DECOMPRESS flags exactly the chunks whose data does
//! not match; the metadata pass ignores the header lanes of its first beat.

use super::crc_path::{depth, CrcPath};
use crate::crc::math::{advance, INIT};
use crate::prims::bits_of;
use crate::testutil::{clock_cycle, settle, XorShift64};
use cdma_model::layout::crc32c;
use rust_hdl::core::prelude::*;

/// Random chunks of whole beats (the last of the stream shorter) as the datapath frames them.
fn chunks(rng: &mut XorShift64, bb: usize) -> Vec<Vec<u8>> {
    let n = 1 + (rng.next() % 12) as usize;
    (0..n)
        .map(|i| {
            let beats = 1 + (rng.next() % 4) as usize;
            let mut len = beats * bb;
            if i + 1 == n {
                len -= (rng.next() % bb as u64) as usize;
            }
            rng.bytes(len)
        })
        .collect()
}

macro_rules! crc_path_tests {
    ($modname:ident, $dw:expr, $bb:expr, $xw:expr) => {
        mod $modname {
            use super::*;
            type Uut = CrcPath<$dw, $bb, $xw, { depth($bb) }>;
            const BB: usize = $bb;

            fn fresh() -> Box<Uut> {
                let mut uut = Box::<Uut>::default();
                uut.connect_all();
                uut.rst.next = true;
                settle(&mut *uut);
                clock_cycle!(&mut *uut);
                uut.rst.next = false;
                uut
            }

            /// The beats of `chunks` as (bytes, count, chunk end).
            fn beats(chunks: &[Vec<u8>]) -> Vec<(Vec<u8>, usize, bool)> {
                let mut v = vec![];
                for c in chunks {
                    let n = c.len().div_ceil(BB);
                    for b in 0..n {
                        let part = &c[b * BB..((b + 1) * BB).min(c.len())];
                        let mut lanes = part.to_vec();
                        lanes.resize(BB, 0x5A);
                        v.push((lanes, part.len(), b + 1 == n));
                    }
                }
                v
            }

            #[test]
            fn compress_crcs_leave_with_their_decisions() {
                let mut rng = XorShift64::new($dw);
                for round in 0..6 {
                    let cs = chunks(&mut rng, BB);
                    let want: Vec<u32> = cs.iter().map(|c| crc32c(c)).collect();
                    let mut uut = fresh();
                    uut.comp.next = true;
                    let (bs, mut i, mut got) = (beats(&cs), 0, vec![]);
                    // Slow decisions in odd rounds: the source must wait, never drop one.
                    let pop_pct = if round % 2 == 1 { 10 } else { 70 };
                    let mut pending = 0usize;
                    for _ in 0..20_000 {
                        if got.len() == want.len() {
                            break;
                        }
                        settle(&mut *uut);
                        let offer = i < bs.len() && rng.chance(80);
                        let mut take = false;
                        if offer {
                            let (lanes, cnt, end) = &bs[i];
                            uut.in_data.next = bits_of::<$dw>(lanes);
                            uut.s_cnt.next = (*cnt as u64).into();
                            uut.s_end.next = *end;
                            settle(&mut *uut);
                            take = !uut.s_hold.val();
                        }
                        uut.s_take.next = take;
                        let pop = !uut.d_hold.val() && rng.chance(pop_pct);
                        uut.d_pop.next = pop;
                        settle(&mut *uut);
                        if pop {
                            got.push(uut.d_crc.val().to_u64() as u32);
                            pending -= 1;
                        }
                        if take {
                            pending += usize::from(bs[i].2);
                            i += 1;
                        }
                        assert!(pending <= depth(BB), "more than depth(BB) chunks undecided");
                        clock_cycle!(&mut *uut);
                    }
                    assert_eq!(got, want, "round {round}");
                }
            }

            #[test]
            fn decompress_flags_exactly_a_wrong_chunk() {
                let mut rng = XorShift64::new($dw + 1);
                for bad in [None, Some(0usize), Some(3)] {
                    let cs = chunks(&mut rng, BB);
                    let mut uut = fresh();
                    uut.dec.next = true;
                    // The commands' CRCs first (a few at a time, as room allows), then the
                    // output beats, with idle cycles.
                    let mut exp: Vec<u32> = cs.iter().map(|c| crc32c(c)).collect();
                    let wrong = bad.filter(|&k| k < exp.len());
                    if let Some(k) = wrong {
                        exp[k] ^= 1 << (rng.next() % 32);
                    }
                    let (bs, mut pushed, mut i) = (beats(&cs), 0, 0);
                    for _ in 0..20_000 {
                        if i == bs.len() && pushed == exp.len() && !uut.busy.val() {
                            break;
                        }
                        settle(&mut *uut);
                        let push = pushed < exp.len() && !uut.c_hold.val() && rng.chance(50);
                        uut.c_push.next = push;
                        uut.c_crc.next = u64::from(exp.get(pushed).copied().unwrap_or(0)).into();
                        // An output beat only for a chunk whose command is in.
                        let chunk_of = |b: usize| bs[..b].iter().filter(|x| x.2).count();
                        let take = i < bs.len() && chunk_of(i) < pushed && rng.chance(70);
                        uut.o_take.next = take;
                        if take {
                            let (lanes, cnt, end) = &bs[i];
                            uut.o_data.next = bits_of::<$dw>(lanes);
                            uut.o_cnt.next = (*cnt as u64).into();
                            uut.o_end.next = *end;
                            i += 1;
                        }
                        pushed += usize::from(push);
                        settle(&mut *uut);
                        clock_cycle!(&mut *uut);
                    }
                    assert!(!uut.busy.val(), "a CRC left unchecked");
                    assert_eq!(uut.err.val(), wrong.is_some(), "bad chunk {bad:?}");
                }
            }

            #[test]
            fn metadata_pass_ignores_the_header_lanes() {
                let mut rng = XorShift64::new($dw + 2);
                for n in [1usize, 3, 12, 13, 40] {
                    // Metadata bytes from the beat of byte 32: header lanes, then the index.
                    let lead = 32 % BB;
                    let index = rng.bytes(8 * n);
                    let mut bytes = rng.bytes(lead);
                    bytes.extend_from_slice(&index);
                    let k = bytes.len().div_ceil(BB);
                    let mut uut = fresh();
                    uut.dec.next = true;
                    uut.mp.next = true;
                    let mut state = None;
                    let mut b = 0;
                    for _ in 0..200 {
                        let take = b < k && rng.chance(60);
                        uut.m_take.next = take;
                        if take {
                            let mut lanes = bytes[b * BB..((b + 1) * BB).min(bytes.len())].to_vec();
                            let cnt = lanes.len();
                            lanes.resize(BB, 0xC3);
                            uut.in_data.next = bits_of::<$dw>(&lanes);
                            uut.m_first.next = b == 0;
                            uut.m_last.next = b + 1 == k;
                            uut.m_cnt.next = (cnt as u64).into();
                            b += 1;
                        }
                        settle(&mut *uut);
                        if uut.m_done.val() {
                            state = Some(uut.m_state.val().to_u64() as u32);
                        }
                        clock_cycle!(&mut *uut);
                    }
                    assert_eq!(state, Some(advance(INIT, &index)), "{n} entries");
                    assert!(!uut.busy.val() && !uut.err.val(), "the pass is not a chunk");
                }
            }
        }
    };
}

crc_path_tests!(dw128, 128, 16, 160);
crc_path_tests!(dw512, 512, 64, 544);
