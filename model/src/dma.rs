//! Golden model of the descriptor-driven DMA engine (docs/DESCRIPTORS.md).
//!
//! [`run_chain`] walks a descriptor chain in a byte-addressed [`Memory`] exactly as the engine
//! does — same validation order, same error codes, same bytes written — and reports per
//! descriptor what it did ([`DescOutcome`]) and what the CSRs show afterwards
//! ([`ChainOutcome`]). Timing is not modelled: the model cannot abort (the RTL reports
//! ABORTED), and where the engine's result after a streaming error depends on timing the
//! model names the affected memory instead ([`DescOutcome::unspecified`]).
//!
//! Layouts (descriptor, control/status words, CSR bits, error codes) come from `cdma_spec`;
//! the frame the engine writes is the one of [`crate::compress_chunked`], with header + index
//! at `meta_addr` and the payload at `dst_addr`.

use std::ops::Range;

use cdma_spec::csr;
use cdma_spec::desc::{self as d, DESC_LEN};
use cdma_spec::error as code;
/// The error codes (`codes::OK`, `codes::BAD_DESC`, …).
pub use cdma_spec::error as codes;
pub use cdma_spec::error::ErrorCode;

use crate::frame::{decode_chunk, encode_chunk};
use crate::paged::PagedBytes;
use crate::spec::{self, Header, IndexEntry, HEADER_LEN, INDEX_ENTRY_LEN};
use crate::ElemWidth;

/// The error response of a failed AXI transfer (RRESP / BRESP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BusError {
    /// SLVERR (response 2): the slave saw the access and failed it.
    SlvErr,
    /// DECERR (response 3): no slave at that address.
    DecErr,
}

/// A failed memory access: the first byte that faulted and the response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bus error {resp:?} at {addr:#x}")]
pub struct BusFault {
    /// First faulting byte address.
    pub addr: u64,
    /// The response.
    pub resp: BusError,
}

/// Byte-addressed memory as the engine sees it over its AXI master.
///
/// Addresses are 64-bit; the model's address space is `[0, 2^64 − 1)`: an access that would
/// reach the byte at `2^64 − 1` or wrap faults with DECERR, so every range the model names
/// fits a `Range<u64>`.
pub trait Memory {
    /// Reads `buf.len()` bytes at `addr`. Fails if any of them faults (`buf` is then
    /// unspecified).
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), BusFault>;
    /// Writes `data` at `addr`. Fails if any byte faults; which of the bytes were written is
    /// then up to the memory.
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), BusFault>;
}

/// `[addr, addr + len)` if it lies inside the model's address space `[0, 2^64 − 1)`; else
/// the access reaches the byte no slave decodes.
fn span(addr: u64, len: u64) -> Result<Range<u64>, BusFault> {
    addr.checked_add(len).map(|end| addr..end).ok_or(BusFault {
        addr: u64::MAX,
        resp: BusError::DecErr,
    })
}

/// A sparse memory for tests: a [`PagedBytes`] store (unwritten bytes read as a fill byte)
/// plus address ranges that fail reads or writes with a chosen response.
///
/// A read or write fails if any of its bytes lies in an error range of its kind; a failing
/// write writes nothing. The engine reads whole bus beats (see [`run_chain`]), so a read
/// error range also fails reads of bytes next to it in the same beat.
#[derive(Clone, Debug)]
pub struct SparseMemory {
    bytes: PagedBytes,
    read_errors: Vec<(Range<u64>, BusError)>,
    write_errors: Vec<(Range<u64>, BusError)>,
}

impl SparseMemory {
    /// An empty memory whose every byte reads `fill` until written.
    pub fn new(fill: u8) -> SparseMemory {
        SparseMemory {
            bytes: PagedBytes::new(fill),
            read_errors: Vec::new(),
            write_errors: Vec::new(),
        }
    }

    /// Reads of any byte in `range` fail with `resp`.
    pub fn add_read_error(&mut self, range: Range<u64>, resp: BusError) {
        self.read_errors.push((range, resp));
    }

