//! ZVC-X payload of one chunk (docs/FORMAT.md, codec id 2): encoder and decoder.
//!
//! A chunk is cut into blocks of 32 elements (the last may be partial), each written as a bit
//! string: a mode code, then for a coded block the positions of its non-zeros, its largest
//! exponent (a delta against the chunk's previous coded block), the offset width `k`, the
//! escape count, the all-positive flag, the repeat flags and one `k + sign + mantissa`-bit
//! field per kept non-zero, then the escaped exponents. Blocks follow each other bit for bit;
//! the chunk is padded with zero bits to a whole byte. The code tables and field sizes are
//! `cdma_spec::zvcx`'s.

use crate::{ElemType, ElemWidth, FormatError};

mod bits;
mod decode;
mod encode;
mod error;
mod scan;
mod tables;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use error::ZvcxError;

// The unit tests build bit strings by hand with these.
#[cfg(test)]
use bits::{BitWriter, Code};

/// How one element type's elements split into sign, exponent and mantissa, and the widths
/// and masks derived from that. The codec's loops are instantiated once per type
/// (`with_type!`) with `Params` a compile-time constant, so every shift and mask below is
/// an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Params {
    /// Element width in bits.
    width: u32,
    /// Whether elements are floats (sign, exponent, mantissa); raw types are one field.
    float: bool,
    exp_bits: u32,
    man_bits: u32,
    /// Bits of the `k` field.
    k_bits: u32,
    /// `2^exp_bits − 1`: the exponent field's mask (after the shift) and largest value.
    exp_max: u32,
    /// `2^man_bits − 1`.
    man_mask: u32,
    /// The bits below the sign: a float's magnitude.
    abs_mask: u32,
}

impl Params {
    /// The parameters of elements of `bytes` bytes with `exp_bits` exponent and `man_bits`
    /// mantissa bits (both 0: raw).
    const fn new(bytes: usize, exp_bits: u32, man_bits: u32) -> Params {
        let width = bytes as u32 * 8;
        Params {
            width,
            float: exp_bits > 0,
            exp_bits,
            man_bits,
            k_bits: if exp_bits == 0 {
                0
            } else {
                u32::BITS - exp_bits.leading_zeros()
            },
            exp_max: (1 << exp_bits) - 1,
            man_mask: (1 << man_bits) - 1,
            abs_mask: if exp_bits == 0 {
                u32::MAX
            } else {
                (1 << (exp_bits + man_bits)) - 1
            },
        }
    }

    #[inline(always)]
    fn exp_of(&self, x: u32) -> u32 {
        (x >> self.man_bits) & self.exp_max
    }

    /// Whether offset width `k` has escapes (its all-ones offset): only when 0 < k < e; with
    /// k = 0 every kept exponent is the largest, with k = e every offset fits.
    #[inline(always)]
    fn escapes(&self, k: u32) -> bool {
        k > 0 && k < self.exp_bits
    }
}

/// Runs `$f::<B, E, M>($args)` with the element bytes `B`, exponent bits `E` and mantissa
/// bits `M` of element type `$ty` as constants (one instance of the codec per type).
macro_rules! with_type {
    ($ty:expr, $f:ident($($arg:expr),*)) => {
        match $ty {
            ElemType::Raw(ElemWidth::W8) => $f::<1, 0, 0>($($arg),*),
            ElemType::Raw(ElemWidth::W16) => $f::<2, 0, 0>($($arg),*),
            ElemType::Raw(ElemWidth::W32) => $f::<4, 0, 0>($($arg),*),
            ElemType::F32 => $f::<4, 8, 23>($($arg),*),
            ElemType::Bf16 => $f::<2, 8, 7>($($arg),*),
            ElemType::F16 => $f::<2, 5, 10>($($arg),*),
            ElemType::E4m3 => $f::<1, 4, 3>($($arg),*),
            ElemType::E5m2 => $f::<1, 5, 2>($($arg),*),
        }
    };
}

/// The parameters `with_type!` instantiates the codec with for `ty`.
#[cfg(test)]
fn params_of(ty: ElemType) -> Params {
    const fn params<const B: usize, const E: u32, const M: u32>() -> Params {
        Params::new(B, E, M)
    }
    with_type!(ty, params())
}

/// Appends the ZVC-X payload of `data` (whole elements of `ty`) to `out`. On error (`data`
/// not a whole number of elements) `out` is unchanged.
pub fn encode_into(data: &[u8], ty: ElemType, out: &mut Vec<u8>) -> Result<(), FormatError> {
    crate::zvc::check_whole_elements(data.len(), ty.width())?;
    use encode::encode_chunk;
    with_type!(ty, encode_chunk(data, out));
    Ok(())
}

/// The ZVC-X payload of `data` written with the portable block scan whatever the CPU (the
/// tests hold it and the SIMD scan to the same bits).
#[cfg(test)]
fn encode_portable(data: &[u8], ty: ElemType) -> Vec<u8> {
    let mut out = Vec::new();
    use encode::encode_chunk_portable;
    with_type!(ty, encode_chunk_portable(data, &mut out));
    out
}

/// [`decode`] with the decoder compiled for any CPU, whatever this one has (the tests hold
/// it and the feature-enabled one to the same result).
#[cfg(test)]
fn decode_portable(payload: &[u8], ty: ElemType, n_elems: usize) -> Result<Vec<u8>, ZvcxError> {
    let mut out = Vec::new();
    use decode::decode_chunk_with;
    with_type!(ty, decode_chunk_with(payload, n_elems, &mut out)).map(|()| out)
}

/// The ZVC-X payload of `data`.
pub fn encode(data: &[u8], ty: ElemType) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    encode_into(data, ty, &mut out)?;
    Ok(out)
}

/// Appends the `n_elems` elements of `ty` a ZVC-X payload decodes to, checking every rule
/// (docs/FORMAT.md); on error `out` keeps its length.
pub fn decode_into(
    payload: &[u8],
    ty: ElemType,
    n_elems: usize,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    let start = out.len();
    use decode::decode_chunk;
    let r = with_type!(ty, decode_chunk(payload, n_elems, out));
    if r.is_err() {
        out.truncate(start);
    }
    r.map_err(FormatError::ZvcX)
}

/// The `n_elems` elements of `ty` a ZVC-X payload decodes to.
pub fn decode(payload: &[u8], ty: ElemType, n_elems: usize) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    decode_into(payload, ty, n_elems, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod fast_tests;
#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;
