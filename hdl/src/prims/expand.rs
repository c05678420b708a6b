//! [`Expand`]: the decompressor network's element mover, per lane on constant part-selects
//! (see docs/PERFORMANCE.md, "Verilator bridge").

use rust_hdl::core::prelude::*;

use super::lane_mask::{lanes, replicate};

/// The element mover of the expansion network: [`Compact`](super::Compact) run backwards. Stage `k` (from 4
/// down to 0) fills the lanes flagged in `mv[k]` from `2^k` lanes below, every other lane
/// keeps its content; then the lanes outside `keep` (the block's mask) are zeroed. Lanes
/// past the block (the next block's data) and stale copies are never selected into a lane
/// that holds an element (same argument as for [`Compact`](super::Compact)). Emitted like [`Compact`](super::Compact).
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
