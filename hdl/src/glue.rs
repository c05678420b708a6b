//! Small blocks that rust-hdl's `#[hdl_gen]` cannot express cleanly or cheaply, each with a
//! hand-written Verilog body (`hdl()`) and a Rust `update` computing the same function for
//! rust-hdl's simulator. The rust-hdl unit tests exercise the Rust side, the Verilator
//! regression (tb/) the Verilog side, both against the golden model.
//!
//! * [`ZeroExtend`]: rust-hdl's `bit_cast` widening is emitted as `(x & N'hff…)`, correct but
//!   a `verilator -Wall` WIDTH warning (an AND of a narrow and a wide operand); `{pad, x}` is
//!   width-clean.
//! * [`LaneMask`]: turning a per-lane flag vector into a bus mask (`E` copies of flag `i` in
//!   lane `i`) in `#[hdl_gen]` takes one conditional OR of the whole bus per lane, which Yosys
//!   elaborates into `lanes × width` multiplexers before optimising them away (minutes and
//!   gigabytes for E = 32); a replication concatenation is free.
//! * [`Join`]: a concatenation `{hi, lo}`.
//! * [`LaneAny`], [`Compact`], [`Expand`], [`EnReg`]: the ZVC mask, the network's element
//!   movers and a wide enable register, written per lane on constant part-selects so that
//!   Verilator evaluates word operations (see docs/PERFORMANCE.md, "Verilator bridge").

use rust_hdl::core::prelude::*;

/// Zero-extends `x` (N bits) to `y` (M bits, M > N): `y = {(M-N)'d0, x}`.
#[derive(LogicBlock, Default)]
pub struct ZeroExtend<const N: usize, const M: usize> {
    /// Narrow input.
    pub x: Signal<In, Bits<N>>,
    /// `x` zero-extended to M bits.
    pub y: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Logic for ZeroExtend<N, M> {
    fn update(&mut self) {
        self.y.next = bit_cast::<M, N>(self.x.val());
    }
    fn connect(&mut self) {
        assert!(M > N, "ZeroExtend must widen ({N} -> {M})");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("always @(*) y = {{{}'d0, x}};", M - N))
    }
}

/// Expands a flag vector into a lane mask: `y[i*E +: E] = {E{v[i]}}` for `i < N`, `W = N·E`.
#[derive(LogicBlock, Default)]
pub struct LaneMask<const N: usize, const E: usize, const W: usize> {
    /// One flag per lane.
    pub v: Signal<In, Bits<N>>,
    /// Lane `i` all ones iff `v[i]`.
    pub y: Signal<Out, Bits<W>>,
}

impl<const N: usize, const E: usize, const W: usize> Logic for LaneMask<N, E, W> {
    fn update(&mut self) {
        let lane: Bits<W> = Bits::<W>::mask() >> ((W - E) as u64);
        let mut y = Bits::<W>::default();
        for i in 0..N {
            if self.v.val().get_bit(i) {
                y = y | (lane << ((i * E) as u64));
            }
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        assert_eq!(N * E, W, "LaneMask: W must be N*E");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let parts = (0..N)
            .rev()
            .map(|i| format!("{{{E}{{v[{i}]}}}}"))
            .collect::<Vec<_>>()
            .join(", ");
        Verilog::Custom(format!("always @(*) y = {{{parts}}};"))
    }
}

/// Concatenates two vectors: `y = {hi, lo}` (`W = A + B`), pure wiring. In `#[hdl_gen]` this
/// takes two zero-extensions, a shift and an OR of the full width.
#[derive(LogicBlock, Default)]
pub struct Join<const A: usize, const B: usize, const W: usize> {
    /// Low part (bits `0..A`).
    pub lo: Signal<In, Bits<A>>,
    /// High part (bits `A..A+B`).
    pub hi: Signal<In, Bits<B>>,
    /// `{hi, lo}`.
    pub y: Signal<Out, Bits<W>>,
}

impl<const A: usize, const B: usize, const W: usize> Logic for Join<A, B, W> {
    fn update(&mut self) {
        self.y.next =
            bit_cast::<W, A>(self.lo.val()) | (bit_cast::<W, B>(self.hi.val()) << (A as u64));
    }
    fn connect(&mut self) {
        assert_eq!(A + B, W, "Join: W must be A+B");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom("always @(*) y = {hi, lo};".into())
    }
}

/// A register with a load enable and a synchronous clear (clear wins): on the rising edge,
/// `q <= 0` if `clr`, else `q <= d` if `en`.
///
/// rust-hdl's `DFF` takes its next value from the parent's combinational block, so a wide
/// register's hold/load/clear choice becomes a wide multiplexer in that block, which reads
/// the top's inputs (handshakes): a simulator re-evaluates it, copying the whole bus, on every
/// input change. Here only the 1-bit controls come from that block; the wide data moves once,
/// on the clock edge. Synthesis gets the same enable flip-flops either way.
#[derive(LogicBlock, Default)]
pub struct EnReg<const N: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Load `d` on the next rising edge.
    pub en: Signal<In, Bit>,
    /// Clear to zero on the next rising edge (overrides `en`).
    pub clr: Signal<In, Bit>,
    /// Next value when `en`.
    pub d: Signal<In, Bits<N>>,
    /// The register.
    pub q: Signal<Out, Bits<N>>,
}

