//! The memory the engine masters over AXI: the [`Memory`] trait, its faults, and
//! [`SparseMemory`], the memory of the tests and testbenches.

use std::ops::Range;

use crate::paged::PagedBytes;

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
    /// The fault a write touching `range` would meet, if any, whatever bytes of it are
    /// written (the engine writes whole beats; a slave answers for the beat, not for its
    /// strobed bytes). Default: none besides those of [`Memory::write`].
    fn write_fault(&self, range: Range<u64>) -> Option<BusFault> {
        let _ = range;
        None
    }
}

/// `[addr, addr + len)` if it lies inside the model's address space `[0, 2^64 − 1)`; else
/// the access reaches the byte no slave decodes.
pub(super) fn span(addr: u64, len: u64) -> Result<Range<u64>, BusFault> {
    addr.checked_add(len).map(|end| addr..end).ok_or(BusFault {
        addr: u64::MAX,
        resp: BusError::DecErr,
    })
}

/// A sparse memory for tests: a [`PagedBytes`] store (unwritten bytes read as a fill byte)
/// plus address ranges that fail reads or writes with a chosen response.
///
/// A read or write fails if any of its bytes lies in an error range of its kind; a failing
/// write writes nothing. The engine reads and writes whole bus beats (see
/// [`run_chain`](super::run_chain)), so an error range also fails accesses to bytes next to it
/// in the same beat.
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

    fn write_fault(&self, range: Range<u64>) -> Option<BusFault> {
        Self::fault(&self.write_errors, &range)
    }
}
