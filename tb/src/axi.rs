//! AXI4 slave memory model with a built-in protocol checker: the far end of the DMA engine's
//! `m_axi_*` master port (docs/ARCHITECTURE.md, "DMA engine").
//!
//! [`AxiMemory`] is the model itself and knows nothing about Verilator: per cycle it takes the
//! master's outputs as a [`MasterSignals`] and produces the slave's outputs as
//! [`SlaveSignals`], so it is unit-tested against a Rust master. [`AxiPorts`] binds it to a
//! [`Dut`] by the standard port names; [`AxiSlave`] bundles the two.
//!
//! # Cycle protocol
//!
//! Every clock cycle, in this order:
//! 1. [`AxiMemory::drive`] — the slave's outputs for this cycle (drawn once per cycle: calling
//!    it again before `sample` returns the same values). Drive them into the DUT.
//! 2. The DUT's `eval()` — the master's outputs settle; they may depend combinationally on
//!    the slave's (a ready may follow a valid, as AXI allows).
//! 3. [`AxiMemory::sample`] with the master's outputs — the handshakes of this cycle's rising
//!    edge are `valid && ready` of the two; the model advances and checks the protocol.
//! 4. The DUT's `tick()`.
//!
//! While the DUT is in reset, drive the slave idle ([`AxiPorts::drive_idle`]) and do not
//! sample; after a reset in the middle of a run, [`AxiMemory::reset_bus`] drops what was in
//! flight and keeps the memory.
//!
//! # Model
//!
//! - Sparse byte memory in 4 KiB pages; bytes never written read as [`AxiMemConfig::fill`].
//!   Beat lane `i` is the byte at beat address + `i` (little-endian bus).
//! - INCR bursts of full bus width; anything else is a protocol violation (see below).
//! - Reads and writes are queued ([`AxiMemConfig::max_reads`] / [`AxiMemConfig::max_writes`]
//!   outstanding; `ARREADY`/`AWREADY` drop when full) and answered **in acceptance order for
//!   all IDs** — stricter than AXI needs (order per ID only) and legal for a slave. `RID`/`BID`
//!   echo the request's ID.
//! - Latency: a burst accepted in cycle `c` with drawn latency `L` presents its first R beat no
//!   earlier than cycle `c + 1 + L` (`L = 0`: the cycle after the handshake), and later only if
//!   an older burst still occupies the R channel or a random valid gap is drawn. A write's B is
//!   presented no earlier than `L` cycles after the cycle following its last W beat (or its AW,
//!   if that came later): latency is counted from the moment the slave has the whole burst.
//! - Writes land in memory when a W beat meets its AW (before B); a read beat samples memory
//!   when it is first presented. So a read issued after a write's B sees the write.
//! - W beats may precede their AW (AXI4 allows it): up to [`AxiMemConfig::w_ahead`] beats are
//!   buffered, then `WREADY` drops until an AW arrives. (A master that withholds AW until its W
//!   beats are accepted can deadlock here; AXI forbids a master to wait for `WREADY` before
//!   `AWVALID`.)
//! - Random backpressure (seeded ChaCha8): each cycle `ARREADY`, `AWREADY` and `WREADY` are low
//!   with their [`Stalls`] probability, and an R or B beat that could be presented is held back
//!   with its probability. Once `RVALID`/`BVALID` is high it stays high with stable payload
//!   until the handshake, as AXI requires of the slave.
//! - Error injection by [`ErrorRange`]: a read beat whose bytes overlap a read-error range
//!   returns that response with zero data; a write beat that overlaps a write-error range is not
//!   written and the burst's B carries the error. If several apply, DECERR wins over SLVERR.
//!
//! # Protocol checks
//!
//! Each is a [`Violation`] (kind, channel, cycle, message): recorded in
//! [`AxiMemory::violations`] and returned by the `sample` of the cycle it was found in.
//! - AR/AW: `AxLEN > 255`, `AxSIZE` ≠ bus width, `AxBURST` ≠ INCR (FIXED, WRAP and the reserved
//!   encoding are rejected), `AxADDR` not a multiple of the bus bytes, a burst that crosses a
//!   4 KiB boundary. Such a burst is still accepted so the master does not hang, but it is not
//!   performed: every R beat is SLVERR with zero data, its W beats are dropped and B is SLVERR.
//! - W: `WLAST` before the burst's last beat (the burst ends there, B is SLVERR), `WLAST`
//!   missing on the last beat, W beats beyond the announced length (dropped until `WLAST`).
//! - Stability: `ARVALID`/`AWVALID`/`WVALID` dropped before ready, or the payload (all address
//!   fields; data, strobes and last) changed while valid and not ready.
//! - At the end of a run, [`AxiMemory::check_idle`]: W beats with no AW, AW bursts still waiting
//!   for data, responses never taken.

use crate::zvc::TbError;
use cdma_sim::{Dir, Dut};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, VecDeque};
use std::fmt;

/// Size of the sparse memory's pages, which is also the AXI burst boundary.
pub const PAGE_BYTES: u64 = 4096;

/// AXI `BRESP`/`RRESP` encodings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Resp {
    /// `0b00`: normal access success.
    #[default]
    Okay,
    /// `0b01`: exclusive access success (never produced by this model).
    Exokay,
    /// `0b10`: slave error.
    Slverr,
    /// `0b11`: decode error.
    Decerr,
}

impl Resp {
    /// The 2-bit encoding.
    pub fn bits(self) -> u64 {
        match self {
            Resp::Okay => 0,
            Resp::Exokay => 1,
            Resp::Slverr => 2,
            Resp::Decerr => 3,
        }
    }

    /// Decodes the low two bits of `bits`.
    pub fn from_bits(bits: u64) -> Resp {
        match bits & 3 {
            0 => Resp::Okay,
            1 => Resp::Exokay,
            2 => Resp::Slverr,
            _ => Resp::Decerr,
        }
    }

    /// SLVERR or DECERR.
    pub fn is_err(self) -> bool {
        matches!(self, Resp::Slverr | Resp::Decerr)
    }

    /// The more severe of two responses (DECERR > SLVERR > EXOKAY > OKAY), for a burst that
    /// meets several.
    pub fn worst(self, other: Resp) -> Resp {
        let rank = |r: Resp| match r {
            Resp::Okay => 0,
            Resp::Exokay => 1,
            Resp::Slverr => 2,
            Resp::Decerr => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

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
    fn covers(self, write: bool) -> bool {
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

    fn overlaps(&self, lo: u64, hi: u64) -> bool {
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

/// Configuration of an [`AxiMemory`].
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

    fn validate(&self) {
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

/// The five AXI channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Read address.
    Ar,
    /// Write address.
    Aw,
    /// Write data.
    W,
    /// Read data.
    R,
    /// Write response.
    B,
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Channel::Ar => "AR",
            Channel::Aw => "AW",
            Channel::W => "W",
            Channel::R => "R",
            Channel::B => "B",
        })
    }
}

/// What rule a [`Violation`] broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationKind {
    /// A burst crosses a 4 KiB boundary.
    Crosses4K,
    /// `AxLEN` above 255.
    LenTooLarge,
    /// `AxSIZE` is not the full bus width.
    BadSize,
    /// `AxBURST` is FIXED, WRAP or reserved.
    BadBurst,
    /// `AxADDR` is not a multiple of the bus bytes.
    Unaligned,
    /// `WLAST` on a beat before the burst's last.
    WlastEarly,
    /// `WLAST` low on the burst's last beat.
    WlastMissing,
    /// More W beats than the AW announced.
    ExtraWBeats,
    /// Valid dropped before the handshake.
    ValidDropped,
    /// Payload changed while valid and not ready.
    PayloadChanged,
    /// Something still pending when the run was declared finished ([`AxiMemory::check_idle`]).
    NotIdle,
}

/// A broken AXI rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Cycle (counted by [`AxiMemory::sample`] calls from 0) it was detected in.
    pub cycle: u64,
    /// Channel.
    pub channel: Channel,
    /// Rule.
    pub kind: ViolationKind,
    /// What happened, with addresses and beat numbers.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "AXI {} at cycle {}: {}",
            self.channel, self.cycle, self.detail
        )
    }
}

impl std::error::Error for Violation {}

impl From<Violation> for TbError {
    fn from(v: Violation) -> Self {
        TbError::Protocol(v.to_string())
    }
}

/// The master-driven signals of one cycle. Wide data is bytes, lane `i` = byte `i` of the beat;
/// `wstrb` bit `i` enables lane `i`. Fields of absent optional ports stay 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MasterSignals {
    /// `AWID`.
    pub awid: u64,
    /// `AWADDR`.
    pub awaddr: u64,
    /// `AWLEN` (beats − 1); wider than the 8-bit port so the checker can see an overflow.
    pub awlen: u64,
    /// `AWSIZE` (log2 bytes per beat).
    pub awsize: u64,
    /// `AWBURST` (0 FIXED, 1 INCR, 2 WRAP).
    pub awburst: u64,
    /// `AWCACHE` (not interpreted).
    pub awcache: u64,
    /// `AWPROT` (not interpreted).
    pub awprot: u64,
    /// `AWVALID`.
    pub awvalid: bool,
    /// `WDATA`, bus-bytes long when `wvalid`.
    pub wdata: Vec<u8>,
    /// `WSTRB`.
    pub wstrb: u128,
    /// `WLAST`.
    pub wlast: bool,
    /// `WVALID`.
    pub wvalid: bool,
    /// `BREADY`.
    pub bready: bool,
    /// `ARID`.
    pub arid: u64,
    /// `ARADDR`.
    pub araddr: u64,
    /// `ARLEN` (beats − 1).
    pub arlen: u64,
    /// `ARSIZE`.
    pub arsize: u64,
    /// `ARBURST`.
    pub arburst: u64,
    /// `ARCACHE` (not interpreted).
    pub arcache: u64,
    /// `ARPROT` (not interpreted).
    pub arprot: u64,
    /// `ARVALID`.
    pub arvalid: bool,
    /// `RREADY`.
    pub rready: bool,
}

/// The fields of an address channel, for the checks and the stability rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AddrBeat {
    id: u64,
    addr: u64,
    len: u64,
    size: u64,
    burst: u64,
    cache: u64,
    prot: u64,
}

impl MasterSignals {
    fn ar(&self) -> AddrBeat {
        AddrBeat {
            id: self.arid,
            addr: self.araddr,
            len: self.arlen,
            size: self.arsize,
            burst: self.arburst,
            cache: self.arcache,
            prot: self.arprot,
        }
    }

    fn aw(&self) -> AddrBeat {
        AddrBeat {
            id: self.awid,
            addr: self.awaddr,
            len: self.awlen,
            size: self.awsize,
            burst: self.awburst,
            cache: self.awcache,
            prot: self.awprot,
        }
    }
}

/// The slave-driven signals of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlaveSignals {
    /// `AWREADY`.
    pub awready: bool,
    /// `WREADY`.
    pub wready: bool,
    /// `BID`.
    pub bid: u64,
    /// `BRESP`.
    pub bresp: Resp,
    /// `BVALID`.
    pub bvalid: bool,
    /// `ARREADY`.
    pub arready: bool,
    /// `RID`.
    pub rid: u64,
    /// `RDATA`, bus-bytes long (stale while `rvalid` is low).
    pub rdata: Vec<u8>,
    /// `RRESP`.
    pub rresp: Resp,
    /// `RLAST`.
    pub rlast: bool,
    /// `RVALID`.
    pub rvalid: bool,
}

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

struct ReadTxn {
    id: u64,
    addr: u64,
    beats: u32,
    ready_at: u64,
    sent: u32,
    /// Broke an address rule: answered with SLVERR, memory untouched.
    bad: bool,
    log: usize,
}

