//! The protocol checker of the AXI memory model: the rules a master must keep (burst shape,
//! stability while stalled), each broken one recorded as a [`Violation`]. Runs inside
//! [`AxiMemory::sample`].

use super::memory::AxiMemory;
use super::signals::{AddrBeat, Channel, MasterSignals};
use super::violation::{Violation, ViolationKind};
use super::PAGE_BYTES;

impl AxiMemory {
    pub(super) fn violation(&mut self, channel: Channel, kind: ViolationKind, detail: String) {
        self.violations.push(Violation {
            cycle: self.cycle,
            channel,
            kind,
            detail,
        });
    }

    /// Checks an address beat against the burst rules; true if it broke one.
    pub(super) fn check_burst(&mut self, ch: Channel, a: &AddrBeat) -> bool {
        let n = self.violations.len();
        let bb = self.bb as u64;
        if a.len > 255 {
            self.violation(
                ch,
                ViolationKind::LenTooLarge,
                format!("{ch}LEN {} above 255 (burst at {:#x})", a.len, a.addr),
            );
        }
        if a.size != self.size_log2 {
            self.violation(
                ch,
                ViolationKind::BadSize,
                format!(
                    "{ch}SIZE {} ({} bytes) is not the bus width ({ch}SIZE {} = {bb} bytes), burst at {:#x}",
                    a.size,
                    1u128 << a.size.min(127),
                    self.size_log2,
                    a.addr
                ),
            );
        }
        if a.burst != 1 {
            let name = ["FIXED", "INCR", "WRAP", "reserved"][(a.burst & 3) as usize];
            self.violation(
                ch,
                ViolationKind::BadBurst,
                format!(
                    "{ch}BURST {} ({name}) at {:#x}: only INCR is supported",
                    a.burst, a.addr
                ),
            );
        }
        if !a.addr.is_multiple_of(bb) {
            self.violation(
                ch,
                ViolationKind::Unaligned,
                format!(
                    "{ch}ADDR {:#x} is not a multiple of the bus width ({bb} bytes)",
                    a.addr
                ),
            );
        }
        let beats = a.len.min(255) + 1;
        let last = a.addr.checked_add(beats * bb - 1);
        if last.is_none_or(|l| l / PAGE_BYTES != a.addr / PAGE_BYTES) {
            self.violation(
                ch,
                ViolationKind::Crosses4K,
                format!(
                    "burst of {beats} beats x {bb} bytes at {:#x} crosses a 4 KiB boundary (ends at {:#x})",
                    a.addr,
                    a.addr.wrapping_add(beats * bb)
                ),
            );
        }
        self.violations.len() > n
    }

    pub(super) fn check_stability(&mut self, m: &MasterSignals) {
        let s = (self.out.arready, self.out.awready, self.out.wready);
        if let Some(prev) = self.hold_ar.take() {
            self.check_addr_hold(Channel::Ar, prev, m.arvalid, m.ar());
        }
        if let Some(prev) = self.hold_aw.take() {
            self.check_addr_hold(Channel::Aw, prev, m.awvalid, m.aw());
        }
        if let Some((data, strb, last)) = self.hold_w.take() {
            if !m.wvalid {
                self.violation(
                    Channel::W,
                    ViolationKind::ValidDropped,
                    "WVALID dropped before WREADY".into(),
                );
            } else if m.wdata != data || m.wstrb != strb || m.wlast != last {
                let lane = data.iter().zip(&m.wdata).position(|(a, b)| a != b);
                self.violation(
                    Channel::W,
                    ViolationKind::PayloadChanged,
                    format!(
                        "W beat changed while WVALID was high and WREADY low (data lane {:?}, strb {:#x} -> {:#x}, last {} -> {})",
                        lane, strb, m.wstrb, last, m.wlast
                    ),
                );
            }
        }
        self.hold_ar = (m.arvalid && !s.0).then(|| m.ar());
        self.hold_aw = (m.awvalid && !s.1).then(|| m.aw());
        self.hold_w = (m.wvalid && !s.2).then(|| (m.wdata.clone(), m.wstrb, m.wlast));
    }

    fn check_addr_hold(&mut self, ch: Channel, prev: AddrBeat, valid: bool, now: AddrBeat) {
        if !valid {
            self.violation(
                ch,
                ViolationKind::ValidDropped,
                format!(
                    "{ch}VALID dropped before {ch}READY (offered {ch}ADDR {:#x} {ch}LEN {})",
                    prev.addr, prev.len
                ),
            );
        } else if now != prev {
            self.violation(
                ch,
                ViolationKind::PayloadChanged,
                format!(
                    "{ch} changed while {ch}VALID was high and {ch}READY low: {prev:?} -> {now:?}"
                ),
            );
        }
    }
}
