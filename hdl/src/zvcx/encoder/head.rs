//! [`Head`]: the second stage's raw-vs-coded choice and the block's head bits. The one
//! loop of the encoder runs through here: the previous coded block's largest exponent
//! (`prev`, a register of the top) sets the length of this block's largest-exponent field
//! (absolute, a delta class, or the escape), which decides raw vs coded, which decides
//! whether `prev` takes this block's exponent. The head is the mode code, the positions
//! (list indices, group map and nibbles, or the mask), the largest-exponent field, `k`, the
//! escape count, the all-positive flag and the repeat flags, each placed after the previous
//! one by a small shifter (at most ~100 bits).

use cdma_spec::zvcx::{GROUPS, GROUP_ELEMS, LIST_COUNT_BITS, LIST_INDEX_BITS, NESC_BITS};
use rust_hdl::core::prelude::*;

use super::codes::{
    coded_mode, delta_classes, delta_escape, raw_mode, zero_mode, Ep, KINDS, PC32, PC8,
};
use super::info::{verilog_unpack, Info, HEAD_INFO};
use super::words::{bits_of_words, BitVec};

/// Width of the head vector (the longest head is under 100 bits).
pub const HEAD_BITS: usize = 128;

/// The raw-vs-coded choice and head bits of one block.
#[derive(LogicBlock, Default)]
pub struct Head {
    /// The block's analysis: the info bus's bits `0..HEAD_INFO` (the analysis stage's
    /// register).
    pub info: Signal<In, Bits<HEAD_INFO>>,
    /// A coded block came before in this chunk: `prev` is valid.
    pub prev_v: Signal<In, Bit>,
    /// Largest exponent of the chunk's previous coded block.
    pub prev: Signal<In, Bits<8>>,
    /// Element width in bits.
    pub w: Signal<In, Bits<6>>,
    /// Exponent bits.
    pub e: Signal<In, Bits<4>>,
    /// `k` field bits.
    pub kb: Signal<In, Bits<3>>,
    /// Float type.
    pub fl: Signal<In, Bit>,
    /// The head bits, stream bit `i` in bit `i`, zero above `hlen`.
    pub head: Signal<Out, Bits<HEAD_BITS>>,
    /// Head length in bits.
    pub hlen: Signal<Out, Bits<8>>,
    /// The block is written raw (strictly shorter than coded).
    pub raw: Signal<Out, Bit>,
    /// The block is coded (not zero, not raw): `prev` takes its largest exponent.
    pub coded: Signal<Out, Bit>,
}

/// The model's output: (head, hlen, raw, coded).
pub type HeadOut = (BitVec, u32, bool, bool);

/// The largest-exponent field (bits, length) of `max_exp` after `prev` (None: the chunk's
/// first coded block).
fn max_exp_field(p: &Ep, max_exp: u32, prev: Option<u32>) -> (u32, u32) {
    let Some(prev) = prev else {
        return (max_exp, p.e);
    };
    let dd = max_exp.wrapping_sub(prev) & 0x1FF;
    let neg = dd >> 8 & 1;
    let mag = if neg == 1 {
        dd.wrapping_neg() & 0x1FF
    } else {
        dd
    };
    for (pb, pl, min, extra) in delta_classes() {
        if mag >= min && mag - min < 1 << extra {
            let (b, l) = if min > 0 {
                (pb | neg << pl | (mag - min) << (pl + 1), pl + 1 + extra)
            } else {
                (pb, pl)
            };
            return (b, l);
        }
    }
    let (eb, el) = delta_escape();
    (eb | max_exp << el, el + p.e)
}

