//! A chain with `rst` asserted in the middle, judged descriptor by descriptor.
//!
//! The engine and its AXI slave are reset together (the bench's memory forgets what was in
//! flight), as docs/DESCRIPTORS.md "Reset" asks of an integrator who resets the engine with
//! bursts in flight: AXI has no way to cancel a burst, so a master reset alone would leave
//! the slave waiting for W beats or holding R beats nobody takes.

use super::abort::{cut_at, done_prefix};
use super::bench::DmaBench;
use super::report::{stats_delta, RunReport};
use crate::dma_check::Mismatch;
use crate::dma_scenario::Scenario;
use crate::error::TbError;
use cdma_spec::csr;

impl DmaBench {
    /// Runs `scn` and resets the engine and the memory's bus state `after` cycles past the
    /// doorbell. Then the engine must be idle at once with every CSR at its reset value (but
    /// HWCFG) and `irq` low; the descriptors whose status words say
    /// done must match the model (the chain cut after them); the one running may have
    /// written its destination (and COMPRESS metadata) but not its status; nothing else may
    /// change, guards included; no AXI rule broken and nothing in flight. `scn`'s status words
    /// must start as zero ([`crate::dma_faults::abort_chain`]).
    pub fn run_reset(&mut self, scn: &Scenario, after: u64) -> Result<RunReport, TbError> {
        let marks = self.marks();
        self.load(scn);
        let (before, t0) = self.start(scn)?;
        let mut wd = self.watchdog();
        self.run_for(&mut wd, after)?;
        let cycles = self.axi.mem.cycle() - t0;
        self.reset();
        let after_csr = self.snapshot()?;
        let k = done_prefix(&self.status_words(scn));
        let exp = cut_at(scn, k);
        let mut mismatches = self.bus_and_memory(scn, &exp, &marks);
        // Every register that reads its reset value (not HWCFG: configuration, not DOORBELL:
        // write-only); a PERF LO read latches its HI half, read next.
        for c in csr::ALL
            .iter()
            .filter(|c| c.access != csr::Access::Wo && c.addr != csr::HWCFG.addr)
        {
            let got = self.csr_read(c.addr)?;
            if got != c.reset {
                mismatches.push(Mismatch::Other(format!(
                    "CSR {} after the reset: {got:#x}, its reset value {:#x}",
                    c.name, c.reset
                )));
            }
        }
        if let Some(p) = self.irq {
            if self.dut.get_u64(p).expect("irq is an output") != 0 {
                mismatches.push(Mismatch::Other("irq is high after the reset".into()));
            }
        }
        Ok(RunReport {
            name: scn.name.clone(),
            cycles,
            mismatches,
            before,
            after: after_csr,
            stats: stats_delta(self.axi.mem.stats(), &marks.stats),
            notes: vec![format!(
                "reset at cycle {cycles} after the doorbell; {k} of {} descriptors done",
                scn.descs.len()
            )],
            ..Default::default()
        })
    }
}
