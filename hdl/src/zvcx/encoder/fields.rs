//! [`Fields`]: the second stage's per-lane fields, before compaction. A coded float
//! element's field is `offset | sign | mantissa` in `F = k + sign + m` bits (an escaped
//! offset is all ones, its exponent goes after the fields); a raw block's or a raw type's
//! field is the element itself (`F = w`). Also the lanes to keep (the kept non-zeros, or
//! every element of a raw block), the fields' total length and the escaped exponents packed
//! in lane order.

use rust_hdl::core::prelude::*;

use super::codes::{exp_sign_verilog, shm_verilog, Ep, PC2, PC32};
use super::info::{verilog_unpack, Info, FIELDS_INFO, FIELDS_INFO_AT};
use super::words::{bits_of_lanes, lanes_of};

/// The per-lane fields of one block.
#[derive(LogicBlock, Default)]
pub struct Fields {
    /// The block, element `i` in bits `[32i +: 32]`.
    pub d: Signal<In, Bits<1024>>,
    /// The block's analysis: the info bus's bits `FIELDS_INFO_AT..`.
    pub info: Signal<In, Bits<FIELDS_INFO>>,
    /// The block is written raw.
    pub raw: Signal<In, Bit>,
    /// Element width in bits.
    pub w: Signal<In, Bits<6>>,
    /// Exponent bits.
    pub e: Signal<In, Bits<4>>,
    /// Mantissa bits.
    pub m: Signal<In, Bits<5>>,
    /// Float type.
    pub fl: Signal<In, Bit>,
    /// Lane `i`'s field in bits `[32i +: 32]` (meaningful for kept lanes: below `2^fw`).
    pub f: Signal<Out, Bits<1024>>,
    /// Lanes whose field is written, in lane order.
    pub keep: Signal<Out, Bits<32>>,
    /// Field width `F` (1..=32).
    pub fw: Signal<Out, Bits<6>>,
    /// Total field bits: kept lanes × `F`.
    pub flen: Signal<Out, Bits<11>>,
    /// The escaped exponents, `e` bits each in lane order.
    pub escv: Signal<Out, Bits<24>>,
    /// Bits of `escv`: escapes × `e`.
    pub elen: Signal<Out, Bits<5>>,
}

/// The model's output: (fields, keep, fw, flen, escv, elen).
pub type FieldsOut = ([u32; 32], u32, u32, u32, u32, u32);

/// The Rust model of [`Fields`].
pub fn fields(p: &Ep, d: &[u32; 32], i: &Info, raw: bool) -> FieldsOut {
    let x: [u32; 32] = std::array::from_fn(|l| {
        if (l as u32) < i.len {
            d[l] & p.wmask()
        } else {
            0
        }
    });
    let whole = raw || !p.fl;
    let therm = if i.len >= 32 { !0 } else { (1u32 << i.len) - 1 };
    let keep = if raw { therm } else { i.kept };
    let sgn = u32::from(i.sgn);
    let fw = if whole { p.w } else { (i.k + sgn + p.m) & 63 };
    let lim = !(0xFFu32 << i.k) & 0xFF;
    let f: [u32; 32] = std::array::from_fn(|l| {
        if whole {
            return x[l];
        }
        let ex = p.exp_of(x[l]);
        let code = if (i.escm >> l) & 1 == 1 {
            lim
        } else {
            i.max_exp.wrapping_sub(ex) & 0xFF
        };
        let man = x[l] & !(u32::MAX.checked_shl(p.m).unwrap_or(0));
        let t = if sgn == 1 {
            code << 1 | p.sign_of(x[l])
        } else {
            code
        };
        ((u64::from(t) << p.m) as u32) | man
    });
    let flen = (keep.count_ones() * fw) & 0x7FF;
    // The first three escaped exponents (slot = escapes below modulo 4, as the Verilog).
    let (mut ee, mut cnt) = ([0u32; 3], 0u32);
    for (l, &xl) in x.iter().enumerate() {
        if (i.escm >> l) & 1 == 1 {
            if let Some(e) = ee.get_mut((cnt & 3) as usize) {
                *e |= p.exp_of(xl);
            }
            cnt += 1;
        }
    }
    let escv = (ee[0] | ee[1] << p.e | ee[2] << (2 * p.e)) & 0xFF_FFFF;
    let (escv, elen) = if raw { (0, 0) } else { (escv, i.nesc * p.e) };
    (f, keep, fw, flen, escv, elen)
}