    /// Writes of any byte in `range` fail with `resp`.
    pub fn add_write_error(&mut self, range: Range<u64>, resp: BusError) {
        self.write_errors.push((range, resp));
    }

    /// Removes every error range.
    pub fn clear_errors(&mut self) {
        self.read_errors.clear();
        self.write_errors.clear();
    }

    /// Writes `data` at `addr`, ignoring error ranges (test set-up). Panics if the range
    /// leaves the address space.
    pub fn load(&mut self, addr: u64, data: &[u8]) {
        span(addr, data.len() as u64).expect("load inside the address space");
        self.bytes.write(addr, data);
    }

    /// Reads `len` bytes at `addr`, ignoring error ranges (test inspection). Panics if the
    /// range leaves the address space.
    pub fn peek(&self, addr: u64, len: usize) -> Vec<u8> {
        span(addr, len as u64).expect("peek inside the address space");
        self.bytes.read(addr, len)
    }

    /// The byte ranges (merged, ascending) where `self` and `other` differ.
    pub fn diff(&self, other: &SparseMemory) -> Vec<Range<u64>> {
        self.bytes.diff(&other.bytes)
    }

    fn fault(errors: &[(Range<u64>, BusError)], r: &Range<u64>) -> Option<BusFault> {
        errors
            .iter()
            .filter(|(e, _)| e.start < r.end && r.start < e.end)
            .map(|(e, resp)| BusFault {
                addr: e.start.max(r.start),
                resp: *resp,
            })
            .min_by_key(|f| f.addr)
    }
}

impl Memory for SparseMemory {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), BusFault> {
        let r = span(addr, buf.len() as u64)?;
        if let Some(f) = Self::fault(&self.read_errors, &r) {
            return Err(f);
        }
        buf.copy_from_slice(&self.peek(addr, buf.len()));
        Ok(())
    }

    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), BusFault> {
        let r = span(addr, data.len() as u64)?;
        if let Some(f) = Self::fault(&self.write_errors, &r) {
            return Err(f);
        }
        self.load(addr, data);
        Ok(())
    }
}

/// An engine configuration could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The bus width is not one of the generated configurations.
    #[error("bus width of {bus_bytes} bytes is not supported (32, 64 or 128)")]
    BusBytes {
        /// The rejected width.
        bus_bytes: u32,
    },
    /// CHUNK_LOG2_MAX outside what the format allows.
    #[error("chunk_log2_max {value} is outside 7..=24")]
    ChunkLog2Max {
        /// The rejected value.
        value: u8,
    },
    /// IDX_LOG2 beyond the 32-bit chunk count of the frame header.
    #[error("idx_log2 {value} is more than 32")]
    IdxLog2 {
        /// The rejected value.
        value: u8,
    },
}

/// The generation parameters of one engine that change what it accepts (docs/ARCHITECTURE.md
/// "DMA engine"); the others (`READS_IN_FLIGHT`, `WR_BURST_MAX`) only change timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    bus_bytes: u32,
    chunk_log2_max: u8,
    idx_log2: u8,
    desc_limit: usize,
}

impl Default for EngineConfig {
    /// The default `cdma_dma_top`: 1024-bit bus (E = 32), 4 KiB chunks, 1024 chunks.
    fn default() -> EngineConfig {
        EngineConfig {
            bus_bytes: 128,
            chunk_log2_max: 12,
            idx_log2: 10,
            desc_limit: 1 << 16,
        }
    }
}

impl EngineConfig {
    /// The engine with a `bus_bytes`-byte data bus (32, 64 or 128) and default
    /// `CHUNK_LOG2_MAX` (12) and `IDX_LOG2` (10).
    pub fn new(bus_bytes: u32) -> Result<EngineConfig, ConfigError> {
        if ![32, 64, 128].contains(&bus_bytes) {
            return Err(ConfigError::BusBytes { bus_bytes });
        }
        Ok(EngineConfig {
            bus_bytes,
            ..EngineConfig::default()
        })
    }

