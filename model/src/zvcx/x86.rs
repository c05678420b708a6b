//! The AVX2 block scan of the ZVC-X encoder (x86-64 only, chosen at run time; the portable
//! scan, `encode::scan_portable`, is the fallback and the tests hold both to the same
//! result and the same bits).
//!
//! A block's 32 lanes (widened to 32 bits whatever the element type) are four 8-lane
//! vectors. Compare + `movmskps` give the non-zero mask; one `vpermd` with a 256-entry index
//! table compacts each vector's non-zeros, stored one after the other; one compare of the
//! compacted lanes against themselves shifted by one lane gives the repeat flags. The
//! escape summary is computed in all lanes at once: a lane's offset `o` escapes at width `k`
//! iff `o + 1 ≥ 2^k`, i.e. iff `k ≤ L = ⌊log2(o + 1)⌋`, and `L` is the exponent of `o + 1`
//! converted to a float; the bytes `1..=L` of the lane's 64-bit [`ESCAPES_AT`] entry are
//! built as two 32-bit "thermometers" with variable shifts and summed across lanes (each
//! byte counts at most 32 lanes, so the bytes never carry into each other).
//!
//! [`ESCAPES_AT`]: super::tables::ESCAPES_AT

use std::arch::x86_64::_pext_u32;
use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi32,
    _mm256_blendv_epi8, _mm256_castsi256_ps, _mm256_castsi256_si128, _mm256_cmpeq_epi32,
    _mm256_cmpeq_epi8, _mm256_cvtepu16_epi32, _mm256_cvtepu8_epi32, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_max_epu32, _mm256_min_epu32, _mm256_min_epu8, _mm256_movemask_epi8,
    _mm256_movemask_ps, _mm256_or_si256, _mm256_packs_epi16, _mm256_packs_epi32,
    _mm256_packus_epi16, _mm256_packus_epi32, _mm256_permutevar8x32_epi32, _mm256_set1_epi32,
    _mm256_set1_epi64x, _mm256_set1_epi8, _mm256_setr_epi32, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_sll_epi32, _mm256_sll_epi64, _mm256_slli_epi16, _mm256_srl_epi32,
    _mm256_srli_epi16, _mm256_srli_epi64, _mm256_srlv_epi32, _mm256_storeu_si256, _mm256_sub_epi32,
    _mm256_sub_epi8, _mm_cvtsi128_si32, _mm_cvtsi32_si128, _mm_loadl_epi64, _mm_loadu_si128,
    _mm_max_epu32, _mm_or_si128, _mm_shuffle_epi32,
};
use std::sync::OnceLock;

use cdma_spec::zvcx::{BLOCK_ELEMS, GROUP_ELEMS};

use super::scan::{group_map, Fields, Scan};
use super::Params;

const BLOCK: usize = 32;

/// Token proving the CPU has AVX2, POPCNT, BMI1 and BMI2; only [`Avx2::detect`] makes one.
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The token if this CPU has the features and the environment variable
    /// `CDMA_MODEL_FORCE_SCALAR` was not set when first asked (the switch, shared with ZVC,
    /// for measuring the portable path; read once, then cached).
    #[inline]
    pub(super) fn detect() -> Option<Avx2> {
        static USE_AVX2: OnceLock<bool> = OnceLock::new();
        let ok = *USE_AVX2.get_or_init(|| {
            std::env::var_os("CDMA_MODEL_FORCE_SCALAR").is_none()
                && std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
        });
        ok.then_some(Avx2(()))
    }
}

/// `vpermd` indices compacting the lanes set in the index (8 bits) to the front, in order,
/// as eight 4-bit lane numbers (lane `j`'s source in bits `4j..4j+4`; unused lanes 0).
const COMPACT: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut j, mut idx) = (0, 0, 0u32);
        while lane < 8 {
            if (m >> lane) & 1 == 1 {
                idx |= lane << (4 * j);
                j += 1;
            }
            lane += 1;
        }
        t[m as usize] = idx;
        m += 1;
    }
    t
};

