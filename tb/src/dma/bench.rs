//! The bench: the engine, its AXI memory and its CSR master, stepped together; CSR access,
//! loading a scenario, ringing the doorbell and waiting for the chain to end.

use super::config::{engine_of, BenchConfig};
use super::report::RunReport;
use crate::axi::{AxiSlave, Channel};
use crate::axil::{AxiLiteDut, AxiLiteMaster, LiteAccess, LiteMasterSignals, LiteOutcome};
use crate::dma_check::{CsrSnapshot, Mismatch};
use crate::dma_scenario::{Expected, Scenario, FILL};
use crate::error::TbError;
use crate::watchdog::Watchdog;
use cdma_model::dma::EngineConfig;
use cdma_sim::Dut;
use cdma_spec::csr;

/// The engine, its memory and its CSR master.
pub struct DmaBench {
    /// The Verilated top (or a fake in tests).
    pub dut: Box<dyn Dut>,
    /// AXI-Lite master on `s_axil_*`.
    pub csr: AxiLiteDut,
    /// AXI memory on `m_axi_*`.
    pub axi: AxiSlave,
    /// The engine the chains are built for.
    pub engine: EngineConfig,
    /// Settings.
    pub cfg: BenchConfig,
    pub(super) rst: usize,
    pub(super) irq: Option<usize>,
    /// Memory-model cycle of every W handshake (for write utilisation).
    pub(super) w_cycles: Vec<u64>,
    /// Write bursts of earlier chains already wiped back to the fill byte (entries of the
    /// memory's write log).
    wiped_writes: usize,
}

impl LiteAccess for DmaBench {
    fn lite(&mut self) -> &mut AxiLiteMaster {
        &mut self.csr.master
    }
}

fn csr_name(addr: u32) -> &'static str {
    csr::ALL
        .iter()
        .find(|c| c.addr == addr)
        .map_or("?", |c| c.name)
}

impl DmaBench {
    /// Binds the ports of `dut` (`rst`, optional `irq`, `s_axil_*`, `m_axi_*`) and resets it.
    pub fn new(dut: Box<dyn Dut>, engine: EngineConfig, cfg: BenchConfig) -> Result<Self, String> {
        if cfg.mem.fill != FILL {
            return Err(format!(
                "the bench memory's fill byte must be {FILL:#x} (scenarios assume it)"
            ));
        }
        let csr = AxiLiteDut::new(&*dut, "s_axil_", cfg.lite)?;
        let axi = AxiSlave::new(&*dut, "m_axi_", cfg.mem.clone())?;
        if axi.ports.bus_bytes() != engine.bus_bytes() as usize {
            return Err(format!(
                "{}: m_axi is {} bytes wide, the engine configuration {}",
                dut.module(),
                axi.ports.bus_bytes(),
                engine.bus_bytes()
            ));
        }
        let rst = dut.port("rst").map_err(|e| e.to_string())?;
        let irq = dut.port("irq").ok();
        let mut b = DmaBench {
            dut,
            csr,
            axi,
            engine,
            cfg,
            rst,
            irq,
            w_cycles: Vec::new(),
            wiped_writes: 0,
        };
        b.reset();
        Ok(b)
    }

    /// A bench around a fresh model of the Verilated top `module` (its engine configuration
    /// from [`engine_of`]). Fails clearly when the top was not generated.
    pub fn open(module: &str, cfg: BenchConfig) -> Result<Self, String> {
        let engine = engine_of(module).ok_or_else(|| format!("{module} is not a DMA top"))?;
        let dut = cdma_sim::new_dut(module).map_err(|e| e.to_string())?;
        Self::new(dut, engine, cfg)
    }

    /// Holds `rst` high for the configured cycles with both buses idle; the memory keeps its
    /// content and forgets what was in flight.
    pub fn reset(&mut self) {
        let dut = &mut *self.dut;
        dut.set_u64(self.rst, 1).expect("rst is an input");
        self.axi.ports.drive_idle(dut);
        self.csr
            .ports
            .drive_signals(&LiteMasterSignals::default(), dut);
        for _ in 0..self.cfg.reset_cycles {
            dut.eval();
            dut.tick();
        }
        dut.set_u64(self.rst, 0).expect("rst is an input");
        self.axi.mem.reset_bus();
    }

    /// One clock cycle of everything. AXI protocol violations are recorded by the memory
    /// model and reported at the end of the run (the model keeps going), AXI-Lite ones end
    /// the run.
    pub fn step(&mut self) -> Result<(), TbError> {
        let dut = &mut *self.dut;
        self.csr.drive(dut);
        self.axi.drive(dut);
        dut.eval();
        self.csr.sample(dut)?;
        let w = self.axi.mem.stats().w_beats;
        // Violations are kept in `axi.mem.violations()`; see `finish_checks`.
        let _ = self.axi.sample(dut);
        if self.axi.mem.stats().w_beats != w {
            self.w_cycles.push(self.axi.mem.cycle() - 1);
        }
        dut.tick();
        Ok(())
    }

