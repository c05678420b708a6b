//! [`EnReg`]: a wide register with load enable and synchronous clear, the wide data moving
//! only on the clock edge (see docs/PERFORMANCE.md, "Verilator bridge").

use rust_hdl::core::prelude::*;

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
