//! [`super::ZvcxGather`] in rust-hdl's simulator: chunks of random lengths at every bus and
//! element width under random valid/ready, every block (lanes, length, end) against a
//! reference cut from the chunk's bytes; one block (or one beat) per cycle; the Verilog of a
//! block placer against its Rust model.

use rust_hdl::core::prelude::*;

use super::gather::{gather_block, place_bytes, BlockPlace, ZvcxGather};
use super::lanes::{elem_of, BLOCK_BITS};
use crate::prims::bits_of;
use crate::testutil::{clock_cycle, reset_block, settle, Source, XorShift64};

/// One input beat: bytes (`N`, junk past `cnt`), valid bytes, chunk end.
pub(super) struct Beat {
    pub(super) data: Vec<u8>,
    pub(super) cnt: usize,
    pub(super) end: bool,
}

/// One block: its 32 lanes, its length, whether it ends its chunk.
pub(super) type GotBlock = (Vec<u64>, usize, bool);

/// Chunks of random whole-element lengths as `n`-byte beats, and the blocks they make.
pub(super) fn chunks(
    rng: &mut XorShift64,
    n: usize,
    elem: u64,
    count: usize,
) -> (Vec<Beat>, Vec<GotBlock>) {
    let eb = 1usize << elem;
    let (mut beats, mut blocks) = (vec![], vec![]);
    for _ in 0..count {
        let elems = 1 + (rng.next() % 160) as usize;
        let data: Vec<u8> = (0..elems * eb)
            .map(|_| if rng.chance(40) { 0 } else { rng.next() as u8 })
            .collect();
        let nb = data.chunks(n).count();
        for (i, b) in data.chunks(n).enumerate() {
            let mut bytes = b.to_vec();
            bytes.extend(rng.bytes(n - b.len()));
            beats.push(Beat {
                data: bytes,
                cnt: b.len(),
                end: i + 1 == nb,
            });
        }
        let nblk = data.chunks(32 * eb).count();
        for (i, blk) in data.chunks(32 * eb).enumerate() {
            let mut bits = Bits::<BLOCK_BITS>::default();
            for (j, &v) in blk.iter().enumerate() {
                bits = bits | (Bits::<BLOCK_BITS>::from(u64::from(v)) << (8 * j) as u64);
            }
            let lanes = (0..32).map(|k| elem_of(&bits, elem, k)).collect();
            blocks.push((lanes, blk.len() / eb, i + 1 == nblk));
        }
    }
    (beats, blocks)
}

thread_local! {
    /// Every block's `out_bytes` bytes and end flag, as the last run saw them.
    static BYTES: std::cell::RefCell<Vec<(Vec<u8>, bool)>> = const { std::cell::RefCell::new(Vec::new()) };
}

macro_rules! run_fn {
    ($fname:ident, $n:expr, $w:expr) => {
        /// Drives `beats` with random valid/ready; returns the blocks out and the cycles.
        fn $fname(beats: &[Beat], elem: u64, valid_pct: u64, ready_pct: u64, seed: u64) -> (Vec<GotBlock>, u64) {
            let mut rng = XorShift64::new(seed);
            let mut uut = reset_block!(ZvcxGather<$n, $w>);
            uut.elem.next = elem.into();
            let mut src = Source::new(beats.len());
            let (mut out, mut cycles) = (vec![], 0u64);
            while !src.done() || uut.out_valid.val() {
                cycles += 1;
                assert!(cycles < 100_000, "gather hangs");
                uut.in_valid.next = src.offer(&mut rng, valid_pct);
                if let Some(i) = src.current() {
                    uut.in_data.next = bits_of::<$w>(&beats[i].data);
                    uut.in_cnt.next = (beats[i].cnt as u64).into();
                    uut.in_end.next = beats[i].end;
                }
                uut.out_ready.next = rng.chance(ready_pct);
                settle(&mut uut);
                crate::prims::verilog_check::record(&uut);
                if uut.out_valid.val() && uut.out_ready.val() {
                    let y = uut.out_data.val();
                    let nbytes = uut.out_bytes.val().to_u64() as usize;
                    let bytes = (0..nbytes).map(|j| y.get_bits::<8>(8 * j).to_u64() as u8).collect();
                    BYTES.with(|b| b.borrow_mut().push((bytes, uut.out_end.val())));
                    let lanes = (0..32).map(|k| y.get_bits::<32>(32 * k).to_u64()).collect();
                    out.push((lanes, uut.out_len.val().to_u64() as usize, uut.out_end.val()));
                }
                src.handshake(uut.in_ready.val());
                clock_cycle!(&mut uut);
            }
            (out, cycles)
        }
    };
}

run_fn!(run16, 16, 128);
run_fn!(run32, 32, 256);
run_fn!(run64, 64, 512);
run_fn!(run128, 128, 1024);

type Run = fn(&[Beat], u64, u64, u64, u64) -> (Vec<GotBlock>, u64);

