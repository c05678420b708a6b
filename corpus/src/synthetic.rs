//! Synthetic edge-case tensors, generated at test time.
//!
//! These exist to hit the corners real activations rarely reach (all zero, no zero, `-0.0`, NaN
//! payloads, denormals, alternating patterns, lengths that are not multiples of the 32-element
//! block). They are never written into `data/activations` nor counted in corpus figures: keep
//! them apart so sparsity statistics stay those of real networks.
//!
//! Every tensor is a little-endian byte array of `elem_bits / 8`-byte elements, for element widths
//! 8, 16 and 32 (the widths of the ZVC format). The generator is a fixed xorshift stream, so the
//! set is identical on every run and machine.

/// One synthetic tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synthetic {
    /// Descriptive unique name, e.g. `e16.neg_zero.len33`.
    pub name: String,
    /// Element width in bits: 8, 16 or 32.
    pub elem_bits: u32,
    /// Little-endian elements.
    pub bytes: Vec<u8>,
}

impl Synthetic {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.bytes.len() / (self.elem_bits as usize / 8)
    }

    /// True if the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The elements as bit patterns widened to u32.
    pub fn words(&self) -> Vec<u32> {
        let n = self.elem_bits as usize / 8;
        self.bytes
            .chunks_exact(n)
            .map(|c| c.iter().rev().fold(0u32, |acc, &b| (acc << 8) | u32::from(b)))
            .collect()
    }
}

/// Element widths covered.
pub const ELEM_BITS: [u32; 3] = [8, 16, 32];

/// Lengths covered by the length sweep: 1..=100, which crosses the 32-element block boundary
/// three times and includes every partial final block size.
pub const LENGTHS: std::ops::RangeInclusive<usize> = 1..=100;

/// Deterministic xorshift64* stream (no external RNG: the set must never change silently).
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Special bit patterns for one element width.
struct Patterns {
    neg_zero: u32,
    nans: Vec<u32>,
    denormals: Vec<u32>,
    all_ones: u32,
}

fn patterns(elem_bits: u32) -> Patterns {
    match elem_bits {
        // 8-bit elements have no float meaning here; the sign-bit and all-ones patterns still
        // exercise "non-zero" in the codec.
        8 => Patterns {
            neg_zero: 0x80,
            nans: vec![0xFF, 0x7F, 0x81],
            denormals: vec![0x01, 0x02, 0x10],
            all_ones: 0xFF,
        },
        16 => Patterns {
            neg_zero: 0x8000,
            // f16 quiet/signalling NaNs with payloads, both signs; bf16 NaNs too.
            nans: vec![0x7E00, 0x7C01, 0xFE55, 0x7FFF, 0x7FC0, 0xFF81],
            // f16 and bf16 subnormals, smallest and largest, both signs.
            denormals: vec![0x0001, 0x03FF, 0x8001, 0x007F, 0x8040],
            all_ones: 0xFFFF,
        },
        _ => Patterns {
            neg_zero: 0x8000_0000,
            nans: vec![0x7FC0_0000, 0x7F80_0001, 0xFFC1_2345, 0x7FFF_FFFF, 0xFF80_0001],
            denormals: vec![0x0000_0001, 0x007F_FFFF, 0x8000_0001, 0x0040_0000],
            all_ones: 0xFFFF_FFFF,
        },
    }
}

fn to_bytes(elem_bits: u32, words: &[u32]) -> Vec<u8> {
    let n = elem_bits as usize / 8;
    words
        .iter()
        .flat_map(|w| w.to_le_bytes().into_iter().take(n))
        .collect()
}

