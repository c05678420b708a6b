//! The decompressor's tests: random streams against the model, backpressure, errors.

use super::*;
use crate::testutil::*;

/// A packed input beat: lanes (P of them), count, last.
type Beat = (Vec<u64>, usize, bool);
/// What the run saw: decoded blocks with their `out_last`, final `error`, cycles.
type Run = (Vec<(Vec<u64>, bool)>, bool, u64);

/// Drives `beats` into the decompressor with seeded random valid/ready patterns until
/// `want_lasts` blocks with `out_last` came out, or (when `want_lasts` is 0) until the
/// input is exhausted and the block is idle for a while.
macro_rules! run_fn {
    ($fname:ident, $ty:ty, $e:expr) => {
        run_fn!($fname, $ty, $e, <$ty>::default);
    };
    ($fname:ident, $ty:ty, $e:expr, $mk:expr) => {
        fn $fname(
            beats: &[Beat],
            want_lasts: usize,
            valid_pct: u64,
            ready_pct: u64,
            seed: u64,
        ) -> Run {
            let e: usize = $e;
            let mut rng = XorShift64::new(seed);
            let mut uut: $ty = $mk();
            uut.connect_all();
            uut.rst.next = true;
            uut.in_valid.next = false;
            uut.out_ready.next = false;
            settle(&mut uut);
            clock_cycle!(&mut uut);
            clock_cycle!(&mut uut);
            uut.rst.next = false;
            let mut src = Source::new(beats.len());
            let (mut out, mut cycles, mut lasts) = (vec![], 0, 0);
            let mut idle = 0;
            loop {
                if want_lasts > 0 && lasts == want_lasts {
                    break;
                }
                if want_lasts == 0 && src.done() {
                    idle += 1;
                    if idle > 20 {
                        break;
                    }
                }
                assert!(cycles < 40 * beats.len() as u64 + 200, "decompressor hangs");
                uut.in_valid.next = src.offer(&mut rng, valid_pct);
                if let Some(i) = src.current() {
                    uut.in_data.next = to_bus(&beats[i].0, e);
                    uut.in_count.next = (beats[i].1 as u64).into();
                    uut.in_last.next = beats[i].2;
                }
                uut.out_ready.next = rng.chance(ready_pct);
                settle(&mut uut);
                if uut.out_valid.val() && uut.out_ready.val() {
                    let last = uut.out_last.val();
                    out.push((from_bus(uut.out_data.val(), e, 32), last));
                    lasts += usize::from(last);
                }
                src.handshake(uut.in_ready.val());
                clock_cycle!(&mut uut);
                cycles += 1;
            }
            (out, uut.error.val(), cycles)
        }
    };
}

run_fn!(run8, ZvcDecompressorE8, 8);
run_fn!(run16, ZvcDecompressorE16, 16);
run_fn!(run32, ZvcDecompressorE32, 32);
run_fn!(
    run8z,
    ZvcDecompressorE8,
    8,
    ZvcDecompressorE8::with_zero_check
);

fn mixed_tensor(rng: &mut XorShift64, e: u32, n: usize) -> Vec<Vec<u64>> {
    let pcts = [0, 100, 50, 90, 10, 60, 100, 0, 30];
    (0..n)
        .map(|i| random_block(rng, e, pcts[i % pcts.len()]))
        .collect()
}

/// The expected output: every block of every tensor, `last` on each tensor's final one.
fn expected(tensors: &[Vec<Vec<u64>>]) -> Vec<(Vec<u64>, bool)> {
    tensors
        .iter()
        .flat_map(|t| {
            t.iter()
                .enumerate()
                .map(|(i, b)| (b.clone(), i + 1 == t.len()))
        })
        .collect()
}

/// Beats as a source would send them: lanes at and above the count hold garbage, which
/// the block must ignore.
fn beats_of(tensors: &[Vec<Vec<u64>>], e: u32, rng: &mut XorShift64) -> Vec<Beat> {
    tensors
        .iter()
        .flat_map(|t| reference_beats(t, e))
        .map(|(mut lanes, n, last)| {
            for l in lanes.iter_mut().skip(n) {
                *l = rng.next() & ((1 << e) - 1);
            }
            (lanes, n, last)
        })
        .collect()
}

