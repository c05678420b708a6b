//! The 8-bit float types of the corpus (e4m3, e5m2): decoding, and a reference of the cast that
//! `scripts/activations/fp8.py` applies to the f32 tensors (per-tensor scale from the absolute
//! maximum, saturating round-to-nearest-even), written independently of its ml_dtypes casts so
//! the tests can re-derive every fp8 file from its f32 source.

use crate::{f16_to_f32, Dtype, Entry};

/// Converts an e4m3 bit pattern (OCP E4M3, "fn": bias 7, no infinity) to f32, exactly.
/// `S.1111.111` is NaN; `S.1111.xxx` otherwise is a normal binade (256..=448).
pub fn e4m3_to_f32(bits: u8) -> f32 {
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 3) & 0xF);
    let man = f32::from(bits & 0x7);
    if bits & 0x7F == 0x7F {
        return f32::NAN.copysign(sign);
    }
    let mag = match exp {
        0 => man * 2f32.powi(-9), // subnormal: man/8 * 2^(1-7)
        _ => (1.0 + man / 8.0) * 2f32.powi(exp - 7),
    };
    sign * mag
}

/// Converts an e5m2 bit pattern to f32, exactly: e5m2 is the upper byte of an IEEE binary16.
pub fn e5m2_to_f32(bits: u8) -> f32 {
    f16_to_f32(u16::from(bits) << 8)
}

/// Largest finite value of an fp8 dtype (448 for e4m3, 57344 for e5m2); `None` for the others.
pub fn max_finite(dtype: Dtype) -> Option<f32> {
    match dtype {
        Dtype::E4m3 => Some(448.0),
        Dtype::E5m2 => Some(57344.0),
        _ => None,
    }
}

/// The bit pattern of the largest finite positive value (0x7E for e4m3, 0x7B for e5m2).
fn max_code(dtype: Dtype) -> u8 {
    match dtype {
        Dtype::E4m3 => 0x7E,
        _ => 0x7B,
    }
}

fn value(dtype: Dtype, bits: u8) -> f64 {
    dtype.to_f64(u32::from(bits))
}

