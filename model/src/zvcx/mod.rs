//! ZVC-X payload of one chunk (docs/FORMAT.md, codec id 2): encoder and decoder.
//!
//! A chunk is cut into blocks of 32 elements (the last may be partial), each written as a bit
//! string: a mode code, then for a coded block the positions of its non-zeros, its largest
//! exponent (a delta against the chunk's previous coded block), the offset width `k`, the
//! escape count, the all-positive flag, the repeat flags and one `k + sign + mantissa`-bit
//! field per kept non-zero, then the escaped exponents. Blocks follow each other bit for bit;
//! the chunk is padded with zero bits to a whole byte. The code tables and field sizes are
//! `cdma_spec::zvcx`'s.

use cdma_spec::zvcx::{mode_of, ModeKind, Positions, BLOCK_ELEMS};

use crate::{ElemType, FormatError};

mod bits;
mod decode;
mod encode;
mod error;

pub use error::ZvcxError;

use bits::{BitWriter, Code};

/// How one element type's elements split into sign, exponent and mantissa.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// Element width in bits.
    width: u32,
    /// Whether elements are floats (sign, exponent, mantissa); raw types are one field.
    float: bool,
    exp_bits: u32,
    man_bits: u32,
    /// Bits of the `k` field.
    k_bits: u32,
}

impl Params {
    fn of(ty: ElemType) -> Params {
        Params {
            width: ty.width().bits(),
            float: ty.is_float(),
            exp_bits: ty.exp_bits(),
            man_bits: ty.man_bits(),
            k_bits: ty.spec().k_bits(),
        }
    }

    #[inline]
    fn exp_of(&self, x: u32) -> u32 {
        (x >> self.man_bits) & ((1 << self.exp_bits) - 1)
    }

    #[inline]
    fn sign_of(&self, x: u32) -> u32 {
        (x >> (self.man_bits + self.exp_bits)) & 1
    }

    #[inline]
    fn man_of(&self, x: u32) -> u32 {
        x & ((1u32 << self.man_bits) - 1)
    }

    /// Whether offset width `k` has escapes (its all-ones offset): only when 0 < k < e; with
    /// k = 0 every kept exponent is the largest, with k = e every offset fits.
    #[inline]
    fn escapes(&self, k: u32) -> bool {
        k > 0 && k < self.exp_bits
    }

    /// Largest exponent value.
    fn exp_max(&self) -> u32 {
        (1 << self.exp_bits) - 1
    }
}

/// The mode code of a coded block with `positions` and `repeat`, or (None) of the zero block
/// (`repeat` false) or the raw block (`repeat` true).
pub(crate) fn mode_code(positions: Option<Positions>, repeat: bool) -> Code {
    let kind = match positions {
        Some(positions) => ModeKind::Coded { positions, repeat },
        None if repeat => ModeKind::Raw,
        None => ModeKind::Zero,
    };
    Code::parse(mode_of(kind).code)
}

/// Reads the little-endian elements of one block.
fn load_block(chunk: &[u8], eb: usize) -> [u32; 32] {
    let mut v = [0u32; 32];
    for (x, b) in v.iter_mut().zip(chunk.chunks_exact(eb)) {
        let mut w = [0u8; 4];
        w[..eb].copy_from_slice(b);
        *x = u32::from_le_bytes(w);
    }
    v
}

/// Appends the ZVC-X payload of `data` (whole elements of `ty`) to `out`. On error (`data`
/// not a whole number of elements) `out` is unchanged.
pub fn encode_into(data: &[u8], ty: ElemType, out: &mut Vec<u8>) -> Result<(), FormatError> {
    crate::zvc::check_whole_elements(data.len(), ty.width())?;
    let p = Params::of(ty);
    let eb = ty.width().bytes();
    let mut w = BitWriter::new(out);
    let mut prev = None;
    for block in data.chunks(BLOCK_ELEMS as usize * eb) {
        let v = load_block(block, eb);
        encode::encode_block(&mut w, &p, &v, (block.len() / eb) as u32, &mut prev);
    }
    w.finish();
    Ok(())
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
    let r = decode::decode_chunk(payload, &Params::of(ty), n_elems, out);
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
mod tests;
