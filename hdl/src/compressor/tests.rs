use super::*;
use crate::testutil::*;

type Beat = (Vec<u64>, usize, bool);

/// Drives a sequence of tensors through the compressor with random (seeded) valid and
/// ready patterns and returns the beats it hands over plus the cycle count.
macro_rules! run_fn {
    ($fname:ident, $ty:ty, $e:expr) => {
        fn $fname(
            tensors: &[Vec<Vec<u64>>],
            valid_pct: u64,
            ready_pct: u64,
            seed: u64,
        ) -> (Vec<Beat>, u64) {
            let e: usize = $e;
            let p = 32 + 32 / e;
            let mut rng = XorShift64::new(seed);
            let mut uut = reset_block!($ty);
            let inputs: Vec<(Vec<u64>, bool)> = tensors
                .iter()
                .flat_map(|t| {
                    t.iter()
                        .enumerate()
                        .map(move |(i, b)| (b.clone(), i + 1 == t.len()))
                })
                .collect();
            let mut src = Source::new(inputs.len());
            let (mut out, mut cycles, mut lasts) = (vec![], 0, 0);
            while lasts < tensors.len() {
                assert!(cycles < 20 * inputs.len() as u64 + 100, "compressor hangs");
                uut.in_valid.next = src.offer(&mut rng, valid_pct);
                if let Some(i) = src.current() {
                    uut.in_data.next = to_bus(&inputs[i].0, e);
                    uut.in_last.next = inputs[i].1;
                }
                uut.out_ready.next = rng.chance(ready_pct);
                settle(&mut uut);
                if uut.out_valid.val() && uut.out_ready.val() {
                    let last = uut.out_last.val();
                    out.push((
                        from_bus(uut.out_data.val(), e, p),
                        uut.out_count.val().to_u64() as usize,
                        last,
                    ));
                    lasts += usize::from(last);
                }
                src.handshake(uut.in_ready.val());
                clock_cycle!(&mut uut);
                cycles += 1;
            }
            assert!(src.done(), "output ended before all input was taken");
            (out, cycles)
        }
    };
}

run_fn!(run8, ZvcCompressorE8, 8);
run_fn!(run32, ZvcCompressorE32, 32);

fn expected(tensors: &[Vec<Vec<u64>>], e: u32) -> Vec<Beat> {
    tensors.iter().flat_map(|t| reference_beats(t, e)).collect()
}

fn mixed_tensor(rng: &mut XorShift64, e: u32, n: usize) -> Vec<Vec<u64>> {
    let pcts = [0, 100, 50, 90, 10, 60, 100, 0, 30];
    (0..n)
        .map(|i| random_block(rng, e, pcts[i % pcts.len()]))
        .collect()
}

#[test]
fn e8_full_rate_matches_reference() {
    let mut rng = XorShift64::new(1);
    let t = vec![mixed_tensor(&mut rng, 8, 12)];
    let (out, cycles) = run8(&t, 100, 100, 7);
    assert_eq!(out, expected(&t, 8));
    // One block per cycle: 12 blocks, 10 cycles of latency, one flush beat at most.
    assert!(cycles <= 12 + 11, "took {cycles} cycles for 12 blocks");
}

#[test]
fn e8_sustains_one_block_per_cycle_over_back_to_back_tensors() {
    // 4 tensors of 100 blocks: one cycle per block, one empty slot behind each last block,
    // the pipeline's latency once.
    let mut rng = XorShift64::new(11);
    let t: Vec<_> = (0..4).map(|_| mixed_tensor(&mut rng, 8, 100)).collect();
    let (out, cycles) = run8(&t, 100, 100, 12);
    assert_eq!(out, expected(&t, 8));
    assert!(
        cycles <= 400 + 4 + 11,
        "took {cycles} cycles for 400 blocks"
    );
}

#[test]
fn e8_backpressure_and_back_to_back_tensors() {
    let mut rng = XorShift64::new(2);
    // Three tensors: a partial final beat, an exactly full final beat (9 dense blocks of
    // 36 lanes) and one whose last block overflows the beat (flush takes two beats).
    let dense: Vec<Vec<u64>> = (0..9).map(|_| random_block(&mut rng, 8, 0)).collect();
    let overflow = vec![random_block(&mut rng, 8, 40), random_block(&mut rng, 8, 0)];
    let t = vec![mixed_tensor(&mut rng, 8, 5), dense, overflow];
    let want = expected(&t, 8);
    assert!(
        want.iter().any(|b| b.2 && b.1 < 36),
        "case without a partial final beat"
    );
    assert!(
        want.iter().any(|b| b.2 && b.1 == 36),
        "case without a full final beat"
    );
    for seed in [3, 4] {
        let (out, _) = run8(&t, 70, 60, seed);
        assert_eq!(out, want, "seed {seed}");
    }
}

#[test]
fn e32_matches_reference() {
    let mut rng = XorShift64::new(5);
    let t = vec![
        mixed_tensor(&mut rng, 32, 4),
        vec![random_block(&mut rng, 32, 100)],
    ];
    let (out, _) = run32(&t, 80, 70, 6);
    assert_eq!(out, expected(&t, 32));
}
