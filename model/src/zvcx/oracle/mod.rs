//! The first, straightforward ZVC-X model (one bit at a time, codes looked up per call), kept
//! as a test oracle for the fast one: the encoders must write the same bits, the decoders
//! return the same elements or the same error (variant and fields) on any input. Test-only.

use cdma_spec::zvcx::{mode_of, ModeKind, Positions, BLOCK_ELEMS};

use super::ZvcxError;
use crate::ElemType;

mod bits;
mod decode;
mod encode;

use bits::{BitWriter, Code};

/// How one element type's elements split into sign, exponent and mantissa.
#[derive(Clone, Copy, Debug)]
struct Params {
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

    fn exp_of(&self, x: u32) -> u32 {
        (x >> self.man_bits) & ((1 << self.exp_bits) - 1)
    }

    fn sign_of(&self, x: u32) -> u32 {
        (x >> (self.man_bits + self.exp_bits)) & 1
    }

    fn man_of(&self, x: u32) -> u32 {
        x & ((1u32 << self.man_bits) - 1)
    }

    /// Whether offset width `k` has escapes (only when 0 < k < e).
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
fn mode_code(positions: Option<Positions>, repeat: bool) -> Code {
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

/// The oracle's ZVC-X payload of `data` (whole elements of `ty`).
pub(super) fn encode(data: &[u8], ty: ElemType) -> Vec<u8> {
    let p = Params::of(ty);
    let eb = ty.width().bytes();
    let mut out = Vec::new();
    let mut w = BitWriter::new(&mut out);
    let mut prev = None;
    for block in data.chunks(BLOCK_ELEMS as usize * eb) {
        let v = load_block(block, eb);
        encode::encode_block(&mut w, &p, &v, (block.len() / eb) as u32, &mut prev);
    }
    w.finish();
    out
}

/// The oracle's decoding of a payload into `n_elems` elements of `ty`, or its error.
pub(super) fn decode(payload: &[u8], ty: ElemType, n_elems: usize) -> Result<Vec<u8>, ZvcxError> {
    let mut out = Vec::new();
    decode::decode_chunk(payload, &Params::of(ty), n_elems, &mut out).map(|()| out)
}
