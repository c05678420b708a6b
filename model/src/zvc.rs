//! Zero-value compression payload (docs/FORMAT.md, codec id 1): encoder and decoder.
//!
//! The bytes produced by [`encode`] are exactly what the RTL compressor emits; the testbenches
//! compare against them.
//!
//! # Speed
//! Both directions process one 32-element block at a time with a branch-free inner loop over
//! the 32 elements, monomorphised per width (`B` = bytes per element, `N` = 32·B):
//! * encode: every element is stored unconditionally at the current output slot and the slot
//!   advances by `(element != 0)`, so zeros are overwritten by the next element. No
//!   data-dependent branches, so ~50 % zeros (the worst case for a branchy loop) costs the same
//!   as any other sparsity.
//! * decode: element `i` is `src[pos]` when mask bit `i` is set, else zero; `pos` advances by
//!   the bit. The source window always holds 32 readable elements: blocks near the end of the
//!   payload are first copied into a zero-padded stack buffer.
//!
//! Slot indices are written `pos & 31` (a no-op, since `pos <= i < 32`) so the compiler can
//! prove every access in bounds of a fixed-size array and drops the checks. Output goes into
//! the vector's spare capacity as `MaybeUninit<u8>`, which avoids zero-filling it first; the
//! only `unsafe` here is the final `set_len`.
//!
//! On x86-64 the whole-block loops use the SSSE3 kernels of `zvc/x86.rs` instead (same
//! bytes, 4–8 lanes per instruction; selected once at run time, tested against the portable
//! kernel). Partial final blocks always use the portable kernel.

use std::mem::MaybeUninit;

use crate::layout::{BLOCK_ELEMS, MASK_BYTES};
use crate::{ElemWidth, FormatError};

mod blocks;
#[cfg(target_arch = "x86_64")]
mod x86;

use blocks::{
    compact_block, decode_fast_blocks, encode_full_blocks, expand_block, read_mask, window_mut,
    zero_element_error, Scalar,
};

/// Fails with [`FormatError::InputNotWholeElements`] unless `len` is a multiple of the element size.
pub(crate) fn check_whole_elements(len: usize, elem: ElemWidth) -> Result<(), FormatError> {
    if !len.is_multiple_of(elem.bytes()) {
        return Err(FormatError::InputNotWholeElements {
            len,
            elem_bytes: elem.bytes(),
        });
    }
    Ok(())
}

/// Encodes `data` (whole `elem`-wide elements) into a ZVC payload (no frame header).
pub fn encode(data: &[u8], elem: ElemWidth) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    encode_into(data, elem, &mut out)?;
    Ok(out)
}

/// Appends the ZVC payload of `data` to `out`. On error `out` is unchanged.
pub fn encode_into(data: &[u8], elem: ElemWidth, out: &mut Vec<u8>) -> Result<(), FormatError> {
    check_whole_elements(data.len(), elem)?;
    match elem {
        ElemWidth::W8 => encode_impl::<1, 32>(data, out),
        ElemWidth::W16 => encode_impl::<2, 64>(data, out),
        ElemWidth::W32 => encode_impl::<4, 128>(data, out),
    }
    Ok(())
}

/// Length in bytes of the ZVC payload of `data`, without producing it.
pub fn encoded_len(data: &[u8], elem: ElemWidth) -> Result<usize, FormatError> {
    check_whole_elements(data.len(), elem)?;
    let b = elem.bytes();
    let n_blocks = (data.len() / b).div_ceil(BLOCK_ELEMS);
    let nonzero = data
        .chunks_exact(b)
        .filter(|e| e.iter().any(|&x| x != 0))
        .count();
    Ok(n_blocks * MASK_BYTES + nonzero * b)
}

/// Decodes a ZVC payload holding exactly `n_elems` elements of width `elem`.
///
/// Every malformation is an error: the payload ending inside a block
/// ([`FormatError::PayloadEndsInsideBlock`]), mask bits past the end of a partial final block
/// ([`FormatError::MaskBitsPastEnd`]), a stored zero element
/// ([`FormatError::ZeroElementInPayload`]), bytes left after the last block
/// ([`FormatError::ExcessPayload`]), and an `n_elems` too large to allocate
/// ([`FormatError::OutputTooLarge`]). Nothing is allocated for the output before the
/// payload is known to hold all block masks, so a huge `n_elems` with a short payload is cheap.
pub fn decode(payload: &[u8], elem: ElemWidth, n_elems: usize) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    decode_into(payload, elem, n_elems, &mut out)?;
    Ok(out)
}

