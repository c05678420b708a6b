//! End-to-end testbench of the DMA engine (`cdma_dma_top` and its bus-width variants).
//!
//! A [`DmaBench`] owns the Verilated top (any [`Dut`] with the ports of docs/ARCHITECTURE.md
//! "External ports"), the AXI4 memory on `m_axi_*` ([`AxiSlave`]) and the AXI-Lite master on
//! `s_axil_*` ([`AxiLiteDut`]). [`DmaBench::run`] loads a [`Scenario`]'s memory image,
//! programs the CSRs (CTRL.enable, HEAD, IRQ_ENABLE, IRQ_STATUS cleared, DOORBELL), cycles
//! under a [`Watchdog`] until STATUS.busy reads 0 (polled over AXI-Lite, and at once when
//! `irq` rises), and compares memory, status words, CSRs and PERF counters with the golden
//! model ([`crate::dma_check`]), plus the AXI protocol record and an idle bus at the end.
//!
//! Per cycle (the order of [`crate::axi`] and [`crate::axil`]): `csr.drive`, `mem.drive`,
//! `eval`, `csr.sample`, `mem.sample`, `tick`.
//!
//! [`DmaCase`] / [`DmaResult`] are the shape `cdma regress` can list next to the ZVC rows.

use std::ops::Range;

use cdma_model::dma::{codes, status_word, ChainEnd, EngineConfig, Op};
use cdma_sim::Dut;
use cdma_spec::csr;

use crate::axi::{AxiMemConfig, AxiSlave, AxiStats, Channel};
use crate::axil::{AxiLiteDut, LiteAccess, LiteConfig, LiteMasterSignals, LiteOutcome};
use crate::dma_check::{
    compare_csrs, compare_memory, is_aborted, status_code, writeback_range, BusDelta, CsrSnapshot,
    Mismatch,
};
use crate::dma_scenario::{desc_op, meta_bytes, Expected, RegionKind, Scenario, FILL};
use crate::watchdog::Watchdog;
use crate::zvc::TbError;

/// The default engine top (DW = 1024, E = 32).
pub const TOP: &str = "cdma_dma_top";

/// Every DMA engine top the generator emits, widest bus first: (module, bus bits, element
/// bits). `cdma regress` runs them all by default.
pub const DMA_TOPS: [(&str, u32, u32); 3] = [
    ("cdma_dma_top", 1024, 32),
    ("cdma_dma_dw512", 512, 16),
    ("cdma_dma_dw256", 256, 8),
];

/// The engine configuration of a top by module name (`cdma_dma_top`, `cdma_dma_dw256`,
/// `cdma_dma_dw512`), with default `CHUNK_LOG2_MAX` and `IDX_LOG2`.
pub fn engine_of(module: &str) -> Option<EngineConfig> {
    let module = if module == "cdma_dma_dw1024" {
        "cdma_dma_top"
    } else {
        module
    };
    let &(_, bits, _) = DMA_TOPS.iter().find(|t| t.0 == module)?;
    EngineConfig::new(bits / 8).ok()
}

/// Whether `module` was Verilated into this build (`cdma_sim::TOPS`).
pub fn top_available(module: &str) -> bool {
    cdma_sim::TOPS.iter().any(|t| t.module == module)
}

/// Bench settings.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The AXI memory (its `fill` must be [`FILL`]).
    pub mem: AxiMemConfig,
    /// The AXI-Lite master.
    pub lite: LiteConfig,
    /// Cycles between STATUS polls while waiting for the chain.
    pub poll_every: u64,
    /// Total cycle budget of one chain.
    pub limit: u64,
    /// Cycles without any m_axi handshake before the run is declared hung.
    pub idle_limit: u64,
    /// Cycle budget of one CSR access.
    pub csr_limit: u64,
    /// Cycles `rst` is held.
    pub reset_cycles: u32,
}

impl BenchConfig {
    /// Random latency and backpressure on m_axi (`AxiMemConfig::random`), random AXI-Lite
    /// delays.
    pub fn random(data_bits: u32, seed: u64) -> Self {
        BenchConfig {
            mem: AxiMemConfig {
                fill: FILL,
                ..AxiMemConfig::random(data_bits, seed)
            },
            lite: LiteConfig::random(seed ^ 0x5A5A, 0.3),
            poll_every: 64,
            limit: 20_000_000,
            idle_limit: 20_000,
            csr_limit: 2_000,
            reset_cycles: 5,
        }
    }

    /// Fixed latency, no backpressure anywhere (throughput).
    pub fn fixed(data_bits: u32, latency: u32) -> Self {
        BenchConfig {
            mem: AxiMemConfig {
                fill: FILL,
                ..AxiMemConfig::fixed(data_bits, latency)
            },
            lite: LiteConfig::always(),
            poll_every: 256,
            ..Self::random(data_bits, 0)
        }
    }
}

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
    rst: usize,
    irq: Option<usize>,
    /// Memory-model cycle of every W handshake (for write utilisation).
    w_cycles: Vec<u64>,
}

