//! [`super::ZvcxScatter`] in rust-hdl's simulator: the blocks of random chunks at every bus
//! and element width back into the chunks' beats (bytes, count, end) under random
//! valid/ready; one block (or one beat) per cycle; the Verilog against the simulation.

use rust_hdl::core::prelude::*;

use super::gather_tests::{chunks, Beat, GotBlock};
use super::scatter::{scatter_block, ZvcxScatter};
use crate::testutil::{clock_cycle, reset_block, settle, Source, XorShift64};

/// One output beat: its valid bytes and whether it ends its chunk.
type OutBeat = (Vec<u8>, bool);

fn lanes_bits(lanes: &[u64]) -> Bits<1024> {
    lanes
        .iter()
        .rev()
        .fold(Bits::<1024>::default(), |b, &v| (b << 32) | v)
}

macro_rules! run_fn {
    ($fname:ident, $n:expr, $w:expr) => {
        /// Drives `blocks` with random valid/ready; returns the beats out and the cycles.
        fn $fname(
            blocks: &[GotBlock],
            elem: u64,
            valid_pct: u64,
            ready_pct: u64,
            seed: u64,
        ) -> (Vec<OutBeat>, u64) {
            let mut rng = XorShift64::new(seed);
            let mut uut = reset_block!(ZvcxScatter<$n, $w>);
            uut.elem.next = elem.into();
            let mut src = Source::new(blocks.len());
            let (mut out, mut cycles) = (vec![], 0u64);
            while !src.done() || uut.out_valid.val() {
                cycles += 1;
                assert!(cycles < 100_000, "scatter hangs");
                uut.in_valid.next = src.offer(&mut rng, valid_pct);
                if let Some(i) = src.current() {
                    uut.in_data.next = lanes_bits(&blocks[i].0);
                    uut.in_len.next = (blocks[i].1 as u64).into();
                    uut.in_end.next = blocks[i].2;
                }
                uut.out_ready.next = rng.chance(ready_pct);
                settle(&mut uut);
                crate::prims::verilog_check::record(&uut);
                if uut.out_valid.val() && uut.out_ready.val() {
                    let cnt = uut.out_cnt.val().to_u64() as usize;
                    let d = uut.out_data.val();
                    let bytes: Vec<u8> = (0..cnt)
                        .map(|j| d.get_bits::<8>(8 * j).to_u64() as u8)
                        .collect();
                    // Past the count the beat is zero.
                    for j in cnt..$n {
                        assert_eq!(d.get_bits::<8>(8 * j).to_u64(), 0, "byte {j} past out_cnt");
                    }
                    out.push((bytes, uut.out_end.val()));
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

type Run = fn(&[GotBlock], u64, u64, u64, u64) -> (Vec<OutBeat>, u64);

const RUNS: [(usize, Run); 4] = [(16, run16), (32, run32), (64, run64), (128, run128)];

fn expected(beats: &[Beat]) -> Vec<OutBeat> {
    beats
        .iter()
        .map(|b| (b.data[..b.cnt].to_vec(), b.end))
        .collect()
}

#[test]
fn beats_match_the_chunks_at_every_width() {
    for (n, run) in RUNS {
        for elem in 0..3u64 {
            let mut rng = XorShift64::new(17 + n as u64 * 5 + elem);
            let (beats, blocks) = chunks(&mut rng, n, elem, 4);
            let (got, _) = run(&blocks, elem, 70, 60, n as u64 + elem);
            let want = expected(&beats);
            assert_eq!(got.len(), want.len(), "N {n} elem {elem}: beats");
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "N {n} elem {elem}: beat {i}");
            }
        }
    }
}

#[test]
fn one_block_or_one_beat_per_cycle() {
    for (n, run) in RUNS {
        for elem in 0..3u64 {
            let mut rng = XorShift64::new(199 + elem);
            let (beats, blocks) = chunks(&mut rng, n, elem, 2);
            let (got, cycles) = run(&blocks, elem, 100, 100, 1);
            assert_eq!(got, expected(&beats));
            let per = if 32 << elem <= n {
                blocks.len()
            } else {
                beats.len()
            };
            assert_eq!(cycles, per as u64 + 1, "N {n} elem {elem}");
        }
    }
}

/// The emitted Verilog against the rust-hdl simulation, cycle by cycle.
#[test]
fn verilog_matches_rust_simulation() {
    use crate::prims::verilog_check::{check, recording};
    for (n, elem, seed) in [(16usize, 2u64, 5u64), (128, 0, 7)] {
        let mut rng = XorShift64::new(seed);
        let (_, blocks) = chunks(&mut rng, n, elem, 3);
        let trace = recording(|| {
            if n == 16 {
                run16(&blocks, elem, 70, 60, seed);
            } else {
                run128(&blocks, elem, 70, 60, seed);
            }
        });
        check(&scatter_block(8 * n), &trace);
    }
}
