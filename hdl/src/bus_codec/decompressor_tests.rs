//! The bus decompressor against the golden model: frames' chunk payloads made by
//! `cdma_model::zvc::encode` (or stored raw) decode to the data, for every element width on
//! every bus width, with random valid/ready; corrupted payloads raise `error` without hanging.

use super::tests::{tensor, width};
use super::*;
use crate::testutil::*;
use rust_hdl::core::prelude::*;

/// One chunk command: stored bytes, decoded bytes, raw, last.
type Cmd = (usize, usize, bool, bool);

/// A stream of `len` bytes of `eb`-byte elements cut into `chunk`-byte chunks, each stored
/// ZVC if smaller, else raw: (data, commands, payload).
fn frame(
    rng: &mut XorShift64,
    elem: u64,
    len: usize,
    chunk: usize,
    zero_pct: u64,
) -> (Vec<u8>, Vec<Cmd>, Vec<u8>) {
    let data = tensor(rng, len, 1 << elem, zero_pct);
    let (mut cmds, mut payload) = (vec![], vec![]);
    let n = data.chunks(chunk).count();
    for (i, c) in data.chunks(chunk).enumerate() {
        let z = cdma_model::zvc::encode(c, width(elem)).unwrap();
        let raw = z.len() >= c.len();
        let stored = if raw { c.to_vec() } else { z };
        cmds.push((stored.len(), c.len(), raw, i + 1 == n));
        payload.extend(stored);
    }
    (data, cmds, payload)
}

/// What a run produced: the strobed output bytes, beats, whether the last had `out_last`,
/// `error`, cycles.
struct Outcome {
    bytes: Vec<u8>,
    beats: Vec<(usize, bool)>,
    error: bool,
    cycles: u64,
}

macro_rules! run_fn {
    ($fname:ident, $ty:ty, $n:expr, $w:expr) => {
        /// Drives the commands and the payload beats with seeded random valid/ready until
        /// `out_last`, or, after an `error`, until the input is drained.
        fn $fname(cmds: &[Cmd], payload: &[u8], elem: u64, pct: (u64, u64), seed: u64) -> Outcome {
            let n: usize = $n;
            let mut rng = XorShift64::new(seed);
            let mut uut = reset_block!($ty);
            uut.elem.next = elem.into();
            let beats: Vec<&[u8]> = payload.chunks(n).collect();
            let (mut src, mut ck) = (Source::new(beats.len()), Source::new(cmds.len()));
            let mut out = Outcome {
                bytes: vec![],
                beats: vec![],
                error: false,
                cycles: 0,
            };
            // Cycles since `ck_open` fell with no command taken, and the last cycle's
            // `error` / `err_wait`: once `ck_open` has been low for a cycle, `error` is
            // settled (the controller's rule) unless it waits for missing bytes.
            let (mut quiet, mut was_err, mut was_wait) = (0u32, false, false);
            for cycle in 0..(30 * beats.len() as u64 + 40 * cmds.len() as u64 + 200) {
                src.offer(&mut rng, pct.0);
                ck.offer(&mut rng, 90);
                uut.in_valid.next = src.valid;
                if let Some(i) = src.current() {
                    let mut d = Bits::<$w>::default();
                    for (j, x) in beats[i].iter().enumerate() {
                        d.set_bits::<8>(8 * j, (*x as u64).into());
                    }
                    // Garbage past a partial beat's valid bytes.
                    for j in beats[i].len()..n {
                        d.set_bits::<8>(8 * j, 0xA5u64.into());
                    }
                    uut.in_data.next = d;
                    uut.in_cnt.next = (beats[i].len() as u64).into();
                }
                uut.ck_valid.next = ck.valid;
                if let Some(i) = ck.current() {
                    let (stored, len, raw, last) = cmds[i];
                    uut.ck_stored.next = (stored as u64).into();
                    uut.ck_len.next = (len as u64).into();
                    uut.ck_raw.next = raw;
                    uut.ck_last.next = last;
                }
                uut.out_ready.next = rng.chance(pct.1);
                settle(&mut uut);
                crate::prims::verilog_check::record(&uut);
                out.error |= uut.error.val();
                if quiet >= 2 && !was_wait {
                    assert_eq!(uut.error.val(), was_err, "error changed after ck_open fell");
                }
                (was_err, was_wait) = (uut.error.val(), uut.err_wait.val());
                quiet = if uut.ck_open.val() || (uut.ck_valid.val() && uut.ck_ready.val()) {
                    0
                } else {
                    quiet + 1
                };
                if uut.out_valid.val() && uut.out_ready.val() {
                    let (d, s) = (uut.out_data.val(), uut.out_strb.val());
                    let k = (0..n).filter(|j| s.get_bit(*j)).count();
                    assert!((0..k).all(|j| s.get_bit(j)), "strobes not a prefix");
                    out.bytes
                        .extend((0..k).map(|j| d.get_bits::<8>(8 * j).to_u64() as u8));
                    out.beats.push((k, uut.out_last.val()));
                    if uut.out_last.val() {
                        out.cycles = cycle + 1;
                        // Nothing after the stream's last beat.
                        clock_cycle!(&mut uut);
                        assert_no_more_output!(uut, 4, [in_valid, ck_valid]);
                        assert!(!uut.ck_open.val(), "a chunk still open after the last beat");
                        return out;
                    }
                }
                src.handshake(uut.in_ready.val());
                ck.handshake(uut.ck_ready.val());
                clock_cycle!(&mut uut);
                if out.error && src.done() {
                    settle(&mut uut);
                    assert!(!uut.ck_open.val(), "a chunk still open after an error");
                    out.cycles = cycle + 1;
                    return out;
                }
            }
            panic!(
                "stuck: {} beats out, {} of {} in, {} of {} commands, error {}",
                out.beats.len(),
                src.next,
                beats.len(),
                ck.next,
                cmds.len(),
                out.error
            );
        }
    };
}

