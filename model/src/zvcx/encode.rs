//! The ZVC-X encoder: for each block, every (repeat flags, positions, k) choice is costed
//! and the cheapest is written, ties going to no repeat flags, then dense < list < group <
//! mask, then the smaller k (docs/FORMAT.md, "ZVC-X encoder choices"); raw only when
//! strictly cheaper. The RTL compressor makes the same choices, so its bits are these.
//!
//! How it is fast (docs/PERFORMANCE.md, "Golden model: ZVC-X"): one instance per element
//! type with every width a constant; a first pass over all 32 lanes without branches
//! (non-zero mask, largest exponent, any sign) that the compiler vectorizes, so an all-zero
//! block costs that pass and one 2-bit code; one pass over the non-zeros that compacts them
//! and gathers what the costing needs (repeat flags, the OR of the exponent offsets, and the
//! escape count at every k from one table load and add per element, [`ESCAPES_AT`]), so
//! costing a choice is arithmetic on counts; fields written from the compacted values, codes
//! and headers merged into as few puts as fit. Where the CPU has AVX2 (run-time detection,
//! `super::x86`), the block scan, the fields and the group code are vector kernels and the
//! two passes above one scan of four 8-lane vectors; the bits are the same.

use cdma_spec::zvcx::{
    Positions, BLOCK_ELEMS, GROUP_ELEMS, LIST_COUNT_BITS, LIST_INDEX_BITS, LIST_MAX, NESC_BITS,
    NESC_MAX,
};

use super::bits::BitWriter;
use super::scan::{group_map, load, scan_portable, Fields, Scan};
use super::tables::{DELTA_CODES, DELTA_ESCAPE_CODE, DELTA_MAX, KINDS, MODE_CODES};
use super::Params;

const BLOCK: usize = BLOCK_ELEMS as usize;

/// Appends the ZVC-X payload of `data` (whole elements of `B` bytes with `E` exponent and
/// `M` mantissa bits) to `out`: with the AVX2 block scan where the CPU has it (and
/// `CDMA_MODEL_FORCE_SCALAR` is unset), else the portable one; both write the same bits.
pub(super) fn encode_chunk<const B: usize, const E: u32, const M: u32>(
    data: &[u8],
    out: &mut Vec<u8>,
) {
    #[cfg(target_arch = "x86_64")]
    if super::x86::Avx2::detect().is_some() {
        // SAFETY: the token exists only if the CPU has every feature the function enables.
        return unsafe { encode_chunk_avx2::<B, E, M>(data, out) };
    }
    encode_chunk_with::<B, E, M, false>(data, out);
}

/// The whole encoder with the AVX2 kernels, compiled with the features enabled (so the
/// kernels inline into it, and the rest gets `popcnt`/`tzcnt`/`shlx`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn encode_chunk_avx2<const B: usize, const E: u32, const M: u32>(
    data: &[u8],
    out: &mut Vec<u8>,
) {
    encode_chunk_with::<B, E, M, true>(data, out);
}

/// [`encode_chunk`] with the portable block scan, whatever the CPU: for the tests that hold
/// the two scans to the same bits.
#[cfg(test)]
pub(super) fn encode_chunk_portable<const B: usize, const E: u32, const M: u32>(
    data: &[u8],
    out: &mut Vec<u8>,
) {
    encode_chunk_with::<B, E, M, false>(data, out);
}

/// The encoder proper; `SIMD`: the block scan is [`super::x86::scan`] (only instantiated
/// true inside `encode_chunk_avx2`, whose features that scan needs).
#[inline(always)]
pub(super) fn encode_chunk_with<const B: usize, const E: u32, const M: u32, const SIMD: bool>(
    data: &[u8],
    out: &mut Vec<u8>,
) {
    // No zero-fill of the worst case up front (every block raw: several times what the
    // corpus compresses to, and zero-filling it cost ~5 % of the time): the writer grows
    // the vector in steps of `GROW_STEP` bytes as it writes.
    let mut w = BitWriter::new(out);
    let mut prev = None;
    let blocks = data.chunks_exact(BLOCK * B);
    let rest = blocks.remainder();
    for block in blocks {
        encode_block::<B, E, M, SIMD>(&mut w, block, BLOCK as u32, &mut prev);
    }
    if !rest.is_empty() {
        let len = (rest.len() / B) as u32;
        // Zero-padded to a whole block, which the scans read.
        let mut padded = [0u8; BLOCK * 4];
        padded[..rest.len()].copy_from_slice(rest);
        encode_block::<B, E, M, SIMD>(&mut w, &padded[..BLOCK * B], len, &mut prev);
    }
    w.finish();
}

