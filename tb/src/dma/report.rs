//! What one chain did ([`RunReport`]), and the bookkeeping behind it: traffic since a mark,
//! compression totals.

use crate::axi::{AxiStats, PerChannel};
use crate::dma_check::{CsrSnapshot, Mismatch};
use crate::dma_scenario::{desc_op, Expected};
use cdma_model::dma::{codes, Op};

/// What one chain did.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Scenario name.
    pub name: String,
    /// Cycles from the doorbell to STATUS.busy = 0 being read.
    pub cycles: u64,
    /// Every difference found (empty: the run matches the model).
    pub mismatches: Vec<Mismatch>,
    /// CSRs before the doorbell.
    pub before: CsrSnapshot,
    /// CSRs after the chain.
    pub after: CsrSnapshot,
    /// Memory-model traffic during the chain.
    pub stats: AxiStats,
    /// Bytes the COMPRESS descriptors read (uncompressed).
    pub raw_bytes: u64,
    /// Payload bytes the COMPRESS descriptors wrote (model).
    pub payload_bytes: u64,
    /// R beats / cycles from the first AR to the last R, over data reads (descriptor
    /// fetches excluded); None without data reads.
    pub read_utilisation: Option<f64>,
    /// W beats / cycles from the first AW to the last W, over data writes (status
    /// write-backs excluded); None without data writes.
    pub write_utilisation: Option<f64>,
    /// Notes (e.g. where an abort landed).
    pub notes: Vec<String>,
}

impl RunReport {
    /// The mismatches, one per line (at most `n`).
    pub fn describe(&self, n: usize) -> String {
        let mut s: Vec<String> = self
            .mismatches
            .iter()
            .take(n)
            .map(|m| m.to_string())
            .collect();
        if self.mismatches.len() > n {
            s.push(format!("… {} more", self.mismatches.len() - n));
        }
        s.join("\n")
    }
}

/// Where the bench's logs and counters stood when a chain started.
pub(super) struct Marks {
    pub(super) reads: usize,
    pub(super) writes: usize,
    pub(super) w_beats: usize,
    pub(super) violations: usize,
    pub(super) stats: AxiStats,
}

/// The traffic counted between two snapshots of the counters (`a` later than `b`).
pub(super) fn stats_delta(a: &AxiStats, b: &AxiStats) -> AxiStats {
    let ch = |x: PerChannel, y: PerChannel| PerChannel {
        ar: x.ar - y.ar,
        aw: x.aw - y.aw,
        w: x.w - y.w,
        r: x.r - y.r,
        b: x.b - y.b,
    };
    AxiStats {
        cycles: a.cycles - b.cycles,
        ar_bursts: a.ar_bursts - b.ar_bursts,
        aw_bursts: a.aw_bursts - b.aw_bursts,
        r_beats: a.r_beats - b.r_beats,
        w_beats: a.w_beats - b.w_beats,
        b_resps: a.b_resps - b.b_resps,
        bytes_read: a.bytes_read - b.bytes_read,
        bytes_written: a.bytes_written - b.bytes_written,
        read_busy_cycles: a.read_busy_cycles - b.read_busy_cycles,
        write_busy_cycles: a.write_busy_cycles - b.write_busy_cycles,
        stalls: ch(a.stalls, b.stalls),
        gaps: ch(a.gaps, b.gaps),
    }
}

/// (uncompressed bytes, payload bytes) of the successful COMPRESS descriptors.
pub(super) fn compress_totals(exp: &Expected) -> (u64, u64) {
    exp.outcome
        .descs
        .iter()
        .filter(|o| o.error == codes::OK && o.desc.as_ref().and_then(desc_op) == Some(Op::Compress))
        .fold((0, 0), |(r, p), o| {
            (
                r + u64::from(o.desc.expect("fetched").src_len),
                p + u64::from(o.bytes_written),
            )
        })
}