/// Saturating round-to-nearest-even cast of `x` to an fp8 dtype (panics for other dtypes):
/// magnitudes above the largest finite value give it, the sign is kept (tiny negatives give
/// `-0`), NaN gives the NaN pattern `S.1111.111` (e4m3) or `S.11111.11` (e5m2).
pub fn cast_saturating(dtype: Dtype, x: f32) -> u8 {
    let max = max_finite(dtype).expect("cast_saturating: an fp8 dtype");
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    if x.is_nan() {
        return sign | 0x7F;
    }
    let a = f64::from(x.abs().min(max));
    // Positive codes 0..=max_code are increasing in value: find the largest one <= a.
    let (mut lo, mut hi) = (0u8, max_code(dtype));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if value(dtype, mid) <= a {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let below = value(dtype, lo);
    if below == a {
        return sign | lo;
    }
    // a < max here, so lo + 1 is finite; both distances are exact in f64.
    let (d_lo, d_hi) = (a - below, value(dtype, lo + 1) - a);
    let code = if d_lo < d_hi || (d_lo == d_hi && lo % 2 == 0) {
        lo
    } else {
        lo + 1
    };
    sign | code
}

/// The FP8 training recipe's cast of a whole tensor ("current" per-tensor scaling), all
/// arithmetic in f32: `amax = max |x|`, `scale = max_finite / amax` (1 if amax is 0), each
/// element `cast_saturating(x * scale)`. Returns the raw bytes and the scale, or `None` for a
/// dtype that is not fp8 or a tensor with an infinity or NaN (amax would be meaningless).
pub fn quantize(dtype: Dtype, xs: &[f32]) -> Option<(Vec<u8>, f32)> {
    let max = max_finite(dtype)?;
    if xs.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let amax = xs.iter().fold(0f32, |m, x| m.max(x.abs()));
    let scale = if amax == 0.0 { 1.0 } else { max / amax };
    let bytes = xs
        .iter()
        .map(|&x| cast_saturating(dtype, x * scale))
        .collect();
    Some((bytes, scale))
}

impl Entry {
    /// The fp8 fields: present exactly on e4m3/e5m2 entries, a positive finite f32 scale, and a
    /// source named like this entry with the `f32` dtype.
    pub(crate) fn validate_fp8(&self) -> Result<(), String> {
        let name = &self.file;
        match (self.dtype.is_fp8(), &self.source, self.fp8_scale) {
            (false, None, None) => Ok(()),
            (false, ..) => Err(format!(
                "{name}: source/fp8_scale are only for e4m3 and e5m2 entries"
            )),
            (true, Some(source), Some(scale)) => {
                if !(scale.is_finite() && scale > 0.0 && f64::from(scale as f32) == scale) {
                    return Err(format!(
                        "{name}: fp8_scale {scale} is not a positive finite f32 value"
                    ));
                }
                let stem = self.name();
                let stem = stem.strip_suffix(self.dtype.name()).unwrap_or(&stem);
                if *source != format!("{stem}f32.bin") {
                    return Err(format!("{name}: source {source:?} is not {stem}f32.bin"));
                }
                Ok(())
            }
            (true, ..) => Err(format!("{name}: an fp8 entry needs source and fp8_scale")),
        }
    }

    /// Checks an fp8 entry against its source entry (same elements, cut and capture).
    pub(crate) fn check_source(&self, src: &Entry) -> Result<(), String> {
        let same = src.dtype == Dtype::F32
            && (src.shape == self.shape && src.layout == self.layout)
            && (src.layer_shape == self.layer_shape && src.channels == self.channels)
            && (src.net == self.net && src.layer == self.layer && src.kind == self.kind)
            && (src.phase == self.phase && src.step == self.step && src.image == self.image);
        if same {
            Ok(())
        } else {
            Err(format!(
                "{}: source {} is not an f32 entry of the same capture and cut",
                self.file, src.file
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e4m3_decodes_known_values() {
        let cases: [(u8, f32); 9] = [
            (0x00, 0.0),
            (0x01, 2f32.powi(-9)),
            (0x07, 7.0 * 2f32.powi(-9)),
            (0x08, 2f32.powi(-6)),
            (0x38, 1.0),
            (0x78, 256.0),
            (0x7E, 448.0),
            (0xB8, -1.0),
            (0xFE, -448.0),
        ];
        for (b, v) in cases {
            assert_eq!(e4m3_to_f32(b).to_bits(), v.to_bits(), "e4m3 {b:#04x}");
        }
        assert_eq!(e4m3_to_f32(0x80).to_bits(), (-0.0f32).to_bits());
        assert!(e4m3_to_f32(0x7F).is_nan() && e4m3_to_f32(0xFF).is_nan());
    }

    #[test]
    fn e5m2_decodes_known_values() {
        assert_eq!(e5m2_to_f32(0x3C), 1.0);
        assert_eq!(e5m2_to_f32(0x01), 2f32.powi(-16));
        assert_eq!(e5m2_to_f32(0x7B), 57344.0);
        assert_eq!(e5m2_to_f32(0xC0), -2.0);
        assert_eq!(e5m2_to_f32(0x7C), f32::INFINITY);
        assert!(e5m2_to_f32(0x7D).is_nan());
    }

    #[test]
    fn cast_rounds_to_nearest_even_and_saturates() {
        let e4 = |x| cast_saturating(Dtype::E4m3, x);
        let e5 = |x| cast_saturating(Dtype::E5m2, x);
        assert_eq!(e4(1.0), 0x38);
        assert_eq!(e4(1.0625), 0x38, "tie between 1 (even) and 1.125");
        assert_eq!(e4(1.1875), 0x3A, "tie between 1.125 and 1.25 (even)");
        assert_eq!(e4(1.07), 0x39);
        assert_eq!(
            e4(2f32.powi(-10)),
            0x00,
            "half the smallest subnormal: to even 0"
        );
        assert_eq!(e4(2f32.powi(-10) * 1.01), 0x01);
        assert_eq!(e4(-1e-30), 0x80, "tiny negatives keep their sign");
        assert_eq!(e4(464.0), 0x7E, "past 448 saturates, never NaN");
        assert_eq!(e4(f32::INFINITY), 0x7E);
        assert_eq!(e4(-1e9), 0xFE);
        assert_eq!(e4(f32::NAN), 0x7F);
        assert_eq!(e5(57344.0), 0x7B);
        assert_eq!(
            e5(61440.0),
            0x7B,
            "saturates instead of rounding to infinity"
        );
        assert_eq!(e5(f32::NEG_INFINITY), 0xFB);
        assert_eq!(e5(1.125), 0x3C, "tie between 1 (even) and 1.25");
        assert_eq!(e5(1.375), 0x3E, "tie between 1.25 and 1.5 (even)");
        // Every finite code is a fixed point of decode + cast.
        for d in [Dtype::E4m3, Dtype::E5m2] {
            for b in 0..=255u8 {
                if !d.is_non_finite(u32::from(b)) {
                    assert_eq!(
                        cast_saturating(d, d.to_f64(u32::from(b)) as f32),
                        b,
                        "{d} {b:#04x}"
                    );
                }
            }
        }
    }

    #[test]
    fn quantize_scales_by_the_absolute_maximum() {
        let (q, s) = quantize(Dtype::E4m3, &[0.0, -2.0, 1.0, 0.5]).unwrap();
        assert_eq!(s, 224.0);
        assert_eq!(q, vec![0x00, 0xFE, 0x76, 0x6E]); // 0, -448, 224, 112
        let (q, s) = quantize(Dtype::E5m2, &[0.0, 0.0]).unwrap();
        assert_eq!((q, s), (vec![0, 0], 1.0), "all zero: scale 1");
        assert_eq!(quantize(Dtype::E5m2, &[1.0, f32::NAN]), None);
        assert_eq!(quantize(Dtype::F16, &[1.0]), None);
    }
}
