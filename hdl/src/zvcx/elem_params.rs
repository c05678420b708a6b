//! [`ElemParams`]: how a stream's element type splits its elements (width, exponent and
//! mantissa bits, `k` field bits), decoded from the descriptor's type and width codes with
//! the table of `cdma_spec::zvcx::ELEM_TYPES`, so the RTL and the golden model read one table.

use cdma_spec::desc::ELEM_CODES;
use cdma_spec::zvcx::{elem_type, ElemType, ELEM_TYPES};
use rust_hdl::core::prelude::*;

/// The element parameters of type code `ty` with raw width code `elem`: (width, exponent
/// bits, mantissa bits, `k` bits, float). An unknown type code gives raw of `elem`'s width
/// (the descriptor check rejects unknown codes before a stream starts); an unknown width code
/// counts as 32 bits.
pub fn params_of(ty: u64, elem: u64) -> (u32, u32, u32, u32, bool) {
    let t: ElemType = u8::try_from(ty)
        .ok()
        .and_then(elem_type)
        .unwrap_or(ELEM_TYPES[0]);
    let width = if t.bits != 0 {
        t.bits
    } else {
        ELEM_CODES
            .iter()
            .find(|(code, _)| *code == elem)
            .map_or(32, |(_, bits)| *bits)
    };
    (width, t.exp_bits, t.man_bits, t.k_bits(), t.is_float())
}

/// The element parameters of a stream, constant while it runs.
#[derive(LogicBlock, Default)]
pub struct ElemParams {
    /// Element type code (`cdma_spec::zvcx` `ELEM_TYPES`: 0 raw, 1 f32, 2 bf16, 3 f16, 4 e4m3,
    /// 5 e5m2).
    pub ty: Signal<In, Bits<3>>,
    /// Element width code of a raw stream (0 = 8, 1 = 16, 2 = 32 bits); ignored by the float
    /// types, whose width is their own.
    pub elem: Signal<In, Bits<2>>,
    /// Element width in bits (8, 16 or 32).
    pub width: Signal<Out, Bits<6>>,
    /// Exponent bits (0 for raw).
    pub exp_bits: Signal<Out, Bits<4>>,
    /// Mantissa bits (0 for raw).
    pub man_bits: Signal<Out, Bits<5>>,
    /// Bits of a coded block's `k` field (0 for raw).
    pub k_bits: Signal<Out, Bits<3>>,
    /// The type is a float (sign, exponent, mantissa).
    pub float: Signal<Out, Bit>,
}

impl Logic for ElemParams {
    fn update(&mut self) {
        let (w, e, m, kb, f) = params_of(self.ty.val().to_u64(), self.elem.val().to_u64());
        self.width.next = u64::from(w).into();
        self.exp_bits.next = u64::from(e).into();
        self.man_bits.next = u64::from(m).into();
        self.k_bits.next = u64::from(kb).into();
        self.float.next = f;
    }
    fn connect(&mut self) {
        self.width.connect();
        self.exp_bits.connect();
        self.man_bits.connect();
        self.k_bits.connect();
        self.float.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body())
    }
}

/// The Verilog body: one case over every (type, width) code pair, from the spec's table.
fn verilog_body() -> String {
    let mut s = String::from("always @(*) begin\n    case ({ty, elem})\n");
    for ty in 0..8u64 {
        for elem in 0..4u64 {
            let (w, e, m, kb, f) = params_of(ty, elem);
            s += &format!(
                "        5'd{}: begin width = 6'd{w}; exp_bits = 4'd{e}; man_bits = 5'd{m}; \
                 k_bits = 3'd{kb}; float = 1'b{}; end\n",
                ty << 2 | elem,
                u8::from(f)
            );
        }
    }
    s += "        default: begin width = 6'd32; exp_bits = 4'd0; man_bits = 5'd0; \
          k_bits = 3'd0; float = 1'b0; end\n    endcase\nend\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_types_decode() {
        assert_eq!(params_of(1, 0), (32, 8, 23, 4, true));
        assert_eq!(params_of(2, 2), (16, 8, 7, 4, true));
        assert_eq!(params_of(3, 0), (16, 5, 10, 3, true));
        assert_eq!(params_of(4, 1), (8, 4, 3, 3, true));
        assert_eq!(params_of(5, 1), (8, 5, 2, 3, true));
        assert_eq!(params_of(0, 0), (8, 0, 0, 0, false));
        assert_eq!(params_of(0, 1), (16, 0, 0, 0, false));
        assert_eq!(params_of(0, 2), (32, 0, 0, 0, false));
        assert_eq!(params_of(7, 1), (16, 0, 0, 0, false));
    }

    #[test]
    fn verilog_covers_every_code_pair() {
        let v = verilog_body();
        assert_eq!(v.matches("begin width").count(), 33);
        assert!(v.contains("5'd4: begin width = 6'd32; exp_bits = 4'd8; man_bits = 5'd23; k_bits = 3'd4; float = 1'b1;"));
    }
}