/// All synthetic edge tensors, for every element width in [`ELEM_BITS`].
///
/// Families (each at several lengths, including ones that are not multiples of 32):
/// `zeros`, `nonzero` (random, no zero element), `neg_zero` (only `-0.0`), `neg_zero_mix`
/// (`-0.0` and `+0` alternating), `nan` (NaN payloads and zeros), `denormal` (subnormals and
/// zeros), `alternating` (zero / non-zero), `all_ones`, `empty`, and `len<L>` random tensors of
/// about 50 % zeros for every length L in [`LENGTHS`].
pub fn edge_tensors() -> Vec<Synthetic> {
    let mut out = Vec::new();
    let mut rng = XorShift(0x0C0D_AC0D_E5EE_D001);
    for elem_bits in ELEM_BITS {
        let mask = if elem_bits == 32 {
            u32::MAX
        } else {
            (1u32 << elem_bits) - 1
        };
        let p = patterns(elem_bits);
        let mut push = |name: String, words: Vec<u32>| {
            out.push(Synthetic {
                name: format!("e{elem_bits}.{name}"),
                elem_bits,
                bytes: to_bytes(elem_bits, &words),
            });
        };
        push("empty".into(), vec![]);
        for len in [1usize, 31, 32, 33, 64, 95, 100] {
            push(format!("zeros.len{len}"), vec![0; len]);
            let nonzero = (0..len)
                .map(|_| match (rng.next() as u32) & mask {
                    0 => 1,
                    w => w,
                })
                .collect();
            push(format!("nonzero.len{len}"), nonzero);
            push(format!("neg_zero.len{len}"), vec![p.neg_zero; len]);
            let mix = (0..len)
                .map(|i| if i % 2 == 0 { p.neg_zero } else { 0 })
                .collect();
            push(format!("neg_zero_mix.len{len}"), mix);
            let nan = (0..len)
                .map(|i| if i % 3 == 2 { 0 } else { p.nans[i % p.nans.len()] })
                .collect();
            push(format!("nan.len{len}"), nan);
            let den = (0..len)
                .map(|i| {
                    if i % 4 == 3 {
                        0
                    } else {
                        p.denormals[i % p.denormals.len()]
                    }
                })
                .collect();
            push(format!("denormal.len{len}"), den);
            for phase in 0..2 {
                let alt = (0..len)
                    .map(|i| if i % 2 == phase { 0 } else { mask & 0x3C00_3C01 })
                    .collect();
                push(format!("alternating{phase}.len{len}"), alt);
            }
            push(format!("all_ones.len{len}"), vec![p.all_ones; len]);
        }
        for len in LENGTHS {
            let words = (0..len)
                .map(|_| {
                    let r = rng.next();
                    if r & 1 == 0 {
                        0
                    } else {
                        ((r >> 16) as u32 & mask).max(1)
                    }
                })
                .collect();
            push(format!("len{len}"), words);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn names_are_unique_and_widths_consistent() {
        let all = edge_tensors();
        let names: BTreeSet<_> = all.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names.len(), all.len(), "duplicate synthetic names");
        for t in &all {
            assert!(ELEM_BITS.contains(&t.elem_bits), "{}", t.name);
            assert_eq!(t.bytes.len() % (t.elem_bits as usize / 8), 0, "{}", t.name);
            assert!(t.name.starts_with(&format!("e{}.", t.elem_bits)), "{}", t.name);
        }
    }

    #[test]
    fn families_have_their_defining_property() {
        let all = edge_tensors();
        let get = |name: &str| all.iter().find(|t| t.name == name).unwrap().words();
        for e in ELEM_BITS {
            let sign = 1u32 << (e - 1);
            assert!(get(&format!("e{e}.zeros.len33")).iter().all(|&w| w == 0));
            let nz = get(&format!("e{e}.nonzero.len95"));
            assert_eq!(nz.len(), 95);
            assert!(nz.iter().all(|&w| w != 0));
            assert!(get(&format!("e{e}.neg_zero.len31")).iter().all(|&w| w == sign));
            assert!(get(&format!("e{e}.empty")).is_empty());
            let alt = get(&format!("e{e}.alternating0.len33"));
            assert!(alt.iter().step_by(2).all(|&w| w == 0));
            assert!(alt.iter().skip(1).step_by(2).all(|&w| w != 0));
        }
        // f32 NaNs keep distinct payloads; f16 denormals are subnormal (exponent field 0).
        let nan = get("e32.nan.len100");
        assert!(nan.contains(&0xFFC1_2345) && nan.contains(&0x7F80_0001));
        let den = get("e16.denormal.len100");
        assert!(den
            .iter()
            .all(|&w| w == 0 || (w & 0x7C00 == 0 && w & 0x3FF != 0)));
    }

    #[test]
    fn length_sweep_covers_partial_blocks_with_mixed_zeros() {
        let all = edge_tensors();
        for e in ELEM_BITS {
            for len in LENGTHS {
                let t = all
                    .iter()
                    .find(|t| t.name == format!("e{e}.len{len}"))
                    .unwrap();
                assert_eq!(t.len(), len);
            }
            // Over the sweep, both zeros and non-zeros occur in the right proportion.
            let words: Vec<u32> = all
                .iter()
                .filter(|t| t.elem_bits == e && t.name.starts_with(&format!("e{e}.len")))
                .flat_map(|t| t.words())
                .collect();
            let zeros = words.iter().filter(|&&w| w == 0).count();
            assert!(
                zeros * 10 > words.len() * 4 && zeros * 10 < words.len() * 6,
                "e{e}: {zeros} zeros of {}",
                words.len()
            );
        }
    }

    #[test]
    fn the_set_is_stable() {
        // Two calls give the same bytes: the stream is seeded, not time- or address-based.
        assert_eq!(edge_tensors(), edge_tensors());
    }
}
