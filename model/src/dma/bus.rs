//! How the engine reads and writes over its bus: whole beats in, byte strobes out, and no
//! access wraps around the end of the address space.

use std::ops::Range;

use super::memory::{span, BusError, BusFault, Memory};

fn align_down(a: u64, bb: u64) -> u64 {
    a & !(bb - 1)
}

/// Reads `[addr, addr + len)` the way the engine does: whole beats. Returns the `len` bytes.
pub(super) fn read_beats(
    mem: &mut impl Memory,
    addr: u64,
    len: u64,
    bb: u64,
) -> Result<Vec<u8>, BusFault> {
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

/// [`read_beats`] of `[base + off, base + off + len)`; an address past the address space
/// faults with DECERR, never wraps.
pub(super) fn read_beats_at(
    mem: &mut impl Memory,
    base: u64,
    off: u64,
    len: u64,
    bb: u64,
) -> Result<Vec<u8>, BusFault> {
    match base.checked_add(off) {
        Some(a) => read_beats(mem, a, len, bb),
        None => Err(BusFault {
            addr: u64::MAX,
            resp: BusError::DecErr,
        }),
    }
}

/// Writes `data` at `base + off` the way the engine does: whole `bb`-byte beats with byte
/// strobes, so a fault anywhere in a beat it touches fails the write (an address past the
/// address space faults, never wraps).
pub(super) fn write_at(
    mem: &mut impl Memory,
    (base, off): (u64, u64),
    data: &[u8],
    bb: u64,
) -> Result<(), BusFault> {
    let no_slave = BusFault {
        addr: u64::MAX,
        resp: BusError::DecErr,
    };
    let a = base.checked_add(off).ok_or(no_slave)?;
    if data.is_empty() {
        return Ok(());
    }
    let r = span(a, data.len() as u64)?;
    let end = r.end.checked_next_multiple_of(bb).ok_or(no_slave)?;
    if let Some(f) = mem.write_fault(align_down(r.start, bb)..end) {
        return Err(f);
    }
    mem.write(a, data)
}

/// `[addr, addr + len)`, cut at the end of the address space.
pub(super) fn region(addr: u64, len: u64) -> Range<u64> {
    addr..addr.saturating_add(len)
}
