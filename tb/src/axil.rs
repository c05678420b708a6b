//! AXI4-Lite master for a DUT's CSR slave (`s_axil_*` of the DMA engine: 32-bit data, 12-bit
//! address), with optional random valid/ready delays and checks of the slave's side of the
//! protocol.
//!
//! [`AxiLiteMaster`] is the Verilator-free core: one access at a time, started with
//! [`AxiLiteMaster::start_write`] / [`AxiLiteMaster::start_read`] and advanced by the same
//! two-phase cycle as the AXI memory model ([`crate::axi`]): [`AxiLiteMaster::drive`] before
//! the DUT's `eval`, [`AxiLiteMaster::sample`] after it. [`AxiLitePorts`] binds it to a
//! [`Dut`] by name, [`AxiLiteDut`] bundles the two.
//!
//! Blocking accesses ([`LiteAccess::lite_write`], [`LiteAccess::lite_read`]) run whole cycles
//! through a caller-supplied closure, so everything else on the bench (the AXI memory above
//! all) keeps stepping while a CSR access is in flight; a cycle limit turns a hang into an
//! error:
//!
//! ```ignore
//! fn cycle(b: &mut Bench) -> Result<(), TbError> {
//!     b.csr.drive(&mut *b.dut);
//!     b.mem.drive(&mut *b.dut);
//!     b.dut.eval();
//!     b.csr.sample(&*b.dut)?;
//!     b.mem.sample(&*b.dut)?;
//!     b.dut.tick();
//!     Ok(())
//! }
//! impl LiteAccess for Bench {
//!     fn lite(&mut self) -> &mut AxiLiteMaster { &mut self.csr.master }
//! }
//! let resp = bench.lite_write(0x10, 1, 1_000, cycle)?;
//! ```
//!
//! Checks of the slave (each a [`TbError::Protocol`]): `BVALID` before both AW and W were
//! accepted or with no write in flight, `RVALID` before AR was accepted or with no read in
//! flight, `BVALID`/`RVALID` dropped or their payload changed before the handshake.

use crate::axi::{find_optional, find_port, Resp, Width};
use crate::watchdog::Watchdog;
use crate::zvc::TbError;
use cdma_sim::{Dir, Dut};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Configuration of an [`AxiLiteMaster`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiteConfig {
    /// Seed of the delay draws.
    pub seed: u64,
    /// Probability (0.0..=1.0, 1.0 excluded for progress) per cycle that a valid not yet
    /// raised stays low, and that `BREADY`/`RREADY` is low.
    pub delay: f64,
    /// Address width in bits; addresses must fit (the DUT binding sets it from the port).
    pub addr_bits: u32,
}

impl LiteConfig {
    /// No delays: valids raised at once, always ready.
    pub fn always() -> Self {
        LiteConfig {
            seed: 0,
            delay: 0.0,
            addr_bits: 32,
        }
    }

    /// Random delays with probability `delay`.
    pub fn random(seed: u64, delay: f64) -> Self {
        LiteConfig {
            seed,
            delay,
            addr_bits: 32,
        }
    }
}

/// The master-driven AXI4-Lite signals of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiteMasterSignals {
    /// `AWADDR`.
    pub awaddr: u32,
    /// `AWVALID`.
    pub awvalid: bool,
    /// `WDATA`.
    pub wdata: u32,
    /// `WSTRB`.
    pub wstrb: u8,
    /// `WVALID`.
    pub wvalid: bool,
    /// `BREADY`.
    pub bready: bool,
    /// `ARADDR`.
    pub araddr: u32,
    /// `ARVALID`.
    pub arvalid: bool,
    /// `RREADY`.
    pub rready: bool,
}

/// The slave-driven AXI4-Lite signals of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiteSlaveSignals {
    /// `AWREADY`.
    pub awready: bool,
    /// `WREADY`.
    pub wready: bool,
    /// `BRESP`.
    pub bresp: Resp,
    /// `BVALID`.
    pub bvalid: bool,
    /// `ARREADY`.
    pub arready: bool,
    /// `RDATA`.
    pub rdata: u32,
    /// `RRESP`.
    pub rresp: Resp,
    /// `RVALID`.
    pub rvalid: bool,
}

/// A finished access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteOutcome {
    /// A write and its `BRESP`.
    Write(Resp),
    /// A read: `RDATA` and `RRESP`.
    Read(u32, Resp),
}

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

/// The AXI4-Lite master; see the [module documentation](self).
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