impl Logic for Fields {
    fn update(&mut self) {
        let p = Ep::new(
            self.w.val().to_u64(),
            self.e.val().to_u64(),
            self.m.val().to_u64(),
            0,
            self.fl.val(),
        );
        let i = Info::from_slice(self.info.val(), FIELDS_INFO_AT);
        let (f, keep, fw, flen, escv, elen) =
            fields(&p, &lanes_of(self.d.val()), &i, self.raw.val());
        self.f.next = bits_of_lanes(&f);
        self.keep.next = u64::from(keep).into();
        self.fw.next = u64::from(fw).into();
        self.flen.next = u64::from(flen).into();
        self.escv.next = u64::from(escv).into();
        self.elen.next = u64::from(elen).into();
    }
    fn connect(&mut self) {
        self.f.connect();
        self.keep.connect();
        self.fw.connect();
        self.flen.connect();
        self.escv.connect();
        self.elen.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog())
    }
}

fn verilog() -> String {
    let mut s = format!("{PC32}{PC2}{}", shm_verilog());
    s += &verilog_unpack("info", FIELDS_INFO_AT, FIELDS_INFO);
    s += "wire [31:0] wm = w[5] ? 32'hffffffff : ((32'd1 << w) - 32'd1);\n\
          wire [31:0] mm = ~(32'hffffffff << m);\n\
          wire whole = raw | ~fl;\n\
          wire [31:0] therm;\n\
          wire [7:0] lim = ~(8'hff << i_k);\n";
    let mut fs = vec![];
    let mut es: Vec<Vec<String>> = vec![vec![]; 3];
    for l in 0..32 {
        s += &format!(
            "assign therm[{l}] = i_len > 6'd{l};\n\
             wire [31:0] x{l} = d[{hi}:{lo}] & wm & {{32{{therm[{l}]}}}};\n",
            hi = 32 * l + 31,
            lo = 32 * l
        );
        s += &exp_sign_verilog(&format!("x{l}"), &format!("ex{l}"), &format!("sg{l}"));
        // The field: mantissa, then {offset code, sign} (or the code alone) above it.
        s += &format!(
            "wire [7:0] code{l} = i_escm[{l}] ? lim : (i_max_exp - ex{l});\n\
             wire [8:0] t{l} = i_sgn ? {{code{l}, sg{l}}} : {{1'b0, code{l}}};\n\
             wire [31:0] fv{l} = whole ? x{l} : ((x{l} & mm) | shm(t{l}, m));\n"
        );
        let ec = if l == 0 {
            "2'd0".to_string()
        } else {
            format!("ec{l}")
        };
        if l > 0 {
            s += &format!(
                "wire [1:0] ec{l} = pc2({{{}'d0, i_escm[{}:0]}});\n",
                32 - l,
                l - 1
            );
        }
        for (j, terms) in es.iter_mut().enumerate() {
            terms.push(format!("({{8{{i_escm[{l}] & ({ec} == 2'd{j})}}}} & ex{l})"));
        }
        fs.push(format!("fv{l}"));
    }
    fs.reverse();
    // The escaped exponents in lane order: the first three (a chosen k has at most three).
    for (j, terms) in es.iter().enumerate() {
        s += &format!("wire [7:0] ee{j} = {};\n", terms.join(" | "));
    }
    s += &format!(
        "wire [31:0] keep_ = raw ? therm : i_kept;\n\
         wire [5:0] fw_ = whole ? w : ({{2'd0, i_k}} + {{5'd0, i_sgn}} + {{1'b0, m}});\n\
         wire [5:0] nk = pc32(keep_);\n\
         wire [10:0] flen_ = {{5'd0, nk}} * {{5'd0, fw_}};\n\
         always @(*) begin\n\
         \x20   f = {{{}}};\n\
         \x20   keep = keep_;\n\
         \x20   fw = fw_;\n\
         \x20   flen = flen_;\n\
         \x20   escv = raw ? 24'd0 : ({{16'd0, ee0}} | ({{16'd0, ee1}} << e) | ({{16'd0, ee2}} << {{e, 1'b0}}));\n\
         \x20   elen = raw ? 5'd0 : ({{3'd0, i_nesc}} * {{1'b0, e}});\n\
         end\n",
        fs.join(", "),
    );
    s
}