    fn step_fn(b: &mut DmaBench) -> Result<(), TbError> {
        b.step()
    }

    /// Writes a CSR; anything but OKAY is an error.
    pub fn csr_write(&mut self, addr: u32, value: u32) -> Result<(), TbError> {
        let limit = self.cfg.csr_limit;
        let r = self.lite_write(addr, value, limit, Self::step_fn)?;
        if r.is_err() {
            return Err(TbError::Protocol(format!(
                "CSR write {} ({addr:#x}) <- {value:#x} answered {r:?}",
                csr_name(addr)
            )));
        }
        Ok(())
    }

    /// Reads a CSR; anything but OKAY is an error.
    pub fn csr_read(&mut self, addr: u32) -> Result<u32, TbError> {
        let limit = self.cfg.csr_limit;
        let (v, r) = self.lite_read(addr, limit, Self::step_fn)?;
        if r.is_err() {
            return Err(TbError::Protocol(format!(
                "CSR read {} ({addr:#x}) answered {r:?}",
                csr_name(addr)
            )));
        }
        Ok(v)
    }

    /// Reads a 64-bit counter: LO (which latches HI), then HI.
    pub fn csr_read64(&mut self, lo: u32) -> Result<u64, TbError> {
        let l = self.csr_read(lo)?;
        let h = self.csr_read(lo + 4)?;
        Ok(u64::from(h) << 32 | u64::from(l))
    }

    /// Reads the CSRs a run is judged by.
    pub fn snapshot(&mut self) -> Result<CsrSnapshot, TbError> {
        Ok(CsrSnapshot {
            status: self.csr_read(csr::STATUS.addr)?,
            desc_done: self.csr_read(csr::DESC_DONE.addr)?,
            irq_status: self.csr_read(csr::IRQ_STATUS.addr)?,
            err_desc: u64::from(self.csr_read(csr::ERR_DESC_HI.addr)?) << 32
                | u64::from(self.csr_read(csr::ERR_DESC_LO.addr)?),
            perf_busy: self.csr_read64(csr::PERF_BUSY_LO.addr)?,
            perf_rd_bytes: self.csr_read64(csr::PERF_RD_BYTES_LO.addr)?,
            perf_wr_bytes: self.csr_read64(csr::PERF_WR_BYTES_LO.addr)?,
            perf_stall: self.csr_read64(csr::PERF_STALL_LO.addr)?,
        })
    }

    /// Checks ID, VERSION and HWCFG (bus width, element width, CHUNK_LOG2_MAX) against the
    /// engine configuration.
    pub fn identify(&mut self) -> Result<Vec<Mismatch>, TbError> {
        let mut out = Vec::new();
        let mut check = |name: &str, want: u64, got: u64| {
            if want != got {
                out.push(Mismatch::Csr {
                    name: name.into(),
                    expected: format!("{want:#x}"),
                    got: format!("{got:#x}"),
                });
            }
        };
        let id = self.csr_read(csr::ID.addr)?;
        let ver = self.csr_read(csr::VERSION.addr)?;
        let hw = u64::from(self.csr_read(csr::HWCFG.addr)?);
        check("ID", u64::from(csr::ID_VALUE), u64::from(id));
        check("VERSION", u64::from(csr::VERSION_VALUE), u64::from(ver));
        let want = u64::from(self.engine.hwcfg(0));
        for f in [
            csr::HWCFG_BUS_LOG2,
            csr::HWCFG_ELEM_MASK,
            csr::HWCFG_CHUNK_LOG2_MAX,
        ] {
            check(&format!("HWCFG.{}", f.name), f.get(want), f.get(hw));
        }
        Ok(out)
    }

    /// Writes the scenario's image into the memory (backdoor) and replaces the error ranges.
    /// What earlier chains wrote reads as the fill byte again first, as on a fresh bench: a
    /// chain that follows a stray `next` writes a status outside every region of its
    /// scenario, and a later chain's write to the same beat must not find it there.
    pub fn load(&mut self, scn: &Scenario) {
        let bb = self.axi.mem.bus_bytes();
        let wipe: Vec<(u64, usize)> = self.axi.mem.write_log()[self.wiped_writes..]
            .iter()
            .map(|w| (w.addr, w.beats as usize * bb))
            .collect();
        self.wiped_writes += wipe.len();
        for (addr, n) in wipe {
            self.axi.mem.write_bytes(addr, &vec![FILL; n]);
        }
        for s in &scn.image {
            self.axi.mem.write_bytes(s.addr, &s.data);
        }
        self.axi.mem.clear_errors();
        for e in &scn.errors {
            self.axi.mem.add_error(*e);
        }
    }