impl<const N: usize> Logic for EnReg<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.clr.val() {
                self.q.next = Bits::<N>::default();
            } else if self.en.val() {
                self.q.next = self.d.val();
            }
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "initial begin\n   q = {{{N}{{1'b0}}}};\nend\n\nalways @(posedge clock) begin\n   if (clr) q <= {{{N}{{1'b0}}}};\n   else if (en) q <= d;\nend\n"
        ))
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "enreg".into(),
            clock: "clock".into(),
            inputs: vec!["d".into(), "en".into(), "clr".into()],
            outputs: vec!["q".into()],
        }]
    }
}

/// Per-lane non-zero flags: `y[i] = |x[i*E +: E]` for the 32 lanes of a block (`W = 32·E`),
/// the block's ZVC mask. One reduction per constant part-select (a `#[hdl_gen]` loop can
/// only build it from shifted masks of the whole bus or width-mismatched bit inserts).
#[derive(LogicBlock, Default)]
pub struct LaneAny<const E: usize, const W: usize> {
    /// The block, element `i` in lane `i`.
    pub x: Signal<In, Bits<W>>,
    /// Bit `i` set iff lane `i` is non-zero.
    pub y: Signal<Out, Bits<32>>,
}

impl<const E: usize, const W: usize> Logic for LaneAny<E, W> {
    fn update(&mut self) {
        let mut y = Bits::<32>::default();
        for i in 0..32 {
            if self.x.val().get_bits::<E>(i * E).any() {
                y = y | (Bits::<32>::from(1u64) << (i as u64));
            }
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        assert_eq!(32 * E, W, "LaneAny: W must be 32*E");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let parts = (0..32)
            .rev()
            .map(|i| format!("|x[{}:{}]", i * E + E - 1, i * E))
            .collect::<Vec<_>>()
            .join(", ");
        Verilog::Custom(format!("always @(*) y = {{{parts}}};"))
    }
}

/// Lane vector of a stage: `E` copies of flag `i` in lane `i` (the Rust model of `{E{v[i]}}`).
fn lanes<const E: usize, const W: usize>(v: Bits<32>) -> Bits<W> {
    let lane: Bits<W> = Bits::<W>::mask() >> ((W - E) as u64);
    let mut y = Bits::<W>::default();
    for i in 0..W / E {
        if v.get_bit(i) {
            y = y | (lane << ((i * E) as u64));
        }
    }
    y
}

/// The element mover of the compaction network ([`crate::steer::ZvcSteer`] computes its
/// controls): 32 lanes of `E` bits (`W = 32·E`), five stages; stage `k` moves the lanes
/// flagged in `mv[k]` down by `2^k` lanes. Then every lane not flagged in `keep` (the lanes
/// that hold an element after the last stage) is zeroed.
///
/// Each stage is one 2:1 multiplexer per lane: lane `p` takes lane `p + 2^k` if that one
/// moves, else keeps its own content. A lane whose element moved away keeps a stale copy;
/// no later stage selects it (the network is conflict-free and the move flags only mark
/// lanes holding an element), and the final `keep` mask clears it. Emitted as one `assign`
/// per lane and stage on constant part-selects, so a simulator (Verilator) evaluates word
/// operations instead of masked 32·E-bit shifts; synthesis sees the same multiplexers.
#[derive(LogicBlock, Default)]
pub struct Compact<const E: usize, const W: usize> {
    /// Input block, element `i` in lane `i`.
    pub d: Signal<In, Bits<W>>,
    /// Per stage `k`: lanes (positions before stage `k`) whose element moves down by `2^k`.
    pub mv: [Signal<In, Bits<32>>; 5],
    /// Lanes that hold an element after the last stage (`0..popcount`).
    pub keep: Signal<In, Bits<32>>,
    /// The block after the five stages, lanes outside `keep` zero.
    pub y: Signal<Out, Bits<W>>,
}

impl<const E: usize, const W: usize> Logic for Compact<E, W> {
    fn update(&mut self) {
        let mut d = self.d.val();
        for k in 0..5 {
            let s = (E << k) as u64;
            // Destination lanes: a moving source lane `p + 2^k` lands on lane `p`.
            let src = lanes::<E, W>(self.mv[k].val());
            d = (d & !(src >> s)) | ((d & src) >> s);
        }
        self.y.next = d & lanes::<E, W>(self.keep.val());
    }
    fn connect(&mut self) {
        assert_eq!(32 * E, W, "Compact: W must be 32*E");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        for k in 0..=5 {
            v.push_str(&format!("wire [{}:0] s{k};\n", W - 1));
        }
        v.push_str("assign s0 = d;\n");
        let sel = |k: usize, q: usize| format!("s{k}[{}:{}]", q * E + E - 1, q * E);
        for k in 0..5 {
            let s = 1 << k;
            for p in 0..32 {
                let rhs = if p + s < 32 {
                    format!("mv${k}[{}] ? {} : {}", p + s, sel(k, p + s), sel(k, p))
                } else {
                    sel(k, p)
                };
                v.push_str(&format!("assign {} = {rhs};\n", sel(k + 1, p)));
            }
        }
        v.push_str(&format!("always @(*) y = s5 & {};\n", replicate(E)));
        Verilog::Custom(v)
    }
}

/// `{{E{keep[31]}}, …, {E{keep[0]}}}`: the lane mask of the 32-bit `keep` flags.
fn replicate(e: usize) -> String {
    let parts = (0..32)
        .rev()
        .map(|i| format!("{{{e}{{keep[{i}]}}}}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{{{parts}}}")
}

/// The element mover of the expansion network: [`Compact`] run backwards. Stage `k` (from 4
/// down to 0) fills the lanes flagged in `mv[k]` from `2^k` lanes below, every other lane
/// keeps its content; then the lanes outside `keep` (the block's mask) are zeroed. Lanes
/// past the block (the next block's data) and stale copies are never selected into a lane
/// that holds an element (same argument as for [`Compact`]). Emitted like [`Compact`].
#[derive(LogicBlock, Default)]
pub struct Expand<const E: usize, const W: usize> {
    /// Compacted elements in lanes `0..pop` (lanes above may hold anything).
    pub d: Signal<In, Bits<W>>,
    /// Per stage `k`: lanes (positions before compaction stage `k`) that moved down `2^k`.
    pub mv: [Signal<In, Bits<32>>; 5],
    /// The block's mask: lanes that hold an element after expansion.
    pub keep: Signal<In, Bits<32>>,
    /// The expanded block: element `i` in lane `i`, lanes outside `keep` zero.
    pub y: Signal<Out, Bits<W>>,
}

impl<const E: usize, const W: usize> Logic for Expand<E, W> {
    fn update(&mut self) {
        let mut d = self.d.val();
        for k in (0..5).rev() {
            let fill = lanes::<E, W>(self.mv[k].val());
            d = (d & !fill) | ((d << ((E << k) as u64)) & fill);
        }
        self.y.next = d & lanes::<E, W>(self.keep.val());
    }
    fn connect(&mut self) {
        assert_eq!(32 * E, W, "Expand: W must be 32*E");
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        // s5 is the input; stage k turns s{k+1} into s{k}.
        let mut v = String::new();
        for k in 0..=5 {
            v.push_str(&format!("wire [{}:0] s{k};\n", W - 1));
        }
        v.push_str("assign s5 = d;\n");
        let sel = |k: usize, q: usize| format!("s{k}[{}:{}]", q * E + E - 1, q * E);
        for k in (0..5).rev() {
            let s = 1 << k;
            for p in 0..32 {
                let rhs = if p >= s {
                    format!("mv${k}[{p}] ? {} : {}", sel(k + 1, p - s), sel(k + 1, p))
                } else {
                    sel(k + 1, p)
                };
                v.push_str(&format!("assign {} = {rhs};\n", sel(k, p)));
            }
        }
        v.push_str(&format!("always @(*) y = s0 & {};\n", replicate(E)));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_mask_replicates_each_flag() {
        let mut uut = LaneMask::<4, 8, 32>::default();
        uut.connect_all();
        uut.v.next = 0b1010u64.into();
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.y.val().to_u64(), 0xFF00_FF00);
        let v = uut.hdl();
        let Verilog::Custom(text) = v else {
            panic!("custom verilog expected")
        };
        assert_eq!(
            text,
            "always @(*) y = {{8{v[3]}}, {8{v[2]}}, {8{v[1]}}, {8{v[0]}}};"
        );
    }

    #[test]
    fn zero_extend_pads_with_zeros() {
        let mut uut = ZeroExtend::<8, 12>::default();
        uut.connect_all();
        uut.x.next = 0xA5u64.into();
        assert!(simulate(&mut uut, 100));
        assert_eq!(uut.y.val().to_u64(), 0xA5);
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom verilog expected")
        };
        assert_eq!(text, "always @(*) y = {4'd0, x};");
    }
}
