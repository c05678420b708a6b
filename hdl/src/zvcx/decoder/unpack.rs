//! [`ZvcxUnpack`], the pipelined half of the decoder: from a registered copy of one block's
//! bits and the header the length scanner found, the 32 decoded elements and every rule of
//! docs/FORMAT.md that lies inside a block (list not increasing, position past the block's
//! end, empty group, no non-zero, largest exponent out of range, `k` too large, escape count,
//! exponent underflow, stored zero element).
//!
//! Structure: the non-zero mask from the positions; the repeat flags placed on the non-zeros
//! after the first; the kept fields (all `F` bits wide, packed from the field offset) moved to
//! one 32-bit lane each by the inverse of the encoder's stride compaction (five stages, MSB
//! first: in each group of `2^(s+1)` lanes the upper half moves up by `2^s (32 - F)` bits);
//! per lane the exponent from the largest exponent and the offset, or from the escapes in
//! order; then lane `i` of the block takes compacted lane `(kept at or below i) - 1`, which
//! also copies a repeat from the last kept element before it. A raw block goes through the
//! same stride network with `F` = the width.

use rust_hdl::core::prelude::*;

use cdma_spec::zvcx::{GROUPS, GROUP_ELEMS, LIST_COUNT_BITS, LIST_INDEX_BITS, NESC_MAX};

use super::hdr::{Elem, Hdr};
use super::tables::{hdr_unpack, BLK, HDR};

/// Words of a block.
const BW: usize = BLK / 64;

/// Bits `[off, off + n)` (n ≤ 32) of a block, zero past its end.
fn get(b: &[u64; BW], off: u32, n: u32) -> u32 {
    let mut v = 0u64;
    for i in 0..n.min(32) {
        let at = (off + i) as usize;
        if at < BLK && (b[at / 64] >> (at % 64)) & 1 == 1 {
            v |= 1 << i;
        }
    }
    v as u32
}

