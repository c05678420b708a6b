//! [`BeatSlice`]: a register slice (skid buffer) for a valid/ready stream of beats: it cuts
//! every combinational path between the two sides without losing a cycle per beat.

use rust_hdl::core::prelude::*;

use super::RegQueue;

/// A two-entry register slice for beats of `W` data bits and `T` tag bits (a sideband:
/// strobes, flags): a [`RegQueue`] of two entries with its handshakes.
///
/// `out_*` come from registers and `in_ready` from a register (the entry count), so neither
/// side's handshake reaches the other in the same cycle: a stream of one beat per cycle
/// passes at one beat per cycle (with `out_ready` high the slice holds one entry, taking a
/// beat and giving one every cycle), one cycle later. The second entry is the skid: the beat
/// taken in the cycle `out_ready` went low. `rst` empties it.
#[derive(LogicBlock)]
pub struct BeatSlice<const W: usize, const T: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty.
    pub rst: Signal<In, Bit>,
    /// Beat data in.
    pub in_data: Signal<In, Bits<W>>,
    /// Beat tag in.
    pub in_tag: Signal<In, Bits<T>>,
    /// Beat in valid.
    pub in_valid: Signal<In, Bit>,
    /// Beat in taken (from a register: the slice is not full).
    pub in_ready: Signal<Out, Bit>,
    /// Beat data out (the oldest entry; stale while `out_valid` is low).
    pub out_data: Signal<Out, Bits<W>>,
    /// Beat tag out.
    pub out_tag: Signal<Out, Bits<T>>,
    /// Beat out valid (from a register: the slice is not empty).
    pub out_valid: Signal<Out, Bit>,
    /// Beat out taken.
    pub out_ready: Signal<In, Bit>,
    regs: RegQueue<W, T, 2>,
    full: Constant<Bits<4>>,
}

impl<const W: usize, const T: usize> Default for BeatSlice<W, T> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            in_data: Default::default(),
            in_tag: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_tag: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            regs: Default::default(),
            full: Constant::new(2u64.into()),
        }
    }
}

impl<const W: usize, const T: usize> Logic for BeatSlice<W, T> {
    #[hdl_gen]
    fn update(&mut self) {
        self.regs.clock.next = self.clock.val();
        self.regs.rst.next = self.rst.val();
        self.regs.d.next = self.in_data.val();
        self.regs.t.next = self.in_tag.val();
        self.regs.push.next = self.in_valid.val() & (self.regs.count.val() != self.full.val());
        self.regs.pop.next = self.out_ready.val() & self.regs.count.val().any();
        self.in_ready.next = self.regs.count.val() != self.full.val();
        self.out_valid.next = self.regs.count.val().any();
        self.out_data.next = self.regs.q.val();
        self.out_tag.next = self.regs.qt.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prims::verilog_check::{check, record, recording};
    use crate::testutil::{clock_cycle, settle, XorShift64};
    use std::collections::VecDeque;

    /// Random offers and takes (`idle_pct`, `stall_pct` of the cycles) against a queue model:
    /// every beat comes out once, in order, and the handshakes follow the registers.
    /// Returns (beats out, cycles).
    fn run(uut: &mut BeatSlice<16, 2>, seed: u64, idle_pct: u64, stall_pct: u64) -> (u64, u64) {
        let mut rng = XorShift64::new(seed);
        let mut model = VecDeque::new();
        uut.rst.next = true;
        clock_cycle!(uut);
        uut.rst.next = false;
        let (mut sent, mut got) = (0u64, 0u64);
        let cycles = 400;
        for _ in 0..cycles {
            uut.in_valid.next = !rng.chance(idle_pct);
            uut.in_data.next = sent.into();
            uut.in_tag.next = (sent % 4).into();
            uut.out_ready.next = !rng.chance(stall_pct);
            settle(uut);
            record(uut);
            assert_eq!(uut.in_ready.val(), model.len() < 2, "in_ready");
            assert_eq!(uut.out_valid.val(), !model.is_empty(), "out_valid");
            let pop = uut.out_valid.val() && uut.out_ready.val();
            if pop {
                let h: u64 = model.pop_front().unwrap();
                assert_eq!(uut.out_data.val().to_u64(), h, "data");
                assert_eq!(uut.out_tag.val().to_u64(), h % 4, "tag");
                got += 1;
            }
            if uut.in_valid.val() && uut.in_ready.val() {
                model.push_back(sent);
                sent += 1;
            }
            clock_cycle!(uut);
        }
        (got, cycles)
    }

    #[test]
    fn passes_every_beat_in_order() {
        for (seed, idle, stall) in [(1, 30, 30), (2, 0, 50), (3, 50, 0), (4, 10, 80)] {
            let mut uut = BeatSlice::<16, 2>::default();
            uut.connect_all();
            let (got, _) = run(&mut uut, seed, idle, stall);
            assert!(got > 50, "seed {seed}: only {got} beats");
        }
    }

    #[test]
    fn one_beat_per_cycle_when_neither_side_waits() {
        let mut uut = BeatSlice::<16, 2>::default();
        uut.connect_all();
        let (got, cycles) = run(&mut uut, 5, 0, 0);
        // The first beat comes out one cycle after it went in.
        assert_eq!(got, cycles - 1);
    }

    #[test]
    fn verilog_matches_rust_simulation() {
        let trace = recording(|| {
            let mut uut = BeatSlice::<16, 2>::default();
            uut.connect_all();
            run(&mut uut, 7, 30, 40);
        });
        let block =
            crate::emit::standalone_block(BeatSlice::<16, 2>::default(), "cdma_beat_slice", &[]);
        check(&block, &trace);
    }
}