run_fn!(run128, ZvcBusDecompressorDw128, 16, 128);
run_fn!(run256, ZvcBusDecompressorDw256, 32, 256);
run_fn!(run512, ZvcBusDecompressorDw512, 64, 512);
run_fn!(run1024, ZvcBusDecompressorDw1024, 128, 1024);

/// A run of one bus width.
type Run = fn(&[Cmd], &[u8], u64, (u64, u64), u64) -> Outcome;

/// The data came back: every beat full but the last, which has `out_last`; no error.
fn check_data(out: &Outcome, data: &[u8], n: usize) {
    assert!(!out.error, "unexpected error");
    assert_eq!(out.bytes.len(), data.len(), "output length");
    if let Some(i) = out.bytes.iter().zip(data).position(|(a, b)| a != b) {
        panic!(
            "first differing byte {i}: {:#x} != {:#x}",
            out.bytes[i], data[i]
        );
    }
    let beats = data.len().div_ceil(n);
    assert_eq!(out.beats.len(), beats, "output beats");
    for (i, (k, last)) in out.beats.iter().enumerate() {
        assert_eq!(*last, i + 1 == beats, "out_last on beat {i}");
        if i + 1 < beats {
            assert_eq!(*k, n, "beat {i} must be full");
        }
    }
}

fn every_width(n: usize, run: Run, seed: u64) {
    let mut rng = XorShift64::new(seed);
    for elem in 0..3u64 {
        let eb = 1usize << elem;
        // Final chunks of 60, 8, 96 bytes; sparse, dense (raw chunks), all zero.
        for (zero_pct, len) in [(60, 700), (95, 520), (5, 388), (100, 224), (50, 448)] {
            let len = len / eb * eb;
            let (data, cmds, payload) = frame(&mut rng, elem, len, 128, zero_pct);
            let out = run(&cmds, &payload, elem, (80, 70), rng.next());
            check_data(&out, &data, n);
        }
    }
}

#[test]
fn dw128_every_width() {
    every_width(16, run128, 11);
}

#[test]
fn dw256_every_width() {
    every_width(32, run256, 12);
}

#[test]
fn dw512_every_width() {
    every_width(64, run512, 13);
}

#[test]
fn dw1024_every_width() {
    every_width(128, run1024, 14);
}