struct WriteTxn {
    id: u64,
    addr: u64,
    beats: u32,
    latency: u32,
    got: u32,
    bad: bool,
    resp: Resp,
    extra_reported: bool,
    log: usize,
}

struct WBeat {
    data: Vec<u8>,
    strb: u128,
    last: bool,
    cycle: u64,
}

struct BResp {
    id: u64,
    resp: Resp,
    ready_at: u64,
    log: usize,
}

/// The AXI4 slave memory model; see the [module documentation](self).
pub struct AxiMemory {
    cfg: AxiMemConfig,
    bb: usize,
    size_log2: u64,
    pages: HashMap<u64, Box<[u8]>>,
    rng: ChaCha8Rng,
    cycle: u64,
    driven: bool,
    out: SlaveSignals,
    reads: VecDeque<ReadTxn>,
    aw_q: VecDeque<WriteTxn>,
    w_buf: VecDeque<WBeat>,
    b_q: VecDeque<BResp>,
    hold_ar: Option<AddrBeat>,
    hold_aw: Option<AddrBeat>,
    hold_w: Option<(Vec<u8>, u128, bool)>,
    violations: Vec<Violation>,
    stats: AxiStats,
    read_log: Vec<BurstRecord>,
    write_log: Vec<BurstRecord>,
    last_handshake: Option<(u64, Channel)>,
}

