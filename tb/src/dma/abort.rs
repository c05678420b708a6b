//! A chain with CTRL.abort written in the middle, judged descriptor by descriptor.

use super::bench::DmaBench;
use super::report::RunReport;
use crate::dma_check::{is_aborted, status_code, writeback_range, Mismatch};
use crate::dma_scenario::{desc_op, meta_bytes, Expected, Scenario};
use crate::error::TbError;
use cdma_model::dma::{codes, status_word, ChainEnd, Op};
use cdma_spec::csr;

impl DmaBench {
    /// Runs `scn` and writes CTRL.abort `after` cycles past the doorbell. The engine must be
    /// idle within `bound` cycles of the abort write's response. Judged per descriptor: the
    /// descriptors done before the abort landed must match the model (the chain cut after
    /// them, [`Scenario::expect_prefix`]); the one running then must say ABORTED with its
    /// destination (and COMPRESS metadata) unspecified; nothing else may change, guards
    /// included. `scn`'s status words must start as zero ([`crate::dma_faults::abort_chain`]).
    pub fn run_abort(
        &mut self,
        scn: &Scenario,
        after: u64,
        bound: u64,
    ) -> Result<RunReport, TbError> {
        let marks = self.marks();
        self.load(scn);
        let (before, t0) = self.start(scn)?;
        let mut wd = self.watchdog();
        self.run_for(&mut wd, after)?;
        let enable = csr::CTRL_ENABLE.set(0, 1);
        self.csr_write(csr::CTRL.addr, csr::CTRL_ABORT.set(enable, 1) as u32)?;
        let t_abort = self.axi.mem.cycle();
        // Poll back to back: the idle time is measured to within one CSR read.
        self.wait_idle(&mut wd, 0)?;
        let idle_after = self.axi.mem.cycle() - t_abort;
        let cycles = self.axi.mem.cycle() - t0;
        let after_csr = self.snapshot()?;
        // Which descriptors finished: status words started zero, so `done` is the engine's.
        let words = self.status_words(scn);
        let k = done_prefix(&words);
        let mut notes = vec![format!(
            "abort written at cycle {} after the doorbell; idle {idle_after} cycles later; {k} of {} descriptors done",
            t_abort - t0,
            scn.descs.len()
        )];
        let mut extra = Vec::new();
        if idle_after > bound {
            extra.push(Mismatch::Other(format!(
                "engine idle {idle_after} cycles after the abort, bound {bound}"
            )));
        }
        let exp = if k > 0 && is_aborted(words[k - 1]) {
            let mut exp = cut_at(scn, k - 1);
            let p = &scn.descs[k - 1];
            let mut wb = status_word(codes::ABORTED).to_le_bytes().to_vec();
            wb.extend_from_slice(&0u32.to_le_bytes());
            exp.mem.load(writeback_range(p.addr).start, &wb);
            let o = &mut exp.outcome;
            o.desc_done += 1;
            o.status = csr::STATUS_ERR_CODE.set(csr::STATUS_ERROR.set(0, 1), 10) as u32;
            o.err_desc = Some(p.addr);
            o.irq_status = (csr::IRQ_DONE.mask() | csr::IRQ_ERROR.mask()) as u32;
            o.end = ChainEnd::StoppedOnError;
            notes.push(format!("d{} ABORTED", k - 1));
            exp
        } else if k == scn.descs.len() {
            notes.push("the abort landed after the chain ended".into());
            scn.expect()
        } else {
            // Ended between descriptors without an ABORTED status (the abort met a fetch):
            // memory as the prefix; the CSRs may name the unfetched descriptor.
            notes.push(format!(
                "chain ended after d{} without an ABORTED status",
                k.saturating_sub(1)
            ));
            let mut exp = scn.expect_prefix(k);
            let o = &mut exp.outcome;
            let dd = after_csr.desc_done.wrapping_sub(before.desc_done);
            if dd == o.desc_done + 1 {
                o.desc_done = dd;
                o.status = after_csr.status;
                o.err_desc = Some(scn.descs[k].addr);
                o.irq_status = after_csr.irq_status;
            }
            exp
        };
        let mut r = self.finish(scn, &exp, &marks, before, after_csr, cycles)?;
        extra.append(&mut r.mismatches);
        r.mismatches = extra;
        r.notes = notes;
        Ok(r)
    }

    /// The status word of each descriptor of `scn`, as memory holds it.
    pub(super) fn status_words(&self, scn: &Scenario) -> Vec<u32> {
        scn.descs
            .iter()
            .map(|p| {
                let b = self.axi.mem.read_bytes(writeback_range(p.addr).start, 4);
                u32::from_le_bytes(b.try_into().expect("4 bytes"))
            })
            .collect()
    }
}

/// Descriptors of a chain cut short that finished: the leading status words that say done
/// (they started zero, so `done` is the engine's).
pub(super) fn done_prefix(words: &[u32]) -> usize {
    words
        .iter()
        .take_while(|w| status_code(**w).is_some())
        .count()
}

/// What memory holds when `scn`'s chain was cut while descriptor `k` ran: the model's chain
/// through descriptor `k - 1`, descriptor `k`'s destination (and COMPRESS metadata)
/// unspecified, as after a streaming error; nothing else changed.
pub(super) fn cut_at(scn: &Scenario, k: usize) -> Expected {
    let mut exp = scn.expect_prefix(k);
    if let Some(p) = scn.descs.get(k) {
        let dd = p.desc;
        exp.unspecified
            .push(dd.dst_addr..dd.dst_addr + u64::from(dd.dst_cap));
        if desc_op(&dd) == Some(Op::Compress) {
            let c = cdma_spec::desc::CTRL_CHUNK_LOG2.get(u64::from(dd.control)) as u8;
            let c = if c == 0 { 12 } else { c };
            exp.unspecified
                .push(dd.meta_addr..dd.meta_addr + meta_bytes(dd.src_len, c));
        }
    }
    exp
}