    /// Sets `CHUNK_LOG2_MAX`, the largest chunk the engine's buffers hold (7..=24).
    pub fn with_chunk_log2_max(mut self, value: u8) -> Result<EngineConfig, ConfigError> {
        if !(spec::CHUNK_LOG2_MIN..=spec::CHUNK_LOG2_MAX).contains(&value) {
            return Err(ConfigError::ChunkLog2Max { value });
        }
        self.chunk_log2_max = value;
        Ok(self)
    }

    /// Sets `IDX_LOG2`: at most `2^idx_log2` chunks per descriptor (0..=32).
    pub fn with_idx_log2(mut self, value: u8) -> Result<EngineConfig, ConfigError> {
        if value > 32 {
            return Err(ConfigError::IdxLog2 { value });
        }
        self.idx_log2 = value;
        Ok(self)
    }

    /// Sets how many descriptors [`run_chain`] visits before it gives up on a chain (the RTL
    /// has no such limit: a chain that loops runs until it is aborted). Default 65536.
    pub fn with_desc_limit(mut self, n: usize) -> EngineConfig {
        self.desc_limit = n;
        self
    }

    /// Data bus width in bytes (`BB`).
    pub fn bus_bytes(&self) -> u32 {
        self.bus_bytes
    }

    /// `CHUNK_LOG2_MAX`.
    pub fn chunk_log2_max(&self) -> u8 {
        self.chunk_log2_max
    }

    /// `IDX_LOG2`.
    pub fn idx_log2(&self) -> u8 {
        self.idx_log2
    }

    /// Element width of the datapath, `E = 8·BB/32` bits: one beat is one 32-element block.
    pub fn elem_bits(&self) -> u32 {
        self.bus_bytes * 8 / 32
    }

    /// [`EngineConfig::elem_bits`] as an [`ElemWidth`].
    pub fn elem(&self) -> ElemWidth {
        ElemWidth::from_bits(self.elem_bits()).expect("bus width checked")
    }

    /// The HWCFG register value (`reads_in_flight` is a timing parameter the model does not
    /// know; it is given).
    pub fn hwcfg(&self, reads_in_flight: u8) -> u32 {
        let w = csr::HWCFG_BUS_LOG2.set(0, u64::from(self.bus_bytes.trailing_zeros()));
        let w = csr::HWCFG_ELEM_BITS.set(w, u64::from(self.elem_bits()));
        let w = csr::HWCFG_CHUNK_LOG2_MAX.set(w, u64::from(self.chunk_log2_max));
        csr::HWCFG_READS_IN_FLIGHT.set(w, u64::from(reads_in_flight)) as u32
    }
}

/// A descriptor as it lies in memory (docs/DESCRIPTORS.md). `status` and `bytes_written`
/// are left out: software leaves them, the engine overwrites them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Descriptor {
    /// Control word (operation, element width, flags, chunk size).
    pub control: u32,
    /// Bytes at `src_addr`.
    pub src_len: u32,
    /// Source address.
    pub src_addr: u64,
    /// Destination address.
    pub dst_addr: u64,
    /// Bytes the engine may write at `dst_addr`.
    pub dst_cap: u32,
    /// Must be 0.
    pub reserved0: u32,
    /// Frame header + index address (COMPRESS, DECOMPRESS).
    pub meta_addr: u64,
    /// Next descriptor, 0 ends the chain.
    pub next: u64,
    /// Must be 0.
    pub reserved1: u64,
}

/// An operation of the control word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Copy `src_len` bytes.
    Copy,
    /// Source → chunked frame.
    Compress,
    /// Chunked frame → data.
    Decompress,
}

impl Op {
    fn code(self) -> u64 {
        match self {
            Op::Copy => d::OP_COPY,
            Op::Compress => d::OP_COMPRESS,
            Op::Decompress => d::OP_DECOMPRESS,
        }
    }
}

