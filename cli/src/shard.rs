//! `--shard K/N`: a deterministic partition of a run's cases over N machines. Every case the
//! run enumerates (in its fixed order) gets the next index; shard K keeps the indices i with
//! i mod N = K − 1, so the N shards together run exactly the cases of the whole run, each once.

use std::cell::Cell;

/// One shard of a run (the whole run is `1/1`).
#[derive(Debug)]
pub struct Shard {
    k: u64,
    n: u64,
    next: Cell<u64>,
}

impl Default for Shard {
    fn default() -> Self {
        Shard::new(1, 1)
    }
}

impl Shard {
    fn new(k: u64, n: u64) -> Shard {
        Shard {
            k,
            n,
            next: Cell::new(0),
        }
    }

    /// Parses `K/N` (1 ≤ K ≤ N).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s}: expected K/N with 1 <= K <= N, e.g. 2/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard::new(k, n))
    }

    /// Whether this shard runs the next case of the enumeration.
    pub fn take(&self) -> bool {
        let i = self.next.get();
        self.next.set(i + 1);
        i % self.n == self.k - 1
    }

    /// Keeps this shard's cases of `cases` (the next ones of the enumeration).
    pub fn keep<T>(&self, cases: &mut Vec<T>) {
        cases.retain(|_| self.take());
    }

    /// `K/N`, or `None` for the whole run.
    pub fn label(&self) -> Option<String> {
        (self.n > 1).then(|| format!("{}/{}", self.k, self.n))
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn shards_partition_the_enumeration() {
        let kept = |s: &str| {
            let sh = Shard::parse(s).unwrap();
            let mut v: Vec<u32> = (0..10).collect();
            sh.keep(&mut v);
            let mut w: Vec<u32> = (10..13).collect();
            sh.keep(&mut w);
            v.extend(w);
            v
        };
        assert_eq!(kept("1/1"), (0..13).collect::<Vec<_>>());
        assert_eq!(kept("1/4"), [0, 4, 8, 12]);
        assert_eq!(kept("2/4"), [1, 5, 9]);
        assert_eq!(kept("4/4"), [3, 7, 11]);
        let mut all: Vec<u32> = (1..=4).flat_map(|k| kept(&format!("{k}/4"))).collect();
        all.sort_unstable();
        assert_eq!(all, (0..13).collect::<Vec<_>>(), "each case once");
        for bad in ["0/4", "5/4", "4", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
