//! [`ZvcxScan`], the length scanner: from the bits at the bottom of the buffer, the length of
//! the block that starts there and its header (mode, positions, largest-exponent code, `k`,
//! escape count, sign flag, repeat-flag popcount, field offsets). This is the decoder's one
//! loop per cycle (buffer register -> scanner -> buffer shift -> buffer register), so it
//! computes only lengths and counts: the non-zero count `n` comes from the position fields'
//! popcounts (a group block's sub-masks are contiguous), never from the mask itself.
//!
//! Length = mode + positions + (float: max-exp code + k + nesc + sign flag) + (repeat:
//! n - 1 flags) + kept x F + (float: nesc x e), kept = n - set repeat flags, F = k + sign +
//! mantissa (float) or the width (raw type); zero block: its mode code; raw block: mode +
//! len x width. With a damaged header the result is whatever the formula gives; every such
//! header breaks a rule the unpack stage or the top checks.

use rust_hdl::core::prelude::*;

use cdma_spec::zvcx::{
    ModeKind, DELTAS, DELTA_ESCAPE, GROUPS, GROUP_ELEMS, LIST_COUNT_BITS, LIST_INDEX_BITS, MODES,
    NESC_BITS,
};

use super::hdr::{Elem, Hdr};
use super::tables::{casez_label, delta_bits, hdr_pack, mode_bits, pos_code, HDR, WIN};

/// Bits `[off, off + n)` of `w` (zero past bit 127).
fn get(w: u128, off: u32, n: u32) -> u32 {
    if off >= 128 {
        return 0;
    }
    let v = w >> off;
    (if n >= 32 { v } else { v & ((1u128 << n) - 1) }) as u32
}

/// Whether the prefix code `code` starts `bits`.
fn matches(code: &str, bits: u32) -> bool {
    code.bytes()
        .enumerate()
        .all(|(i, c)| ((bits >> i) & 1) == u32::from(c == b'1'))
}

/// The scanner's function: block length and header of the block at the bottom of `win`,
/// whose block holds `blen` elements; `first`: no coded block yet in this chunk.
pub fn scan(win: u128, blen: u32, first: bool, p: &Elem) -> (u32, Hdr) {
    let mut h = Hdr::default();
    let m = MODES
        .iter()
        .find(|m| matches(m.code, get(win, 0, 8)))
        .expect("complete prefix code");
    h.ml = m.code.len() as u32;
    match m.kind {
        ModeKind::Zero => {
            h.zero = 1;
            return (h.ml, h);
        }
        ModeKind::Raw => {
            h.raw = 1;
            return (h.ml + blen * p.width, h);
        }
        ModeKind::Coded { positions, repeat } => {
            h.coded = 1;
            h.pos = pos_code(positions);
            h.rep = u32::from(repeat);
        }
    }
    let ml = h.ml;
    let (plen, n) = match h.pos {
        0 => (0, blen),
        1 => {
            let c = get(win, ml, LIST_COUNT_BITS) + 1;
            (LIST_COUNT_BITS + LIST_INDEX_BITS * c, c)
        }
        2 => {
            let g = get(win, ml, GROUPS).count_ones();
            let subs = get(win, ml + GROUPS, 32) as u64 & ((1u64 << (GROUP_ELEMS * g)) - 1);
            (GROUPS + GROUP_ELEMS * g, subs.count_ones())
        }
        _ => (32, get(win, ml, 32).count_ones()),
    };
    let x_off = ml + plen;
    let mut r_off = x_off;
    if p.float {
        let emask = (1u32 << p.e) - 1;
        let mlen = if first {
            h.mx_abs = 1;
            h.mx_mag = get(win, x_off, 8) & emask;
            p.e
        } else if matches(DELTA_ESCAPE, get(win, x_off, 8)) {
            h.mx_abs = 1;
            let pl = DELTA_ESCAPE.len() as u32;
            h.mx_mag = get(win, x_off + pl, 8) & emask;
            pl + p.e
        } else {
            let c = DELTAS
                .iter()
                .find(|c| matches(c.prefix, get(win, x_off, 8)))
                .expect("complete prefix code");
            let pl = c.prefix.len() as u32;
            if c.min == 0 {
                pl
            } else {
                h.mx_neg = get(win, x_off + pl, 1);
                h.mx_mag = c.min + get(win, x_off + pl + 1, c.extra);
                pl + 1 + c.extra
            }
        };
        let kpos = x_off + mlen;
        h.k = get(win, kpos, p.kb);
        h.nesc = get(win, kpos + p.kb, NESC_BITS);
        h.sgn = 1 - get(win, kpos + p.kb + NESC_BITS, 1);
        r_off = kpos + p.kb + NESC_BITS + 1;
    }
    h.r_off = r_off;
    let nf = n.saturating_sub(1);
    let r = if h.rep == 1 {
        (get(win, r_off, 32) as u64 & ((1u64 << nf) - 1)).count_ones()
    } else {
        0
    };
    h.f_off = r_off + if h.rep == 1 { nf } else { 0 };
    let kept = n - r;
    h.fw = if p.float { h.k + h.sgn + p.m } else { p.width };
    let esc = if p.float { h.nesc * p.e } else { 0 };
    (h.f_off + kept * h.fw + esc, h)
}

