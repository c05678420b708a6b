//! Bit streams of ZVC-X chunks: bit `i` of a stream is bit `i mod 8` of byte `i / 8`
//! (least significant bit first, as DEFLATE); a multi-bit value is written least significant
//! bit first, a prefix code (`"110"`) first character first.

/// Appends bits to a byte vector. The pending bits (fewer than 8) sit in a 64-bit
/// accumulator; every put stores all 8 bytes of it at the first byte not yet complete
/// (branch-free: the bytes past the complete ones are rewritten by the next put) and
/// advances by the complete bytes. So the vector is kept at least 8 bytes longer than what
/// was written (zero-filled ahead [`GROW_STEP`] bytes at a time, so the rare growth check
/// fails once per that many bytes), and [`BitWriter::finish`]
/// cuts it back. The writer holds the vector itself (taken from the caller's and given back
/// by `finish`), so its pointer and length stay in registers while bits are put.
pub struct BitWriter<'a> {
    /// Where the vector goes back to.
    home: &'a mut Vec<u8>,
    buf: Vec<u8>,
    /// Index in `buf` of the byte the pending bits go to.
    pos: usize,
    /// Pending bits, from bit 0.
    acc: u64,
    /// Bits held in `acc` (< 8 between calls).
    n: u32,
    /// Bits written since the writer was made.
    #[cfg(test)]
    written: u64,
}

impl<'a> BitWriter<'a> {
    /// A writer appending to `out` (which is empty until [`BitWriter::finish`] gives the
    /// bytes back).
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        let buf = std::mem::take(out);
        BitWriter {
            home: out,
            pos: buf.len(),
            buf,
            acc: 0,
            n: 0,
            #[cfg(test)]
            written: 0,
        }
    }

    /// Writes the low `bits` bits of `value` (`bits` ≤ 56; higher bits of `value` ignored):
    /// for streams built by hand in tests (the codec's own values are clean,
    /// [`BitWriter::put_bits`]).
    #[cfg(test)]
    pub fn put(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 56);
        self.put_bits(value & ((1u64 << bits) - 1), bits);
    }

    /// Writes `value`, which must be below `2^bits` (`bits` ≤ 56): `put`
    /// without the masking, for callers whose values are clean.
    #[inline(always)]
    pub fn put_bits(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 56 && value >> bits == 0);
        #[cfg(test)]
        {
            self.written += u64::from(bits);
        }
        self.acc |= value << self.n;
        self.n += bits; // < 64
        let word = self.acc.to_le_bytes();
        match self.buf.get_mut(self.pos..self.pos + 8) {
            Some(at) => at.copy_from_slice(&word),
            None => {
                // By value, so the writer's fields never have their address taken.
                self.buf = grow(std::mem::take(&mut self.buf), self.pos + 8);
                self.buf[self.pos..self.pos + 8].copy_from_slice(&word);
            }
        }
        let whole = self.n / 8;
        self.pos += whole as usize;
        self.acc >>= whole * 8; // at most 56: `n` < 64
        self.n %= 8;
    }

    /// Writes a prefix code given as its bits in stream order.
    #[inline(always)]
    pub fn put_code(&mut self, code: Code) {
        self.put_bits(u64::from(code.bits), code.len);
    }

    /// Bits written so far.
    #[cfg(test)]
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Pads with zero bits to a byte boundary, drops the scratch bytes and gives the vector
    /// back.
    pub fn finish(mut self) {
        self.buf.truncate(self.pos);
        if self.n > 0 {
            self.buf.push(self.acc as u8);
        }
        *self.home = self.buf;
    }
}

/// How many bytes past the ones needed the vector is zero-filled when it grows: large
/// enough to make growing rare, small against a chunk's output.
pub const GROW_STEP: usize = 512;

/// `buf` zero-filled to `len` bytes and [`GROW_STEP`] more.
#[cold]
#[inline(never)]
fn grow(mut buf: Vec<u8>, len: usize) -> Vec<u8> {
    buf.resize(len.max(buf.len()) + GROW_STEP, 0);
    buf
}