/// The Rust model of [`Head`].
pub fn head(p: &Ep, i: &Info, prev: Option<u32>) -> HeadOut {
    let (meb, mel) = if p.fl {
        max_exp_field(p, i.max_exp, prev)
    } else {
        (0, 0)
    };
    let coded_len = (i.cost + mel) & 0xFFF;
    let raw_len = (raw_mode().1 + i.len * p.w) & 0xFFF;
    let raw = !i.zero && raw_len < coded_len;
    let coded = !i.zero && !raw;
    let mut h = BitVec::zeros(HEAD_BITS);
    let mut at = 0usize;
    let mut put = |h: &mut BitVec, v: u64, len: u32| {
        h.or_at(at, v, len as usize);
        at += len as usize;
    };
    if !coded {
        let (b, l) = if raw { raw_mode() } else { zero_mode() };
        put(&mut h, b.into(), l);
        return (h, at as u32, raw, coded);
    }
    let (b, l) = coded_mode(i.kind as usize, i.repeat);
    put(&mut h, b.into(), l);
    let nzs: Vec<u32> = (0..32).filter(|&b| (i.nz >> b) & 1 == 1).collect();
    match KINDS[i.kind as usize] {
        cdma_spec::zvcx::Positions::Dense => {}
        cdma_spec::zvcx::Positions::List => {
            put(&mut h, u64::from(i.n.wrapping_sub(1) & 3), LIST_COUNT_BITS);
            for &x in nzs.iter().take(4) {
                put(&mut h, x.into(), LIST_INDEX_BITS);
            }
        }
        cdma_spec::zvcx::Positions::Group => {
            let gmap = (0..GROUPS).fold(0u32, |a, j| {
                a | (u32::from((i.nz >> (j * GROUP_ELEMS)) & 0xF != 0) << j)
            });
            put(&mut h, gmap.into(), GROUPS);
            for j in 0..GROUPS {
                let nib = (i.nz >> (j * GROUP_ELEMS)) & 0xF;
                if nib != 0 {
                    put(&mut h, nib.into(), GROUP_ELEMS);
                }
            }
        }
        cdma_spec::zvcx::Positions::Mask => put(&mut h, i.nz.into(), 32),
    }
    if p.fl {
        put(&mut h, meb.into(), mel);
        put(&mut h, i.k.into(), p.kb);
        put(&mut h, i.nesc.into(), NESC_BITS);
        put(&mut h, u64::from(!i.sgn), 1);
    }
    if i.repeat {
        for &x in nzs.iter().skip(1) {
            put(&mut h, u64::from((i.rep >> x) & 1), 1);
        }
    }
    (h, at as u32, raw, coded)
}

impl Logic for Head {
    fn update(&mut self) {
        let p = Ep::new(
            self.w.val().to_u64(),
            self.e.val().to_u64(),
            0,
            self.kb.val().to_u64(),
            self.fl.val(),
        );
        let i = Info::from_slice(self.info.val(), 0);
        let prev = self.prev_v.val().then(|| self.prev.val().to_u64() as u32);
        let (h, hlen, raw, coded) = head(&p, &i, prev);
        self.head.next = bits_of_words(&h.w);
        self.hlen.next = u64::from(hlen).into();
        self.raw.next = raw;
        self.coded.next = coded;
    }
    fn connect(&mut self) {
        self.head.connect();
        self.hlen.connect();
        self.raw.connect();
        self.coded.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog())
    }
}

