//! ZVC-X, the float-aware block codec (codec id 2, frame version 3): element types and the
//! block syntax's code tables and field sizes.
//!
//! A ZVC-X block is a bit string (written least significant bit first, docs/FORMAT.md): a
//! mode code from [`MODES`], then for the coded modes the positions of the non-zero elements,
//! the block's largest exponent (absolute, or as a [`DELTAS`] code against the previous coded
//! block of the chunk), the exponent-offset width `k`, the escape count, the all-positive
//! flag, the repeat flags and one field per kept element. The golden model
//! (`cdma_model::zvcx`) and the RTL both take these tables from here, and docs/FORMAT.md shows
//! them rendered by [`markdown_types`], [`markdown_modes`] and [`markdown_deltas`].

/// An element type of the frame header's `elem_type` byte: how ZVC-X splits an element into
/// sign, exponent and mantissa. ZVC ignores the type (it only needs the width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElemType {
    /// Code in the header's `elem_type` byte and the descriptor's `type` field.
    pub code: u8,
    /// Name used by the documents and the command line.
    pub name: &'static str,
    /// Element width in bits; 0 for `raw`, whose width is the header's `elem_bits`.
    pub bits: u32,
    /// Exponent bits (0: no float structure, the whole element is one field).
    pub exp_bits: u32,
    /// Mantissa bits (for `raw`: 0, the field is the whole element).
    pub man_bits: u32,
    /// What it is, as the documents show it.
    pub description: &'static str,
}

impl ElemType {
    /// Whether elements have a sign bit, an exponent and a mantissa (every type but `raw`).
    pub const fn is_float(&self) -> bool {
        self.exp_bits > 0
    }

    /// Bits of the `k` field of a coded block: enough for `0..=exp_bits` (0 for `raw`).
    pub const fn k_bits(&self) -> u32 {
        if self.exp_bits == 0 {
            0
        } else {
            u32::BITS - self.exp_bits.leading_zeros()
        }
    }
}

/// Untyped elements of the header's `elem_bits`: no sign, exponent or mantissa.
pub const RAW: ElemType = ElemType {
    code: 0,
    name: "raw",
    bits: 0,
    exp_bits: 0,
    man_bits: 0,
    description:
        "untyped elements of `elem_bits` (8, 16 or 32); the only type of a version 2 frame",
};
/// IEEE 754 binary32.
pub const F32: ElemType = ElemType {
    code: 1,
    name: "f32",
    bits: 32,
    exp_bits: 8,
    man_bits: 23,
    description: "IEEE 754 binary32: sign, 8 exponent bits, 23 mantissa bits",
};
/// bfloat16.
pub const BF16: ElemType = ElemType {
    code: 2,
    name: "bf16",
    bits: 16,
    exp_bits: 8,
    man_bits: 7,
    description: "bfloat16: sign, 8 exponent bits, 7 mantissa bits",
};
/// IEEE 754 binary16.
pub const F16: ElemType = ElemType {
    code: 3,
    name: "f16",
    bits: 16,
    exp_bits: 5,
    man_bits: 10,
    description: "IEEE 754 binary16: sign, 5 exponent bits, 10 mantissa bits",
};
/// OCP FP8 E4M3.
pub const E4M3: ElemType = ElemType {
    code: 4,
    name: "e4m3",
    bits: 8,
    exp_bits: 4,
    man_bits: 3,
    description: "OCP 8-bit float E4M3: sign, 4 exponent bits, 3 mantissa bits",
};
/// OCP FP8 E5M2.
pub const E5M2: ElemType = ElemType {
    code: 5,
    name: "e5m2",
    bits: 8,
    exp_bits: 5,
    man_bits: 2,
    description: "OCP 8-bit float E5M2: sign, 5 exponent bits, 2 mantissa bits",
};

/// Every element type, by code.
pub const ELEM_TYPES: [ElemType; 6] = [RAW, F32, BF16, F16, E4M3, E5M2];

/// The element type of `code`, if any.
pub fn elem_type(code: u8) -> Option<ElemType> {
    ELEM_TYPES.iter().copied().find(|t| t.code == code)
}

/// The element type called `name`, if any.
pub fn elem_type_named(name: &str) -> Option<ElemType> {
    ELEM_TYPES.iter().copied().find(|t| t.name == name)
}

/// How a coded block gives the positions of its non-zero elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Positions {
    /// Every element of the block is non-zero: no position bits.
    Dense,
    /// 1 to [`LIST_MAX`] non-zeros: a [`LIST_COUNT_BITS`]-bit count − 1, then each index in
    /// [`LIST_INDEX_BITS`] bits, strictly increasing.
    List,
    /// A [`GROUPS`]-bit map of the groups of [`GROUP_ELEMS`] elements that hold a non-zero,
    /// then a [`GROUP_ELEMS`]-bit non-zero mask for each such group, in group order.
    Group,
    /// The 32-bit non-zero mask.
    Mask,
}

