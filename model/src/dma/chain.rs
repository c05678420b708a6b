//! [`run_chain`]: walking a descriptor chain, fetching and writing back each descriptor, and
//! the CSR view of the result.

use std::ops::Range;

use cdma_spec::csr;
use cdma_spec::desc::{self as d, DESC_LEN};
use cdma_spec::error::{self as code, ErrorCode};

use super::bus::{read_beats, write_at};
use super::config::EngineConfig;
use super::descriptor::{status_word, Descriptor};
use super::memory::Memory;
use super::ops::run_op;

/// What the engine did with one descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescOutcome {
    /// Descriptor address.
    pub addr: u64,
    /// The descriptor, if it could be fetched.
    pub desc: Option<Descriptor>,
    /// The status word written back at `addr + 0x30` (None: no write-back, the descriptor
    /// could not be fetched).
    pub status_word: Option<u32>,
    /// `bytes_written` written back (0 after an error).
    pub bytes_written: u32,
    /// The descriptor's result.
    pub error: ErrorCode,
    /// The status write-back itself failed (the CSRs then report WRITE_ERROR and the chain
    /// ends).
    pub writeback_failed: bool,
    /// IRQ_STATUS.done was raised when this descriptor finished (its `irq` flag is set).
    pub irq_done: bool,
    /// Memory whose content is unspecified after this descriptor (the destination and, for
    /// COMPRESS, the metadata region, after an error while streaming). Nothing outside these
    /// ranges and the status write-back changes.
    pub unspecified: Vec<Range<u64>>,
}

/// Why a chain ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainEnd {
    /// A descriptor with `next` = 0 finished.
    Completed,
    /// A descriptor with `stop_on_error` = 1 failed.
    StoppedOnError,
    /// A descriptor could not be fetched (UNALIGNED or READ_ERROR).
    FetchFailed,
    /// A status write-back failed.
    WritebackFailed,
    /// The model's descriptor limit was reached (model only, see
    /// [`EngineConfig::with_desc_limit`]); no CSR reflects it.
    Limit,
}

/// The result of one chain: every descriptor visited, and the CSRs afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainOutcome {
    /// One entry per descriptor visited, in chain order.
    pub descs: Vec<DescOutcome>,
    /// Why the chain ended.
    pub end: ChainEnd,
    /// STATUS after the chain: busy 0, error and err_code of the last failure.
    pub status: u32,
    /// What DESC_DONE advanced by: every descriptor visited, failed or not.
    pub desc_done: u32,
    /// IRQ_STATUS bits the chain raised.
    pub irq_status: u32,
    /// ERR_DESC: the address of the last descriptor that failed (None: unchanged).
    pub err_desc: Option<u64>,
}

impl ChainOutcome {
    /// STATUS.err_code if STATUS.error is set.
    pub fn error(&self) -> Option<ErrorCode> {
        let s = u64::from(self.status);
        (csr::STATUS_ERROR.get(s) == 1)
            .then(|| code::by_code(csr::STATUS_ERR_CODE.get(s) as u8))
            .flatten()
    }
}

/// Runs the chain that starts at `head` (the DOORBELL with HEAD = `head`), to its end.
///
/// Semantics (docs/DESCRIPTORS.md): per descriptor the checks run in the documented order
/// and the first failing one gives the error code; then the operation streams; then the
/// status word and `bytes_written` are written back in one 8-byte write at `desc + 0x30`.
///
/// Bus granularity: the engine reads whole bus beats, so a read of `[a, a + n)` reads
/// `[align_down(a, BB), align_up(a + n, BB))` and a bus error on any byte of that range fails
/// it. Writes carry byte strobes: a write of `[a, a + n)` changes exactly those bytes, and
/// fails if any byte of the whole beats it covers faults (a slave answers for the beat).
pub fn run_chain(mem: &mut impl Memory, head: u64, cfg: &EngineConfig) -> ChainOutcome {
    let mut descs = Vec::new();
    let mut addr = head;
    let end = loop {
        if descs.len() >= cfg.desc_limit() {
            break ChainEnd::Limit;
        }
        let (o, next) = run_desc(mem, addr, cfg);
        let failed = o.error != code::OK || o.writeback_failed;
        let fetched = o.desc.is_some();
        let wb_failed = o.writeback_failed;
        let stop = o.desc.is_some_and(|d| d.stop_on_error());
        descs.push(o);
        if !fetched {
            break ChainEnd::FetchFailed;
        }
        if wb_failed {
            break ChainEnd::WritebackFailed;
        }
        if failed && stop {
            break ChainEnd::StoppedOnError;
        }
        if next == 0 {
            break ChainEnd::Completed;
        }
        addr = next;
    };
    let mut status = 0u64;
    let mut err_desc = None;
    for o in &descs {
        let e = if o.writeback_failed {
            code::WRITE_ERROR
        } else {
            o.error
        };
        if e != code::OK {
            status = csr::STATUS_ERROR.set(status, 1);
            status = csr::STATUS_ERR_CODE.set(status, u64::from(e.code));
            err_desc = Some(o.addr);
        }
    }
    // The end of the chain raises done whatever the descriptors' `irq` flags; a flag raises
    // it earlier, when its descriptor finishes (DescOutcome::irq_done).
    let mut irq = csr::IRQ_DONE.set(0, 1);
    if err_desc.is_some() {
        irq = csr::IRQ_ERROR.set(irq, 1);
    }
    ChainOutcome {
        desc_done: descs.len() as u32,
        descs,
        end,
        status: status as u32,
        irq_status: irq as u32,
        err_desc,
    }
}

/// Fetches, checks, runs and writes back one descriptor; returns its outcome and `next`.
fn run_desc(mem: &mut impl Memory, addr: u64, cfg: &EngineConfig) -> (DescOutcome, u64) {
    let fail_fetch = |error| DescOutcome {
        addr,
        desc: None,
        status_word: None,
        bytes_written: 0,
        error,
        writeback_failed: false,
        irq_done: false,
        unspecified: Vec::new(),
    };
    // Step 1: the descriptor itself.
    if !addr.is_multiple_of(DESC_LEN as u64) {
        return (fail_fetch(code::UNALIGNED), 0);
    }
    let bytes = match read_beats(mem, addr, DESC_LEN as u64, u64::from(cfg.bus_bytes())) {
        Ok(b) => b,
        Err(_) => return (fail_fetch(code::READ_ERROR), 0),
    };
    let desc = Descriptor::from_bytes(bytes.as_slice().try_into().expect("64 bytes"));
    let r = run_op(mem, &desc, cfg);
    let word = status_word(r.error);
    let mut wb = [0u8; 8];
    wb[..4].copy_from_slice(&word.to_le_bytes());
    wb[4..].copy_from_slice(&r.bytes_written.to_le_bytes());
    let bb = u64::from(cfg.bus_bytes());
    let writeback_failed = write_at(mem, (addr, d::STATUS_FIELD.offset as u64), &wb, bb).is_err();
    (
        DescOutcome {
            addr,
            desc: Some(desc),
            status_word: Some(word),
            bytes_written: r.bytes_written,
            error: r.error,
            writeback_failed,
            irq_done: desc.irq(),
            unspecified: r.unspecified,
        },
        desc.next,
    )
}
