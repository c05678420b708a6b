//! The ZVC-X code tables in the shapes the hot loops want, built at compile time from
//! `cdma_spec::zvcx` (the single definition of the codes): mode codes by (repeat, positions)
//! for writing, the mode and delta-class of every 8-/4-bit prefix for reading, the whole
//! largest-exponent delta code of every small delta, and the escape "thermometer" of every
//! exponent offset.

use cdma_spec::zvcx::{ModeKind, Positions, DELTAS, DELTA_ESCAPE, MODES};

use super::bits::Code;

/// Position kinds in the encoder's tie-break order (dense < list < group < mask); the index
/// into [`ModeCodes::coded`]'s rows.
pub const KINDS: [Positions; 4] = [
    Positions::Dense,
    Positions::List,
    Positions::Group,
    Positions::Mask,
];

const fn kind_index(p: Positions) -> usize {
    match p {
        Positions::Dense => 0,
        Positions::List => 1,
        Positions::Group => 2,
        Positions::Mask => 3,
    }
}

/// The mode codes: `coded[repeat][kind index]`, the zero block's and the raw block's.
pub struct ModeCodes {
    /// Coded blocks, by repeat flags (0: without, 1: with), then [`KINDS`] index.
    pub coded: [[Code; 4]; 2],
    /// The all-zero block.
    pub zero: Code,
    /// The raw block.
    pub raw: Code,
}

const NO_CODE: Code = Code { bits: 0, len: 0 };

/// Every mode's code, for the encoder.
pub const MODE_CODES: ModeCodes = {
    let mut t = ModeCodes {
        coded: [[NO_CODE; 4]; 2],
        zero: NO_CODE,
        raw: NO_CODE,
    };
    let mut i = 0;
    while i < MODES.len() {
        let c = Code::parse(MODES[i].code);
        match MODES[i].kind {
            ModeKind::Zero => t.zero = c,
            ModeKind::Raw => t.raw = c,
            ModeKind::Coded { positions, repeat } => {
                t.coded[repeat as usize][kind_index(positions)] = c
            }
        }
        i += 1;
    }
    t
};

/// Bits of the longest mode code: [`MODE_OF_PREFIX`] is indexed by that many stream bits.
pub const MODE_PREFIX_BITS: u32 = 8;

/// For every value of the next 8 stream bits (first bit in bit 0), the mode whose code they
/// start with and that code's length. The mode codes are a complete prefix code, so exactly
/// one matches each value.
pub const MODE_OF_PREFIX: [(ModeKind, u32); 1 << MODE_PREFIX_BITS] = {
    let mut t = [(ModeKind::Zero, 0u32); 1 << MODE_PREFIX_BITS];
    let mut i = 0;
    while i < MODES.len() {
        let c = Code::parse(MODES[i].code);
        assert!(c.len <= MODE_PREFIX_BITS);
        let mut v = 0;
        while v < t.len() {
            if v as u32 & ((1 << c.len) - 1) == c.bits {
                t[v] = (MODES[i].kind, c.len);
            }
            v += 1;
        }
        i += 1;
    }
    t
};

/// Bits of the longest delta prefix: [`DELTA_OF_PREFIX`] is indexed by that many stream bits.
pub const DELTA_PREFIX_BITS: u32 = 4;

/// For every value of the next 4 stream bits, the delta class whose prefix they start with
/// (index into `DELTAS`, or None for the absolute escape) and the prefix's length.
pub const DELTA_OF_PREFIX: [(Option<usize>, u32); 1 << DELTA_PREFIX_BITS] = {
    let mut t = [(None, 0u32); 1 << DELTA_PREFIX_BITS];
    let esc = Code::parse(DELTA_ESCAPE);
    assert!(esc.len <= DELTA_PREFIX_BITS);
    let mut v = 0;
    while v < t.len() {
        if v as u32 & ((1 << esc.len) - 1) == esc.bits {
            t[v] = (None, esc.len);
        }
        let mut i = 0;
        while i < DELTAS.len() {
            let c = Code::parse(DELTAS[i].prefix);
            assert!(c.len <= DELTA_PREFIX_BITS);
            if v as u32 & ((1 << c.len) - 1) == c.bits {
                t[v] = (Some(i), c.len);
            }
            i += 1;
        }
        v += 1;
    }
    t
};

