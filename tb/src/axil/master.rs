//! The AXI4-Lite master: one access at a time, two-phase cycle, checks of the slave.

use super::signals::{LiteConfig, LiteMasterSignals, LiteOutcome, LiteSlaveSignals};
use crate::axi::Resp;
use crate::error::TbError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug)]
enum Op {
    Write {
        addr: u32,
        data: u32,
        strb: u8,
        aw_done: bool,
        w_done: bool,
    },
    Read {
        addr: u32,
        ar_done: bool,
    },
}

/// The AXI4-Lite master; see the [module documentation](super).
pub struct AxiLiteMaster {
    cfg: LiteConfig,
    rng: ChaCha8Rng,
    op: Option<Op>,
    started: u64,
    result: Option<LiteOutcome>,
    out: LiteMasterSignals,
    driven: bool,
    cycle: u64,
    hold_b: Option<Resp>,
    hold_r: Option<(u32, Resp)>,
}

impl AxiLiteMaster {
    /// An idle master. Panics if `cfg.delay` is outside `0.0..1.0`.
    pub fn new(cfg: LiteConfig) -> Self {
        assert!(
            (0.0..1.0).contains(&cfg.delay),
            "AXI-Lite delay probability {} outside 0..1",
            cfg.delay
        );
        AxiLiteMaster {
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            cfg,
            op: None,
            started: 0,
            result: None,
            out: LiteMasterSignals::default(),
            driven: false,
            cycle: 0,
            hold_b: None,
            hold_r: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &LiteConfig {
        &self.cfg
    }

    /// Sets the address width (the DUT binding does this from the port).
    pub fn set_addr_bits(&mut self, bits: u32) {
        self.cfg.addr_bits = bits;
    }

    /// Whether an access is in flight.
    pub fn busy(&self) -> bool {
        self.op.is_some()
    }

    /// Cycles sampled so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    fn check_start(&self, addr: u32) {
        assert!(
            self.op.is_none(),
            "AXI-Lite access started while {} is in flight",
            self.pending()
        );
        assert!(
            self.cfg.addr_bits >= 32 || addr >> self.cfg.addr_bits == 0,
            "AXI-Lite address {addr:#x} does not fit {} bits",
            self.cfg.addr_bits
        );
    }

    /// Starts writing `data` to `addr` with byte strobes `strb` (bit i enables byte i). Panics
    /// if an access is in flight or the address is too wide (testbench bugs).
    pub fn start_write(&mut self, addr: u32, data: u32, strb: u8) {
        self.check_start(addr);
        assert!(strb <= 0xF, "AXI-Lite WSTRB {strb:#x} wider than 4 bits");
        self.op = Some(Op::Write {
            addr,
            data,
            strb,
            aw_done: false,
            w_done: false,
        });
        self.started = self.cycle;
        self.result = None;
    }

    /// Starts reading `addr`. Panics like [`AxiLiteMaster::start_write`].
    pub fn start_read(&mut self, addr: u32) {
        self.check_start(addr);
        self.op = Some(Op::Read {
            addr,
            ar_done: false,
        });
        self.started = self.cycle;
        self.result = None;
    }

    /// The outcome of the last access, once it has finished (taken once).
    pub fn take_result(&mut self) -> Option<LiteOutcome> {
        self.result.take()
    }

    /// The access in flight and its progress, for hang reports.
    pub fn pending(&self) -> String {
        let since = format!("started at cycle {}", self.started);
        match self.op {
            None => "no AXI-Lite access in flight".into(),
            Some(Op::Write {
                addr,
                data,
                aw_done,
                w_done,
                ..
            }) => format!(
                "AXI-Lite write {addr:#05x} <- {data:#010x} ({since}): {}",
                match (aw_done, w_done) {
                    (false, false) => "waiting for AWREADY and WREADY",
                    (false, true) => "waiting for AWREADY",
                    (true, false) => "waiting for WREADY",
                    (true, true) => "waiting for BVALID",
                }
            ),
            Some(Op::Read { addr, ar_done }) => format!(
                "AXI-Lite read {addr:#05x} ({since}): {}",
                if ar_done {
                    "waiting for RVALID"
                } else {
                    "waiting for ARREADY"
                }
            ),
        }
    }

    fn flip(&mut self) -> bool {
        self.cfg.delay > 0.0 && self.rng.gen_bool(self.cfg.delay)
    }

    /// The master's outputs for this cycle (random delays drawn on the first call of a cycle;
    /// repeated calls before [`AxiLiteMaster::sample`] return the same). A valid, once raised,
    /// stays high with the same payload until its handshake.
    pub fn drive(&mut self) -> &LiteMasterSignals {
        if self.driven {
            return &self.out;
        }
        self.driven = true;
        // A copy: the guards below draw from `self.rng`.
        let op = self.op;
        match op {
            Some(Op::Write {
                addr,
                data,
                strb,
                aw_done,
                w_done,
            }) => {
                if !aw_done && !self.out.awvalid && !self.flip() {
                    self.out.awvalid = true;
                    self.out.awaddr = addr;
                }
                if !w_done && !self.out.wvalid && !self.flip() {
                    self.out.wvalid = true;
                    self.out.wdata = data;
                    self.out.wstrb = strb;
                }
            }
            Some(Op::Read {
                addr,
                ar_done: false,
            }) if !self.out.arvalid && !self.flip() => {
                self.out.arvalid = true;
                self.out.araddr = addr;
            }
            _ => {}
        }
        // Ready even when idle: a stray response is then taken and reported once, not held.
        self.out.bready = !self.flip();
        self.out.rready = !self.flip();
        &self.out
    }

    /// Ends the cycle with the slave's outputs `s` (sampled after `eval`): handshakes, result,
    /// slave protocol checks. Panics if [`AxiLiteMaster::drive`] was not called this cycle.
    pub fn sample(&mut self, s: &LiteSlaveSignals) -> Result<(), TbError> {
        assert!(
            self.driven,
            "AxiLiteMaster::sample without drive in cycle {}",
            self.cycle
        );
        self.driven = false;
        let cycle = self.cycle;
        self.cycle += 1;
        let err = |what: String| {
            Err(TbError::Protocol(format!(
                "AXI-Lite at cycle {cycle}: {what}"
            )))
        };
        let out = self.out;
        if let Some(prev) = self.hold_b.take() {
            if !s.bvalid {
                return err("BVALID dropped before BREADY".into());
            }
            if s.bresp != prev {
                return err(format!(
                    "BRESP changed from {prev:?} to {:?} while BREADY was low",
                    s.bresp
                ));
            }
        }
        if let Some((data, resp)) = self.hold_r.take() {
            if !s.rvalid {
                return err("RVALID dropped before RREADY".into());
            }
            if (s.rdata, s.rresp) != (data, resp) {
                return err(format!(
                    "R changed from {data:#x}/{resp:?} to {:#x}/{:?} while RREADY was low",
                    s.rdata, s.rresp
                ));
            }
        }
        self.hold_b = (s.bvalid && !out.bready).then_some(s.bresp);
        self.hold_r = (s.rvalid && !out.rready).then_some((s.rdata, s.rresp));

        // A response is legal only after its request handshakes completed at earlier edges.
        match self.op {
            Some(Op::Write {
                aw_done, w_done, ..
            }) if s.bvalid && !(aw_done && w_done) => {
                return err(format!(
                    "BVALID before the slave accepted both AW and W ({})",
                    self.pending()
                ))
            }
            Some(Op::Write { .. }) => {}
            _ if s.bvalid => {
                return err(format!(
                    "BVALID with no write in flight ({})",
                    self.pending()
                ))
            }
            _ => {}
        }
        match self.op {
            Some(Op::Read { ar_done, .. }) if s.rvalid && !ar_done => {
                return err(format!(
                    "RVALID before the slave accepted AR ({})",
                    self.pending()
                ))
            }
            Some(Op::Read { .. }) => {}
            _ if s.rvalid => {
                return err(format!(
                    "RVALID with no read in flight ({})",
                    self.pending()
                ))
            }
            _ => {}
        }

        match &mut self.op {
            Some(Op::Write {
                aw_done, w_done, ..
            }) => {
                if out.awvalid && s.awready {
                    *aw_done = true;
                    self.out.awvalid = false;
                }
                if out.wvalid && s.wready {
                    *w_done = true;
                    self.out.wvalid = false;
                }
                if s.bvalid && out.bready {
                    self.result = Some(LiteOutcome::Write(s.bresp));
                    self.op = None;
                }
            }
            Some(Op::Read { ar_done, .. }) => {
                if out.arvalid && s.arready {
                    *ar_done = true;
                    self.out.arvalid = false;
                }
                if s.rvalid && out.rready {
                    self.result = Some(LiteOutcome::Read(s.rdata, s.rresp));
                    self.op = None;
                }
            }
            None => {}
        }
        Ok(())
    }
}
