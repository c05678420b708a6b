//! The oracle's bit streams (one byte pushed at a time): bit `i` of a stream is bit `i mod 8` of byte `i / 8`
//! (least significant bit first, as DEFLATE); a multi-bit value is written least significant
//! bit first, a prefix code (`"110"`) first character first.

/// Appends bits to a byte vector through a 64-bit accumulator.
pub struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    /// Bits held in `acc` (< 8 between calls).
    n: u32,
}

impl<'a> BitWriter<'a> {
    /// A writer appending to `out`.
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        BitWriter { out, acc: 0, n: 0 }
    }

    /// Writes the low `bits` bits of `value` (`bits` ≤ 56; higher bits of `value` ignored).
    #[inline]
    pub fn put(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 56);
        if bits == 0 {
            return;
        }
        let v = value & ((1u64 << bits) - 1);
        self.acc |= v << self.n;
        self.n += bits;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// Writes a prefix code given as its bits in stream order.
    #[inline]
    pub fn put_code(&mut self, code: Code) {
        self.put(u64::from(code.bits), code.len);
    }

    /// Pads with zero bits to a byte boundary and flushes.
    pub fn finish(mut self) {
        if self.n > 0 {
            self.out.push(self.acc as u8);
            self.acc = 0;
            self.n = 0;
        }
    }
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
/// own (the position is kept so the caller can say where).
pub struct BitReader<'a> {
    data: &'a [u8],
    /// Next bit to read.
    pos: u64,
}

impl<'a> BitReader<'a> {
    /// A reader at bit 0 of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        BitReader { data, pos: 0 }
    }

    /// Bit position of the next read.
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// Bits left.
    pub fn remaining(&self) -> u64 {
        self.data.len() as u64 * 8 - self.pos
    }

    /// The next `bits` bits (≤ 57) without consuming them, zeros past the end.
    #[inline]
    pub fn peek(&self, bits: u32) -> u64 {
        debug_assert!(bits <= 57);
        let byte = (self.pos / 8) as usize;
        let shift = (self.pos % 8) as u32;
        let mut w = [0u8; 8];
        let avail = self.data.len().saturating_sub(byte).min(8);
        w[..avail].copy_from_slice(&self.data[byte..byte + avail]);
        let v = u64::from_le_bytes(w) >> shift;
        if bits == 0 {
            0
        } else {
            v & ((1u64 << bits) - 1)
        }
    }

    /// Reads `bits` bits (≤ 57), or None (nothing consumed) if fewer are left.
    #[inline]
    pub fn get(&mut self, bits: u32) -> Option<u64> {
        if u64::from(bits) > self.remaining() {
            return None;
        }
        let v = self.peek(bits);
        self.pos += u64::from(bits);
        Some(v)
    }
}