/// Like [`decode`], but appends to `out` (reusable buffer). On error `out` keeps its length.
pub fn decode_into(
    payload: &[u8],
    elem: ElemWidth,
    n_elems: usize,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    let b = elem.bytes();
    // Checked here, before anything is allocated; decode_impl recomputes it.
    n_elems
        .checked_mul(b)
        .filter(|&len| len <= isize::MAX as usize)
        .ok_or(FormatError::OutputTooLarge {
            n_elems: n_elems as u64,
            elem_bytes: b,
            max: isize::MAX as u64,
        })?;
    // Every block needs at least its mask; if the payload cannot even hold all masks it is
    // certainly bad, so find the exact failure point without allocating `out_len` bytes.
    let n_blocks = n_elems.div_ceil(BLOCK_ELEMS);
    if n_blocks > payload.len() / MASK_BYTES {
        return Err(locate_short_payload(payload, b, n_blocks));
    }
    match elem {
        ElemWidth::W8 => decode_impl::<1, 32>(payload, n_elems, out),
        ElemWidth::W16 => decode_impl::<2, 64>(payload, n_elems, out),
        ElemWidth::W32 => decode_impl::<4, 128>(payload, n_elems, out),
    }
}

/// The mask of block `block`, which starts at `off` in `payload`, and the bytes the block takes
/// (mask and stored elements); [`FormatError::PayloadEndsInsideBlock`] if the payload ends
/// inside its mask or its elements.
fn block_extent(
    payload: &[u8],
    off: usize,
    block: usize,
    elem_bytes: usize,
) -> Result<(u32, usize), FormatError> {
    let available = payload.len() - off;
    if available < MASK_BYTES {
        return Err(FormatError::PayloadEndsInsideBlock {
            block,
            offset: off,
            needed: MASK_BYTES,
            available,
        });
    }
    let mask = read_mask(payload, off);
    let needed = MASK_BYTES + mask.count_ones() as usize * elem_bytes;
    if needed > available {
        return Err(FormatError::PayloadEndsInsideBlock {
            block,
            offset: off,
            needed,
            available,
        });
    }
    Ok((mask, needed))
}

/// Walks the block structure of a payload known to be too short for `n_blocks` blocks and
/// returns the [`FormatError::PayloadEndsInsideBlock`] of the first incomplete block, or the
/// [`FormatError::ZeroElementInPayload`] of an earlier block (stream order, as `decode_impl`).
fn locate_short_payload(payload: &[u8], elem_bytes: usize, n_blocks: usize) -> FormatError {
    let mut off = 0;
    for block in 0..n_blocks {
        let (mask, needed) = match block_extent(payload, off, block, elem_bytes) {
            Ok(extent) => extent,
            Err(e) => return e,
        };
        // Keep the block-by-block order of the rules: a zero element in an earlier block is
        // reported before the truncation. (Only the final block can have MaskBitsPastEnd, and
        // the walk fails at or before it, with truncation first, as in the fast path.)
        let elems = &payload[off + MASK_BYTES..off + needed];
        if elems
            .chunks_exact(elem_bytes)
            .any(|e| e.iter().all(|&x| x == 0))
        {
            return zero_element_error(block, off, mask, elems, elem_bytes);
        }
        off += needed;
    }
    // Unreachable for a caller that checked `n_blocks * 4 > payload.len()`: the masks alone
    // do not fit, so the loop returns. Report the end of the payload rather than panic.
    FormatError::PayloadEndsInsideBlock {
        block: n_blocks,
        offset: off,
        needed: MASK_BYTES,
        available: payload.len() - off,
    }
}

/// [`encode_full_blocks`], with the fastest kernel the CPU supports.
#[inline(always)]
fn encode_full_blocks_dispatch<const B: usize, const N: usize>(
    data: &[u8],
    spare: &mut [MaybeUninit<u8>],
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = x86::Ssse3::<B>::detect() {
        return x86::encode_full_blocks_ssse3::<B, N>(k, data, spare);
    }
    encode_full_blocks::<Scalar<B>, B, N>(Scalar, data, spare)
}

