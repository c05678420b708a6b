//! The oracle's ZVC-X encoder: for each block, every (repeat flags, positions, k) choice is costed
//! and the cheapest is written, ties going to no repeat flags, then dense < list < group <
//! mask, then the smaller k (docs/FORMAT.md, "ZVC-X encoder choices"); raw only when
//! strictly cheaper. The RTL compressor makes the same choices, so its bits are these.

use cdma_spec::zvcx::{
    delta_class, Positions, DELTA_ESCAPE, GROUPS, GROUP_ELEMS, LIST_COUNT_BITS, LIST_INDEX_BITS,
    LIST_MAX, NESC_BITS, NESC_MAX,
};

use super::bits::{BitWriter, Code};
use super::{mode_code, Params};

/// Position kinds in tie-break order.
const KINDS: [Positions; 4] = [
    Positions::Dense,
    Positions::List,
    Positions::Group,
    Positions::Mask,
];

/// Bits of the position code of `kind` for non-zero mask `nz` (`n` non-zeros, block of
/// `len` elements), or None if the kind cannot express it.
fn positions_len(kind: Positions, nz: u32, n: u32, len: u32) -> Option<u32> {
    match kind {
        Positions::Dense => (n == len).then_some(0),
        Positions::List => (n <= LIST_MAX).then_some(LIST_COUNT_BITS + LIST_INDEX_BITS * n),
        Positions::Group => Some(GROUPS + GROUP_ELEMS * group_map(nz).count_ones()),
        Positions::Mask => Some(32),
    }
}

/// The group map of `nz`: bit `j` set iff elements `4j..4j+4` hold a non-zero.
fn group_map(nz: u32) -> u32 {
    (0..GROUPS).fold(0, |m, j| {
        m | (u32::from((nz >> (j * GROUP_ELEMS)) & 0xF != 0) << j)
    })
}

/// Bits of the largest-exponent field: absolute for the chunk's first coded block, else the
/// delta code against `prev`.
fn max_exp_len(p: &Params, max_exp: u32, prev: Option<u32>) -> u32 {
    match prev {
        None => p.exp_bits,
        Some(prev) => match delta_class(max_exp as i32 - prev as i32) {
            Some(c) => c.prefix.len() as u32 + u32::from(c.min > 0) + c.extra,
            None => DELTA_ESCAPE.len() as u32 + p.exp_bits,
        },
    }
}

fn put_max_exp(w: &mut BitWriter, p: &Params, max_exp: u32, prev: Option<u32>) {
    let Some(prev) = prev else {
        w.put(u64::from(max_exp), p.exp_bits);
        return;
    };
    let d = max_exp as i32 - prev as i32;
    match delta_class(d) {
        Some(c) => {
            w.put_code(Code::parse(c.prefix));
            if c.min > 0 {
                w.put(u64::from(d < 0), 1);
                w.put(u64::from(d.unsigned_abs() - c.min), c.extra);
            }
        }
        None => {
            w.put_code(Code::parse(DELTA_ESCAPE));
            w.put(u64::from(max_exp), p.exp_bits);
        }
    }
}

/// The cheapest coding of one repeat choice: its body bits (repeat flags + fields + escaped
/// exponents) and its k.
struct Body {
    bits: u32,
    k: u32,
}

/// Costs the fields of the `kept` elements for every k and returns the cheapest (smallest k
/// on a tie). `flags`: repeat-flag bits.
fn best_body(p: &Params, v: &[u32; 32], kept: u32, flags: u32, max_exp: u32, sgn: u32) -> Body {
    let nk = kept.count_ones();
    if !p.float {
        return Body {
            bits: flags + nk * p.width,
            k: 0,
        };
    }
    let mut max_off = 0;
    // esc_ge[k] = kept offsets >= 2^k - 1, for 1 <= k < exp_bits.
    let mut esc_ge = [0u32; 9];
    let mut bits = kept;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let off = max_exp - p.exp_of(v[i]);
        max_off = max_off.max(off);
        for (k, e) in esc_ge
            .iter_mut()
            .enumerate()
            .take(p.exp_bits as usize)
            .skip(1)
        {
            *e += u32::from(off >= (1 << k) - 1);
        }
    }
    let mut best = Body {
        bits: u32::MAX,
        k: 0,
    };
    for k in 0..=p.exp_bits {
        if k == 0 && max_off != 0 {
            continue; // k = 0 needs every kept exponent to be the largest
        }
        let esc = if p.escapes(k) { esc_ge[k as usize] } else { 0 };
        if esc > NESC_MAX {
            continue;
        }
        let b = flags + nk * (k + sgn + p.man_bits) + esc * p.exp_bits;
        if b < best.bits {
            best = Body { bits: b, k };
        }
    }
    best
}