/// The AVX2 version of `encode::scan_portable`: the same result, the same compacted lanes
/// `cbuf[1..=n]` (lanes past `n` hold other lanes of the block; `cbuf[0]` is not touched).
///
/// # Safety
/// The CPU must have AVX2, POPCNT, BMI1 and BMI2, and `block` must hold `32 * B` bytes
/// (checked).
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
pub(super) unsafe fn scan<const B: usize, const E: u32, const M: u32>(
    block: &[u8],
    cbuf: &mut [u32; BLOCK + 1],
) -> Option<Scan> {
    let p = const { Params::new(B, E, M) };
    assert!(block.len() >= BLOCK * B && B <= 4);
    // The lanes, widened to 32 bits straight from the bytes (not through a stack copy,
    // whose narrow stores would stall these wide loads).
    // SAFETY (every load and store below): each reads 8 lanes inside `block` (checked
    // above) or writes 8 lanes inside `cbuf` (at most at 25: 1 + the non-zeros of the
    // first three vectors, ≤ 24).
    let zero = _mm256_setzero_si256();
    let (mut x, mut is_zero) = ([zero; 4], [zero; 4]);
    for i in 0..4 {
        let at = block[8 * B * i..].as_ptr();
        x[i] = match B {
            4 => unsafe { _mm256_loadu_si256(at.cast()) },
            2 => _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(at.cast()) }),
            _ => _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(at.cast()) }),
        };
        is_zero[i] = _mm256_cmpeq_epi32(x[i], zero);
    }
    let mut nz = 0u32;
    for (i, z) in is_zero.iter().enumerate() {
        nz |= (!_mm256_movemask_ps(_mm256_castsi256_ps(*z)) as u32 & 0xFF) << (8 * i);
    }
    if nz == 0 {
        return None;
    }
    let n = nz.count_ones();

    // Compaction: each vector's non-zeros (`packed`, lanes 0..pc) stored right after the
    // previous vector's. Repeat flags in registers: packed lane j against lane j − 1, lane
    // 0 against the last non-zero before (`last`, all lanes; 0 before the first, which
    // never equals a non-zero).
    let nibble_shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    let up_one = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
    let (mut packed, mut kept_bits) = ([zero; 4], [0u32; 4]);
    let (mut at, mut rep, mut last) = (0u32, 0u32, zero);
    for i in 0..4 {
        let m = (nz >> (8 * i)) & 0xFF;
        let pc = m.count_ones();
        let idx = _mm256_srlv_epi32(_mm256_set1_epi32(COMPACT[m as usize] as i32), nibble_shifts);
        let idx = _mm256_and_si256(idx, _mm256_set1_epi32(7));
        let pk = _mm256_permutevar8x32_epi32(x[i], idx);
        unsafe { _mm256_storeu_si256(cbuf.as_mut_ptr().add(1 + at as usize).cast(), pk) };
        let before = _mm256_blend_epi32::<1>(_mm256_permutevar8x32_epi32(pk, up_one), last);
        let eq = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(pk, before))) as u32;
        let lanes = (1u32 << pc) - 1; // pc ≤ 8
        rep |= (eq & lanes) << at; // at + 8 ≤ 32
        kept_bits[i] = lanes & !eq;
        packed[i] = pk;
        // The new last non-zero: lane pc − 1, unless this vector has none.
        let new_last = _mm256_permutevar8x32_epi32(pk, _mm256_set1_epi32(pc as i32 - 1));
        let none = _mm256_set1_epi32(-i32::from(pc == 0));
        last = _mm256_blendv_epi8(new_last, last, none);
        at += pc;
    }

    let mut all = Fields {
        count: n,
        escapes: 0,
        offsets: 0,
        flags: 0,
    };
    let mut kept = Fields {
        count: n - rep.count_ones(),
        escapes: 0,
        offsets: 0,
        flags: n - 1,
    };
    if !p.float {
        return Some(Scan {
            nz,
            max_exp: 0,
            sgn: 0,
            rep,
            all,
            kept,
        });
    }

    // Largest magnitude (zeros add nothing) and the OR of all lanes (for the sign).
    let abs = _mm256_set1_epi32(p.abs_mask as i32);
    let (mut mag, mut any) = (zero, zero);
    for &x in &x {
        mag = _mm256_max_epu32(mag, _mm256_and_si256(x, abs));
        any = _mm256_or_si256(any, x);
    }
    let mag = hmax(mag);
    let max_exp = p.exp_of(mag);
    let sgn = (hor(any) >> (E + M)) & 1;

    // All non-zeros: in place, masked by the non-zero compare.
    let mut keep = [zero; 4];
    for i in 0..4 {
        keep[i] = _mm256_andnot_si256(is_zero[i], _mm256_set1_epi32(-1));
    }
    (all.escapes, all.offsets) = summary::<E, M>(&x, &keep, max_exp);
    if rep != 0 {
        // The kept ones: the packed lanes without a repeat flag.
        let lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        for i in 0..4 {
            let b = _mm256_set1_epi32(kept_bits[i] as i32);
            keep[i] = _mm256_cmpeq_epi32(_mm256_and_si256(b, lane_bit), lane_bit);
        }
        (kept.escapes, kept.offsets) = summary::<E, M>(&packed, &keep, max_exp);
    }
    Some(Scan {
        nz,
        max_exp,
        sgn,
        rep,
        all,
        kept,
    })
}

