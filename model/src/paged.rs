//! The one sparse byte store of the project: 4 KiB pages allocated on first write, bytes
//! never written read as a fill byte. The golden DMA model's [`crate::dma::SparseMemory`] and
//! the testbench's AXI slave memory both keep their bytes in it, so a memory image of the
//! model and of the RTL run compare page for page.

use std::collections::HashMap;
use std::ops::Range;

/// log2 of the page size.
pub const PAGE_LOG2: u32 = 12;
/// Bytes per page (4 KiB, also the AXI burst boundary).
pub const PAGE_BYTES: u64 = 1 << PAGE_LOG2;

/// A sparse byte-addressed store over the whole 64-bit space. Addresses wrap at 2^64 (callers
/// that must not wrap check their ranges first).
#[derive(Clone, Debug)]
pub struct PagedBytes {
    pages: HashMap<u64, Box<[u8]>>,
    fill: u8,
}

impl PagedBytes {
    /// An empty store whose every byte reads `fill` until written.
    pub fn new(fill: u8) -> PagedBytes {
        PagedBytes {
            pages: HashMap::new(),
            fill,
        }
    }

    /// The byte that unwritten addresses read as.
    pub fn fill(&self) -> u8 {
        self.fill
    }

    /// Copies the bytes at `addr..addr + out.len()` into `out`.
    pub fn read_into(&self, addr: u64, out: &mut [u8]) {
        let mut done = 0;
        while done < out.len() {
            let a = addr.wrapping_add(done as u64);
            let off = (a % PAGE_BYTES) as usize;
            let n = (PAGE_BYTES as usize - off).min(out.len() - done);
            match self.pages.get(&(a >> PAGE_LOG2)) {
                Some(p) => out[done..done + n].copy_from_slice(&p[off..off + n]),
                None => out[done..done + n].fill(self.fill),
            }
            done += n;
        }
    }

    /// The `len` bytes at `addr`.
    pub fn read(&self, addr: u64, len: usize) -> Vec<u8> {
        let mut v = vec![0; len];
        self.read_into(addr, &mut v);
        v
    }

    /// Stores `data` at `addr`.
    pub fn write(&mut self, addr: u64, data: &[u8]) {
        let mut done = 0;
        while done < data.len() {
            let a = addr.wrapping_add(done as u64);
            let off = (a % PAGE_BYTES) as usize;
            let n = (PAGE_BYTES as usize - off).min(data.len() - done);
            self.page_mut(a)[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
    }

    /// The whole page holding `addr` (allocated, filled, if it was never written); `addr`'s
    /// byte is at `addr % PAGE_BYTES`.
    pub fn page_mut(&mut self, addr: u64) -> &mut [u8] {
        let fill = self.fill;
        self.pages
            .entry(addr >> PAGE_LOG2)
            .or_insert_with(|| vec![fill; PAGE_BYTES as usize].into_boxed_slice())
    }

    /// The byte ranges (merged, ascending) where `self` and `other` differ.
    pub fn diff(&self, other: &PagedBytes) -> Vec<Range<u64>> {
        let mut keys: Vec<u64> = self
            .pages
            .keys()
            .chain(other.pages.keys())
            .copied()
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut out: Vec<Range<u64>> = Vec::new();
        for k in keys {
            let base = k << PAGE_LOG2;
            let a = self.read(base, PAGE_BYTES as usize);
            let b = other.read(base, PAGE_BYTES as usize);
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                if x != y {
                    let at = base + i as u64;
                    match out.last_mut() {
                        Some(r) if r.end == at => r.end = at + 1,
                        _ => out.push(at..at + 1),
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwritten_bytes_read_as_fill_and_writes_cross_pages() {
        let mut m = PagedBytes::new(0xA5);
        assert_eq!(m.read(10, 3), [0xA5; 3]);
        let data: Vec<u8> = (0..20).collect();
        m.write(PAGE_BYTES - 7, &data);
        assert_eq!(m.read(PAGE_BYTES - 7, 20), data);
        assert_eq!(m.read(PAGE_BYTES - 8, 1), [0xA5]);
        assert_eq!(m.page_mut(PAGE_BYTES)[12], 19);
        assert_eq!(m.page_mut(PAGE_BYTES)[13], 0xA5);
        assert_eq!(m.page_mut(PAGE_BYTES)[0], 7);
    }

    #[test]
    fn diff_merges_adjacent_bytes() {
        let mut a = PagedBytes::new(0);
        let b = PagedBytes::new(0);
        a.write(5, &[1, 2]);
        a.write(PAGE_BYTES + 1, &[3]);
        a.write(9, &[0]); // allocates nothing new that differs
        assert_eq!(a.diff(&b), vec![5..7, PAGE_BYTES + 1..PAGE_BYTES + 2]);
        assert_eq!(b.diff(&a), a.diff(&b));
    }
}
