//! Comparing a DMA run with the golden model: memory byte by byte (skipping only what the
//! model declares unspecified), descriptor status words, CSRs and performance counters.
//! Every difference becomes a [`Mismatch`] that names the address, the expected and the
//! observed bytes, and the region / descriptor it belongs to.

use std::fmt;
use std::ops::Range;

use cdma_model::dma::{codes, ChainOutcome, SparseMemory};
use cdma_spec::{csr, desc as d, error};

use crate::axi::{Access, AxiStats};
use crate::dma_scenario::{Expected, Scenario};

/// One difference between the DUT and the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// A run of memory bytes differs.
    Memory {
        /// The differing bytes (one region at most).
        range: Range<u64>,
        /// Region label, or "outside every region".
        region: String,
        /// Expected bytes (the first 16).
        expected: Vec<u8>,
        /// Observed bytes (the first 16).
        got: Vec<u8>,
    },
    /// A descriptor's status write-back (status word + bytes_written) differs.
    Status {
        /// Index in the planned chain (None: an address the plan does not know).
        index: Option<usize>,
        /// Descriptor address.
        addr: u64,
        /// Descriptor label.
        label: String,
        /// Expected (status word, bytes_written).
        expected: (u32, u32),
        /// Observed.
        got: (u32, u32),
    },
    /// A CSR (or a CSR delta) differs.
    Csr {
        /// Register name.
        name: String,
        /// What was expected.
        expected: String,
        /// What was read.
        got: String,
    },
    /// An AXI protocol violation or a bus left busy.
    Bus(String),
    /// Anything else (abort bound, missing round trip …).
    Other(String),
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// "done, OK" / "done, READ_ERROR" / "not done (0x…)".
pub fn describe_status(word: u32) -> String {
    let w = u64::from(word);
    let code = d::STATUS_ERROR.get(w) as u8;
    let name = error::by_code(code).map_or(format!("code {code}"), |e| e.name.to_string());
    if d::STATUS_DONE.get(w) == 1 {
        format!("done, {name} ({word:#x})")
    } else {
        format!("not done ({word:#x})")
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Memory {
                range,
                region,
                expected,
                got,
            } => {
                let more = if range.end - range.start > expected.len() as u64 {
                    " …"
                } else {
                    ""
                };
                write!(
                    f,
                    "memory [{:#x}, {:#x}) ({} B) in {region}: expected {}{more}, got {}{more}",
                    range.start,
                    range.end,
                    range.end - range.start,
                    hex(expected),
                    hex(got)
                )
            }
            Mismatch::Status {
                index,
                addr,
                label,
                expected,
                got,
            } => write!(
                f,
                "status of {} at {addr:#x} ({label}): expected {} / {} bytes, got {} / {} bytes",
                index.map_or("descriptor".to_string(), |i| format!("d{i}")),
                describe_status(expected.0),
                expected.1,
                describe_status(got.0),
                got.1
            ),
            Mismatch::Csr {
                name,
                expected,
                got,
            } => write!(f, "CSR {name}: expected {expected}, got {got}"),
            Mismatch::Bus(s) => write!(f, "m_axi: {s}"),
            Mismatch::Other(s) => f.write_str(s),
        }
    }
}

