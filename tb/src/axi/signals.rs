//! The signals of one cycle on each side of the AXI4 bus, the five channels they belong to,
//! and the response encoding.

use std::fmt;

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
pub(super) struct AddrBeat {
    pub(super) id: u64,
    pub(super) addr: u64,
    pub(super) len: u64,
    pub(super) size: u64,
    pub(super) burst: u64,
    pub(super) cache: u64,
    pub(super) prot: u64,
}

impl MasterSignals {
    /// The AR channel's address fields.
    pub(super) fn ar(&self) -> AddrBeat {
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

    /// The AW channel's address fields.
    pub(super) fn aw(&self) -> AddrBeat {
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
