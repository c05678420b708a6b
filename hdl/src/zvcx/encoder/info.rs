//! [`Info`]: what the analysis stage decides about a block, packed in one register bus
//! (`INFO_BITS` wide) between the analysis and build stages, with its field layout given
//! once here for both the Rust models and the generated Verilog.

use rust_hdl::core::prelude::*;

use super::words::{bits_of_words, words_of};

/// Width of the info bus.
pub const INFO_BITS: usize = 176;

/// Field layout: (name, offset, width). The Verilog leaves declare one wire per field.
pub(crate) const FIELDS: [(&str, usize, usize); 14] = [
    ("nz", 0, 32),
    ("rep", 32, 32),
    ("kept", 64, 32),
    ("escm", 96, 32),
    ("max_exp", 128, 8),
    ("sgn", 136, 1),
    ("repeat", 137, 1),
    ("kind", 138, 2),
    ("k", 140, 4),
    ("nesc", 144, 2),
    ("cost", 146, 12),
    ("zero", 158, 1),
    ("n", 159, 6),
    ("len", 165, 6),
];

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
            self.kept.into(),
            self.escm.into(),
            self.max_exp.into(),
            self.sgn.into(),
            self.repeat.into(),
            self.kind.into(),
            self.k.into(),
            self.nesc.into(),
            self.cost.into(),
            self.zero.into(),
            self.n.into(),
            self.len.into(),
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
            kept: f(2) as u32,
            escm: f(3) as u32,
            max_exp: f(4) as u32,
            sgn: f(5) == 1,
            repeat: f(6) == 1,
            kind: f(7) as u32,
            k: f(8) as u32,
            nesc: f(9) as u32,
            cost: f(10) as u32,
            zero: f(11) == 1,
            n: f(12) as u32,
            len: f(13) as u32,
        }
    }
}

/// Verilog wires unpacking the info bus `bus` into `<prefix><field>` (only the `used`
/// fields, so that `-Wall` sees no unused wire).
pub(crate) fn verilog_unpack(bus: &str, used: &[&str]) -> String {
    let mut s = String::new();
    for (name, at, len) in FIELDS {
        if !used.contains(&name) {
            continue;
        }
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
        assert!(at <= INFO_BITS);
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
