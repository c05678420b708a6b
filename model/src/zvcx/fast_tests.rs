//! The fast model against the oracle (the first, straightforward model, `oracle`): the same
//! bits from the encoders and the same elements or the same error from the decoders, on
//! float-like tensors of every type, random bytes, random payloads and payloads with flipped
//! bits, truncated or extended.

use super::*;
use crate::rng::XorShift64;

/// The generator with the two draws these tests use.
struct Rng(XorShift64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(XorShift64::new(seed))
    }

    /// Uniform in 0..n (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.0.next() % n
    }

    fn next_u32(&mut self) -> u32 {
        self.0.next() as u32
    }
}

/// Float-like elements of `ty`: runs of zeros, repeats, values over a few binades, the odd
/// special (anything), so every mode, k and escape count is met.
fn float_like(ty: ElemType, n: usize, rng: &mut Rng) -> Vec<u8> {
    let (e, m) = (ty.exp_bits(), ty.man_bits());
    let bits = ty.width().bits();
    let zero_pct = rng.below(100) as u32;
    let spread = 1 + rng.below(12) as u32;
    let mut last = 1u32;
    let mut out = Vec::new();
    for _ in 0..n {
        let pick = rng.below(100) as u32;
        let x = if pick < zero_pct {
            0
        } else if pick.is_multiple_of(7) {
            last
        } else if pick.is_multiple_of(11) || e == 0 {
            rng.next_u32()
        } else {
            let base = (1u32 << (e - 1)) - 1;
            let exp = base.saturating_sub(rng.below(spread as u64) as u32);
            let sign = u32::from(pick.is_multiple_of(13));
            sign << (e + m) | exp << m | (rng.next_u32() & ((1 << m) - 1))
        };
        let x = if bits == 32 { x } else { x & ((1 << bits) - 1) };
        if x != 0 {
            last = x;
        }
        out.extend_from_slice(&x.to_le_bytes()[..ty.width().bytes()]);
    }
    out
}

fn same_decoding(payload: &[u8], ty: ElemType, n: usize) {
    let want = oracle::decode(payload, ty, n).map_err(FormatError::ZvcX);
    let got = decode(payload, ty, n);
    assert_eq!(got, want, "{ty} n={n} payload {payload:02x?}");
    // The decoder compiled for any CPU, against the one built with this CPU's features.
    assert_eq!(
        decode_portable(payload, ty, n).map_err(FormatError::ZvcX),
        got,
        "portable {ty} n={n} payload {payload:02x?}"
    );
}

#[test]
fn encoders_write_the_same_bits() {
    let mut rng = Rng::new(1);
    for round in 0..400 {
        for ty in ElemType::ALL {
            let n = if round % 4 == 0 {
                rng.below(70) as usize
            } else {
                rng.below(1100) as usize
            };
            let data = float_like(ty, n, &mut rng);
            let want = oracle::encode(&data, ty);
            assert_eq!(encode(&data, ty).unwrap(), want, "{ty} n={n} round {round}");
            assert_eq!(decode(&want, ty, n).unwrap(), data, "{ty} n={n}");
        }
    }
}

/// Corpus-like elements of `ty`: ReLU activations, i.e. about half zeros in runs and
/// positive values of a few binades around 1, plus max-pool-like repeats.
fn relu_like(ty: ElemType, n: usize, rng: &mut Rng) -> Vec<u8> {
    let (e, m) = (ty.exp_bits(), ty.man_bits());
    let bytes = ty.width().bytes();
    let mut out = Vec::new();
    let mut zero_run = false;
    let mut last = 0u32;
    for _ in 0..n {
        if rng.below(8) == 0 {
            zero_run = !zero_run;
        }
        let x = if zero_run {
            0
        } else if rng.below(10) == 0 && last != 0 {
            last
        } else if e == 0 {
            rng.next_u32() >> (32 - 8 * bytes as u32 + rng.below(8) as u32)
        } else {
            let base = (1u32 << (e - 1)) - 1;
            let exp = base.saturating_sub(rng.below(6) as u32) + u32::from(rng.below(4) == 0);
            exp << m | (rng.next_u32() & ((1 << m) - 1))
        };
        last = x;
        out.extend_from_slice(&x.to_le_bytes()[..bytes]);
    }
    out
}

