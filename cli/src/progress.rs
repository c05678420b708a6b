//! [`Progress`]: how every long command shows how far it is. On a terminal, an indicatif bar;
//! without one (a CI log, a pipe), a plain line per tenth of the work — never carriage-return
//! updates, which a log keeps as one endless line.

use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

/// When a log line is due: at each tenth of `total` crossed (the first position at or past it),
/// not at the end (the command's own summary follows).
#[derive(Debug)]
pub struct Tenths {
    total: u64,
    step: u64,
    next: AtomicU64,
}

impl Tenths {
    /// Tenths of `total` units of work.
    pub fn new(total: u64) -> Tenths {
        let step = (total / 10).max(1);
        Tenths {
            total,
            step,
            next: AtomicU64::new(step),
        }
    }

    /// Whether reaching position `pos` (positions only grow) crosses the next tenth.
    pub fn due(&self, pos: u64) -> bool {
        let next = self.next.load(Ordering::Relaxed);
        if pos < next || pos >= self.total {
            return false;
        }
        self.next
            .store((pos / self.step + 1) * self.step, Ordering::Relaxed);
        true
    }
}

/// A long run's progress (see the module doc): `label` starts each log line, `unit` names
/// what is counted ("runs", "cases", "frames", "tensors").
pub struct Progress {
    bar: ProgressBar,
    tenths: Tenths,
    label: String,
    unit: &'static str,
}

impl Progress {
    /// Progress over `total` units; the bar (terminal only) shows the position, elapsed time,
    /// an estimate and the latest message.
    pub fn new(label: &str, unit: &'static str, total: u64) -> Progress {
        let bar = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed_precise}} eta {{eta}}  {{msg}}"
        )) {
            bar.set_style(style);
        }
        Progress {
            bar,
            tenths: Tenths::new(total),
            label: label.to_string(),
            unit,
        }
    }

    /// The bar's message (the item being worked on; the bar only).
    pub fn message(&self, msg: &str) {
        self.bar.set_message(msg.to_string());
    }

    /// One more unit done.
    pub fn inc(&self) {
        self.inc_noting(String::new);
    }

    /// One more unit done; a log line, if due, ends with `note()` (", 2 mismatches so far").
    pub fn inc_noting(&self, note: impl FnOnce() -> String) {
        self.bar.inc(1);
        self.reached(self.bar.position(), note);
    }

    /// The position is `pos` now.
    pub fn set(&self, pos: u64) {
        self.bar.set_position(pos);
        self.reached(pos, String::new);
    }

    /// Prints `line` to stderr without breaking the bar (printed also without a terminal).
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn reached(&self, pos: u64, note: impl FnOnce() -> String) {
        if self.bar.is_hidden() && self.tenths.due(pos) {
            eprintln!(
                "{}: {pos}/{} {}{}",
                self.label,
                self.tenths.total,
                self.unit,
                note()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Tenths;

    fn lines(total: u64, positions: impl Iterator<Item = u64>) -> Vec<u64> {
        let t = Tenths::new(total);
        positions.filter(|&p| t.due(p)).collect()
    }

    #[test]
    fn a_line_per_tenth_never_at_the_end() {
        assert_eq!(
            lines(100, 1..=100),
            [10, 20, 30, 40, 50, 60, 70, 80, 90],
            "one step at a time"
        );
        // Tenths are whole steps of total / 10: 300 of 3002, the last at 3000.
        assert_eq!(lines(3002, 1..=3002).len(), 10);
        assert_eq!(
            lines(1000, (0..=1000).step_by(7)),
            [105, 203, 301, 406, 504, 602, 700, 805, 903],
            "the first position past each tenth"
        );
    }

    #[test]
    fn jumps_give_one_line_each() {
        // A fuzz campaign reports in batches: a jump over several tenths is one line.
        assert_eq!(
            lines(1000, [5, 350, 360, 999, 1000].into_iter()),
            [350, 999]
        );
        assert_eq!(lines(3, 1..=3), [1, 2], "fewer units than tenths");
        assert!(lines(0, 0..1).is_empty());
    }
}