/// Sorts and merges ranges into disjoint ascending ones.
pub fn merge(mut v: Vec<Range<u64>>) -> Vec<Range<u64>> {
    v.retain(|r| r.start < r.end);
    v.sort_by_key(|r| r.start);
    let mut out: Vec<Range<u64>> = Vec::new();
    for r in v {
        match out.last_mut() {
            Some(l) if r.start <= l.end => l.end = l.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Removes `holes` from `ranges` (both arbitrary), returning disjoint ascending ranges.
pub fn subtract(ranges: Vec<Range<u64>>, holes: &[Range<u64>]) -> Vec<Range<u64>> {
    let holes = merge(holes.to_vec());
    let mut out = Vec::new();
    for r in merge(ranges) {
        let mut at = r.start;
        for h in holes.iter().filter(|h| h.start < r.end && r.start < h.end) {
            if h.start > at {
                out.push(at..h.start);
            }
            at = at.max(h.end);
        }
        if at < r.end {
            out.push(at..r.end);
        }
    }
    out
}

/// The 8 bytes of a descriptor's status write-back.
pub fn writeback_range(addr: u64) -> Range<u64> {
    let a = addr + d::STATUS_FIELD.offset as u64;
    a..a + 8
}

fn words(b: &[u8]) -> (u32, u32) {
    (
        u32::from_le_bytes(b[..4].try_into().expect("8 bytes")),
        u32::from_le_bytes(b[4..8].try_into().expect("8 bytes")),
    )
}

/// At most this many memory mismatch runs are listed; the rest are counted in one line.
pub const MAX_MEMORY_REPORTS: usize = 40;

/// Compares memory and status write-backs.
///
/// Compared bytes: every region and guard of the scenario, every byte the model changed, and
/// every byte of `touched` (the DUT's write bursts) — minus the model's unspecified ranges.
/// The write-back words of every planned or visited descriptor are reported as
/// [`Mismatch::Status`] instead of raw bytes. `actual` reads the DUT's memory.
pub fn compare_memory(
    scn: &Scenario,
    exp: &Expected,
    actual: &dyn Fn(u64, usize) -> Vec<u8>,
    touched: &[Range<u64>],
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    // Status write-backs.
    let mut wb_addrs: Vec<u64> = scn.descs.iter().map(|p| p.addr).collect();
    wb_addrs.extend(exp.outcome.descs.iter().map(|o| o.addr));
    wb_addrs.sort_unstable();
    wb_addrs.dedup();
    let mut wb_ranges = Vec::new();
    for a in wb_addrs {
        let r = writeback_range(a);
        let want = exp.mem.peek(r.start, 8);
        let got = actual(r.start, 8);
        if want != got {
            let index = scn.desc_index(a);
            out.push(Mismatch::Status {
                index,
                addr: a,
                label: index.map_or("not in the plan".into(), |i| scn.descs[i].label.clone()),
                expected: words(&want),
                got: words(&got),
            });
        }
        wb_ranges.push(r);
    }
    // Every other byte of interest.
    let mut domain: Vec<Range<u64>> = scn.regions.iter().map(|r| r.range.clone()).collect();
    domain.extend_from_slice(touched);
    domain.extend(exp.mem.diff(&scn.model_memory()));
    let mut holes = exp.unspecified.clone();
    holes.extend(wb_ranges);
    let mut runs: Vec<Range<u64>> = Vec::new();
    for r in subtract(domain, &holes) {
        let mut at = r.start;
        while at < r.end {
            let n = (r.end - at).min(1 << 16) as usize;
            let want = exp.mem.peek(at, n);
            let got = actual(at, n);
            for (i, (w, g)) in want.iter().zip(&got).enumerate() {
                if w != g {
                    let a = at + i as u64;
                    match runs.last_mut() {
                        Some(l) if l.end == a && same_region(scn, l.start, a) => l.end = a + 1,
                        _ => runs.push(a..a + 1),
                    }
                }
            }
            at += n as u64;
        }
    }
    let total = runs.len();
    for r in runs.into_iter().take(MAX_MEMORY_REPORTS) {
        let n = ((r.end - r.start) as usize).min(16);
        out.push(Mismatch::Memory {
            region: scn
                .region_of(r.start)
                .map_or("outside every region".into(), |g| {
                    format!("{:?} {}", g.kind, g.label)
                }),
            expected: exp.mem.peek(r.start, n),
            got: actual(r.start, n),
            range: r,
        });
    }
    if total > MAX_MEMORY_REPORTS {
        out.push(Mismatch::Other(format!(
            "… and {} more differing memory runs",
            total - MAX_MEMORY_REPORTS
        )));
    }
    out
}

fn same_region(scn: &Scenario, a: u64, b: u64) -> bool {
    let r = |x| scn.region_of(x).map(|g| g.range.start);
    r(a) == r(b)
}

/// CSR values read around a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsrSnapshot {
    /// STATUS.
    pub status: u32,
    /// DESC_DONE.
    pub desc_done: u32,
    /// IRQ_STATUS.
    pub irq_status: u32,
    /// ERR_DESC (HI:LO).
    pub err_desc: u64,
    /// PERF_BUSY.
    pub perf_busy: u64,
    /// PERF_RD_BYTES.
    pub perf_rd_bytes: u64,
    /// PERF_WR_BYTES.
    pub perf_wr_bytes: u64,
    /// PERF_STALL.
    pub perf_stall: u64,
}

/// What the AXI memory saw during a run (deltas), for the PERF counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BusDelta {
    /// Cycles from the doorbell to STATUS.busy = 0 being seen.
    pub cycles: u64,
    /// Traffic counted by the memory model over the same time.
    pub stats: AxiStats,
}

fn csr_mismatch(name: &str, expected: String, got: String) -> Mismatch {
    Mismatch::Csr {
        name: name.into(),
        expected,
        got,
    }
}

/// Compares the CSRs after a chain with the model's outcome and the bus traffic.
///
/// - STATUS: busy 0; `error` as the model; `err_code` only when `error` is 1 (docs leave the
///   code of a chain without failures open).
/// - DESC_DONE advanced by the descriptors visited; IRQ_STATUS (cleared before the doorbell)
///   equals the model's; ERR_DESC the last failed descriptor, else unchanged.
/// - PERF_RD_BYTES = bytes of R beats; PERF_WR_BYTES = strobed bytes written (only when no
///   write error is injected: the memory model does not store faulting beats);
///   0 < PERF_BUSY ≤ cycles; PERF_STALL between the busiest channel's and the sum of the AR,
///   AW, W stall cycles.
pub fn compare_csrs(
    scn: &Scenario,
    exp: &ChainOutcome,
    before: &CsrSnapshot,
    after: &CsrSnapshot,
    bus: &BusDelta,
) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let s = u64::from(after.status);
    let want = u64::from(exp.status);
    if csr::STATUS_BUSY.get(s) != 0 {
        out.push(csr_mismatch("STATUS.busy", "0".into(), "1".into()));
    }
    let err = csr::STATUS_ERROR.get(s);
    if err != csr::STATUS_ERROR.get(want)
        || (err == 1 && csr::STATUS_ERR_CODE.get(s) != csr::STATUS_ERR_CODE.get(want))
    {
        let show = |w: u64| {
            if csr::STATUS_ERROR.get(w) == 1 {
                let c = csr::STATUS_ERR_CODE.get(w) as u8;
                format!(
                    "error, {} ({w:#x})",
                    error::by_code(c).map_or(format!("code {c}"), |e| e.name.into())
                )
            } else {
                format!("no error ({w:#x})")
            }
        };
        out.push(csr_mismatch("STATUS", show(want), show(s)));
    }
    let done = after.desc_done.wrapping_sub(before.desc_done);
    if done != exp.desc_done {
        out.push(csr_mismatch(
            "DESC_DONE (advance)",
            exp.desc_done.to_string(),
            done.to_string(),
        ));
    }
    if after.irq_status != exp.irq_status {
        out.push(csr_mismatch(
            "IRQ_STATUS",
            format!("{:#x}", exp.irq_status),
            format!("{:#x}", after.irq_status),
        ));
    }
    let want_err = exp.err_desc.unwrap_or(before.err_desc);
    if after.err_desc != want_err {
        out.push(csr_mismatch(
            "ERR_DESC",
            format!("{want_err:#x}"),
            format!("{:#x}", after.err_desc),
        ));
    }
    let rd = after.perf_rd_bytes.wrapping_sub(before.perf_rd_bytes);
    if rd != bus.stats.bytes_read {
        out.push(csr_mismatch(
            "PERF_RD_BYTES (advance)",
            bus.stats.bytes_read.to_string(),
            rd.to_string(),
        ));
    }
    let write_errors = scn
        .errors
        .iter()
        .any(|e| matches!(e.on, Access::Write | Access::Both));
    let wr = after.perf_wr_bytes.wrapping_sub(before.perf_wr_bytes);
    if !write_errors && wr != bus.stats.bytes_written {
        out.push(csr_mismatch(
            "PERF_WR_BYTES (advance)",
            bus.stats.bytes_written.to_string(),
            wr.to_string(),
        ));
    }
    let busy = after.perf_busy.wrapping_sub(before.perf_busy);
    if busy == 0 || busy > bus.cycles {
        out.push(csr_mismatch(
            "PERF_BUSY (advance)",
            format!("1..={}", bus.cycles),
            busy.to_string(),
        ));
    }
    let st = bus.stats.stalls;
    let (lo, hi) = (st.ar.max(st.aw).max(st.w), st.ar + st.aw + st.w);
    let stall = after.perf_stall.wrapping_sub(before.perf_stall);
    if stall < lo || stall > hi.min(busy) {
        out.push(csr_mismatch(
            "PERF_STALL (advance)",
            format!(
                "{lo}..={} (AR {} AW {} W {} stall cycles, busy {busy})",
                hi.min(busy),
                st.ar,
                st.aw,
                st.w
            ),
            stall.to_string(),
        ));
    }
    out
}

/// Checks the model's memory for every round trip: the DECOMPRESS output equals the COMPRESS
/// input (a builder or model check; the DUT is compared byte for byte anyway).
pub fn check_round_trips(scn: &Scenario, mem: &SparseMemory) -> Vec<Mismatch> {
    scn.round_trips
        .iter()
        .filter_map(|rt| {
            let n = (rt.original.end - rt.original.start) as usize;
            let a = mem.peek(rt.original.start, n);
            let b = mem.peek(rt.restored, n);
            (a != b).then(|| {
                let at = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(0);
                Mismatch::Other(format!(
                    "round trip {}: restored data at {:#x} differs from the original at byte {at}",
                    rt.label, rt.restored
                ))
            })
        })
        .collect()
}

/// The code a DUT status word carries, if done.
pub fn status_code(word: u32) -> Option<u8> {
    let w = u64::from(word);
    (d::STATUS_DONE.get(w) == 1).then_some(d::STATUS_ERROR.get(w) as u8)
}

/// Whether a status word says "done, ABORTED".
pub fn is_aborted(word: u32) -> bool {
    status_code(word) == Some(codes::ABORTED.code)
}