impl LiteAccess for DmaBench {
    fn lite(&mut self) -> &mut crate::axil::AxiLiteMaster {
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
            csr::HWCFG_ELEM_BITS,
            csr::HWCFG_CHUNK_LOG2_MAX,
        ] {
            check(&format!("HWCFG.{}", f.name), f.get(want), f.get(hw));
        }
        Ok(out)
    }

    /// Writes the scenario's image into the memory (backdoor) and replaces the error ranges.
    pub fn load(&mut self, scn: &Scenario) {
        for s in &scn.image {
            self.axi.mem.write_bytes(s.addr, &s.data);
        }
        self.axi.mem.clear_errors();
        for e in &scn.errors {
            self.axi.mem.add_error(*e);
        }
    }

    /// Programs the CSRs for `scn` and rings the doorbell; returns the CSRs read just before
    /// the doorbell.
    pub fn start(&mut self, scn: &Scenario) -> Result<CsrSnapshot, TbError> {
        let enable = csr::CTRL_ENABLE.set(0, 1) as u32;
        self.csr_write(csr::CTRL.addr, enable)?;
        self.csr_write(csr::HEAD_LO.addr, scn.head as u32)?;
        self.csr_write(csr::HEAD_HI.addr, (scn.head >> 32) as u32)?;
        self.csr_write(csr::IRQ_ENABLE.addr, scn.irq_enable)?;
        let all = csr::IRQ_BITS.iter().fold(0, |m, f| m | f.mask()) as u32;
        self.csr_write(csr::IRQ_STATUS.addr, all)?;
        let before = self.snapshot()?;
        self.csr_write(csr::DOORBELL.addr, 1)?;
        Ok(before)
    }

    fn irq(&self) -> bool {
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

    fn watchdog(&self) -> Watchdog {
        Watchdog::new(self.cfg.limit).with_idle_limit(self.cfg.idle_limit)
    }

    /// Runs `scn`'s chain and compares everything with `exp` (normally `scn.expect()`).
    pub fn run(&mut self, scn: &Scenario, exp: &Expected) -> Result<RunReport, TbError> {
        let marks = self.marks();
        let mut pre = self.identify()?;
        self.load(scn);
        let before = self.start(scn)?;
        let t0 = self.axi.mem.cycle();
        let mut wd = self.watchdog();
        self.wait_idle(&mut wd, self.cfg.poll_every)?;
        let cycles = self.axi.mem.cycle() - t0;
        let after = self.snapshot()?;
        let mut r = self.finish(scn, exp, &marks, before, after, cycles)?;
        pre.append(&mut r.mismatches);
        r.mismatches = pre;
        Ok(r)
    }

    fn marks(&self) -> Marks {
        Marks {
            reads: self.axi.mem.read_log().len(),
            writes: self.axi.mem.write_log().len(),
            w_beats: self.w_cycles.len(),
            violations: self.axi.mem.violations().len(),
            stats: *self.axi.mem.stats(),
        }
    }

    /// Comparison and bus checks after a chain has ended.
    fn finish(
        &mut self,
        scn: &Scenario,
        exp: &Expected,
        marks: &Marks,
        before: CsrSnapshot,
        after: CsrSnapshot,
        cycles: u64,
    ) -> Result<RunReport, TbError> {
        let stats = stats_delta(self.axi.mem.stats(), &marks.stats);
        let mut mismatches = Vec::new();
        // Bus: protocol record since the doorbell, nothing left in flight.
        for v in &self.axi.mem.violations()[marks.violations..] {
            mismatches.push(Mismatch::Bus(v.to_string()));
        }
        if let Err(v) = self.axi.mem.check_idle() {
            mismatches.push(Mismatch::Bus(v.to_string()));
        }
        // `irq` must be the OR of the enabled causes.
        if let Some(p) = self.irq {
            let want = after.irq_status & scn.irq_enable != 0;
            let got = self.dut.get_u64(p).expect("irq is an output") != 0;
            if want != got {
                mismatches.push(Mismatch::Other(format!(
                    "irq is {} with IRQ_STATUS {:#x} and IRQ_ENABLE {:#x}",
                    u8::from(got),
                    after.irq_status,
                    scn.irq_enable
                )));
            }
        }
        let bb = u64::from(self.engine.bus_bytes());
        let touched: Vec<Range<u64>> = self.axi.mem.write_log()[marks.writes..]
            .iter()
            .map(|w| w.addr..w.addr + u64::from(w.beats) * bb)
            .collect();
        let mem = &self.axi.mem;
        mismatches.extend(compare_memory(
            scn,
            exp,
            &|a, n| mem.read_bytes(a, n),
            &touched,
        ));
        let bus = BusDelta { cycles, stats };
        mismatches.extend(compare_csrs(scn, &exp.outcome, &before, &after, &bus));
        let (raw_bytes, payload_bytes) = compress_totals(exp);
        Ok(RunReport {
            name: scn.name.clone(),
            cycles,
            mismatches,
            before,
            after,
            stats,
            raw_bytes,
            payload_bytes,
            read_utilisation: self.read_utilisation(scn, marks),
            write_utilisation: self.write_utilisation(scn, marks),
            notes: Vec::new(),
        })
    }

    fn is_desc_burst(scn: &Scenario, addr: u64, bytes: u64) -> bool {
        scn.regions.iter().any(|r| {
            r.kind == RegionKind::Descriptor && r.range.start < addr + bytes && addr < r.range.end
        })
    }

    /// R beats over the cycles from the first AR to the last R of the data reads since
    /// `marks` (descriptor fetches excluded).
    fn read_utilisation(&self, scn: &Scenario, marks: &Marks) -> Option<f64> {
        let bb = u64::from(self.engine.bus_bytes());
        let data: Vec<_> = self.axi.mem.read_log()[marks.reads..]
            .iter()
            .filter(|r| !Self::is_desc_burst(scn, r.addr, u64::from(r.beats) * bb))
            .collect();
        let first = data.iter().map(|r| r.accepted).min()?;
        let last = data.iter().filter_map(|r| r.done).max()?;
        let beats: u64 = data.iter().map(|r| u64::from(r.beats)).sum();
        Some(beats as f64 / (last - first + 1) as f64)
    }

    /// W beats over the cycles from the first AW to the last W of the data writes since
    /// `marks` (status write-backs excluded). W beats belong to bursts in AW order.
    fn write_utilisation(&self, scn: &Scenario, marks: &Marks) -> Option<f64> {
        let bb = u64::from(self.engine.bus_bytes());
        let w = &self.w_cycles[marks.w_beats..];
        let mut at = 0usize;
        let (mut first, mut last, mut beats) = (u64::MAX, 0u64, 0u64);
        for b in &self.axi.mem.write_log()[marks.writes..] {
            let n = b.beats as usize;
            let cycles = &w[at.min(w.len())..(at + n).min(w.len())];
            at += n;
            if Self::is_desc_burst(scn, b.addr, n as u64 * bb) {
                continue;
            }
            first = first.min(b.accepted);
            if let Some(&l) = cycles.last() {
                last = last.max(l);
            }
            beats += n as u64;
        }
        (beats > 0 && last >= first).then(|| beats as f64 / (last - first + 1) as f64)
    }

    /// Runs `scn` and writes CTRL.abort `after` cycles past the doorbell. The engine must be
    /// idle within `bound` cycles of the abort write's response. Judged per descriptor: the
    /// descriptors done before the abort landed must match the model (the chain cut after
    /// them, [`Scenario::expect_prefix`]); the one running then must say ABORTED with its
    /// destination (and COMPRESS metadata) unspecified; nothing else may change, guards
    /// included. `scn`'s status words must start as zero ([`crate::dma_faults::abort_chain`]).
    pub fn run_abort(
        &mut self,
        scn: &Scenario,
        after: u64,
        bound: u64,
    ) -> Result<RunReport, TbError> {
        let marks = self.marks();
        self.load(scn);
        let before = self.start(scn)?;
        let t0 = self.axi.mem.cycle();
        let mut wd = self.watchdog();
        for _ in 0..after {
            wd.tick(|| "the abort point".into())?;
            self.step()?;
        }
        let enable = csr::CTRL_ENABLE.set(0, 1);
        self.csr_write(csr::CTRL.addr, csr::CTRL_ABORT.set(enable, 1) as u32)?;
        let t_abort = self.axi.mem.cycle();
        // Poll back to back: the idle time is measured to within one CSR read.
        self.wait_idle(&mut wd, 0)?;
        let idle_after = self.axi.mem.cycle() - t_abort;
        let cycles = self.axi.mem.cycle() - t0;
        let after_csr = self.snapshot()?;
        // Which descriptors finished: status words started zero, so `done` is the engine's.
        let words: Vec<u32> = scn
            .descs
            .iter()
            .map(|p| {
                let b = self.axi.mem.read_bytes(writeback_range(p.addr).start, 4);
                u32::from_le_bytes(b.try_into().expect("4 bytes"))
            })
            .collect();
        let k = words
            .iter()
            .take_while(|w| status_code(**w).is_some())
            .count();
        let mut notes = vec![format!(
            "abort written at cycle {} after the doorbell; idle {idle_after} cycles later; {k} of {} descriptors done",
            t_abort - t0,
            scn.descs.len()
        )];
        let mut extra = Vec::new();
        if idle_after > bound {
            extra.push(Mismatch::Other(format!(
                "engine idle {idle_after} cycles after the abort, bound {bound}"
            )));
        }
        let exp = if k > 0 && is_aborted(words[k - 1]) {
            let mut exp = scn.expect_prefix(k - 1);
            let p = &scn.descs[k - 1];
            let mut wb = status_word(codes::ABORTED).to_le_bytes().to_vec();
            wb.extend_from_slice(&0u32.to_le_bytes());
            exp.mem.load(writeback_range(p.addr).start, &wb);
            let dd = p.desc;
            exp.unspecified
                .push(dd.dst_addr..dd.dst_addr + u64::from(dd.dst_cap));
            if desc_op(&dd) == Some(Op::Compress) {
                let c = cdma_spec::desc::CTRL_CHUNK_LOG2.get(u64::from(dd.control)) as u8;
                let c = if c == 0 { 12 } else { c };
                exp.unspecified
                    .push(dd.meta_addr..dd.meta_addr + meta_bytes(dd.src_len, c));
            }
            let o = &mut exp.outcome;
            o.desc_done += 1;
            o.status = csr::STATUS_ERR_CODE.set(csr::STATUS_ERROR.set(0, 1), 10) as u32;
            o.err_desc = Some(p.addr);
            o.irq_status = (csr::IRQ_DONE.mask() | csr::IRQ_ERROR.mask()) as u32;
            o.end = ChainEnd::StoppedOnError;
            notes.push(format!("d{} ABORTED", k - 1));
            exp
        } else if k == scn.descs.len() {
            notes.push("the abort landed after the chain ended".into());
            scn.expect()
        } else {
            // Ended between descriptors without an ABORTED status (the abort met a fetch):
            // memory as the prefix; the CSRs may name the unfetched descriptor.
            notes.push(format!(
                "chain ended after d{} without an ABORTED status",
                k.saturating_sub(1)
            ));
            let mut exp = scn.expect_prefix(k);
            let o = &mut exp.outcome;
            let dd = after_csr.desc_done.wrapping_sub(before.desc_done);
            if dd == o.desc_done + 1 {
                o.desc_done = dd;
                o.status = after_csr.status;
                o.err_desc = Some(scn.descs[k].addr);
                o.irq_status = after_csr.irq_status;
            }
            exp
        };
        let mut r = self.finish(scn, &exp, &marks, before, after_csr, cycles)?;
        extra.append(&mut r.mismatches);
        r.mismatches = extra;
        r.notes = notes;
        Ok(r)
    }
}

