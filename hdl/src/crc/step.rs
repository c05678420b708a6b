//! [`Crc32cStep8`]: the CRC32C raw state over 8 bytes in one combinational step — what the
//! controller needs for the metadata CRC, which it computes entry by entry (an index entry of a
//! version 4 frame is 8 bytes) and then over the header's four 8-byte quarters.

use rust_hdl::core::prelude::*;

use super::math::beat_rows;
use crate::prims::{Join, XorMatrix};

/// Bytes per step.
pub const STEP_BYTES: usize = 8;

/// `y` = the raw CRC32C state after the 8 bytes `d` from state `s` (byte `j` of `d` at bits
/// `8j..8j+8`, the first byte of the message lowest).
#[derive(LogicBlock)]
pub struct Crc32cStep8 {
    /// Raw state before the bytes.
    pub s: Signal<In, Bits<32>>,
    /// The 8 bytes, first at bits 7:0.
    pub d: Signal<In, Bits<64>>,
    /// Raw state after them.
    pub y: Signal<Out, Bits<32>>,
    cat: Join<64, 32, 96>,
    m: XorMatrix<96>,
}

impl Default for Crc32cStep8 {
    fn default() -> Self {
        Self {
            s: Default::default(),
            d: Default::default(),
            y: Default::default(),
            cat: Default::default(),
            m: XorMatrix::new(&beat_rows(STEP_BYTES)),
        }
    }
}

impl Logic for Crc32cStep8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.cat.lo.next = self.d.val();
        self.cat.hi.next = self.s.val();
        self.m.x.next = self.cat.y.val();
        self.y.next = self.m.y.val();
    }
}

#[cfg(test)]
mod tests {
    use super::super::math::{advance, INIT};
    use super::*;
    use crate::testutil::{settle, XorShift64};

    /// Against the bit-serial CRC (and so the model's CRC32C, which `math`'s tests pin).
    #[test]
    fn steps_like_the_bit_serial_update() {
        let mut uut = Crc32cStep8::default();
        uut.connect_all();
        let mut rng = XorShift64::new(5);
        for _ in 0..200 {
            let (s, d) = (rng.next() as u32, rng.next());
            uut.s.next = u64::from(s).into();
            uut.d.next = d.into();
            settle(&mut uut);
            assert_eq!(uut.y.val().to_u64() as u32, advance(s, &d.to_le_bytes()));
        }
        // "12345678" from INIT, inverted: CRC32C of the 8 bytes.
        uut.s.next = u64::from(INIT).into();
        uut.d.next = u64::from_le_bytes(*b"12345678").into();
        settle(&mut uut);
        assert_eq!(!(uut.y.val().to_u64() as u32), 0x6087_809A);
    }
}
