//! Regression cases over the bench: a chain, or a chain with an abort or a reset and one after
//! it.

use super::bench::DmaBench;
use super::config::BenchConfig;
use super::report::RunReport;
use crate::dma_scenario::Scenario;
use crate::error::TbError;

/// How a chain is interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interruption {
    /// CTRL.abort written ([`DmaBench::run_abort`]).
    Abort,
    /// `rst` held, the memory's bus state reset with it ([`DmaBench::run_reset`]).
    Reset,
}

impl Interruption {
    /// `abort` or `reset` (case names and groups: `dma-abort`, `dma-reset`).
    pub fn name(self) -> &'static str {
        match self {
            Interruption::Abort => "abort",
            Interruption::Reset => "reset",
        }
    }
}

/// An abort or a reset to aim at a case's chain, and the chain to run after it.
#[derive(Clone, Debug)]
pub struct AbortPlan {
    /// Abort or reset.
    pub how: Interruption,
    /// Cycles after the doorbell the abort is written or `rst` rises.
    pub after: u64,
    /// Cycles the engine may take to become idle after the abort write's response (a reset
    /// leaves it idle at once).
    pub bound: u64,
    /// A chain (in another address window) that must then run correctly.
    pub then: Scenario,
}

/// One DMA regression row: a chain, or a chain with an abort.
#[derive(Clone, Debug)]
pub struct DmaCase {
    /// Case name.
    pub name: String,
    /// Summary group (`dma-corpus`, `dma-fault`, `dma-abort`, `dma-reset`, `dma-throughput`).
    pub group: String,
    /// The chain.
    pub scenario: Scenario,
    /// Abort or reset plan, if any.
    pub abort: Option<AbortPlan>,
}

/// The outcome of one case (the shape of [`crate::regress::CaseResult`] rows).
#[derive(Clone, Debug, Default)]
pub struct DmaResult {
    /// Case name.
    pub name: String,
    /// Summary group.
    pub group: String,
    /// Chains run (2 for an abort case).
    pub runs: usize,
    /// Mismatches found over all runs.
    pub mismatches: usize,
    /// First mismatches, or the error that ended the case (None: clean).
    pub failure: Option<String>,
    /// Cycles over all runs.
    pub cycles: u64,
    /// Bytes moved on m_axi (read + written).
    pub bytes: u64,
    /// Uncompressed bytes of the COMPRESS descriptors.
    pub raw_bytes: u64,
    /// Their payload bytes.
    pub payload_bytes: u64,
    /// Read-bus utilisation of the last run that read data ([`RunReport::read_utilisation`]).
    pub read_utilisation: Option<f64>,
    /// Write-bus utilisation of the last run that wrote data.
    pub write_utilisation: Option<f64>,
}

impl DmaResult {
    /// Uncompressed / payload bytes of the case's COMPRESS descriptors.
    pub fn ratio(&self) -> f64 {
        self.raw_bytes as f64 / self.payload_bytes.max(1) as f64
    }

    fn add(&mut self, r: &RunReport) {
        self.runs += 1;
        self.mismatches += r.mismatches.len();
        self.cycles += r.cycles;
        self.bytes += r.stats.bytes_read + r.stats.bytes_written;
        self.raw_bytes += r.raw_bytes;
        self.payload_bytes += r.payload_bytes;
        self.read_utilisation = r.read_utilisation.or(self.read_utilisation);
        self.write_utilisation = r.write_utilisation.or(self.write_utilisation);
        if !r.mismatches.is_empty() && self.failure.is_none() {
            self.failure = Some(format!("{}:\n{}", r.name, r.describe(10)));
        }
    }
}

/// Runs `case` on `bench` (reset in between is the caller's choice).
pub fn run_case_on(bench: &mut DmaBench, case: &DmaCase) -> DmaResult {
    let mut res = DmaResult {
        name: case.name.clone(),
        group: case.group.clone(),
        ..Default::default()
    };
    let outcome = (|| -> Result<(), TbError> {
        match &case.abort {
            None => {
                let r = bench.run(&case.scenario, &case.scenario.expect())?;
                res.add(&r);
            }
            Some(plan) => {
                let r = match plan.how {
                    Interruption::Abort => {
                        bench.run_abort(&case.scenario, plan.after, plan.bound)?
                    }
                    Interruption::Reset => bench.run_reset(&case.scenario, plan.after)?,
                };
                res.add(&r);
                let r = bench.run(&plan.then, &plan.then.expect())?;
                res.add(&r);
            }
        }
        Ok(())
    })();
    if let Err(e) = outcome {
        res.mismatches += 1;
        res.failure = Some(format!("{}: {e}", case.name));
        // The engine may still be running the chain: the next case on this bench starts
        // from a reset one.
        bench.reset();
    }
    res
}

/// Runs `case` on a fresh model of `top`.
pub fn run_case(top: &str, case: &DmaCase, cfg: BenchConfig) -> DmaResult {
    match DmaBench::open(top, cfg) {
        Ok(mut b) => run_case_on(&mut b, case),
        Err(e) => DmaResult {
            name: case.name.clone(),
            group: case.group.clone(),
            mismatches: 1,
            failure: Some(e),
            ..Default::default()
        },
    }
}
