//! [`ElemFlags`]: the element flags of a bus beat (which elements are non-zero) for the
//! element width the descriptor chose, and [`Low32`], the low 32 of them.

use rust_hdl::core::prelude::*;

/// The packed element flags of an `N`-byte beat (`W = 8·N`) for the element width `elem`
/// (descriptor code: 0 = 8, 1 = 16, 2 = 32 bits; 3 is treated as 32).
///
/// An element is non-zero iff any of its bytes is (docs/FORMAT.md: zero means all bits 0).
/// `ef[i]` is element `i`'s flag, packed from bit 0 (`N / (E/8)` of them, zero above): 32
/// consecutive flags of a block are its ZVC mask, and byte `j` is kept iff `ef[j / (E/8)]`.
#[derive(LogicBlock, Default)]
pub struct ElemFlags<const N: usize, const W: usize> {
    /// The beat: byte `j` in bits `[8j +: 8]`.
    pub d: Signal<In, Bits<W>>,
    /// Valid bytes of the beat (`0..=N`): bytes at and above it count as zero (a source's
    /// last beat holds whatever memory has past its end).
    pub cnt: Signal<In, Bits<8>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits).
    pub elem: Signal<In, Bits<2>>,
    /// Element flags, element `i` in bit `i`, zero above the beat's elements.
    pub ef: Signal<Out, Bits<N>>,
}

/// Bytes per element for an element width code.
pub(crate) fn elem_bytes(elem: u64) -> usize {
    1 << elem.min(2)
}

impl<const N: usize, const W: usize> Logic for ElemFlags<N, W> {
    fn update(&mut self) {
        let (d, cnt) = (
            crate::prims::bytes_of(self.d.val()),
            self.cnt.val().to_u64() as usize,
        );
        let eb = elem_bytes(self.elem.val().to_u64());
        let mut ef = Bits::<N>::default();
        for i in 0..N / eb {
            let nz = (0..eb).any(|b| {
                let j = eb * i + b;
                j < cnt && d[j] != 0
            });
            ef = ef.replace_bit(i, nz);
        }
        self.ef.next = ef;
    }
    fn connect(&mut self) {
        assert_eq!(8 * N, W, "ElemFlags: W must be 8*N");
        assert!(
            N >= 4 && N.is_power_of_two(),
            "ElemFlags: N a power of two >= 4"
        );
        self.ef.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        v.push_str(&format!("wire [{}:0] b8;\n", N - 1));
        for j in 0..N {
            v.push_str(&format!(
                "assign b8[{j}] = (cnt > 8'd{j}) & (|d[{}:{}]);\n",
                8 * j + 7,
                8 * j
            ));
        }
        v.push_str(&format!("wire [{}:0] b16;\n", N / 2 - 1));
        for i in 0..N / 2 {
            v.push_str(&format!(
                "assign b16[{i}] = b8[{}] | b8[{}];\n",
                2 * i,
                2 * i + 1
            ));
        }
        v.push_str(&format!("wire [{}:0] b32;\n", N / 4 - 1));
        for i in 0..N / 4 {
            v.push_str(&format!(
                "assign b32[{i}] = b16[{}] | b16[{}];\n",
                2 * i,
                2 * i + 1
            ));
        }
        v.push_str(&format!(
            "always @(*) ef = elem[1] ? {{{}'d0, b32}} : elem[0] ? {{{}'d0, b16}} : b8;\n",
            N - N / 4,
            N - N / 2
        ));
        Verilog::Custom(v)
    }
}

/// The low 32 bits of an `N`-bit flag vector, zero-extended when `N < 32` (the flags of a
/// beat that holds part of a block, gathered into the block's mask).
#[derive(LogicBlock, Default)]
pub struct Low32<const N: usize> {
    /// The flags.
    pub x: Signal<In, Bits<N>>,
    /// Flags `0..min(N, 32)`, zero above.
    pub y: Signal<Out, Bits<32>>,
}

impl<const N: usize> Logic for Low32<N> {
    fn update(&mut self) {
        let mut y = Bits::<32>::default();
        for i in 0..N.min(32) {
            y = y.replace_bit(i, self.x.val().get_bit(i));
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(match N {
            32 => "always @(*) y = x;\n".into(),
            n if n < 32 => format!("always @(*) y = {{{}'d0, x}};\n", 32 - n),
            // Flags past 32 belong to later blocks, which fit in the beat and take their masks
            // from the beat itself: dropped (Verilator ignores `*unused*` names).
            n => format!(
                "wire unused_ok = &{{1'b0, x[{}:32]}};\nalways @(*) y = x[31:0];\n",
                n - 1
            ),
        })
    }
}

/// A 32-bit mask slice as an `N`-bit flag vector: zero-extended when `N > 32`, its low `N`
/// bits when `N < 32` (a block's mask shifted down to the elements of one of its beats).
#[derive(LogicBlock, Default)]
pub struct Widen32<const N: usize> {
    /// The flags.
    pub x: Signal<In, Bits<32>>,
    /// Flags `0..min(N, 32)`, zero above.
    pub y: Signal<Out, Bits<N>>,
}

impl<const N: usize> Logic for Widen32<N> {
    fn update(&mut self) {
        let mut y = Bits::<N>::default();
        for i in 0..N.min(32) {
            y = y.replace_bit(i, self.x.val().get_bit(i));
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(match N {
            32 => "always @(*) y = x;\n".into(),
            n if n > 32 => format!("always @(*) y = {{{}'d0, x}};\n", n - 32),
            // A beat of a narrow bus holds fewer elements than a block: the flags above it
            // belong to the block's later beats (Verilator ignores `*unused*` names).
            n => format!(
                "wire unused_ok = &{{1'b0, x[31:{n}]}};\nalways @(*) y = x[{}:0];\n",
                n - 1
            ),
        })
    }
}