/// At full valid/ready one output beat per cycle, blocks within a beat and over 8 beats.
#[test]
fn one_beat_per_cycle() {
    let mut rng = XorShift64::new(19);
    for (n, elem, run) in [
        (16usize, 2u64, run128 as Run),
        (128, 0, run1024),
        (32, 1, run256),
    ] {
        let (data, cmds, payload) = frame(&mut rng, elem, 4096, 1024, 70);
        let out = run(&cmds, &payload, elem, (100, 100), 1);
        check_data(&out, &data, n);
        let beats = (data.len() / n) as u64;
        assert!(
            out.cycles <= beats + 8,
            "{n}-byte bus, elem {elem}: {} cycles for {beats} beats",
            out.cycles
        );
    }
}

/// A ZVC chunk's payload corrupted: `f` edits the payload (given the chunk's offset and
/// stored size) and may change the commands; the run must end with `error`, not hang.
fn corrupt(run: Run, elem: u64, seed: u64, f: impl Fn(&mut Vec<u8>, &mut Vec<Cmd>, usize, usize)) {
    let mut rng = XorShift64::new(seed);
    let (_, mut cmds, mut payload) = frame(&mut rng, elem, 300 << elem, 128, 70);
    let i = cmds.iter().position(|c| !c.2).expect("a ZVC chunk");
    let off: usize = cmds[..i].iter().map(|c| c.0).sum();
    let stored = cmds[i].0;
    f(&mut payload, &mut cmds, off, stored);
    let out = run(&cmds, &payload, elem, (80, 80), seed);
    assert!(out.error, "corruption not detected");
}

#[test]
fn corrupt_payloads_raise_error() {
    for (run, elem) in [(run128 as Run, 2u64), (run128, 0), (run512, 0), (run512, 1)] {
        // 17c: a stored element zeroed (the mask still says non-zero).
        corrupt(run, elem, 1, |p, _, off, _| {
            let eb = 1 << elem;
            let m = u32::from_le_bytes(p[off..off + 4].try_into().unwrap());
            assert!(m != 0, "first block has an element");
            p[off + 4..off + 4 + eb].fill(0);
        });
        // A mask bit flipped: the chunk's bytes no longer add up (17a / 17d) or an element
        // of the next block is read as zero (17c).
        corrupt(run, elem, 2, |p, _, off, _| p[off] ^= 0x10);
        // 17a: the chunk's last byte missing (its stored size one less).
        corrupt(run, elem, 3, |p, c, off, stored| {
            p.remove(off + stored - 1);
            let i = c.iter().position(|x| !x.2).unwrap();
            c[i].0 -= 1;
        });
    }
}

/// 17b: a mask bit set past the end of a final partial block, with no element for it: the
/// bytes still add up, only the mask check sees it.
#[test]
fn mask_bit_past_the_end_is_an_error() {
    for (run, n, elem) in [
        (run128 as Run, 16usize, 2u64),
        (run1024, 128, 0),
        (run256, 32, 1),
    ] {
        let mut rng = XorShift64::new(n as u64);
        let eb = 1usize << elem;
        // One chunk of 5 elements, all non-zero: mask 0x1F, stored ZVC only if smaller, so
        // force ZVC by building the payload by hand.
        let data = tensor(&mut rng, 5 * eb, eb, 0);
        let mut payload = 0x1F_u32.to_le_bytes().to_vec();
        payload.extend(&data);
        let cmds = vec![(payload.len(), data.len(), false, true)];
        let ok = run(&cmds, &payload, elem, (90, 90), 1);
        check_data(&ok, &data, n);
        payload[0] |= 0x40; // element 6 does not exist
        let bad = run(&cmds, &payload, elem, (90, 90), 1);
        assert!(
            bad.error,
            "{n}-byte bus, elem {elem}: mask bit past the end accepted"
        );
    }
}

#[test]
fn verilog_matches_rust_simulation() {
    use crate::prims::verilog_check::{check, recording};
    let mut rng = XorShift64::new(21);
    // One Verilator build per bus (E = 16 over beats of 128 bits, E = 8 several blocks per
    // 512-bit beat); the Verilated engines (tb/) run every element width on every bus.
    for (n, elem, len) in [(16usize, 1u64, 300usize), (64, 0, 296)] {
        let (_, cmds, payload) = frame(&mut rng, elem, len, 128, 60);
        let trace = recording(|| {
            if n == 16 {
                run128(&cmds, &payload, elem, (70, 60), 5);
            } else {
                run512(&cmds, &payload, elem, (70, 60), 5);
            }
        });
        check(&decompressor_block(8 * n), &trace);
    }
}