/// What a mode code announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModeKind {
    /// Every element is zero: nothing follows.
    Zero,
    /// The block's elements verbatim, `elem_bits` each.
    Raw,
    /// A coded block: positions given as `positions`; `repeat`: repeat flags follow.
    Coded {
        /// How the non-zero positions are written.
        positions: Positions,
        /// Whether one flag per non-zero after the first says "equal to the previous one".
        repeat: bool,
    },
}

/// One entry of the mode code: a prefix code (no code is a prefix of another, and every
/// 8-bit string starts with exactly one code, so any bits parse).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// Name in documents and errors.
    pub name: &'static str,
    /// The code's bits in stream order, as `0`/`1` characters.
    pub code: &'static str,
    /// What follows.
    pub kind: ModeKind,
}

const fn coded(positions: Positions, repeat: bool) -> ModeKind {
    ModeKind::Coded { positions, repeat }
}

/// The mode code, shortest codes first (lengths from the mode frequencies of ReLU
/// activations: zero, mask and group blocks are the common ones).
pub const MODES: [Mode; 10] = [
    Mode {
        name: "zero",
        code: "00",
        kind: ModeKind::Zero,
    },
    Mode {
        name: "mask",
        code: "01",
        kind: coded(Positions::Mask, false),
    },
    Mode {
        name: "group",
        code: "10",
        kind: coded(Positions::Group, false),
    },
    Mode {
        name: "list",
        code: "110",
        kind: coded(Positions::List, false),
    },
    Mode {
        name: "mask+repeat",
        code: "1110",
        kind: coded(Positions::Mask, true),
    },
    Mode {
        name: "dense",
        code: "11110",
        kind: coded(Positions::Dense, false),
    },
    Mode {
        name: "group+repeat",
        code: "111110",
        kind: coded(Positions::Group, true),
    },
    Mode {
        name: "dense+repeat",
        code: "1111110",
        kind: coded(Positions::Dense, true),
    },
    Mode {
        name: "list+repeat",
        code: "11111110",
        kind: coded(Positions::List, true),
    },
    Mode {
        name: "raw",
        code: "11111111",
        kind: ModeKind::Raw,
    },
];

/// The mode whose kind is `kind`.
pub fn mode_of(kind: ModeKind) -> Mode {
    *MODES
        .iter()
        .find(|m| m.kind == kind)
        .expect("every kind has a code")
}

/// Elements per block (as ZVC).
pub const BLOCK_ELEMS: u32 = 32;
/// Most non-zeros a [`Positions::List`] block holds.
pub const LIST_MAX: u32 = 4;
/// Bits of a list's count field (count − 1).
pub const LIST_COUNT_BITS: u32 = 2;
/// Bits of one list index.
pub const LIST_INDEX_BITS: u32 = 5;
/// Elements per group of a [`Positions::Group`] block.
pub const GROUP_ELEMS: u32 = 4;
/// Groups per block.
pub const GROUPS: u32 = BLOCK_ELEMS / GROUP_ELEMS;
/// Bits of the escape-count field of a float block.
pub const NESC_BITS: u32 = 2;
/// Most escaped exponents a block holds.
pub const NESC_MAX: u32 = (1 << NESC_BITS) - 1;

/// One class of the largest-exponent delta code: a prefix, then a sign bit (0: the exponent
/// rose, 1: it fell) and `extra` magnitude bits giving `|delta| − min`; [`DELTA_ESCAPE`]
/// instead prefixes the absolute exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaClass {
    /// Prefix bits in stream order.
    pub prefix: &'static str,
    /// Smallest |delta| of the class.
    pub min: u32,
    /// Magnitude bits after the sign bit.
    pub extra: u32,
}

/// The delta classes: 0 (no sign bit), ±1, ±2..3, ±4..7.
pub const DELTAS: [DeltaClass; 4] = [
    DeltaClass {
        prefix: "0",
        min: 0,
        extra: 0,
    },
    DeltaClass {
        prefix: "10",
        min: 1,
        extra: 0,
    },
    DeltaClass {
        prefix: "110",
        min: 2,
        extra: 1,
    },
    DeltaClass {
        prefix: "1110",
        min: 4,
        extra: 2,
    },
];
/// Prefix of an absolute largest exponent (`exp_bits` bits follow); used when |delta| > 7.
pub const DELTA_ESCAPE: &str = "1111";

/// The delta class of `delta`, or None when it needs [`DELTA_ESCAPE`].
pub fn delta_class(delta: i32) -> Option<DeltaClass> {
    let m = delta.unsigned_abs();
    DELTAS
        .iter()
        .copied()
        .find(|c| m >= c.min && m - c.min < 1 << c.extra)
}