/// The length scanner (see the module docs). Combinational.
#[derive(LogicBlock, Default)]
pub struct ZvcxScan {
    /// The buffer's bottom bits (the block's first bit in bit 0).
    pub win: Signal<In, Bits<WIN>>,
    /// Elements of this block (1..32).
    pub blen: Signal<In, Bits<6>>,
    /// No coded block yet in this chunk: the largest exponent is absolute.
    pub first: Signal<In, Bit>,
    /// Element width in bits (`ElemParams`).
    pub width: Signal<In, Bits<6>>,
    /// Exponent bits.
    pub exp_bits: Signal<In, Bits<4>>,
    /// Mantissa bits.
    pub man_bits: Signal<In, Bits<5>>,
    /// Bits of the `k` field.
    pub k_bits: Signal<In, Bits<3>>,
    /// A float type.
    pub float: Signal<In, Bit>,
    /// The block's length in bits.
    pub len: Signal<Out, Bits<12>>,
    /// The header bus (`tables::FIELDS`).
    pub hdr: Signal<Out, Bits<HDR>>,
    /// A coded block (it sets the chunk's previous largest exponent).
    pub coded: Signal<Out, Bit>,
}

impl Logic for ZvcxScan {
    fn update(&mut self) {
        let mut w = 0u128;
        for j in 0..2 {
            w |= u128::from(self.win.val().get_bits::<64>(64 * j).to_u64()) << (64 * j);
        }
        let p = Elem::of(
            self.width.val().to_u64(),
            self.exp_bits.val().to_u64(),
            self.man_bits.val().to_u64(),
            self.k_bits.val().to_u64(),
            self.float.val(),
        );
        let (len, h) = scan(w, self.blen.val().to_u64() as u32, self.first.val(), &p);
        self.len.next = u64::from(len & 0xFFF).into();
        self.hdr.next = h.pack();
        self.coded.next = h.coded == 1;
    }
    fn connect(&mut self) {
        self.len.connect();
        self.hdr.connect();
        self.coded.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body())
    }
}