#[test]
fn e8_full_rate_matches_reference() {
    let mut rng = XorShift64::new(11);
    let t = vec![mixed_tensor(&mut rng, 8, 12)];
    let beats = beats_of(&t, 8, &mut rng);
    let (out, err, cycles) = run8(&beats, 1, 100, 100, 1);
    assert!(!err);
    assert_eq!(out, expected(&t));
    // One block per cycle once the pipeline is full: 12 blocks after 20 cycles of latency
    // (a beat through the repacker and the table stages, the block pipeline, the buffer).
    assert!(cycles <= 12 + 20, "took {cycles} cycles for 12 blocks");
}

#[test]
fn e8_backpressure_and_back_to_back_tensors() {
    let mut rng = XorShift64::new(12);
    let dense: Vec<Vec<u64>> = (0..9).map(|_| random_block(&mut rng, 8, 0)).collect();
    let zeros: Vec<Vec<u64>> = (0..20).map(|_| vec![0; 32]).collect();
    let t = vec![
        mixed_tensor(&mut rng, 8, 5),
        dense,
        zeros,
        mixed_tensor(&mut rng, 8, 3),
    ];
    let beats = beats_of(&t, 8, &mut rng);
    for seed in [13, 14] {
        let (out, err, _) = run8(&beats, t.len(), 60, 70, seed);
        assert!(!err, "seed {seed}");
        assert_eq!(out, expected(&t), "seed {seed}");
    }
}

#[test]
fn e32_matches_reference() {
    let mut rng = XorShift64::new(15);
    let t = vec![mixed_tensor(&mut rng, 32, 4), vec![vec![0; 32]]];
    let beats = beats_of(&t, 32, &mut rng);
    let (out, err, _) = run32(&beats, t.len(), 80, 70, 16);
    assert!(!err);
    assert_eq!(out, expected(&t));
}

#[test]
fn truncated_payload_raises_error_and_drops_input() {
    let mut rng = XorShift64::new(17);
    let t = vec![mixed_tensor(&mut rng, 8, 4)];
    let mut beats = beats_of(&t, 8, &mut rng);
    // Cut the final block short by one lane (if the final beat holds one lane only, the
    // block loses its last element through the previous beat instead).
    let n = beats.len();
    assert!(beats[n - 1].1 > 1, "test data: final beat too short");
    beats[n - 1].1 -= 1;
    // Beats after the broken tensor must be swallowed, not hang the source.
    beats.extend(beats_of(&t, 8, &mut rng));
    let (out, err, _) = run8(&beats, 0, 100, 100, 18);
    assert!(err, "truncation not flagged");
    // The complete blocks before the cut come out, the cut block does not.
    assert_eq!(out, expected(&t)[..3].to_vec());
}

#[test]
fn bad_count_raises_error() {
    let mut rng = XorShift64::new(19);
    let t = vec![mixed_tensor(&mut rng, 8, 2)];
    let mut beats = beats_of(&t, 8, &mut rng);
    beats[0].1 = 37; // > P
    let (_, err, _) = run8(&beats, 0, 100, 100, 20);
    assert!(err, "in_count > P not flagged");
    beats[0].1 = 0;
    let (_, err, _) = run8(&beats, 0, 100, 100, 20);
    assert!(err, "in_count 0 not flagged");
}