    /// Programs the CSRs for `scn` and rings the doorbell; returns the CSRs read just before
    /// the doorbell and the cycle its write began (the engine cannot be busy before it; it
    /// may be busy before the write's B response, so the run's cycles count from here).
    pub fn start(&mut self, scn: &Scenario) -> Result<(CsrSnapshot, u64), TbError> {
        let enable = csr::CTRL_ENABLE.set(0, 1) as u32;
        self.csr_write(csr::CTRL.addr, enable)?;
        self.csr_write(csr::HEAD_LO.addr, scn.head as u32)?;
        self.csr_write(csr::HEAD_HI.addr, (scn.head >> 32) as u32)?;
        self.csr_write(csr::IRQ_ENABLE.addr, scn.irq_enable)?;
        let all = csr::IRQ_BITS.iter().fold(0, |m, f| m | f.mask()) as u32;
        self.csr_write(csr::IRQ_STATUS.addr, all)?;
        let before = self.snapshot()?;
        let t0 = self.axi.mem.cycle();
        self.csr_write(csr::DOORBELL.addr, 1)?;
        Ok((before, t0))
    }

    pub(super) fn irq(&self) -> bool {
        self.irq
            .is_some_and(|p| self.dut.get_u64(p).expect("irq is an output") != 0)
    }

    /// Cycles until a STATUS read shows busy = 0 (polled every `poll_every` cycles, or as
    /// soon as `irq` rises) and returns that STATUS. A hang — the total budget, or no m_axi
    /// handshake for `idle_limit` cycles — is a [`TbError::Hang`] naming the last STATUS
    /// and what the buses were waiting for.
    pub fn wait_idle(&mut self, wd: &mut Watchdog, poll_every: u64) -> Result<u32, TbError> {
        let mut since_poll = poll_every;
        let mut last_status: Option<u32> = None;
        let mut irq_was = self.irq();
        loop {
            if let Some(LiteOutcome::Read(v, r)) = self.csr.master.take_result() {
                if r.is_err() {
                    return Err(TbError::Protocol(format!("STATUS read answered {r:?}")));
                }
                last_status = Some(v);
                if csr::STATUS_BUSY.get(u64::from(v)) == 0 {
                    return Ok(v);
                }
            }
            let irq = self.irq();
            if !self.csr.master.busy() && (since_poll >= poll_every || (irq && !irq_was)) {
                self.csr.master.start_read(csr::STATUS.addr);
                since_poll = 0;
            }
            irq_was = irq;
            wd.tick(|| {
                format!(
                    "STATUS.busy = 0 (last STATUS read: {}; irq {}); m_axi: {}; s_axil: {}; {} AXI violation(s)",
                    last_status.map_or("none yet".into(), |s| format!("{s:#x}")),
                    u8::from(irq),
                    self.axi.mem.pending(),
                    self.csr.master.pending(),
                    self.axi.mem.violations().len()
                )
            })?;
            let hs: Option<(u64, Channel)> = self.axi.mem.last_handshake();
            self.step()?;
            if self.axi.mem.last_handshake() != hs {
                wd.progress();
            }
            since_poll += 1;
        }
    }

    /// Runs up to `cycles` cycles of a started chain (the time before an abort or a reset
    /// lands), fewer if the chain is over by then: `irq` rose, or the bus has been quiet for
    /// half the idle limit (an idle engine; a hung one is the other campaigns' to catch).
    /// Returns the cycles run.
    pub(super) fn run_for(&mut self, wd: &mut Watchdog, cycles: u64) -> Result<u64, TbError> {
        let irq_was = self.irq();
        let mut quiet = 0;
        for n in 0..cycles {
            if (self.irq() && !irq_was) || quiet >= self.cfg.idle_limit / 2 {
                return Ok(n);
            }
            wd.tick(|| format!("the interruption point; m_axi: {}", self.axi.mem.pending()))?;
            let hs = self.axi.mem.last_handshake();
            self.step()?;
            if self.axi.mem.last_handshake() != hs {
                wd.progress();
                quiet = 0;
            } else {
                quiet += 1;
            }
        }
        Ok(cycles)
    }

    pub(super) fn watchdog(&self) -> Watchdog {
        Watchdog::new(self.cfg.limit).with_idle_limit(self.cfg.idle_limit)
    }

    /// Runs `scn`'s chain and compares everything with `exp` (normally `scn.expect()`).
    pub fn run(&mut self, scn: &Scenario, exp: &Expected) -> Result<RunReport, TbError> {
        let marks = self.marks();
        let mut pre = self.identify()?;
        self.load(scn);
        let (before, t0) = self.start(scn)?;
        let mut wd = self.watchdog();
        self.wait_idle(&mut wd, self.cfg.poll_every)?;
        let cycles = self.axi.mem.cycle() - t0;
        let after = self.snapshot()?;
        let mut r = self.finish(scn, exp, &marks, before, after, cycles)?;
        pre.append(&mut r.mismatches);
        r.mismatches = pre;
        Ok(r)
    }
}
