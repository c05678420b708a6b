//! Unit tests of the dtypes, their conversions and bit statistics.

use super::*;

#[test]
fn dtype_names_round_trip() {
    for d in Dtype::ALL {
        assert_eq!(Dtype::from_name(d.name()), Some(d));
    }
    assert_eq!(Dtype::from_name("f64"), None);
    assert_eq!(
        Dtype::ALL.map(Dtype::elem_bits),
        [32, 16, 16, 8, 8, 8, 8],
        "element widths"
    );
}

#[test]
fn f16_conversion_matches_known_values() {
    let cases: [(u16, f32); 8] = [
        (0x0000, 0.0),
        (0x3C00, 1.0),
        (0xC000, -2.0),
        (0x7BFF, 65504.0),
        (0x0001, 5.960_464_5e-8),
        (0x8001, -5.960_464_5e-8),
        (0x03FF, 6.097_555e-5),
        (0x7C00, f32::INFINITY),
    ];
    for (bits, v) in cases {
        assert_eq!(f16_to_f32(bits).to_bits(), v.to_bits(), "f16 {bits:#06x}");
    }
    assert_eq!(
        f16_to_f32(0x8000).to_bits(),
        0x8000_0000,
        "-0 keeps its sign"
    );
    // A NaN payload survives (shifted into the f32 mantissa).
    assert_eq!(f16_to_f32(0x7E01).to_bits(), 0x7FC0_2000);
}

#[test]
fn bf16_conversion_is_the_top_half() {
    assert_eq!(bf16_to_f32(0x3F80), 1.0);
    assert_eq!(bf16_to_f32(0xC040), -3.0);
    assert_eq!(Dtype::Bf16.to_f64(0x4049), 3.140_625);
}

#[test]
fn bit_stats_count_patterns() {
    let f32s: Vec<u8> = [0u32, 0x8000_0000, 0x7F80_0000, 0xFFC0_0001, 0x3F80_0000, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let s = BitStats::of(Dtype::F32, &f32s);
    assert_eq!(
        s,
        BitStats {
            elements: 6,
            pos_zero: 2,
            neg_zero: 1,
            non_finite: 2
        }
    );
    assert_eq!(s.sparsity(), 2.0 / 6.0);
    let f16s: Vec<u8> = [0u16, 0x8000, 0x7C00, 0x7BFF]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let s = BitStats::of(Dtype::F16, &f16s);
    assert_eq!((s.pos_zero, s.neg_zero, s.non_finite), (1, 1, 1));
    // 0x7F80 is +inf in bf16 but a finite number in f16.
    let w = 0x7F80u16.to_le_bytes();
    assert_eq!(BitStats::of(Dtype::Bf16, &w).non_finite, 1);
    assert_eq!(BitStats::of(Dtype::F16, &w).non_finite, 1);
    let w = 0x7C00u16.to_le_bytes();
    assert_eq!(BitStats::of(Dtype::Bf16, &w).non_finite, 0);
    // e4m3: only S.1111.111 is non-finite (0x78 is 256, 0x7E is 448); e5m2: exponent 11111.
    let b = [0x00, 0x80, 0x7F, 0xFF, 0x78, 0x7E, 0x7C, 0xFC, 0x7D, 0x01];
    let s = BitStats::of(Dtype::E4m3, &b);
    assert_eq!(
        (s.elements, s.pos_zero, s.neg_zero, s.non_finite),
        (10, 1, 1, 2)
    );
    let s = BitStats::of(Dtype::E5m2, &b);
    assert_eq!((s.pos_zero, s.neg_zero, s.non_finite), (1, 1, 6));
    assert_eq!(Dtype::E4m3.to_f64(0x7E), 448.0);
    assert_eq!(Dtype::E5m2.to_f64(0x7B), 57344.0);
}
