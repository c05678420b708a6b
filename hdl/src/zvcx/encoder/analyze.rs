//! [`Analyze`]: the encoder's first stage (register-free, reads the input register): per
//! lane the non-zero flag, exponent and sign; the repeats (a non-zero equal to the previous
//! non-zero, found by a log-depth scan that carries the last non-zero value up the lanes);
//! the largest exponent, the escape counts per offset width `k`, and the cost of every
//! (repeat, positions, k) choice, of which it keeps the first minimum in the order of
//! docs/FORMAT.md ("ZVC-X encoder choices"): no repeat before repeat, dense < list < group <
//! mask, then the smaller `k`. Raw-vs-coded is left to the next stage (it needs the previous
//! block's largest exponent).

use cdma_spec::zvcx::{
    GROUPS, GROUP_ELEMS, LIST_COUNT_BITS, LIST_INDEX_BITS, LIST_MAX, NESC_BITS, NESC_MAX,
};
use rust_hdl::core::prelude::*;

use super::codes::{argmin, argmin_tree, coded_mode, exp_sign_verilog, Ep, KINDS, PC2, PC32};
use super::info::{Info, FIELDS, INFO_BITS};
use super::words::lanes_of;

/// Largest exponent width of any type (f32, bf16): offset widths `k` are `0..=8`.
const KMAX: u32 = 8;
/// "Not a choice" cost: above every real one.
const INF: u32 = 0xFFF;

/// The analysis stage of the ZVC-X encoder.
#[derive(LogicBlock, Default)]
pub struct Analyze {
    /// The block: element `i` in bits `[32i +: 32]` (bits above the width and lanes at and
    /// above `len` are ignored).
    pub d: Signal<In, Bits<1024>>,
    /// Elements in the block (1..=32).
    pub len: Signal<In, Bits<6>>,
    /// Element width in bits (`ElemParams`).
    pub w: Signal<In, Bits<6>>,
    /// Exponent bits.
    pub e: Signal<In, Bits<4>>,
    /// Mantissa bits.
    pub m: Signal<In, Bits<5>>,
    /// `k` field bits.
    pub kb: Signal<In, Bits<3>>,
    /// Float type.
    pub fl: Signal<In, Bit>,
    /// The block's [`Info`].
    pub info: Signal<Out, Bits<INFO_BITS>>,
}

