//! Deterministic synthetic edge-case tensors, for tests and testbenches.
//!
//! They cover what real activations rarely contain but a codec must get right: every
//! sparsity extreme, bit patterns that are "zero" numerically but not bitwise (`-0.0`), NaN
//! payloads, denormals, infinities, a single non-zero element at each block position, every
//! single-bit element, and every length from 0 to 100 elements that is not a multiple of 32
//! (partial final blocks). The real corpus is never used here.

use crate::rng::XorShift64;
use crate::ElemWidth;

/// Element bit patterns of one width, as u32 values (only the low `bits` bits are used).
struct Patterns {
    /// (name, pattern) pairs of special values for this width.
    special: Vec<(&'static str, u32)>,
}

fn patterns(elem: ElemWidth) -> Patterns {
    let special = match elem {
        ElemWidth::W32 => vec![
            ("neg_zero_f32", 0x8000_0000),
            ("qnan_f32", 0x7FC0_0000),
            ("qnan_payload_f32", 0x7FC1_2345),
            ("snan_f32", 0x7F80_0001),
            ("snan_payload_f32", 0x7FA5_A5A5),
            ("neg_qnan_f32", 0xFFC0_0000),
            ("neg_snan_f32", 0xFF80_0001),
            ("min_denormal_f32", 0x0000_0001),
            ("max_denormal_f32", 0x007F_FFFF),
            ("neg_min_denormal_f32", 0x8000_0001),
            ("pos_inf_f32", 0x7F80_0000),
            ("neg_inf_f32", 0xFF80_0000),
        ],
        ElemWidth::W16 => vec![
            ("neg_zero_f16", 0x8000),
            ("qnan_f16", 0x7E00),
            ("qnan_payload_f16", 0x7E5A),
            ("snan_f16", 0x7C01),
            ("neg_qnan_f16", 0xFE00),
            ("neg_snan_f16", 0xFC01),
            ("min_denormal_f16", 0x0001),
            ("max_denormal_f16", 0x03FF),
            ("neg_min_denormal_f16", 0x8001),
            ("pos_inf_f16", 0x7C00),
            ("neg_inf_f16", 0xFC00),
            ("qnan_bf16", 0x7FC0),
            ("snan_bf16", 0x7F81),
            ("neg_qnan_bf16", 0xFFC0),
            ("min_denormal_bf16", 0x0001),
            ("max_denormal_bf16", 0x007F),
            ("pos_inf_bf16", 0x7F80),
            ("neg_inf_bf16", 0xFF80),
        ],
        ElemWidth::W8 => vec![
            ("neg_zero_fp8", 0x80),
            ("nan_e4m3", 0x7F),
            ("neg_nan_e4m3", 0xFF),
            ("qnan_e5m2", 0x7E),
            ("snan_e5m2", 0x7D),
            ("neg_qnan_e5m2", 0xFE),
            ("min_denormal_fp8", 0x01),
            ("neg_min_denormal_fp8", 0x81),
            ("pos_inf_e5m2", 0x7C),
            ("neg_inf_e5m2", 0xFC),
            ("int8_minus_one", 0xFF),
            ("int8_min", 0x80),
        ],
    };
    Patterns { special }
}

/// Serialises element values (low `elem.bits()` bits of each) little-endian.
fn to_bytes(elems: &[u32], elem: ElemWidth) -> Vec<u8> {
    let b = elem.bytes();
    elems
        .iter()
        .flat_map(|e| e.to_le_bytes()[..b].to_vec())
        .collect()
}

/// A non-zero element value (low `bits` bits never all zero).
fn nonzero(rng: &mut XorShift64, elem: ElemWidth) -> u32 {
    let mask = if elem.bits() == 32 {
        u32::MAX
    } else {
        (1u32 << elem.bits()) - 1
    };
    loop {
        let v = rng.next() as u32 & mask;
        if v != 0 {
            return v;
        }
    }
}

/// Returns the deterministic edge-case tensors for `elem`, each as `(name, bytes)`; names are
/// unique and say what the tensor holds (`n` in a name is its element count). Every tensor is
/// a whole number of `elem`-wide elements. The same width always yields the same list.
pub fn edge_tensors(elem: ElemWidth) -> Vec<(String, Vec<u8>)> {
    let mut rng = XorShift64::new(0x9E37_79B9_7F4A_7C15 ^ u64::from(elem.bits()));
    let mut t: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: String, elems: Vec<u32>| t.push((name, to_bytes(&elems, elem)));

    add("empty_n0".into(), vec![]);
    for n in [1, 31, 32, 33, 1024, 1000] {
        add(format!("all_zero_n{n}"), vec![0; n]);
    }
    for n in [1, 31, 32, 33, 1024, 1000] {
        let v = (0..n).map(|_| nonzero(&mut rng, elem)).collect();
        add(format!("all_nonzero_random_n{n}"), v);
    }
    add("all_ones_bits_n100".into(), vec![u32::MAX; 100]);

    // Special values, alone (fills whole blocks) and interleaved with zeros.
    for (name, p) in patterns(elem).special {
        add(format!("{name}_all_n64"), vec![p; 64]);
        add(
            format!("{name}_every_3rd_n70"),
            (0..70).map(|i| if i % 3 == 0 { p } else { 0 }).collect(),
        );
    }

    // Every single-bit element: a zero test that ignores some bit would lose one of them.
    add(
        "single_bit_elems_each_position".into(),
        (0..elem.bits()).map(|k| 1u32 << k).collect(),
    );
    add(
        "single_bit_elems_with_zeros".into(),
        (0..elem.bits() * 2)
            .map(|k| if k % 2 == 0 { 1u32 << (k / 2) } else { 0 })
            .collect(),
    );

    // Alternating zero / non-zero, both phases, full and partial blocks.
    for n in [64, 67] {
        for (phase, zero_parity) in [("zero_first", 0), ("nonzero_first", 1)] {
            add(
                format!("alternating_{phase}_n{n}"),
                (0..n)
                    .map(|i| {
                        if i % 2 == zero_parity {
                            0
                        } else {
                            nonzero(&mut rng, elem)
                        }
                    })
                    .collect(),
            );
        }
    }

    // A single non-zero element at each position of a block, one tensor per position,
    // and all positions in one tensor (block k has only element k set).
    for p in 0..32 {
        let mut v = vec![0u32; 32];
        v[p] = nonzero(&mut rng, elem);
        add(format!("single_nonzero_at_{p}_n32"), v);
    }
    let mut diag = vec![0u32; 32 * 32];
    for k in 0..32 {
        diag[k * 32 + k] = nonzero(&mut rng, elem);
    }
    add("single_nonzero_diagonal_32_blocks".into(), diag);
    // And the complement: every element but one non-zero, one block per position.
    let mut anti = vec![0u32; 32 * 32];
    for (i, e) in anti.iter_mut().enumerate() {
        if i % 32 != i / 32 {
            *e = nonzero(&mut rng, elem);
        }
    }
    add("single_zero_diagonal_32_blocks".into(), anti);

    // Every length 1..=100 that leaves a partial final block, with ~50 % zeros.
    for n in (1..=100).filter(|n| n % 32 != 0) {
        let v = (0..n)
            .map(|_| {
                if rng.next().is_multiple_of(2) {
                    0
                } else {
                    nonzero(&mut rng, elem)
                }
            })
            .collect();
        add(format!("mixed_half_zero_n{n}"), v);
    }
    // Partial final blocks whose last valid element is non-zero (tests the mask edge).
    for n in [33, 63, 65, 95, 97] {
        let mut v = vec![0u32; n];
        v[n - 1] = nonzero(&mut rng, elem);
        add(format!("last_elem_only_nonzero_n{n}"), v);
    }

    // Sparsity sweep over many blocks (stresses packers at every fill level).
    for pct in [0u64, 10, 25, 50, 55, 75, 90, 99, 100] {
        let v = (0..4096)
            .map(|_| {
                if rng.next() % 100 < pct {
                    0
                } else {
                    nonzero(&mut rng, elem)
                }
            })
            .collect();
        add(format!("random_{pct}pct_zero_n4096"), v);
    }
    // Runs of zeros and non-zeros of varied length (block-crossing runs).
    let mut runs = Vec::new();
    let mut zero = true;
    while runs.len() < 3000 {
        let len = 1 + (rng.next() % 80) as usize;
        for _ in 0..len {
            runs.push(if zero { 0 } else { nonzero(&mut rng, elem) });
        }
        zero = !zero;
    }
    runs.truncate(3000);
    add("zero_runs_random_lengths_n3000".into(), runs);
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn deterministic_unique_and_whole_elements() {
        for w in ElemWidth::ALL {
            let a = edge_tensors(w);
            assert_eq!(a, edge_tensors(w), "must be deterministic");
            let names: HashSet<_> = a.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names.len(), a.len(), "names must be unique");
            for (name, d) in &a {
                assert_eq!(d.len() % w.bytes(), 0, "{name}");
                if let Some(n) = name
                    .rsplit("_n")
                    .next()
                    .and_then(|s| s.parse::<usize>().ok())
                {
                    assert_eq!(d.len(), n * w.bytes(), "{name}: length must match the name");
                }
            }
            // Required coverage.
            for n in (1..=100).filter(|n| n % 32 != 0) {
                assert!(names.contains(format!("mixed_half_zero_n{n}").as_str()));
            }
            for p in 0..32 {
                assert!(names.contains(format!("single_nonzero_at_{p}_n32").as_str()));
            }
            assert!(names.contains("empty_n0"));
        }
    }

    #[test]
    fn contents_match_names() {
        let t = edge_tensors(ElemWidth::W32);
        let get = |n: &str| &t.iter().find(|(name, _)| name == n).unwrap().1;
        assert!(get("all_zero_n1000").iter().all(|&b| b == 0));
        assert!(get("all_nonzero_random_n1000")
            .chunks(4)
            .all(|e| e != [0, 0, 0, 0]));
        assert_eq!(&get("neg_zero_f32_all_n64")[..4], &[0, 0, 0, 0x80]);
        let s = get("single_nonzero_at_5_n32");
        for (i, e) in s.chunks(4).enumerate() {
            assert_eq!(e != [0, 0, 0, 0], i == 5);
        }
        let h = edge_tensors(ElemWidth::W16);
        let snan = &h.iter().find(|(n, _)| n == "snan_bf16_all_n64").unwrap().1;
        assert_eq!(&snan[..2], &[0x81, 0x7F]);
    }

    #[test]
    fn every_edge_tensor_round_trips() {
        for w in ElemWidth::ALL {
            for (name, d) in edge_tensors(w) {
                let f = crate::compress(&d, w).unwrap();
                assert_eq!(crate::decompress(&f).unwrap(), d, "{name}");
            }
        }
    }
}