const RUNS: [(usize, Run); 4] = [(16, run16), (32, run32), (64, run64), (128, run128)];

#[test]
fn blocks_match_the_chunks_at_every_width() {
    for (n, run) in RUNS {
        for elem in 0..3u64 {
            let mut rng = XorShift64::new(7 + n as u64 * 3 + elem);
            let (beats, want) = chunks(&mut rng, n, elem, 4);
            let (got, _) = run(&beats, elem, 70, 60, n as u64 + elem);
            assert_eq!(got.len(), want.len(), "N {n} elem {elem}: blocks");
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "N {n} elem {elem}: block {i}");
            }
        }
    }
}

#[test]
fn one_block_or_one_beat_per_cycle() {
    for (n, run) in RUNS {
        for elem in 0..3u64 {
            let mut rng = XorShift64::new(99 + elem);
            let (beats, want) = chunks(&mut rng, n, elem, 2);
            let (got, cycles) = run(&beats, elem, 100, 100, 1);
            assert_eq!(got, want);
            // Blocks that fit a beat leave one per cycle, wider ones take a beat per cycle;
            // one cycle of latency.
            let per = if 32 << elem <= n {
                want.len()
            } else {
                beats.len()
            };
            assert_eq!(cycles, per as u64 + 1, "N {n} elem {elem}");
        }
    }
}

#[test]
fn block_place_verilog_is_its_model() {
    let mut uut = BlockPlace::<32, 256>::default();
    uut.connect_all();
    let mut rng = XorShift64::new(5);
    let bytes = rng.bytes(32);
    let beat = bits_of::<256>(&bytes);
    for (cnt, seg, elem) in [(32, 0, 0), (20, 0, 0), (32, 1, 1), (7, 3, 2)] {
        uut.beat.next = beat;
        uut.cnt.next = (cnt as u64).into();
        uut.seg.next = (seg as u64).into();
        uut.elem.next = elem.into();
        settle(&mut uut);
        assert_eq!(uut.y.val(), place_bytes(&beat, cnt, seg, elem));
    }
    let Verilog::Custom(text) = uut.hdl() else {
        panic!("custom verilog expected")
    };
    // elem 1 (64-byte blocks) on a 32-byte bus: beat 1 of a block goes to bytes 32..64.
    assert!(
        text.contains("5'd9: y[256 +: 256] = vb[0 +: 256];"),
        "{text}"
    );
    assert!(text.contains("5'd0: y[0 +: 256] = vb[0 +: 256];"), "{text}");
}

/// The emitted Verilog (the placer's and lanes' custom bodies included) against the rust-hdl
/// simulation, cycle by cycle: blocks over several beats and several blocks per beat.
#[test]
fn verilog_matches_rust_simulation() {
    use crate::prims::verilog_check::{check, recording};
    for (n, elem, seed) in [(16usize, 2u64, 5u64), (128, 0, 7)] {
        let mut rng = XorShift64::new(seed);
        let (beats, _) = chunks(&mut rng, n, elem, 3);
        let trace = recording(|| {
            if n == 16 {
                run16(&beats, elem, 70, 60, seed);
            } else {
                run128(&beats, elem, 70, 60, seed);
            }
        });
        check(&gather_block(8 * n), &trace);
    }
}

/// With `elem` = 32 bits the gatherer turns byte streams of any length into 128-byte words:
/// `out_bytes` counts them (the ZVC-X decompressor's input).
#[test]
fn byte_streams_become_words() {
    for (n, run) in [(16usize, run16 as Run), (64, run64), (128, run128)] {
        let mut rng = XorShift64::new(3 + n as u64);
        let mut beats = vec![];
        let mut want: Vec<(Vec<u8>, bool)> = vec![];
        for _ in 0..5 {
            let len = 1 + (rng.next() % 400) as usize;
            let data = rng.bytes(len);
            let nb = data.chunks(n).count();
            for (i, b) in data.chunks(n).enumerate() {
                let mut bytes = b.to_vec();
                bytes.extend(rng.bytes(n - b.len()));
                beats.push(Beat {
                    data: bytes,
                    cnt: b.len(),
                    end: i + 1 == nb,
                });
            }
            let nw = data.chunks(128).count();
            for (i, w) in data.chunks(128).enumerate() {
                want.push((w.to_vec(), i + 1 == nw));
            }
        }
        let got = run_bytes(run, &beats, n as u64);
        assert_eq!(got, want, "N {n}");
    }
}

/// Runs the gatherer at 32-bit elements and returns each block's `out_bytes` bytes.
fn run_bytes(run: Run, beats: &[Beat], seed: u64) -> Vec<(Vec<u8>, bool)> {
    BYTES.with(|b| b.borrow_mut().clear());
    run(beats, 2, 80, 70, seed);
    BYTES.with(|b| b.borrow().clone())
}