/// A zero element under a set mask bit: accepted by the standalone decompressor, an
/// `error` with `with_zero_check` (which otherwise decodes the same).
#[test]
fn zero_check_flags_a_zero_element_under_a_set_mask_bit() {
    let mut rng = XorShift64::new(21);
    let t = vec![mixed_tensor(&mut rng, 8, 6)];
    let beats = beats_of(&t, 8, &mut rng);
    let (out, err, _) = run8z(&beats, 1, 80, 70, 22);
    assert!(!err, "a canonical stream flagged");
    assert_eq!(out, expected(&t));
    // Block 2 (50 % zeros): its mask is in lanes 0..4 of the stream after blocks 0 and 1;
    // zero its first stored element (lane M + 0 of the block).
    let lanes_per_block = |b: &Vec<u64>| 4 + b.iter().filter(|&&x| x != 0).count();
    let at = lanes_per_block(&t[0][0]) + lanes_per_block(&t[0][1]) + 4;
    assert!(
        t[0][2].iter().any(|&x| x != 0),
        "test data: block 2 is all zero"
    );
    let mut bad = beats.clone();
    let p = 36;
    bad[at / p].0[at % p] = 0;
    let (_, err, _) = run8(&bad, 0, 100, 100, 23);
    assert!(!err, "the standalone decompressor changed behaviour");
    let (out, err, _) = run8z(&bad, 0, 100, 100, 23);
    assert!(err, "zero element under a set mask bit not flagged");
    assert!(out.len() <= 3, "blocks after the bad one came out");
}

/// The beats of `tensors` with every tensor's lane stream cut into beats of random counts
/// (1..=P, a third of them a single lane), lanes above a count garbage: partial beats in
/// the middle of a tensor are allowed by the interface and repacked.
fn ragged_beats_of(tensors: &[Vec<Vec<u64>>], e: u32, rng: &mut XorShift64) -> Vec<Beat> {
    let p = 32 + 32 / e as usize;
    let mut beats = vec![];
    for t in tensors {
        let lanes = reference_lanes(t, e);
        let mut at = 0;
        while at < lanes.len() {
            let want = if rng.chance(33) {
                1
            } else {
                1 + (rng.next() % p as u64) as usize
            };
            let n = want.min(lanes.len() - at);
            let mut beat: Vec<u64> = (0..p).map(|_| rng.next() & ((1 << e) - 1)).collect();
            beat[..n].copy_from_slice(&lanes[at..at + n]);
            at += n;
            beats.push((beat, n, at == lanes.len()));
        }
    }
    beats
}

/// Partial beats anywhere in a tensor (blocks and masks split over many beats), back-to-back
/// tensors, random valid/ready: every block bit-exact, for E = 8 (masks of 4 lanes, which
/// straddle full beats in 3 of 36 start lanes) and E = 16.
#[test]
fn ragged_beats_are_repacked() {
    let mut rng = XorShift64::new(31);
    let t8 = vec![
        mixed_tensor(&mut rng, 8, 40),
        vec![vec![0; 32]],
        mixed_tensor(&mut rng, 8, 7),
    ];
    let beats = ragged_beats_of(&t8, 8, &mut rng);
    assert!(beats.iter().filter(|b| b.1 < 36 && !b.2).count() > 10);
    for (seed, valid, ready) in [(32, 100, 100), (33, 70, 60)] {
        let (out, err, _) = run8(&beats, t8.len(), valid, ready, seed);
        assert!(!err, "seed {seed}");
        assert_eq!(out, expected(&t8), "seed {seed}");
    }
    let t16 = vec![mixed_tensor(&mut rng, 16, 8), mixed_tensor(&mut rng, 16, 3)];
    let beats = ragged_beats_of(&t16, 16, &mut rng);
    let (out, err, _) = run16(&beats, t16.len(), 80, 80, 34);
    assert!(!err);
    assert_eq!(out, expected(&t16));
}

/// A tensor whose last block straddles two beats (the loop drops the used-up last beat),
/// then another tensor right behind it; and a tensor ending exactly on a beat boundary.
#[test]
fn last_block_across_beats_and_on_a_boundary() {
    let mut rng = XorShift64::new(41);
    // Dense blocks are 36 lanes = P: block 0 fills beat 0; a sparse block first shifts the
    // next ones so that the last block straddles.
    let dense = |rng: &mut XorShift64| random_block(rng, 8, 0);
    let mut t0 = vec![random_block(&mut rng, 8, 50)];
    t0.extend((0..3).map(|_| dense(&mut rng)));
    let t1: Vec<Vec<u64>> = (0..3).map(|_| dense(&mut rng)).collect();
    let t = vec![t0, t1.clone(), t1];
    let lanes0 = reference_lanes(&t[0], 8).len();
    assert!(
        !lanes0.is_multiple_of(36),
        "test data: the last block does not straddle"
    );
    let beats = beats_of(&t, 8, &mut rng);
    let (out, err, cycles) = run8(&beats, t.len(), 100, 100, 42);
    assert!(!err);
    assert_eq!(out, expected(&t));
    assert!(cycles <= 10 + 20 + 6, "{cycles} cycles for 10 blocks");
}