/// Builds a control word. `elem_bits` must be 8, 16 or 32 (any other value gives the reserved
/// code 3); `chunk_log2` is written as given (truncated to its 5 bits).
pub fn control_word(op: Op, elem_bits: u32, chunk_log2: u8, irq: bool, stop_on_error: bool) -> u32 {
    let elem = d::ELEM_CODES
        .iter()
        .find(|(_, b)| *b == elem_bits)
        .map_or(3, |(c, _)| *c);
    let w = d::CTRL_OP.set(0, op.code());
    let w = d::CTRL_ELEM.set(w, elem);
    let w = d::CTRL_IRQ.set(w, u64::from(irq));
    let w = d::CTRL_STOP_ON_ERROR.set(w, u64::from(stop_on_error));
    d::CTRL_CHUNK_LOG2.set(w, u64::from(chunk_log2)) as u32
}

impl Descriptor {
    /// The 64 bytes in memory (`status` and `bytes_written` zero).
    pub fn to_bytes(&self) -> [u8; DESC_LEN] {
        let mut b = [0u8; DESC_LEN];
        d::CONTROL_FIELD.put(&mut b, u64::from(self.control));
        d::SRC_LEN_FIELD.put(&mut b, u64::from(self.src_len));
        d::SRC_ADDR_FIELD.put(&mut b, self.src_addr);
        d::DST_ADDR_FIELD.put(&mut b, self.dst_addr);
        d::DST_CAP_FIELD.put(&mut b, u64::from(self.dst_cap));
        d::RESERVED0_FIELD.put(&mut b, u64::from(self.reserved0));
        d::META_ADDR_FIELD.put(&mut b, self.meta_addr);
        d::NEXT_FIELD.put(&mut b, self.next);
        d::RESERVED1_FIELD.put(&mut b, self.reserved1);
        b
    }

    /// Parses the 64 bytes of a descriptor (`status` and `bytes_written` are ignored).
    pub fn from_bytes(b: &[u8; DESC_LEN]) -> Descriptor {
        Descriptor {
            control: d::CONTROL_FIELD.get(b) as u32,
            src_len: d::SRC_LEN_FIELD.get(b) as u32,
            src_addr: d::SRC_ADDR_FIELD.get(b),
            dst_addr: d::DST_ADDR_FIELD.get(b),
            dst_cap: d::DST_CAP_FIELD.get(b) as u32,
            reserved0: d::RESERVED0_FIELD.get(b) as u32,
            meta_addr: d::META_ADDR_FIELD.get(b),
            next: d::NEXT_FIELD.get(b),
            reserved1: d::RESERVED1_FIELD.get(b),
        }
    }

    fn flag(&self, f: cdma_spec::BitField) -> bool {
        f.get(u64::from(self.control)) == 1
    }

    /// The `irq` flag.
    pub fn irq(&self) -> bool {
        self.flag(d::CTRL_IRQ)
    }

    /// The `stop_on_error` flag.
    pub fn stop_on_error(&self) -> bool {
        self.flag(d::CTRL_STOP_ON_ERROR)
    }
}

