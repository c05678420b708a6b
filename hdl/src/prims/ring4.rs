//! [`Ring4`]: four registers written one at a time and read as a pair of neighbours, the
//! storage of a 4-entry circular queue whose head and the entry after it are both read.

use rust_hdl::core::prelude::*;

use super::EnReg;

/// Four `W`-bit entries. On the rising edge, entry `wa` takes `wd` if `we`. `q0` is entry
/// `ra`, `q1` entry `ra + 1` (mod 4), both straight from the registers.
#[derive(LogicBlock)]
pub struct Ring4<const W: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Write entry `wa` on the next rising edge.
    pub we: Signal<In, Bit>,
    /// Entry written.
    pub wa: Signal<In, Bits<2>>,
    /// Value written.
    pub wd: Signal<In, Bits<W>>,
    /// Entry read on `q0`.
    pub ra: Signal<In, Bits<2>>,
    /// Entry `ra`.
    pub q0: Signal<Out, Bits<W>>,
    /// Entry `ra + 1` (mod 4).
    pub q1: Signal<Out, Bits<W>>,
    m0: EnReg<W>,
    m1: EnReg<W>,
    m2: EnReg<W>,
    m3: EnReg<W>,
    i0: Constant<Bits<2>>,
    i1: Constant<Bits<2>>,
    i2: Constant<Bits<2>>,
    i3: Constant<Bits<2>>,
}

impl<const W: usize> Default for Ring4<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            we: Default::default(),
            wa: Default::default(),
            wd: Default::default(),
            ra: Default::default(),
            q0: Default::default(),
            q1: Default::default(),
            m0: Default::default(),
            m1: Default::default(),
            m2: Default::default(),
            m3: Default::default(),
            i0: Constant::new(0.into()),
            i1: Constant::new(1.into()),
            i2: Constant::new(2.into()),
            i3: Constant::new(3.into()),
        }
    }
}

impl<const W: usize> Logic for Ring4<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.m0.clock.next = self.clock.val();
        self.m1.clock.next = self.clock.val();
        self.m2.clock.next = self.clock.val();
        self.m3.clock.next = self.clock.val();
        self.m0.d.next = self.wd.val();
        self.m1.d.next = self.wd.val();
        self.m2.d.next = self.wd.val();
        self.m3.d.next = self.wd.val();
        self.m0.clr.next = false;
        self.m1.clr.next = false;
        self.m2.clr.next = false;
        self.m3.clr.next = false;
        self.m0.en.next = self.we.val() & (self.wa.val() == self.i0.val());
        self.m1.en.next = self.we.val() & (self.wa.val() == self.i1.val());
        self.m2.en.next = self.we.val() & (self.wa.val() == self.i2.val());
        self.m3.en.next = self.we.val() & (self.wa.val() == self.i3.val());
        // A multiplexer tree by `ra`'s two bits, not compares of `ra` with each index: the
        // compares become one decode shared by every bit of a wide ring, a net between the
        // address register and the multiplexers that reaches all of them (issue 17: `rp` →
        // that decode → the window's read was the longest path of the 16-bit ZVC
        // decompressor).
        self.q0.next = self.m0.q.val();
        self.q1.next = self.m1.q.val();
        if self.ra.val().get_bit(0) {
            self.q0.next = self.m1.q.val();
            self.q1.next = self.m2.q.val();
        }
        if self.ra.val().get_bit(1) {
            self.q0.next = self.m2.q.val();
            self.q1.next = self.m3.q.val();
            if self.ra.val().get_bit(0) {
                self.q0.next = self.m3.q.val();
                self.q1.next = self.m0.q.val();
            }
        }
    }
}
