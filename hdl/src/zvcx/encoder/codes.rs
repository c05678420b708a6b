//! The code tables the encoder's leaves need, read from `cdma_spec::zvcx` (never retyped):
//! mode codes by (position kind, repeat), the element parameters as plain numbers, and
//! shared Verilog snippets.

use cdma_spec::zvcx::{mode_of, ModeKind, Positions, DELTAS, DELTA_ESCAPE, ELEM_TYPES};

/// Position kinds in the encoder's tie-break order (the index is the `kind` field).
pub const KINDS: [Positions; 4] = [
    Positions::Dense,
    Positions::List,
    Positions::Group,
    Positions::Mask,
];

/// A prefix code as (bits, length), the first character in bit 0.
pub fn code_bits(s: &str) -> (u32, u32) {
    let bits = s
        .bytes()
        .enumerate()
        .fold(0u32, |a, (i, c)| a | (u32::from(c == b'1') << i));
    (bits, s.len() as u32)
}

/// The mode code of a coded block of kind index `kind` (0..4) and `repeat`.
pub fn coded_mode(kind: usize, repeat: bool) -> (u32, u32) {
    code_bits(
        mode_of(ModeKind::Coded {
            positions: KINDS[kind],
            repeat,
        })
        .code,
    )
}

/// The zero block's mode code.
pub fn zero_mode() -> (u32, u32) {
    code_bits(mode_of(ModeKind::Zero).code)
}

/// The raw block's mode code.
pub fn raw_mode() -> (u32, u32) {
    code_bits(mode_of(ModeKind::Raw).code)
}

/// The delta classes as (prefix bits, prefix length, min, extra).
pub fn delta_classes() -> Vec<(u32, u32, u32, u32)> {
    DELTAS
        .iter()
        .map(|c| {
            let (b, l) = code_bits(c.prefix);
            (b, l, c.min, c.extra)
        })
        .collect()
}

/// The delta escape prefix.
pub fn delta_escape() -> (u32, u32) {
    code_bits(DELTA_ESCAPE)
}

/// An element type's parameters as plain numbers (`crate::zvcx::params_of`).
#[derive(Clone, Copy, Debug)]
pub struct Ep {
    /// Width in bits.
    pub w: u32,
    /// Exponent bits.
    pub e: u32,
    /// Mantissa bits.
    pub m: u32,
    /// `k` field bits.
    pub kb: u32,
    /// Float type.
    pub fl: bool,
}

impl Ep {
    /// From the `ElemParams` output values.
    pub fn new(w: u64, e: u64, m: u64, kb: u64, fl: bool) -> Ep {
        Ep {
            w: w as u32,
            e: e as u32,
            m: m as u32,
            kb: kb as u32,
            fl,
        }
    }

    /// Mask of an element's `w` bits.
    pub fn wmask(&self) -> u32 {
        if self.w >= 32 {
            !0
        } else {
            (1 << self.w) - 1
        }
    }

    /// The exponent of `x`.
    pub fn exp_of(&self, x: u32) -> u32 {
        (x >> self.m) & !(0xFFu32 << self.e) & 0xFF
    }

    /// The sign bit of `x` (bit `m + e`; bit 0 for raw, unused there).
    pub fn sign_of(&self, x: u32) -> u32 {
        (x >> ((self.m + self.e) & 31)) & 1
    }
}