struct Marks {
    reads: usize,
    writes: usize,
    w_beats: usize,
    violations: usize,
    stats: AxiStats,
}

fn stats_delta(a: &AxiStats, b: &AxiStats) -> AxiStats {
    let ch = |x: crate::axi::PerChannel, y: crate::axi::PerChannel| crate::axi::PerChannel {
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
fn compress_totals(exp: &Expected) -> (u64, u64) {
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

/// An abort to aim at a case's chain, and the chain to run after it.
#[derive(Clone, Debug)]
pub struct AbortPlan {
    /// Cycles after the doorbell the abort is written.
    pub after: u64,
    /// Cycles the engine may take to become idle after the abort write's response.
    pub bound: u64,
    /// A chain (in another address window) that must then run correctly.
    pub then: Scenario,
}

/// One DMA regression row: a chain, or a chain with an abort.
#[derive(Clone, Debug)]
pub struct DmaCase {
    /// Case name.
    pub name: String,
    /// Summary group (`dma-corpus`, `dma-fault`, `dma-abort`, `dma-throughput`).
    pub group: String,
    /// The chain.
    pub scenario: Scenario,
    /// Abort plan, if any.
    pub abort: Option<AbortPlan>,
}

/// The outcome of one case (the shape of [`crate::regress::CaseResult`] rows).
#[derive(Clone, Debug, Default)]
pub struct DmaResult {
    /// Case name.
    pub name: String,
    /// Summary group.
    pub group: String,
    /// Chains run (2 for an abort case).
    pub runs: usize,
    /// Mismatches found over all runs.
    pub mismatches: usize,
    /// First mismatches, or the error that ended the case (None: clean).
    pub failure: Option<String>,
    /// Cycles over all runs.
    pub cycles: u64,
    /// Bytes moved on m_axi (read + written).
    pub bytes: u64,
    /// Uncompressed bytes of the COMPRESS descriptors.
    pub raw_bytes: u64,
    /// Their payload bytes.
    pub payload_bytes: u64,
    /// Read-bus utilisation of the last run that read data ([`RunReport::read_utilisation`]).
    pub read_utilisation: Option<f64>,
    /// Write-bus utilisation of the last run that wrote data.
    pub write_utilisation: Option<f64>,
}

impl DmaResult {
    /// Uncompressed / payload bytes of the case's COMPRESS descriptors.
    pub fn ratio(&self) -> f64 {
        self.raw_bytes as f64 / self.payload_bytes.max(1) as f64
    }

    fn add(&mut self, r: &RunReport) {
        self.runs += 1;
        self.mismatches += r.mismatches.len();
        self.cycles += r.cycles;
        self.bytes += r.stats.bytes_read + r.stats.bytes_written;
        self.raw_bytes += r.raw_bytes;
        self.payload_bytes += r.payload_bytes;
        self.read_utilisation = r.read_utilisation.or(self.read_utilisation);
        self.write_utilisation = r.write_utilisation.or(self.write_utilisation);
        if !r.mismatches.is_empty() && self.failure.is_none() {
            self.failure = Some(format!("{}:\n{}", r.name, r.describe(10)));
        }
    }
}

/// Runs `case` on `bench` (reset in between is the caller's choice).
pub fn run_case_on(bench: &mut DmaBench, case: &DmaCase) -> DmaResult {
    let mut res = DmaResult {
        name: case.name.clone(),
        group: case.group.clone(),
        ..Default::default()
    };
    let outcome = (|| -> Result<(), TbError> {
        match &case.abort {
            None => {
                let r = bench.run(&case.scenario, &case.scenario.expect())?;
                res.add(&r);
            }
            Some(plan) => {
                let r = bench.run_abort(&case.scenario, plan.after, plan.bound)?;
                res.add(&r);
                let r = bench.run(&plan.then, &plan.then.expect())?;
                res.add(&r);
            }
        }
        Ok(())
    })();
    if let Err(e) = outcome {
        res.mismatches += 1;
        res.failure = Some(format!("{}: {e}", case.name));
    }
    res
}

/// Runs `case` on a fresh model of `top`.
pub fn run_case(top: &str, case: &DmaCase, cfg: BenchConfig) -> DmaResult {
    match DmaBench::open(top, cfg) {
        Ok(mut b) => run_case_on(&mut b, case),
        Err(e) => DmaResult {
            name: case.name.clone(),
            group: case.group.clone(),
            mismatches: 1,
            failure: Some(e),
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axi::fake::{port, FakeDut};
    use crate::dma_faults::relu_data;
    use crate::dma_scenario::{random_chain, RandomOpts, Tensor};
    use cdma_model::dma::ChainOutcome;
    use cdma_sim::{Dir, PortInfo, SimError};
    use rand::SeedableRng;
    use std::collections::VecDeque;
    use std::path::Path;

    #[derive(Clone, Copy, PartialEq)]
    enum Mode {
        /// Busy forever after the doorbell.
        Hang,
        /// Never busy, writes nothing.
        Lazy,
        /// Writes the given beats, then reports the given CSRs.
        Perfect,
    }

    /// A pure-Rust stand-in for `cdma_dma_top`: a registered AXI-Lite CSR slave and an AXI
    /// master that writes a list of single-beat bursts (the model's result) after the
    /// doorbell. Enough to exercise the runner's cycle loop, hang detection and comparison.
    struct FakeEngine {
        io: FakeDut,
        bb: usize,
        mode: Mode,
        beats: Vec<(u64, Vec<u8>, u128)>,
        outcome: Option<ChainOutcome>,
        // CSR state
        busy: bool,
        desc_done: u32,
        status: u32,
        irq_status: u32,
        irq_enable: u32,
        err_desc: u64,
        perf: [u64; 4],
        latched: u32,
        aw: Option<u32>,
        w: Option<u32>,
        b: bool,
        r: Option<u32>,
        // AXI write master
        queue: VecDeque<(u64, Vec<u8>, u128)>,
        aw_done: bool,
        w_done: bool,
        waiting_b: bool,
    }

    fn ports(bb: usize) -> Vec<PortInfo> {
        use Dir::{In, Out};
        let mut v = vec![
            port("clock", 1, In),
            port("rst", 1, In),
            port("irq", 1, Out),
        ];
        for (n, w, d) in [
            ("awaddr", 12, In),
            ("awvalid", 1, In),
            ("awready", 1, Out),
            ("wdata", 32, In),
            ("wstrb", 4, In),
            ("wvalid", 1, In),
            ("wready", 1, Out),
            ("bresp", 2, Out),
            ("bvalid", 1, Out),
            ("bready", 1, In),
            ("araddr", 12, In),
            ("arvalid", 1, In),
            ("arready", 1, Out),
            ("rdata", 32, Out),
            ("rresp", 2, Out),
            ("rvalid", 1, Out),
            ("rready", 1, In),
        ] {
            v.push(port(
                Box::leak(format!("s_axil_{n}").into_boxed_str()),
                w,
                d,
            ));
        }
        for (n, w, d) in [
            ("awid", 1, Out),
            ("awaddr", 64, Out),
            ("awlen", 8, Out),
            ("awsize", 3, Out),
            ("awburst", 2, Out),
            ("awvalid", 1, Out),
            ("awready", 1, In),
            ("wdata", bb * 8, Out),
            ("wstrb", bb, Out),
            ("wlast", 1, Out),
            ("wvalid", 1, Out),
            ("wready", 1, In),
            ("bid", 1, In),
            ("bresp", 2, In),
            ("bvalid", 1, In),
            ("bready", 1, Out),
            ("arid", 1, Out),
            ("araddr", 64, Out),
            ("arlen", 8, Out),
            ("arsize", 3, Out),
            ("arburst", 2, Out),
            ("arvalid", 1, Out),
            ("arready", 1, In),
            ("rid", 1, In),
            ("rdata", bb * 8, In),
            ("rresp", 2, In),
            ("rlast", 1, In),
            ("rvalid", 1, In),
            ("rready", 1, Out),
        ] {
            v.push(port(Box::leak(format!("m_axi_{n}").into_boxed_str()), w, d));
        }
        v
    }

    /// The single-beat writes that turn `before` into `after` (bytes outside `after`'s
    /// differences are strobed off).
    fn beats_between(scn: &Scenario, exp: &Expected) -> Vec<(u64, Vec<u8>, u128)> {
        let bb = scn.bus_bytes();
        let mut out: Vec<(u64, Vec<u8>, u128)> = Vec::new();
        for r in exp.mem.diff(&scn.model_memory()) {
            for a in r {
                let base = a & !(bb - 1);
                if out.last().map(|l| l.0) != Some(base) {
                    out.push((base, exp.mem.peek(base, bb as usize), 0));
                }
                out.last_mut().unwrap().2 |= 1u128 << (a - base);
            }
        }
        out
    }

    impl FakeEngine {
        fn new(bb: usize, mode: Mode) -> Self {
            FakeEngine {
                io: FakeDut::new(ports(bb)),
                bb,
                mode,
                beats: Vec::new(),
                outcome: None,
                busy: false,
                desc_done: 0,
                status: 0,
                irq_status: 0,
                irq_enable: 0,
                err_desc: 0,
                perf: [0; 4],
                latched: 0,
                aw: None,
                w: None,
                b: false,
                r: None,
                queue: VecDeque::new(),
                aw_done: false,
                w_done: false,
                waiting_b: false,
            }
        }

        fn read(&mut self, addr: u32) -> u32 {
            let perf = |i: usize| i;
            match addr {
                0x000 => csr::ID_VALUE,
                0x004 => csr::VERSION_VALUE,
                0x008 => EngineConfig::new(self.bb as u32).unwrap().hwcfg(8),
                0x014 => self.status | u32::from(self.busy),
                0x018 => self.desc_done,
                0x030 => self.irq_status,
                0x034 => self.irq_enable,
                0x040 => self.err_desc as u32,
                0x044 => (self.err_desc >> 32) as u32,
                0x080 | 0x088 | 0x090 | 0x098 => {
                    let v = self.perf[perf(((addr - 0x80) / 8) as usize)];
                    self.latched = (v >> 32) as u32;
                    v as u32
                }
                0x084 | 0x08C | 0x094 | 0x09C => self.latched,
                _ => 0,
            }
        }

        fn write(&mut self, addr: u32, v: u32) {
            match addr {
                0x030 => self.irq_status &= !v,
                0x034 => self.irq_enable = v,
                0x028 if !self.busy => match self.mode {
                    Mode::Hang => self.busy = true,
                    Mode::Lazy => {}
                    Mode::Perfect => {
                        self.busy = true;
                        self.queue = self.beats.iter().cloned().collect();
                    }
                },
                _ => {}
            }
        }

        fn finish_chain(&mut self) {
            self.busy = false;
            if let Some(o) = &self.outcome {
                self.desc_done = self.desc_done.wrapping_add(o.desc_done);
                self.status = o.status;
                self.irq_status |= o.irq_status;
                if let Some(a) = o.err_desc {
                    self.err_desc = a;
                }
            }
        }
    }

    impl Dut for FakeEngine {
        fn module(&self) -> &'static str {
            "fake_dma"
        }
        fn ports(&self) -> &'static [PortInfo] {
            self.io.ports()
        }
        fn params(&self) -> &'static [(&'static str, u64)] {
            &[]
        }
        fn eval(&mut self) {
            // Registered outputs: a function of the state only.
            let io = &mut self.io;
            io.poke("s_axil_awready", u64::from(self.aw.is_none() && !self.b));
            io.poke("s_axil_wready", u64::from(self.w.is_none() && !self.b));
            io.poke("s_axil_bvalid", u64::from(self.b));
            io.poke("s_axil_bresp", 0);
            io.poke("s_axil_arready", u64::from(self.r.is_none()));
            io.poke("s_axil_rvalid", u64::from(self.r.is_some()));
            io.poke("s_axil_rdata", u64::from(self.r.unwrap_or(0)));
            io.poke("s_axil_rresp", 0);
            io.poke("irq", u64::from(self.irq_status & self.irq_enable != 0));
            let head = self.queue.front().cloned();
            io.poke(
                "m_axi_awvalid",
                u64::from(head.is_some() && !self.aw_done && !self.waiting_b),
            );
            io.poke(
                "m_axi_wvalid",
                u64::from(head.is_some() && !self.w_done && !self.waiting_b),
            );
            if let Some((a, data, strb)) = head {
                io.poke("m_axi_awaddr", a);
                io.poke("m_axi_awlen", 0);
                io.poke("m_axi_awsize", u64::from(self.bb.trailing_zeros()));
                io.poke("m_axi_awburst", 1);
                let words: Vec<u32> = data
                    .chunks(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                io.poke_words("m_axi_wdata", &words);
                let sw: Vec<u32> = (0..self.bb.div_ceil(32))
                    .map(|i| (strb >> (32 * i)) as u32)
                    .collect();
                io.poke_words("m_axi_wstrb", &sw);
                io.poke("m_axi_wlast", 1);
            }
            io.poke("m_axi_bready", 1);
            io.poke("m_axi_rready", 1);
            io.poke("m_axi_arvalid", 0);
        }
        fn tick(&mut self) {
            let p = |s: &Self, n: &str| s.io.peek(n) != 0;
            if p(self, "rst") {
                let (bb, mode, beats, outcome) =
                    (self.bb, self.mode, self.beats.clone(), self.outcome.clone());
                let io = std::mem::replace(&mut self.io, FakeDut::new(Vec::new()));
                *self = FakeEngine::new(bb, mode);
                self.io = io;
                self.beats = beats;
                self.outcome = outcome;
                return;
            }
            // AXI-Lite slave.
            if p(self, "s_axil_bvalid") && p(self, "s_axil_bready") {
                self.b = false;
            }
            if p(self, "s_axil_rvalid") && p(self, "s_axil_rready") {
                self.r = None;
            }
            if p(self, "s_axil_awvalid") && p(self, "s_axil_awready") {
                self.aw = Some(self.io.peek("s_axil_awaddr") as u32);
            }
            if p(self, "s_axil_wvalid") && p(self, "s_axil_wready") {
                self.w = Some(self.io.peek("s_axil_wdata") as u32);
            }
            if let (Some(a), Some(v)) = (self.aw, self.w) {
                self.write(a, v);
                (self.aw, self.w, self.b) = (None, None, true);
            }
            if p(self, "s_axil_arvalid") && p(self, "s_axil_arready") {
                let a = self.io.peek("s_axil_araddr") as u32;
                self.r = Some(self.read(a));
            }
            // AXI write master and PERF counters.
            if self.busy {
                self.perf[0] += 1;
                let aw_stall = p(self, "m_axi_awvalid") && !p(self, "m_axi_awready");
                let w_stall = p(self, "m_axi_wvalid") && !p(self, "m_axi_wready");
                self.perf[3] += u64::from(aw_stall || w_stall);
            }
            if p(self, "m_axi_awvalid") && p(self, "m_axi_awready") {
                self.aw_done = true;
            }
            if p(self, "m_axi_wvalid") && p(self, "m_axi_wready") {
                self.w_done = true;
                let strb = self.queue.front().unwrap().2;
                self.perf[2] += u64::from(strb.count_ones());
            }
            if self.aw_done && self.w_done {
                self.waiting_b = true;
            }
            if self.waiting_b && p(self, "m_axi_bvalid") {
                self.queue.pop_front();
                (self.aw_done, self.w_done, self.waiting_b) = (false, false, false);
            }
            if self.busy && self.mode == Mode::Perfect && self.queue.is_empty() && !self.waiting_b {
                self.finish_chain();
            }
        }
        fn time(&self) -> u64 {
            0
        }
        fn trace_vcd(&mut self, _: &Path) -> Result<(), SimError> {
            Ok(())
        }
        fn close_trace(&mut self) {}
        fn set_words(&mut self, port: usize, words: &[u32]) -> Result<(), SimError> {
            self.io.set_words(port, words)
        }
        fn get_words(&self, port: usize, words: &mut [u32]) -> Result<(), SimError> {
            self.io.get_words(port, words)
        }
    }

    fn scenario(engine: &EngineConfig, seed: u64) -> Scenario {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let ts: Vec<Tensor> = (0..2)
            .map(|i| Tensor {
                name: format!("t{i}"),
                data: relu_data(700 + 300 * i, engine.elem(), &mut rng),
            })
            .collect();
        random_chain("fake", engine, &ts, seed, &RandomOpts::default())
    }

    fn bench(engine: EngineConfig, fake: FakeEngine, seed: u64) -> DmaBench {
        let mut cfg = BenchConfig::random(engine.bus_bytes() * 8, seed);
        // The fake writes one beat per round trip of up to 200 cycles of latency.
        cfg.limit = 3_000_000;
        cfg.idle_limit = 20_000;
        DmaBench::new(Box::new(fake), engine, cfg).unwrap()
    }

    #[test]
    fn an_engine_that_stays_busy_is_reported_as_a_hang_with_the_last_status() {
        let engine = EngineConfig::new(64).unwrap();
        let scn = scenario(&engine, 1);
        let mut b = bench(engine, FakeEngine::new(64, Mode::Hang), 1);
        let e = b.run(&scn, &scn.expect()).unwrap_err().to_string();
        assert!(e.starts_with("hang:"), "{e}");
        assert!(e.contains("STATUS.busy = 0 (last STATUS read: 0x1"), "{e}");
        assert!(e.contains("m_axi: "), "{e}");
        // The idle limit catches a silent engine long before the total budget.
        let mut b = bench(engine, FakeEngine::new(64, Mode::Hang), 2);
        b.cfg.idle_limit = 500;
        let e = b.run(&scn, &scn.expect()).unwrap_err().to_string();
        assert!(e.contains("no progress for 500 cycles"), "{e}");
    }

    #[test]
    fn an_engine_that_does_nothing_is_caught_on_every_descriptor_and_csr() {
        let engine = EngineConfig::new(32).unwrap();
        let scn = scenario(&engine, 3);
        let exp = scn.expect();
        let mut b = bench(engine, FakeEngine::new(32, Mode::Lazy), 3);
        let r = b.run(&scn, &exp).unwrap();
        let statuses = r
            .mismatches
            .iter()
            .filter(|m| matches!(m, Mismatch::Status { .. }))
            .count();
        assert_eq!(statuses, scn.descs.len(), "{}", r.describe(100));
        let s = r.describe(200);
        assert!(s.contains("expected done, OK (0x1)"), "{s}");
        assert!(s.contains("Destination d"), "{s}");
        assert!(s.contains("CSR DESC_DONE (advance): expected"), "{s}");
        assert!(s.contains("CSR IRQ_STATUS"), "{s}");
    }

    fn perfect(engine: EngineConfig, scn: &Scenario, exp: &Expected) -> FakeEngine {
        let mut f = FakeEngine::new(engine.bus_bytes() as usize, Mode::Perfect);
        f.beats = beats_between(scn, exp);
        f.outcome = Some(exp.outcome.clone());
        f
    }

    #[test]
    fn an_engine_that_writes_the_model_result_passes_under_backpressure() {
        for (bb, seed) in [(32, 4), (128, 5)] {
            let engine = EngineConfig::new(bb).unwrap();
            let scn = scenario(&engine, seed);
            let exp = scn.expect();
            let mut b = bench(engine, perfect(engine, &scn, &exp), seed);
            let r = b.run(&scn, &exp).unwrap();
            assert!(r.mismatches.is_empty(), "{}", r.describe(50));
            assert!(r.stats.w_beats > 10 && r.write_utilisation.is_some());
            // The same engine again (DESC_DONE and PERF deltas, not absolutes).
            let scn2 = scenario(&engine, seed + 100);
            let exp2 = scn2.expect();
            let f = perfect(engine, &scn2, &exp2);
            b.dut = Box::new(f);
            // A new fake starts from reset values; re-bind nothing (same port list).
            b.reset();
            let r = b.run(&scn2, &exp2).unwrap();
            assert!(r.mismatches.is_empty(), "{}", r.describe(50));
        }
    }

    #[test]
    fn a_stray_write_into_a_guard_and_a_wrong_status_are_reported_precisely() {
        let engine = EngineConfig::new(64).unwrap();
        let scn = scenario(&engine, 6);
        let exp = scn.expect();
        let mut f = perfect(engine, &scn, &exp);
        let guard = scn
            .regions
            .iter()
            .find(|r| r.kind == RegionKind::Guard && r.range.start % 64 == 0)
            .unwrap()
            .clone();
        f.beats.push((guard.range.start, vec![0x5A; 64], 0b11));
        let wb = writeback_range(scn.descs[0].addr).start;
        let base = wb & !63;
        let mut beat = exp.mem.peek(base, 64);
        beat[(wb - base) as usize + 1] = 4; // error code READ_ERROR
        f.beats.push((base, beat, 0xFF << (wb - base)));
        let mut b = bench(engine, f, 6);
        let r = b.run(&scn, &exp).unwrap();
        let s = r.describe(50);
        assert!(
            s.contains(&format!(
                "memory [{:#x}, {:#x}) (2 B) in Guard guard of",
                guard.range.start,
                guard.range.start + 2
            )),
            "{s}"
        );
        assert!(s.contains("status of d0"), "{s}");
        assert!(s.contains("got done, READ_ERROR (0x401)"), "{s}");
        // PERF_WR_BYTES counted the stray bytes too, and so did the memory: no CSR mismatch
        // beyond what the model predicts.
        assert_eq!(r.mismatches.len(), 2, "{s}");
    }
}
