//! [`LaneRot`]: the compressor packer's rotation of a block to its offset in the beat, cut
//! into two sections for a pipeline register.

use rust_hdl::core::prelude::*;

/// Rotates `P = W / E` lanes of `E` bits up by `n` lanes (`n < P`): lane `j` of the result is
/// lane `(j - n) mod P`. A log rotator: bit `k` of `n` rotates by `2^k mod P` lanes (any
/// composition of rotations adds up mod `P`), one 2:1 choice per bit and stage. Section 1
/// rotates `x1` by `n1` (bits 0–2 of `n`: 0..7 lanes), section 2 its registered result `x2`
/// by `8·n2` (bits 3–5).
///
/// The packer places a block of `P` lanes (its lanes above the block's length zero) at an
/// offset in a beat of `P` lanes: the lanes at and above the offset are the block's low
/// lanes shifted up (they fill the beat), the lanes below it its lanes above `P - offset`
/// shifted down (they start the next beat). One rotation gives both.
#[derive(LogicBlock, Default)]
pub struct LaneRot<const E: usize, const W: usize> {
    /// Section 1's lanes.
    pub x1: Signal<In, Bits<W>>,
    /// Section 1's rotation (bits 0–2 of the amount).
    pub n1: Signal<In, Bits<3>>,
    /// `x1` rotated up by `n1` lanes.
    pub y1: Signal<Out, Bits<W>>,
    /// Section 2's lanes (a registered `y1`).
    pub x2: Signal<In, Bits<W>>,
    /// Section 2's rotation (bits 3–5 of the amount).
    pub n2: Signal<In, Bits<3>>,
    /// `x2` rotated up by `8·n2` lanes (mod `P`).
    pub y2: Signal<Out, Bits<W>>,
}

/// `x` rotated up by `r` lanes (mod `P`).
fn rot<const E: usize, const W: usize>(x: Bits<W>, r: usize) -> Bits<W> {
    let b = (r % (W / E)) * E;
    if b == 0 {
        x
    } else {
        (x << (b as u64)) | (x >> ((W - b) as u64))
    }
}

/// Verilog of a section: `y` from `x` through the stages of `n`'s three bits, stage `k`
/// rotating by `lanes << k`.
fn section_verilog<const E: usize, const W: usize>(s: &str, lanes: usize) -> String {
    let p = W / E;
    let mut v = format!("wire [{}:0] r{s}_0 = x{s};\n", W - 1);
    for k in 0..3 {
        let b = ((lanes << k) % p) * E;
        let r = if b == 0 {
            format!("r{s}_{k}")
        } else {
            format!(
                "{{r{s}_{k}[{}:0], r{s}_{k}[{}:{}]}}",
                W - b - 1,
                W - 1,
                W - b
            )
        };
        v.push_str(&format!(
            "wire [{}:0] r{s}_{} = n{s}[{k}] ? {r} : r{s}_{k};\n",
            W - 1,
            k + 1
        ));
    }
    v.push_str(&format!("always @(*) y{s} = r{s}_3;\n"));
    v
}

impl<const E: usize, const W: usize> Logic for LaneRot<E, W> {
    fn update(&mut self) {
        let n1 = self.n1.val().to_u64() as usize;
        self.y1.next = rot::<E, W>(self.x1.val(), n1);
        let n2 = self.n2.val().to_u64() as usize;
        self.y2.next = rot::<E, W>(self.x2.val(), 8 * n2);
    }
    fn connect(&mut self) {
        assert_eq!(W % E, 0, "LaneRot: W must be a multiple of E");
        self.y1.connect();
        self.y2.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = section_verilog::<E, W>("1", 1);
        v.push_str(&section_verilog::<E, W>("2", 8));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::settle;

    #[test]
    fn rotates_lanes_up_mod_p() {
        // P = 34 lanes of 16 bits: lane j holds j + 1.
        let mut x = Bits::<544>::default();
        for j in 0..34 {
            x.set_bits::<16>(16 * j, ((j + 1) as u64).into());
        }
        for n in 0..34 {
            let mut uut = LaneRot::<16, 544>::default();
            uut.connect_all();
            uut.x1.next = x;
            uut.n1.next = ((n % 8) as u64).into();
            settle(&mut uut);
            uut.x2.next = uut.y1.val();
            uut.n2.next = ((n / 8) as u64).into();
            settle(&mut uut);
            for j in 0..34 {
                let want = (j + 34 - n) % 34 + 1;
                assert_eq!(uut.y2.val().get_bits::<16>(16 * j).to_u64(), want as u64);
            }
        }
    }
}