/// The largest |delta| a delta class codes (7): larger ones take the escape.
pub const DELTA_MAX: u32 = {
    let last = DELTAS[DELTAS.len() - 1];
    last.min + (1 << last.extra) - 1
};

/// The whole code of every delta −[`DELTA_MAX`] ..= [`DELTA_MAX`] (index `delta +
/// DELTA_MAX`): the class prefix, then for a non-zero class the sign bit (1: the exponent
/// fell) and `|delta| − min` in the class's extra bits.
pub const DELTA_CODES: [Code; 2 * DELTA_MAX as usize + 1] = {
    let mut t = [NO_CODE; 2 * DELTA_MAX as usize + 1];
    let mut idx = 0;
    while idx < t.len() {
        let d = idx as i32 - DELTA_MAX as i32;
        let m = d.unsigned_abs();
        let mut i = 0;
        while i < DELTAS.len() {
            let c = DELTAS[i];
            if m >= c.min && m - c.min < 1 << c.extra {
                let p = Code::parse(c.prefix);
                t[idx] = if c.min == 0 {
                    p
                } else {
                    let sign = (d < 0) as u32;
                    Code {
                        bits: p.bits | sign << p.len | (m - c.min) << (p.len + 1),
                        len: p.len + 1 + c.extra,
                    }
                };
            }
            i += 1;
        }
        idx += 1;
    }
    t
};

/// The escape prefix of the largest-exponent code.
pub const DELTA_ESCAPE_CODE: Code = Code::parse(DELTA_ESCAPE);

/// For every exponent offset `o` (0 ..= 255), byte `k` (1 ≤ k ≤ 7) holds 1 iff `o` escapes
/// with offset width `k` (o ≥ 2^k − 1); byte 0 is 0. Summed over a block's elements, byte `k`
/// counts its escapes at width `k` (at most 32, so the bytes never carry into each other):
/// one table load and one add per element instead of a loop over k.
pub const ESCAPES_AT: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut o = 0;
    while o < 256 {
        let mut k = 1;
        while k < 8 {
            if o >= (1 << k) - 1 {
                t[o] |= 1 << (8 * k);
            }
            k += 1;
        }
        o += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use cdma_spec::zvcx::{delta_class, mode_of};

    #[test]
    fn mode_tables_match_the_spec() {
        for m in MODES {
            let c = Code::parse(m.code);
            match m.kind {
                ModeKind::Zero => assert_eq!(MODE_CODES.zero, c),
                ModeKind::Raw => assert_eq!(MODE_CODES.raw, c),
                ModeKind::Coded { positions, repeat } => {
                    assert_eq!(MODE_CODES.coded[repeat as usize][kind_index(positions)], c);
                    assert_eq!(KINDS[kind_index(positions)], positions);
                }
            }
        }
        for v in 0..256u32 {
            let (kind, len) = MODE_OF_PREFIX[v as usize];
            let code = Code::parse(mode_of(kind).code);
            assert_eq!(len, code.len);
            assert_eq!(v & ((1 << len) - 1), code.bits, "prefix {v:#010b}");
        }
    }

    #[test]
    fn delta_tables_match_the_spec() {
        for v in 0..16u32 {
            let (class, len) = DELTA_OF_PREFIX[v as usize];
            let code = Code::parse(class.map_or(DELTA_ESCAPE, |i| DELTAS[i].prefix));
            assert_eq!((len, v & ((1 << len) - 1)), (code.len, code.bits));
        }
        assert_eq!(DELTA_MAX, 7);
        assert!(delta_class(8).is_none() && delta_class(-8).is_none());
        for d in -7i32..=7 {
            let c = delta_class(d).unwrap();
            let p = Code::parse(c.prefix);
            let want = if c.min == 0 {
                p
            } else {
                Code {
                    bits: p.bits
                        | u32::from(d < 0) << p.len
                        | (d.unsigned_abs() - c.min) << (p.len + 1),
                    len: p.len + 1 + c.extra,
                }
            };
            assert_eq!(DELTA_CODES[(d + 7) as usize], want, "delta {d}");
        }
    }

    #[test]
    fn escape_counts_are_per_width() {
        for o in 0..256u32 {
            for k in 0..8 {
                let counted = (ESCAPES_AT[o as usize] >> (8 * k)) & 0xFF;
                assert_eq!(
                    counted,
                    u64::from(k > 0 && o >= (1 << k) - 1),
                    "o={o} k={k}"
                );
            }
        }
    }
}