/// All-zero blocks are 4 lanes each (9 per beat): still one block per cycle.
#[test]
fn sparse_blocks_one_per_cycle() {
    let t = vec![vec![vec![0u64; 32]; 60]];
    let mut rng = XorShift64::new(51);
    let beats = beats_of(&t, 8, &mut rng);
    let (out, err, cycles) = run8(&beats, 1, 100, 100, 52);
    assert!(!err);
    assert_eq!(out, expected(&t));
    assert!(cycles <= 60 + 20, "{cycles} cycles for 60 blocks");
}

/// Latency: a one-block tensor taken at cycle 0 comes out at cycle 20 (module doc).
#[test]
fn latency_of_one_block() {
    let mut rng = XorShift64::new(61);
    let t = vec![vec![random_block(&mut rng, 8, 50)]];
    let beats = beats_of(&t, 8, &mut rng);
    let (out, err, cycles) = run8(&beats, 1, 100, 100, 62);
    assert!(!err);
    assert_eq!(out, expected(&t));
    // `cycles` counts the cycle the block left in, from cycle 0.
    assert_eq!(cycles - 1, 20, "latency");
}

/// Offers beat `src.current()` of `beats` (valid with probability `pct`) to an 8-bit
/// decompressor.
fn offer_beat(
    uut: &mut ZvcDecompressorE8,
    beats: &[Beat],
    src: &mut Source,
    rng: &mut XorShift64,
    pct: u64,
) {
    uut.in_valid.next = src.offer(rng, pct);
    if let Some(i) = src.current() {
        uut.in_data.next = to_bus(&beats[i].0, 8);
        uut.in_count.next = (beats[i].1 as u64).into();
        uut.in_last.next = beats[i].2;
    }
}

/// A reset while the output is stalled with blocks in flight (in X0, its skid slot and the
/// block pipeline) drops them all: after it, only the next tensor's blocks come out.
#[test]
fn reset_mid_stream_drops_the_blocks_in_flight() {
    let mut rng = XorShift64::new(21);
    let old = vec![mixed_tensor(&mut rng, 8, 12)];
    let new = vec![mixed_tensor(&mut rng, 8, 5)];
    let (old_beats, new_beats) = (beats_of(&old, 8, &mut rng), beats_of(&new, 8, &mut rng));
    let mut uut = reset_block!(ZvcDecompressorE8);
    // The old tensor goes in while nothing is taken out: the pipeline fills and stalls.
    let mut src = Source::new(old_beats.len());
    for _ in 0..60 {
        offer_beat(&mut uut, &old_beats, &mut src, &mut rng, 100);
        settle(&mut uut);
        src.handshake(uut.in_ready.val());
        clock_cycle!(&mut uut);
    }
    assert!(
        uut.out_valid.val(),
        "the old tensor's blocks reached the output"
    );
    uut.in_valid.next = false;
    uut.rst.next = true;
    settle(&mut uut);
    clock_cycle!(&mut uut);
    uut.rst.next = false;
    let mut src = Source::new(new_beats.len());
    let mut out = vec![];
    for _ in 0..200 {
        offer_beat(&mut uut, &new_beats, &mut src, &mut rng, 100);
        uut.out_ready.next = true;
        settle(&mut uut);
        if uut.out_valid.val() {
            out.push((from_bus(uut.out_data.val(), 8, 32), uut.out_last.val()));
        }
        src.handshake(uut.in_ready.val());
        clock_cycle!(&mut uut);
    }
    assert!(!uut.error.val());
    assert_eq!(out, expected(&new));
}
