//! SSSE3 block kernels (x86-64 only, chosen at run time).
//!
//! A block is processed in groups of lanes: 4 elements (16 bytes) for E=32, 8 elements for
//! E=16 (16 bytes) and E=8 (8 bytes). A compare + `pmovmskb` gives the group's mask bits,
//! and one `pshufb` with a 256-entry table moves the non-zero lanes together (compaction) or
//! back to their positions with zeros in between (expansion). Per 32-element block that is
//! 4–8 groups of about ten instructions, against about 250 for the scalar kernel; both kernels
//! produce identical bytes (the tests run them against each other).
//!
//! Why SSSE3 and not AVX2/AVX-512: it is present on every x86-64 CPU of the last 15 years,
//! and it already makes the codec memory-bound on the corpus (see docs/PERFORMANCE.md).

use std::arch::x86_64::{
    __m128i, _mm_castsi128_ps, _mm_cmpeq_epi16, _mm_cmpeq_epi32, _mm_cmpeq_epi8, _mm_loadl_epi64,
    _mm_loadu_si128, _mm_movemask_epi8, _mm_movemask_ps, _mm_packs_epi16, _mm_setzero_si128,
    _mm_shuffle_epi8, _mm_storel_epi64, _mm_storeu_si128,
};
use std::mem::MaybeUninit;
use std::sync::OnceLock;

use super::blocks::{decode_fast_blocks, encode_full_blocks, Kernel};
use crate::FormatError;

/// Token proving the CPU supports SSSE3, for `B`-byte elements; only [`Ssse3::detect`]
/// makes one.
#[derive(Clone, Copy)]
pub(super) struct Ssse3<const B: usize>(());

impl<const B: usize> Ssse3<B> {
    /// Returns the token if this CPU has SSSE3 and the environment variable
    /// `CDMA_MODEL_FORCE_SCALAR` was not set when the model was first used (a switch for
    /// measuring and testing the portable kernel; read once, then cached).
    #[inline]
    pub(super) fn detect() -> Option<Ssse3<B>> {
        static USE_SSSE3: OnceLock<bool> = OnceLock::new();
        let ok = *USE_SSSE3.get_or_init(|| {
            std::env::var_os("CDMA_MODEL_FORCE_SCALAR").is_none()
                && std::is_x86_feature_detected!("ssse3")
        });
        ok.then_some(Ssse3(()))
    }
}

/// Lanes per group: a group is one 16-byte vector for 16/32-bit elements; for bytes it is
/// 8 lanes (8 bytes) so that the shuffle tables stay at 256 entries.
const fn group_lanes(b: usize) -> usize {
    if b == 4 {
        4
    } else {
        8
    }
}

/// `pshufb` controls for `b`-byte lanes, indexed by the group's non-zero-lane bits. With
/// `expand == false` the selected lanes move to the front in order (compaction); with
/// `expand == true` the first popcount(index) lanes go to the selected positions and the other
/// lanes become zero (0x80 selects zero). Unused entries (index ≥ 2^lanes) stay 0x80.
const fn shuffle_table(b: usize, expand: bool) -> [[u8; 16]; 256] {
    let lanes = group_lanes(b);
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < (1 << lanes) {
        let mut k = 0;
        let mut lane = 0;
        while lane < lanes {
            if (m >> lane) & 1 == 1 {
                let mut x = 0;
                while x < b {
                    if expand {
                        t[m][lane * b + x] = (k * b + x) as u8;
                    } else {
                        t[m][k * b + x] = (lane * b + x) as u8;
                    }
                    x += 1;
                }
                k += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
}

const fn popcount_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
}

static COMPRESS_1: [[u8; 16]; 256] = shuffle_table(1, false);
static COMPRESS_2: [[u8; 16]; 256] = shuffle_table(2, false);
static COMPRESS_4: [[u8; 16]; 256] = shuffle_table(4, false);
static EXPAND_1: [[u8; 16]; 256] = shuffle_table(1, true);
static EXPAND_2: [[u8; 16]; 256] = shuffle_table(2, true);
static EXPAND_4: [[u8; 16]; 256] = shuffle_table(4, true);
/// Population count of a byte (a table: `popcnt` is not in baseline x86-64).
static POPCOUNT8: [u8; 256] = popcount_table();

/// Loads one group: 16 bytes, or 8 bytes (upper half zero) for byte elements.
///
/// # Safety
/// SSSE3 (SSE2 here) available; `p` readable for 16 (`B` ≥ 2) or 8 (`B` = 1) bytes.
#[inline(always)]
unsafe fn load_group<const B: usize>(p: *const u8) -> __m128i {
    // SAFETY: forwarded to the caller.
    unsafe {
        if B == 1 {
            _mm_loadl_epi64(p.cast())
        } else {
            _mm_loadu_si128(p.cast())
        }
    }
}

/// Stores one group (16 or 8 bytes, as [`load_group`]).
///
/// # Safety
/// As [`load_group`], with `p` writable.
#[inline(always)]
unsafe fn store_group<const B: usize>(p: *mut MaybeUninit<u8>, v: __m128i) {
    // SAFETY: forwarded to the caller.
    unsafe {
        if B == 1 {
            _mm_storel_epi64(p.cast(), v)
        } else {
            _mm_storeu_si128(p.cast(), v)
        }
    }
}

/// Bit `l` set ⇔ lane `l` of the group is zero (all its bytes).
///
/// # Safety
/// SSSE3 available.
#[inline(always)]
unsafe fn zero_lanes<const B: usize>(v: __m128i) -> usize {
    // SAFETY: forwarded to the caller.
    unsafe {
        let z = _mm_setzero_si128();
        match B {
            4 => _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, z))) as usize & 0xF,
            // Narrow the 8 16-bit lane results to bytes, then one bit per lane.
            2 => _mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(v, z), z)) as usize & 0xFF,
            _ => _mm_movemask_epi8(_mm_cmpeq_epi8(v, z)) as usize & 0xFF,
        }
    }
}

