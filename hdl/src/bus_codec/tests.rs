//! The bus compressor against the golden model (`cdma_model::zvc::encode`): streams of chunks,
//! each ZVC-encoded or raw, of every element width on every bus width, with random
//! valid/ready, partial final blocks and garbage past the valid bytes of a last beat.

use super::*;
use crate::testutil::*;
use cdma_model::ElemWidth;
use rust_hdl::core::prelude::*;

/// One input beat: `n` bytes (garbage past `cnt`), valid bytes, raw, end of chunk, last.
#[derive(Clone, Debug)]
struct Beat {
    data: Vec<u8>,
    cnt: usize,
    raw: bool,
    end: bool,
    last: bool,
}

/// Element width of a descriptor code.
pub(super) fn width(elem: u64) -> ElemWidth {
    match elem {
        0 => ElemWidth::W8,
        1 => ElemWidth::W16,
        _ => ElemWidth::W32,
    }
}

/// `len` bytes of `eb`-byte elements, each zero with probability `zero_pct` percent.
pub(super) fn tensor(rng: &mut XorShift64, len: usize, eb: usize, zero_pct: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        if rng.chance(zero_pct) {
            out.extend(std::iter::repeat_n(0, eb));
        } else {
            let mut e = rng.bytes(eb);
            if e.iter().all(|b| *b == 0) {
                e[eb - 1] = 0x80;
            }
            out.extend(e);
        }
    }
    out
}

/// A stream of `len` bytes cut into chunks of `chunk` bytes (each raw with probability
/// `raw_pct`), as `n`-byte beats, and the bytes the compressor must emit for it.
fn stream(
    rng: &mut XorShift64,
    n: usize,
    elem: u64,
    len: usize,
    chunk: usize,
    zero_pct: u64,
    raw_pct: u64,
) -> (Vec<Beat>, Vec<u8>) {
    let eb = 1 << elem;
    let data = tensor(rng, len, eb, zero_pct);
    let (mut beats, mut want) = (vec![], vec![]);
    let chunks: Vec<&[u8]> = data.chunks(chunk).collect();
    for (ci, c) in chunks.iter().enumerate() {
        let raw = rng.chance(raw_pct);
        if raw {
            want.extend_from_slice(c);
        } else {
            want.extend(cdma_model::zvc::encode(c, width(elem)).unwrap());
        }
        let nb = c.chunks(n).count();
        for (bi, b) in c.chunks(n).enumerate() {
            let mut bytes = b.to_vec();
            // Past the valid bytes: whatever memory holds (must be ignored).
            bytes.extend(rng.bytes(n - b.len()));
            let end = bi + 1 == nb;
            beats.push(Beat {
                data: bytes,
                cnt: b.len(),
                raw,
                end,
                last: end && ci + 1 == chunks.len(),
            });
        }
    }
    (beats, want)
}

/// One output beat: its strobed bytes, whether every strobe was set, last.
type OutBeat = (Vec<u8>, bool, bool);

/// A run of one bus width: beats, element code, valid %, ready %, seed → output beats and
/// cycles.
type Run = fn(&[Beat], u64, u64, u64, u64) -> (Vec<OutBeat>, u64);

/// Checks the output beats against the expected bytes: full beats of `n` bytes, the stream's
/// final beat with `last` and the strobes of its bytes only.
fn check_output(out: &[OutBeat], want: &[u8], n: usize) {
    let got: Vec<u8> = out.iter().flat_map(|b| b.0.iter().copied()).collect();
    assert_eq!(got.len(), want.len(), "output length");
    if let Some(i) = got.iter().zip(want).position(|(a, b)| a != b) {
        panic!(
            "first differing output byte {i}: {:#x} != {:#x}",
            got[i], want[i]
        );
    }
    let beats = want.len().div_ceil(n).max(1);
    assert_eq!(out.len(), beats, "output beats");
    for (i, (bytes, all, last)) in out.iter().enumerate() {
        let is_last = i + 1 == beats;
        assert_eq!(*last, is_last, "out_last on beat {i}");
        if !is_last {
            assert!(*all && bytes.len() == n, "beat {i} must be full");
        }
    }
}