/// Encodes one block of `len` (1..=32) elements `v[..len]` (the rest 0). `prev`: the largest
/// exponent of the chunk's previous coded block, updated when this one is coded.
pub(super) fn encode_block(
    w: &mut BitWriter,
    p: &Params,
    v: &[u32; 32],
    len: u32,
    prev: &mut Option<u32>,
) {
    let mut nz = 0u32;
    for (i, &x) in v.iter().enumerate().take(len as usize) {
        nz |= u32::from(x != 0) << i;
    }
    let n = nz.count_ones();
    if n == 0 {
        w.put_code(mode_code(None, false));
        return;
    }
    // rep: non-zeros equal to the previous non-zero.
    let (mut rep, mut last, mut bits) = (0u32, None, nz);
    let (mut max_exp, mut signs) = (0u32, 0u32);
    while bits != 0 {
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        let x = v[i as usize];
        if last == Some(x) {
            rep |= 1 << i;
        }
        last = Some(x);
        if p.float {
            max_exp = max_exp.max(p.exp_of(x));
            signs |= p.sign_of(x);
        }
    }
    let sgn = u32::from(p.float && signs != 0);
    let hdr = if p.float {
        max_exp_len(p, max_exp, *prev) + p.k_bits + NESC_BITS + 1
    } else {
        0
    };
    // (total, repeat, kind index, k)
    let mut best: Option<(u32, bool, usize, u32)> = None;
    for repeat in [false, true] {
        if repeat && rep == 0 {
            continue; // never cheaper: longer mode codes and flags for nothing
        }
        let kept = if repeat { nz & !rep } else { nz };
        let flags = if repeat { n - 1 } else { 0 };
        let body = best_body(p, v, kept, flags, max_exp, sgn);
        for (ki, &kind) in KINDS.iter().enumerate() {
            let Some(pos) = positions_len(kind, nz, n, len) else {
                continue;
            };
            let total = mode_code(Some(kind), repeat).len + pos + hdr + body.bits;
            if best.is_none_or(|b| total < b.0) {
                best = Some((total, repeat, ki, body.k));
            }
        }
    }
    let (total, repeat, ki, k) = best.expect("mask positions always apply");
    let raw_code = mode_code(None, true);
    if raw_code.len + len * p.width < total {
        w.put_code(raw_code);
        for &x in &v[..len as usize] {
            w.put(u64::from(x), p.width);
        }
        return;
    }
    let kind = KINDS[ki];
    w.put_code(mode_code(Some(kind), repeat));
    put_positions(w, kind, nz, n);
    let kept = if repeat { nz & !rep } else { nz };
    // Kept elements whose offset does not fit below the all-ones escape code.
    let lim = (1u32 << k) - 1;
    let mut escaped = 0u32;
    if p.float {
        let mut bits = kept;
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            if p.escapes(k) && max_exp - p.exp_of(v[i as usize]) >= lim {
                escaped |= 1 << i;
            }
        }
        put_max_exp(w, p, max_exp, *prev);
        *prev = Some(max_exp);
        w.put(u64::from(k), p.k_bits);
        w.put(u64::from(escaped.count_ones()), NESC_BITS);
        w.put(u64::from(sgn == 0), 1);
    }
    if repeat {
        // One flag per non-zero after the first.
        let mut bits = nz & (nz - 1);
        while bits != 0 {
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            w.put(u64::from((rep >> i) & 1), 1);
        }
    }
    let mut bits = kept;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let x = v[i];
        if p.float {
            // An escaped offset is written as all ones (k bits); its exponent follows later.
            let code = if (escaped >> i) & 1 == 1 {
                lim
            } else {
                max_exp - p.exp_of(x)
            };
            let sign = if sgn == 1 { p.sign_of(x) } else { 0 };
            let field = (u64::from(code) << (sgn + p.man_bits))
                | (u64::from(sign) << p.man_bits)
                | u64::from(p.man_of(x));
            w.put(field, k + sgn + p.man_bits);
        } else {
            w.put(u64::from(x), p.width);
        }
    }
    let mut bits = escaped;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        w.put(u64::from(p.exp_of(v[i])), p.exp_bits);
    }
}

fn put_positions(w: &mut BitWriter, kind: Positions, nz: u32, n: u32) {
    match kind {
        Positions::Dense => {}
        Positions::List => {
            w.put(u64::from(n - 1), LIST_COUNT_BITS);
            let mut bits = nz;
            while bits != 0 {
                w.put(u64::from(bits.trailing_zeros()), LIST_INDEX_BITS);
                bits &= bits - 1;
            }
        }
        Positions::Group => {
            let map = group_map(nz);
            w.put(u64::from(map), GROUPS);
            for j in 0..GROUPS {
                if (map >> j) & 1 == 1 {
                    w.put(u64::from((nz >> (j * GROUP_ELEMS)) & 0xF), GROUP_ELEMS);
                }
            }
        }
        Positions::Mask => w.put(u64::from(nz), 32),
    }
}