/// The element types as a Markdown table (docs/FORMAT.md).
pub fn markdown_types() -> String {
    let mut s = String::from(
        "| code | type | bits | exponent bits | mantissa bits | k bits | meaning |\n|---|---|---|---|---|---|---|\n",
    );
    for t in ELEM_TYPES {
        let bits = if t.bits == 0 {
            "8/16/32".to_string()
        } else {
            t.bits.to_string()
        };
        s += &format!(
            "| {} | `{}` | {} | {} | {} | {} | {} |\n",
            t.code,
            t.name,
            bits,
            t.exp_bits,
            t.man_bits,
            t.k_bits(),
            t.description
        );
    }
    s
}

/// The mode code as a Markdown table (docs/FORMAT.md).
pub fn markdown_modes() -> String {
    let mut s = String::from("| code | mode | positions | repeat flags |\n|---|---|---|---|\n");
    for m in MODES {
        let (pos, rep) = match m.kind {
            ModeKind::Zero => ("(all zero: nothing follows)".to_string(), "—"),
            ModeKind::Raw => ("(the elements verbatim)".to_string(), "—"),
            ModeKind::Coded { positions, repeat } => (
                format!("{positions:?}").to_lowercase(),
                if repeat { "yes" } else { "no" },
            ),
        };
        s += &format!("| `{}` | {} | {} | {} |\n", m.code, m.name, pos, rep);
    }
    s
}

/// The largest-exponent delta code as a Markdown table (docs/FORMAT.md).
pub fn markdown_deltas() -> String {
    let mut s = String::from("| prefix | delta | then |\n|---|---|---|\n");
    for c in DELTAS {
        let (range, then) = match (c.min, c.extra) {
            (0, _) => ("0".to_string(), "nothing".to_string()),
            (m, 0) => (format!("±{m}"), "sign bit".to_string()),
            (m, x) => (
                format!("±{m}…{}", m + (1 << x) - 1),
                format!("sign bit, {x}-bit magnitude − {m}"),
            ),
        };
        s += &format!("| `{}` | {} | {} |\n", c.prefix, range, then);
    }
    s += &format!("| `{DELTA_ESCAPE}` | any other | the absolute exponent, `exp_bits` bits |\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_prefix_code(codes: &[&str]) -> bool {
        codes.iter().enumerate().all(|(i, a)| {
            codes
                .iter()
                .enumerate()
                .all(|(j, b)| i == j || !b.starts_with(a))
        })
    }

    #[test]
    fn mode_code_is_a_complete_prefix_code() {
        let codes: Vec<&str> = MODES.iter().map(|m| m.code).collect();
        assert!(is_prefix_code(&codes));
        // Kraft sum exactly 1: every bit string starts with a code.
        let kraft: f64 = codes.iter().map(|c| 0.5f64.powi(c.len() as i32)).sum();
        assert_eq!(kraft, 1.0);
        assert!(codes
            .iter()
            .all(|c| c.len() <= 8 && c.chars().all(|b| b == '0' || b == '1')));
    }

    #[test]
    fn delta_code_is_a_complete_prefix_code() {
        let mut codes: Vec<&str> = DELTAS.iter().map(|c| c.prefix).collect();
        codes.push(DELTA_ESCAPE);
        assert!(is_prefix_code(&codes));
        let kraft: f64 = codes.iter().map(|c| 0.5f64.powi(c.len() as i32)).sum();
        assert_eq!(kraft, 1.0);
    }

    #[test]
    fn delta_classes_cover_minus_7_to_7() {
        for d in -7i32..=7 {
            let c = delta_class(d).unwrap_or_else(|| panic!("{d}"));
            let m = d.unsigned_abs();
            assert!(m >= c.min && m - c.min < 1 << c.extra, "{d}: {c:?}");
        }
        assert_eq!(delta_class(8), None);
        assert_eq!(delta_class(-200), None);
    }

    #[test]
    fn types_are_consistent() {
        for t in ELEM_TYPES {
            assert_eq!(elem_type(t.code), Some(t));
            assert_eq!(elem_type_named(t.name), Some(t));
            if t.is_float() {
                assert_eq!(t.bits, 1 + t.exp_bits + t.man_bits, "{}", t.name);
                assert!(1 << t.k_bits() > t.exp_bits);
                assert!(1 << (t.k_bits() - 1) <= t.exp_bits);
            }
        }
        assert_eq!(
            (F32.k_bits(), F16.k_bits(), E4M3.k_bits(), RAW.k_bits()),
            (4, 3, 3, 0)
        );
        assert_eq!(elem_type(6), None);
    }
}