/// Blocking CSR accesses for anything that owns an [`AxiLiteMaster`] and can run a cycle: the
/// master itself, an [`AxiLiteDut`], or a whole testbench.
pub trait LiteAccess: Sized {
    /// The master to start accesses on.
    fn lite(&mut self) -> &mut AxiLiteMaster;

    /// Writes `value` (all four strobes) to `addr`, running `cycle` until B returns or `limit`
    /// cycles pass; returns `BRESP`.
    fn lite_write<F>(
        &mut self,
        addr: u32,
        value: u32,
        limit: u64,
        cycle: F,
    ) -> Result<Resp, TbError>
    where
        F: FnMut(&mut Self) -> Result<(), TbError>,
    {
        self.lite_write_strb(addr, value, 0xF, limit, cycle)
    }

    /// [`LiteAccess::lite_write`] with explicit byte strobes.
    fn lite_write_strb<F>(
        &mut self,
        addr: u32,
        value: u32,
        strb: u8,
        limit: u64,
        cycle: F,
    ) -> Result<Resp, TbError>
    where
        F: FnMut(&mut Self) -> Result<(), TbError>,
    {
        self.lite().start_write(addr, value, strb);
        match run_access(self, limit, cycle)? {
            LiteOutcome::Write(r) => Ok(r),
            LiteOutcome::Read(..) => unreachable!("a write finishes with B"),
        }
    }

    /// Reads `addr`, running `cycle` until R returns or `limit` cycles pass; returns `RDATA`
    /// and `RRESP`.
    fn lite_read<F>(&mut self, addr: u32, limit: u64, cycle: F) -> Result<(u32, Resp), TbError>
    where
        F: FnMut(&mut Self) -> Result<(), TbError>,
    {
        self.lite().start_read(addr);
        match run_access(self, limit, cycle)? {
            LiteOutcome::Read(d, r) => Ok((d, r)),
            LiteOutcome::Write(_) => unreachable!("a read finishes with R"),
        }
    }
}

fn run_access<H: LiteAccess, F>(h: &mut H, limit: u64, mut cycle: F) -> Result<LiteOutcome, TbError>
where
    F: FnMut(&mut H) -> Result<(), TbError>,
{
    let mut wd = Watchdog::new(limit);
    loop {
        if let Some(r) = h.lite().take_result() {
            return Ok(r);
        }
        wd.tick(|| h.lite().pending())?;
        cycle(h)?;
    }
}

impl LiteAccess for AxiLiteMaster {
    fn lite(&mut self) -> &mut AxiLiteMaster {
        self
    }
}

/// Port indices of an AXI4-Lite slave interface on a [`Dut`] (`<prefix>awaddr`, …; prefix
/// `s_axil_` for the DMA engine). `awprot`/`arprot` are optional and driven 0.
pub struct AxiLitePorts {
    addr_bits: u32,
    awaddr: usize,
    awprot: Option<usize>,
    awvalid: usize,
    awready: usize,
    wdata: usize,
    wstrb: usize,
    wvalid: usize,
    wready: usize,
    bresp: usize,
    bvalid: usize,
    bready: usize,
    araddr: usize,
    arprot: Option<usize>,
    arvalid: usize,
    arready: usize,
    rdata: usize,
    rresp: usize,
    rvalid: usize,
    rready: usize,
}

impl AxiLitePorts {
    /// Binds the ports called `<prefix><signal>`, checking directions and widths (address at
    /// most 32 bits, data 32, strobes 4, responses 2).
    pub fn bind(dut: &dyn Dut, prefix: &str) -> Result<Self, String> {
        use Dir::{In, Out};
        use Width::{AtMost, Exact};
        let n = |s: &str| format!("{prefix}{s}");
        let req = |s: &str, d: Dir, w: Width| find_port(dut, &n(s), d, w);
        let opt = |s: &str, d: Dir, w: Width| find_optional(dut, &n(s), d, w);
        let awaddr = req("awaddr", In, AtMost(32))?;
        let araddr = req("araddr", In, AtMost(32))?;
        let addr_bits = dut.ports()[awaddr].width;
        if dut.ports()[araddr].width != addr_bits {
            return Err(format!(
                "{}: {prefix}awaddr and {prefix}araddr differ in width",
                dut.module()
            ));
        }
        Ok(AxiLitePorts {
            addr_bits: addr_bits as u32,
            awaddr,
            awprot: opt("awprot", In, AtMost(3))?,
            awvalid: req("awvalid", In, Exact(1))?,
            awready: req("awready", Out, Exact(1))?,
            wdata: req("wdata", In, Exact(32))?,
            wstrb: req("wstrb", In, Exact(4))?,
            wvalid: req("wvalid", In, Exact(1))?,
            wready: req("wready", Out, Exact(1))?,
            bresp: req("bresp", Out, Exact(2))?,
            bvalid: req("bvalid", Out, Exact(1))?,
            bready: req("bready", In, Exact(1))?,
            araddr,
            arprot: opt("arprot", In, AtMost(3))?,
            arvalid: req("arvalid", In, Exact(1))?,
            arready: req("arready", Out, Exact(1))?,
            rdata: req("rdata", Out, Exact(32))?,
            rresp: req("rresp", Out, Exact(2))?,
            rvalid: req("rvalid", Out, Exact(1))?,
            rready: req("rready", In, Exact(1))?,
        })
    }

