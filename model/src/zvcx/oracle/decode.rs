//! The oracle's ZVC-X decoder: reads blocks in stream order and checks each rule of docs/FORMAT.md
//! ("ZVC-X decoding rules") as it meets the field concerned, so the first fault is reported.

use cdma_spec::zvcx::{
    ModeKind, Positions, DELTAS, DELTA_ESCAPE, GROUPS, GROUP_ELEMS, LIST_COUNT_BITS,
    LIST_INDEX_BITS, MODES, NESC_BITS,
};

use super::bits::{BitReader, Code};
use super::{Params, ZvcxError};

/// Where the block being decoded starts (for errors).
#[derive(Clone, Copy)]
struct At {
    block: usize,
    bit: u64,
}

/// Reads `bits` bits or fails with [`ZvcxError::EndsInsideBlock`].
fn need(r: &mut BitReader, at: At, bits: u32) -> Result<u64, ZvcxError> {
    r.get(bits).ok_or(ZvcxError::EndsInsideBlock {
        block: at.block,
        bit: at.bit,
        needed: bits,
        available: r.remaining(),
    })
}

/// Reads one prefix code of `codes` (a complete prefix code: some code always matches).
fn read_code<T: Copy>(r: &mut BitReader, at: At, codes: &[(Code, T)]) -> Result<T, ZvcxError> {
    let longest = codes.iter().map(|c| c.0.len).max().unwrap_or(0);
    let bits = r.peek(longest) as u32;
    let (code, value) = *codes
        .iter()
        .find(|(c, _)| bits & ((1 << c.len) - 1) == c.bits)
        .expect("complete prefix code");
    need(r, at, code.len)?;
    Ok(value)
}

/// The prefix codes, parsed once per chunk: modes, and the largest-exponent delta classes
/// (index into `DELTAS`, or None for the absolute escape).
struct Codes {
    modes: Vec<(Code, ModeKind)>,
    deltas: Vec<(Code, Option<usize>)>,
}

impl Codes {
    fn new() -> Codes {
        let mut deltas: Vec<(Code, Option<usize>)> = DELTAS
            .iter()
            .enumerate()
            .map(|(i, c)| (Code::parse(c.prefix), Some(i)))
            .collect();
        deltas.push((Code::parse(DELTA_ESCAPE), None));
        Codes {
            modes: MODES
                .iter()
                .map(|m| (Code::parse(m.code), m.kind))
                .collect(),
            deltas,
        }
    }
}

/// Decodes one chunk's payload into `n_elems` elements appended to `out`.
pub(super) fn decode_chunk(
    payload: &[u8],
    p: &Params,
    n_elems: usize,
    out: &mut Vec<u8>,
) -> Result<(), ZvcxError> {
    let codes = Codes::new();
    let mut r = BitReader::new(payload);
    let eb = (p.width / 8) as usize;
    let mut prev = None;
    let mut left = n_elems;
    let mut block = 0;
    out.reserve(n_elems * eb);
    while left > 0 {
        let len = left.min(32);
        let at = At {
            block,
            bit: r.pos(),
        };
        let v = decode_block(&mut r, p, len as u32, &mut prev, at, &codes)?;
        for x in &v[..len] {
            out.extend_from_slice(&x.to_le_bytes()[..eb]);
        }
        left -= len;
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
            let map = need(r, at, GROUPS)? as u32;
            let mut nz = 0u32;
            for group in 0..GROUPS {
                if (map >> group) & 1 == 1 {
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
            }
            nz
        }
        Positions::Mask => need(r, at, 32)? as u32,
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
fn read_max_exp(
    r: &mut BitReader,
    at: At,
    p: &Params,
    prev: Option<u32>,
    codes: &Codes,
) -> Result<u32, ZvcxError> {
    let Some(prev) = prev else {
        return Ok(need(r, at, p.exp_bits)? as u32);
    };
    let value = match read_code(r, at, &codes.deltas)? {
        None => return Ok(need(r, at, p.exp_bits)? as u32),
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
    if !(0..=i64::from(p.exp_max())).contains(&value) {
        return Err(ZvcxError::MaxExpOutOfRange {
            block: at.block,
            bit: at.bit,
            value,
            max: p.exp_max(),
        });
    }
    Ok(value as u32)
}

fn decode_block(
    r: &mut BitReader,
    p: &Params,
    len: u32,
    prev: &mut Option<u32>,
    at: At,
    codes: &Codes,
) -> Result<[u32; 32], ZvcxError> {
    let mut v = [0u32; 32];
    let (positions, repeat) = match read_code(r, at, &codes.modes)? {
        ModeKind::Zero => return Ok(v),
        ModeKind::Raw => {
            for x in v.iter_mut().take(len as usize) {
                *x = need(r, at, p.width)? as u32;
            }
            return Ok(v);
        }
        ModeKind::Coded { positions, repeat } => (positions, repeat),
    };
    let nz = read_positions(r, at, positions, len)?;
    let (mut max_exp, mut k, mut declared, mut sgn) = (0, 0, 0, 0);
    if p.float {
        max_exp = read_max_exp(r, at, p, *prev, codes)?;
        k = need(r, at, p.k_bits)? as u32;
        if k > p.exp_bits {
            return Err(ZvcxError::KTooLarge {
                block: at.block,
                bit: at.bit,
                k,
                exp_bits: p.exp_bits,
            });
        }
        declared = need(r, at, NESC_BITS)? as u32;
        sgn = 1 - need(r, at, 1)? as u32;
        *prev = Some(max_exp);
    }
    let mut rep = 0u32;
    if repeat {
        let mut bits = nz & (nz - 1);
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            rep |= (need(r, at, 1)? as u32) << i;
        }
    }
    let lim = (1u32 << k) - 1;
    let mut escaped = 0u32;
    // Kept elements first; repeats are copied once the escaped exponents are in.
    let kept = nz & !rep;
    let mut bits = kept;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if p.float {
            let field = need(r, at, k + sgn + p.man_bits)? as u32;
            let off = field >> (sgn + p.man_bits);
            let sign = if sgn == 1 {
                (field >> p.man_bits) & 1
            } else {
                0
            };
            let man = field & ((1 << p.man_bits) - 1);
            let exp = if p.escapes(k) && off == lim {
                escaped |= 1 << i;
                0 // filled in from the escapes below
            } else if off > max_exp {
                return Err(ZvcxError::ExponentUnderflow {
                    block: at.block,
                    bit: at.bit,
                    elem: i as u32,
                    offset: off,
                    max_exp,
                });
            } else {
                max_exp - off
            };
            v[i] = (sign << (p.exp_bits + p.man_bits)) | (exp << p.man_bits) | man;
        } else {
            v[i] = need(r, at, p.width)? as u32;
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
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        v[i] |= (need(r, at, p.exp_bits)? as u32) << p.man_bits;
    }
    // A repeat copies an earlier element, so only the kept ones can be zero.
    if let Some(i) = (0..32).find(|&i| (kept >> i) & 1 == 1 && v[i as usize] == 0) {
        return Err(ZvcxError::ZeroElement {
            block: at.block,
            bit: at.bit,
            elem: i,
        });
    }
    let (mut bits, mut previous) = (nz, 0usize);
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if (rep >> i) & 1 == 1 {
            v[i] = v[previous];
        }
        previous = i;
    }
    Ok(v)
}