fn tables<const B: usize>() -> (&'static [[u8; 16]; 256], &'static [[u8; 16]; 256]) {
    match B {
        4 => (&COMPRESS_4, &EXPAND_4),
        2 => (&COMPRESS_2, &EXPAND_2),
        _ => (&COMPRESS_1, &EXPAND_1),
    }
}

impl<const B: usize, const N: usize> Kernel<N> for Ssse3<B> {
    #[inline(always)]
    fn compact(self, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (u32, usize) {
        let lanes = group_lanes(B);
        let group_bytes = lanes * B; // 16, or 8 for bytes
        let (compress, _) = tables::<B>();
        let all = (1usize << lanes) - 1;
        let mut pos = 0usize;
        let mut mask = 0u32;
        for g in 0..N / group_bytes {
            // SAFETY: `self` proves SSSE3. The load reads src[g·gb..(g+1)·gb] ⊆ src[..N]
            // (gb = group bytes). The store writes gb bytes at byte B·pos; pos ≤ lanes·g
            // (at most `lanes` kept per earlier group), so B·pos + gb ≤ gb·(g+1) ≤ N: inside
            // `dst`. Unaligned access is what these loads/stores are for, and writing
            // initialised bytes into MaybeUninit<u8> is always allowed.
            let nz = unsafe {
                let v = load_group::<B>(src.as_ptr().add(g * group_bytes));
                let nz = !zero_lanes::<B>(v) & all;
                let ctl = _mm_loadu_si128(compress[nz].as_ptr().cast());
                store_group::<B>(dst.as_mut_ptr().add(B * pos), _mm_shuffle_epi8(v, ctl));
                nz
            };
            mask |= (nz as u32) << (lanes * g);
            pos += usize::from(POPCOUNT8[nz]);
        }
        (mask, pos)
    }

    #[inline(always)]
    fn expand(self, mask: u32, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (usize, bool) {
        let lanes = group_lanes(B);
        let group_bytes = lanes * B;
        let (_, expand) = tables::<B>();
        let all = (1u32 << lanes) - 1;
        let mut pos = 0usize;
        let mut zero_seen = 0usize;
        for g in 0..N / group_bytes {
            let sel = ((mask >> (lanes * g)) & all) as usize;
            // SAFETY: `self` proves SSSE3. The load reads group bytes at byte B·pos with
            // pos ≤ lanes·g, so B·pos + gb ≤ gb·(g+1) ≤ N: inside `src`. The store writes
            // dst[g·gb..(g+1)·gb].
            let z = unsafe {
                let v = load_group::<B>(src.as_ptr().add(B * pos));
                let ctl = _mm_loadu_si128(expand[sel].as_ptr().cast());
                let e = _mm_shuffle_epi8(v, ctl);
                store_group::<B>(dst.as_mut_ptr().add(g * group_bytes), e);
                zero_lanes::<B>(e)
            };
            // A lane whose mask bit is set must not be zero.
            zero_seen |= z & sel;
            pos += usize::from(POPCOUNT8[sel]);
        }
        (pos, zero_seen != 0)
    }
}

/// SSSE3 instance of [`encode_full_blocks`] for `B`-byte elements (`N` = 32·B).
pub(super) fn encode_full_blocks_ssse3<const B: usize, const N: usize>(
    k: Ssse3<B>,
    data: &[u8],
    spare: &mut [MaybeUninit<u8>],
) -> usize {
    // SAFETY: the token `k` proves the CPU supports SSSE3.
    unsafe { encode_ssse3::<B, N>(k, data, spare) }
}

/// SSSE3 instance of [`decode_fast_blocks`] for `B`-byte elements (`N` = 32·B).
pub(super) fn decode_fast_blocks_ssse3<const B: usize, const N: usize>(
    k: Ssse3<B>,
    payload: &[u8],
    n_full: usize,
    spare: &mut [MaybeUninit<u8>],
) -> Result<(usize, usize), FormatError> {
    // SAFETY: the token `k` proves the CPU supports SSSE3.
    unsafe { decode_ssse3::<B, N>(k, payload, n_full, spare) }
}

// The loops are instantiated inside `target_feature` functions so the kernel's intrinsics
// are inlined into them (an intrinsic cannot be inlined into code compiled without SSSE3).
#[target_feature(enable = "ssse3")]
unsafe fn encode_ssse3<const B: usize, const N: usize>(
    k: Ssse3<B>,
    data: &[u8],
    spare: &mut [MaybeUninit<u8>],
) -> usize {
    encode_full_blocks::<Ssse3<B>, B, N>(k, data, spare)
}

#[target_feature(enable = "ssse3")]
unsafe fn decode_ssse3<const B: usize, const N: usize>(
    k: Ssse3<B>,
    payload: &[u8],
    n_full: usize,
    spare: &mut [MaybeUninit<u8>],
) -> Result<(usize, usize), FormatError> {
    decode_fast_blocks::<Ssse3<B>, B, N>(k, payload, n_full, spare)
}

#[cfg(test)]
mod tests {
    use super::super::blocks::{compact_block, expand_block};
    use super::*;
    use crate::rng::XorShift64;

    /// The SSSE3 kernel must equal the scalar one on every lane pattern in every group
    /// position, including the bytes it leaves in the compacted slots.
    fn kernel_matches_scalar<const B: usize, const N: usize>() {
        let Some(k) = Ssse3::<B>::detect() else {
            eprintln!("no SSSE3 on this CPU: kernel not tested");
            return;
        };
        let mut rng = XorShift64::new(0x0123_4567_89AB_CDEF);
        for round in 0..4000usize {
            let seed = rng.next();
            let mask_in = match round {
                0..32 => 1u32 << round,
                32..64 => !(1u32 << (round - 32)),
                _ => seed as u32,
            };
            let mut src = [0u8; N];
            for i in 0..32 {
                if (mask_in >> i) & 1 == 1 {
                    // Non-zero with a single set byte in varying positions.
                    src[B * i + (i + round) % B] = (seed >> (i % 56)) as u8 | 1;
                }
            }
            let mut d1 = [MaybeUninit::new(0xEEu8); N];
            let mut d2 = [MaybeUninit::new(0xEEu8); N];
            let (m1, c1) = compact_block::<B, N>(&src, &mut d1);
            let (m2, c2) = k.compact(&src, &mut d2);
            assert_eq!((m1, c1), (m2, c2), "B={B} mask {mask_in:#x}");
            assert_eq!(m1, mask_in);
            // SAFETY: all N bytes were initialised with 0xEE above.
            let (b1, b2) = unsafe { (d1.map(|b| b.assume_init()), d2.map(|b| b.assume_init())) };
            assert_eq!(b1[..B * c1], b2[..B * c2]);

            let mut e1 = [MaybeUninit::new(0u8); N];
            let mut e2 = [MaybeUninit::new(0u8); N];
            let mut packed = [0x55u8; N];
            packed[..B * c1].copy_from_slice(&b1[..B * c1]);
            let r1 = expand_block::<B, N>(m1, &packed, &mut e1);
            let r2 = k.expand(m1, &packed, &mut e2);
            assert_eq!(r1, r2);
            assert_eq!(r1, (c1, false));
            // SAFETY: initialised with 0 above.
            let (x1, x2) = unsafe { (e1.map(|b| b.assume_init()), e2.map(|b| b.assume_init())) };
            assert_eq!(x1, x2);
            assert_eq!(x1, src);

            // A stored zero element must be flagged by both.
            if c1 > 0 {
                let z = (seed as usize >> 3) % c1;
                packed[B * z..B * z + B].fill(0);
                assert!(expand_block::<B, N>(m1, &packed, &mut e1).1);
                assert!(k.expand(m1, &packed, &mut e2).1);
            }
        }
    }

    #[test]
    fn ssse3_kernels_match_scalar() {
        kernel_matches_scalar::<1, 32>();
        kernel_matches_scalar::<2, 64>();
        kernel_matches_scalar::<4, 128>();
    }
}