/// Bits `k` (1..=7) set iff a byte `u` ≥ 1 with low nibble `l` has `u ≥ 2^k` by that
/// nibble alone, i.e. `k < bit length of l` (both 128-bit halves alike, for `vpshufb`).
const AT_LEAST_LO: [i8; 32] = thermometer_table(0);
/// The same for the high nibble `h`: `k < bit length of h + 4` (0 when `h` = 0).
const AT_LEAST_HI: [i8; 32] = thermometer_table(4);

const fn thermometer_table(extra: u32) -> [i8; 32] {
    let mut t = [0i8; 32];
    let mut i = 1;
    while i < 16 {
        let len = u32::BITS - (i as u32).leading_zeros() + extra;
        let mut bits = 0u32;
        let mut k = 1;
        while k < 8 && k < len {
            bits |= 1 << k;
            k += 1;
        }
        t[i] = bits as u8 as i8;
        t[i + 16] = bits as u8 as i8;
        i += 1;
    }
    t
}

/// The summed [`ESCAPES_AT`] entries of the lanes of `lanes` selected by `keep` (all ones
/// or all zeros per lane), and a word that is 0 iff all their exponent offsets are 0.
///
/// The 32 exponent offsets are packed into the 32 bytes of one vector (the packing
/// reorders lanes, which sums and ORs do not mind; the masks are packed alike, and
/// unselected lanes get offset 0, which never escapes). A byte offset `o` escapes at width
/// `k` iff `o ≥ 2^k − 1`, i.e. iff `u = min(o, 254) + 1 ≥ 2^k` (254 ≥ 127 escapes at every
/// k < 8 as 255 does); the bits `k` for which that holds are two `vpshufb` lookups, by the
/// low and by the high nibble of `u`, ORed. Then the count at each k is one shift,
/// `vpmovmskb` and `popcnt`.
///
/// [`ESCAPES_AT`]: super::tables::ESCAPES_AT
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
fn summary<const E: u32, const M: u32>(
    lanes: &[__m256i; 4],
    keep: &[__m256i; 4],
    max_exp: u32,
) -> (u64, u32) {
    let shift = _mm_cvtsi32_si128(M as i32);
    let exp_max = _mm256_set1_epi32(((1u32 << E) - 1) as i32);
    let mut exps = [_mm256_setzero_si256(); 4];
    for (e, &y) in exps.iter_mut().zip(lanes) {
        *e = _mm256_and_si256(_mm256_srl_epi32(y, shift), exp_max);
    }
    // Exponents ≤ 255: the unsigned saturating packs keep them; the all-ones / all-zeros
    // masks go through the signed packs, which keep −1 and 0.
    let e = _mm256_packus_epi16(
        _mm256_packus_epi32(exps[0], exps[1]),
        _mm256_packus_epi32(exps[2], exps[3]),
    );
    let k = _mm256_packs_epi16(
        _mm256_packs_epi32(keep[0], keep[1]),
        _mm256_packs_epi32(keep[2], keep[3]),
    );
    let off = _mm256_and_si256(_mm256_sub_epi8(_mm256_set1_epi8(max_exp as u8 as i8), e), k);
    let u = _mm256_add_epi8(
        _mm256_min_epu8(off, _mm256_set1_epi8(-2)), // 254
        _mm256_set1_epi8(1),
    );
    let nibble = _mm256_set1_epi8(0x0F);
    // SAFETY: 32-byte loads of the 32-byte tables.
    let (lo_t, hi_t) = unsafe {
        (
            _mm256_loadu_si256(AT_LEAST_LO.as_ptr().cast()),
            _mm256_loadu_si256(AT_LEAST_HI.as_ptr().cast()),
        )
    };
    let t = _mm256_or_si256(
        _mm256_shuffle_epi8(lo_t, _mm256_and_si256(u, nibble)),
        _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16::<4>(u), nibble)),
    );
    // Bit k of every byte to its bit 7 (a 16-bit shift left by s ≤ 7 fills each byte's
    // bit 7 from the same byte), then count the bytes.
    let escapes = count_bit7(_mm256_slli_epi16::<6>(t)) << 8
        | count_bit7(_mm256_slli_epi16::<5>(t)) << 16
        | count_bit7(_mm256_slli_epi16::<4>(t)) << 24
        | count_bit7(_mm256_slli_epi16::<3>(t)) << 32
        | count_bit7(_mm256_slli_epi16::<2>(t)) << 40
        | count_bit7(_mm256_slli_epi16::<1>(t)) << 48
        | count_bit7(t) << 56;
    let all_zero = _mm256_movemask_epi8(_mm256_cmpeq_epi8(off, _mm256_setzero_si256())) as u32;
    (escapes, !all_zero)
}

