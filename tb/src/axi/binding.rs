//! The memory model bound to a Verilated DUT: [`AxiPorts`] finds the AXI4 master ports by
//! name and moves signals, [`AxiSlave`] bundles ports and model.

use super::config::AxiMemConfig;
use super::lookup::{find_optional, find_port, get, set, Width};
use super::memory::AxiMemory;
use super::signals::{MasterSignals, SlaveSignals};
use super::violation::Violation;
use cdma_sim::{Dir, Dut};

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

/// An [`AxiMemory`] bound to a DUT's AXI4 master port: the per-cycle calls of the
/// [module documentation](super) in one place.
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
