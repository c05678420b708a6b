//! A deliberately naive ZVC-X encoder written straight from docs/FORMAT.md ("One block",
//! "Encoder choices"): it builds every candidate block as a bit vector and keeps the
//! lexicographically smallest (bits, repeat, positions, k). The model's encoder must write
//! exactly the same bits, so its choices (the ones the RTL has to copy) are pinned.

use cdma_model::{zvcx, ElemType};
use cdma_spec::zvcx::{delta_class, mode_of, ModeKind, Positions, DELTA_ESCAPE};
use proptest::prelude::*;

fn push(bits: &mut Vec<bool>, v: u64, n: u32) {
    bits.extend((0..n).map(|i| (v >> i) & 1 == 1));
}

fn push_code(bits: &mut Vec<bool>, code: &str) {
    bits.extend(code.chars().map(|c| c == '1'));
}

struct Ty {
    w: u32,
    e: u32,
    m: u32,
    kb: u32,
}

/// A candidate's sort key: (bits, repeat flags, positions in tie order, k).
type Key = (usize, bool, usize, u32);

/// Every candidate coding of one block, each with its sort key.
fn candidates(t: &Ty, v: &[u32], prev: Option<u32>) -> Vec<(Key, Vec<bool>)> {
    let len = v.len() as u32;
    let nzs: Vec<usize> = (0..v.len()).filter(|&i| v[i] != 0).collect();
    let n = nzs.len() as u32;
    let float = t.e > 0;
    let exp = |x: u32| {
        if float {
            (x >> t.m) & ((1 << t.e) - 1)
        } else {
            0
        }
    };
    let x_max = nzs.iter().map(|&i| exp(v[i])).max().unwrap_or(0);
    let all_pos = !float || nzs.iter().all(|&i| (v[i] >> (t.e + t.m)) & 1 == 0);
    let mut out = Vec::new();
    for repeat in [false, true] {
        let rep: Vec<bool> = (0..nzs.len())
            .map(|j| repeat && j > 0 && v[nzs[j]] == v[nzs[j - 1]])
            .collect();
        for (pi, pos) in [
            Positions::Dense,
            Positions::List,
            Positions::Group,
            Positions::Mask,
        ]
        .into_iter()
        .enumerate()
        {
            if pos == Positions::Dense && n != len || pos == Positions::List && n > 4 {
                continue;
            }
            for k in 0..=t.e {
                let esc_on = k > 0 && k < t.e;
                let kept: Vec<usize> = (0..nzs.len())
                    .filter(|&j| !rep[j])
                    .map(|j| nzs[j])
                    .collect();
                let escaped: Vec<usize> = kept
                    .iter()
                    .copied()
                    .filter(|&i| esc_on && x_max - exp(v[i]) >= (1 << k) - 1)
                    .collect();
                if float
                    && (escaped.len() > 3 || k == 0 && kept.iter().any(|&i| exp(v[i]) != x_max))
                {
                    continue;
                }
                if !float && k > 0 {
                    continue;
                }
                let mut b = Vec::new();
                push_code(
                    &mut b,
                    mode_of(ModeKind::Coded {
                        positions: pos,
                        repeat,
                    })
                    .code,
                );
                match pos {
                    Positions::Dense => {}
                    Positions::List => {
                        push(&mut b, u64::from(n - 1), 2);
                        for &i in &nzs {
                            push(&mut b, i as u64, 5);
                        }
                    }
                    Positions::Group => {
                        let groups: Vec<u32> = (0..8)
                            .map(|g| {
                                nzs.iter()
                                    .filter(|&&i| i / 4 == g)
                                    .fold(0, |m, &i| m | 1 << (i % 4))
                            })
                            .collect();
                        for (g, &m) in groups.iter().enumerate() {
                            push(&mut b, u64::from(m != 0), 1);
                            let _ = g;
                        }
                        for &m in groups.iter().filter(|&&m| m != 0) {
                            push(&mut b, u64::from(m), 4);
                        }
                    }
                    Positions::Mask => {
                        push(&mut b, nzs.iter().fold(0u64, |m, &i| m | 1 << i), 32);
                    }
                }
                if float {
                    match prev {
                        None => push(&mut b, u64::from(x_max), t.e),
                        Some(p) => {
                            let d = x_max as i32 - p as i32;
                            match delta_class(d) {
                                Some(c) => {
                                    push_code(&mut b, c.prefix);
                                    if c.min > 0 {
                                        push(&mut b, u64::from(d < 0), 1);
                                        push(&mut b, u64::from(d.unsigned_abs() - c.min), c.extra);
                                    }
                                }
                                None => {
                                    push_code(&mut b, DELTA_ESCAPE);
                                    push(&mut b, u64::from(x_max), t.e);
                                }
                            }
                        }
                    }
                    push(&mut b, u64::from(k), t.kb);
                    push(&mut b, escaped.len() as u64, 2);
                    push(&mut b, u64::from(all_pos), 1);
                }
                if repeat {
                    for &r in &rep[1..] {
                        push(&mut b, u64::from(r), 1);
                    }
                }
                for &i in &kept {
                    if float {
                        let off = x_max - exp(v[i]);
                        let off = if escaped.contains(&i) {
                            (1 << k) - 1
                        } else {
                            off
                        };
                        if !all_pos {
                            // field = offset · 2^(1+m) + sign · 2^m + mantissa
                            let sign = (v[i] >> (t.e + t.m)) & 1;
                            let f = (u64::from(off) << (1 + t.m))
                                | u64::from(sign) << t.m
                                | u64::from(v[i] & ((1 << t.m) - 1));
                            push(&mut b, f, k + 1 + t.m);
                        } else {
                            let f = (u64::from(off) << t.m) | u64::from(v[i] & ((1 << t.m) - 1));
                            push(&mut b, f, k + t.m);
                        }
                    } else {
                        push(&mut b, u64::from(v[i]), t.w);
                    }
                }
                for &i in &escaped {
                    push(&mut b, u64::from(exp(v[i])), t.e);
                }
                out.push(((b.len(), repeat, pi, k), b));
            }
        }
    }
    out
}

