//! AXI4 slave memory model with a built-in protocol checker: the far end of the DMA engine's
//! `m_axi_*` master port (docs/ARCHITECTURE.md, "DMA engine").
//!
//! [`AxiMemory`] is the model itself and knows nothing about Verilator: per cycle it takes the
//! master's outputs as a [`MasterSignals`] and produces the slave's outputs as
//! [`SlaveSignals`], so it is unit-tested against a Rust master. [`AxiPorts`] binds it to a
//! [`Dut`] by the standard port names; [`AxiSlave`] bundles the two.
//!
//! # Cycle protocol
//!
//! Every clock cycle, in this order:
//! 1. [`AxiMemory::drive`] — the slave's outputs for this cycle (drawn once per cycle: calling
//!    it again before `sample` returns the same values). Drive them into the DUT.
//! 2. The DUT's `eval()` — the master's outputs settle; they may depend combinationally on
//!    the slave's (a ready may follow a valid, as AXI allows).
//! 3. [`AxiMemory::sample`] with the master's outputs — the handshakes of this cycle's rising
//!    edge are `valid && ready` of the two; the model advances and checks the protocol.
//! 4. The DUT's `tick()`.
//!
//! While the DUT is in reset, drive the slave idle ([`AxiPorts::drive_idle`]) and do not
//! sample; after a reset in the middle of a run, [`AxiMemory::reset_bus`] drops what was in
//! flight and keeps the memory.
//!
//! # Model
//!
//! - Sparse byte memory in 4 KiB pages; bytes never written read as [`AxiMemConfig::fill`].
//!   Beat lane `i` is the byte at beat address + `i` (little-endian bus).
//! - INCR bursts of full bus width; anything else is a protocol violation (see below).
//! - Reads and writes are queued ([`AxiMemConfig::max_reads`] / [`AxiMemConfig::max_writes`]
//!   outstanding; `ARREADY`/`AWREADY` drop when full) and answered **in acceptance order for
//!   all IDs** — stricter than AXI needs (order per ID only) and legal for a slave. `RID`/`BID`
//!   echo the request's ID.
//! - Latency: a burst accepted in cycle `c` with drawn latency `L` presents its first R beat no
//!   earlier than cycle `c + 1 + L` (`L = 0`: the cycle after the handshake), and later only if
//!   an older burst still occupies the R channel or a random valid gap is drawn. A write's B is
//!   presented no earlier than `L` cycles after the cycle following its last W beat (or its AW,
//!   if that came later): latency is counted from the moment the slave has the whole burst.
//! - Writes land in memory when a W beat meets its AW (before B); a read beat samples memory
//!   when it is first presented. So a read issued after a write's B sees the write.
//! - W beats may precede their AW (AXI4 allows it): up to [`AxiMemConfig::w_ahead`] beats are
//!   buffered, then `WREADY` drops until an AW arrives. (A master that withholds AW until its W
//!   beats are accepted can deadlock here; AXI forbids a master to wait for `WREADY` before
//!   `AWVALID`.)
//! - Random backpressure (seeded ChaCha8): each cycle `ARREADY`, `AWREADY` and `WREADY` are low
//!   with their [`Stalls`] probability, and an R or B beat that could be presented is held back
//!   with its probability. Once `RVALID`/`BVALID` is high it stays high with stable payload
//!   until the handshake, as AXI requires of the slave.
//! - Error injection by [`ErrorRange`]: a read beat whose bytes overlap a read-error range
//!   returns that response with zero data; a write beat that overlaps a write-error range is not
//!   written and the burst's B carries the error. If several apply, DECERR wins over SLVERR.
//!
//! # Protocol checks
//!
//! Each is a [`Violation`] (kind, channel, cycle, message): recorded in
//! [`AxiMemory::violations`] and returned by the `sample` of the cycle it was found in.
//! - AR/AW: `AxLEN > 255`, `AxSIZE` ≠ bus width, `AxBURST` ≠ INCR (FIXED, WRAP and the reserved
//!   encoding are rejected), `AxADDR` not a multiple of the bus bytes, a burst that crosses a
//!   4 KiB boundary. Such a burst is still accepted so the master does not hang, but it is not
//!   performed: every R beat is SLVERR with zero data, its W beats are dropped and B is SLVERR.
//! - W: `WLAST` before the burst's last beat (the burst ends there, B is SLVERR), `WLAST`
//!   missing on the last beat, W beats beyond the announced length (dropped until `WLAST`).
//! - Stability: `ARVALID`/`AWVALID`/`WVALID` dropped before ready, or the payload (all address
//!   fields; data, strobes and last) changed while valid and not ready.
//! - At the end of a run, [`AxiMemory::check_idle`]: W beats with no AW, AW bursts still waiting
//!   for data, responses never taken.

mod binding;
mod bursts;
mod checker;
mod config;
#[cfg(test)]
pub(crate) mod fake;
mod lookup;
mod memory;
mod signals;
mod stats;
#[cfg(test)]
mod tests;
mod violation;

pub use binding::{AxiPorts, AxiSlave};
pub use config::{Access, AxiMemConfig, ErrorRange, Stalls};
pub(crate) use lookup::{find_optional, find_port, get, set, Width};
pub use memory::AxiMemory;
pub use signals::{Channel, MasterSignals, Resp, SlaveSignals};
pub use stats::{AxiStats, BurstRecord, PerChannel};
pub use violation::{Violation, ViolationKind};

/// Size of the sparse memory's pages, which is also the AXI burst boundary (the page of
/// [`cdma_model::paged`], where the bytes are kept).
pub use cdma_model::paged::PAGE_BYTES;

#[cfg(doc)]
use cdma_sim::Dut;
