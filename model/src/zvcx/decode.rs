//! The ZVC-X decoder: reads blocks in stream order and checks each rule of docs/FORMAT.md
//! ("ZVC-X decoding rules") as it meets the field concerned, so the first fault is reported.
//!
//! How it is fast (docs/PERFORMANCE.md, "Golden model: ZVC-X"): one instance per element
//! type with every width a constant; codes read by table lookup on the next 8 (mode) or 4
//! (delta) bits; every read is one 8-byte load and a shift ([`BitReader`]), and a block's
//! fields, when all are in the payload, are read at their known positions without a bounds
//! test each; a field's escape and underflow checks share one rarely taken branch; blocks are
//! decoded in place into a zero-filled output, so a zero block costs only its code.

use cdma_spec::zvcx::{
    ModeKind, Positions, BLOCK_ELEMS, DELTAS, GROUP_ELEMS, LIST_COUNT_BITS, LIST_INDEX_BITS,
    NESC_BITS,
};

use super::bits::BitReader;
use super::tables::{DELTA_OF_PREFIX, DELTA_PREFIX_BITS, MODE_OF_PREFIX, MODE_PREFIX_BITS};
use super::{Params, ZvcxError};

const BLOCK: usize = BLOCK_ELEMS as usize;

/// Where the block being decoded starts (for errors).
#[derive(Clone, Copy)]
struct At {
    block: usize,
    bit: u64,
}

/// Reads `bits` bits or fails with [`ZvcxError::EndsInsideBlock`].
#[inline(always)]
fn need(r: &mut BitReader, at: At, bits: u32) -> Result<u64, ZvcxError> {
    match r.get(bits) {
        Some(v) => Ok(v),
        None => Err(ends_inside(r, at, bits)),
    }
}

#[cold]
fn ends_inside(r: &BitReader, at: At, bits: u32) -> ZvcxError {
    ZvcxError::EndsInsideBlock {
        block: at.block,
        bit: at.bit,
        needed: bits,
        available: r.remaining(),
    }
}

/// Decodes one chunk's payload (elements of `B` bytes with `E` exponent and `M` mantissa
/// bits) into `n_elems` elements appended to `out`.
pub(super) fn decode_chunk<const B: usize, const E: u32, const M: u32>(
    payload: &[u8],
    n_elems: usize,
    out: &mut Vec<u8>,
) -> Result<(), ZvcxError> {
    #[cfg(target_arch = "x86_64")]
    if super::x86::Avx2::detect().is_some() {
        // SAFETY: the token exists only if the CPU has every feature the function enables.
        return unsafe { decode_chunk_avx2::<B, E, M>(payload, n_elems, out) };
    }
    decode_chunk_with::<B, E, M>(payload, n_elems, out)
}

/// The decoder compiled with AVX2, BMI1/2 and POPCNT enabled (no intrinsics: the
/// compiler's own code for shifts, bit counts and copies).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn decode_chunk_avx2<const B: usize, const E: u32, const M: u32>(
    payload: &[u8],
    n_elems: usize,
    out: &mut Vec<u8>,
) -> Result<(), ZvcxError> {
    decode_chunk_with::<B, E, M>(payload, n_elems, out)
}

/// The decoder proper (the same code whatever the CPU; compiled a second time with BMI1/2
/// and POPCNT where the CPU has them: variable shifts without flags, `tzcnt`, `popcnt`).
#[inline(always)]
pub(super) fn decode_chunk_with<const B: usize, const E: u32, const M: u32>(
    payload: &[u8],
    n_elems: usize,
    out: &mut Vec<u8>,
) -> Result<(), ZvcxError> {
    let mut r = BitReader::new(payload);
    let mut prev = None;
    // Blocks are decoded in place into zeros, so a zero block costs nothing more than its
    // code (the caller cuts `out` back on error). Every block takes at least 2 bits, so the
    // stream ends inside block `4 · payload bytes` at the latest: no more than that many
    // blocks are zero-filled at once, whatever `n_elems` says.
    let start = out.len();
    let sized = n_elems.min(
        payload
            .len()
            .saturating_mul(4)
            .saturating_add(1)
            .saturating_mul(BLOCK),
    );
    out.resize(start + sized * B, 0);
    let mut block = 0;
    for dst in out[start..].chunks_mut(BLOCK * B) {
        let at = At {
            block,
            bit: r.pos(),
        };
        decode_block::<B, E, M>(&mut r, (dst.len() / B) as u32, &mut prev, at, dst)?;
        block += 1;
    }
    // Not reached when `sized < n_elems` (the stream ended before); kept so that the bound is
    // not load-bearing: the rest block by block.
    let mut first = sized;
    while first < n_elems {
        let len = (n_elems - first).min(BLOCK);
        let at_byte = out.len();
        out.resize(at_byte + len * B, 0);
        let at = At {
            block,
            bit: r.pos(),
        };
        decode_block::<B, E, M>(&mut r, len as u32, &mut prev, at, &mut out[at_byte..])?;
        first += len;
        block += 1;
    }
    let rest = r.remaining();
    if rest >= 8 {
        return Err(ZvcxError::ExcessPayload { bits: rest });
    }
    let pad = r.peek(rest as u32);
    if pad != 0 {
        return Err(ZvcxError::PaddingNotZero { value: pad });
    }
    Ok(())
}

