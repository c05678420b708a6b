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

use crate::spec::{BLOCK_ELEMS, MASK_BYTES};
use crate::{ElemWidth, FormatError};

#[cfg(target_arch = "x86_64")]
mod x86;

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

/// Reads the little-endian mask at `payload[off..off + 4]` (caller checked the length).
#[inline(always)]
fn read_mask(payload: &[u8], off: usize) -> u32 {
    let mut m = [0u8; MASK_BYTES];
    m.copy_from_slice(&payload[off..off + MASK_BYTES]);
    u32::from_le_bytes(m)
}

/// Walks the block structure of a payload known to be too short for `n_blocks` blocks and
/// returns the [`FormatError::PayloadEndsInsideBlock`] of the first incomplete block, or the
/// [`FormatError::ZeroElementInPayload`] of an earlier block (stream order, as `decode_impl`).
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
        let mask = read_mask(payload, off);
        let needed = MASK_BYTES + mask.count_ones() as usize * elem_bytes;
        if needed > available {
            return FormatError::PayloadEndsInsideBlock {
                block,
                offset: off,
                needed,
                available,
            };
        }
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

/// Loads the `B`-byte little-endian element at `s[at..at + B]`, zero-extended to `u32`
/// (one plain load; the round trip through little-endian keeps the bytes in order on any host).
#[inline(always)]
fn load<const B: usize>(s: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x[..B].copy_from_slice(&s[at..at + B]);
    u32::from_le_bytes(x)
}

/// Stores the low `B` bytes of `v` little-endian at `d[at..at + B]` (one plain store).
#[inline(always)]
fn store<const B: usize>(d: &mut [MaybeUninit<u8>], at: usize, v: u32) {
    let x = v.to_le_bytes();
    for k in 0..B {
        d[at + k].write(x[k]);
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
        let x = load::<B>(src, i * B);
        let nz = u32::from(x != 0);
        // `pos <= i <= 31`, so `& 31` changes nothing but proves the index in bounds.
        store::<B>(dst, (pos & 31) * B, x);
        pos += nz as usize;
        // Shift the new bit in from the top: after 32 steps bit i is element i's, and the
        // shifts are by constants (a shift by `i` would be a slow variable shift on x86).
        mask = (mask >> 1) | (nz << 31);
    }
    (mask, pos)
}

/// Expands one block: element `i` of `dst` is the next element of `src` if mask bit `i` is
/// set, else zero. `src` must hold at least `popcount(mask)` elements (the rest is padding,
/// read but discarded). Returns the number of elements consumed (= popcount(mask)) and
/// whether any consumed element was zero (a non-canonical payload, rejected by the caller).
#[inline(always)]
fn expand_block<const B: usize, const N: usize>(
    mask: u32,
    src: &[u8; N],
    dst: &mut [MaybeUninit<u8>; N],
) -> (usize, bool) {
    let mut pos = 0usize;
    let mut m = mask;
    let mut zero_seen = 0u32;
    for i in 0..BLOCK_ELEMS {
        let bit = m & 1;
        m >>= 1;
        let x = load::<B>(src, (pos & 31) * B);
        // Branch-free select: all-ones when the bit is set, else zero.
        store::<B>(dst, i * B, x & 0u32.wrapping_sub(bit));
        zero_seen |= bit & u32::from(x == 0);
        pos += bit as usize;
    }
    (pos, zero_seen != 0)
}

/// Builds the [`FormatError::ZeroElementInPayload`] for a block known to hold a zero
/// element; `elems` are the block's payload elements (after its mask).
fn zero_element_error(
    block: usize,
    offset: usize,
    mask: u32,
    elems: &[u8],
    b: usize,
) -> FormatError {
    let mut k = 0;
    for i in 0..BLOCK_ELEMS {
        if mask >> i & 1 == 1 {
            if elems[k * b..k * b + b].iter().all(|&x| x == 0) {
                return FormatError::ZeroElementInPayload {
                    block,
                    element: i,
                    offset: offset + MASK_BYTES + k * b,
                };
            }
            k += 1;
        }
    }
    // Not reached when the caller saw a zero element; report the block rather than panic.
    FormatError::ZeroElementInPayload {
        block,
        element: BLOCK_ELEMS,
        offset,
    }
}

/// Views `s[at..at + N]` as a fixed-size array (the caller guarantees the range exists).
#[inline(always)]
fn window<T, const N: usize>(s: &[T], at: usize) -> &[T; N] {
    s[at..at + N]
        .try_into()
        .expect("caller checked the window fits")
}

/// Mutable counterpart of [`window`].
#[inline(always)]
fn window_mut<T, const N: usize>(s: &mut [T], at: usize) -> &mut [T; N] {
    (&mut s[at..at + N])
        .try_into()
        .expect("caller checked the window fits")
}