#[test]
fn simd_and_portable_scans_write_the_same_bits() {
    // On a CPU without the SIMD kernel both are the portable scan; `encode` then still
    // meets the oracle in the other tests.
    let mut rng = Rng::new(4);
    for round in 0..600 {
        for ty in ElemType::ALL {
            let n = rng.below(if round % 3 == 0 { 70 } else { 1100 }) as usize;
            let data = match round % 3 {
                0 => (0..n * ty.width().bytes())
                    .map(|_| rng.next_u32() as u8)
                    .collect(),
                1 => float_like(ty, n, &mut rng),
                _ => relu_like(ty, n, &mut rng),
            };
            let fast = encode(&data, ty).unwrap();
            assert_eq!(fast, encode_portable(&data, ty), "{ty} n={n} round {round}");
            if round % 5 == 0 {
                assert_eq!(fast, oracle::encode(&data, ty), "{ty} n={n} round {round}");
            }
        }
    }
}

#[test]
fn decoders_agree_on_mutated_payloads() {
    let mut rng = Rng::new(2);
    for round in 0..1500 {
        for ty in ElemType::ALL {
            let n = 1 + rng.below(100) as usize;
            let data = float_like(ty, n, &mut rng);
            let mut p = oracle::encode(&data, ty);
            match round % 4 {
                0 => {
                    let i = rng.below(p.len() as u64) as usize;
                    p[i] ^= 1 << rng.below(8);
                }
                1 => p.truncate(rng.below(p.len() as u64) as usize),
                2 => p.push(rng.next_u32() as u8),
                _ => {
                    for _ in 0..1 + rng.below(4) {
                        let i = rng.below(p.len() as u64) as usize;
                        p[i] = rng.next_u32() as u8;
                    }
                }
            }
            same_decoding(&p, ty, n);
            // The same payload read as a different length.
            same_decoding(&p, ty, rng.below(120) as usize);
        }
    }
}

#[test]
fn decoders_agree_on_random_payloads() {
    let mut rng = Rng::new(3);
    for _ in 0..3000 {
        for ty in ElemType::ALL {
            let len = rng.below(200) as usize;
            let p: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
            same_decoding(&p, ty, rng.below(100) as usize);
        }
    }
}

#[test]
fn params_match_the_types() {
    for ty in ElemType::ALL {
        let p = params_of(ty);
        assert_eq!(p.width, ty.width().bits(), "{ty}");
        assert_eq!(p.float, ty.is_float(), "{ty}");
        assert_eq!(p.exp_bits, ty.exp_bits(), "{ty}");
        assert_eq!(p.k_bits, ty.spec().k_bits(), "{ty}");
        if ty.is_float() {
            assert_eq!(p.man_bits, ty.man_bits(), "{ty}");
            assert_eq!(p.abs_mask, (1 << (p.width - 1)) - 1, "{ty}");
        } else {
            // A raw element is one field: no exponent or mantissa to split off.
            assert_eq!((p.man_bits, p.abs_mask), (0, u32::MAX), "{ty}");
        }
        assert_eq!(p.exp_max, (1 << p.exp_bits) - 1, "{ty}");
    }
}

#[test]
fn an_absurd_element_count_is_an_error_not_an_allocation() {
    // Four zero blocks, then the stream ends inside block 4, however many are asked for.
    for ty in ElemType::ALL {
        for n in [200, 1 << 40, usize::MAX / 4, usize::MAX] {
            let want = oracle::decode(&[0], ty, 200).map_err(FormatError::ZvcX);
            assert!(
                matches!(
                    want,
                    Err(FormatError::ZvcX(ZvcxError::EndsInsideBlock {
                        block: 4,
                        ..
                    }))
                ),
                "{want:?}"
            );
            assert_eq!(decode(&[0], ty, n), want, "{ty} n={n}");
        }
    }
}
