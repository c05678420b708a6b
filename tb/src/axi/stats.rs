//! What the memory model counts and records: traffic per channel and one record per burst.

use super::signals::Resp;

/// Per-channel cycle counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerChannel {
    /// AR channel.
    pub ar: u64,
    /// AW channel.
    pub aw: u64,
    /// W channel.
    pub w: u64,
    /// R channel.
    pub r: u64,
    /// B channel.
    pub b: u64,
}

/// Traffic counters, for throughput figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxiStats {
    /// Cycles sampled.
    pub cycles: u64,
    /// AR handshakes.
    pub ar_bursts: u64,
    /// AW handshakes.
    pub aw_bursts: u64,
    /// R handshakes.
    pub r_beats: u64,
    /// W handshakes.
    pub w_beats: u64,
    /// B handshakes.
    pub b_resps: u64,
    /// Bytes carried by R beats (all lanes of every beat, error beats included).
    pub bytes_read: u64,
    /// Bytes stored by W beats (strobed lanes that were written).
    pub bytes_written: u64,
    /// Cycles that began with at least one read outstanding (AR accepted, last R not taken):
    /// the denominator of [`AxiStats::read_utilisation`].
    pub read_busy_cycles: u64,
    /// Cycles that began with a write outstanding (AW or W beats accepted, B not taken).
    pub write_busy_cycles: u64,
    /// Cycles with valid high and ready low: the slave stalling the master on AR, AW, W; the
    /// master stalling the slave on R, B.
    pub stalls: PerChannel,
    /// Cycles an R or B beat was due but the slave held valid low (random gap); AR, AW, W
    /// stay 0.
    pub gaps: PerChannel,
}

impl AxiStats {
    /// R beats per cycle while a read was outstanding (1.0 = the read bus never idled).
    pub fn read_utilisation(&self) -> f64 {
        self.r_beats as f64 / self.read_busy_cycles.max(1) as f64
    }

    /// W beats per cycle while a write was outstanding.
    pub fn write_utilisation(&self) -> f64 {
        self.w_beats as f64 / self.write_busy_cycles.max(1) as f64
    }
}

/// One accepted burst, for tests and reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurstRecord {
    /// `AxID`.
    pub id: u64,
    /// `AxADDR`.
    pub addr: u64,
    /// Beats announced (`AxLEN + 1`).
    pub beats: u32,
    /// Cycle of the address handshake.
    pub accepted: u64,
    /// Reads: cycle the first R beat was presented.
    pub first_data: Option<u64>,
    /// Cycle of the last R handshake or of the B handshake.
    pub done: Option<u64>,
    /// Worst response of the burst (so far).
    pub resp: Resp,
}
