//! The per-block machinery of the ZVC codec: one 32-element block compacted or expanded
//! branch-free, the [`Kernel`] abstraction over the portable and SIMD implementations, and the
//! whole-block loops generic over a kernel. `zvc.rs` drives these loops and handles partial
//! blocks and errors; `zvc/x86.rs` supplies the SSSE3 kernel.

use std::mem::MaybeUninit;

use crate::layout::{BLOCK_ELEMS, MASK_BYTES};
use crate::FormatError;

/// Reads the little-endian mask at `payload[off..off + 4]` (caller checked the length).
#[inline(always)]
pub(super) fn read_mask(payload: &[u8], off: usize) -> u32 {
    let mut m = [0u8; MASK_BYTES];
    m.copy_from_slice(&payload[off..off + MASK_BYTES]);
    u32::from_le_bytes(m)
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
pub(super) fn compact_block<const B: usize, const N: usize>(
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
pub(super) fn expand_block<const B: usize, const N: usize>(
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
pub(super) fn zero_element_error(
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
pub(super) fn window_mut<T, const N: usize>(s: &mut [T], at: usize) -> &mut [T; N] {
    (&mut s[at..at + N])
        .try_into()
        .expect("caller checked the window fits")
}

/// A per-block compaction / expansion routine. Implemented by the portable [`Scalar`]
/// kernel and, on x86-64, by SSSE3 kernels. Kernels are zero-sized
/// tokens: holding one proves the CPU can run it.
pub(super) trait Kernel<const N: usize>: Copy {
    /// Like [`compact_block`]: returns `(mask, count)`, may write all `N` bytes of `dst`.
    fn compact(self, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (u32, usize);
    /// Like [`expand_block`]: returns `(count, zero element seen)`, writes all of `dst`.
    fn expand(self, mask: u32, src: &[u8; N], dst: &mut [MaybeUninit<u8>; N]) -> (usize, bool);
}

/// The portable branch-free kernel for `B`-byte elements.
#[derive(Clone, Copy)]
pub(super) struct Scalar<const B: usize>;

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
pub(super) fn encode_full_blocks<K: Kernel<N>, const B: usize, const N: usize>(
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
pub(super) fn decode_fast_blocks<K: Kernel<N>, const B: usize, const N: usize>(
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
