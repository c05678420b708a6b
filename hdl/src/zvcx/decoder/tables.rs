//! What the decoder's Verilog bodies take from `cdma_spec::zvcx`: the mode and delta prefix
//! codes as `casez` patterns, the field sizes, and the layout of the header bus the length
//! scanner hands to the unpack stage. Nothing here retypes a code of the spec.

use cdma_spec::zvcx::{
    ModeKind, Positions, DELTAS, DELTA_ESCAPE, ELEM_TYPES, GROUPS, GROUP_ELEMS, LIST_COUNT_BITS,
    LIST_INDEX_BITS, LIST_MAX, MODES, NESC_BITS, NESC_MAX,
};

/// Bits of the buffer's bottom the length scanner reads (the longest header, mode to repeat
/// flags, fits: checked by a test against [`max_header_bits`]).
pub const WIN: usize = 128;
/// Bits of a block the unpack stage holds: at least [`max_block_bits`] (checked by a test).
pub const BLK: usize = 1152;
/// Width of the header bus (scanner -> unpack): the sum of [`FIELDS`].
pub const HDR: usize = 47;

/// Positions codes on the header bus (`pos` field).
pub fn pos_code(p: Positions) -> u32 {
    match p {
        Positions::Dense => 0,
        Positions::List => 1,
        Positions::Group => 2,
        Positions::Mask => 3,
    }
}

/// The header bus fields, LSB first: (name, width). The scanner drives `h_<name>`, the unpack
/// stage reads `<name>`.
pub const FIELDS: [(&str, usize); 15] = [
    ("zero", 1),
    ("raw", 1),
    ("pos", 2),
    ("rep", 1),
    ("ml", 4),
    ("mx_abs", 1),
    ("mx_neg", 1),
    ("mx_mag", 8),
    ("k", 4),
    ("nesc", 2),
    ("sgn", 1),
    ("r_off", 7),
    ("f_off", 7),
    ("fw", 6),
    ("coded", 1),
];

/// `(lsb, width)` of header field `name`.
pub fn field(name: &str) -> (usize, usize) {
    let mut lsb = 0;
    for (n, w) in FIELDS {
        if n == name {
            return (lsb, w);
        }
        lsb += w;
    }
    panic!("no header field {name}")
}

/// Verilog: `hdr = {h_coded, ..., h_zero};` (scanner side).
pub fn hdr_pack() -> String {
    let parts: Vec<String> = FIELDS.iter().rev().map(|(n, _)| format!("h_{n}")).collect();
    format!("hdr = {{{}}};\n", parts.join(", "))
}

/// Verilog: one `wire [w-1:0] <name> = hdr[..];` per field (unpack side).
pub fn hdr_unpack() -> String {
    FIELDS
        .iter()
        .map(|(n, w)| {
            let (lsb, _) = field(n);
            format!("wire [{}:0] {n} = hdr[{}:{lsb}];\n", w - 1, lsb + w - 1)
        })
        .collect()
}

/// A `casez` label matching the prefix code `code` (stream order, first character in bit 0)
/// in a `width`-bit window: `8'b??????10` for "01".
pub fn casez_label(code: &str, width: usize) -> String {
    let b = code.as_bytes();
    let s: String = (0..width)
        .rev()
        .map(|i| if i < b.len() { b[i] as char } else { '?' })
        .collect();
    format!("{width}'b{s}")
}

/// Longest mode code.
pub fn mode_bits() -> usize {
    MODES.iter().map(|m| m.code.len()).max().unwrap_or(0)
}

/// Longest delta prefix (the escape included).
pub fn delta_bits() -> usize {
    DELTAS
        .iter()
        .map(|c| c.prefix.len())
        .chain([DELTA_ESCAPE.len()])
        .max()
        .unwrap_or(0)
}

/// Longest position field of any mode.
pub fn max_pos_bits() -> u32 {
    [
        LIST_COUNT_BITS + LIST_MAX * LIST_INDEX_BITS,
        GROUPS + GROUPS * GROUP_ELEMS,
        32,
    ]
    .into_iter()
    .max()
    .unwrap_or(0)
}

/// Longest largest-exponent code for `exp_bits`.
fn max_mexp_bits(e: u32) -> u32 {
    let d = DELTAS
        .iter()
        .map(|c| c.prefix.len() as u32 + if c.min == 0 { 0 } else { 1 + c.extra })
        .max()
        .unwrap_or(0);
    d.max(DELTA_ESCAPE.len() as u32 + e).max(e)
}

/// Longest header (mode to repeat flags) of any type: what the scanner's window must hold.
pub fn max_header_bits() -> u32 {
    ELEM_TYPES
        .iter()
        .map(|t| {
            let float = if t.is_float() {
                max_mexp_bits(t.exp_bits) + t.k_bits() + NESC_BITS + 1
            } else {
                0
            };
            mode_bits() as u32 + max_pos_bits() + float + 31
        })
        .max()
        .unwrap_or(0)
}

/// Longest valid block of any type and mode (raw widths 8, 16, 32 for the raw type).
pub fn max_block_bits() -> u32 {
    let mut best = 0;
    for t in ELEM_TYPES {
        let widths: &[u32] = if t.bits == 0 { &[8, 16, 32] } else { &[t.bits] };
        for &w in widths {
            for m in MODES {
                let ml = m.code.len() as u32;
                let len = match m.kind {
                    ModeKind::Zero => ml,
                    ModeKind::Raw => ml + 32 * w,
                    ModeKind::Coded { positions, repeat } => {
                        let pos = match positions {
                            Positions::Dense => 0,
                            Positions::List => LIST_COUNT_BITS + LIST_MAX * LIST_INDEX_BITS,
                            Positions::Group => GROUPS + GROUPS * GROUP_ELEMS,
                            Positions::Mask => 32,
                        };
                        let rep = if repeat { 31 } else { 0 };
                        let body = if t.is_float() {
                            let e = t.exp_bits;
                            let fields = (0..=e)
                                .map(|k| {
                                    let esc = if k > 0 && k < e { NESC_MAX * e } else { 0 };
                                    32 * (k + 1 + t.man_bits) + esc
                                })
                                .max()
                                .unwrap_or(0);
                            max_mexp_bits(e) + t.k_bits() + NESC_BITS + 1 + fields
                        } else {
                            32 * w
                        };
                        ml + pos + rep + body
                    }
                };
                best = best.max(len);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_hold_the_longest_header_and_block() {
        assert!(max_header_bits() as usize <= WIN, "{}", max_header_bits());
        assert!(max_block_bits() as usize <= BLK, "{}", max_block_bits());
        // The buffer takes a word while at most 2048 bits remain: a stalled block must fit.
        assert!(max_block_bits() <= 2048);
        assert_eq!(FIELDS.iter().map(|f| f.1).sum::<usize>(), HDR);
        assert_eq!(casez_label("01", 8), "8'b??????10");
        assert_eq!(field("pos"), (2, 2));
    }
}
