//! [`RegQueue`]: a small first-in first-out queue in flip-flops (no RAM), its head always on
//! the output.

use rust_hdl::core::prelude::*;

/// A queue of up to `D` (1..=15) entries in registers, each `W` bits of data and `T` bits of
/// tag (a sideband: counts, flags), shifting towards the head: entry 0 is the oldest and
/// drives `q` / `qt`. On the rising edge `pop` drops the head and `push`
/// appends `d` (both in one cycle keep the count). The user keeps `push` off when full
/// (unless popping) and `pop` off when empty; `rst` empties it (the entries keep stale data,
/// which nothing reads).
#[derive(LogicBlock, Default)]
pub struct RegQueue<const W: usize, const T: usize, const D: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty.
    pub rst: Signal<In, Bit>,
    /// Append `d` on the rising edge.
    pub push: Signal<In, Bit>,
    /// Drop the head on the rising edge.
    pub pop: Signal<In, Bit>,
    /// Data of the entry to append.
    pub d: Signal<In, Bits<W>>,
    /// Tag of the entry to append.
    pub t: Signal<In, Bits<T>>,
    /// Data of the head (oldest entry; stale when empty).
    pub q: Signal<Out, Bits<W>>,
    /// Tag of the head.
    pub qt: Signal<Out, Bits<T>>,
    /// Entries held.
    pub count: Signal<Out, Bits<4>>,
    _mem: Vec<(Bits<W>, Bits<T>)>,
}

impl<const W: usize, const T: usize, const D: usize> Logic for RegQueue<W, T, D> {
    fn update(&mut self) {
        if self._mem.len() != D {
            self._mem = vec![(Bits::<W>::default(), Bits::<T>::default()); D];
        }
        if self.clock.pos_edge() {
            let n = self.count.val().to_u64() as usize;
            let (push, pop) = (self.push.val(), self.pop.val());
            if pop {
                // Each entry takes the one behind it; the last keeps its own (stale) value,
                // as the Verilog does.
                for i in 1..D {
                    self._mem[i - 1] = self._mem[i];
                }
            }
            let at = n.saturating_sub(usize::from(pop));
            if push && at < D {
                self._mem[at] = (self.d.val(), self.t.val());
            }
            let next = if self.rst.val() {
                0
            } else {
                at + usize::from(push)
            };
            self.count.next = (next as u64).into();
        }
        (self.q.next, self.qt.next) = self._mem[0];
    }
    fn connect(&mut self) {
        assert!((1..16).contains(&D), "RegQueue: 1 <= D <= 15");
        self.q.connect();
        self.qt.connect();
        self.count.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        for i in 0..D {
            v.push_str(&format!("reg [{}:0] m{i};\n", W + T - 1));
        }
        v.push_str("initial begin\n   count = 4'd0;\n");
        for i in 0..D {
            v.push_str(&format!("   m{i} = {}'d0;\n", W + T));
        }
        v.push_str("end\n");
        v.push_str("always @(posedge clock) begin\n");
        v.push_str(
            "   if (rst) count <= 4'd0;\n   else count <= count + {3'd0, push} - {3'd0, pop};\n",
        );
        for i in 0..D {
            // Entry i after the edge: the one behind it when popping, else itself; `d` when
            // it is where the appended entry lands.
            let behind = if i + 1 < D {
                format!("m{}", i + 1)
            } else {
                format!("m{i}")
            };
            v.push_str(&format!(
                "   if (push & (count - {{3'd0, pop}} == 4'd{i})) m{i} <= {{t, d}};\n   else if (pop) m{i} <= {behind};\n"
            ));
        }
        v.push_str(&format!(
            "end\nalways @(*) q = m0[{}:0];\nalways @(*) qt = m0[{}:{W}];\n",
            W - 1,
            W + T - 1
        ));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{clock_cycle, settle, XorShift64};
    use std::collections::VecDeque;

    #[test]
    fn behaves_as_a_fifo() {
        let mut uut = RegQueue::<16, 2, 3>::default();
        uut.connect_all();
        let mut rng = XorShift64::new(3);
        let mut model = VecDeque::new();
        uut.rst.next = true;
        clock_cycle!(&mut uut);
        uut.rst.next = false;
        for step in 0..500u64 {
            let pop = !model.is_empty() && rng.chance(50);
            let push = (model.len() < 3 || pop) && rng.chance(60);
            uut.push.next = push;
            uut.pop.next = pop;
            uut.d.next = step.into();
            uut.t.next = (step % 4).into();
            settle(&mut uut);
            if let Some(h) = model.front() {
                assert_eq!(uut.q.val().to_u64(), *h, "head at step {step}");
                assert_eq!(uut.qt.val().to_u64(), *h % 4, "head tag at step {step}");
            }
            clock_cycle!(&mut uut);
            if pop {
                model.pop_front();
            }
            if push {
                model.push_back(step);
            }
            assert_eq!(uut.count.val().to_u64(), model.len() as u64);
        }
    }
}