/// The Rust model: the analysis of block `d` (`len` elements) of type `p`.
pub fn analyze(p: &Ep, d: &[u32; 32], len: u32) -> Info {
    let x: [u32; 32] = std::array::from_fn(|i| {
        if (i as u32) < len {
            d[i] & p.wmask()
        } else {
            0
        }
    });
    let bit = |v: u32, i: usize| (v >> i) & 1 == 1;
    let nz = (0..32).fold(0u32, |a, i| a | (u32::from(x[i] != 0) << i));
    let mut rep = 0u32;
    let mut last: Option<u32> = None;
    for (i, &xi) in x.iter().enumerate() {
        if bit(nz, i) {
            if last == Some(xi) {
                rep |= 1 << i;
            }
            last = Some(xi);
        }
    }
    let ex: [u32; 32] = std::array::from_fn(|i| p.exp_of(x[i]));
    let max_exp = (0..32)
        .filter(|&i| bit(nz, i))
        .map(|i| ex[i])
        .max()
        .unwrap_or(0);
    let sg = (0..32).fold(0u32, |a, i| a | (p.sign_of(x[i]) << i));
    let sgn = p.fl && (sg & nz) != 0;
    let ge: Vec<u32> = (0..=KMAX)
        .map(|k| {
            (0..32).fold(0u32, |a, i| {
                let off = max_exp.wrapping_sub(ex[i]) & 0xFF;
                a | (u32::from(k > 0 && off >= (1 << k) - 1) << i)
            })
        })
        .collect();
    let n = nz.count_ones();
    let kept = [nz, nz & !rep];
    let mut body = [(0u32, 0usize); 2];
    for r in 0..2 {
        let nk = kept[r].count_ones();
        let flags = if r == 1 { n.wrapping_sub(1) & INF } else { 0 };
        let fwb = if p.fl { p.m + u32::from(sgn) } else { p.w };
        let base = nk * fwb;
        let c1 = (kept[r] & ge[1]).count_ones();
        let costs: Vec<u32> = (0..=KMAX)
            .map(|k| {
                let c = (kept[r] & ge[k as usize]).count_ones();
                let esc = if k > 0 && k < p.e { c } else { 0 };
                let ok = if p.fl {
                    k <= p.e && (k != 0 || c1 == 0) && esc <= NESC_MAX
                } else {
                    k == 0
                };
                let b = (flags + base + nk * k + (esc & 3) * p.e) & INF;
                if ok {
                    b
                } else {
                    INF
                }
            })
            .collect();
        body[r] = argmin(&costs);
    }
    let gmap = (0..GROUPS).fold(0u32, |a, j| {
        a | (u32::from((nz >> (j * GROUP_ELEMS)) & 0xF != 0) << j)
    });
    let pos = [
        (n == len, 0),
        (n <= LIST_MAX, LIST_COUNT_BITS + LIST_INDEX_BITS * n),
        (true, GROUPS + GROUP_ELEMS * gmap.count_ones()),
        (true, 32),
    ];
    let mut costs = vec![];
    for (r, b) in body.iter().enumerate() {
        for (ki, &(ok, pl)) in pos.iter().enumerate() {
            let ok = ok && (r == 0 || rep != 0);
            let c = (coded_mode(ki, r == 1).1 + pl + b.0) & INF;
            costs.push(if ok { c } else { INF });
        }
    }
    let (total, idx) = argmin(&costs);
    let repeat = idx >= KINDS.len();
    let r = usize::from(repeat);
    let k = body[r].1 as u32;
    let escm = if k > 0 && k < p.e {
        kept[r] & ge[k as usize]
    } else {
        0
    };
    let hdr = if p.fl { p.kb + NESC_BITS + 1 } else { 0 };
    Info {
        nz,
        rep,
        kept: kept[r],
        escm,
        max_exp,
        sgn,
        repeat,
        kind: (idx % KINDS.len()) as u32,
        k,
        nesc: escm.count_ones() & 3,
        cost: (total + hdr) & INF,
        zero: n == 0,
        n,
        len,
    }
}

impl Logic for Analyze {
    fn update(&mut self) {
        let p = Ep::new(
            self.w.val().to_u64(),
            self.e.val().to_u64(),
            self.m.val().to_u64(),
            self.kb.val().to_u64(),
            self.fl.val(),
        );
        let d = lanes_of(self.d.val());
        self.info.next = analyze(&p, &d, self.len.val().to_u64() as u32).to_bits();
    }
    fn connect(&mut self) {
        self.info.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog())
    }
}

