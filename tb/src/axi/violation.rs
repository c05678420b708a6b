//! A broken AXI rule as the memory model reports it: which rule, on which channel, in which
//! cycle, and what happened.

use super::signals::Channel;
use crate::error::TbError;
use std::fmt;

/// What rule a [`Violation`] broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationKind {
    /// A burst crosses a 4 KiB boundary.
    Crosses4K,
    /// `AxLEN` above 255.
    LenTooLarge,
    /// `AxSIZE` is not the full bus width.
    BadSize,
    /// `AxBURST` is FIXED, WRAP or reserved.
    BadBurst,
    /// `AxADDR` is not a multiple of the bus bytes.
    Unaligned,
    /// `WLAST` on a beat before the burst's last.
    WlastEarly,
    /// `WLAST` low on the burst's last beat.
    WlastMissing,
    /// More W beats than the AW announced.
    ExtraWBeats,
    /// Valid dropped before the handshake.
    ValidDropped,
    /// Payload changed while valid and not ready.
    PayloadChanged,
    /// Something still pending when the run was declared finished ([`AxiMemory::check_idle`](super::AxiMemory::check_idle)).
    NotIdle,
}

/// A broken AXI rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Cycle (counted by [`AxiMemory::sample`](super::AxiMemory::sample) calls from 0) it was detected in.
    pub cycle: u64,
    /// Channel.
    pub channel: Channel,
    /// Rule.
    pub kind: ViolationKind,
    /// What happened, with addresses and beat numbers.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "AXI {} at cycle {}: {}",
            self.channel, self.cycle, self.detail
        )
    }
}

impl std::error::Error for Violation {}

impl From<Violation> for TbError {
    fn from(v: Violation) -> Self {
        TbError::Protocol(v.to_string())
    }
}
