//! What a frame says about its elements beyond their width: the element type (frame version
//! 3's `elem_type` byte, table in `cdma_spec::zvcx`) and the codec of its compressed chunks.

use cdma_spec::zvcx as spec;

use crate::{ElemWidth, FormatError};

/// The element type: how ZVC-X splits an element into sign, exponent and mantissa. ZVC only
/// uses the width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// Untyped elements of a width (the only type of a version 2 frame).
    Raw(ElemWidth),
    /// IEEE 754 binary32.
    F32,
    /// bfloat16.
    Bf16,
    /// IEEE 754 binary16.
    F16,
    /// OCP FP8 E4M3.
    E4m3,
    /// OCP FP8 E5M2.
    E5m2,
}

impl ElemType {
    /// Every type, the raw ones first (narrowest first), then the floats by code.
    pub const ALL: [ElemType; 8] = [
        ElemType::Raw(ElemWidth::W8),
        ElemType::Raw(ElemWidth::W16),
        ElemType::Raw(ElemWidth::W32),
        ElemType::F32,
        ElemType::Bf16,
        ElemType::F16,
        ElemType::E4m3,
        ElemType::E5m2,
    ];

    /// The spec's entry for this type.
    pub fn spec(self) -> spec::ElemType {
        match self {
            ElemType::Raw(_) => spec::RAW,
            ElemType::F32 => spec::F32,
            ElemType::Bf16 => spec::BF16,
            ElemType::F16 => spec::F16,
            ElemType::E4m3 => spec::E4M3,
            ElemType::E5m2 => spec::E5M2,
        }
    }

    /// The element width.
    pub fn width(self) -> ElemWidth {
        match self {
            ElemType::Raw(w) => w,
            ElemType::F32 => ElemWidth::W32,
            ElemType::Bf16 | ElemType::F16 => ElemWidth::W16,
            ElemType::E4m3 | ElemType::E5m2 => ElemWidth::W8,
        }
    }

    /// The `elem_type` code (0 for every raw width).
    pub fn code(self) -> u8 {
        self.spec().code
    }

    /// The name: `raw8`, `raw16`, `raw32`, or the spec's (`f32`, `bf16`, `f16`, `e4m3`,
    /// `e5m2`).
    pub fn name(self) -> String {
        match self {
            ElemType::Raw(w) => format!("raw{}", w.bits()),
            t => t.spec().name.to_string(),
        }
    }

    /// The type called `name` ([`ElemType::name`]), if any.
    pub fn from_name(name: &str) -> Option<ElemType> {
        ElemType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The type called `name`, or an error listing the names (for the command line and the
    /// Python package).
    pub fn parse(name: &str) -> Result<ElemType, String> {
        ElemType::from_name(name).ok_or_else(|| {
            let names: Vec<String> = ElemType::ALL.iter().map(|t| t.name()).collect();
            format!(
                "unknown element type `{name}` (one of {})",
                names.join(", ")
            )
        })
    }

    /// The type of header code `code` with elements of `width`: an unknown code is
    /// [`FormatError::UnknownElemType`], a float type of another width
    /// [`FormatError::ElemTypeWidthMismatch`].
    pub fn from_code(code: u8, width: ElemWidth) -> Result<ElemType, FormatError> {
        if code == spec::RAW.code {
            return Ok(ElemType::Raw(width));
        }
        let t = ElemType::ALL
            .into_iter()
            .find(|t| t.code() == code)
            .ok_or(FormatError::UnknownElemType { code })?;
        if t.width() != width {
            return Err(FormatError::ElemTypeWidthMismatch {
                elem_type: t.spec().name,
                type_bits: t.width().bits(),
                elem_bits: width.bits(),
            });
        }
        Ok(t)
    }

    /// Exponent bits (0 for raw types).
    pub fn exp_bits(self) -> u32 {
        self.spec().exp_bits
    }

    /// Mantissa bits; for a raw type the whole element.
    pub fn man_bits(self) -> u32 {
        match self {
            ElemType::Raw(w) => w.bits(),
            t => t.spec().man_bits,
        }
    }

    /// Whether elements have a sign bit, an exponent and a mantissa.
    pub fn is_float(self) -> bool {
        self.spec().is_float()
    }
}

impl std::fmt::Display for ElemType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// The codec of a frame's compressed chunks (the header's `codec` byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// Zero-value compression (codec 1): a 32-bit mask per 32 elements, then the non-zeros.
    Zvc,
    /// ZVC-X (codec 2): float-aware blocks (docs/FORMAT.md).
    ZvcX,
}

impl Codec {
    /// Both codecs.
    pub const ALL: [Codec; 2] = [Codec::Zvc, Codec::ZvcX];

    /// The header's codec byte.
    pub fn id(self) -> u8 {
        match self {
            Codec::Zvc => cdma_spec::frame::CODEC_ZVC,
            Codec::ZvcX => cdma_spec::frame::CODEC_ZVCX,
        }
    }

    /// The codec of header byte `id`, if known.
    pub fn from_id(id: u8) -> Option<Codec> {
        Codec::ALL.into_iter().find(|c| c.id() == id)
    }

    /// `zvc` or `zvcx` (as the command line spells them).
    pub fn name(self) -> &'static str {
        match self {
            Codec::Zvc => "zvc",
            Codec::ZvcX => "zvcx",
        }
    }
}

impl Codec {
    /// The codec called `name` ([`Codec::name`]), or an error listing the names (for the
    /// command line and the Python package).
    pub fn parse(name: &str) -> Result<Codec, String> {
        Codec::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Codec::ALL.iter().map(|c| c.name()).collect();
                format!("unknown codec `{name}` (one of {})", names.join(", "))
            })
    }
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_round_trip_through_codes_and_names() {
        for t in ElemType::ALL {
            assert_eq!(ElemType::from_code(t.code(), t.width()), Ok(t));
            assert_eq!(ElemType::from_name(&t.name()), Some(t));
            assert_eq!(ElemType::parse(&t.name()), Ok(t));
            if t.is_float() {
                assert_eq!(1 + t.exp_bits() + t.man_bits(), t.width().bits(), "{t}");
            } else {
                assert_eq!((t.exp_bits(), t.man_bits()), (0, t.width().bits()));
            }
        }
        assert_eq!(
            ElemType::from_code(9, ElemWidth::W8),
            Err(FormatError::UnknownElemType { code: 9 })
        );
        assert!(matches!(
            ElemType::from_code(1, ElemWidth::W16),
            Err(FormatError::ElemTypeWidthMismatch {
                type_bits: 32,
                elem_bits: 16,
                ..
            })
        ));
        for c in Codec::ALL {
            assert_eq!(Codec::from_id(c.id()), Some(c));
        }
        assert_eq!(Codec::from_id(0), None);
    }
}
