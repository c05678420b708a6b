//! Conversions between rust-hdl's wide `Bits<N>` and plain 64-bit words, for the Rust
//! models (`update()`) of the encoder's Verilog leaves: they compute on words, which keeps
//! rust-hdl's simulator of 1024-bit datapaths fast enough for the unit tests.

use rust_hdl::core::prelude::*;

/// The bits of `v` as little-endian 64-bit words (`ceil(N/64)` of them).
pub(crate) fn words_of<const N: usize>(v: Bits<N>) -> Vec<u64> {
    let mut out = vec![0u64; N.div_ceil(64)];
    let mut j = 0;
    while j + 64 <= N {
        out[j / 64] = v.get_bits::<64>(j).to_u64();
        j += 64;
    }
    while j < N {
        if v.get_bit(j) {
            out[j / 64] |= 1 << (j % 64);
        }
        j += 1;
    }
    out
}

/// The `N`-bit vector of the words `w` (bits at and above `N` dropped).
pub(crate) fn bits_of_words<const N: usize>(w: &[u64]) -> Bits<N> {
    let mut v = Bits::<N>::default();
    let mut j = 0;
    while j + 64 <= N {
        v.set_bits::<64>(j, w.get(j / 64).copied().unwrap_or(0).into());
        j += 64;
    }
    while j < N {
        let x = w.get(j / 64).copied().unwrap_or(0);
        v = v.replace_bit(j, (x >> (j % 64)) & 1 == 1);
        j += 1;
    }
    v
}

/// The 32 lanes of a 1024-bit block, lane `i` = bits `[32i +: 32]`.
pub(crate) fn lanes_of(v: Bits<1024>) -> [u32; 32] {
    let w = words_of(v);
    std::array::from_fn(|i| (w[i / 2] >> (32 * (i % 2))) as u32)
}

/// The 1024-bit block of 32 lanes.
pub(crate) fn bits_of_lanes(x: &[u32; 32]) -> Bits<1024> {
    let w: Vec<u64> = (0..16)
        .map(|j| u64::from(x[2 * j]) | (u64::from(x[2 * j + 1]) << 32))
        .collect();
    bits_of_words(&w)
}

/// A growable bit string in words (LSB first), for the models' variable-position fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BitVec {
    /// The bits, bit `i` = bit `i % 64` of word `i / 64`.
    pub w: Vec<u64>,
}

impl BitVec {
    /// An all-zero string of `n` bits' capacity.
    pub fn zeros(n: usize) -> Self {
        BitVec {
            w: vec![0; n.div_ceil(64)],
        }
    }

    /// ORs the low `len` (≤ 64) bits of `v` in at bit `at` (growing as needed).
    pub fn or_at(&mut self, at: usize, v: u64, len: usize) {
        if len == 0 {
            return;
        }
        let v = if len == 64 {
            v
        } else {
            v & ((1u64 << len) - 1)
        };
        let need = (at + len).div_ceil(64);
        if self.w.len() < need {
            self.w.resize(need, 0);
        }
        self.w[at / 64] |= v << (at % 64);
        if !at.is_multiple_of(64) && at % 64 + len > 64 {
            self.w[at / 64 + 1] |= v >> (64 - at % 64);
        }
    }

    /// Bit `i` (zero past the end).
    #[cfg(test)]
    pub fn bit(&self, i: usize) -> bool {
        self.w.get(i / 64).is_some_and(|x| (x >> (i % 64)) & 1 == 1)
    }

    /// ORs `len` bits of `src` (from bit 0) in at bit `at`.
    #[cfg(test)]
    pub fn or_string(&mut self, at: usize, src: &BitVec, len: usize) {
        let mut j = 0;
        while j < len {
            let n = (len - j).min(64);
            let mut v = 0u64;
            for b in 0..n {
                v |= u64::from(src.bit(j + b)) << b;
            }
            self.or_at(at + j, v, n);
            j += n;
        }
    }
}

/// ORs `src` (as many bits as it holds) shifted up by `sh` bits into `out`, dropping bits
/// at and above `width` (a Verilog `{.., src} << sh` into a `width`-bit vector).
pub(crate) fn or_shifted(out: &mut [u64], width: usize, src: &[u64], sh: usize) {
    for (j, &x) in src.iter().enumerate() {
        if x == 0 {
            continue;
        }
        let at = 64 * j + sh;
        if at >= width {
            break;
        }
        out[at / 64] |= x << (at % 64);
        if !at.is_multiple_of(64) && at / 64 + 1 < out.len() {
            out[at / 64 + 1] |= x >> (64 - at % 64);
        }
    }
    let tail = width % 64;
    if tail != 0 {
        let last = width / 64;
        if last < out.len() {
            out[last] &= (1u64 << tail) - 1;
        }
    }
    for x in out.iter_mut().skip(width.div_ceil(64)) {
        *x = 0;
    }
}

/// Bits `[lo, lo + len)` of `w` as words (`lo` a multiple of 64).
pub(crate) fn slice64(w: &[u64], lo: usize, len: usize) -> Vec<u64> {
    let mut out: Vec<u64> = w
        .iter()
        .skip(lo / 64)
        .take(len.div_ceil(64))
        .copied()
        .collect();
    out.resize(len.div_ceil(64), 0);
    if !len.is_multiple_of(64) {
        let last = out.len() - 1;
        out[last] &= (1u64 << (len % 64)) - 1;
    }
    out
}
