//! A CSR slave in Rust for the master's tests.

use crate::axi::Resp;
use crate::axil::{LiteMasterSignals, LiteSlaveSignals};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A CSR slave: 16 registers at 0x000..0x040 (SLVERR elsewhere below 0x800, DECERR
/// above), random ready stalls, registered responses. `bug` breaks one slave rule.
pub(super) struct RegFile {
    pub(super) regs: [u32; 16],
    rng: ChaCha8Rng,
    p: f64,
    aw: Option<u32>,
    w: Option<(u32, u8)>,
    b: Option<Resp>,
    pub(super) r: Option<(u32, Resp)>,
    out: LiteSlaveSignals,
    /// Never answer (B/R), to provoke hangs.
    pub(super) mute: bool,
    /// Raise BVALID once AW is in, without waiting for W.
    pub(super) early_b: bool,
    /// Keep WREADY low.
    pub(super) hold_w: bool,
}

impl RegFile {
    pub(super) fn new(seed: u64, p: f64) -> Self {
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

    pub(super) fn outputs(&mut self) -> LiteSlaveSignals {
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

    pub(super) fn update(&mut self, m: &LiteMasterSignals) {
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