/// The unpack stage's function: (elements, error, largest exponent) of the block `b` with
/// header `h`, `blen` elements, `first` (no earlier coded block in the chunk) and `prev` (the
/// largest exponent of the previous coded block).
pub fn unpack(
    b: &[u64; BW],
    h: &Hdr,
    blen: u32,
    first: bool,
    prev: u32,
    p: &Elem,
) -> ([u32; 32], bool, u32) {
    let mut v = [0u32; 32];
    let all = if blen >= 32 {
        u32::MAX
    } else {
        (1 << blen) - 1
    };
    if h.zero == 1 {
        return (v, false, prev);
    }
    if h.raw == 1 {
        for (i, x) in v.iter_mut().enumerate().take(blen as usize) {
            *x = get(b, h.ml + i as u32 * p.width, p.width);
        }
        return (v, false, prev);
    }
    let mut err = false;
    let ml = h.ml;
    let nz = match h.pos {
        0 => all,
        1 => {
            let mut nz = 0u32;
            let mut last = 0;
            for j in 0..=get(b, ml, LIST_COUNT_BITS) {
                let idx = get(
                    b,
                    ml + LIST_COUNT_BITS + LIST_INDEX_BITS * j,
                    LIST_INDEX_BITS,
                );
                err |= j > 0 && idx <= last;
                last = idx;
                nz |= 1 << idx;
            }
            nz
        }
        2 => {
            let map = get(b, ml, GROUPS);
            let (mut nz, mut gi) = (0u32, 0);
            for g in 0..GROUPS {
                if (map >> g) & 1 == 1 {
                    let sub = get(b, ml + GROUPS + GROUP_ELEMS * gi, GROUP_ELEMS);
                    err |= sub == 0;
                    nz |= sub << (g * GROUP_ELEMS);
                    gi += 1;
                }
            }
            nz
        }
        _ => get(b, ml, 32),
    };
    err |= nz & !all != 0 || nz == 0;
    // As the Verilog: a block without a largest exponent passes `prev` on.
    let mut mx = prev;
    let emask = (1u32 << p.e) - 1;
    if p.float {
        if first || h.mx_abs == 1 {
            mx = h.mx_mag & emask;
        } else {
            let val = i64::from(prev) + i64::from(h.mx_mag) * if h.mx_neg == 1 { -1 } else { 1 };
            err |= !(0..=i64::from(emask)).contains(&val);
            mx = (val & 0xFF) as u32;
        }
        err |= h.k > p.e;
    }
    let mut rep = 0u32;
    if h.rep == 1 {
        let (mut rk, mut seen) = (0, false);
        for i in 0..32 {
            if (nz >> i) & 1 == 1 {
                if seen {
                    rep |= get(b, h.r_off + rk, 1) << i;
                    rk += 1;
                }
                seen = true;
            }
        }
    }
    let kept = nz & !rep;
    let kc = kept.count_ones();
    let f = h.fw;
    let mut w = [0u32; 32];
    let kmask = (1u32 << h.k.min(31)) - 1;
    let escapes = h.k > 0 && h.k < p.e;
    let e_off = h.f_off + kc * f;
    let mut t = 0;
    for (q, wq) in w.iter_mut().enumerate().take(kc as usize) {
        let x = get(b, h.f_off + q as u32 * f, f);
        if !p.float {
            *wq = x;
        } else {
            let off = (x >> (h.sgn + p.m)) & kmask;
            let sign = if h.sgn == 1 { (x >> p.m) & 1 } else { 0 };
            let man = x & ((1u32 << p.m) - 1);
            let exp = if escapes && off == kmask {
                let ev = if t < NESC_MAX {
                    get(b, e_off + t * p.e, p.e)
                } else {
                    0
                };
                t += 1;
                ev
            } else {
                err |= off > mx;
                mx.wrapping_sub(off) & emask
            };
            *wq = (sign << (p.e + p.m)) | (exp << p.m) | man;
        }
        err |= *wq == 0;
    }
    if p.float {
        err |= t != h.nesc;
    }
    let mut c = 0usize;
    for (i, x) in v.iter_mut().enumerate() {
        if (kept >> i) & 1 == 1 {
            c += 1;
        }
        if (nz >> i) & 1 == 1 && c > 0 {
            *x = w[c - 1];
        }
    }
    (v, err, mx)
}

/// The unpack stage (see the module docs). Combinational; its inputs are registers.
#[derive(LogicBlock, Default)]
pub struct ZvcxUnpack {
    /// The block's bits, its first bit in bit 0 (bits past the block: anything).
    pub blk: Signal<In, Bits<BLK>>,
    /// The header bus from the length scanner.
    pub hdr: Signal<In, Bits<HDR>>,
    /// Elements of the block (1..32).
    pub blen: Signal<In, Bits<6>>,
    /// No coded block before this one in the chunk (the largest exponent is absolute).
    pub first: Signal<In, Bit>,
    /// Largest exponent of the chunk's previous coded block.
    pub prev: Signal<In, Bits<8>>,
    /// Element width in bits (`ElemParams`).
    pub width: Signal<In, Bits<6>>,
    /// Exponent bits.
    pub exp_bits: Signal<In, Bits<4>>,
    /// Mantissa bits.
    pub man_bits: Signal<In, Bits<5>>,
    /// A float type.
    pub float: Signal<In, Bit>,
    /// The decoded block: element `i` in bits `[32i +: 32]`, lanes `>= blen` zero.
    pub data: Signal<Out, Bits<1024>>,
    /// The block breaks a rule.
    pub err: Signal<Out, Bit>,
    /// The block's largest exponent (the next coded block's `prev`).
    pub max_exp: Signal<Out, Bits<8>>,
}

