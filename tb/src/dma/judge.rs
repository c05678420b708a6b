//! After a chain: the comparison with the model, the bus checks and the bus utilisation.

use super::bench::DmaBench;
use super::report::{compress_totals, stats_delta, Marks, RunReport};
use crate::dma_check::{compare_csrs, compare_memory, BusDelta, CsrSnapshot, Mismatch};
use crate::dma_scenario::{Expected, RegionKind, Scenario};
use crate::error::TbError;
use std::ops::Range;

impl DmaBench {
    pub(super) fn marks(&self) -> Marks {
        Marks {
            reads: self.axi.mem.read_log().len(),
            writes: self.axi.mem.write_log().len(),
            w_beats: self.w_cycles.len(),
            violations: self.axi.mem.violations().len(),
            stats: *self.axi.mem.stats(),
        }
    }

    /// Comparison and bus checks after a chain has ended.
    pub(super) fn finish(
        &mut self,
        scn: &Scenario,
        exp: &Expected,
        marks: &Marks,
        before: CsrSnapshot,
        after: CsrSnapshot,
        cycles: u64,
    ) -> Result<RunReport, TbError> {
        let stats = stats_delta(self.axi.mem.stats(), &marks.stats);
        let mut mismatches = self.bus_and_memory(scn, exp, marks);
        // `irq` must be the OR of the enabled causes.
        if let Some(p) = self.irq {
            let want = after.irq_status & scn.irq_enable != 0;
            let got = self.dut.get_u64(p).expect("irq is an output") != 0;
            if want != got {
                mismatches.push(Mismatch::Other(format!(
                    "irq is {} with IRQ_STATUS {:#x} and IRQ_ENABLE {:#x}",
                    u8::from(got),
                    after.irq_status,
                    scn.irq_enable
                )));
            }
        }
        let bus = BusDelta { cycles, stats };
        mismatches.extend(compare_csrs(scn, &exp.outcome, &before, &after, &bus));
        let (raw_bytes, payload_bytes) = compress_totals(exp);
        Ok(RunReport {
            name: scn.name.clone(),
            cycles,
            mismatches,
            before,
            after,
            stats,
            raw_bytes,
            payload_bytes,
            read_utilisation: self.read_utilisation(scn, marks),
            write_utilisation: self.write_utilisation(scn, marks),
            notes: Vec::new(),
        })
    }

    /// The AXI protocol record since `marks`, an idle bus, and memory against `exp` (every
    /// region, every byte the engine wrote since `marks`, guards included).
    pub(super) fn bus_and_memory(
        &mut self,
        scn: &Scenario,
        exp: &Expected,
        marks: &Marks,
    ) -> Vec<Mismatch> {
        let mut mismatches = Vec::new();
        for v in &self.axi.mem.violations()[marks.violations..] {
            mismatches.push(Mismatch::Bus(v.to_string()));
        }
        if let Err(v) = self.axi.mem.check_idle() {
            mismatches.push(Mismatch::Bus(v.to_string()));
        }
        let bb = u64::from(self.engine.bus_bytes());
        let touched: Vec<Range<u64>> = self.axi.mem.write_log()[marks.writes..]
            .iter()
            .map(|w| w.addr..w.addr + u64::from(w.beats) * bb)
            .collect();
        let mem = &self.axi.mem;
        mismatches.extend(compare_memory(
            scn,
            exp,
            &|a, n| mem.read_bytes(a, n),
            &touched,
        ));
        mismatches
    }

    fn is_desc_burst(scn: &Scenario, addr: u64, bytes: u64) -> bool {
        scn.regions.iter().any(|r| {
            r.kind == RegionKind::Descriptor && r.range.start < addr + bytes && addr < r.range.end
        })
    }

    /// R beats over the cycles from the first AR to the last R of the data reads since
    /// `marks` (descriptor fetches excluded).
    fn read_utilisation(&self, scn: &Scenario, marks: &Marks) -> Option<f64> {
        let bb = u64::from(self.engine.bus_bytes());
        let data: Vec<_> = self.axi.mem.read_log()[marks.reads..]
            .iter()
            .filter(|r| !Self::is_desc_burst(scn, r.addr, u64::from(r.beats) * bb))
            .collect();
        let first = data.iter().map(|r| r.accepted).min()?;
        let last = data.iter().filter_map(|r| r.done).max()?;
        let beats: u64 = data.iter().map(|r| u64::from(r.beats)).sum();
        Some(beats as f64 / (last - first + 1) as f64)
    }

    /// W beats over the cycles from the first AW to the last W of the data writes since
    /// `marks` (status write-backs excluded). W beats belong to bursts in AW order.
    fn write_utilisation(&self, scn: &Scenario, marks: &Marks) -> Option<f64> {
        let bb = u64::from(self.engine.bus_bytes());
        let w = &self.w_cycles[marks.w_beats..];
        let mut at = 0usize;
        let (mut first, mut last, mut beats) = (u64::MAX, 0u64, 0u64);
        for b in &self.axi.mem.write_log()[marks.writes..] {
            let n = b.beats as usize;
            let cycles = &w[at.min(w.len())..(at + n).min(w.len())];
            at += n;
            if Self::is_desc_burst(scn, b.addr, n as u64 * bb) {
                continue;
            }
            first = first.min(b.accepted);
            if let Some(&l) = cycles.last() {
                last = last.max(l);
            }
            beats += n as u64;
        }
        (beats > 0 && last >= first).then(|| beats as f64 / (last - first + 1) as f64)
    }
}
