//! [`StridePack`]: packs 32 compacted lanes of `F` valid bits each (`F` chosen per block)
//! into one bit string, lane `c` at bit `c·F`: the ZVC-X encoder's field packer.
//!
//! Lane `c` moves down by `c·(32 − F)` bits. Done LSB first in five stages, like the
//! compaction network: after stage `b`, each run of `2^(b+1)` lanes is one contiguous
//! `2^(b+1)·F`-bit unit at the bottom of its `2^(b+1)·32`-bit segment, made by placing the
//! segment's upper unit (`2^b·F` bits at the bottom of its upper half) right above its lower
//! unit, i.e. the upper half shifted down by `2^b·(32 − F)`. The units never overlap, so each
//! stage is an OR of the lower half and a shifted upper half per segment.

use rust_hdl::core::prelude::*;

use super::{bits_of, bytes_of};

/// Stride packer: 32 lanes of 32 bits in (lane `c`'s field in its low `fw` bits, the rest of
/// the lane zero), the fields back to back out.
#[derive(LogicBlock, Default)]
pub struct StridePack {
    /// Lane `c` in bits `[32c +: 32]`, zero above its low `fw` bits.
    pub d: Signal<In, Bits<1024>>,
    /// Field width `F` (1..=32).
    pub fw: Signal<In, Bits<6>>,
    /// Lane `c`'s field at bits `[c·F +: F]`, zero above `32·F`.
    pub y: Signal<Out, Bits<1024>>,
}

impl Logic for StridePack {
    fn update(&mut self) {
        let bytes = bytes_of(self.d.val());
        let mut w: Vec<u64> = bytes
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let f = self.fw.val().to_u64() as usize;
        for b in 0..5 {
            let seg = 64usize << b;
            let half = seg / 2;
            for lo in (0..1024).step_by(seg) {
                let lower = get_bits(&w, lo, half);
                let upper = get_bits(&w, lo + half, half);
                let moved = shl(&upper, f << b, seg);
                let mut v = lower;
                v.resize(moved.len(), 0);
                for (a, m) in v.iter_mut().zip(&moved) {
                    *a |= m;
                }
                put_bits(&mut w, lo, seg, &v);
            }
        }
        let out: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.y.next = bits_of(&out);
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::from("wire [1023:0] s0 = d;\n");
        for b in 0..5 {
            let seg = 64usize << b;
            let half = seg / 2;
            v += &format!("wire [1023:0] s{};\n", b + 1);
            for j in 0..1024 / seg {
                let lo = j * seg;
                v += &format!(
                    "assign s{n}[{hi}:{lo}] = {{{{{half}{{1'b0}}}}, s{b}[{mid1}:{lo}]}} | ({{{{{half}{{1'b0}}}}, s{b}[{hi}:{mid}]}} << {{fw{zeros}}});\n",
                    n = b + 1,
                    hi = lo + seg - 1,
                    mid = lo + half,
                    mid1 = lo + half - 1,
                    zeros = if b == 0 {
                        String::new()
                    } else {
                        format!(", {b}'d0")
                    },
                );
            }
        }
        v += "always @(*) y = s5;\n";
        Verilog::Custom(v)
    }
}

/// Bits `[lo, lo + len)` of `w` as words (bit 0 first).
fn get_bits(w: &[u64], lo: usize, len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len.div_ceil(64)];
    for i in 0..len {
        let j = lo + i;
        if (w[j / 64] >> (j % 64)) & 1 == 1 {
            out[i / 64] |= 1 << (i % 64);
        }
    }
    out
}

/// `v` shifted up by `sh` bits, truncated to `len` bits.
fn shl(v: &[u64], sh: usize, len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len.div_ceil(64)];
    for i in 0..v.len() * 64 {
        if (v[i / 64] >> (i % 64)) & 1 == 1 && i + sh < len {
            out[(i + sh) / 64] |= 1 << ((i + sh) % 64);
        }
    }
    out
}

/// Writes `len` bits of `v` to bits `[lo, lo + len)` of `w`.
fn put_bits(w: &mut [u64], lo: usize, len: usize, v: &[u64]) {
    for i in 0..len {
        let j = lo + i;
        let b = (v[i / 64] >> (i % 64)) & 1;
        w[j / 64] = (w[j / 64] & !(1 << (j % 64))) | (b << (j % 64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lane `c`'s field lands at bit `c·F` for every `F`, on random fields below `2^F`.
    #[test]
    fn fields_land_at_their_stride() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for f in 1..=32usize {
            let mut uut = StridePack::default();
            uut.connect_all();
            let lanes: Vec<u64> = (0..32).map(|_| next() & ((1u64 << f) - 1)).collect();
            let mut d = Bits::<1024>::default();
            for (c, &v) in lanes.iter().enumerate() {
                d.set_bits::<32>(32 * c, v.into());
            }
            uut.d.next = d;
            uut.fw.next = (f as u64).into();
            assert!(simulate(&mut uut, 100));
            let y = uut.y.val();
            for (c, &v) in lanes.iter().enumerate() {
                let mut got = 0u64;
                for t in 0..f {
                    got |= u64::from(y.get_bit(c * f + t)) << t;
                }
                assert_eq!(got, v, "F {f} lane {c}");
            }
            for t in 32 * f..1024 {
                assert!(!y.get_bit(t), "F {f}: bit {t} set above the fields");
            }
        }
    }
}