fn verilog() -> String {
    let mut s = format!("{PC32}{PC8}");
    s += &verilog_unpack("info", 0, HEAD_INFO);
    // Largest-exponent field.
    s += "wire [8:0] dd = {1'b0, i_max_exp} - {1'b0, prev};\nwire neg = dd[8];\n\
          wire [8:0] mag = neg ? (9'd0 - dd) : dd;\n\
          reg [4:0] mel;\nreg [15:0] meb;\nalways @(*) begin\n";
    s += "    if (!fl) begin\n        mel = 5'd0;\n        meb = 16'd0;\n    end else if (!prev_v) begin\n        mel = {1'b0, e};\n        meb = {8'd0, i_max_exp};\n    end";
    for (pb, pl, min, extra) in delta_classes() {
        let (bits, len) = if min > 0 {
            (
                format!(
                    "16'd{pb} | ({{15'd0, neg}} << {pl}) | ({{7'd0, mag - 9'd{min}}} << {})",
                    pl + 1
                ),
                pl + 1 + extra,
            )
        } else {
            (format!("16'd{pb}"), pl)
        };
        let ge = if min == 0 {
            "1'b1".to_string()
        } else {
            format!("(mag >= 9'd{min})")
        };
        s += &format!(
            " else if ({ge} & ((mag - 9'd{min}) < 9'd{})) begin\n        mel = 5'd{len};\n        meb = {bits};\n    end",
            1u32 << extra
        );
    }
    let (eb, el) = delta_escape();
    s += &format!(
        " else begin\n        mel = 5'd{el} + {{1'b0, e}};\n        meb = 16'd{eb} | ({{8'd0, i_max_exp}} << {el});\n    end\nend\n"
    );
    let (rb, rl) = raw_mode();
    let (zb, zl) = zero_mode();
    s += &format!(
        "wire [11:0] coded_len = i_cost + {{7'd0, mel}};\n\
         wire [11:0] raw_len = 12'd{rl} + {{6'd0, i_len}} * {{6'd0, w}};\n\
         wire raw_ = ~i_zero & (raw_len < coded_len);\n\
         wire coded_ = ~i_zero & ~raw_;\n"
    );
    // Prefix counts: non-zeros below each lane.
    for i in 0..32 {
        let below = if i == 0 {
            "6'd0".to_string()
        } else {
            format!("pc32({{{}'d0, i_nz[{}:0]}})", 32 - i, i - 1)
        };
        s += &format!("wire [5:0] cnt{i} = {below};\n");
    }
    // List indices, repeat flags (rep compacted by nz), group map and nibbles.
    for j in 0..4 {
        let terms: Vec<String> = (0..32)
            .map(|i| format!("({{5{{i_nz[{i}] & (cnt{i} == 6'd{j})}}}} & 5'd{i})"))
            .collect();
        s += &format!("wire [4:0] idx{j} = {};\n", terms.join(" | "));
    }
    s += "wire [31:1] fb;\n";
    for j in 1..32 {
        let terms: Vec<String> = (0..32)
            .map(|i| format!("(i_rep[{i}] & (cnt{i} == 6'd{j}))"))
            .collect();
        s += &format!("assign fb[{j}] = {};\n", terms.join(" | "));
    }
    s += "wire [7:0] gmap;\n";
    for j in 0..GROUPS {
        let (hi, lo) = (j * GROUP_ELEMS + GROUP_ELEMS - 1, j * GROUP_ELEMS);
        s += &format!("assign gmap[{j}] = |i_nz[{hi}:{lo}];\n");
    }
    let mut gn = vec![];
    for j in 0..GROUPS {
        let (hi, lo) = (j * GROUP_ELEMS + GROUP_ELEMS - 1, j * GROUP_ELEMS);
        let gc = if j == 0 {
            "4'd0".to_string()
        } else {
            format!("pc8({{{}'d0, gmap[{}:0]}})", 8 - j, j - 1)
        };
        s += &format!("wire [3:0] gc{j} = {gc};\n");
        gn.push(format!(
            "({{28'd0, i_nz[{hi}:{lo}]}} << {{gc{j}[3:0], 2'd0}})"
        ));
    }
    s += &format!(
        "wire [31:0] gnib = {};\nwire [3:0] ng = pc8(gmap);\n",
        gn.join(" | ")
    );
    // Mode code and positions by kind.
    s += "reg [7:0] mb;\nreg [3:0] ml;\nreg [39:0] pb;\nreg [7:0] pl;\nalways @(*) begin\n";
    s += &format!("    if (!coded_) begin\n        mb = raw_ ? 8'd{rb} : 8'd{zb};\n        ml = raw_ ? 4'd{rl} : 4'd{zl};\n    end else begin\n        case ({{i_repeat, i_kind}})\n");
    for r in 0..2 {
        for ki in 0..KINDS.len() {
            let (b, l) = coded_mode(ki, r == 1);
            s += &format!(
                "            3'd{}: begin mb = 8'd{b}; ml = 4'd{l}; end\n",
                r * 4 + ki
            );
        }
    }
    s += "            default: begin mb = 8'd0; ml = 4'd0; end\n        endcase\n    end\n";
    s += &format!(
        "    case (i_kind)\n\
         \x20       2'd1: begin pb = {{18'd0, idx3, idx2, idx1, idx0, i_n[1:0] - 2'd1}}; pl = 8'd{LIST_COUNT_BITS} + 8'd{LIST_INDEX_BITS} * {{2'd0, i_n}}; end\n\
         \x20       2'd2: begin pb = {{gnib, gmap}}; pl = 8'd{GROUPS} + 8'd{GROUP_ELEMS} * {{4'd0, ng}}; end\n\
         \x20       2'd3: begin pb = {{8'd0, i_nz}}; pl = 8'd32; end\n\
         \x20       default: begin pb = 40'd0; pl = 8'd0; end\n    endcase\n\
         \x20   if (!coded_) begin\n        pb = 40'd0;\n        pl = 8'd0;\n    end\nend\n"
    );
    // Float fields and repeat flags.
    s += &format!(
        "wire flt = coded_ & fl;\n\
         wire [7:0] o1 = {{4'd0, ml}};\n\
         wire [7:0] o2 = o1 + pl;\n\
         wire [7:0] o3 = o2 + (flt ? {{3'd0, mel}} : 8'd0);\n\
         wire [7:0] o4 = o3 + (flt ? {{5'd0, kb}} : 8'd0);\n\
         wire [7:0] o5 = o4 + (flt ? 8'd{NESC_BITS} : 8'd0);\n\
         wire [7:0] o6 = o5 + (flt ? 8'd1 : 8'd0);\n\
         wire rf = coded_ & i_repeat;\n\
         wire [7:0] fll = rf ? ({{2'd0, i_n}} - 8'd1) : 8'd0;\n\
         wire [127:0] kx = {{124'd0, i_k}} & ~({{128{{1'b1}}}} << kb);\n\
         always @(*) begin\n\
         \x20   head = {{120'd0, mb}} | ({{88'd0, pb}} << o1)\n\
         \x20       | (flt ? (({{112'd0, meb}} << o2) | (kx << o3) | ({{126'd0, i_nesc}} << o4) | ({{127'd0, ~i_sgn}} << o5)) : 128'd0)\n\
         \x20       | (rf ? ({{97'd0, fb[31:1]}} << o6) : 128'd0);\n\
         \x20   hlen = o6 + fll;\n\
         \x20   raw = raw_;\n\
         \x20   coded = coded_;\n\
         end\n"
    );
    s
}
