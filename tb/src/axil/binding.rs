//! The AXI4-Lite master bound to a DUT's slave ports by name.

use super::access::LiteAccess;
use super::master::AxiLiteMaster;
use super::signals::{LiteConfig, LiteMasterSignals, LiteSlaveSignals};
use crate::axi::{find_optional, find_port, get, set, Resp, Width};
use crate::error::TbError;
use cdma_sim::{Dir, Dut};

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
        let mut set = |p: usize, v: u64| set(dut, p, v);
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
        let get = |p: usize| get(dut, p);
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