impl Logic for ZvcxUnpack {
    fn update(&mut self) {
        let mut b = [0u64; BW];
        for (j, x) in b.iter_mut().enumerate() {
            *x = self.blk.val().get_bits::<64>(64 * j).to_u64();
        }
        let p = Elem::of(
            self.width.val().to_u64(),
            self.exp_bits.val().to_u64(),
            self.man_bits.val().to_u64(),
            0,
            self.float.val(),
        );
        let h = Hdr::unpack(self.hdr.val());
        let (v, err, mx) = unpack(
            &b,
            &h,
            self.blen.val().to_u64() as u32,
            self.first.val(),
            self.prev.val().to_u64() as u32,
            &p,
        );
        let mut d = Bits::<1024>::default();
        for (i, x) in v.iter().enumerate() {
            d.set_bits::<32>(32 * i, u64::from(*x).into());
        }
        self.data.next = d;
        self.err.next = err;
        self.max_exp.next = u64::from(mx).into();
    }
    fn connect(&mut self) {
        self.data.connect();
        self.err.connect();
        self.max_exp.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body())
    }
}

fn verilog_body() -> String {
    let (lcb, lib, gr, ge) = (LIST_COUNT_BITS, LIST_INDEX_BITS, GROUPS, GROUP_ELEMS);
    format!(
        r#"{fields}function [5:0] pc32(input [31:0] x);
  integer i;
  begin
    pc32 = 6'd0;
    for (i = 0; i < 32; i = i + 1) pc32 = pc32 + {{5'd0, x[i]}};
  end
endfunction
reg [31:0] all_m, nz, rep, keep, fx, wq, sub, tr;
reg [39:0] t;
reg [1023:0] v, lo, hi;
reg [4:0] idx, pidx;
reg [5:0] gi, kc, c, nt, fwv, shv;
reg [4:0] rk;
reg [9:0] sv;
reg [7:0] mx, off, kmask, emask, expv, ev0, ev1, ev2;
reg [31:0] mmask, wmask;
reg [11:0] fs, o, gmask;
reg [10:0] fbase, eoff, eoff1, eoff2;
reg [1023:0] wl;
reg seen, isesc, escapes, sgnb;
integer j, s;
always @(*) begin
  err = 1'b0;
  data = 1024'd0;
  max_exp = prev;
  all_m = (blen >= 6'd32) ? 32'hFFFFFFFF : ((32'd1 << blen) - 32'd1);
  t = blk[{{7'd0, ml}} +: 40];
  nz = 32'd0;
  pidx = 5'd0;
  gi = 6'd0;
  idx = 5'd0;
  sub = 32'd0;
  case (pos)
    2'd0: nz = all_m;
    2'd1: begin
      for (j = 0; j < {lmax}; j = j + 1) begin
        if (j <= {{{pad_c}'d0, t[{lcb1}:0]}}) begin
          idx = t[({lcb} + {lib} * j) +: {lib}];
          if (j > 0 && idx <= pidx) err = 1'b1;
          pidx = idx;
          nz = nz | (32'd1 << idx);
        end
      end
    end
    2'd2: begin
      for (j = 0; j < {gr}; j = j + 1) begin
        if (t[j]) begin
          sub = {{{pad_s}'d0, t[(gi * 6'd{ge} + 6'd{gr}) +: {ge}]}};
          if (sub == 32'd0) err = 1'b1;
          nz = nz | (sub << ({ge} * j));
          gi = gi + 6'd1;
        end
      end
    end
    default: nz = t[31:0];
  endcase
  emask = (8'd1 << exp_bits) - 8'd1;
  mx = 8'd0;
  sv = 10'd0;
  if (coded) begin
    if ((nz & ~all_m) != 32'd0 || nz == 32'd0) err = 1'b1;
    if (float) begin
      if (first || mx_abs) mx = mx_mag & emask;
      else begin
        sv = mx_neg ? ({{2'd0, prev}} - {{2'd0, mx_mag}}) : ({{2'd0, prev}} + {{2'd0, mx_mag}});
        if (sv[9] || sv > {{2'd0, emask}}) err = 1'b1;
        mx = sv[7:0];
      end
      if (k > exp_bits) err = 1'b1;
      max_exp = mx;
    end
  end
  // repeat flags on the non-zeros after the first
  rep = 32'd0;
  rk = 5'd0;
  seen = 1'b0;
  tr = blk[{{4'd0, r_off}} +: 32];
  if (rep_f) begin
    for (j = 0; j < 32; j = j + 1) begin
      if (nz[j]) begin
        if (seen) begin
          rep[j] = tr[rk];
          rk = rk + 5'd1;
        end
        seen = 1'b1;
      end
    end
  end
  if (raw) begin
    nz = all_m;
    rep = 32'd0;
  end
  keep = nz & ~rep;
  kc = pc32(keep);
  fwv = raw ? width : fw;
  shv = 6'd32 - fwv;
  fbase = raw ? {{7'd0, ml}} : {{4'd0, f_off}};
  // inverse stride: field q at q*F -> lane q
  v = blk[fbase +: 1024];
  for (s = 4; s >= 0; s = s - 1) begin
    fs = {{6'd0, fwv}} << s;
    for (j = 0; j < 1024; j = j + 1) begin
      gmask = (12'd64 << s) - 12'd1;
      o = j[11:0] & gmask;
      lo[j] = (o < fs);
      hi[j] = (o >= fs) && (o < (fs << 1));
    end
    v = (v & lo) | ((v & hi) << ({{6'd0, shv}} << s));
  end
  // per compacted lane: the element
  eoff = {{4'd0, f_off}} + {{5'd0, kc}} * {{5'd0, fwv}};
  eoff1 = eoff + {{7'd0, exp_bits}};
  eoff2 = eoff1 + {{7'd0, exp_bits}};
  ev0 = blk[eoff +: 8] & emask;
  ev1 = blk[eoff1 +: 8] & emask;
  ev2 = blk[eoff2 +: 8] & emask;
  kmask = (8'd1 << k) - 8'd1;
  escapes = (k != 4'd0) && (k < exp_bits);
  mmask = (32'd1 << man_bits) - 32'd1;
  wmask = (width >= 6'd32) ? 32'hFFFFFFFF : ((32'd1 << width) - 32'd1);
  nt = 6'd0;
  wl = 1024'd0;
  off = 8'd0; expv = 8'd0; isesc = 1'b0; sgnb = 1'b0; fx = 32'd0; wq = 32'd0;
  for (j = 0; j < 32; j = j + 1) begin
    fx = v[j*32 +: 32];
    if (raw || !float) wq = fx & wmask;
    else begin
      off = fx[(man_bits + {{4'd0, sgn}}) +: 8] & kmask;
      sgnb = sgn & fx[man_bits];
      isesc = escapes && (off == kmask);
      expv = mx - off;
      if (isesc) begin
        expv = (nt == 6'd0) ? ev0 : (nt == 6'd1) ? ev1 : (nt == 6'd2) ? ev2 : 8'd0;
        if (j < kc) nt = nt + 6'd1;
      end else if (j < kc && off > mx) err = 1'b1;
      expv = expv & emask;
      wq = ({{31'd0, sgnb}} << ({{2'd0, exp_bits}} + {{1'd0, man_bits}})) | ({{24'd0, expv}} << man_bits) | (fx & mmask);
    end
    if (coded && j < kc && wq == 32'd0) err = 1'b1;
    wl[j*32 +: 32] = wq;
  end
  if (coded && float && nt != {{4'd0, nesc}}) err = 1'b1;
  // lane i of the block: compacted lane (keep at or below i) - 1
  c = 6'd0;
  if (!zero) begin
    for (j = 0; j < 32; j = j + 1) begin
      if (keep[j]) c = c + 6'd1;
      if (nz[j] && c != 6'd0) begin
        data[j*32 +: 32] = wl[{{c[4:0] - 5'd1, 5'd0}} +: 32];
      end
    end
  end
  if (zero || raw) err = 1'b0;
end
"#,
        fields = hdr_unpack().replace("wire [0:0] rep =", "wire [0:0] rep_f ="),
        lmax = 1u32 << lcb,
        pad_c = 32 - lcb,
        lcb1 = lcb - 1,
        pad_s = 32 - ge,
    )
}