/// The status word the engine writes back: done = 1 and the error code.
pub fn status_word(error: ErrorCode) -> u32 {
    let w = d::STATUS_DONE.set(0, 1);
    d::STATUS_ERROR.set(w, u64::from(error.code)) as u32
}

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
/// it. Writes carry byte strobes: a write of `[a, a + n)` touches exactly those bytes and
/// fails if any of them faults.
pub fn run_chain(mem: &mut impl Memory, head: u64, cfg: &EngineConfig) -> ChainOutcome {
    let mut descs = Vec::new();
    let mut addr = head;
    let end = loop {
        if descs.len() >= cfg.desc_limit {
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

fn align_down(a: u64, bb: u64) -> u64 {
    a & !(bb - 1)
}

/// Reads `[addr, addr + len)` the way the engine does: whole beats. Returns the `len` bytes.
fn read_beats(mem: &mut impl Memory, addr: u64, len: u64, bb: u64) -> Result<Vec<u8>, BusFault> {
    if len == 0 {
        return Ok(Vec::new());
    }
    let r = span(addr, len)?;
    let start = align_down(r.start, bb);
    // The last beat may reach past the address space: that beat has no slave (DECERR).
    let end = r.end.checked_next_multiple_of(bb).ok_or(BusFault {
        addr: r.end,
        resp: BusError::DecErr,
    })?;
    let mut buf = vec![0u8; (end - start) as usize];
    mem.read(start, &mut buf)?;
    let off = (addr - start) as usize;
    buf.truncate(off + len as usize);
    buf.drain(..off);
    Ok(buf)
}

/// Writes `data` at `base + off` (an address past the address space faults, never wraps).
fn write_at(mem: &mut impl Memory, base: u64, off: u64, data: &[u8]) -> Result<(), BusFault> {
    let a = base.checked_add(off).ok_or(BusFault {
        addr: u64::MAX,
        resp: BusError::DecErr,
    })?;
    if data.is_empty() {
        return Ok(());
    }
    mem.write(a, data)
}

/// `[addr, addr + len)`, cut at the end of the address space.
fn region(addr: u64, len: u64) -> Range<u64> {
    addr..addr.saturating_add(len)
}

/// Result of the operation of a fetched descriptor: error, bytes written, unspecified memory.
struct OpResult {
    error: ErrorCode,
    bytes_written: u32,
    unspecified: Vec<Range<u64>>,
}

impl OpResult {
    fn ok(bytes_written: u32) -> OpResult {
        OpResult {
            error: code::OK,
            bytes_written,
            unspecified: Vec::new(),
        }
    }
    /// An error before anything but the status word is written.
    fn early(error: ErrorCode) -> OpResult {
        OpResult {
            error,
            bytes_written: 0,
            unspecified: Vec::new(),
        }
    }
    /// An error while streaming: `unspecified` may hold anything.
    fn streaming(error: ErrorCode, unspecified: Vec<Range<u64>>) -> OpResult {
        OpResult {
            error,
            bytes_written: 0,
            unspecified,
        }
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
    let bytes = match read_beats(mem, addr, DESC_LEN as u64, u64::from(cfg.bus_bytes)) {
        Ok(b) => b,
        Err(_) => return (fail_fetch(code::READ_ERROR), 0),
    };
    let desc = Descriptor::from_bytes(bytes.as_slice().try_into().expect("64 bytes"));
    let r = run_op(mem, &desc, cfg);
    let word = status_word(r.error);
    let mut wb = [0u8; 8];
    wb[..4].copy_from_slice(&word.to_le_bytes());
    wb[4..].copy_from_slice(&r.bytes_written.to_le_bytes());
    let writeback_failed = write_at(mem, addr, d::STATUS_FIELD.offset as u64, &wb).is_err();
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

/// Steps 2–8 of docs/DESCRIPTORS.md for a fetched descriptor.
fn run_op(mem: &mut impl Memory, desc: &Descriptor, cfg: &EngineConfig) -> OpResult {
    let c = u64::from(desc.control);
    let bb = u64::from(cfg.bus_bytes);
    // Step 2: the descriptor's own consistency.
    let known = d::CONTROL_BITS.iter().fold(0, |m, f| m | f.mask());
    let op = match d::CTRL_OP.get(c) {
        x if x == d::OP_COPY => Some(Op::Copy),
        x if x == d::OP_COMPRESS => Some(Op::Compress),
        x if x == d::OP_DECOMPRESS => Some(Op::Decompress),
        _ => None,
    };
    let elem_bits = d::ELEM_CODES
        .iter()
        .find(|(code, _)| *code == d::CTRL_ELEM.get(c))
        .map(|(_, b)| *b);
    let chunk_field = d::CTRL_CHUNK_LOG2.get(c) as u8;
    let (Some(op), Some(elem_bits)) = (op, elem_bits) else {
        return OpResult::early(code::BAD_DESC);
    };
    if c & !known != 0 || desc.reserved0 != 0 || desc.reserved1 != 0 {
        return OpResult::early(code::BAD_DESC);
    }
    let chunk_log2 = match op {
        Op::Compress if chunk_field == 0 => spec::CHUNK_LOG2_DEFAULT,
        Op::Compress => chunk_field,
        _ if chunk_field != 0 => return OpResult::early(code::BAD_DESC),
        _ => 0,
    };
    if op == Op::Compress && spec::check_chunk_log2(chunk_log2).is_err() {
        return OpResult::early(code::BAD_DESC);
    }
    // Step 3: what this configuration can run.
    if op != Op::Copy && elem_bits != cfg.elem_bits() {
        return OpResult::early(code::UNSUPPORTED);
    }
    // (A chunk smaller than a beat cannot happen today, 2^7 >= BB; the rule keeps chunks
    // whole beats should a wider bus be added.)
    if op == Op::Compress && (chunk_log2 > cfg.chunk_log2_max || (1u64 << chunk_log2) < bb) {
        return OpResult::early(code::UNSUPPORTED);
    }
    // Step 4: alignment.
    let misaligned = |a: u64| !a.is_multiple_of(bb);
    if misaligned(desc.src_addr)
        || misaligned(desc.dst_addr)
        || (op != Op::Copy && misaligned(desc.meta_addr))
    {
        return OpResult::early(code::UNALIGNED);
    }
    // Step 5: whole elements of the engine's width (COPY included: it moves whole beats'
    // lanes, and one rule for every operation is simpler for software).
    let elem = cfg.elem();
    if !desc.src_len.is_multiple_of(elem.bytes() as u32) {
        return OpResult::early(code::BAD_DESC);
    }
    match op {
        Op::Copy => copy(mem, desc, bb),
        Op::Compress => compress(mem, desc, cfg, elem, chunk_log2),
        Op::Decompress => decompress(mem, desc, cfg, elem),
    }
}

/// COPY streams in pieces of this many bytes (a multiple of every bus width), so a large
/// `src_len` costs no large buffer.
const COPY_PIECE: u64 = 1 << 16;

fn copy(mem: &mut impl Memory, desc: &Descriptor, bb: u64) -> OpResult {
    // Step 6.
    if desc.src_len > desc.dst_cap {
        return OpResult::early(code::DST_OVERFLOW);
    }
    let unspec = vec![region(desc.dst_addr, u64::from(desc.dst_cap))];
    let len = u64::from(desc.src_len);
    // As for COMPRESS: a write error is reported only if every read succeeded.
    let mut write_failed = false;
    let mut off = 0;
    while off < len {
        let n = COPY_PIECE.min(len - off);
        let piece = match desc.src_addr.checked_add(off) {
            Some(a) => read_beats(mem, a, n, bb),
            None => Err(BusFault {
                addr: u64::MAX,
                resp: BusError::DecErr,
            }),
        };
        let Ok(piece) = piece else {
            return OpResult::streaming(code::READ_ERROR, unspec);
        };
        write_failed |= write_at(mem, desc.dst_addr, off, &piece).is_err();
        off += n;
    }
    if write_failed {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    OpResult::ok(desc.src_len)
}

fn compress(
    mem: &mut impl Memory,
    desc: &Descriptor,
    cfg: &EngineConfig,
    elem: ElemWidth,
    chunk_log2: u8,
) -> OpResult {
    let bb = u64::from(cfg.bus_bytes);
    let len = u64::from(desc.src_len);
    let n = spec::n_chunks(len, chunk_log2);
    // Step 6.
    if n > 1u64 << cfg.idx_log2 {
        return OpResult::early(code::UNSUPPORTED);
    }
    // Step 8: chunk by chunk, in stream order.
    let unspec = vec![
        region(desc.dst_addr, u64::from(desc.dst_cap)),
        region(desc.meta_addr, spec::meta_len(n)),
    ];
    let chunk = 1u64 << chunk_log2;
    let mut index = Vec::new();
    let mut stored = Vec::new();
    let mut off = 0u64;
    // Write responses come back after the stream has moved on, so a write error is reported
    // only when nothing in the stream (read error, overflow) failed first.
    let mut write_failed = false;
    for i in 0..n {
        let start = i * chunk;
        let clen = chunk.min(len - start);
        let src = match desc.src_addr.checked_add(start) {
            Some(a) => read_beats(mem, a, clen, bb),
            None => Err(BusFault {
                addr: u64::MAX,
                resp: BusError::DecErr,
            }),
        };
        let Ok(src) = src else {
            return OpResult::streaming(code::READ_ERROR, unspec);
        };
        stored.clear();
        let e = encode_chunk(&src, elem, &mut stored);
        if off + stored.len() as u64 > u64::from(desc.dst_cap) {
            return OpResult::streaming(code::DST_OVERFLOW, unspec);
        }
        write_failed |= write_at(mem, desc.dst_addr, off, &stored).is_err();
        off += stored.len() as u64;
        index.extend_from_slice(&e.to_word().to_le_bytes());
    }
    if write_failed {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    let header = Header {
        elem,
        chunk_log2,
        n_chunks: n as u32,
        uncompressed_len: len,
        payload_len: off,
    };
    let mut meta = header.to_bytes().to_vec();
    meta.extend_from_slice(&index);
    if write_at(mem, desc.meta_addr, 0, &meta).is_err() {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    // off <= dst_cap, a u32.
    OpResult::ok(off as u32)
}

fn decompress(
    mem: &mut impl Memory,
    desc: &Descriptor,
    cfg: &EngineConfig,
    elem: ElemWidth,
) -> OpResult {
    let bb = u64::from(cfg.bus_bytes);
    // Step 7: header, then index; nothing is written before both are good.
    let Ok(hb) = read_beats(mem, desc.meta_addr, HEADER_LEN as u64, bb) else {
        return OpResult::early(code::READ_ERROR);
    };
    let Ok(h) = Header::parse(&hb) else {
        return OpResult::early(code::BAD_HEADER);
    };
    if u64::from(h.n_chunks) > 1u64 << cfg.idx_log2 || h.elem != elem {
        return OpResult::early(code::UNSUPPORTED);
    }
    if h.chunk_log2 > cfg.chunk_log2_max {
        return OpResult::early(code::UNSUPPORTED);
    }
    if h.uncompressed_len > u64::from(desc.dst_cap) {
        return OpResult::early(code::DST_OVERFLOW);
    }
    if h.payload_len != u64::from(desc.src_len) {
        return OpResult::early(code::BAD_HEADER);
    }
    let index_len = u64::from(h.n_chunks) * INDEX_ENTRY_LEN as u64;
    let index = match desc.meta_addr.checked_add(HEADER_LEN as u64) {
        Some(a) => read_beats(mem, a, index_len, bb),
        None => Err(BusFault {
            addr: u64::MAX,
            resp: BusError::DecErr,
        }),
    };
    let Ok(index) = index else {
        return OpResult::early(code::READ_ERROR);
    };
    let mut entries = Vec::new();
    let mut sum = 0u64;
    for i in 0..h.n_chunks {
        let e = IndexEntry::read(&index, i as usize);
        if e.check(i, h.chunk_len(u64::from(i)), elem).is_err() {
            return OpResult::early(code::BAD_INDEX);
        }
        sum += u64::from(e.stored_len);
        entries.push(e);
    }
    if sum != h.payload_len {
        return OpResult::early(code::BAD_INDEX);
    }
    // Payload, chunk by chunk in stream order. Within a chunk a read error wins over a
    // decoding error (the engine sees the beat's response with its data).
    let unspec = vec![region(desc.dst_addr, u64::from(desc.dst_cap))];
    let mut off = 0u64;
    let mut out = Vec::new();
    let mut write_failed = false;
    for (i, e) in entries.iter().enumerate() {
        let s = match desc.src_addr.checked_add(off) {
            Some(a) => read_beats(mem, a, u64::from(e.stored_len), bb),
            None => Err(BusFault {
                addr: u64::MAX,
                resp: BusError::DecErr,
            }),
        };
        let Ok(s) = s else {
            return OpResult::streaming(code::READ_ERROR, unspec);
        };
        out.clear();
        let clen = h.chunk_len(i as u64);
        if decode_chunk(&s, *e, clen as usize, elem, &mut out).is_err() {
            return OpResult::streaming(code::BAD_PAYLOAD, unspec);
        }
        write_failed |= write_at(mem, desc.dst_addr, i as u64 * h.chunk_bytes(), &out).is_err();
        off += u64::from(e.stored_len);
    }
    if write_failed {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    // uncompressed_len <= dst_cap, a u32.
    OpResult::ok(h.uncompressed_len as u32)
}