    /// Address width of the bound port.
    pub fn addr_bits(&self) -> u32 {
        self.addr_bits
    }

    /// Drives the master's outputs `m` into the DUT (before `eval`).
    pub fn drive_signals(&self, m: &LiteMasterSignals, dut: &mut dyn Dut) {
        let mut set = |p: usize, v: u64| dut.set_u64(p, v).expect("port checked at bind");
        set(self.awaddr, m.awaddr.into());
        set(self.awvalid, m.awvalid.into());
        set(self.wdata, m.wdata.into());
        set(self.wstrb, m.wstrb.into());
        set(self.wvalid, m.wvalid.into());
        set(self.bready, m.bready.into());
        set(self.araddr, m.araddr.into());
        set(self.arvalid, m.arvalid.into());
        set(self.rready, m.rready.into());
        for p in [self.awprot, self.arprot].into_iter().flatten() {
            set(p, 0);
        }
    }

    /// Reads the slave's outputs (after `eval`).
    pub fn slave_signals(&self, dut: &dyn Dut) -> LiteSlaveSignals {
        let get = |p: usize| dut.get_u64(p).expect("port checked at bind");
        LiteSlaveSignals {
            awready: get(self.awready) != 0,
            wready: get(self.wready) != 0,
            bresp: Resp::from_bits(get(self.bresp)),
            bvalid: get(self.bvalid) != 0,
            arready: get(self.arready) != 0,
            rdata: get(self.rdata) as u32,
            rresp: Resp::from_bits(get(self.rresp)),
            rvalid: get(self.rvalid) != 0,
        }
    }
}

/// An [`AxiLiteMaster`] bound to a DUT's AXI4-Lite slave port.
pub struct AxiLiteDut {
    /// The master.
    pub master: AxiLiteMaster,
    /// The port binding.
    pub ports: AxiLitePorts,
}

impl AxiLiteDut {
    /// Binds `<prefix>*` of `dut`; the master's address width becomes the port's.
    pub fn new(dut: &dyn Dut, prefix: &str, cfg: LiteConfig) -> Result<Self, String> {
        let ports = AxiLitePorts::bind(dut, prefix)?;
        let mut master = AxiLiteMaster::new(cfg);
        master.set_addr_bits(ports.addr_bits());
        Ok(AxiLiteDut { master, ports })
    }

    /// Drives the master's outputs of this cycle (before `eval`).
    pub fn drive(&mut self, dut: &mut dyn Dut) {
        let m = *self.master.drive();
        self.ports.drive_signals(&m, dut);
    }

    /// Samples the slave's outputs and advances (after `eval`, before `tick`).
    pub fn sample(&mut self, dut: &dyn Dut) -> Result<(), TbError> {
        let s = self.ports.slave_signals(dut);
        self.master.sample(&s)
    }
}