/// The Verilog function `pc32`: population count of a 32-bit vector.
pub const PC32: &str = "function automatic [5:0] pc32(input [31:0] v);
    integer j;
    begin
        pc32 = 6'd0;
        for (j = 0; j < 32; j = j + 1) pc32 = pc32 + {5'd0, v[j]};
    end
endfunction
";

/// The Verilog function `pc2`: population count of a 32-bit vector modulo 4 (the escape
/// count and positions, never above 3 for a chosen `k`).
pub const PC2: &str = "function automatic [1:0] pc2(input [31:0] v);
    integer j;
    begin
        pc2 = 2'd0;
        for (j = 0; j < 32; j = j + 1) pc2 = pc2 + {1'b0, v[j]};
    end
endfunction
";

/// The Verilog function `pc8`: population count of an 8-bit vector (the group map).
pub const PC8: &str = "function automatic [3:0] pc8(input [7:0] v);
    integer j;
    begin
        pc8 = 4'd0;
        for (j = 0; j < 8; j = j + 1) pc8 = pc8 + {3'd0, v[j]};
    end
endfunction
";

/// Verilog declaring `min` (`W` bits) and `idx` (`I` bits): the first minimum of the `W`-bit
/// wires `costs` (its index), as a balanced tree in which the lower index wins ties (the
/// same as a left-to-right scan with a strict `<`).
pub fn argmin_tree(
    prefix: &str,
    costs: &[String],
    w: usize,
    ib: usize,
) -> (String, String, String) {
    let mut s = String::new();
    let mut level: Vec<(String, String)> = costs
        .iter()
        .enumerate()
        .map(|(i, c)| (c.clone(), format!("{ib}'d{i}")))
        .collect();
    let mut l = 0;
    while level.len() > 1 {
        let mut next = vec![];
        for (j, pair) in level.chunks(2).enumerate() {
            if pair.len() == 1 {
                next.push(pair[0].clone());
                continue;
            }
            let (c, i) = (format!("{prefix}c{l}_{j}"), format!("{prefix}i{l}_{j}"));
            let take_r = format!("({} < {})", pair[1].0, pair[0].0);
            s += &format!(
                "wire [{}:0] {c} = {take_r} ? {} : {};\nwire [{}:0] {i} = {take_r} ? {} : {};\n",
                w - 1,
                pair[1].0,
                pair[0].0,
                ib - 1,
                pair[1].1,
                pair[0].1
            );
            next.push((c, i));
        }
        level = next;
        l += 1;
    }
    let (c, i) = level.pop().expect("at least one cost");
    (s, c, i)
}

/// Index of the first minimum of `costs` (the Rust twin of [`argmin_tree`]).
pub fn argmin(costs: &[u32]) -> (u32, usize) {
    let mut best = (costs[0], 0);
    for (i, &c) in costs.iter().enumerate().skip(1) {
        if c < best.0 {
            best = (c, i);
        }
    }
    best
}

/// Verilog declaring `reg [7:0] <ex>` and `reg <sg>`: the exponent and sign bit of the 32-bit
/// `x`, one case per float type of the spec's table on (`m`, `e`) with constant part-selects
/// (variable shifts per lane would cost a barrel shifter each and stall Yosys' `share`);
/// zero for raw.
pub fn exp_sign_verilog(x: &str, ex: &str, sg: &str) -> String {
    let mut s = format!("reg [7:0] {ex};\nreg {sg};\nalways @(*) begin\n    case ({{m, e}})\n");
    for t in ELEM_TYPES.iter().filter(|t| t.is_float()) {
        let (m, e) = (t.man_bits, t.exp_bits);
        let pad = if e < 8 {
            format!("{}'d0, ", 8 - e)
        } else {
            String::new()
        };
        s += &format!(
            "        {{5'd{m}, 4'd{e}}}: begin {ex} = {{{pad}{x}[{}:{m}]}}; {sg} = {x}[{}]; end\n",
            m + e - 1,
            m + e
        );
    }
    s += &format!("        default: begin {ex} = 8'd0; {sg} = 1'b0; end\n    endcase\nend\n");
    s
}

/// The Verilog function `shm(t, s)`: the 9-bit `t` shifted up by a float type's mantissa
/// width `s` (one case per width of the spec's table, constant shifts), else unshifted.
pub fn shm_verilog() -> String {
    let mut ms: Vec<u32> = ELEM_TYPES
        .iter()
        .filter(|t| t.is_float())
        .map(|t| t.man_bits)
        .collect();
    ms.sort_unstable();
    ms.dedup();
    let mut s = String::from(
        "function automatic [31:0] shm(input [8:0] t, input [4:0] s);\n    begin\n        case (s)\n",
    );
    for m in ms {
        let lo = if m > 0 {
            format!(", {m}'d0")
        } else {
            String::new()
        };
        let hi = if m < 23 {
            format!("{}'d0, ", 23 - m)
        } else {
            String::new()
        };
        s += &format!("            5'd{m}: shm = {{{hi}t{lo}}};\n");
    }
    s += "            default: shm = {23'd0, t};\n        endcase\n    end\nendfunction\n";
    s
}