/// A per-block compaction / expansion routine. Implemented by the portable [`Scalar`]
/// kernel and, on x86-64, by SSSE3 kernels. Kernels are zero-sized
/// tokens: holding one proves the CPU can run it.
trait Kernel<const N: usize>: Copy {
    /// Like [`compact_block`]: returns `(mask, count)`, may write all `N` bytes of `dst`.
    fn compact(self, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (u32, usize);
    /// Like [`expand_block`]: returns `(count, zero element seen)`, writes all of `dst`.
    fn expand(self, mask: u32, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (usize, bool);
}

/// The portable branch-free kernel for `B`-byte elements.
#[derive(Clone, Copy)]
struct Scalar<const B: usize>;

impl<const B: usize, const N: usize> Kernel<N> for Scalar<B> {
    #[inline(always)]
    fn compact(self, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (u32, usize) {
        compact_block::<B, N>(src, dst)
    }
    #[inline(always)]
    fn expand(self, mask: u32, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (usize, bool) {
        expand_block::<B, N>(mask, src, dst)
    }
}

/// Encodes the whole blocks of `data` (a multiple of `N` bytes) into `spare`, which has room
/// for `MASK_BYTES + N` bytes per block; returns the bytes written.
#[inline(always)]
fn encode_full_blocks<K: Kernel<N>, const B: usize, const N: usize>(
    k: K,
    data: &[u8],
    spare: &mut [MaybeUninit<u8>],
) -> usize {
    let mut w = 0usize;
    for blk in data.chunks_exact(N) {
        let (mask, count) = k.compact(window(blk, 0), window_mut(spare, w + MASK_BYTES));
        for (d, s) in spare[w..w + MASK_BYTES].iter_mut().zip(mask.to_le_bytes()) {
            d.write(s);
        }
        w += MASK_BYTES + count * B;
    }
    w
}

/// Decodes blocks `0..n_full` of `payload` into `spare` while a block's mask and a whole
/// 32-element window lie inside the payload. Returns `(blocks done, payload bytes read)`,
/// or the error of a block that stores a zero element.
#[inline(always)]
fn decode_fast_blocks<K: Kernel<N>, const B: usize, const N: usize>(
    k: K,
    payload: &[u8],
    n_full: usize,
    spare: &mut [MaybeUninit<u8>],
) -> Result<(usize, usize), FormatError> {
    let mut r = 0usize;
    let mut block = 0;
    while block < n_full && payload.len() - r >= MASK_BYTES + N {
        let mask = read_mask(payload, r);
        let (count, zero_seen) = k.expand(
            mask,
            window(payload, r + MASK_BYTES),
            window_mut(spare, block * N),
        );
        if zero_seen {
            let elems = &payload[r + MASK_BYTES..r + MASK_BYTES + count * B];
            return Err(zero_element_error(block, r, mask, elems, B));
        }
        r += MASK_BYTES + count * B;
        block += 1;
    }
    Ok((block, r))
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
                    assert_eq!(
                        enc,
                        reference_encode(&data, b),
                        "{w} n={n} zeros={zero_pct}%"
                    );
                    assert_eq!(encoded_len(&data, w).unwrap(), enc.len());
                    assert_eq!(decode(&enc, w, n).unwrap(), data, "{w} n={n}");
                }
            }
        }
    }

    /// The full-block loops dispatch to a SIMD kernel where available; the portable kernel
    /// must give the same payload and the same decoded data on whole multi-block tensors.
    fn scalar_and_dispatched_paths_agree<const B: usize, const N: usize>() {
        let mut s = 0xFEED_u64;
        for n_blocks in [1usize, 2, 7, 40] {
            for zero_pct in [0u64, 50, 90, 100] {
                let data: Vec<u8> = (0..n_blocks * 32)
                    .flat_map(|_| {
                        let v = xorshift(&mut s);
                        let z = v % 100 < zero_pct;
                        let e = if z {
                            0
                        } else {
                            (v >> 8) as u32 | 1 << (v % (8 * B as u64))
                        };
                        e.to_le_bytes().into_iter().take(B)
                    })
                    .collect();
                let cap = n_blocks * (MASK_BYTES + N);
                let mut a = vec![MaybeUninit::new(0u8); cap];
                let mut b = vec![MaybeUninit::new(0u8); cap];
                let wa = encode_full_blocks::<Scalar<B>, B, N>(Scalar, &data, &mut a);
                let wb = encode_full_blocks_dispatch::<B, N>(&data, &mut b);
                assert_eq!(wa, wb);
                // SAFETY: both buffers were fully initialised with zeros above.
                let (a, b): (Vec<u8>, Vec<u8>) = unsafe {
                    (
                        a[..wa].iter().map(|x| x.assume_init()).collect(),
                        b[..wb].iter().map(|x| x.assume_init()).collect(),
                    )
                };
                assert_eq!(a, b);
                assert_eq!(a, reference_encode(&data, B));
                // Pad so every block takes the fast decode path.
                let mut padded = a.clone();
                padded.extend_from_slice(&[0; 132]);
                let mut da = vec![MaybeUninit::new(0u8); data.len()];
                let mut db = vec![MaybeUninit::new(0u8); data.len()];
                let ra = decode_fast_blocks::<Scalar<B>, B, N>(Scalar, &padded, n_blocks, &mut da);
                let rb = decode_fast_blocks_dispatch::<B, N>(&padded, n_blocks, &mut db);
                assert_eq!(ra, Ok((n_blocks, a.len())));
                assert_eq!(ra, rb);
                // SAFETY: initialised with zeros above.
                let (da, db): (Vec<u8>, Vec<u8>) = unsafe {
                    (
                        da.iter().map(|x| x.assume_init()).collect(),
                        db.iter().map(|x| x.assume_init()).collect(),
                    )
                };
                assert_eq!(da, data);
                assert_eq!(db, data);
            }
        }
    }

    #[test]
    fn scalar_and_dispatched_paths_agree_all_widths() {
        scalar_and_dispatched_paths_agree::<1, 32>();
        scalar_and_dispatched_paths_agree::<2, 64>();
        scalar_and_dispatched_paths_agree::<4, 128>();
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
    fn zero_element_reported_before_later_truncation() {
        // 64 E=8 elements but a 5-byte payload: the masks do not fit (pre-check path), yet
        // block 0's stored zero element comes first in stream order.
        assert_eq!(
            decode(&[1, 0, 0, 0, 0], ElemWidth::W8, 64),
            Err(FormatError::ZeroElementInPayload {
                block: 0,
                element: 0,
                offset: 4
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
        for (len, w) in [
            (1, ElemWidth::W16),
            (3, ElemWidth::W32),
            (6, ElemWidth::W32),
        ] {
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