/// The scanner's Verilog: the mode and delta `casez` tables generated from the spec.
fn verilog_body() -> String {
    let mb = mode_bits();
    let mut modes = String::new();
    for m in MODES {
        let set = match m.kind {
            ModeKind::Zero => "h_zero = 1'b1;".to_string(),
            ModeKind::Raw => "h_raw = 1'b1;".to_string(),
            ModeKind::Coded { positions, repeat } => format!(
                "h_coded = 1'b1; h_pos = 2'd{}; h_rep = 1'b{};",
                pos_code(positions),
                u8::from(repeat)
            ),
        };
        modes += &format!(
            "      {}: begin h_ml = 4'd{}; {set} end\n",
            casez_label(m.code, mb),
            m.code.len()
        );
    }
    let db = delta_bits();
    let mut deltas = String::new();
    for c in DELTAS {
        let pl = c.prefix.len();
        let body = if c.min == 0 {
            format!("mlen = 7'd{pl};")
        } else if c.extra == 0 {
            format!(
                "mlen = 7'd{}; h_mx_neg = t2[{pl}]; h_mx_mag = 8'd{};",
                pl + 1,
                c.min
            )
        } else {
            format!(
                "mlen = 7'd{}; h_mx_neg = t2[{pl}]; h_mx_mag = 8'd{} + {{{}'d0, t2[{}:{}]}};",
                pl as u32 + 1 + c.extra,
                c.min,
                8 - c.extra,
                pl as u32 + c.extra,
                pl + 1
            )
        };
        deltas += &format!(
            "          {}: begin {body} end\n",
            casez_label(c.prefix, db)
        );
    }
    let el = DELTA_ESCAPE.len();
    deltas += &format!(
        "          {}: begin mlen = 7'd{el} + {{3'd0, exp_bits}}; h_mx_abs = 1'b1; h_mx_mag = t2[{}:{el}] & emask; end\n",
        casez_label(DELTA_ESCAPE, db),
        el + 7
    );
    let (lcb, lib, gr, ge, nb) = (
        LIST_COUNT_BITS,
        LIST_INDEX_BITS,
        GROUPS,
        GROUP_ELEMS,
        NESC_BITS,
    );
    format!(
        r#"function [5:0] pc32(input [31:0] x);
  integer i;
  begin
    pc32 = 6'd0;
    for (i = 0; i < 32; i = i + 1) pc32 = pc32 + {{5'd0, x[i]}};
  end
endfunction
reg h_zero, h_raw, h_rep, h_coded, h_mx_abs, h_mx_neg, h_sgn;
reg [1:0] h_pos, h_nesc;
reg [3:0] h_ml, h_k;
reg [7:0] h_mx_mag;
reg [6:0] h_r_off, h_f_off;
reg [5:0] h_n, h_kept, h_fw, r, g, nf;
reg [6:0] plen, x_off, mlen, kpos, roff, foff, kk;
reg [11:0] esc;
reg [39:0] t;
reg [11:0] t2;
reg [3:0] t3;
reg [2:0] t5;
reg [31:0] t4, gm;
reg [7:0] emask;
always @(*) begin
  h_zero = 1'b0; h_raw = 1'b0; h_rep = 1'b0; h_coded = 1'b0; h_pos = 2'd0; h_ml = 4'd0;
  h_mx_abs = 1'b0; h_mx_neg = 1'b0; h_mx_mag = 8'd0; h_k = 4'd0; h_nesc = 2'd0; h_sgn = 1'b0;
  t3 = 4'd0; t5 = 3'd0;
  casez (win[{mb1}:0])
{modes}      default: ;
  endcase
  t = win[{{3'd0, h_ml}} +: 40];
  g = 6'd0;
  gm = 32'd0;
  case (h_pos)
    2'd0: begin plen = 7'd0; h_n = blen; end
    2'd1: begin
      h_n = {{{pad_l}'d0, t[{lcb1}:0]}} + 6'd1;
      plen = 7'd{lcb} + 7'd{lib} * {{1'd0, h_n}};
    end
    2'd2: begin
      g = pc32({{{pad_g}'d0, t[{gr1}:0]}});
      plen = 7'd{gr} + 7'd{ge} * {{1'd0, g}};
      gm = (g >= 6'd{gall}) ? 32'hFFFFFFFF : ((32'd1 << (g * 6'd{ge})) - 32'd1);
      h_n = pc32(t[{gr31}:{gr}] & gm);
    end
    default: begin plen = 7'd32; h_n = pc32(t[31:0]); end
  endcase
  x_off = {{3'd0, h_ml}} + plen;
  emask = (8'd1 << exp_bits) - 8'd1;
  t2 = win[x_off +: 12];
  mlen = 7'd0;
  kk = 7'd0;
  if (float) begin
    if (first) begin
      mlen = {{3'd0, exp_bits}}; h_mx_abs = 1'b1; h_mx_mag = t2[7:0] & emask;
    end else begin
      casez (t2[{db1}:0])
{deltas}        default: ;
      endcase
    end
    kpos = x_off + mlen;
    t3 = win[kpos +: 4];
    h_k = t3[3:0] & ((4'd1 << k_bits) - 4'd1);
    kk = kpos + {{4'd0, k_bits}};
    t5 = win[kk +: 3];
    h_nesc = t5[{nb1}:0];
    h_sgn = ~t5[{nb}];
    roff = kk + 7'd{hb};
  end else begin
    kpos = x_off;
    roff = x_off;
  end
  nf = (h_n == 6'd0) ? 6'd0 : h_n - 6'd1;
  t4 = win[roff +: 32];
  r = 6'd0;
  foff = roff;

  if (h_rep) begin
    r = pc32(t4 & ((32'd1 << nf) - 32'd1));
    foff = roff + {{1'd0, nf}};
  end
  h_r_off = roff;
  h_f_off = foff;
  h_kept = h_n - r;
  h_fw = float ? {{2'd0, h_k}} + {{5'd0, h_sgn}} + {{1'd0, man_bits}} : width;
  esc = float ? {{10'd0, h_nesc}} * {{8'd0, exp_bits}} : 12'd0;
  if (h_zero) len = {{8'd0, h_ml}};
  else if (h_raw) len = {{8'd0, h_ml}} + {{6'd0, blen}} * {{6'd0, width}};
  else len = {{5'd0, foff}} + {{6'd0, h_kept}} * {{6'd0, h_fw}} + esc;
  coded = h_coded;
  if (h_zero | h_raw) begin
    // As the model (scan): a zero or raw block has no header fields.
    h_mx_abs = 1'b0; h_mx_neg = 1'b0; h_mx_mag = 8'd0; h_k = 4'd0; h_nesc = 2'd0;
    h_sgn = 1'b0; h_r_off = 7'd0; h_f_off = 7'd0; h_fw = 6'd0;
  end
  {hdr_pack}end
"#,
        mb1 = mb - 1,
        db1 = db - 1,
        lcb1 = lcb - 1,
        pad_l = 6 - lcb,
        gr1 = gr - 1,
        pad_g = 32 - gr,
        gr31 = gr + 31,
        nb1 = nb - 1,
        hb = nb + 1,
        gall = 32 / ge,
        hdr_pack = hdr_pack(),
    )
}
