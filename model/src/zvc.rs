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
//! only `unsafe` is the final `set_len`.

use std::mem::MaybeUninit;

use crate::spec::{BLOCK_ELEMS, MASK_BYTES};
use crate::{ElemWidth, FormatError};

/// Fails with [`FormatError::InputNotWholeElements`] unless `len` is a multiple of the element size.
pub(crate) fn check_whole_elements(len: usize, elem: ElemWidth) -> Result<(), FormatError> {
    if len % elem.bytes() != 0 {
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
/// ([`FormatError::MaskBitsPastEnd`]), bytes left after the last block
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
    let too_large = FormatError::OutputTooLarge {
        n_elems: n_elems as u64,
        elem_bytes: b,
        max: isize::MAX as u64,
    };
    let out_len = n_elems.checked_mul(b).ok_or(too_large.clone())?;
    if out_len > isize::MAX as usize {
        return Err(too_large);
    }
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

/// Reads the little-endian mask at `payload[off..off + 4]` (caller checked the length).
#[inline(always)]
fn read_mask(payload: &[u8], off: usize) -> u32 {
    let mut m = [0u8; MASK_BYTES];
    m.copy_from_slice(&payload[off..off + MASK_BYTES]);
    u32::from_le_bytes(m)
}

/// Walks the block structure of a payload known to be too short for `n_blocks` blocks and
/// returns the [`FormatError::PayloadEndsInsideBlock`] of the first incomplete block.
fn locate_short_payload(payload: &[u8], elem_bytes: usize, n_blocks: usize) -> FormatError {
    let mut off = 0;
    for block in 0..n_blocks {
        let available = payload.len() - off;
        if available < MASK_BYTES {
            return FormatError::PayloadEndsInsideBlock {
                block,
                offset: off,
                needed: MASK_BYTES,
                available,
            };
        }
        let needed = MASK_BYTES + read_mask(payload, off).count_ones() as usize * elem_bytes;
        if needed > available {
            return FormatError::PayloadEndsInsideBlock {
                block,
                offset: off,
                needed,
                available,
            };
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

/// Compacts one block of 32 elements (`src`, `N` = 32·`B` bytes) into `dst`, branch-free,
/// and returns `(mask, number of non-zero elements)`. All 32 slots of `dst` may be written;
/// only the first `count` hold the result.
#[inline(always)]
fn compact_block<const B: usize, const N: usize>(
    src: &[u8; N],
    dst: &mut [MaybeUninit<u8>; N],
) -> (u32, usize) {
    let mut pos = 0usize;
    let mut mask = 0u32;
    for i in 0..BLOCK_ELEMS {
        let mut x = [0u8; B];
        x.copy_from_slice(&src[i * B..i * B + B]);
        let nz = x != [0u8; B];
        // `pos <= i <= 31`, so `& 31` changes nothing but proves the index in bounds.
        let at = (pos & 31) * B;
        for k in 0..B {
            dst[at + k].write(x[k]);
        }
        pos += nz as usize;
        mask |= (nz as u32) << i;
    }
    (mask, pos)
}

/// Expands one block: element `i` of `dst` is the next element of `src` if mask bit `i` is
/// set, else zero. `src` must hold at least `popcount(mask)` elements (the rest is padding).
#[inline(always)]
fn expand_block<const B: usize, const N: usize>(
    mask: u32,
    src: &[u8; N],
    dst: &mut [MaybeUninit<u8>; N],
) {
    let mut pos = 0usize;
    for i in 0..BLOCK_ELEMS {
        let bit = (mask >> i) & 1;
        let at = (pos & 31) * B;
        let mut x = [0u8; B];
        x.copy_from_slice(&src[at..at + B]);
        // Branch-free select: all-ones when the bit is set, else zero.
        let keep = 0u8.wrapping_sub(bit as u8);
        for k in 0..B {
            dst[i * B + k].write(x[k] & keep);
        }
        pos += bit as usize;
    }
}

/// Views `s[at..at + N]` as a fixed-size array (the caller guarantees the range exists).
#[inline(always)]
fn window<T, const N: usize>(s: &[T], at: usize) -> &[T; N] {
    s[at..at + N].try_into().expect("caller checked the window fits")
}

/// Mutable counterpart of [`window`].
#[inline(always)]
fn window_mut<T, const N: usize>(s: &mut [T], at: usize) -> &mut [T; N] {
    (&mut s[at..at + N])
        .try_into()
        .expect("caller checked the window fits")
}

fn encode_impl<const B: usize, const N: usize>(data: &[u8], out: &mut Vec<u8>) {
    debug_assert_eq!(N, BLOCK_ELEMS * B);
    let n_blocks = data.len().div_ceil(N);
    // Room for every block at its worst (mask + 32 elements): compact_block may store all 32
    // slots, even of a zero-padded partial final block.
    let cap = n_blocks * (MASK_BYTES + N);
    out.reserve(cap);
    let start = out.len();
    let spare = &mut out.spare_capacity_mut()[..cap];
    let mut w = 0usize;
    let mut blocks = data.chunks_exact(N);
    for blk in &mut blocks {
        let (mask, count) = compact_block::<B, N>(
            window(blk, 0),
            window_mut(spare, w + MASK_BYTES),
        );
        for (d, s) in spare[w..w + MASK_BYTES].iter_mut().zip(mask.to_le_bytes()) {
            d.write(s);
        }
        w += MASK_BYTES + count * B;
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        // Zero padding is exactly what the format asks for: missing elements have mask bit 0.
        let mut padded = [0u8; N];
        padded[..tail.len()].copy_from_slice(tail);
        let (mask, count) =
            compact_block::<B, N>(&padded, window_mut(spare, w + MASK_BYTES));
        for (d, s) in spare[w..w + MASK_BYTES].iter_mut().zip(mask.to_le_bytes()) {
            d.write(s);
        }
        w += MASK_BYTES + count * B;
    }
    debug_assert!(w <= cap);
    // SAFETY: `w <= cap <= out.capacity() - start` and every byte of `spare[..w]` was
    // initialised above: each block wrote its 4 mask bytes and at least its first `count`
    // element slots (compact_block stores every element at slot `pos` before advancing), and
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
    let mut r = 0usize; // read offset in payload

    // Fast path: blocks whose mask and a full 32-element window lie inside the payload.
    let mut block = 0;
    while block < n_full && payload.len() - r >= MASK_BYTES + N {
        let mask = read_mask(payload, r);
        expand_block::<B, N>(
            mask,
            window(payload, r + MASK_BYTES),
            window_mut(spare, block * N),
        );
        r += MASK_BYTES + mask.count_ones() as usize * B;
        block += 1;
    }
    // Slow path: the last few full blocks, then the partial block, through a padded copy.
    let mut padded = [0u8; N];
    let mut tmp = [MaybeUninit::<u8>::uninit(); N];
    let n_blocks = n_full + usize::from(tail_elems != 0);
    while block < n_blocks {
        let available = payload.len() - r;
        if available < MASK_BYTES {
            return Err(FormatError::PayloadEndsInsideBlock {
                block,
                offset: r,
                needed: MASK_BYTES,
                available,
            });
        }
        let mask = read_mask(payload, r);
        let needed = MASK_BYTES + mask.count_ones() as usize * B;
        if needed > available {
            return Err(FormatError::PayloadEndsInsideBlock {
                block,
                offset: r,
                needed,
                available,
            });
        }
        let elems = &payload[r + MASK_BYTES..r + needed];
        padded[..elems.len()].copy_from_slice(elems);
        if block < n_full {
            expand_block::<B, N>(mask, &padded, window_mut(spare, block * N));
        } else {
            if mask >> tail_elems != 0 {
                return Err(FormatError::MaskBitsPastEnd {
                    block,
                    mask,
                    valid: tail_elems,
                });
            }
            expand_block::<B, N>(mask, &padded, &mut tmp);
            let n = tail_elems * B;
            spare[block * N..block * N + n].copy_from_slice(&tmp[..n]);
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
mod tests {
    use super::*;

    /// Straightforward reference encoder, written from FORMAT.md without any tricks.
    fn reference_encode(data: &[u8], b: usize) -> Vec<u8> {
        let elems: Vec<&[u8]> = data.chunks(b).collect();
        let mut out = Vec::new();
        for blk in elems.chunks(32) {
            let mut mask = 0u32;
            for (i, e) in blk.iter().enumerate() {
                if e.iter().any(|&x| x != 0) {
                    mask |= 1 << i;
                }
            }
            out.extend_from_slice(&mask.to_le_bytes());
            for e in blk {
                if e.iter().any(|&x| x != 0) {
                    out.extend_from_slice(e);
                }
            }
        }
        out
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn matches_reference_at_many_lengths_and_sparsities() {
        let mut s = 0x1234_5678_9abc_def0u64;
        for w in ElemWidth::ALL {
            let b = w.bytes();
            for n in (0..200).chain([1000, 1023, 1024, 1025]) {
                for zero_pct in [0u64, 30, 55, 90, 100] {
                    let data: Vec<u8> = (0..n)
                        .flat_map(|_| {
                            let z = xorshift(&mut s) % 100 < zero_pct;
                            let v = xorshift(&mut s);
                            // Non-zero elements sometimes have a single set byte, so a
                            // zero test that looks at only part of the element would fail.
                            let bytes = if z {
                                0u32.to_le_bytes()
                            } else {
                                let one_byte = (v as usize >> 8) % b;
                                let mut e = [0u8; 4];
                                e[one_byte] = (v as u8) | 1;
                                if v & 0x8000 != 0 {
                                    e = ((v >> 16) as u32 | 1).to_le_bytes();
                                }
                                e
                            };
                            bytes.into_iter().take(b).collect::<Vec<_>>()
                        })
                        .collect();
                    let enc = encode(&data, w).unwrap();
                    assert_eq!(enc, reference_encode(&data, b), "{w} n={n} zeros={zero_pct}%");
                    assert_eq!(encoded_len(&data, w).unwrap(), enc.len());
                    assert_eq!(decode(&enc, w, n).unwrap(), data, "{w} n={n}");
                }
            }
        }
    }

    #[test]
    fn encode_into_appends() {
        let mut out = vec![1, 2, 3];
        encode_into(&[0, 0, 5, 0], ElemWidth::W8, &mut out).unwrap();
        assert_eq!(out, [1, 2, 3, 0b100, 0, 0, 0, 5]);
    }

    #[test]
    fn decode_errors_leave_output_untouched() {
        let mut out = vec![7u8; 3];
        let enc = encode(&[1u8; 40], ElemWidth::W8).unwrap();
        let err = decode_into(&enc[..enc.len() - 1], ElemWidth::W8, 40, &mut out);
        assert!(err.is_err());
        assert_eq!(out, vec![7u8; 3]);
    }

    #[test]
    fn payload_ending_in_mask_or_elements() {
        // Two full E=32 blocks, all non-zero: 2 * (4 + 128) bytes.
        let data = vec![0xABu8; 256];
        let enc = encode(&data, ElemWidth::W32).unwrap();
        assert_eq!(enc.len(), 264);
        // Cut inside the second block's elements.
        assert_eq!(
            decode(&enc[..200], ElemWidth::W32, 64),
            Err(FormatError::PayloadEndsInsideBlock {
                block: 1,
                offset: 132,
                needed: 132,
                available: 68
            })
        );
        // Cut inside the second block's mask.
        assert_eq!(
            decode(&enc[..134], ElemWidth::W32, 64),
            Err(FormatError::PayloadEndsInsideBlock {
                block: 1,
                offset: 132,
                needed: 4,
                available: 2
            })
        );
        // Cut inside the first block, via the "masks alone do not fit" pre-check.
        assert_eq!(
            decode(&enc[..7], ElemWidth::W32, 64),
            Err(FormatError::PayloadEndsInsideBlock {
                block: 0,
                offset: 0,
                needed: 132,
                available: 7
            })
        );
        // A gigantic element count with a tiny payload must fail fast, not allocate.
        assert_eq!(
            decode(&[0, 0, 0, 0], ElemWidth::W8, usize::MAX / 4),
            Err(FormatError::PayloadEndsInsideBlock {
                block: 1,
                offset: 4,
                needed: 4,
                available: 0
            })
        );
    }

    #[test]
    fn mask_bits_past_end_of_partial_block() {
        // n = 3 (E=16): mask may only use bits 0..3.
        let payload = [0b1001, 0, 0, 0, 1, 0, 2, 0];
        assert_eq!(
            decode(&payload, ElemWidth::W16, 3),
            Err(FormatError::MaskBitsPastEnd {
                block: 0,
                mask: 0b1001,
                valid: 3
            })
        );
        // Bit 31 in the partial block of a 2-block tensor.
        let mut p = encode(&[0u8; 33], ElemWidth::W8).unwrap();
        p[7] = 0x80;
        p.push(9);
        assert_eq!(
            decode(&p, ElemWidth::W8, 33),
            Err(FormatError::MaskBitsPastEnd {
                block: 1,
                mask: 0x8000_0000,
                valid: 1
            })
        );
    }

    #[test]
    fn excess_payload() {
        let mut p = encode(&[0u8, 1, 0, 2], ElemWidth::W8).unwrap();
        p.push(0);
        assert_eq!(
            decode(&p, ElemWidth::W8, 4),
            Err(FormatError::ExcessPayload {
                extra: 1,
                payload_len: 7
            })
        );
        // n = 0 takes no payload at all.
        assert_eq!(
            decode(&[0, 0, 0, 0], ElemWidth::W32, 0),
            Err(FormatError::ExcessPayload {
                extra: 4,
                payload_len: 4
            })
        );
    }

    #[test]
    fn output_too_large() {
        assert_eq!(
            decode(&[], ElemWidth::W32, usize::MAX / 2),
            Err(FormatError::OutputTooLarge {
                n_elems: (usize::MAX / 2) as u64,
                elem_bytes: 4,
                max: isize::MAX as u64
            })
        );
        assert!(matches!(
            decode(&[], ElemWidth::W16, usize::MAX / 2 + 1),
            Err(FormatError::OutputTooLarge { .. })
        ));
    }

    #[test]
    fn input_not_whole_elements() {
        for (len, w) in [(1, ElemWidth::W16), (3, ElemWidth::W32), (6, ElemWidth::W32)] {
            let e = FormatError::InputNotWholeElements {
                len,
                elem_bytes: w.bytes(),
            };
            let data = vec![1u8; len];
            assert_eq!(encode(&data, w), Err(e.clone()));
            assert_eq!(encoded_len(&data, w), Err(e.clone()));
            let mut out = vec![5];
            assert_eq!(encode_into(&data, w, &mut out), Err(e));
            assert_eq!(out, vec![5]);
        }
    }
}
