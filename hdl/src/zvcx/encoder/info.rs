//! [`Info`]: what the analysis stage decides about a block, packed in one register bus
//! (`INFO_BITS` wide) between the analysis and build stages, with its field layout given
//! once here for both the Rust models and the generated Verilog.

use rust_hdl::core::prelude::*;

use super::words::{bits_of_words, words_of};

/// Width of the info bus.
pub const INFO_BITS: usize = 171;

/// Field layout: (name, offset, width). The fields [`Head`](super::Head) reads come first
/// (`0..HEAD_INFO`), those [`Fields`](super::Fields) reads last (`FIELDS_INFO_AT..`), so each
/// gets one contiguous slice of the register and reads every bit of it (`-Wall` clean).
pub(crate) const FIELDS: [(&str, usize, usize); 14] = [
    ("nz", 0, 32),
    ("rep", 32, 32),
    ("repeat", 64, 1),
    ("kind", 65, 2),
    ("cost", 67, 12),
    ("zero", 79, 1),
    ("n", 80, 6),
    ("max_exp", 86, 8),
    ("sgn", 94, 1),
    ("k", 95, 4),
    ("nesc", 99, 2),
    ("len", 101, 6),
    ("kept", 107, 32),
    ("escm", 139, 32),
];

/// Bits of the info bus [`Head`](super::Head) reads: `0..HEAD_INFO`.
pub const HEAD_INFO: usize = 107;
/// First bit of the info bus [`Fields`](super::Fields) reads (to the end).
pub const FIELDS_INFO_AT: usize = 86;
/// Bits of that slice.
pub const FIELDS_INFO: usize = INFO_BITS - FIELDS_INFO_AT;

/// The analysis of one block (docs/ARCHITECTURE.md, "ZVC-X encoder").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Non-zero lanes.
    pub nz: u32,
    /// Repeats: non-zero lanes equal to the previous non-zero.
    pub rep: u32,
    /// Lanes whose field is written (`nz`, or `nz & !rep` with repeat flags).
    pub kept: u32,
    /// Kept lanes whose exponent is escaped.
    pub escm: u32,
    /// Largest exponent of the non-zeros (floats).
    pub max_exp: u32,
    /// A non-zero is negative: fields carry a sign bit (floats).
    pub sgn: bool,
    /// Repeat flags are written.
    pub repeat: bool,
    /// Position kind: 0 dense, 1 list, 2 group, 3 mask.
    pub kind: u32,
    /// Offset width `k`.
    pub k: u32,
    /// Escaped exponents (0..=3).
    pub nesc: u32,
    /// Bits of the cheapest coded block without its largest-exponent field.
    pub cost: u32,
    /// Every element is zero.
    pub zero: bool,
    /// Non-zero count.
    pub n: u32,
    /// Elements in the block (1..=32).
    pub len: u32,
}

impl Info {
    fn values(&self) -> [u64; 14] {
        [
            self.nz.into(),
            self.rep.into(),
            self.repeat.into(),
            self.kind.into(),
            self.cost.into(),
            self.zero.into(),
            self.n.into(),
            self.max_exp.into(),
            self.sgn.into(),
            self.k.into(),
            self.nesc.into(),
            self.len.into(),
            self.kept.into(),
            self.escm.into(),
        ]
    }

    /// The info bus.
    pub fn to_bits(&self) -> Bits<INFO_BITS> {
        let mut w = vec![0u64; INFO_BITS.div_ceil(64)];
        for ((_, at, len), v) in FIELDS.iter().zip(self.values()) {
            let v = v & ((1u64 << len) - 1);
            w[at / 64] |= v << (at % 64);
            if at % 64 + len > 64 {
                w[at / 64 + 1] |= v >> (64 - at % 64);
            }
        }
        bits_of_words(&w)
    }

    /// The info of a bus value.
    pub fn from_bits(b: Bits<INFO_BITS>) -> Info {
        let w = words_of(b);
        let f = |i: usize| {
            let (_, at, len) = FIELDS[i];
            let mut v = w[at / 64] >> (at % 64);
            if at % 64 + len > 64 {
                v |= w[at / 64 + 1] << (64 - at % 64);
            }
            v & ((1u64 << len) - 1)
        };
        Info {
            nz: f(0) as u32,
            rep: f(1) as u32,
            repeat: f(2) == 1,
            kind: f(3) as u32,
            cost: f(4) as u32,
            zero: f(5) == 1,
            n: f(6) as u32,
            max_exp: f(7) as u32,
            sgn: f(8) == 1,
            k: f(9) as u32,
            nesc: f(10) as u32,
            len: f(11) as u32,
            kept: f(12) as u32,
            escm: f(13) as u32,
        }
    }

    /// The info of a slice of the bus starting at bit `at` (the other fields zero).
    pub fn from_slice<const N: usize>(b: Bits<N>, at: usize) -> Info {
        let mut w = vec![0u64; INFO_BITS.div_ceil(64)];
        super::words::or_shifted(&mut w, INFO_BITS, &words_of(b), at);
        Info::from_bits(bits_of_words(&w))
    }
}

/// Verilog wires unpacking the slice `bus` (bits `[lo, lo + width)` of the info bus) into
/// `i_<field>` for every field inside the slice.
pub(crate) fn verilog_unpack(bus: &str, lo: usize, width: usize) -> String {
    let mut s = String::new();
    for (name, at, len) in FIELDS {
        if at < lo || at + len > lo + width {
            continue;
        }
        let at = at - lo;
        if len == 1 {
            s += &format!("wire i_{name} = {bus}[{at}];\n");
        } else {
            s += &format!(
                "wire [{}:0] i_{name} = {bus}[{}:{at}];\n",
                len - 1,
                at + len - 1
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_tile_the_bus_and_round_trip() {
        let mut at = 0;
        for (_, o, l) in FIELDS {
            assert_eq!(o, at);
            at += l;
        }
        assert_eq!(at, INFO_BITS);
        assert_eq!(FIELDS[7], ("max_exp", FIELDS_INFO_AT, 8));
        assert_eq!(FIELDS[12].1, HEAD_INFO);
        // The literal slice bounds of the top's `#[hdl_gen]` code.
        assert_eq!((HEAD_INFO, FIELDS_INFO_AT, FIELDS_INFO), (107, 86, 85));
        let i = Info {
            nz: 0xDEAD_BEEF,
            rep: 0x1234_5678,
            kept: 0x8000_0001,
            escm: 0x7,
            max_exp: 0xAB,
            sgn: true,
            repeat: false,
            kind: 2,
            k: 9,
            nesc: 3,
            cost: 0xFED,
            zero: true,
            n: 33,
            len: 32,
        };
        assert_eq!(Info::from_bits(i.to_bits()), i);
    }
}