/// The non-zero mask of a coded block's positions.
#[inline(always)]
fn read_positions(
    r: &mut BitReader,
    at: At,
    positions: Positions,
    len: u32,
) -> Result<u32, ZvcxError> {
    let all = if len == 32 { u32::MAX } else { (1 << len) - 1 };
    let past = |elem| ZvcxError::PositionPastEnd {
        block: at.block,
        bit: at.bit,
        elem,
        len,
    };
    let nz = match positions {
        Positions::Dense => all,
        Positions::List => {
            let count = need(r, at, LIST_COUNT_BITS)? as u32 + 1;
            let mut nz = 0u32;
            let mut previous: Option<u32> = None;
            for _ in 0..count {
                let index = need(r, at, LIST_INDEX_BITS)? as u32;
                if index >= len {
                    return Err(past(index));
                }
                if let Some(previous) = previous.filter(|&q| q >= index) {
                    return Err(ZvcxError::ListNotIncreasing {
                        block: at.block,
                        bit: at.bit,
                        index,
                        previous,
                    });
                }
                previous = Some(index);
                nz |= 1 << index;
            }
            nz
        }
        Positions::Group => {
            let map = need(r, at, BLOCK_ELEMS / GROUP_ELEMS)? as u32;
            let mut nz = 0u32;
            let mut groups = map;
            while groups != 0 {
                let group = groups.trailing_zeros();
                groups &= groups - 1;
                let sub = need(r, at, GROUP_ELEMS)? as u32;
                if sub == 0 {
                    return Err(ZvcxError::EmptyGroup {
                        block: at.block,
                        bit: at.bit,
                        group,
                    });
                }
                nz |= sub << (group * GROUP_ELEMS);
            }
            nz
        }
        Positions::Mask => need(r, at, BLOCK_ELEMS)? as u32,
    };
    if nz & !all != 0 {
        return Err(past((nz & !all).trailing_zeros()));
    }
    if nz == 0 {
        return Err(ZvcxError::NoNonZero {
            block: at.block,
            bit: at.bit,
        });
    }
    Ok(nz)
}

/// The block's largest exponent: absolute for the chunk's first coded block, else a delta
/// code against `prev`.
#[inline(always)]
fn read_max_exp<const B: usize, const E: u32, const M: u32>(
    r: &mut BitReader,
    at: At,
    prev: Option<u32>,
) -> Result<u32, ZvcxError> {
    let p = const { Params::new(B, E, M) };
    let Some(prev) = prev else {
        return Ok(need(r, at, E)? as u32);
    };
    let (class, prefix_bits) = DELTA_OF_PREFIX[r.peek(DELTA_PREFIX_BITS) as usize];
    need(r, at, prefix_bits)?;
    let value = match class {
        None => return Ok(need(r, at, E)? as u32),
        Some(i) => {
            let c = DELTAS[i];
            if c.min == 0 {
                i64::from(prev)
            } else {
                let negative = need(r, at, 1)? == 1;
                let magnitude = i64::from(c.min) + need(r, at, c.extra)? as i64;
                i64::from(prev) + if negative { -magnitude } else { magnitude }
            }
        }
    };
    if !(0..=i64::from(p.exp_max)).contains(&value) {
        return Err(ZvcxError::MaxExpOutOfRange {
            block: at.block,
            bit: at.bit,
            value,
            max: p.exp_max,
        });
    }
    Ok(value as u32)
}

/// The repeat flags of the non-zeros `nz` as a mask by element: one flag per non-zero after
/// the first, read at once (a stream that ends inside them fails as reading them one by one
/// would: at the first missing flag, with nothing left).
#[inline(always)]
fn read_repeats(r: &mut BitReader, at: At, nz: u32) -> Result<u32, ZvcxError> {
    let later = nz & (nz - 1);
    let n_flags = later.count_ones();
    if u64::from(n_flags) > r.remaining() {
        return Err(ZvcxError::EndsInsideBlock {
            block: at.block,
            bit: at.bit,
            needed: 1,
            available: 0,
        });
    }
    let flags = need(r, at, n_flags)? as u32;
    let (mut rep, mut t, mut bits) = (0u32, 0, later);
    while bits != 0 {
        rep |= ((flags >> t) & 1) << bits.trailing_zeros();
        bits &= bits - 1;
        t += 1;
    }
    Ok(rep)
}

