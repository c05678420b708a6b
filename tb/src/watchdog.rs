//! Cycle limits for testbench loops: every loop that waits on the DUT counts its cycles here,
//! so a hang becomes a [`TbError::Hang`] that says what was still outstanding instead of a test
//! that never ends.

use crate::error::TbError;

/// Counts the cycles of one run against two budgets: a total limit, and a limit on cycles
/// without progress (the caller reports progress, e.g. any AXI handshake).
///
/// ```
/// # use cdma_tb::watchdog::Watchdog;
/// let mut wd = Watchdog::new(10);
/// for _ in 0..10 {
///     wd.tick(|| "nothing".into()).unwrap();
/// }
/// let err = wd.tick(|| "2 reads outstanding".into()).unwrap_err();
/// assert!(err.to_string().contains("10 cycles") && err.to_string().contains("2 reads"));
/// ```
#[derive(Clone, Debug)]
pub struct Watchdog {
    limit: u64,
    idle_limit: u64,
    cycles: u64,
    last_progress: u64,
}

impl Watchdog {
    /// At most `limit` cycles in total (no separate progress limit).
    pub fn new(limit: u64) -> Self {
        Watchdog {
            limit,
            idle_limit: limit,
            cycles: 0,
            last_progress: 0,
        }
    }

    /// Also fail after `idle` cycles without [`Watchdog::progress`]: catches a deadlock early in
    /// a long run whose total budget is large.
    pub fn with_idle_limit(mut self, idle: u64) -> Self {
        self.idle_limit = idle;
        self
    }

    /// Cycles counted so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Something moved in the current cycle: restart the progress budget.
    pub fn progress(&mut self) {
        self.last_progress = self.cycles;
    }

    /// Counts one cycle: call once per cycle before doing its work. Fails once a budget is
    /// spent; `waiting_for` (called only then) says what the run was waiting for, e.g.
    /// [`AxiMemory::pending`](crate::axi::AxiMemory::pending).
    pub fn tick(&mut self, waiting_for: impl FnOnce() -> String) -> Result<(), TbError> {
        if self.cycles >= self.limit {
            return Err(TbError::Hang {
                cycles: self.cycles,
                waiting_for: waiting_for(),
            });
        }
        let idle = self.cycles - self.last_progress;
        if idle >= self.idle_limit {
            return Err(TbError::Hang {
                cycles: self.cycles,
                waiting_for: format!(
                    "{}; no progress for {idle} cycles, since cycle {}",
                    waiting_for(),
                    self.last_progress
                ),
            });
        }
        self.cycles += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_limit_counts_exactly_and_says_what_was_pending() {
        let mut wd = Watchdog::new(5);
        for _ in 0..5 {
            wd.tick(|| unreachable!("not called within budget"))
                .unwrap();
        }
        assert_eq!(wd.cycles(), 5);
        let e = wd.tick(|| "1 read outstanding".into()).unwrap_err();
        assert_eq!(
            e,
            TbError::Hang {
                cycles: 5,
                waiting_for: "1 read outstanding".into()
            }
        );
    }

    #[test]
    fn idle_limit_restarts_on_progress() {
        let mut wd = Watchdog::new(1000).with_idle_limit(3);
        for i in 0..20 {
            wd.tick(String::new).unwrap();
            if i % 2 == 0 {
                wd.progress();
            }
        }
        // No more progress: three more cycles, then the fourth fails.
        for _ in 0..2 {
            wd.tick(String::new).unwrap();
        }
        let e = wd.tick(|| "B".into()).unwrap_err().to_string();
        assert!(e.contains("no progress for 3 cycles"), "{e}");
        assert!(e.starts_with("hang:"), "{e}");
    }
}