/// How many of the 32 bytes have bit 7 set.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn count_bit7(v: __m256i) -> u64 {
    u64::from((_mm256_movemask_epi8(v) as u32).count_ones())
}

/// The largest of the eight unsigned lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn hmax(v: __m256i) -> u32 {
    let m = _mm_max_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let m = _mm_max_epu32(m, _mm_shuffle_epi32::<0b00_00_11_10>(m));
    let m = _mm_max_epu32(m, _mm_shuffle_epi32::<0b00_00_00_01>(m));
    _mm_cvtsi128_si32(m) as u32
}

/// The OR of the eight lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn hor(v: __m256i) -> u32 {
    let m = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let m = _mm_or_si128(m, _mm_shuffle_epi32::<0b00_00_11_10>(m));
    let m = _mm_or_si128(m, _mm_shuffle_epi32::<0b00_00_00_01>(m));
    _mm_cvtsi128_si32(m) as u32
}

/// The fields of the first `n` compacted non-zeros (`cbuf[1..=n]`) for offset width `k`
/// (the encoder's `field`: the offset capped at all ones in `k` bits, the sign bit when
/// `sgn`, the mantissa; a raw element as it is), two per word: field `2j` in the low bits
/// of `pairs[j]`, field `2j + 1` above it (when `n` is odd, the last word's upper field is
/// another lane's: the caller masks it off). Returns the escaped ones (offset ≥ `2^k − 1`
/// with `0 < k < E`), bit `j` for the `j`-th non-zero.
///
/// # Safety
/// The CPU must have AVX2, POPCNT, BMI1 and BMI2.
#[inline]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
pub(super) unsafe fn field_pairs<const B: usize, const E: u32, const M: u32>(
    cbuf: &[u32; BLOCK + 1],
    n: u32,
    max_exp: u32,
    k: u32,
    sgn: u32,
    pairs: &mut [u64; BLOCK / 2],
) -> u32 {
    let p = const { Params::new(B, E, M) };
    let mut escaped = 0u32;
    let field_bits = if p.float { k + sgn + M } else { p.width };
    let shift_hi = _mm_cvtsi32_si128(field_bits as i32);
    let low32 = _mm256_set1_epi64x(0xFFFF_FFFF);
    for i in 0..(n as usize).div_ceil(8) {
        // SAFETY: 8 lanes from `cbuf[1 + 8i]`, i ≤ 3: inside its 33.
        let y = unsafe { _mm256_loadu_si256(cbuf.as_ptr().add(1 + 8 * i).cast()) };
        let f = if p.float {
            let exp = _mm256_and_si256(
                _mm256_srl_epi32(y, _mm_cvtsi32_si128(M as i32)),
                _mm256_set1_epi32(p.exp_max as i32),
            );
            let off = _mm256_sub_epi32(_mm256_set1_epi32(max_exp as i32), exp);
            let lim = _mm256_set1_epi32(((1u32 << k) - 1) as i32);
            let code = _mm256_min_epu32(off, lim);
            let at_lim = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(code, lim)));
            escaped |= (at_lim as u32 & 0xFF) << (8 * i);
            let code = _mm256_sll_epi32(code, _mm_cvtsi32_si128((M + sgn) as i32));
            // The sign bit moved down to bit M (0 in every lane when sgn = 0).
            let sign = _mm256_srl_epi32(y, _mm_cvtsi32_si128((E + M) as i32));
            let sign = _mm256_sll_epi32(sign, _mm_cvtsi32_si128(M as i32));
            let man = _mm256_and_si256(y, _mm256_set1_epi32(p.man_mask as i32));
            _mm256_or_si256(code, _mm256_or_si256(sign, man))
        } else {
            y
        };
        let even = _mm256_and_si256(f, low32);
        let odd = _mm256_sll_epi64(_mm256_srli_epi64::<32>(f), shift_hi);
        // SAFETY: 4 words at `pairs[4i]`, i ≤ 3: inside its 16.
        unsafe {
            _mm256_storeu_si256(
                pairs.as_mut_ptr().add(4 * i).cast(),
                _mm256_or_si256(even, odd),
            )
        };
    }
    let n_mask = if n == 32 { u32::MAX } else { (1 << n) - 1 };
    if p.escapes(k) {
        escaped & n_mask
    } else {
        0
    }
}

/// The group position code of non-zero mask `nz` (the encoder's `positions_code` for
/// groups: the 8-bit map of occupied groups, then each occupied group's 4-bit mask) and its
/// bits, without a loop: the occupied groups' nibbles of `nz` gathered by one `pext`.
///
/// # Safety
/// The CPU must have BMI2 and POPCNT.
#[inline]
#[target_feature(enable = "bmi2,popcnt")]
pub(super) unsafe fn group_code(nz: u32) -> (u64, u32) {
    // Bit 4j of `any`: group j holds a non-zero; times 0xF, its whole nibble (no carries:
    // one bit per nibble).
    let any = (nz | nz >> 1 | nz >> 2 | nz >> 3) & 0x1111_1111;
    let map = group_map(nz);
    let masks = _pext_u32(nz, any * 0xF);
    let groups = BLOCK_ELEMS / GROUP_ELEMS;
    (
        u64::from(map) | u64::from(masks) << groups,
        groups + GROUP_ELEMS * map.count_ones(),
    )
}
