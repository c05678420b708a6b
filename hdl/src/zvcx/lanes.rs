//! [`ElemLanes`]: a block's bytes as 32 element lanes of 32 bits, the form the ZVC-X block
//! codec works on (element `i` of the block in bits `[32i +: 32]`, zero-extended from its
//! width), and [`LaneBytes`], the way back. Hand-written-Verilog blocks (see crate::prims
//! for why): per element width they are pure wiring, so each is one 3-way choice per bit.

use rust_hdl::core::prelude::*;

/// Bits of a block in lanes (32 lanes of 32 bits) and of a block's bytes (at most 128).
pub const BLOCK_BITS: usize = 1024;

/// Bytes of a 32-element block for element width code `elem` (3 as 32 bits).
pub(crate) fn block_bytes(elem: u64) -> usize {
    32 << elem.min(2)
}

/// Element `i` of `bytes` (little-endian elements of `1 << elem` bytes; width code 3 as 32
/// bits), zero-extended.
pub fn elem_of(bytes: &Bits<BLOCK_BITS>, elem: u64, i: usize) -> u64 {
    let eb = 1usize << elem.min(2);
    (0..eb).fold(0, |v, b| {
        v | bytes.get_bits::<8>((i * eb + b) * 8).to_u64() << (8 * b)
    })
}

/// The block's bytes as 32 zero-extended element lanes.
#[derive(LogicBlock, Default)]
pub struct ElemLanes {
    /// The block's bytes, byte `j` in bits `[8j +: 8]` (the first `32·E/8` bytes are used).
    pub x: Signal<In, Bits<BLOCK_BITS>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; 3 as 32).
    pub elem: Signal<In, Bits<2>>,
    /// Element `i` in bits `[32i +: 32]`, zero-extended.
    pub y: Signal<Out, Bits<BLOCK_BITS>>,
}

impl Logic for ElemLanes {
    fn update(&mut self) {
        let elem = self.elem.val().to_u64();
        let mut y = Bits::<BLOCK_BITS>::default();
        for i in 0..32 {
            let v = elem_of(&self.x.val(), elem, i);
            y = y | (Bits::<BLOCK_BITS>::from(v) << (32 * i) as u64);
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::from("always @(*) begin\n");
        for i in 0..32 {
            v += &format!(
                "    y[{l} +: 32] = elem[1] ? x[{w} +: 32] : elem[0] ? {{16'd0, x[{h} +: 16]}} \
                 : {{24'd0, x[{b} +: 8]}};\n",
                l = 32 * i,
                w = 32 * i,
                h = 16 * i,
                b = 8 * i
            );
        }
        v += "end\n";
        Verilog::Custom(v)
    }
}

/// The bytes of 32 element lanes (the low `E` bits of each lane, little-endian, in lane
/// order; the bytes past `32·E/8` are zero).
#[derive(LogicBlock, Default)]
pub struct LaneBytes {
    /// Element `i` in bits `[32i +: 32]` (bits above its width ignored).
    pub x: Signal<In, Bits<BLOCK_BITS>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; 3 as 32).
    pub elem: Signal<In, Bits<2>>,
    /// The block's bytes, byte `j` in bits `[8j +: 8]`.
    pub y: Signal<Out, Bits<BLOCK_BITS>>,
}

/// The Rust model of [`LaneBytes`].
pub fn lane_bytes(x: &Bits<BLOCK_BITS>, elem: u64) -> Bits<BLOCK_BITS> {
    let eb = 1usize << elem.min(2);
    let mut y = Bits::<BLOCK_BITS>::default();
    for i in 0..32 {
        for b in 0..eb {
            let v = x.get_bits::<8>(32 * i + 8 * b).to_u64();
            y = y | (Bits::<BLOCK_BITS>::from(v) << (8 * (i * eb + b)) as u64);
        }
    }
    y
}

impl Logic for LaneBytes {
    fn update(&mut self) {
        self.y.next = lane_bytes(&self.x.val(), self.elem.val().to_u64());
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        // Byte j: E = 32 lane j/4 byte j%4; E = 16 lane j/2 byte j%2 (j < 64); E = 8 lane
        // j byte 0 (j < 32).
        let mut v = String::from("always @(*) begin\n");
        for j in 0..128 {
            let w = format!("x[{} +: 8]", 32 * (j / 4) + 8 * (j % 4));
            let h = if j < 64 {
                format!("x[{} +: 8]", 32 * (j / 2) + 8 * (j % 2))
            } else {
                "8'd0".into()
            };
            let b = if j < 32 {
                format!("x[{} +: 8]", 32 * j)
            } else {
                "8'd0".into()
            };
            v += &format!(
                "    y[{} +: 8] = elem[1] ? {w} : elem[0] ? {h} : {b};\n",
                8 * j
            );
        }
        v += "end\n";
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_zero_extend_each_width() {
        let mut uut = ElemLanes::default();
        uut.connect_all();
        let mut x = Bits::<BLOCK_BITS>::default();
        for j in 0..128 {
            x = x | (Bits::<BLOCK_BITS>::from(j as u64 + 1) << (8 * j) as u64);
        }
        uut.x.next = x;
        for (elem, lane5) in [
            (0u64, 6u64),
            (1, 0x0C0B),
            (2, 0x1817_1615),
            (3, 0x1817_1615),
        ] {
            uut.elem.next = elem.into();
            assert!(simulate(&mut uut, 100));
            assert_eq!(
                uut.y.val().get_bits::<32>(5 * 32).to_u64(),
                lane5,
                "elem {elem}"
            );
        }
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom verilog expected")
        };
        assert!(text.contains("y[160 +: 32] = elem[1] ? x[160 +: 32] : elem[0] ? {16'd0, x[80 +: 16]} : {24'd0, x[40 +: 8]};"), "{text}");
    }

    #[test]
    fn lane_bytes_inverts_elem_lanes() {
        let mut a = ElemLanes::default();
        let mut b = LaneBytes::default();
        a.connect_all();
        b.connect_all();
        let mut x = Bits::<BLOCK_BITS>::default();
        for j in 0..128 {
            x = x | (Bits::<BLOCK_BITS>::from((j * 7 + 3) as u64 & 0xFF) << (8 * j) as u64);
        }
        for elem in 0..3u64 {
            let used = 32usize << elem;
            let mut xe = Bits::<BLOCK_BITS>::default();
            for j in 0..used {
                xe = xe
                    | (Bits::<BLOCK_BITS>::from(x.get_bits::<8>(8 * j).to_u64()) << (8 * j) as u64);
            }
            a.x.next = xe;
            a.elem.next = elem.into();
            assert!(simulate(&mut a, 100));
            b.x.next = a.y.val();
            b.elem.next = elem.into();
            assert!(simulate(&mut b, 100));
            assert_eq!(b.y.val(), xe, "elem {elem}");
        }
        let Verilog::Custom(text) = b.hdl() else {
            panic!("custom verilog expected")
        };
        assert!(
            text.contains(
                "y[40 +: 8] = elem[1] ? x[40 +: 8] : elem[0] ? x[72 +: 8] : x[160 +: 8];"
            ),
            "{text}"
        );
    }
}