fn verilog() -> String {
    let mut s = format!("{PC32}{PC2}");
    s += "wire [31:0] wm = w[5] ? 32'hffffffff : ((32'd1 << w) - 32'd1);\n";
    s += "wire [31:0] nz;\nwire [31:0] sg;\nwire [31:0] rep;\n";
    for i in 0..32 {
        s += &format!(
            "wire [31:0] x{i} = d[{}:{}] & wm & {{32{{len > 6'd{i}}}}};\n\
             assign nz[{i}] = |x{i};\n\
             ",
            32 * i + 31,
            32 * i
        );
        s += &exp_sign_verilog(&format!("x{i}"), &format!("ex{i}"), &format!("sg{i}"));
        s += &format!("assign sg[{i}] = sg{i};\n");
    }
    // Scan: after level l, (v, f) at lane i = the last non-zero at or below i (lanes 0..31:
    // lane 31's is never read).
    for i in 0..31 {
        s += &format!("wire [31:0] v0_{i} = x{i};\nwire f0_{i} = nz[{i}];\n");
    }
    for l in 0..5 {
        let dist = 1 << l;
        for i in 0..32 {
            if i == 31 {
                continue; // lane 31's scan value is never read (no lane above it)
            }
            if i >= dist {
                s += &format!(
                    "wire [31:0] v{n}_{i} = f{l}_{i} ? v{l}_{i} : v{l}_{j};\n\
                     wire f{n}_{i} = f{l}_{i} | f{l}_{j};\n",
                    n = l + 1,
                    j = i - dist
                );
            } else {
                s += &format!(
                    "wire [31:0] v{n}_{i} = v{l}_{i};\nwire f{n}_{i} = f{l}_{i};\n",
                    n = l + 1
                );
            }
        }
    }
    s += "assign rep[0] = 1'b0;\n";
    for i in 1..32 {
        s += &format!(
            "assign rep[{i}] = nz[{i}] & f5_{j} & (v5_{j} == x{i});\n",
            j = i - 1
        );
    }
    // Largest exponent of the non-zeros: a max tree.
    for i in 0..32 {
        s += &format!("wire [7:0] a0_{i} = nz[{i}] ? ex{i} : 8'd0;\n");
    }
    for l in 0..5 {
        for j in 0..(16 >> l) {
            s += &format!(
                "wire [7:0] a{n}_{j} = (a{l}_{b} > a{l}_{a}) ? a{l}_{b} : a{l}_{a};\n",
                n = l + 1,
                a = 2 * j,
                b = 2 * j + 1
            );
        }
    }
    s += "wire [7:0] max_exp = a5_0;\nwire sgn = fl & (|(sg & nz));\n";
    s += "wire [5:0] n = pc32(nz);\n";
    for k in 1..=KMAX {
        s += &format!("wire [31:0] ge{k};\n");
    }
    for i in 0..32 {
        s += &format!("wire [7:0] off{i} = max_exp - ex{i};\n");
        for k in 1..=KMAX {
            s += &format!("assign ge{k}[{i}] = off{i} >= 8'd{};\n", (1u32 << k) - 1);
        }
    }
    s += "wire [31:0] kept0 = nz;\nwire [31:0] kept1 = nz & ~rep;\n";
    s += "wire [11:0] flags0 = 12'd0;\nwire [11:0] flags1 = {6'd0, n} - 12'd1;\n";
    s += "wire [5:0] fwb = fl ? ({1'b0, m} + {5'd0, sgn}) : w;\n";
    for r in 0..2 {
        s += &format!(
            "wire [5:0] nk{r} = pc32(kept{r});\n\
             wire [11:0] base{r} = {{6'd0, nk{r}}} * {{6'd0, fwb}};\n"
        );
        for k in 1..=KMAX {
            s += &format!("wire [5:0] c{r}_{k} = pc32(kept{r} & ge{k});\n");
        }
        let mut costs = vec![];
        for k in 0..=KMAX {
            let esc = if k == 0 {
                "6'd0".to_string()
            } else {
                format!("((4'd{k} < e) ? c{r}_{k} : 6'd0)")
            };
            let okf = if k == 0 {
                format!("(c{r}_1 == 6'd0)")
            } else {
                "1'b1".into()
            };
            s += &format!(
                "wire [5:0] es{r}_{k} = {esc};\n\
                 wire ok{r}_{k} = fl ? ({kle} & {okf} & (es{r}_{k} <= 6'd{NESC_MAX})) : 1'b{z};\n\
                 wire [11:0] b{r}_{k} = flags{r} + base{r} + {{6'd0, nk{r}}} * 12'd{k} + {{10'd0, es{r}_{k}[1:0]}} * {{8'd0, e}};\n\
                 wire [11:0] k{r}c{k} = ok{r}_{k} ? b{r}_{k} : 12'd{INF};\n",
                z = u8::from(k == 0),
                kle = if k == 0 {
                    "1'b1".to_string()
                } else {
                    format!("(4'd{k} <= e)")
                }
            );
            costs.push(format!("k{r}c{k}"));
        }
        let (code, c, i) = argmin_tree(&format!("kt{r}_"), &costs, 12, 4);
        s += &code;
        s += &format!("wire [11:0] bb{r} = {c};\nwire [3:0] kb{r} = {i};\n");
    }
    // Positions.
    s += "wire [7:0] gmap;\n";
    for j in 0..GROUPS {
        s += &format!(
            "assign gmap[{j}] = |nz[{}:{}];\n",
            j * GROUP_ELEMS + GROUP_ELEMS - 1,
            j * GROUP_ELEMS
        );
    }
    s += &format!(
        "wire [5:0] g = pc32({{24'd0, gmap}});\n\
         wire pv0 = (n == len);\nwire [11:0] pl0 = 12'd0;\n\
         wire pv1 = (n <= 6'd{LIST_MAX});\nwire [11:0] pl1 = 12'd{LIST_COUNT_BITS} + 12'd{LIST_INDEX_BITS} * {{6'd0, n}};\n\
         wire pv2 = 1'b1;\nwire [11:0] pl2 = 12'd{GROUPS} + 12'd{GROUP_ELEMS} * {{6'd0, g}};\n\
         wire pv3 = 1'b1;\nwire [11:0] pl3 = 12'd32;\n\
         wire anyrep = |rep;\n"
    );
    let mut costs = vec![];
    for r in 0..2 {
        for ki in 0..KINDS.len() {
            let ml = coded_mode(ki, r == 1).1;
            let okr = if r == 1 { " & anyrep" } else { "" };
            s += &format!(
                "wire [11:0] pc{r}_{ki} = (pv{ki}{okr}) ? (12'd{ml} + pl{ki} + bb{r}) : 12'd{INF};\n"
            );
            costs.push(format!("pc{r}_{ki}"));
        }
    }
    let (code, c, i) = argmin_tree("pt_", &costs, 12, 3);
    s += &code;
    s += &format!(
        "wire [11:0] total = {c};\nwire [2:0] choice = {i};\nwire repeat_ = choice[2];\n\
         wire [31:0] kept = repeat_ ? kept1 : kept0;\nwire [3:0] k = repeat_ ? kb1 : kb0;\n\
         reg [31:0] gesel;\nalways @(*) begin\n    case (k)\n"
    );
    for k in 1..=KMAX {
        s += &format!("        4'd{k}: gesel = ge{k};\n");
    }
    s += &format!(
        "        default: gesel = 32'd0;\n    endcase\nend\n\
         wire [31:0] escm = ((k != 4'd0) & (k < e)) ? (kept & gesel) : 32'd0;\n\
         wire [1:0] nesc = pc2(escm);\n\
         wire [11:0] cost = total + (fl ? ({{9'd0, kb}} + 12'd{}) : 12'd0);\n",
        NESC_BITS + 1
    );
    let vals = [
        ("nz", "nz"),
        ("rep", "rep"),
        ("repeat", "repeat_"),
        ("kind", "choice[1:0]"),
        ("cost", "cost"),
        ("zero", "(n == 6'd0)"),
        ("n", "n"),
        ("max_exp", "max_exp"),
        ("sgn", "sgn"),
        ("k", "k"),
        ("nesc", "nesc"),
        ("len", "len"),
        ("kept", "kept"),
        ("escm", "escm"),
    ];
    assert!(vals.iter().zip(FIELDS).all(|(v, f)| v.0 == f.0));
    let parts: Vec<&str> = vals.iter().rev().map(|v| v.1).collect();
    s += &format!("always @(*) info = {{{}}};\n", parts.join(", "));
    s
}