/// The cheapest body (repeat flags + fields + escaped exponents) of `f` and its `k`, the
/// smallest on a tie; `sgn`: whether fields hold a sign bit. Costs k = 0 (only if every
/// exponent is the largest), each 0 < k < e with at most 3 escapes, and k = e (never an
/// escape), in increasing k: unrolled, since e is a constant.
#[inline(always)]
fn best_body<const B: usize, const E: u32, const M: u32>(f: Fields, sgn: u32) -> (u32, u32) {
    let p = const { Params::new(B, E, M) };
    if !p.float {
        return (f.flags + f.count * p.width, 0);
    }
    let base = f.flags + f.count * (sgn + M);
    // Without branches (which k wins depends on the data): each candidate as the key
    // `bits << 4 | k`, so the smallest key is the fewest bits, then the smallest k; an
    // impossible candidate is u32::MAX (bits stay below 2^20: at most 32 fields of 32 bits
    // plus headers).
    let key = |bits: u32, k: u32, ok: bool| if ok { bits << 4 | k } else { u32::MAX };
    let mut best = key(base, 0, f.offsets == 0);
    for k in 1..E {
        let esc = ((f.escapes >> (8 * k)) & 0xFF) as u32; // k < e ≤ 8: shift ≤ 56
        best = best.min(key(base + f.count * k + esc * E, k, esc <= NESC_MAX));
    }
    best = best.min(key(base + f.count * E, E, true));
    (best >> 4, best & 0xF)
}

/// The escape count at offset width `k` from the summed [`ESCAPES_AT`] bytes (0 where `k`
/// has no escapes).
#[inline(always)]
fn escapes_at<const B: usize, const E: u32, const M: u32>(escapes: u64, k: u32) -> u32 {
    let p = const { Params::new(B, E, M) };
    if p.escapes(k) {
        ((escapes >> (8 * k)) & 0xFF) as u32 // k < e ≤ 8: the shift is at most 56
    } else {
        0
    }
}

/// Bits of the position code of each kind ([`KINDS`] order) for non-zero mask `nz` (`n`
/// non-zeros, block of `len` elements); `u32::MAX` where the kind cannot express it.
#[inline(always)]
fn positions_bits(nz: u32, n: u32, len: u32) -> [u32; 4] {
    [
        if n == len { 0 } else { u32::MAX },
        if n <= LIST_MAX {
            LIST_COUNT_BITS + LIST_INDEX_BITS * n
        } else {
            u32::MAX
        },
        BLOCK_ELEMS / GROUP_ELEMS + GROUP_ELEMS * group_map(nz).count_ones(),
        BLOCK_ELEMS,
    ]
}

/// The largest-exponent code (value, bits): absolute for the chunk's first coded block, else
/// the delta code against `prev` (the escape and the absolute value when |d| > 7).
#[inline(always)]
fn max_exp_code<const E: u32>(max_exp: u32, prev: Option<u32>) -> (u64, u32) {
    let Some(prev) = prev else {
        return (u64::from(max_exp), E);
    };
    let d = max_exp as i32 - prev as i32;
    if d.unsigned_abs() <= DELTA_MAX {
        let c = DELTA_CODES[(d + DELTA_MAX as i32) as usize];
        (u64::from(c.bits), c.len)
    } else {
        let c = DELTA_ESCAPE_CODE;
        (u64::from(c.bits) | u64::from(max_exp) << c.len, c.len + E)
    }
}

/// Scans block `block` (`BLOCK * B` bytes, unused lanes 0): None if every element is 0, else the [`Scan`],
/// with the non-zeros compacted in order into `cbuf[1..=n]` (`cbuf[0]` 0, lanes past `n`
/// unspecified). `SIMD`: with the AVX2 kernel (the caller is AVX2-enabled).
#[inline(always)]
fn scan<const B: usize, const E: u32, const M: u32, const SIMD: bool>(
    block: &[u8],
    cbuf: &mut [u32; BLOCK + 1],
) -> Option<Scan> {
    #[cfg(target_arch = "x86_64")]
    if SIMD {
        // SAFETY: `SIMD` is only true in code instantiated by `encode_chunk_avx2`,
        // whose token proves AVX2 (and the other features `x86::scan` enables) are present.
        return unsafe { super::x86::scan::<B, E, M>(block, cbuf) };
    }
    scan_portable::<B, E, M>(&load::<B>(block), cbuf)
}

