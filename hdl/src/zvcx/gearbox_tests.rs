//! [`super::WordToBeats`] in rust-hdl's simulator: byte streams of random lengths as 128-byte
//! words back into `N`-byte beats under random valid/ready at every bus width, one beat per
//! cycle, and the Verilog against the simulation.

use rust_hdl::core::prelude::*;

use super::gearbox::WordToBeats;
use crate::emit::standalone_block;
use crate::port_docs::PortDocs;
use crate::testutil::{clock_cycle, reset_block, settle, Source, XorShift64};

/// Port documentation of [`WordToBeats`] (for the Verilog check's standalone block).
static PORTS: PortDocs = PortDocs::new(include_str!("gearbox.rs"), "WordToBeats");

/// One beat: valid bytes, last.
type OutBeat = (Vec<u8>, bool);

/// Streams of random lengths: their words (bytes, last) and their `n`-byte beats.
fn streams(rng: &mut XorShift64, n: usize, count: usize) -> (Vec<(Vec<u8>, bool)>, Vec<OutBeat>) {
    let (mut words, mut beats) = (vec![], vec![]);
    for _ in 0..count {
        let len = 1 + (rng.next() % 500) as usize;
        let data = rng.bytes(len);
        let nw = data.chunks(128).count();
        for (i, w) in data.chunks(128).enumerate() {
            words.push((w.to_vec(), i + 1 == nw));
        }
        let nb = data.chunks(n).count();
        for (i, b) in data.chunks(n).enumerate() {
            beats.push((b.to_vec(), i + 1 == nb));
        }
    }
    (words, beats)
}

macro_rules! run_fn {
    ($fname:ident, $n:expr, $w:expr) => {
        fn $fname(words: &[(Vec<u8>, bool)], valid_pct: u64, ready_pct: u64, seed: u64) -> (Vec<OutBeat>, u64) {
            let mut rng = XorShift64::new(seed);
            let mut uut = reset_block!(WordToBeats<$n, $w>);
            let mut src = Source::new(words.len());
            let (mut out, mut cycles) = (vec![], 0u64);
            while !src.done() || uut.out_valid.val() {
                cycles += 1;
                assert!(cycles < 100_000, "gearbox hangs");
                uut.in_valid.next = src.offer(&mut rng, valid_pct);
                if let Some(i) = src.current() {
                    let w = &words[i].0;
                    uut.in_data.next = w.iter().rev().fold(Bits::<1024>::default(), |b, &v| (b << 8) | u64::from(v));
                    uut.in_bytes.next = (w.len() as u64).into();
                    uut.in_last.next = words[i].1;
                }
                uut.out_ready.next = rng.chance(ready_pct);
                settle(&mut uut);
                crate::prims::verilog_check::record(&uut);
                if uut.out_valid.val() && uut.out_ready.val() {
                    let d = uut.out_data.val();
                    let cnt = uut.out_cnt.val().to_u64() as usize;
                    out.push(((0..cnt).map(|j| d.get_bits::<8>(8 * j).to_u64() as u8).collect(), uut.out_last.val()));
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

type Run = fn(&[(Vec<u8>, bool)], u64, u64, u64) -> (Vec<OutBeat>, u64);

#[test]
fn words_become_beats_at_every_width() {
    for (n, run) in [
        (16usize, run16 as Run),
        (32, run32),
        (64, run64),
        (128, run128),
    ] {
        let mut rng = XorShift64::new(n as u64);
        let (words, beats) = streams(&mut rng, n, 6);
        let (got, _) = run(&words, 70, 60, 3);
        assert_eq!(got, beats, "N {n}");
        // Full rate: one beat per cycle, one cycle of latency.
        let (got, cycles) = run(&words, 100, 100, 4);
        assert_eq!(got, beats, "N {n}");
        assert_eq!(cycles, beats.len() as u64 + 1, "N {n}");
    }
}

#[test]
fn verilog_matches_rust_simulation() {
    use crate::prims::verilog_check::{check, recording};
    let mut rng = XorShift64::new(9);
    let (words, _) = streams(&mut rng, 32, 3);
    let trace = recording(|| {
        run32(&words, 70, 60, 5);
    });
    let block = standalone_block(
        WordToBeats::<32, 256>::default(),
        "cdma_zvcx_word_to_beats_dw256",
        &PORTS,
    );
    check(&block, &trace);
}
