//! A pure-Rust stand-in for the engine top, with a CSR slave and a write-only AXI master.

use crate::axi::fake::{port, FakeDut};
use crate::dma_scenario::{Expected, Scenario};
use cdma_model::dma::{ChainOutcome, EngineConfig};
use cdma_sim::{Dir, Dut, PortInfo, SimError};
use cdma_spec::csr;
use std::collections::VecDeque;
use std::path::Path;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Mode {
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
pub(super) struct FakeEngine {
    io: FakeDut,
    bb: usize,
    mode: Mode,
    pub(super) beats: Vec<(u64, Vec<u8>, u128)>,
    pub(super) outcome: Option<ChainOutcome>,
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
pub(super) fn beats_between(scn: &Scenario, exp: &Expected) -> Vec<(u64, Vec<u8>, u128)> {
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
    pub(super) fn new(bb: usize, mode: Mode) -> Self {
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
    fn trace(&mut self, _: &Path) -> Result<(), SimError> {
        Ok(())
    }
    fn trace_window(&mut self, _: u64, _: u64) -> Result<(), SimError> {
        Ok(())
    }
    fn close_trace(&mut self) -> Result<(), SimError> {
        Ok(())
    }
    fn set_words(&mut self, port: usize, words: &[u32]) -> Result<(), SimError> {
        self.io.set_words(port, words)
    }
    fn get_words(&self, port: usize, words: &mut [u32]) -> Result<(), SimError> {
        self.io.get_words(port, words)
    }
}
