//! The AXI4-Lite master's configuration, the signals of one cycle on each side, and the
//! outcome of an access.

use crate::axi::Resp;

/// Configuration of an [`AxiLiteMaster`](super::AxiLiteMaster).
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