/// Decodes one block of `len` elements into `dst` (`len` elements of zeros).
#[inline(always)]
fn decode_block<const B: usize, const E: u32, const M: u32>(
    r: &mut BitReader,
    len: u32,
    prev: &mut Option<u32>,
    at: At,
    dst: &mut [u8],
) -> Result<(), ZvcxError> {
    let p = const { Params::new(B, E, M) };
    let (kind, code_bits) = MODE_OF_PREFIX[r.peek(MODE_PREFIX_BITS) as usize];
    need(r, at, code_bits)?;
    let mut v = [0u32; BLOCK];
    let (positions, repeat) = match kind {
        ModeKind::Zero => return Ok(()),
        ModeKind::Raw => {
            for x in v.iter_mut().take(len as usize) {
                *x = need(r, at, p.width)? as u32;
            }
            store::<B>(&v, dst);
            return Ok(());
        }
        ModeKind::Coded { positions, repeat } => (positions, repeat),
    };
    let nz = read_positions(r, at, positions, len)?;
    let (mut max_exp, mut k, mut declared, mut sgn) = (0, 0, 0, 0);
    if p.float {
        max_exp = read_max_exp::<B, E, M>(r, at, *prev)?;
        k = need(r, at, p.k_bits)? as u32;
        if k > E {
            return Err(ZvcxError::KTooLarge {
                block: at.block,
                bit: at.bit,
                k,
                exp_bits: E,
            });
        }
        declared = need(r, at, NESC_BITS)? as u32;
        sgn = 1 - need(r, at, 1)? as u32;
        *prev = Some(max_exp);
    }
    let rep = if repeat { read_repeats(r, at, nz)? } else { 0 };
    // Kept elements first, each at its place; repeats are copied once the escaped exponents
    // are in.
    let kept = nz & !rep;
    let mut escaped = 0u32;
    // The smallest kept element, escaped ones without their exponent yet.
    let mut low = u32::MAX;
    let mut bits = kept;
    if p.float {
        let field_bits = k + sgn + M;
        let lim = (1u32 << k) - 1;
        // Offsets at or above this are an escape or an underflow.
        let special = if p.escapes(k) {
            lim.min(max_exp + 1)
        } else {
            max_exp + 1
        };
        // When every field is in the payload (the common case), they are read at their
        // known positions, without a test each and without waiting for each other.
        let fits = u64::from(kept.count_ones() * field_bits) <= r.remaining();
        // One kept element from its field.
        let mut element = |i: u32, field: u32| -> Result<(), ZvcxError> {
            let off = field >> (sgn + M);
            let mut exp = max_exp.wrapping_sub(off);
            if off >= special {
                if p.escapes(k) && off == lim {
                    escaped |= 1 << i;
                    exp = 0; // filled in from the escapes below
                } else {
                    return Err(ZvcxError::ExponentUnderflow {
                        block: at.block,
                        bit: at.bit,
                        elem: i,
                        offset: off,
                        max_exp,
                    });
                }
            }
            // With sgn = 0 the sign term is 0.
            let x = ((field >> M) & sgn) << (E + M) | exp << M | (field & p.man_mask);
            v[i as usize] = x;
            low = low.min(x);
            Ok(())
        };
        if fits {
            let mut next = r.pos();
            while bits != 0 {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                element(i, r.peek_at(next, field_bits) as u32)?;
                next += u64::from(field_bits);
            }
            r.seek(next);
        } else {
            while bits != 0 {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                element(i, need(r, at, field_bits)? as u32)?;
            }
        }
    } else {
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            let x = need(r, at, p.width)? as u32;
            v[i as usize] = x;
            low = low.min(x);
        }
    }
    if escaped.count_ones() != declared {
        return Err(ZvcxError::EscapeCount {
            block: at.block,
            bit: at.bit,
            declared,
            found: escaped.count_ones(),
            k,
        });
    }
    let mut bits = escaped;
    while bits != 0 {
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        v[i as usize] |= (need(r, at, E)? as u32) << M;
    }
    // A repeat copies an earlier element, so only the kept ones can be zero; the first one
    // is looked for only when there is one.
    if low == 0 {
        if let Some(elem) = (0..len).find(|&i| (kept >> i) & 1 == 1 && v[i as usize] == 0) {
            return Err(ZvcxError::ZeroElement {
                block: at.block,
                bit: at.bit,
                elem,
            });
        }
    }
    // In increasing order, so a repeat of a repeat copies a value already in place.
    let mut bits = rep;
    while bits != 0 {
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        // The previous non-zero: the highest set bit of `nz` below `i` (a repeat is never
        // the first non-zero, so there is one).
        let before = nz & ((1u32 << i) - 1);
        v[i as usize] = v[(31 - before.leading_zeros()) as usize];
    }
    store::<B>(&v, dst);
    Ok(())
}

/// Writes the first `dst.len() / B` elements of `v` into `dst`, `B` bytes each,
/// little-endian.
#[inline(always)]
fn store<const B: usize>(v: &[u32; BLOCK], dst: &mut [u8]) {
    for (d, x) in dst.chunks_exact_mut(B).zip(v) {
        d.copy_from_slice(&x.to_le_bytes()[..B]);
    }
}