/// [`decode_fast_blocks`], with the fastest kernel the CPU supports.
#[inline(always)]
fn decode_fast_blocks_dispatch<const B: usize, const N: usize>(
    payload: &[u8],
    n_full: usize,
    spare: &mut [MaybeUninit<u8>],
) -> Result<(usize, usize), FormatError> {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = x86::Ssse3::<B>::detect() {
        return x86::decode_fast_blocks_ssse3::<B, N>(k, payload, n_full, spare);
    }
    decode_fast_blocks::<Scalar<B>, B, N>(Scalar, payload, n_full, spare)
}

fn encode_impl<const B: usize, const N: usize>(data: &[u8], out: &mut Vec<u8>) {
    debug_assert_eq!(N, BLOCK_ELEMS * B);
    let n_blocks = data.len().div_ceil(N);
    // Room for every block at its worst (mask + 32 elements): kernels may store all 32
    // slots, even of a zero-padded partial final block.
    let cap = n_blocks * (MASK_BYTES + N);
    out.reserve(cap);
    let start = out.len();
    let spare = &mut out.spare_capacity_mut()[..cap];
    let full = data.len() / N * N;
    let mut w = encode_full_blocks_dispatch::<B, N>(&data[..full], spare);
    let tail = &data[full..];
    if !tail.is_empty() {
        // Zero padding is exactly what the format asks for: missing elements have mask bit 0.
        let mut padded = [0u8; N];
        padded[..tail.len()].copy_from_slice(tail);
        let (mask, count) = compact_block::<B, N>(&padded, window_mut(spare, w + MASK_BYTES));
        for (d, s) in spare[w..w + MASK_BYTES].iter_mut().zip(mask.to_le_bytes()) {
            d.write(s);
        }
        w += MASK_BYTES + count * B;
    }
    debug_assert!(w <= cap);
    // SAFETY: `w <= cap <= out.capacity() - start` and every byte of `spare[..w]` was
    // initialised above: each block wrote its 4 mask bytes and at least its first `count`
    // element slots (every kernel stores each element at slot `pos` before advancing), and
    // blocks are contiguous, block k+1 starting right after block k's `count` elements.
    unsafe { out.set_len(start + w) };
}

fn decode_impl<const B: usize, const N: usize>(
    payload: &[u8],
    n_elems: usize,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    debug_assert_eq!(N, BLOCK_ELEMS * B);
    let out_len = n_elems * B; // checked by the caller
    let n_full = n_elems / BLOCK_ELEMS;
    let tail_elems = n_elems % BLOCK_ELEMS;
    out.reserve(out_len);
    let start = out.len();
    let spare = &mut out.spare_capacity_mut()[..out_len];

    // Fast path: blocks whose mask and a full 32-element window lie inside the payload.
    let (mut block, mut r) = decode_fast_blocks_dispatch::<B, N>(payload, n_full, spare)?;
    // Slow path: the last few full blocks, then the partial block, through a padded copy.
    let mut padded = [0u8; N];
    let mut tmp = [MaybeUninit::<u8>::uninit(); N];
    let n_blocks = n_full + usize::from(tail_elems != 0);
    while block < n_blocks {
        let (mask, needed) = block_extent(payload, r, block, B)?;
        let elems = &payload[r + MASK_BYTES..r + needed];
        padded[..elems.len()].copy_from_slice(elems);
        let zero_seen = if block < n_full {
            expand_block::<B, N>(mask, &padded, window_mut(spare, block * N)).1
        } else {
            if mask >> tail_elems != 0 {
                return Err(FormatError::MaskBitsPastEnd {
                    block,
                    mask,
                    valid: tail_elems,
                });
            }
            let (_, zero_seen) = expand_block::<B, N>(mask, &padded, &mut tmp);
            let n = tail_elems * B;
            spare[block * N..block * N + n].copy_from_slice(&tmp[..n]);
            zero_seen
        };
        if zero_seen {
            return Err(zero_element_error(block, r, mask, elems, B));
        }
        r += needed;
        block += 1;
    }
    if r != payload.len() {
        return Err(FormatError::ExcessPayload {
            extra: payload.len() - r,
            payload_len: payload.len(),
        });
    }
    // SAFETY: `out_len <= out.capacity() - start` (reserved above), and every byte of
    // `spare[..out_len]` was written: blocks 0..n_full each wrote all N bytes of their
    // window, and the partial block wrote its `tail_elems * B` bytes; together that is
    // n_full * N + tail_elems * B = n_elems * B = out_len.
    unsafe { out.set_len(start + out_len) };
    Ok(())
}

#[cfg(test)]
mod tests;
