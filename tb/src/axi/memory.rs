//! The AXI4 slave memory model itself: state, backdoor access to its bytes, and the two
//! halves of a cycle ([`AxiMemory::drive`], [`AxiMemory::sample`]). How bursts are served is
//! in `bursts.rs`, the protocol rules in `checker.rs`.

use super::config::{AxiMemConfig, ErrorRange};
use super::signals::{AddrBeat, Channel, MasterSignals, Resp, SlaveSignals};
use super::stats::{AxiStats, BurstRecord};
use super::violation::{Violation, ViolationKind};
use cdma_model::paged::PagedBytes;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// A read burst accepted and not yet fully returned.
pub(super) struct ReadTxn {
    pub(super) id: u64,
    pub(super) addr: u64,
    pub(super) beats: u32,
    pub(super) ready_at: u64,
    pub(super) sent: u32,
    /// Broke an address rule: answered with SLVERR, memory untouched.
    pub(super) bad: bool,
    pub(super) log: usize,
}

/// A write burst accepted and still waiting for W beats.
pub(super) struct WriteTxn {
    pub(super) id: u64,
    pub(super) addr: u64,
    pub(super) beats: u32,
    pub(super) latency: u32,
    pub(super) got: u32,
    pub(super) bad: bool,
    pub(super) resp: Resp,
    pub(super) extra_reported: bool,
    pub(super) log: usize,
}

/// A W beat accepted and not yet paired with its AW.
pub(super) struct WBeat {
    pub(super) data: Vec<u8>,
    pub(super) strb: u128,
    pub(super) last: bool,
    pub(super) cycle: u64,
}

/// A write response waiting to be presented.
pub(super) struct BResp {
    pub(super) id: u64,
    pub(super) resp: Resp,
    pub(super) ready_at: u64,
    pub(super) log: usize,
}

/// The AXI4 slave memory model; see the [module documentation](super).
pub struct AxiMemory {
    pub(super) cfg: AxiMemConfig,
    pub(super) bb: usize,
    pub(super) size_log2: u64,
    /// The bytes (unwritten ones read as `cfg.fill`).
    pub(super) bytes: PagedBytes,
    pub(super) rng: ChaCha8Rng,
    pub(super) cycle: u64,
    pub(super) driven: bool,
    pub(super) out: SlaveSignals,
    pub(super) reads: VecDeque<ReadTxn>,
    pub(super) aw_q: VecDeque<WriteTxn>,
    pub(super) w_buf: VecDeque<WBeat>,
    pub(super) b_q: VecDeque<BResp>,
    pub(super) hold_ar: Option<AddrBeat>,
    pub(super) hold_aw: Option<AddrBeat>,
    pub(super) hold_w: Option<(Vec<u8>, u128, bool)>,
    pub(super) violations: Vec<Violation>,
    pub(super) stats: AxiStats,
    pub(super) read_log: Vec<BurstRecord>,
    pub(super) write_log: Vec<BurstRecord>,
    pub(super) last_handshake: Option<(u64, Channel)>,
}

impl AxiMemory {
    /// An empty memory. Panics on an invalid configuration (a testbench bug).
    pub fn new(cfg: AxiMemConfig) -> Self {
        cfg.validate();
        let bb = cfg.bus_bytes();
        AxiMemory {
            bb,
            size_log2: u64::from(bb.trailing_zeros()),
            bytes: PagedBytes::new(cfg.fill),
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

    /// Copies memory at `addr..addr + out.len()` into `out` (no bus cycles; addresses wrap at
    /// 2^64).
    pub fn read_into(&self, addr: u64, out: &mut [u8]) {
        self.bytes.read_into(addr, out);
    }

    /// Memory at `addr..addr + len` (no bus cycles).
    pub fn read_bytes(&self, addr: u64, len: usize) -> Vec<u8> {
        self.bytes.read(addr, len)
    }

    /// Stores `data` at `addr` (no bus cycles, no error ranges).
    pub fn write_bytes(&mut self, addr: u64, data: &[u8]) {
        self.bytes.write(addr, data);
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
    /// violations stay. Drive the slave idle ([`AxiPorts::drive_idle`](super::AxiPorts::drive_idle)) and do not sample while
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

    pub(super) fn flip(&mut self, p: f64) -> bool {
        p > 0.0 && self.rng.gen_bool(p)
    }

    pub(super) fn draw(&mut self, (lo, hi): (u32, u32)) -> u32 {
        if lo == hi {
            lo
        } else {
            self.rng.gen_range(lo..=hi)
        }
    }

    pub(super) fn handshake(&mut self, ch: Channel) {
        self.last_handshake = Some((self.cycle, ch));
    }

    /// The worst error of the ranges overlapping `[lo, lo + bb)` for this access, if any.
    pub(super) fn range_error(&self, lo: u64, write: bool) -> Option<Resp> {
        let hi = lo.saturating_add(self.bb as u64);
        self.cfg
            .errors
            .iter()
            .filter(|e| e.on.covers(write) && e.overlaps(lo, hi))
            .map(|e| e.resp)
            .reduce(Resp::worst)
    }
}
