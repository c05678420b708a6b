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

mod access;
mod binding;
mod master;
mod signals;
#[cfg(test)]
mod tests;

pub use access::LiteAccess;
pub use binding::{AxiLiteDut, AxiLitePorts};
pub use master::AxiLiteMaster;
pub use signals::{LiteConfig, LiteMasterSignals, LiteOutcome, LiteSlaveSignals};

#[cfg(doc)]
use crate::error::TbError;
#[cfg(doc)]
use cdma_sim::Dut;
