//! What an [`AxiMemory`](super::AxiMemory) is configured with: response codes, error ranges,
//! backpressure probabilities, latencies and queue depths.

use super::signals::{Channel, Resp};

/// Which accesses an [`ErrorRange`] applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read bursts only.
    Read,
    /// Write bursts only.
    Write,
    /// Both.
    Both,
}

impl Access {
    pub(super) fn covers(self, write: bool) -> bool {
        match self {
            Access::Read => !write,
            Access::Write => write,
            Access::Both => true,
        }
    }
}

/// Bytes `[lo, hi)` answer with `resp` for the accesses in `on`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorRange {
    /// First byte address of the range.
    pub lo: u64,
    /// One past the last byte address.
    pub hi: u64,
    /// [`Resp::Slverr`] or [`Resp::Decerr`].
    pub resp: Resp,
    /// Reads, writes or both.
    pub on: Access,
}

impl ErrorRange {
    /// A range; panics on an empty range or a response that is not an error (a testbench bug).
    pub fn new(lo: u64, hi: u64, resp: Resp, on: Access) -> Self {
        assert!(lo < hi, "error range [{lo:#x}, {hi:#x}) is empty");
        assert!(
            resp.is_err(),
            "error range response must be SLVERR or DECERR"
        );
        ErrorRange { lo, hi, resp, on }
    }

    pub(super) fn overlaps(&self, lo: u64, hi: u64) -> bool {
        self.lo < hi && lo < self.hi
    }
}

/// Per-channel probabilities (0.0 ..= 1.0) that the slave stalls in a cycle: ready low on AR,
/// AW and W; an available R or B beat held back (valid low) on R and B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stalls {
    /// `ARREADY` low.
    pub ar: f64,
    /// `AWREADY` low.
    pub aw: f64,
    /// `WREADY` low.
    pub w: f64,
    /// R beat held back.
    pub r: f64,
    /// B response held back.
    pub b: f64,
}

impl Stalls {
    /// The same probability on every channel.
    pub fn all(p: f64) -> Self {
        Stalls {
            ar: p,
            aw: p,
            w: p,
            r: p,
            b: p,
        }
    }

    /// Never stall: always ready, every beat presented as soon as it is due.
    pub fn none() -> Self {
        Self::all(0.0)
    }

    fn each(&self) -> [(Channel, f64); 5] {
        [
            (Channel::Ar, self.ar),
            (Channel::Aw, self.aw),
            (Channel::W, self.w),
            (Channel::R, self.r),
            (Channel::B, self.b),
        ]
    }
}

/// Configuration of an [`AxiMemory`](super::AxiMemory).
#[derive(Clone, Debug, PartialEq)]
pub struct AxiMemConfig {
    /// Data bus width in bits: a power of two from 32 to 1024 (the DMA engine uses 256, 512
    /// and 1024; narrower buses let unit tests reach 256-beat bursts within 4 KiB).
    pub data_bits: u32,
    /// Value of bytes never written.
    pub fill: u8,
    /// Seed of the latency and backpressure draws.
    pub seed: u64,
    /// Read latency in cycles, inclusive range `(min, max)`, drawn per burst.
    pub read_latency: (u32, u32),
    /// Write-response latency in cycles, inclusive range `(min, max)`, drawn per burst.
    pub write_latency: (u32, u32),
    /// Backpressure probabilities.
    pub stalls: Stalls,
    /// Read bursts accepted and not yet fully returned before `ARREADY` drops.
    pub max_reads: usize,
    /// Write bursts accepted and not yet responded before `AWREADY` drops.
    pub max_writes: usize,
    /// W beats buffered ahead of their AW before `WREADY` drops.
    pub w_ahead: usize,
    /// Error injection.
    pub errors: Vec<ErrorRange>,
}

impl AxiMemConfig {
    /// Random mode: latency 0–200 cycles on both sides, every channel stalling with
    /// probability 0.2, 16 reads and 16 writes outstanding, fill byte `0x00`.
    pub fn random(data_bits: u32, seed: u64) -> Self {
        AxiMemConfig {
            data_bits,
            fill: 0,
            seed,
            read_latency: (0, 200),
            write_latency: (0, 200),
            stalls: Stalls::all(0.2),
            max_reads: 16,
            max_writes: 16,
            w_ahead: 256,
            errors: Vec::new(),
        }
    }

    /// Throughput mode: fixed `latency` on reads and writes, never a stall.
    pub fn fixed(data_bits: u32, latency: u32) -> Self {
        AxiMemConfig {
            read_latency: (latency, latency),
            write_latency: (latency, latency),
            stalls: Stalls::none(),
            ..Self::random(data_bits, 0)
        }
    }

    /// Bytes per beat.
    pub fn bus_bytes(&self) -> usize {
        self.data_bits as usize / 8
    }

    pub(super) fn validate(&self) {
        assert!(
            self.data_bits.is_power_of_two() && (32..=1024).contains(&self.data_bits),
            "AXI data width {} is not a power of two in 32..=1024",
            self.data_bits
        );
        for (what, (lo, hi)) in [("read", self.read_latency), ("write", self.write_latency)] {
            assert!(lo <= hi, "{what} latency range ({lo}, {hi}) is inverted");
        }
        for (ch, p) in self.stalls.each() {
            assert!(
                (0.0..=1.0).contains(&p),
                "stall probability {p} on {ch} is outside 0..=1"
            );
        }
        assert!(
            self.max_reads > 0 && self.max_writes > 0,
            "max_reads and max_writes must be at least 1"
        );
    }
}
