//! [`Compact`]: the compressor network's element mover, per lane on constant part-selects
//! (see docs/PERFORMANCE.md, "Verilator bridge").

use rust_hdl::core::prelude::*;

use super::lane_mask::{lanes, replicate};

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