/// The reference encoding of `data` (elements of `ty`).
fn reference_encode(data: &[u8], ty: ElemType) -> Vec<u8> {
    let eb = ty.width().bytes();
    let t = Ty {
        w: ty.width().bits(),
        e: ty.exp_bits(),
        m: ty.man_bits(),
        kb: ty.spec().k_bits(),
    };
    let elems: Vec<u32> = data
        .chunks(eb)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..eb].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect();
    let mut bits = Vec::new();
    let mut prev = None;
    for v in elems.chunks(32) {
        if v.iter().all(|&x| x == 0) {
            push_code(&mut bits, mode_of(ModeKind::Zero).code);
            continue;
        }
        let (key, best) = candidates(&t, v, prev)
            .into_iter()
            .min_by_key(|(key, _)| *key)
            .expect("mask always applies");
        let raw_len = 8 + v.len() * t.w as usize;
        if raw_len < key.0 {
            push_code(&mut bits, mode_of(ModeKind::Raw).code);
            for &x in v {
                push(&mut bits, u64::from(x), t.w);
            }
        } else {
            bits.extend(best);
            if t.e > 0 {
                prev = v
                    .iter()
                    .filter(|&&x| x != 0)
                    .map(|&x| (x >> t.m) & ((1 << t.e) - 1))
                    .max();
            }
        }
    }
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |b, (i, &x)| b | u8::from(x) << i)
        })
        .collect()
}

fn elem_type() -> impl Strategy<Value = ElemType> {
    prop::sample::select(ElemType::ALL.to_vec())
}

/// Elements drawn from a small per-test palette (so repeats, equal exponents and ties are
/// common), zeros, and arbitrary patterns.
fn tensor() -> impl Strategy<Value = (ElemType, Vec<u8>)> {
    (elem_type(), prop::collection::vec(any::<u32>(), 1..6)).prop_flat_map(|(t, palette)| {
        let eb = t.width().bytes();
        let elem = (0u32..10, any::<u32>(), 0usize..6).prop_map(move |(r, x, p)| {
            let v = match r {
                0..=3 => 0,
                4..=7 => palette[p % palette.len()],
                _ => x,
            };
            v.to_le_bytes()[..eb].to_vec()
        });
        (
            Just(t),
            prop::collection::vec(elem, 0..200).prop_map(|v| v.concat()),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn model_encoder_writes_the_reference_bits((t, data) in tensor()) {
        prop_assert_eq!(zvcx::encode(&data, t).unwrap(), reference_encode(&data, t), "{}", t);
    }
}

/// Blocks built to tie, so each tie-break rule decides the bits: k (f16, offsets 0,0,0,0,1:
/// k = 1 with one escape costs what k = 2 costs; the smaller k wins), positions (six groups
/// hold a non-zero: group and mask both 34 bits; group wins) and repeat flags (raw8, seven
/// non-zeros, one repeating: with and without flags 90 bits; no flags wins).
#[test]
fn ties_follow_the_documented_order() {
    let f16 = |exp: u16, man: u16| (exp << 10 | man).to_le_bytes();
    let mut k_tie = vec![0u8; 64];
    for (i, (e, m)) in [(15, 1), (15, 2), (15, 3), (15, 4), (14, 5)]
        .into_iter()
        .enumerate()
    {
        k_tie[2 * i..2 * i + 2].copy_from_slice(&f16(e, m));
    }
    let mut group_tie = vec![0u8; 32];
    for g in 0..6 {
        group_tie[4 * g] = 1 + g as u8;
    }
    group_tie[1] = 9; // a seventh non-zero, so no list
    let mut rep_tie = vec![0u8; 32];
    for (g, v) in [1u8, 2, 3, 4, 5, 6, 6].into_iter().enumerate() {
        rep_tie[4 * g] = v;
    }
    for (what, ty, data) in [
        ("k", ElemType::F16, k_tie),
        (
            "positions",
            ElemType::Raw(cdma_model::ElemWidth::W8),
            group_tie,
        ),
        ("repeat", ElemType::Raw(cdma_model::ElemWidth::W8), rep_tie),
    ] {
        assert_eq!(
            zvcx::encode(&data, ty).unwrap(),
            reference_encode(&data, ty),
            "{what}"
        );
    }
}