/// Encodes one block of `len` (1..=32) elements, `block` (`BLOCK * B` bytes, the elements
/// past `len` 0). `prev`: the largest
/// exponent of the chunk's previous coded block, updated when this one is coded.
#[inline(always)]
fn encode_block<const B: usize, const E: u32, const M: u32, const SIMD: bool>(
    w: &mut BitWriter,
    block: &[u8],
    len: u32,
    prev: &mut Option<u32>,
) {
    let p = const { Params::new(B, E, M) };
    // `cbuf[0]` stays 0 (the AVX2 scan compares each non-zero with the one before it);
    // the non-zeros are compacted into `cbuf[1..]`.
    let mut cbuf = [0u32; BLOCK + 1];
    assert_eq!(block.len(), BLOCK * B, "a whole block"); // the SIMD scan relies on it
    let Some(Scan {
        nz,
        max_exp,
        sgn,
        rep,
        all,
        kept,
    }) = scan::<B, E, M, SIMD>(block, &mut cbuf)
    else {
        w.put_code(MODE_CODES.zero);
        return;
    };
    let c = &cbuf[1..];
    let n = all.count;
    let n_mask = if n == 32 { u32::MAX } else { (1 << n) - 1 };
    let (exp_code, exp_bits) = max_exp_code::<E>(max_exp, *prev);
    let header = if p.float {
        exp_bits + p.k_bits + NESC_BITS + 1
    } else {
        0
    };
    let positions = positions_bits(nz, n, len);
    // (total bits, repeat, kind index, k)
    let mut best = (u32::MAX, false, 0usize, 0u32);
    for repeat in [false, true] {
        if repeat && rep == 0 {
            continue; // never cheaper: longer mode codes and flags for nothing
        }
        let f = if repeat { kept } else { all };
        let (body, k) = best_body::<B, E, M>(f, sgn);
        for (ki, &pos) in positions.iter().enumerate() {
            if pos == u32::MAX {
                continue;
            }
            let total = MODE_CODES.coded[usize::from(repeat)][ki].len + pos + header + body;
            if total < best.0 {
                best = (total, repeat, ki, k);
            }
        }
    }
    let (total, repeat, ki, k) = best;
    if MODE_CODES.raw.len + len * p.width < total {
        w.put_code(MODE_CODES.raw);
        for x in block.chunks_exact(B).take(len as usize) {
            let mut b = [0u8; 4];
            b[..B].copy_from_slice(x);
            w.put_bits(u64::from(u32::from_le_bytes(b)), p.width);
        }
        return;
    }

    // The mode code and the positions in one put (at most 8 + 40 bits), then the block
    // header and the repeat flags in another (at most 12 + 4 + 2 + 1 + 31 bits).
    let mode = MODE_CODES.coded[usize::from(repeat)][ki];
    let (pos_code, pos_bits) = match KINDS[ki] {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `SIMD` is only true in code instantiated by `encode_chunk_avx2`,
        // whose token proves BMI2.
        Positions::Group if SIMD => unsafe { super::x86::group_code(nz) },
        kind => positions_code(kind, nz, n),
    };
    w.put_bits(
        u64::from(mode.bits) | pos_code << mode.len,
        mode.len + pos_bits,
    );
    let stored = if repeat { kept } else { all };
    let n_esc = escapes_at::<B, E, M>(stored.escapes, k);
    let (mut head, mut head_bits) = (0u64, 0u32);
    if p.float {
        *prev = Some(max_exp);
        let all_positive = 1 - sgn;
        let fields = k | n_esc << p.k_bits | all_positive << (p.k_bits + NESC_BITS);
        head = exp_code | u64::from(fields) << exp_bits;
        head_bits = exp_bits + p.k_bits + NESC_BITS + 1;
    }
    // The stored non-zeros, by compacted index: all, or all but the repeats.
    let stored_mask = if repeat {
        // One flag per non-zero after the first.
        head |= u64::from(rep >> 1) << head_bits;
        head_bits += n - 1;
        n_mask & !rep
    } else {
        n_mask
    };
    w.put_bits(head, head_bits);
    let lim = (1u32 << k) - 1;
    let field = |x: u32| -> u64 {
        if p.float {
            // An escaped offset is written as all ones (k bits); its exponent follows later.
            // Without any sign set (sgn = 0) the sign term is 0.
            let code = (max_exp - p.exp_of(x)).min(lim);
            u64::from(code << (M + sgn) | (x >> (E + M)) << M | (x & p.man_mask))
        } else {
            u64::from(x)
        }
    };
    let field_bits = if p.float { k + sgn + M } else { p.width };
    // With the SIMD fields: the escaped non-zeros, by compacted index.
    let mut escaped = 0u32;
    if repeat {
        let mut bits = stored_mask;
        while bits != 0 {
            let x = c[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            w.put_bits(field(x), field_bits);
        }
    } else if SIMD {
        // Fields computed and paired in vector registers, then two per put (or one each
        // when two do not fit a put).
        // (`SIMD` is never true elsewhere; the branch still compiles there.)
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut pairs = [0u64; BLOCK / 2];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `SIMD` is only true in code instantiated by `encode_chunk_avx2`,
        // whose token proves AVX2 (and the other features `x86::field_pairs` enables).
        {
            escaped = unsafe {
                super::x86::field_pairs::<B, E, M>(&cbuf, n, max_exp, k, sgn, &mut pairs)
            };
        }
        let whole = &pairs[..n as usize / 2];
        if 2 * field_bits <= 56 {
            for &pair in whole {
                w.put_bits(pair, 2 * field_bits);
            }
        } else {
            let low = (1u64 << field_bits) - 1;
            for &pair in whole {
                w.put_bits(pair & low, field_bits);
                w.put_bits(pair >> field_bits, field_bits);
            }
        }
        if n % 2 == 1 {
            w.put_bits(
                pairs[n as usize / 2] & ((1u64 << field_bits) - 1),
                field_bits,
            );
        }
    } else if 2 * field_bits <= 56 {
        // Two fields per put where they fit.
        let pairs = c[..n as usize].chunks_exact(2);
        let odd = pairs.remainder();
        for pair in pairs {
            w.put_bits(
                field(pair[0]) | field(pair[1]) << field_bits,
                2 * field_bits,
            );
        }
        if let [x] = odd {
            w.put_bits(field(*x), field_bits);
        }
    } else {
        for &x in &c[..n as usize] {
            w.put_bits(field(x), field_bits);
        }
    }
    if SIMD && !repeat {
        // The escaped ones are known: no test per element.
        while escaped != 0 {
            let exp = p.exp_of(c[escaped.trailing_zeros() as usize]);
            escaped &= escaped - 1;
            w.put_bits(u64::from(exp), E);
        }
    } else if n_esc > 0 {
        let mut bits = stored_mask;
        while bits != 0 {
            let exp = p.exp_of(c[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
            if max_exp - exp >= lim {
                w.put_bits(u64::from(exp), E);
            }
        }
    }
}

/// The position code of `kind` for non-zero mask `nz` (`n` non-zeros): its value and bits.
#[inline(always)]
fn positions_code(kind: Positions, nz: u32, n: u32) -> (u64, u32) {
    match kind {
        Positions::Dense => (0, 0),
        Positions::List => {
            // n − 1, then each index (at most 2 + 4 × 5 bits).
            let mut code = u64::from(n - 1);
            let mut at = LIST_COUNT_BITS;
            let mut bits = nz;
            while bits != 0 {
                code |= u64::from(bits.trailing_zeros()) << at;
                at += LIST_INDEX_BITS;
                bits &= bits - 1;
            }
            (code, at)
        }
        Positions::Group => {
            // The map, then each occupied group's 4-bit mask (at most 8 + 8 × 4 bits).
            let map = group_map(nz);
            let mut code = u64::from(map);
            let mut at = BLOCK_ELEMS / GROUP_ELEMS;
            let mut groups = map;
            while groups != 0 {
                let g = groups.trailing_zeros();
                groups &= groups - 1;
                code |= u64::from((nz >> (g * GROUP_ELEMS)) & 0xF) << at;
                at += GROUP_ELEMS;
            }
            (code, at)
        }
        Positions::Mask => (u64::from(nz), BLOCK_ELEMS),
    }
}