macro_rules! run_fn {
    ($fname:ident, $ty:ty, $n:expr, $w:expr) => {
        /// Drives `beats` with seeded random valid/ready; returns the output beats (until
        /// `out_last`) and the cycles from the first offer to the last output.
        fn $fname(
            beats: &[Beat],
            elem: u64,
            valid_pct: u64,
            ready_pct: u64,
            seed: u64,
        ) -> (Vec<OutBeat>, u64) {
            let n: usize = $n;
            let mut rng = XorShift64::new(seed);
            let mut uut = reset_block!($ty);
            uut.elem.next = elem.into();
            let mut src = Source::new(beats.len());
            let mut out = vec![];
            for cycle in 0..(20 * beats.len() as u64 + 200) {
                src.offer(&mut rng, valid_pct);
                uut.in_valid.next = src.valid;
                if let Some(i) = src.current() {
                    let b = &beats[i];
                    let mut d = Bits::<$w>::default();
                    for (j, x) in b.data.iter().enumerate() {
                        d.set_bits::<8>(8 * j, (*x as u64).into());
                    }
                    uut.in_data.next = d;
                    uut.in_cnt.next = (b.cnt as u64).into();
                    uut.in_raw.next = b.raw;
                    uut.in_end.next = b.end;
                    uut.in_last.next = b.last;
                }
                uut.out_ready.next = rng.chance(ready_pct);
                settle(&mut uut);
                crate::prims::verilog_check::record(&uut);
                if uut.out_valid.val() && uut.out_ready.val() {
                    let (d, s) = (uut.out_data.val(), uut.out_strb.val());
                    let bytes: Vec<u8> = (0..n)
                        .filter(|j| s.get_bit(*j))
                        .map(|j| d.get_bits::<8>(8 * j).to_u64() as u8)
                        .collect();
                    let all = bytes.len() == n;
                    // Strobes are a prefix: bytes 0..k.
                    assert!(
                        (0..bytes.len()).all(|j| s.get_bit(j)),
                        "strobes not a prefix"
                    );
                    let last = uut.out_last.val();
                    out.push((bytes, all, last));
                    if last {
                        // Nothing after the stream's last beat.
                        clock_cycle!(&mut uut);
                        assert_no_more_output!(uut, 4, [in_valid]);
                        return (out, cycle + 1);
                    }
                }
                src.handshake(uut.in_ready.val());
                clock_cycle!(&mut uut);
            }
            panic!(
                "no out_last: {} beats out, {} of {} in",
                out.len(),
                src.next,
                beats.len()
            );
        }
    };
}

run_fn!(run128, ZvcBusCompressorDw128, 16, 128);
run_fn!(run256, ZvcBusCompressorDw256, 32, 256);
run_fn!(run512, ZvcBusCompressorDw512, 64, 512);
run_fn!(run1024, ZvcBusCompressorDw1024, 128, 1024);

/// Every element width on an `n`-byte bus: streams of several chunks (raw or ZVC), the last
/// one partial, at several sparsities, with random valid/ready.
fn every_width(n: usize, run: Run, seed: u64) {
    let mut rng = XorShift64::new(seed);
    for elem in 0..3u64 {
        let eb = 1usize << elem;
        // Final chunks of 60, 8, 4 bytes (partial blocks) and of 96 and 64 bytes (the stream
        // ends on a block boundary inside a beat: no mask may follow).
        for (zero_pct, raw_pct, len) in [
            (60, 0, 700),
            (95, 30, 520),
            (10, 50, 388),
            (100, 0, 224),
            (50, 20, 448),
        ] {
            let len = len / eb * eb;
            let (beats, want) = stream(&mut rng, n, elem, len, 128, zero_pct, raw_pct);
            let (out, _) = run(&beats, elem, 80, 70, rng.next());
            check_output(&out, &want, n);
        }
    }
}

#[test]
fn dw128_every_width() {
    every_width(16, run128, 1);
}

#[test]
fn dw256_every_width() {
    every_width(32, run256, 2);
}

#[test]
fn dw512_every_width() {
    every_width(64, run512, 3);
}

#[test]
fn dw1024_every_width() {
    every_width(128, run1024, 4);
}

/// At full valid/ready a compressing stream takes one beat per cycle: the cycle count is the
/// beat count plus the pipeline latency, for blocks within a beat and blocks over 8 beats.
#[test]
fn one_beat_per_cycle() {
    let mut rng = XorShift64::new(9);
    for (n, elem, run) in [
        (
            16usize,
            2u64,
            run128 as fn(&[Beat], u64, u64, u64, u64) -> (Vec<OutBeat>, u64),
        ),
        (128, 0, run1024),
        (32, 1, run256),
    ] {
        let (beats, want) = stream(&mut rng, n, elem, 4096, 1024, 70, 0);
        let (out, cycles) = run(&beats, elem, 100, 100, 1);
        check_output(&out, &want, n);
        let k = (32usize << elem) / n;
        assert!(
            cycles <= beats.len() as u64 + k as u64 + 4,
            "{n}-byte bus, elem {elem}: {cycles} cycles for {} beats",
            beats.len()
        );
    }
}

/// The emitted Verilog (the custom bodies of the primitives included) against the rust-hdl
/// simulation, cycle by cycle: blocks over several beats (128-bit bus, E = 32) and several
/// blocks per beat (512-bit bus, E = 8). One Verilator build per bus: the Verilated engines
/// (tb/) run every element width on every bus against the golden model.
#[test]
fn verilog_matches_rust_simulation() {
    use crate::prims::verilog_check::{check, recording};
    let mut rng = XorShift64::new(12);
    for (n, elem, len, seed) in [(16, 2, 300, 5), (64, 0, 296, 7)] {
        let (beats, _) = stream(&mut rng, n, elem, len, 128, 60, 30);
        let trace = recording(|| {
            if n == 16 {
                run128(&beats, elem, 70, 60, seed);
            } else {
                run512(&beats, elem, 70, 60, seed);
            }
        });
        check(&compressor_block(8 * n), &trace);
    }
}