/// A prefix code as stream bits: `bits` bit `i` is the code's `i`-th character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// The code's bits, first one in bit 0.
    pub bits: u32,
    /// Its length.
    pub len: u32,
}

impl Code {
    /// The code spelled `s` (`0`/`1` characters, at most 32).
    pub const fn parse(s: &str) -> Code {
        let b = s.as_bytes();
        let mut bits = 0u32;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'1' {
                bits |= 1 << i;
            }
            i += 1;
        }
        Code {
            bits,
            len: b.len() as u32,
        }
    }
}

/// Reads bits from a byte slice; reading past the end is an error the caller turns into its
/// own (the position is kept so the caller can say where). Every read is one unaligned
/// 8-byte load and a shift (a zero-padded copy only in the last 7 bytes).
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Next bit to read.
    pos: u64,
    /// Bits in `data`.
    end: u64,
}

impl<'a> BitReader<'a> {
    /// A reader at bit 0 of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        BitReader {
            data,
            pos: 0,
            end: data.len() as u64 * 8,
        }
    }

    /// Bit position of the next read.
    #[inline(always)]
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// Bits left.
    #[inline(always)]
    pub fn remaining(&self) -> u64 {
        self.end - self.pos
    }

    /// The next `bits` bits (≤ 56) without consuming them, zeros past the end.
    #[inline(always)]
    pub fn peek(&self, bits: u32) -> u64 {
        self.peek_at(self.pos, bits)
    }

    /// The `bits` bits (≤ 56) from bit `at` on, zeros past the end: reads at known
    /// positions do not wait for each other.
    #[inline(always)]
    pub fn peek_at(&self, at: u64, bits: u32) -> u64 {
        debug_assert!(bits <= 56);
        let byte = (at / 8) as usize;
        let word = match self.data.get(byte..byte + 8) {
            Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")),
            None => self.tail_word(byte),
        };
        (word >> (at % 8)) & ((1u64 << bits) - 1)
    }

    /// Moves to bit `at` (at most the end).
    #[inline(always)]
    pub fn seek(&mut self, at: u64) {
        debug_assert!(at <= self.end);
        self.pos = at;
    }

    /// The (fewer than 8) bytes from `byte` on, zero-padded to a word.
    #[cold]
    fn tail_word(&self, byte: usize) -> u64 {
        let mut w = [0u8; 8];
        let rest = self.data.get(byte..).unwrap_or_default();
        w[..rest.len()].copy_from_slice(rest);
        u64::from_le_bytes(w)
    }

    /// Reads `bits` bits (≤ 56), or None (nothing consumed) if fewer are left.
    #[inline(always)]
    pub fn get(&mut self, bits: u32) -> Option<u64> {
        if u64::from(bits) > self.remaining() {
            return None;
        }
        let v = self.peek(bits);
        self.pos += u64::from(bits);
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_least_significant_first() {
        let mut out = Vec::new();
        let mut w = BitWriter::new(&mut out);
        w.put_code(Code::parse("110")); // bits 1, 1, 0
        w.put(0b10101, 5); // value 21, LSB first
        w.put(0x1FF, 9);
        assert_eq!(w.written(), 17);
        w.finish();
        // byte 0: bits 0..8 = 1,1,0, 1,0,1,0,1 -> 0b1010_1011
        assert_eq!(out, [0b1010_1011, 0xFF, 0x01]);
        let mut r = BitReader::new(&out);
        assert_eq!(r.get(3), Some(0b011));
        assert_eq!(r.get(5), Some(0b10101));
        assert_eq!(r.get(9), Some(0x1FF));
        assert_eq!(r.remaining(), 7);
        assert_eq!(r.get(8), None);
        assert_eq!(r.pos(), 17);
        assert_eq!(r.get(7), Some(0));
    }

    #[test]
    fn codes_parse_first_character_first() {
        assert_eq!(
            Code::parse("110"),
            Code {
                bits: 0b011,
                len: 3
            }
        );
        assert_eq!(Code::parse("0"), Code { bits: 0, len: 1 });
        assert_eq!(Code::parse(""), Code { bits: 0, len: 0 });
    }
}
