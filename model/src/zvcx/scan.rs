//! The ZVC-X encoder's portable block scan and what it produces ([`Scan`], [`Fields`]): the
//! non-zero mask, the compacted non-zeros, repeat flags and the escape summary the costing
//! needs. The AVX2 kernel (`super::x86::scan`) produces the same.

use cdma_spec::zvcx::BLOCK_ELEMS;

use super::tables::ESCAPES_AT;
use super::Params;

const BLOCK: usize = BLOCK_ELEMS as usize;

/// The little-endian elements of one block (up to 32; the rest 0).
#[inline(always)]
pub(super) fn load<const B: usize>(block: &[u8]) -> [u32; BLOCK] {
    let mut v = [0u32; BLOCK];
    for (x, b) in v.iter_mut().zip(block.chunks_exact(B)) {
        let mut w = [0u8; 4];
        w[..B].copy_from_slice(b);
        *x = u32::from_le_bytes(w);
    }
    v
}

/// What the costing needs about one set of elements to be stored (all non-zeros, or the
/// kept ones when repeat flags are used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fields {
    /// How many.
    pub(super) count: u32,
    /// Byte `k` (1 ≤ k < e): how many escape at offset width `k` (sums of [`ESCAPES_AT`]).
    pub(super) escapes: u64,
    /// 0 iff every exponent offset is 0, i.e. every exponent is the largest (k = 0
    /// allowed); the portable scan ORs the offsets, the AVX2 one has a mask of the non-zero
    /// ones.
    pub(super) offsets: u32,
    /// Repeat-flag bits before the fields.
    pub(super) flags: u32,
}

/// The 32-bit mask of 32 flags (each 0 or 1), flag `i` to bit `i`: eight flags at a time,
/// gathered into the top byte of one multiplication (flag `i` of a little-endian word lands
/// in bit 56 + i; the partial sums below never carry into it).
#[inline(always)]
fn mask_of(flags: &[u8; BLOCK]) -> u32 {
    let mut mask = 0u32;
    for (g, w) in flags.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(w.try_into().expect("8 flags"));
        mask |= ((w.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32) << (8 * g);
    }
    mask
}

/// The group map of `nz`: bit `j` set iff elements `4j..4j+4` hold a non-zero.
#[inline(always)]
pub(super) fn group_map(nz: u32) -> u32 {
    // Bit 4j of `any` says group j is occupied; gather bits 0, 4, …, 28 into 0..8.
    let any = (nz | nz >> 1 | nz >> 2 | nz >> 3) & 0x1111_1111;
    let m = (any | any >> 3) & 0x0303_0303;
    let m = (m | m >> 6) & 0x000F_000F;
    (m | m >> 12) & 0xFF
}

/// What the costing and the writing need from one block's lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Scan {
    /// Non-zero mask: bit `i` set iff element `i` is not 0 (never 0: an all-zero block has
    /// no scan).
    pub(super) nz: u32,
    /// The largest exponent (0 for raw types).
    pub(super) max_exp: u32,
    /// 1 iff some element has its sign bit set (always 0 for raw types).
    pub(super) sgn: u32,
    /// Bit `j`: the `j`-th non-zero equals the one before it (bit 0 never set).
    pub(super) rep: u32,
    /// Summary of all non-zeros.
    pub(super) all: Fields,
    /// Summary of the non-zeros kept with repeat flags (all but the repeats); its escapes
    /// and offsets are only filled in when there are repeats (the repeat choice is not
    /// costed otherwise).
    pub(super) kept: Fields,
}

/// The portable block scan (the encoder's `scan`): one branch-free pass over all lanes that the compiler vectorizes
/// (non-zero mask; largest magnitude, whose exponent is the block's largest as the
/// exponent sits above the mantissa and zeros add nothing; OR of every element for the
/// sign), then one pass over the non-zeros that compacts them and sums one [`ESCAPES_AT`]
/// entry and ORs the offset of each, and one over the kept ones when there are repeats.
#[inline(always)]
pub(super) fn scan_portable<const B: usize, const E: u32, const M: u32>(
    v: &[u32; BLOCK],
    cbuf: &mut [u32; BLOCK + 1],
) -> Option<Scan> {
    let p = const { Params::new(B, E, M) };
    let (mut mag, mut any) = (0u32, 0u32);
    let mut is_nz = [0u8; BLOCK];
    for (f, &x) in is_nz.iter_mut().zip(v) {
        *f = u8::from(x != 0);
        mag = mag.max(x & p.abs_mask);
        any |= x;
    }
    let nz = mask_of(&is_nz);
    if nz == 0 {
        return None;
    }
    let n = nz.count_ones();
    let max_exp = p.exp_of(mag);
    let sgn = if p.float { (any >> (E + M)) & 1 } else { 0 };
    let c = &mut cbuf[1..];
    let mut all = Fields {
        count: n,
        escapes: 0,
        offsets: 0,
        flags: 0,
    };
    let (mut bits, mut j, mut rep, mut last) = (nz, 0usize, 0u32, 0u32);
    while bits != 0 {
        let x = v[bits.trailing_zeros() as usize];
        bits &= bits - 1;
        c[j % BLOCK] = x;
        rep |= u32::from(x == last) << (j % BLOCK); // the first non-zero never equals 0
        last = x;
        j += 1;
        if p.float {
            let off = max_exp - p.exp_of(x);
            all.escapes += ESCAPES_AT[(off & 0xFF) as usize];
            all.offsets |= off;
        }
    }
    let n_mask = if n == 32 { u32::MAX } else { (1 << n) - 1 };
    let mut kept = Fields {
        count: n - rep.count_ones(),
        escapes: 0,
        offsets: 0,
        flags: n - 1,
    };
    if rep != 0 && p.float {
        let mut bits = n_mask & !rep;
        while bits != 0 {
            let off = max_exp - p.exp_of(c[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
            kept.escapes += ESCAPES_AT[(off & 0xFF) as usize];
            kept.offsets |= off;
        }
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