impl AxiMemory {
    /// An empty memory. Panics on an invalid configuration (a testbench bug).
    pub fn new(cfg: AxiMemConfig) -> Self {
        cfg.validate();
        let bb = cfg.bus_bytes();
        AxiMemory {
            bb,
            size_log2: u64::from(bb.trailing_zeros()),
            pages: HashMap::new(),
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            cycle: 0,
            driven: false,
            out: SlaveSignals {
                rdata: vec![0; bb],
                ..Default::default()
            },
            reads: VecDeque::new(),
            aw_q: VecDeque::new(),
            w_buf: VecDeque::new(),
            b_q: VecDeque::new(),
            hold_ar: None,
            hold_aw: None,
            hold_w: None,
            violations: Vec::new(),
            stats: AxiStats::default(),
            read_log: Vec::new(),
            write_log: Vec::new(),
            last_handshake: None,
            cfg,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &AxiMemConfig {
        &self.cfg
    }

    /// Bytes per beat.
    pub fn bus_bytes(&self) -> usize {
        self.bb
    }

    /// Adds an error range (takes effect for beats presented or written from now on).
    pub fn add_error(&mut self, range: ErrorRange) {
        self.cfg.errors.push(range);
    }

    /// Removes every error range.
    pub fn clear_errors(&mut self) {
        self.cfg.errors.clear();
    }

    /// Cycles sampled so far (the number of the next cycle).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Every violation seen so far, oldest first.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Traffic counters.
    pub fn stats(&self) -> &AxiStats {
        &self.stats
    }

    /// Read bursts in acceptance order.
    pub fn read_log(&self) -> &[BurstRecord] {
        &self.read_log
    }

    /// Write bursts in acceptance order.
    pub fn write_log(&self) -> &[BurstRecord] {
        &self.write_log
    }

    /// Cycle and channel of the most recent handshake on any channel.
    pub fn last_handshake(&self) -> Option<(u64, Channel)> {
        self.last_handshake
    }

    // ---- backdoor ----

    /// Copies memory at `addr..addr + out.len()` into `out` (no bus cycles).
    pub fn read_into(&self, addr: u64, out: &mut [u8]) {
        let mut done = 0;
        while done < out.len() {
            let a = addr.wrapping_add(done as u64);
            let off = (a % PAGE_BYTES) as usize;
            let n = (PAGE_BYTES as usize - off).min(out.len() - done);
            match self.pages.get(&(a / PAGE_BYTES)) {
                Some(p) => out[done..done + n].copy_from_slice(&p[off..off + n]),
                None => out[done..done + n].fill(self.cfg.fill),
            }
            done += n;
        }
    }

    /// Memory at `addr..addr + len` (no bus cycles).
    pub fn read_bytes(&self, addr: u64, len: usize) -> Vec<u8> {
        let mut v = vec![0; len];
        self.read_into(addr, &mut v);
        v
    }

    /// Stores `data` at `addr` (no bus cycles, no error ranges).
    pub fn write_bytes(&mut self, addr: u64, data: &[u8]) {
        let mut done = 0;
        while done < data.len() {
            let a = addr.wrapping_add(done as u64);
            let off = (a % PAGE_BYTES) as usize;
            let n = (PAGE_BYTES as usize - off).min(data.len() - done);
            self.page_mut(a)[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
    }

    fn page_mut(&mut self, addr: u64) -> &mut [u8] {
        let fill = self.cfg.fill;
        self.pages
            .entry(addr / PAGE_BYTES)
            .or_insert_with(|| vec![fill; PAGE_BYTES as usize].into_boxed_slice())
    }

    // ---- cycle interface ----

    /// The slave's outputs for this cycle. Random choices are drawn on the first call of a
    /// cycle; further calls before [`AxiMemory::sample`] return the same signals.
    pub fn drive(&mut self) -> &SlaveSignals {
        if self.driven {
            return &self.out;
        }
        self.driven = true;
        let st = self.cfg.stalls;
        let outstanding_writes = self.aw_q.len() + self.b_q.len();
        self.out.arready = self.reads.len() < self.cfg.max_reads && !self.flip(st.ar);
        self.out.awready = outstanding_writes < self.cfg.max_writes && !self.flip(st.aw);
        self.out.wready = self.w_buf.len() < self.cfg.w_ahead && !self.flip(st.w);
        // A presented beat stays until taken (slave stability); a new one only when due.
        if !self.out.rvalid && self.reads.front().is_some_and(|t| t.ready_at <= self.cycle) {
            if self.flip(st.r) {
                self.stats.gaps.r += 1;
            } else {
                self.present_r();
            }
        }
        if !self.out.bvalid && self.b_q.front().is_some_and(|b| b.ready_at <= self.cycle) {
            if self.flip(st.b) {
                self.stats.gaps.b += 1;
            } else {
                let b = self.b_q.front().expect("checked above");
                self.out.bid = b.id;
                self.out.bresp = b.resp;
                self.out.bvalid = true;
            }
        }
        &self.out
    }

    /// Ends the cycle with the master's outputs `m` (sampled after the DUT's `eval`): performs
    /// this edge's handshakes, advances the model and checks the protocol. Returns the first
    /// violation found in this cycle (all are kept in [`AxiMemory::violations`]); the model
    /// carries on either way.
    ///
    /// Panics if [`AxiMemory::drive`] was not called in this cycle (the handshakes would use
    /// last cycle's ready signals).
    pub fn sample(&mut self, m: &MasterSignals) -> Result<(), Violation> {
        assert!(
            self.driven,
            "AxiMemory::sample without drive in cycle {}",
            self.cycle
        );
        self.driven = false;
        let first_new = self.violations.len();
        let s = &self.out;
        let (ar_fire, aw_fire, w_fire) = (
            m.arvalid && s.arready,
            m.awvalid && s.awready,
            m.wvalid && s.wready,
        );
        let (r_fire, b_fire) = (s.rvalid && m.rready, s.bvalid && m.bready);

        self.check_stability(m);
        self.count(m);

        if r_fire {
            self.take_r();
        }
        if b_fire {
            self.take_b();
        }
        if ar_fire {
            self.accept_ar(m);
        }
        if aw_fire {
            self.accept_aw(m);
        }
        if w_fire {
            assert_eq!(
                m.wdata.len(),
                self.bb,
                "MasterSignals::wdata must be {} bytes",
                self.bb
            );
            self.w_buf.push_back(WBeat {
                data: m.wdata.clone(),
                strb: m.wstrb,
                last: m.wlast,
                cycle: self.cycle,
            });
            self.stats.w_beats += 1;
            self.handshake(Channel::W);
        }
        self.match_writes();
        self.cycle += 1;
        match self.violations.get(first_new) {
            Some(v) => Err(v.clone()),
            None => Ok(()),
        }
    }

    /// Forgets every transaction in flight (the DUT was reset): queues, buffered W beats,
    /// presented R/B beats and stability state. Memory, error ranges, statistics, logs and
    /// violations stay. Drive the slave idle ([`AxiPorts::drive_idle`]) and do not sample while
    /// the DUT is in reset.
    pub fn reset_bus(&mut self) {
        self.reads.clear();
        self.aw_q.clear();
        self.w_buf.clear();
        self.b_q.clear();
        (self.hold_ar, self.hold_aw, self.hold_w) = (None, None, None);
        (self.out.rvalid, self.out.bvalid) = (false, false);
        self.driven = false;
    }

    /// Whether nothing is outstanding: no read, write, buffered W beat or response pending.
    pub fn is_idle(&self) -> bool {
        self.reads.is_empty()
            && self.aw_q.is_empty()
            && self.w_buf.is_empty()
            && self.b_q.is_empty()
    }

    /// End-of-run check: anything still pending is a [`ViolationKind::NotIdle`] naming it
    /// (W beats that never got an AW, AW bursts short of data, reads or responses never
    /// taken). Also recorded in [`AxiMemory::violations`].
    pub fn check_idle(&mut self) -> Result<(), Violation> {
        let channel = if !self.w_buf.is_empty() {
            Channel::W
        } else if !self.aw_q.is_empty() {
            Channel::Aw
        } else if !self.reads.is_empty() {
            Channel::R
        } else if !self.b_q.is_empty() {
            Channel::B
        } else {
            return Ok(());
        };
        let v = Violation {
            cycle: self.cycle,
            channel,
            kind: ViolationKind::NotIdle,
            detail: format!("not idle at the end of the run: {}", self.pending()),
        };
        self.violations.push(v.clone());
        Err(v)
    }

    /// What the model is waiting for, for hang reports: outstanding reads and writes with the
    /// oldest of each, buffered W beats, and the last handshake.
    pub fn pending(&self) -> String {
        let mut parts = Vec::new();
        if let Some(t) = self.reads.front() {
            let rec = &self.read_log[t.log];
            parts.push(format!(
                "{} read(s) outstanding (oldest: AR {:#x} x{} beats accepted at cycle {}, {} beat(s) returned{})",
                self.reads.len(),
                t.addr,
                t.beats,
                rec.accepted,
                t.sent,
                if self.out.rvalid { ", R beat waiting for RREADY" } else { "" }
            ));
        }
        if let Some(t) = self.aw_q.front() {
            parts.push(format!(
                "{} write(s) waiting for W data (oldest: AW {:#x} x{} beats accepted at cycle {}, {} beat(s) received)",
                self.aw_q.len(),
                t.addr,
                t.beats,
                self.write_log[t.log].accepted,
                t.got
            ));
        }
        if !self.w_buf.is_empty() {
            parts.push(format!(
                "{} W beat(s) received without an AW",
                self.w_buf.len()
            ));
        }
        if !self.b_q.is_empty() {
            parts.push(format!(
                "{} B response(s) not taken{}",
                self.b_q.len(),
                if self.out.bvalid {
                    " (BVALID high, waiting for BREADY)"
                } else {
                    ""
                }
            ));
        }
        if parts.is_empty() {
            parts.push("nothing outstanding".into());
        }
        let last = match self.last_handshake {
            Some((c, ch)) => format!("last handshake {ch} at cycle {c}"),
            None => "no handshake yet".into(),
        };
        format!("{}; {last}", parts.join(", "))
    }

    // ---- internals ----

    fn flip(&mut self, p: f64) -> bool {
        p > 0.0 && self.rng.gen_bool(p)
    }

    fn draw(&mut self, (lo, hi): (u32, u32)) -> u32 {
        if lo == hi {
            lo
        } else {
            self.rng.gen_range(lo..=hi)
        }
    }

    fn handshake(&mut self, ch: Channel) {
        self.last_handshake = Some((self.cycle, ch));
    }

    fn violation(&mut self, channel: Channel, kind: ViolationKind, detail: String) {
        self.violations.push(Violation {
            cycle: self.cycle,
            channel,
            kind,
            detail,
        });
    }

    /// The worst error of the ranges overlapping `[lo, lo + bb)` for this access, if any.
    fn range_error(&self, lo: u64, write: bool) -> Option<Resp> {
        let hi = lo.saturating_add(self.bb as u64);
        self.cfg
            .errors
            .iter()
            .filter(|e| e.on.covers(write) && e.overlaps(lo, hi))
            .map(|e| e.resp)
            .reduce(Resp::worst)
    }

    fn present_r(&mut self) {
        let t = self.reads.front().expect("caller checked");
        let addr = t.addr.wrapping_add(u64::from(t.sent) * self.bb as u64);
        let (id, last, first, log, bad) = (t.id, t.sent + 1 == t.beats, t.sent == 0, t.log, t.bad);
        let resp = if bad {
            Resp::Slverr
        } else {
            self.range_error(addr, false).unwrap_or(Resp::Okay)
        };
        let mut data = std::mem::take(&mut self.out.rdata);
        if resp.is_err() {
            data.fill(0);
        } else {
            self.read_into(addr, &mut data);
        }
        self.out.rdata = data;
        self.out.rid = id;
        self.out.rresp = resp;
        self.out.rlast = last;
        self.out.rvalid = true;
        let rec = &mut self.read_log[log];
        rec.resp = rec.resp.worst(resp);
        if first {
            rec.first_data = Some(self.cycle);
        }
    }

    fn take_r(&mut self) {
        self.out.rvalid = false;
        self.stats.r_beats += 1;
        self.stats.bytes_read += self.bb as u64;
        self.handshake(Channel::R);
        let t = self.reads.front_mut().expect("RVALID implies a read");
        t.sent += 1;
        if t.sent == t.beats {
            let log = t.log;
            self.reads.pop_front();
            self.read_log[log].done = Some(self.cycle);
        }
    }

    fn take_b(&mut self) {
        self.out.bvalid = false;
        self.stats.b_resps += 1;
        self.handshake(Channel::B);
        let b = self.b_q.pop_front().expect("BVALID implies a response");
        self.write_log[b.log].done = Some(self.cycle);
    }

    /// Checks an address beat against the burst rules; true if it broke one.
    fn check_burst(&mut self, ch: Channel, a: &AddrBeat) -> bool {
        let n = self.violations.len();
        let bb = self.bb as u64;
        if a.len > 255 {
            self.violation(
                ch,
                ViolationKind::LenTooLarge,
                format!("{ch}LEN {} above 255 (burst at {:#x})", a.len, a.addr),
            );
        }
        if a.size != self.size_log2 {
            self.violation(
                ch,
                ViolationKind::BadSize,
                format!(
                    "{ch}SIZE {} ({} bytes) is not the bus width ({ch}SIZE {} = {bb} bytes), burst at {:#x}",
                    a.size,
                    1u128 << a.size.min(127),
                    self.size_log2,
                    a.addr
                ),
            );
        }
        if a.burst != 1 {
            let name = ["FIXED", "INCR", "WRAP", "reserved"][(a.burst & 3) as usize];
            self.violation(
                ch,
                ViolationKind::BadBurst,
                format!(
                    "{ch}BURST {} ({name}) at {:#x}: only INCR is supported",
                    a.burst, a.addr
                ),
            );
        }
        if !a.addr.is_multiple_of(bb) {
            self.violation(
                ch,
                ViolationKind::Unaligned,
                format!(
                    "{ch}ADDR {:#x} is not a multiple of the bus width ({bb} bytes)",
                    a.addr
                ),
            );
        }
        let beats = a.len.min(255) + 1;
        let last = a.addr.checked_add(beats * bb - 1);
        if last.is_none_or(|l| l / PAGE_BYTES != a.addr / PAGE_BYTES) {
            self.violation(
                ch,
                ViolationKind::Crosses4K,
                format!(
                    "burst of {beats} beats x {bb} bytes at {:#x} crosses a 4 KiB boundary (ends at {:#x})",
                    a.addr,
                    a.addr.wrapping_add(beats * bb)
                ),
            );
        }
        self.violations.len() > n
    }

    fn accept_ar(&mut self, m: &MasterSignals) {
        let a = m.ar();
        let bad = self.check_burst(Channel::Ar, &a);
        let beats = (a.len.min(255) + 1) as u32;
        let lat = self.draw(self.cfg.read_latency);
        self.read_log.push(BurstRecord {
            id: a.id,
            addr: a.addr,
            beats,
            accepted: self.cycle,
            first_data: None,
            done: None,
            resp: Resp::Okay,
        });
        self.reads.push_back(ReadTxn {
            id: a.id,
            addr: a.addr,
            beats,
            ready_at: self.cycle + 1 + u64::from(lat),
            sent: 0,
            bad,
            log: self.read_log.len() - 1,
        });
        self.stats.ar_bursts += 1;
        self.handshake(Channel::Ar);
    }

    fn accept_aw(&mut self, m: &MasterSignals) {
        let a = m.aw();
        let bad = self.check_burst(Channel::Aw, &a);
        let beats = (a.len.min(255) + 1) as u32;
        let latency = self.draw(self.cfg.write_latency);
        self.write_log.push(BurstRecord {
            id: a.id,
            addr: a.addr,
            beats,
            accepted: self.cycle,
            first_data: None,
            done: None,
            resp: Resp::Okay,
        });
        self.aw_q.push_back(WriteTxn {
            id: a.id,
            addr: a.addr,
            beats,
            latency,
            got: 0,
            bad,
            resp: if bad { Resp::Slverr } else { Resp::Okay },
            extra_reported: false,
            log: self.write_log.len() - 1,
        });
        self.stats.aw_bursts += 1;
        self.handshake(Channel::Aw);
    }

    /// Pairs buffered W beats with AW bursts in order, writes them and queues B responses.
    fn match_writes(&mut self) {
        while !self.aw_q.is_empty() && !self.w_buf.is_empty() {
            let mut t = self.aw_q.pop_front().expect("checked");
            let beat = self.w_buf.pop_front().expect("checked");
            let i = t.got;
            t.got += 1;
            let at = |c: u64| format!("W beat accepted at cycle {c}");
            if i >= t.beats {
                // Only after WLAST went missing: the master is still in the burst.
                if !t.extra_reported {
                    t.extra_reported = true;
                    self.violation(
                        Channel::W,
                        ViolationKind::ExtraWBeats,
                        format!(
                            "beat {} of a {}-beat burst (AW {:#x}): more W beats than AWLEN announced ({})",
                            i + 1,
                            t.beats,
                            t.addr,
                            at(beat.cycle)
                        ),
                    );
                }
            } else {
                self.write_beat(&mut t, i, &beat);
                let last_expected = i + 1 == t.beats;
                if beat.last && !last_expected {
                    t.resp = t.resp.worst(Resp::Slverr);
                    self.violation(
                        Channel::W,
                        ViolationKind::WlastEarly,
                        format!(
                            "WLAST on beat {} of a {}-beat burst (AW {:#x}, {})",
                            i + 1,
                            t.beats,
                            t.addr,
                            at(beat.cycle)
                        ),
                    );
                } else if !beat.last && last_expected {
                    t.resp = t.resp.worst(Resp::Slverr);
                    self.violation(
                        Channel::W,
                        ViolationKind::WlastMissing,
                        format!(
                            "WLAST missing on the last beat ({}) of the burst at AW {:#x} ({})",
                            t.beats,
                            t.addr,
                            at(beat.cycle)
                        ),
                    );
                }
            }
            if beat.last {
                // The master's framing ends the burst, whatever AWLEN said.
                let rec = &mut self.write_log[t.log];
                rec.resp = t.resp;
                self.b_q.push_back(BResp {
                    id: t.id,
                    resp: t.resp,
                    ready_at: self.cycle + 1 + u64::from(t.latency),
                    log: t.log,
                });
            } else {
                self.aw_q.push_front(t);
            }
        }
    }

    fn write_beat(&mut self, t: &mut WriteTxn, i: u32, beat: &WBeat) {
        if t.bad {
            return;
        }
        let addr = t.addr + u64::from(i) * self.bb as u64;
        if let Some(e) = self.range_error(addr, true) {
            t.resp = t.resp.worst(e);
            return;
        }
        let bb = self.bb;
        let off = (addr % PAGE_BYTES) as usize;
        // Aligned beats never straddle a page (bb divides 4096).
        let page = self.page_mut(addr);
        let mut n = 0;
        for (lane, &byte) in beat.data.iter().enumerate().take(bb) {
            if beat.strb >> lane & 1 != 0 {
                page[off + lane] = byte;
                n += 1;
            }
        }
        self.stats.bytes_written += n;
    }

    fn check_stability(&mut self, m: &MasterSignals) {
        let s = (self.out.arready, self.out.awready, self.out.wready);
        if let Some(prev) = self.hold_ar.take() {
            self.check_addr_hold(Channel::Ar, prev, m.arvalid, m.ar());
        }
        if let Some(prev) = self.hold_aw.take() {
            self.check_addr_hold(Channel::Aw, prev, m.awvalid, m.aw());
        }
        if let Some((data, strb, last)) = self.hold_w.take() {
            if !m.wvalid {
                self.violation(
                    Channel::W,
                    ViolationKind::ValidDropped,
                    "WVALID dropped before WREADY".into(),
                );
            } else if m.wdata != data || m.wstrb != strb || m.wlast != last {
                let lane = data.iter().zip(&m.wdata).position(|(a, b)| a != b);
                self.violation(
                    Channel::W,
                    ViolationKind::PayloadChanged,
                    format!(
                        "W beat changed while WVALID was high and WREADY low (data lane {:?}, strb {:#x} -> {:#x}, last {} -> {})",
                        lane, strb, m.wstrb, last, m.wlast
                    ),
                );
            }
        }
        self.hold_ar = (m.arvalid && !s.0).then(|| m.ar());
        self.hold_aw = (m.awvalid && !s.1).then(|| m.aw());
        self.hold_w = (m.wvalid && !s.2).then(|| (m.wdata.clone(), m.wstrb, m.wlast));
    }

    fn check_addr_hold(&mut self, ch: Channel, prev: AddrBeat, valid: bool, now: AddrBeat) {
        if !valid {
            self.violation(
                ch,
                ViolationKind::ValidDropped,
                format!(
                    "{ch}VALID dropped before {ch}READY (offered {ch}ADDR {:#x} {ch}LEN {})",
                    prev.addr, prev.len
                ),
            );
        } else if now != prev {
            self.violation(
                ch,
                ViolationKind::PayloadChanged,
                format!(
                    "{ch} changed while {ch}VALID was high and {ch}READY low: {prev:?} -> {now:?}"
                ),
            );
        }
    }

    fn count(&mut self, m: &MasterSignals) {
        let s = &self.out;
        let st = &mut self.stats;
        st.cycles += 1;
        st.read_busy_cycles += u64::from(!self.reads.is_empty());
        st.write_busy_cycles +=
            u64::from(!(self.aw_q.is_empty() && self.b_q.is_empty() && self.w_buf.is_empty()));
        st.stalls.ar += u64::from(m.arvalid && !s.arready);
        st.stalls.aw += u64::from(m.awvalid && !s.awready);
        st.stalls.w += u64::from(m.wvalid && !s.wready);
        st.stalls.r += u64::from(s.rvalid && !m.rready);
        st.stalls.b += u64::from(s.bvalid && !m.bready);
    }
}

// ---- Dut binding ----

/// Port indices of an AXI4 master interface on a [`Dut`], looked up once by name
/// (`<prefix>awaddr`, … with prefix `m_axi_` for the DMA engine). `*id`, `*cache` and `*prot`
/// are optional; everything else must exist with its AXI width and direction.
pub struct AxiPorts {
    bb: usize,
    awid: Option<usize>,
    awaddr: usize,
    awlen: usize,
    awsize: usize,
    awburst: usize,
    awcache: Option<usize>,
    awprot: Option<usize>,
    awvalid: usize,
    awready: usize,
    wdata: usize,
    wstrb: usize,
    wlast: usize,
    wvalid: usize,
    wready: usize,
    bid: Option<usize>,
    bresp: usize,
    bvalid: usize,
    bready: usize,
    arid: Option<usize>,
    araddr: usize,
    arlen: usize,
    arsize: usize,
    arburst: usize,
    arcache: Option<usize>,
    arprot: Option<usize>,
    arvalid: usize,
    arready: usize,
    rid: Option<usize>,
    rdata: usize,
    rresp: usize,
    rlast: usize,
    rvalid: usize,
    rready: usize,
    m: MasterSignals,
    words: Vec<u32>,
}

/// Width rule of a port for [`AxiPorts::bind`] and the AXI-Lite binding.
pub(crate) enum Width {
    /// Exactly this many bits.
    Exact(usize),
    /// 1 to this many bits.
    AtMost(usize),
}

/// Looks a port up by name and checks its direction and width.
pub(crate) fn find_port(
    dut: &dyn Dut,
    name: &str,
    dir: Dir,
    width: Width,
) -> Result<usize, String> {
    let i = dut.port(name).map_err(|e| e.to_string())?;
    let p = dut.ports()[i];
    if p.dir != dir {
        return Err(format!(
            "{}.{name} is an {}, expected an {}",
            dut.module(),
            if p.dir == Dir::In { "input" } else { "output" },
            if dir == Dir::In { "input" } else { "output" },
        ));
    }
    let ok = match width {
        Width::Exact(w) => p.width == w,
        Width::AtMost(w) => p.width <= w,
    };
    if !ok {
        let want = match width {
            Width::Exact(w) => format!("{w}"),
            Width::AtMost(w) => format!("at most {w}"),
        };
        return Err(format!(
            "{}.{name} is {} bits, expected {want}",
            dut.module(),
            p.width
        ));
    }
    Ok(i)
}

/// [`find_port`] for an optional port: absent is `None`, present but wrong is an error.
pub(crate) fn find_optional(
    dut: &dyn Dut,
    name: &str,
    dir: Dir,
    width: Width,
) -> Result<Option<usize>, String> {
    if dut.port(name).is_err() {
        return Ok(None);
    }
    find_port(dut, name, dir, width).map(Some)
}

impl AxiPorts {
    /// Binds the AXI4 master ports called `<prefix><signal>`. The data width is taken from
    /// `<prefix>wdata` (a power of two, 32..=1024 bits) and must match `rdata` and `wstrb`.
    pub fn bind(dut: &dyn Dut, prefix: &str) -> Result<Self, String> {
        use Dir::{In, Out};
        use Width::{AtMost, Exact};
        let n = |s: &str| format!("{prefix}{s}");
        let wdata_i = dut.port(&n("wdata")).map_err(|e| e.to_string())?;
        let dw = dut.ports()[wdata_i].width;
        if !(dw.is_power_of_two() && (32..=1024).contains(&dw)) {
            return Err(format!(
                "{}.{} is {dw} bits; the AXI memory model supports powers of two 32..=1024",
                dut.module(),
                n("wdata")
            ));
        }
        let bb = dw / 8;
        let req = |s: &str, d: Dir, w: Width| find_port(dut, &n(s), d, w);
        let opt = |s: &str, d: Dir, w: Width| find_optional(dut, &n(s), d, w);
        Ok(AxiPorts {
            bb,
            awid: opt("awid", Out, AtMost(64))?,
            awaddr: req("awaddr", Out, AtMost(64))?,
            awlen: req("awlen", Out, Exact(8))?,
            awsize: req("awsize", Out, Exact(3))?,
            awburst: req("awburst", Out, Exact(2))?,
            awcache: opt("awcache", Out, AtMost(64))?,
            awprot: opt("awprot", Out, AtMost(64))?,
            awvalid: req("awvalid", Out, Exact(1))?,
            awready: req("awready", In, Exact(1))?,
            wdata: req("wdata", Out, Exact(dw))?,
            wstrb: req("wstrb", Out, Exact(bb))?,
            wlast: req("wlast", Out, Exact(1))?,
            wvalid: req("wvalid", Out, Exact(1))?,
            wready: req("wready", In, Exact(1))?,
            bid: opt("bid", In, AtMost(64))?,
            bresp: req("bresp", In, Exact(2))?,
            bvalid: req("bvalid", In, Exact(1))?,
            bready: req("bready", Out, Exact(1))?,
            arid: opt("arid", Out, AtMost(64))?,
            araddr: req("araddr", Out, AtMost(64))?,
            arlen: req("arlen", Out, Exact(8))?,
            arsize: req("arsize", Out, Exact(3))?,
            arburst: req("arburst", Out, Exact(2))?,
            arcache: opt("arcache", Out, AtMost(64))?,
            arprot: opt("arprot", Out, AtMost(64))?,
            arvalid: req("arvalid", Out, Exact(1))?,
            arready: req("arready", In, Exact(1))?,
            rid: opt("rid", In, AtMost(64))?,
            rdata: req("rdata", In, Exact(dw))?,
            rresp: req("rresp", In, Exact(2))?,
            rlast: req("rlast", In, Exact(1))?,
            rvalid: req("rvalid", In, Exact(1))?,
            rready: req("rready", Out, Exact(1))?,
            m: MasterSignals {
                wdata: vec![0; bb],
                ..Default::default()
            },
            words: vec![0; bb / 4],
        })
    }

    /// Bytes per beat of the bound bus.
    pub fn bus_bytes(&self) -> usize {
        self.bb
    }

    /// Drives the slave's outputs of this cycle from `s` (before the DUT's `eval`).
    pub fn drive_signals(&mut self, s: &SlaveSignals, dut: &mut dyn Dut) {
        set(dut, self.awready, s.awready.into());
        set(dut, self.wready, s.wready.into());
        set(dut, self.arready, s.arready.into());
        set(dut, self.bvalid, s.bvalid.into());
        set(dut, self.rvalid, s.rvalid.into());
        // Payloads only while valid: the wide RDATA copy is the costly one, and the values are
        // don't-care otherwise.
        if s.bvalid {
            set(dut, self.bresp, s.bresp.bits());
            if let Some(p) = self.bid {
                set(dut, p, s.bid);
            }
        }
        if s.rvalid {
            set(dut, self.rresp, s.rresp.bits());
            set(dut, self.rlast, s.rlast.into());
            if let Some(p) = self.rid {
                set(dut, p, s.rid);
            }
            for (w, c) in self.words.iter_mut().zip(s.rdata.chunks(4)) {
                *w = u32::from_le_bytes(c.try_into().expect("bus bytes are a multiple of 4"));
            }
            dut.set_words(self.rdata, &self.words)
                .expect("port checked at bind");
        }
    }

    /// Drives every slave output low (for reset, before the model runs).
    pub fn drive_idle(&mut self, dut: &mut dyn Dut) {
        for p in [
            self.awready,
            self.wready,
            self.arready,
            self.bvalid,
            self.rvalid,
            self.rlast,
            self.bresp,
            self.rresp,
        ] {
            set(dut, p, 0);
        }
    }

    /// Reads the master's outputs (after the DUT's `eval`). Address fields are read only while
    /// their valid is high, W data only while `wvalid` is (the rest keep their last values).
    pub fn master_signals(&mut self, dut: &dyn Dut) -> &MasterSignals {
        let m = &mut self.m;
        m.awvalid = get(dut, self.awvalid) != 0;
        m.wvalid = get(dut, self.wvalid) != 0;
        m.arvalid = get(dut, self.arvalid) != 0;
        m.bready = get(dut, self.bready) != 0;
        m.rready = get(dut, self.rready) != 0;
        let opt = |p: Option<usize>| p.map_or(0, |p| get(dut, p));
        if m.awvalid {
            m.awid = opt(self.awid);
            m.awaddr = get(dut, self.awaddr);
            m.awlen = get(dut, self.awlen);
            m.awsize = get(dut, self.awsize);
            m.awburst = get(dut, self.awburst);
            m.awcache = opt(self.awcache);
            m.awprot = opt(self.awprot);
        }
        if m.arvalid {
            m.arid = opt(self.arid);
            m.araddr = get(dut, self.araddr);
            m.arlen = get(dut, self.arlen);
            m.arsize = get(dut, self.arsize);
            m.arburst = get(dut, self.arburst);
            m.arcache = opt(self.arcache);
            m.arprot = opt(self.arprot);
        }
        if m.wvalid {
            dut.get_words(self.wdata, &mut self.words)
                .expect("port checked at bind");
            for (c, w) in m.wdata.chunks_mut(4).zip(&self.words) {
                c.copy_from_slice(&w.to_le_bytes());
            }
            let mut sw = [0u32; 4];
            let n = self.bb.div_ceil(32);
            dut.get_words(self.wstrb, &mut sw[..n])
                .expect("port checked at bind");
            m.wstrb = sw
                .iter()
                .enumerate()
                .fold(0, |a, (i, &w)| a | (u128::from(w) << (32 * i)));
            m.wlast = get(dut, self.wlast) != 0;
        }
        &self.m
    }

    /// One cycle's first half: [`AxiMemory::drive`] into the DUT.
    pub fn drive(&mut self, mem: &mut AxiMemory, dut: &mut dyn Dut) {
        let s = mem.drive();
        self.drive_signals(s, dut);
    }

    /// One cycle's second half: [`AxiMemory::sample`] with the DUT's outputs.
    pub fn sample(&mut self, mem: &mut AxiMemory, dut: &dyn Dut) -> Result<(), Violation> {
        self.master_signals(dut);
        mem.sample(&self.m)
    }
}

// Ports are checked at bind (direction, width ≤ 64), so a failing access is a bridge bug.
fn set(dut: &mut dyn Dut, port: usize, v: u64) {
    dut.set_u64(port, v).expect("port checked at bind");
}

fn get(dut: &dyn Dut, port: usize) -> u64 {
    dut.get_u64(port).expect("port checked at bind")
}

/// An [`AxiMemory`] bound to a DUT's AXI4 master port: the per-cycle calls of the
/// [module documentation](self) in one place.
///
/// ```ignore
/// let mut slave = AxiSlave::new(&*dut, "m_axi_", AxiMemConfig::random(1024, seed))?;
/// loop {
///     slave.drive(&mut *dut);
///     dut.eval();
///     slave.sample(&*dut)?;
///     dut.tick();
/// }
/// ```
pub struct AxiSlave {
    /// The model: backdoor access, statistics, logs, violations.
    pub mem: AxiMemory,
    /// The port binding.
    pub ports: AxiPorts,
}

impl AxiSlave {
    /// Binds `<prefix>*` of `dut` to a new memory; the configured data width must match the
    /// ports'.
    pub fn new(dut: &dyn Dut, prefix: &str, cfg: AxiMemConfig) -> Result<Self, String> {
        let ports = AxiPorts::bind(dut, prefix)?;
        if ports.bus_bytes() != cfg.bus_bytes() {
            return Err(format!(
                "{}.{prefix}wdata is {} bits but the memory is configured for {}",
                dut.module(),
                ports.bus_bytes() * 8,
                cfg.data_bits
            ));
        }
        Ok(AxiSlave {
            mem: AxiMemory::new(cfg),
            ports,
        })
    }

    /// Drives the slave's outputs of this cycle (before `eval`).
    pub fn drive(&mut self, dut: &mut dyn Dut) {
        self.ports.drive(&mut self.mem, dut);
    }

    /// Samples the master's outputs and advances (after `eval`, before `tick`).
    pub fn sample(&mut self, dut: &dyn Dut) -> Result<(), Violation> {
        self.ports.sample(&mut self.mem, dut)
    }
}

/// A pure-Rust [`Dut`] with a given port list and no logic, for testing port bindings: the
/// test plays the design by writing its outputs with [`fake::FakeDut::poke`] and reading the
/// testbench-driven inputs with [`fake::FakeDut::peek`].
#[cfg(test)]
pub(crate) mod fake {
    use cdma_sim::{Dir, Dut, PortInfo, SimError};
    use std::path::Path;

    /// A port of `width` bits.
    pub(crate) fn port(name: &'static str, width: usize, dir: Dir) -> PortInfo {
        PortInfo {
            name,
            width,
            dir,
            doc: "",
        }
    }

    pub(crate) struct FakeDut {
        ports: &'static [PortInfo],
        vals: Vec<Vec<u32>>,
    }

    impl FakeDut {
        pub(crate) fn new(ports: Vec<PortInfo>) -> Self {
            let ports: &'static [PortInfo] = Box::leak(ports.into_boxed_slice());
            FakeDut {
                vals: ports.iter().map(|p| vec![0; p.words()]).collect(),
                ports,
            }
        }

        fn index(&self, name: &str) -> usize {
            self.port(name)
                .unwrap_or_else(|_| panic!("fake DUT has no port {name}"))
        }

        /// Sets any port (outputs included: the test is the design).
        pub(crate) fn poke(&mut self, name: &str, v: u64) {
            let i = self.index(name);
            let w = &mut self.vals[i];
            w[0] = v as u32;
            if w.len() > 1 {
                w[1] = (v >> 32) as u32;
            }
        }

        pub(crate) fn poke_words(&mut self, name: &str, words: &[u32]) {
            let i = self.index(name);
            self.vals[i].copy_from_slice(words);
        }

        pub(crate) fn peek(&self, name: &str) -> u64 {
            let w = &self.vals[self.index(name)];
            u64::from(w[0]) | w.get(1).map_or(0, |&x| u64::from(x) << 32)
        }

        pub(crate) fn peek_words(&self, name: &str) -> Vec<u32> {
            self.vals[self.index(name)].clone()
        }
    }

    impl Dut for FakeDut {
        fn module(&self) -> &'static str {
            "fake"
        }
        fn ports(&self) -> &'static [PortInfo] {
            self.ports
        }
        fn params(&self) -> &'static [(&'static str, u64)] {
            &[]
        }
        fn eval(&mut self) {}
        fn tick(&mut self) {}
        fn time(&self) -> u64 {
            0
        }
        fn trace_vcd(&mut self, _: &Path) -> Result<(), SimError> {
            Ok(())
        }
        fn close_trace(&mut self) {}
        fn set_words(&mut self, port: usize, words: &[u32]) -> Result<(), SimError> {
            let p = self.ports[port];
            // The same contract as the generated wrappers: inputs only, exact word count.
            if p.dir != Dir::In {
                return Err(SimError::NotAnInput {
                    module: "fake",
                    port: p.name,
                });
            }
            if words.len() != p.words() {
                return Err(SimError::WordCount {
                    module: "fake",
                    port: p.name,
                    width: p.width,
                    expected: p.words(),
                    got: words.len(),
                });
            }
            self.vals[port].copy_from_slice(words);
            Ok(())
        }
        fn get_words(&self, port: usize, words: &mut [u32]) -> Result<(), SimError> {
            words.copy_from_slice(&self.vals[port]);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fake::{port, FakeDut};
    use super::*;
    use crate::watchdog::Watchdog;
    use cdma_sim::PortInfo;

    #[derive(Clone, Debug)]
    struct ReadReq {
        id: u64,
        addr: u64,
        beats: u32,
    }

    #[derive(Clone, Debug, Default)]
    struct ReadDone {
        id: u64,
        addr: u64,
        beats: u32,
        data: Vec<u8>,
        resps: Vec<Resp>,
        ar_cycle: u64,
        first_r: u64,
        last_r: u64,
        /// Idle cycles between beats of this burst.
        gaps: u64,
    }

    #[derive(Clone, Debug)]
    struct WriteReq {
        id: u64,
        addr: u64,
        data: Vec<u8>,
        strb: Vec<u128>,
    }

    #[derive(Clone, Debug, Default)]
    struct WriteDone {
        id: u64,
        resp: Resp,
        aw_cycle: u64,
        b_cycle: u64,
    }

    /// A small AXI4 master for the unit tests: issues queued reads and writes with optional
    /// random valid delays and ready drops, checks RID/BID/RLAST, records timing.
    struct TestMaster {
        bb: usize,
        rng: ChaCha8Rng,
        p_valid: f64,
        p_ready: f64,
        max_reads: usize,
        max_writes: usize,
        /// Offer each AW only after its W beats were all accepted (W before AW).
        aw_after_w: bool,
        cycle: u64,
        out: MasterSignals,
        ar_todo: VecDeque<ReadReq>,
        r_wait: VecDeque<ReadDone>,
        reads: Vec<ReadDone>,
        aw_todo: VecDeque<(u64, u64, u32)>,
        w_todo: VecDeque<(Vec<u8>, u128, bool)>,
        aw_sent: usize,
        w_last_cycles: Vec<u64>,
        b_wait: VecDeque<WriteDone>,
        writes: Vec<WriteDone>,
        max_reads_seen: usize,
        /// valid && !ready cycles seen on AR, AW, W.
        waits: [u64; 3],
    }

    impl TestMaster {
        fn new(bb: usize, seed: u64) -> Self {
            TestMaster {
                bb,
                rng: ChaCha8Rng::seed_from_u64(seed),
                p_valid: 0.0,
                p_ready: 0.0,
                max_reads: 4,
                max_writes: 4,
                aw_after_w: false,
                cycle: 0,
                out: MasterSignals {
                    wdata: vec![0; bb],
                    ..Default::default()
                },
                ar_todo: VecDeque::new(),
                r_wait: VecDeque::new(),
                reads: Vec::new(),
                aw_todo: VecDeque::new(),
                w_todo: VecDeque::new(),
                aw_sent: 0,
                w_last_cycles: Vec::new(),
                b_wait: VecDeque::new(),
                writes: Vec::new(),
                max_reads_seen: 0,
                waits: [0; 3],
            }
        }

        fn read(&mut self, id: u64, addr: u64, beats: u32) {
            self.ar_todo.push_back(ReadReq { id, addr, beats });
        }

        fn write(&mut self, w: &WriteReq) {
            let beats = w.strb.len();
            assert_eq!(w.data.len(), beats * self.bb);
            self.aw_todo.push_back((w.id, w.addr, beats as u32));
            for (i, (d, &s)) in w.data.chunks(self.bb).zip(&w.strb).enumerate() {
                self.w_todo.push_back((d.to_vec(), s, i + 1 == beats));
            }
        }

        fn flip(&mut self, p: f64) -> bool {
            p > 0.0 && self.rng.gen_bool(p)
        }

        fn outputs(&mut self) -> MasterSignals {
            let size = u64::from(self.bb.trailing_zeros());
            let go = !self.flip(self.p_valid);
            if !self.out.arvalid && go && self.r_wait.len() < self.max_reads {
                if let Some(r) = self.ar_todo.front() {
                    let o = &mut self.out;
                    (o.arid, o.araddr, o.arlen) = (r.id, r.addr, u64::from(r.beats - 1));
                    (o.arsize, o.arburst, o.arvalid) = (size, 1, true);
                }
            }
            let go = !self.flip(self.p_valid);
            let w_ok = !self.aw_after_w || self.w_last_cycles.len() > self.aw_sent;
            if !self.out.awvalid && go && w_ok && self.b_wait.len() < self.max_writes {
                if let Some(&(id, addr, beats)) = self.aw_todo.front() {
                    let o = &mut self.out;
                    (o.awid, o.awaddr, o.awlen) = (id, addr, u64::from(beats - 1));
                    (o.awsize, o.awburst, o.awvalid) = (size, 1, true);
                }
            }
            let go = !self.flip(self.p_valid);
            if !self.out.wvalid && go {
                if let Some((d, s, l)) = self.w_todo.front() {
                    self.out.wdata.clone_from(d);
                    (self.out.wstrb, self.out.wlast, self.out.wvalid) = (*s, *l, true);
                }
            }
            self.out.rready = !self.flip(self.p_ready);
            self.out.bready = !self.flip(self.p_ready);
            self.out.clone()
        }

        fn update(&mut self, s: &SlaveSignals) {
            let c = self.cycle;
            let m = self.out.clone();
            self.waits[0] += u64::from(m.arvalid && !s.arready);
            self.waits[1] += u64::from(m.awvalid && !s.awready);
            self.waits[2] += u64::from(m.wvalid && !s.wready);
            if m.arvalid && s.arready {
                let r = self.ar_todo.pop_front().expect("offered");
                self.r_wait.push_back(ReadDone {
                    id: r.id,
                    addr: r.addr,
                    beats: r.beats,
                    ar_cycle: c,
                    ..Default::default()
                });
                self.out.arvalid = false;
            }
            if m.awvalid && s.awready {
                let (id, _, _) = self.aw_todo.pop_front().expect("offered");
                self.b_wait.push_back(WriteDone {
                    id,
                    aw_cycle: c,
                    ..Default::default()
                });
                self.aw_sent += 1;
                self.out.awvalid = false;
            }
            if m.wvalid && s.wready {
                let (_, _, last) = self.w_todo.pop_front().expect("offered");
                if last {
                    self.w_last_cycles.push(c);
                }
                self.out.wvalid = false;
            }
            if s.rvalid && m.rready {
                let rd = self
                    .r_wait
                    .front_mut()
                    .expect("R beat with no read outstanding");
                assert_eq!(s.rid, rd.id, "RID of the read at {:#x}", rd.addr);
                if rd.resps.is_empty() {
                    rd.first_r = c;
                } else {
                    rd.gaps += c - rd.last_r - 1;
                }
                rd.last_r = c;
                rd.data.extend_from_slice(&s.rdata);
                rd.resps.push(s.rresp);
                let done = rd.resps.len() == rd.beats as usize;
                assert_eq!(
                    s.rlast,
                    done,
                    "RLAST on beat {} of {}",
                    rd.resps.len(),
                    rd.beats
                );
                if done {
                    let rd = self.r_wait.pop_front().expect("front exists");
                    self.reads.push(rd);
                }
            }
            if s.bvalid && m.bready {
                let mut w = self
                    .b_wait
                    .pop_front()
                    .expect("B with no write outstanding");
                assert_eq!(s.bid, w.id, "BID");
                (w.resp, w.b_cycle) = (s.bresp, c);
                self.writes.push(w);
            }
            self.max_reads_seen = self.max_reads_seen.max(self.r_wait.len());
            self.cycle += 1;
        }

        fn done(&self) -> bool {
            self.ar_todo.is_empty()
                && self.aw_todo.is_empty()
                && self.w_todo.is_empty()
                && self.r_wait.is_empty()
                && self.b_wait.is_empty()
        }
    }

    /// Runs until the master has nothing left, then checks the model is idle.
    fn run(mem: &mut AxiMemory, m: &mut TestMaster, limit: u64) -> Result<u64, TbError> {
        let mut wd = Watchdog::new(limit);
        while !m.done() {
            wd.tick(|| mem.pending())?;
            let s = mem.drive().clone();
            let ms = m.outputs();
            mem.sample(&ms)?;
            m.update(&s);
        }
        mem.check_idle()?;
        Ok(wd.cycles())
    }

    fn bytes(rng: &mut ChaCha8Rng, n: usize) -> Vec<u8> {
        (0..n).map(|_| rng.gen()).collect()
    }

    /// A random write of `beats` beats at `addr`; strobes mix full, empty and random beats.
    fn random_write(rng: &mut ChaCha8Rng, bb: usize, id: u64, addr: u64, beats: usize) -> WriteReq {
        let all = if bb == 128 {
            u128::MAX
        } else {
            (1u128 << bb) - 1
        };
        let strb = (0..beats)
            .map(|_| match rng.gen_range(0..4) {
                0 => 0,
                1 => rng.gen::<u128>() & all,
                _ => all,
            })
            .collect();
        WriteReq {
            id,
            addr,
            data: bytes(rng, beats * bb),
            strb,
        }
    }

    /// Applies a write to a shadow of memory starting at `base`.
    fn apply(shadow: &mut [u8], base: u64, w: &WriteReq, bb: usize) {
        for (i, &s) in w.strb.iter().enumerate() {
            for lane in 0..bb {
                if s >> lane & 1 != 0 {
                    let a = (w.addr - base) as usize + i * bb + lane;
                    shadow[a] = w.data[i * bb + lane];
                }
            }
        }
    }

    #[test]
    fn bursts_of_every_length_round_trip_with_strobes_at_every_width() {
        for (bits, seed) in [(128u32, 1u64), (256, 2), (512, 3), (1024, 4)] {
            let mut cfg = AxiMemConfig::random(bits, seed);
            cfg.fill = 0xA5;
            cfg.read_latency = (0, 20);
            cfg.write_latency = (0, 20);
            let bb = cfg.bus_bytes();
            let mut mem = AxiMemory::new(cfg);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // A 64-bit base: the high address bits must survive.
            let base = 0x1234_5678_0000_0000u64;
            let region = 16 * PAGE_BYTES as usize;
            let mut shadow = vec![0xA5u8; region];
            let max = (PAGE_BYTES as usize / bb).min(256);
            let lens = [1, 2, 3, 7, 16, max - 1, max, max];
            let mut m = TestMaster::new(bb, seed);
            m.p_valid = 0.3;
            m.p_ready = 0.3;
            let mut written = 0u64;
            let mut reqs = Vec::new();
            for (k, &len) in lens.iter().enumerate() {
                let page = rng.gen_range(0..16) as u64 * PAGE_BYTES;
                let off = rng.gen_range(0..=(max - len)) * bb;
                let w = random_write(&mut rng, bb, k as u64 & 1, base + page + off as u64, len);
                apply(&mut shadow, base, &w, bb);
                written += w
                    .strb
                    .iter()
                    .map(|s| u64::from(s.count_ones()))
                    .sum::<u64>();
                m.write(&w);
                reqs.push((w.addr, len as u32));
            }
            run(&mut mem, &mut m, 100_000).unwrap();
            assert!(m.writes.iter().all(|w| w.resp == Resp::Okay));
            assert_eq!(mem.stats().bytes_written, written);
            for (k, &(addr, beats)) in reqs.iter().enumerate() {
                m.read(k as u64 & 1, addr, beats);
            }
            run(&mut mem, &mut m, 100_000).unwrap();
            for r in &m.reads {
                let off = (r.addr - base) as usize;
                assert!(r.resps.iter().all(|&x| x == Resp::Okay));
                assert!(
                    r.data == shadow[off..off + r.data.len()],
                    "bus {bits}: read of {} beats at {:#x} differs from what was written",
                    r.beats,
                    r.addr
                );
            }
            assert_eq!(mem.read_bytes(base, region), shadow, "bus {bits}: backdoor");
            // Untouched memory reads as the fill byte.
            assert_eq!(mem.read_bytes(0, 3), vec![0xA5; 3]);
            assert_eq!(
                mem.stats().r_beats,
                reqs.iter().map(|r| u64::from(r.1)).sum::<u64>()
            );
        }
    }

    #[test]
    fn w_beats_may_precede_their_aw() {
        let mut mem = AxiMemory::new(AxiMemConfig::random(256, 9));
        let mut m = TestMaster::new(32, 9);
        m.aw_after_w = true;
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let ws: Vec<_> = (0..4)
            .map(|k| random_write(&mut rng, 32, 0, 0x8000 + k * 0x200, 16))
            .collect();
        ws.iter().for_each(|w| m.write(w));
        run(&mut mem, &mut m, 100_000).unwrap();
        for (k, w) in ws.iter().enumerate() {
            // Each AW really came after all its data.
            assert!(mem.write_log()[k].accepted > m.w_last_cycles[k]);
            let mut shadow = vec![0u8; w.data.len()];
            apply(&mut shadow, w.addr, w, 32);
            assert_eq!(mem.read_bytes(w.addr, shadow.len()), shadow);
        }
    }

    #[test]
    fn latency_is_drawn_within_the_configured_range() {
        let mut cfg = AxiMemConfig::random(256, 5);
        cfg.stalls = Stalls::none();
        cfg.read_latency = (5, 60);
        cfg.write_latency = (3, 40);
        let mut mem = AxiMemory::new(cfg);
        let mut m = TestMaster::new(32, 5);
        // One at a time, so no request queues behind another.
        (m.max_reads, m.max_writes) = (1, 1);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for k in 0..200u64 {
            m.read(0, k * 128, rng.gen_range(1..=4));
            m.write(&random_write(&mut rng, 32, 0, k * 128, 2));
        }
        run(&mut mem, &mut m, 100_000).unwrap();
        let lat: Vec<u64> = m.reads.iter().map(|r| r.first_r - r.ar_cycle - 1).collect();
        let (lo, hi) = (*lat.iter().min().unwrap(), *lat.iter().max().unwrap());
        assert!(
            lo >= 5 && hi <= 60,
            "read latency {lo}..={hi} outside 5..=60"
        );
        assert!(
            lo <= 8 && hi >= 57,
            "read latency {lo}..={hi} does not span 5..=60"
        );
        // The model's own record agrees with what the master saw.
        for (r, rec) in m.reads.iter().zip(mem.read_log()) {
            assert_eq!(rec.first_data, Some(r.first_r));
        }
        // B latency counts from the cycle after the last W beat (or AW, if later).
        let blat: Vec<u64> = m
            .writes
            .iter()
            .zip(&m.w_last_cycles)
            .map(|(w, &wl)| w.b_cycle - wl.max(w.aw_cycle) - 1)
            .collect();
        let (lo, hi) = (*blat.iter().min().unwrap(), *blat.iter().max().unwrap());
        assert!(
            lo >= 3 && hi <= 40,
            "write latency {lo}..={hi} outside 3..=40"
        );
        assert!(
            lo <= 6 && hi >= 37,
            "write latency {lo}..={hi} does not span 3..=40"
        );
    }

    /// Runs a mixed read/write load with `p` backpressure on the model and the master.
    fn backpressure_run(p: f64) -> (AxiStats, TestMaster) {
        let mut cfg = AxiMemConfig::random(512, 21);
        cfg.stalls = Stalls::all(p);
        cfg.read_latency = (0, 4);
        cfg.write_latency = (0, 4);
        let mut mem = AxiMemory::new(cfg);
        let mut m = TestMaster::new(64, 21);
        m.p_ready = p;
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        for k in 0..40u64 {
            m.write(&random_write(&mut rng, 64, k & 1, k * 0x400, 8));
            m.read(k & 1, k * 0x400, 8);
        }
        run(&mut mem, &mut m, 100_000).unwrap();
        (*mem.stats(), m)
    }

    #[test]
    fn backpressure_is_seen_on_every_channel() {
        let (st, m) = backpressure_run(0.3);
        let s = st.stalls;
        assert!(s.ar > 0 && s.aw > 0 && s.w > 0, "ready stalls {s:?}");
        assert!(st.gaps.r > 0 && st.gaps.b > 0, "valid gaps {:?}", st.gaps);
        // The master's own ready drops are counted as R/B stalls.
        assert!(s.r > 0 && s.b > 0, "{s:?}");
        // And the master saw them: waits on AR/AW/W, gaps inside read bursts.
        assert!(m.waits.iter().all(|&w| w > 0), "{:?}", m.waits);
        assert!(m.reads.iter().any(|r| r.gaps > 0));
        assert_eq!([s.ar, s.aw, s.w], m.waits);
        // Control: with p = 0 nothing stalls, so the checks above can fail.
        let (st, m) = backpressure_run(0.0);
        assert_eq!(st.stalls, PerChannel::default());
        assert_eq!(st.gaps, PerChannel::default());
        assert_eq!(m.waits, [0; 3]);
        assert!(m.reads.iter().all(|r| r.gaps == 0));
    }

    #[test]
    fn error_ranges_answer_exactly_the_overlapping_beats() {
        let mut cfg = AxiMemConfig::random(512, 3);
        cfg.fill = 0x11;
        let mut mem = AxiMemory::new(cfg);
        let old: Vec<u8> = (0..0x1000u32).map(|i| (i * 7) as u8).collect();
        mem.write_bytes(0x1000, &old);
        mem.add_error(ErrorRange::new(0x1050, 0x10C1, Resp::Slverr, Access::Read));
        mem.add_error(ErrorRange::new(0x1300, 0x1340, Resp::Decerr, Access::Both));
        mem.add_error(ErrorRange::new(0x1400, 0x1401, Resp::Slverr, Access::Write));
        let mut m = TestMaster::new(64, 3);
        m.read(0, 0x1000, 16); // 0x1000..0x1400
        m.read(1, 0x1400, 1); // write-only range there: OKAY
        run(&mut mem, &mut m, 100_000).unwrap();
        let r = &m.reads[0];
        for (i, &resp) in r.resps.iter().enumerate() {
            let want = match i {
                1..=3 => Resp::Slverr,
                12 => Resp::Decerr,
                _ => Resp::Okay,
            };
            assert_eq!(resp, want, "beat {i}");
            let got = &r.data[i * 64..(i + 1) * 64];
            if want.is_err() {
                assert_eq!(got, &[0u8; 64][..], "error beat {i} carries data");
            } else {
                assert_eq!(got, &old[i * 64..(i + 1) * 64], "beat {i}");
            }
        }
        assert_eq!(mem.read_log()[0].resp, Resp::Decerr);
        assert_eq!(m.reads[1].resps, vec![Resp::Okay]);

        // Writes: 0x1280..0x1480; beat 2 (0x1300) hits DECERR, beat 6 (0x1400) both
        // write-only range; B carries the worst, those beats keep their old bytes.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let w = WriteReq {
            id: 1,
            addr: 0x1280,
            data: bytes(&mut rng, 8 * 64),
            strb: vec![u128::from(u64::MAX); 8],
        };
        m.write(&w);
        // A read-only error range does not affect writes.
        let w2 = random_write(&mut rng, 64, 0, 0x1040, 2);
        m.write(&w2);
        run(&mut mem, &mut m, 100_000).unwrap();
        assert_eq!(m.writes[0].resp, Resp::Decerr);
        assert_eq!(m.writes[1].resp, Resp::Okay);
        for i in 0..8usize {
            let a = 0x1280 + 64 * i as u64;
            let now = mem.read_bytes(a, 64);
            let expect = if i == 2 || i == 6 {
                &old[(a - 0x1000) as usize..][..64]
            } else {
                &w.data[i * 64..][..64]
            };
            assert_eq!(now, expect, "beat {i} at {a:#x}");
        }
        let mut shadow = old[0x40..0xC0].to_vec();
        apply(&mut shadow, 0x1040, &w2, 64);
        assert_eq!(mem.read_bytes(0x1040, 128), shadow);
    }

    #[test]
    fn outstanding_reads_complete_in_order() {
        let mut cfg = AxiMemConfig::random(256, 77);
        cfg.stalls = Stalls::all(0.1);
        let mut mem = AxiMemory::new(cfg);
        let image: Vec<u8> = bytes(&mut ChaCha8Rng::seed_from_u64(1), 0x10000);
        mem.write_bytes(0x40_0000, &image);
        let mut m = TestMaster::new(32, 77);
        m.max_reads = 8;
        let mut rng = ChaCha8Rng::seed_from_u64(77);
        let mut issued = Vec::new();
        for k in 0..40u64 {
            let addr = 0x40_0000 + rng.gen_range(0..16) * 0x1000 + rng.gen_range(0..64) * 32;
            let room = (0x1000 - addr % 0x1000) / 32;
            let beats = rng.gen_range(1..=room.min(16));
            m.read(k % 2, addr, beats as u32);
            issued.push((addr, beats));
        }
        let cycles = run(&mut mem, &mut m, 100_000).unwrap();
        assert!(
            m.max_reads_seen >= 4,
            "only {} reads overlapped",
            m.max_reads_seen
        );
        // Serial reads would take at least the sum of the latencies.
        let serial: u64 = mem
            .read_log()
            .iter()
            .map(|r| r.first_data.unwrap() - r.accepted)
            .sum();
        assert!(
            cycles < serial,
            "{cycles} cycles, latencies alone sum to {serial}"
        );
        for (r, &(addr, beats)) in m.reads.iter().zip(&issued) {
            assert_eq!((r.addr, u64::from(r.beats)), (addr, beats), "out of order");
            let off = (addr - 0x40_0000) as usize;
            assert_eq!(r.data, image[off..off + r.data.len()], "read at {addr:#x}");
        }
    }

    #[test]
    fn fixed_latency_mode_takes_exactly_latency_plus_beats() {
        for beats in [1u32, 2, 16, 32] {
            let mut mem = AxiMemory::new(AxiMemConfig::fixed(1024, 100));
            let mut m = TestMaster::new(128, 0);
            m.read(0, 0x2000, beats);
            m.write(&random_write(
                &mut ChaCha8Rng::seed_from_u64(0),
                128,
                0,
                0x3000,
                beats as usize,
            ));
            run(&mut mem, &mut m, 10_000).unwrap();
            let r = &m.reads[0];
            assert_eq!(
                r.last_r - r.ar_cycle,
                100 + u64::from(beats),
                "{beats} beats"
            );
            assert_eq!(r.gaps, 0);
            let st = mem.stats();
            assert_eq!(st.read_busy_cycles, 100 + u64::from(beats));
            assert_eq!(
                st.read_utilisation(),
                f64::from(beats) / f64::from(100 + beats)
            );
            // Always ready: AW and all W beats in consecutive cycles from cycle 0, B 101
            // cycles after the last W beat.
            assert_eq!(m.w_last_cycles[0], u64::from(beats) - 1);
            assert_eq!(m.writes[0].b_cycle, m.w_last_cycles[0] + 101);
        }
    }

    #[test]
    fn same_seed_same_run_other_seed_other_run() {
        let go = |seed| {
            let mut mem = AxiMemory::new(AxiMemConfig::random(256, seed));
            let mut m = TestMaster::new(32, 1);
            for k in 0..20u64 {
                m.read(0, k * 0x100, 8);
            }
            run(&mut mem, &mut m, 100_000).unwrap()
        };
        assert_eq!(go(1), go(1));
        assert_ne!(go(1), go(2));
    }

    #[test]
    fn a_hang_names_what_is_outstanding() {
        let mut cfg = AxiMemConfig::fixed(256, 0);
        cfg.stalls.r = 1.0; // R never presented
        let mut mem = AxiMemory::new(cfg);
        let mut m = TestMaster::new(32, 0);
        m.read(0, 0x1000, 4);
        m.read(1, 0x2000, 4);
        let e = run(&mut mem, &mut m, 500).unwrap_err().to_string();
        assert!(e.starts_with("hang:") && e.contains("500 cycles"), "{e}");
        assert!(
            e.contains("2 read(s) outstanding (oldest: AR 0x1000 x4 beats accepted at cycle 0, 0 beat(s) returned)"),
            "{e}"
        );
        assert!(e.contains("last handshake AR at cycle 1"), "{e}");
    }

    #[test]
    fn reset_bus_drops_what_is_in_flight_and_keeps_memory() {
        let mut mem = AxiMemory::new(AxiMemConfig::fixed(256, 5));
        mem.write_bytes(0x100, &[9; 32]);
        step(&mut mem, &ar(32, 0x100, 3, 5, 1)).unwrap();
        step(&mut mem, &aw(32, 0x200, 1)).unwrap();
        step(&mut mem, &w(32, 1, false)).unwrap();
        assert!(!mem.is_idle());
        mem.reset_bus();
        assert!(mem.is_idle());
        mem.check_idle().unwrap();
        // Nothing of the old read comes back; the half-written burst stays half written.
        for _ in 0..20 {
            assert!(!mem.drive().rvalid);
            mem.sample(&idle(32)).unwrap();
        }
        assert_eq!(mem.read_bytes(0x100, 32), vec![9; 32]);
        assert_eq!(mem.read_bytes(0x200, 64), [[1u8; 32], [0; 32]].concat());
    }

    // ---- protocol checks, one rule per test, driven by scripted signals ----

    /// Master signals with both response readies high and nothing valid.
    fn idle(bb: usize) -> MasterSignals {
        MasterSignals {
            wdata: vec![0; bb],
            rready: true,
            bready: true,
            ..Default::default()
        }
    }

    fn ar(bb: usize, addr: u64, len: u64, size: u64, burst: u64) -> MasterSignals {
        MasterSignals {
            arvalid: true,
            araddr: addr,
            arlen: len,
            arsize: size,
            arburst: burst,
            ..idle(bb)
        }
    }

    fn aw(bb: usize, addr: u64, len: u64) -> MasterSignals {
        MasterSignals {
            awvalid: true,
            awaddr: addr,
            awlen: len,
            awsize: u64::from(bb.trailing_zeros()),
            awburst: 1,
            ..idle(bb)
        }
    }

    fn w(bb: usize, byte: u8, last: bool) -> MasterSignals {
        MasterSignals {
            wvalid: true,
            wdata: vec![byte; bb],
            wstrb: u128::MAX >> (128 - bb),
            wlast: last,
            ..idle(bb)
        }
    }

    fn step(mem: &mut AxiMemory, m: &MasterSignals) -> Result<(), Violation> {
        mem.drive();
        mem.sample(m)
    }

    /// Steps idle cycles until B or the last R beat is taken; returns the responses seen.
    fn drain(mem: &mut AxiMemory) -> (Vec<Resp>, Vec<Vec<u8>>, Option<Resp>) {
        let (mut r, mut data, mut b) = (Vec::new(), Vec::new(), None);
        for _ in 0..1000 {
            let s = mem.drive().clone();
            if s.rvalid {
                r.push(s.rresp);
                data.push(s.rdata.clone());
            }
            if s.bvalid {
                b = Some(s.bresp);
            }
            mem.sample(&idle(mem.bus_bytes())).unwrap();
            if mem.is_idle() {
                break;
            }
        }
        (r, data, b)
    }

    fn expect(r: Result<(), Violation>, kind: ViolationKind, ch: Channel, text: &str) {
        let v = r.expect_err("violation expected");
        assert_eq!((v.kind, v.channel), (kind, ch), "{v}");
        assert!(v.to_string().contains(text), "{v:?} does not say {text:?}");
    }

    fn fast(bits: u32) -> AxiMemory {
        AxiMemory::new(AxiMemConfig::fixed(bits, 0))
    }

    #[test]
    fn burst_crossing_4k_is_caught_and_answered_with_slverr() {
        let mut mem = fast(512);
        // 0xF80 + 2 x 64 = 0x1000 exactly: legal.
        step(&mut mem, &ar(64, 0xF80, 1, 6, 1)).unwrap();
        let (r, _, _) = drain(&mut mem);
        assert_eq!(r, vec![Resp::Okay; 2]);
        let e = step(&mut mem, &ar(64, 0xFC0, 1, 6, 1));
        expect(
            e,
            ViolationKind::Crosses4K,
            Channel::Ar,
            "crosses a 4 KiB boundary",
        );
        let (r, data, _) = drain(&mut mem);
        assert_eq!(r, vec![Resp::Slverr; 2]);
        assert!(data.iter().all(|d| d.iter().all(|&b| b == 0)));
        // Same rule on AW; the burst is not written and B is SLVERR.
        let e = step(&mut mem, &aw(64, 0x1FC0, 1));
        expect(e, ViolationKind::Crosses4K, Channel::Aw, "0x1fc0");
        step(&mut mem, &w(64, 0xEE, false)).unwrap();
        step(&mut mem, &w(64, 0xEE, true)).unwrap();
        let (_, _, b) = drain(&mut mem);
        assert_eq!(b, Some(Resp::Slverr));
        assert_eq!(mem.read_bytes(0x1FC0, 128), vec![0; 128]);
    }

    #[test]
    fn axlen_over_255_is_caught() {
        let mut mem = fast(32);
        step(&mut mem, &ar(4, 0, 255, 2, 1)).unwrap();
        let e = step(&mut mem, &ar(4, 0x2000, 256, 2, 1));
        expect(
            e,
            ViolationKind::LenTooLarge,
            Channel::Ar,
            "ARLEN 256 above 255",
        );
    }

    #[test]
    fn axsize_other_than_the_bus_width_is_caught() {
        let mut mem = fast(256);
        let e = step(&mut mem, &ar(32, 0, 0, 4, 1));
        expect(
            e,
            ViolationKind::BadSize,
            Channel::Ar,
            "ARSIZE 4 (16 bytes)",
        );
        let mut m = aw(32, 0, 0);
        m.awsize = 6;
        expect(
            step(&mut mem, &m),
            ViolationKind::BadSize,
            Channel::Aw,
            "AWSIZE 6",
        );
    }

    #[test]
    fn fixed_and_wrap_bursts_are_rejected() {
        let mut mem = fast(256);
        let e = step(&mut mem, &ar(32, 0, 3, 5, 0));
        expect(e, ViolationKind::BadBurst, Channel::Ar, "FIXED");
        let mut m = aw(32, 0, 3);
        m.awburst = 2;
        expect(
            step(&mut mem, &m),
            ViolationKind::BadBurst,
            Channel::Aw,
            "WRAP",
        );
    }

    #[test]
    fn unaligned_address_is_caught() {
        let mut mem = fast(512);
        let e = step(&mut mem, &ar(64, 0x1008, 0, 6, 1));
        expect(e, ViolationKind::Unaligned, Channel::Ar, "ARADDR 0x1008");
        expect(
            step(&mut mem, &aw(64, 0x20, 0)),
            ViolationKind::Unaligned,
            Channel::Aw,
            "AWADDR 0x20",
        );
    }

    #[test]
    fn wlast_before_the_last_beat_is_caught() {
        let mut mem = fast(256);
        step(&mut mem, &aw(32, 0, 3)).unwrap();
        step(&mut mem, &w(32, 1, false)).unwrap();
        let e = step(&mut mem, &w(32, 2, true));
        expect(
            e,
            ViolationKind::WlastEarly,
            Channel::W,
            "WLAST on beat 2 of a 4-beat burst",
        );
        let (_, _, b) = drain(&mut mem);
        assert_eq!(b, Some(Resp::Slverr));
    }

    #[test]
    fn wlast_missing_on_the_last_beat_is_caught() {
        let mut mem = fast(256);
        step(&mut mem, &aw(32, 0, 1)).unwrap();
        step(&mut mem, &w(32, 1, false)).unwrap();
        let e = step(&mut mem, &w(32, 2, false));
        expect(
            e,
            ViolationKind::WlastMissing,
            Channel::W,
            "WLAST missing on the last beat (2)",
        );
    }

    #[test]
    fn more_w_beats_than_announced_are_caught_and_dropped() {
        let mut mem = fast(256);
        step(&mut mem, &aw(32, 0, 1)).unwrap();
        step(&mut mem, &w(32, 1, false)).unwrap();
        step(&mut mem, &w(32, 2, false)).unwrap_err();
        let e = step(&mut mem, &w(32, 3, true));
        expect(
            e,
            ViolationKind::ExtraWBeats,
            Channel::W,
            "beat 3 of a 2-beat burst",
        );
        let (_, _, b) = drain(&mut mem);
        assert_eq!(b, Some(Resp::Slverr));
        // The two announced beats landed, the extra one did not.
        assert_eq!(
            mem.read_bytes(0, 96),
            [[1u8; 32], [2; 32], [0; 32]].concat()
        );
    }

    #[test]
    fn valid_dropped_before_ready_is_caught() {
        let mut cfg = AxiMemConfig::fixed(256, 0);
        cfg.stalls.ar = 1.0;
        let mut mem = AxiMemory::new(cfg);
        let a = ar(32, 0x100, 0, 5, 1);
        step(&mut mem, &a).unwrap();
        step(&mut mem, &a).unwrap(); // held: fine
        let e = step(&mut mem, &idle(32));
        expect(
            e,
            ViolationKind::ValidDropped,
            Channel::Ar,
            "ARVALID dropped before ARREADY",
        );
    }

    #[test]
    fn address_changed_while_stalled_is_caught() {
        let mut cfg = AxiMemConfig::fixed(256, 0);
        cfg.stalls.aw = 1.0;
        let mut mem = AxiMemory::new(cfg);
        step(&mut mem, &aw(32, 0x100, 0)).unwrap();
        let e = step(&mut mem, &aw(32, 0x140, 0));
        expect(e, ViolationKind::PayloadChanged, Channel::Aw, "addr: 320");
    }

    #[test]
    fn w_data_changed_or_dropped_while_stalled_is_caught() {
        let mut cfg = AxiMemConfig::fixed(256, 0);
        cfg.stalls.w = 1.0;
        let mut mem = AxiMemory::new(cfg);
        step(&mut mem, &w(32, 5, true)).unwrap();
        step(&mut mem, &w(32, 5, true)).unwrap();
        let mut changed = w(32, 5, true);
        changed.wdata[9] = 6;
        let e = step(&mut mem, &changed);
        expect(
            e,
            ViolationKind::PayloadChanged,
            Channel::W,
            "data lane Some(9)",
        );
        let e = step(&mut mem, &idle(32));
        expect(e, ViolationKind::ValidDropped, Channel::W, "WVALID dropped");
    }

    #[test]
    fn w_beats_without_an_aw_are_reported_at_the_end() {
        let mut mem = fast(256);
        // W first is legal ...
        step(&mut mem, &w(32, 7, true)).unwrap();
        drain(&mut mem);
        // ... but never getting an AW is not.
        let e = mem.check_idle();
        expect(
            e,
            ViolationKind::NotIdle,
            Channel::W,
            "1 W beat(s) received without an AW",
        );
        // A late AW still claims it.
        step(&mut mem, &aw(32, 0x40, 0)).unwrap();
        let (_, _, b) = drain(&mut mem);
        assert_eq!(b, Some(Resp::Okay));
        assert_eq!(mem.read_bytes(0x40, 32), vec![7; 32]);
        mem.check_idle().unwrap();
        // An AW left without data is reported too.
        step(&mut mem, &aw(32, 0x80, 0)).unwrap();
        expect(
            mem.check_idle(),
            ViolationKind::NotIdle,
            Channel::Aw,
            "waiting for W data",
        );
    }

    // ---- Dut binding ----

    fn axi_ports(bits: usize) -> Vec<PortInfo> {
        use Dir::{In, Out};
        vec![
            port("clock", 1, In),
            port("m_axi_awid", 1, Out),
            port("m_axi_awaddr", 64, Out),
            port("m_axi_awlen", 8, Out),
            port("m_axi_awsize", 3, Out),
            port("m_axi_awburst", 2, Out),
            port("m_axi_awcache", 4, Out),
            port("m_axi_awprot", 3, Out),
            port("m_axi_awvalid", 1, Out),
            port("m_axi_awready", 1, In),
            port("m_axi_wdata", bits, Out),
            port("m_axi_wstrb", bits / 8, Out),
            port("m_axi_wlast", 1, Out),
            port("m_axi_wvalid", 1, Out),
            port("m_axi_wready", 1, In),
            port("m_axi_bid", 1, In),
            port("m_axi_bresp", 2, In),
            port("m_axi_bvalid", 1, In),
            port("m_axi_bready", 1, Out),
            port("m_axi_arid", 1, Out),
            port("m_axi_araddr", 64, Out),
            port("m_axi_arlen", 8, Out),
            port("m_axi_arsize", 3, Out),
            port("m_axi_arburst", 2, Out),
            port("m_axi_arcache", 4, Out),
            port("m_axi_arprot", 3, Out),
            port("m_axi_arvalid", 1, Out),
            port("m_axi_arready", 1, In),
            port("m_axi_rid", 1, In),
            port("m_axi_rdata", bits, In),
            port("m_axi_rresp", 2, In),
            port("m_axi_rlast", 1, In),
            port("m_axi_rvalid", 1, In),
            port("m_axi_rready", 1, Out),
        ]
    }

    fn words(b: &[u8]) -> Vec<u32> {
        b.chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// The design side, written independently of [`AxiPorts`] so the two cross-check.
    fn poke_master(d: &mut FakeDut, m: &MasterSignals) {
        let p = |s: &str| format!("m_axi_{s}");
        for (s, v) in [
            ("awid", m.awid),
            ("awaddr", m.awaddr),
            ("awlen", m.awlen),
            ("awsize", m.awsize),
            ("awburst", m.awburst),
            ("awvalid", m.awvalid.into()),
            ("wlast", m.wlast.into()),
            ("wvalid", m.wvalid.into()),
            ("bready", m.bready.into()),
            ("arid", m.arid),
            ("araddr", m.araddr),
            ("arlen", m.arlen),
            ("arsize", m.arsize),
            ("arburst", m.arburst),
            ("arvalid", m.arvalid.into()),
            ("rready", m.rready.into()),
        ] {
            d.poke(&p(s), v);
        }
        d.poke_words(&p("wdata"), &words(&m.wdata));
        let strb: Vec<u32> = (0..m.wdata.len().div_ceil(32))
            .map(|i| (m.wstrb >> (32 * i)) as u32)
            .collect();
        d.poke_words(&p("wstrb"), &strb);
    }

    fn peek_slave(d: &FakeDut) -> SlaveSignals {
        let p = |s: &str| d.peek(&format!("m_axi_{s}"));
        SlaveSignals {
            awready: p("awready") != 0,
            wready: p("wready") != 0,
            bid: p("bid"),
            bresp: Resp::from_bits(p("bresp")),
            bvalid: p("bvalid") != 0,
            arready: p("arready") != 0,
            rid: p("rid"),
            rdata: d
                .peek_words("m_axi_rdata")
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect(),
            rresp: Resp::from_bits(p("rresp")),
            rlast: p("rlast") != 0,
            rvalid: p("rvalid") != 0,
        }
    }

    #[test]
    fn dut_binding_carries_every_signal_by_port_name() {
        // 1024 bits: the strobes span four words, so their assembly is exercised too.
        for bits in [256usize, 1024] {
            let bb = bits / 8;
            let mut dut = FakeDut::new(axi_ports(bits));
            let mut cfg = AxiMemConfig::random(bits as u32, 8);
            cfg.read_latency = (0, 10);
            let mut slave = AxiSlave::new(&dut, "m_axi_", cfg).unwrap();
            slave
                .mem
                .add_error(ErrorRange::new(0x5000, 0x5001, Resp::Decerr, Access::Both));
            let mut m = TestMaster::new(bb, 8);
            m.p_ready = 0.2;
            let mut rng = ChaCha8Rng::seed_from_u64(8);
            let wr = random_write(&mut rng, bb, 1, 0x1_0000_4000, 12);
            m.write(&wr);
            m.write(&random_write(&mut rng, bb, 0, 0x5000, 2));
            let mut step = |m: &mut TestMaster| {
                slave.drive(&mut dut);
                dut.eval();
                let s = peek_slave(&dut);
                poke_master(&mut dut, &m.outputs());
                slave.sample(&dut).unwrap();
                m.update(&s);
            };
            for _ in 0..2000 {
                if m.done() {
                    break;
                }
                step(&mut m);
            }
            assert!(m.done());
            assert_eq!(
                m.writes.iter().map(|w| w.resp).collect::<Vec<_>>(),
                [Resp::Okay, Resp::Decerr]
            );
            m.read(1, 0x1_0000_4000, 12);
            for _ in 0..2000 {
                if m.done() {
                    break;
                }
                step(&mut m);
            }
            assert!(m.done());
            let mut shadow = vec![0; 12 * bb];
            apply(&mut shadow, wr.addr, &wr, bb);
            assert_eq!(m.reads[0].data, shadow, "{bits} bits");
            assert_eq!(slave.mem.read_bytes(wr.addr, shadow.len()), shadow);
        }
    }

    #[test]
    fn binding_rejects_missing_or_misshaped_ports() {
        let without = |name: &str| {
            let ports = axi_ports(512)
                .into_iter()
                .filter(|p| p.name != name)
                .collect();
            FakeDut::new(ports)
        };
        let e = AxiPorts::bind(&without("m_axi_wlast"), "m_axi_")
            .err()
            .unwrap();
        assert!(e.contains("m_axi_wlast"), "{e}");
        // Optional ports may be absent.
        AxiPorts::bind(&without("m_axi_arprot"), "m_axi_").unwrap();
        AxiPorts::bind(&without("m_axi_rid"), "m_axi_").unwrap();
        let mut ports = axi_ports(512);
        ports
            .iter_mut()
            .find(|p| p.name == "m_axi_wstrb")
            .unwrap()
            .width = 32;
        let e = AxiPorts::bind(&FakeDut::new(ports), "m_axi_")
            .err()
            .unwrap();
        assert!(e.contains("m_axi_wstrb is 32 bits, expected 64"), "{e}");
        let mut ports = axi_ports(512);
        ports
            .iter_mut()
            .find(|p| p.name == "m_axi_rready")
            .unwrap()
            .dir = Dir::In;
        let e = AxiPorts::bind(&FakeDut::new(ports), "m_axi_")
            .err()
            .unwrap();
        assert!(e.contains("m_axi_rready is an input"), "{e}");
        let e = AxiSlave::new(
            &FakeDut::new(axi_ports(512)),
            "m_axi_",
            AxiMemConfig::fixed(1024, 0),
        )
        .err()
        .unwrap();
        assert!(
            e.contains("512 bits but the memory is configured for 1024"),
            "{e}"
        );
    }
}