impl LiteAccess for AxiLiteDut {
    fn lite(&mut self) -> &mut AxiLiteMaster {
        &mut self.master
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axi::fake::{port, FakeDut};

    /// A CSR slave: 16 registers at 0x000..0x040 (SLVERR elsewhere below 0x800, DECERR
    /// above), random ready stalls, registered responses. `bug` breaks one slave rule.
    struct RegFile {
        regs: [u32; 16],
        rng: ChaCha8Rng,
        p: f64,
        aw: Option<u32>,
        w: Option<(u32, u8)>,
        b: Option<Resp>,
        r: Option<(u32, Resp)>,
        out: LiteSlaveSignals,
        /// Never answer (B/R), to provoke hangs.
        mute: bool,
        /// Raise BVALID once AW is in, without waiting for W.
        early_b: bool,
        /// Keep WREADY low.
        hold_w: bool,
    }

    impl RegFile {
        fn new(seed: u64, p: f64) -> Self {
            RegFile {
                regs: [0; 16],
                rng: ChaCha8Rng::seed_from_u64(seed),
                p,
                aw: None,
                w: None,
                b: None,
                r: None,
                out: LiteSlaveSignals::default(),
                mute: false,
                early_b: false,
                hold_w: false,
            }
        }

        fn decode(addr: u32) -> Result<usize, Resp> {
            match addr {
                0..=0x3F => Ok(addr as usize / 4),
                0x40..=0x7FF => Err(Resp::Slverr),
                _ => Err(Resp::Decerr),
            }
        }

        fn outputs(&mut self) -> LiteSlaveSignals {
            let mut f = || self.p > 0.0 && self.rng.gen_bool(self.p);
            let (a, b, c) = (f(), f(), f());
            self.out.awready = self.aw.is_none() && !a;
            self.out.wready = self.w.is_none() && !b && !self.hold_w;
            self.out.arready = self.r.is_none() && !c;
            self.out.bvalid = self.b.is_some() && !self.mute;
            self.out.bresp = self.b.unwrap_or_default();
            self.out.rvalid = self.r.is_some() && !self.mute;
            (self.out.rdata, self.out.rresp) = self.r.unwrap_or_default();
            self.out
        }

        fn update(&mut self, m: &LiteMasterSignals) {
            let s = self.out;
            if s.bvalid && m.bready {
                (self.b, self.aw, self.w) = (None, None, None);
            }
            if s.rvalid && m.rready {
                self.r = None;
            }
            if m.awvalid && s.awready {
                self.aw = Some(m.awaddr);
            }
            if m.wvalid && s.wready {
                self.w = Some((m.wdata, m.wstrb));
            }
            if m.arvalid && s.arready {
                self.r = Some(match Self::decode(m.araddr) {
                    Ok(i) => (self.regs[i], Resp::Okay),
                    Err(e) => (0, e),
                });
            }
            if self.b.is_none() {
                match (self.aw, self.w) {
                    (Some(addr), Some((data, strb))) => {
                        self.b = Some(match Self::decode(addr) {
                            Ok(i) => {
                                let mask = (0..4)
                                    .filter(|k| strb >> k & 1 != 0)
                                    .fold(0u32, |m, k| m | 0xFF << (8 * k));
                                self.regs[i] = self.regs[i] & !mask | data & mask;
                                Resp::Okay
                            }
                            Err(e) => e,
                        });
                    }
                    (Some(_), None) if self.early_b => self.b = Some(Resp::Okay),
                    _ => {}
                }
            }
        }
    }

    struct Bench {
        m: AxiLiteMaster,
        rf: RegFile,
    }

    impl LiteAccess for Bench {
        fn lite(&mut self) -> &mut AxiLiteMaster {
            &mut self.m
        }
    }

    fn cycle(b: &mut Bench) -> Result<(), TbError> {
        let m = *b.m.drive();
        let s = b.rf.outputs();
        b.m.sample(&s)?;
        b.rf.update(&m);
        Ok(())
    }

    #[test]
    fn writes_and_reads_round_trip_with_strobes_and_delays() {
        for seed in 0..8u64 {
            let p = if seed == 0 { 0.0 } else { 0.5 };
            let mut b = Bench {
                m: AxiLiteMaster::new(LiteConfig::random(seed, p)),
                rf: RegFile::new(seed + 100, p),
            };
            let mut shadow = [0u32; 16];
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..50 {
                let i = rng.gen_range(0..16);
                let (v, strb) = (rng.gen::<u32>(), rng.gen_range(0..16u8));
                let resp = b.lite_write_strb(4 * i, v, strb, 200, cycle).unwrap();
                assert_eq!(resp, Resp::Okay);
                let mask = (0..4)
                    .filter(|k| strb >> k & 1 != 0)
                    .fold(0u32, |m, k| m | 0xFF << (8 * k));
                shadow[i as usize] = shadow[i as usize] & !mask | v & mask;
                let j = rng.gen_range(0..16);
                let got = b.lite_read(4 * j, 200, cycle).unwrap();
                assert_eq!(got, (shadow[j as usize], Resp::Okay), "seed {seed} reg {j}");
            }
            assert_eq!(b.rf.regs, shadow);
            assert!(!b.m.busy());
        }
    }

    #[test]
    fn error_responses_are_returned() {
        let mut b = Bench {
            m: AxiLiteMaster::new(LiteConfig::random(1, 0.3)),
            rf: RegFile::new(2, 0.3),
        };
        assert_eq!(b.lite_write(0x100, 1, 200, cycle).unwrap(), Resp::Slverr);
        assert_eq!(b.lite_write(0x900, 1, 200, cycle).unwrap(), Resp::Decerr);
        assert_eq!(b.lite_read(0x44, 200, cycle).unwrap(), (0, Resp::Slverr));
        assert_eq!(b.lite_read(0xFFC, 200, cycle).unwrap(), (0, Resp::Decerr));
    }

    #[test]
    fn a_hang_is_an_error_that_names_the_missing_handshake() {
        let mut b = Bench {
            m: AxiLiteMaster::new(LiteConfig::always()),
            rf: RegFile::new(0, 0.0),
        };
        b.rf.mute = true;
        let e = b.lite_write(0x8, 5, 100, cycle).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, TbError::Hang { cycles: 100, .. }), "{text}");
        assert!(
            text.contains("AXI-Lite write 0x008 <- 0x00000005"),
            "{text}"
        );
        assert!(text.contains("waiting for BVALID"), "{text}");
        // A slave that never takes the address.
        let mut b = Bench {
            m: AxiLiteMaster::new(LiteConfig::always()),
            rf: RegFile::new(0, 0.0),
        };
        b.rf.r = Some((0, Resp::Okay)); // busy: ARREADY stays low
        b.rf.mute = true;
        let e = b.lite_read(0x8, 50, cycle).unwrap_err().to_string();
        assert!(e.contains("waiting for ARREADY"), "{e}");
    }

    #[test]
    fn early_bvalid_from_the_slave_is_a_protocol_error() {
        let mut b = Bench {
            m: AxiLiteMaster::new(LiteConfig::always()),
            rf: RegFile::new(0, 0.0),
        };
        // Control: the same slave without the bug passes.
        b.lite_write(0, 1, 100, cycle).unwrap();
        // Bug: B right after AW, while W is still held off.
        (b.rf.early_b, b.rf.hold_w) = (true, true);
        let e = b.lite_write(0, 1, 1000, cycle).unwrap_err().to_string();
        assert!(
            e.contains("BVALID before the slave accepted both AW and W"),
            "{e}"
        );
    }

    #[test]
    fn responses_that_are_dropped_changed_or_unsolicited_are_protocol_errors() {
        let ok = LiteSlaveSignals {
            awready: true,
            wready: true,
            arready: true,
            ..Default::default()
        };
        // Unsolicited.
        let mut m = AxiLiteMaster::new(LiteConfig::always());
        m.drive();
        let e = m
            .sample(&LiteSlaveSignals { rvalid: true, ..ok })
            .unwrap_err();
        assert!(
            e.to_string().contains("RVALID with no read in flight"),
            "{e}"
        );
        // RVALID dropped / RDATA changed while RREADY is low: find cycles where the random
        // master holds RREADY low.
        for (next, want) in [
            (
                LiteSlaveSignals {
                    rvalid: false,
                    ..ok
                },
                "RVALID dropped before RREADY",
            ),
            (
                LiteSlaveSignals {
                    rvalid: true,
                    rdata: 2,
                    ..ok
                },
                "R changed from 0x1/Okay to 0x2/Okay",
            ),
        ] {
            let mut m = AxiLiteMaster::new(LiteConfig::random(4, 0.7));
            m.start_read(0x10);
            let mut ar_done = false;
            let mut hit = false;
            for _ in 0..200 {
                let out = *m.drive();
                if ar_done && !out.rready {
                    m.sample(&LiteSlaveSignals {
                        rvalid: true,
                        rdata: 1,
                        ..ok
                    })
                    .unwrap();
                    m.drive();
                    let e = m.sample(&next).unwrap_err().to_string();
                    assert!(e.contains(want), "{e}");
                    hit = true;
                    break;
                }
                ar_done |= out.arvalid;
                m.sample(&ok).unwrap();
            }
            assert!(hit, "RREADY never low");
        }
    }

    fn lite_ports() -> Vec<cdma_sim::PortInfo> {
        use Dir::{In, Out};
        vec![
            port("clock", 1, In),
            port("s_axil_awaddr", 12, In),
            port("s_axil_awvalid", 1, In),
            port("s_axil_awready", 1, Out),
            port("s_axil_wdata", 32, In),
            port("s_axil_wstrb", 4, In),
            port("s_axil_wvalid", 1, In),
            port("s_axil_wready", 1, Out),
            port("s_axil_bresp", 2, Out),
            port("s_axil_bvalid", 1, Out),
            port("s_axil_bready", 1, In),
            port("s_axil_araddr", 12, In),
            port("s_axil_arvalid", 1, In),
            port("s_axil_arready", 1, Out),
            port("s_axil_rdata", 32, Out),
            port("s_axil_rresp", 2, Out),
            port("s_axil_rvalid", 1, Out),
            port("s_axil_rready", 1, In),
        ]
    }

    /// The register file behind a fake DUT, driven the way a DMA testbench drives the real one.
    struct DutBench {
        dut: FakeDut,
        csr: AxiLiteDut,
        rf: RegFile,
    }

    impl LiteAccess for DutBench {
        fn lite(&mut self) -> &mut AxiLiteMaster {
            &mut self.csr.master
        }
    }

    fn dut_cycle(b: &mut DutBench) -> Result<(), TbError> {
        b.csr.drive(&mut b.dut);
        // The design: registered outputs from its state, then sample its inputs.
        let s = b.rf.outputs();
        for (n, v) in [
            ("awready", s.awready.into()),
            ("wready", s.wready.into()),
            ("bresp", s.bresp.bits()),
            ("bvalid", s.bvalid.into()),
            ("arready", s.arready.into()),
            ("rdata", s.rdata.into()),
            ("rresp", s.rresp.bits()),
            ("rvalid", s.rvalid.into()),
        ] {
            b.dut.poke(&format!("s_axil_{n}"), v);
        }
        b.dut.eval();
        b.csr.sample(&b.dut)?;
        let p = |n: &str| b.dut.peek(&format!("s_axil_{n}"));
        let m = LiteMasterSignals {
            awaddr: p("awaddr") as u32,
            awvalid: p("awvalid") != 0,
            wdata: p("wdata") as u32,
            wstrb: p("wstrb") as u8,
            wvalid: p("wvalid") != 0,
            bready: p("bready") != 0,
            araddr: p("araddr") as u32,
            arvalid: p("arvalid") != 0,
            rready: p("rready") != 0,
        };
        b.rf.update(&m);
        b.dut.tick();
        Ok(())
    }

    #[test]
    fn dut_binding_drives_the_s_axil_ports() {
        let dut = FakeDut::new(lite_ports());
        let mut b = DutBench {
            csr: AxiLiteDut::new(&dut, "s_axil_", LiteConfig::random(5, 0.4)).unwrap(),
            dut,
            rf: RegFile::new(6, 0.4),
        };
        assert_eq!(b.csr.master.config().addr_bits, 12);
        assert_eq!(
            b.lite_write(0x3C, 0xDEAD_BEEF, 200, dut_cycle).unwrap(),
            Resp::Okay
        );
        assert_eq!(
            b.lite_write_strb(0x3C, 0x1234_5678, 0b0101, 200, dut_cycle)
                .unwrap(),
            Resp::Okay
        );
        assert_eq!(
            b.lite_read(0x3C, 200, dut_cycle).unwrap(),
            (0xDE34_BE78, Resp::Okay)
        );
        assert_eq!(
            b.lite_read(0x800, 200, dut_cycle).unwrap(),
            (0, Resp::Decerr)
        );
        // Missing and misshaped ports are reported by name.
        let ports: Vec<_> = lite_ports()
            .into_iter()
            .filter(|p| p.name != "s_axil_bready")
            .collect();
        let e = AxiLitePorts::bind(&FakeDut::new(ports), "s_axil_")
            .err()
            .unwrap();
        assert!(e.contains("s_axil_bready"), "{e}");
        let mut ports = lite_ports();
        ports[4].width = 64;
        let e = AxiLitePorts::bind(&FakeDut::new(ports), "s_axil_")
            .err()
            .unwrap();
        assert!(e.contains("s_axil_wdata is 64 bits, expected 32"), "{e}");
    }

    #[test]
    #[should_panic(expected = "does not fit 12 bits")]
    fn an_address_wider_than_the_port_is_refused() {
        let dut = FakeDut::new(lite_ports());
        let mut csr = AxiLiteDut::new(&dut, "s_axil_", LiteConfig::always()).unwrap();
        csr.master.start_read(0x1000);
    }
}
