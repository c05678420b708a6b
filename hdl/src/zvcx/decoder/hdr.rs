//! The block header the length scanner reads ([`Hdr`]), packed on the header bus of
//! `tables::FIELDS` between the scanner and the unpack stage, and the element parameters
//! ([`Elem`]) both take from `ElemParams`. Simulation models only; the Verilog bodies use the
//! same bus layout through `tables::hdr_pack` / `hdr_unpack`.

use rust_hdl::core::prelude::*;

use super::tables::{field, HDR};

/// An element type's widths as `ElemParams` gives them.
#[derive(Clone, Copy, Debug)]
pub struct Elem {
    /// Element width in bits.
    pub width: u32,
    /// Exponent bits (0 for raw).
    pub e: u32,
    /// Mantissa bits.
    pub m: u32,
    /// Bits of the `k` field.
    pub kb: u32,
    /// A float type.
    pub float: bool,
}

impl Elem {
    /// From `ElemParams`' output values.
    pub fn of(width: u64, e: u64, m: u64, kb: u64, float: bool) -> Elem {
        Elem {
            width: width as u32,
            e: e as u32,
            m: m as u32,
            kb: kb as u32,
            float,
        }
    }
}

/// What the scanner learns of a block (all fields of the header bus).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hdr {
    /// Zero block.
    pub zero: u32,
    /// Raw block.
    pub raw: u32,
    /// Positions kind (`tables::pos_code`).
    pub pos: u32,
    /// Repeat flags follow.
    pub rep: u32,
    /// Mode code length.
    pub ml: u32,
    /// The largest exponent is absolute (`mx_mag`).
    pub mx_abs: u32,
    /// The delta is negative.
    pub mx_neg: u32,
    /// Absolute largest exponent, or the delta's magnitude.
    pub mx_mag: u32,
    /// Offset width.
    pub k: u32,
    /// Declared escapes.
    pub nesc: u32,
    /// Fields carry a sign bit.
    pub sgn: u32,
    /// Offset of the repeat flags.
    pub r_off: u32,
    /// Offset of the first field.
    pub f_off: u32,
    /// Field width.
    pub fw: u32,
    /// A coded block.
    pub coded: u32,
}

impl Hdr {
    fn slots(&mut self) -> [(&'static str, &mut u32); 15] {
        [
            ("zero", &mut self.zero),
            ("raw", &mut self.raw),
            ("pos", &mut self.pos),
            ("rep", &mut self.rep),
            ("ml", &mut self.ml),
            ("mx_abs", &mut self.mx_abs),
            ("mx_neg", &mut self.mx_neg),
            ("mx_mag", &mut self.mx_mag),
            ("k", &mut self.k),
            ("nesc", &mut self.nesc),
            ("sgn", &mut self.sgn),
            ("r_off", &mut self.r_off),
            ("f_off", &mut self.f_off),
            ("fw", &mut self.fw),
            ("coded", &mut self.coded),
        ]
    }

    /// The header bus value (fields truncated to their widths, as the Verilog does).
    pub fn pack(mut self) -> Bits<HDR> {
        let mut v = 0u64;
        for (name, x) in self.slots() {
            let (lsb, w) = field(name);
            v |= (u64::from(*x) & ((1 << w) - 1)) << lsb;
        }
        v.into()
    }

    /// The fields of a header bus value.
    pub fn unpack(bus: Bits<HDR>) -> Hdr {
        let v = bus.to_u64();
        let mut h = Hdr::default();
        for (name, x) in h.slots() {
            let (lsb, w) = field(name);
            *x = ((v >> lsb) & ((1 << w) - 1)) as u32;
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_and_every_field_has_a_slot() {
        let h = Hdr {
            zero: 1,
            pos: 2,
            ml: 7,
            mx_mag: 200,
            k: 9,
            r_off: 99,
            f_off: 120,
            fw: 39,
            coded: 1,
            ..Hdr::default()
        };
        assert_eq!(Hdr::unpack(h.pack()), h);
        let mut d = Hdr::default();
        let names: Vec<&str> = d.slots().iter().map(|s| s.0).collect();
        let spec: Vec<&str> = super::super::tables::FIELDS.iter().map(|f| f.0).collect();
        assert_eq!(names, spec);
    }
}
