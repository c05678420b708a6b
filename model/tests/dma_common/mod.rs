//! Shared set-up of the golden DMA model's tests (`dma_validation`, `dma_ops`, `dma_chains`):
//! the memory map, descriptor builders, and [`run`], which checks on every chain the
//! invariant that the only bytes that changed are the status write-backs, the outputs of
//! successful descriptors, and the ranges the model declares unspecified.

// Each test file uses its own subset of these helpers.
#![allow(dead_code)]

use std::ops::Range;

use cdma_model::dma::{
    codes, control_word, run_chain, status_word, ChainEnd, ChainOutcome, DescOutcome, Descriptor,
    EngineConfig, ErrorCode, Op, SparseMemory,
};
use cdma_model::rng::XorShift64;
use cdma_model::{compress_chunked, layout, ElemWidth};
use cdma_spec::csr;

pub const DESC: u64 = 0x1000;
pub const SRC: u64 = 0x1_0000;
pub const DST: u64 = 0x4_0000;
pub const META: u64 = 0x8_0000;
pub const DST2: u64 = 0xC_0000;
pub const FILL: u8 = 0xCD;

/// `r` lies inside the union of `allowed`.
pub fn within(r: &Range<u64>, allowed: &[Range<u64>]) -> bool {
    // Allowed ranges may touch or overlap; walk r through them.
    let mut at = r.start;
    loop {
        if at >= r.end {
            return true;
        }
        match allowed.iter().find(|a| a.start <= at && at < a.end) {
            Some(a) => at = a.end,
            None => return false,
        }
    }
}

/// Runs the chain at `head` and checks the invariant on what changed in memory.
pub fn run(mem: &mut SparseMemory, head: u64, cfg: &EngineConfig) -> ChainOutcome {
    let before = mem.clone();
    let o = run_chain(mem, head, cfg);
    let mut allowed = Vec::new();
    for d in &o.descs {
        allowed.extend(d.unspecified.iter().cloned());
        if let Some(word) = d.status_word {
            let wb = d.addr + 0x30..d.addr + 0x38;
            if !d.writeback_failed {
                let mut expect = word.to_le_bytes().to_vec();
                expect.extend_from_slice(&d.bytes_written.to_le_bytes());
                assert_eq!(mem.peek(wb.start, 8), expect, "write-back of {:#x}", d.addr);
            }
            allowed.push(wb);
        }
        if d.error == codes::OK {
            let desc = d.desc.unwrap();
            allowed.push(desc.dst_addr..desc.dst_addr + u64::from(d.bytes_written));
            if desc.control & 3 == 1 {
                let h = layout::Header::parse(&mem.peek(desc.meta_addr, layout::HEADER_LEN))
                    .expect("a COMPRESS that ended OK wrote a good header");
                allowed.push(desc.meta_addr..desc.meta_addr + h.meta_len());
            }
        } else {
            assert_eq!(d.bytes_written, 0, "bytes_written after an error");
        }
    }
    for r in mem.diff(&before) {
        assert!(within(&r, &allowed), "{r:x?} changed, allowed {allowed:x?}");
    }
    assert_eq!(o.desc_done as usize, o.descs.len());
    o
}

/// ReLU-like data of `n` `elem`-wide elements: about half zero, non-zero ones arbitrary.
pub fn relu(n: usize, elem: ElemWidth, seed: u64) -> Vec<u8> {
    let mut rng = XorShift64::new(seed | 1);
    (0..n)
        .flat_map(|_| {
            let s = rng.next();
            let v = if s % 100 < 50 {
                0
            } else {
                (s >> 20) as u32 | 1
            };
            v.to_le_bytes().into_iter().take(elem.bytes())
        })
        .collect()
}

/// The engine with a `bb`-byte bus and every element width.
pub fn cfg(bb: u32) -> EngineConfig {
    EngineConfig::new(bb).unwrap()
}

/// The engine with a `bb`-byte bus that compresses only elements of `elem`.
pub fn cfg_only(bb: u32, elem: ElemWidth) -> EngineConfig {
    cfg(bb).with_elem_widths(&[elem]).unwrap()
}

/// Every bus width crossed with every element width.
pub fn bus_elem_pairs() -> Vec<(u32, ElemWidth)> {
    [16u32, 32, 64, 128]
        .into_iter()
        .flat_map(|bb| ElemWidth::ALL.map(|e| (bb, e)))
        .collect()
}

pub fn e32() -> EngineConfig {
    cfg(128)
}

pub fn ctrl(op: Op, elem_bits: u32, chunk_log2: u8) -> u32 {
    control_word(op, elem_bits, chunk_log2, false, false)
}

pub fn copy(len: u32, cap: u32) -> Descriptor {
    Descriptor {
        control: ctrl(Op::Copy, 32, 0),
        src_len: len,
        src_addr: SRC,
        dst_addr: DST,
        dst_cap: cap,
        ..Descriptor::default()
    }
}

pub fn comp(elem_bits: u32, len: u32, cap: u32, chunk_log2: u8) -> Descriptor {
    Descriptor {
        control: ctrl(Op::Compress, elem_bits, chunk_log2),
        src_len: len,
        src_addr: SRC,
        dst_addr: DST,
        dst_cap: cap,
        meta_addr: META,
        ..Descriptor::default()
    }
}

pub fn decomp(elem_bits: u32, payload_len: u32, cap: u32) -> Descriptor {
    Descriptor {
        control: ctrl(Op::Decompress, elem_bits, 0),
        src_len: payload_len,
        src_addr: SRC,
        dst_addr: DST,
        dst_cap: cap,
        meta_addr: META,
        ..Descriptor::default()
    }
}

/// Memory with `data` at SRC and descriptor `d` at DESC.
pub fn setup(data: &[u8], d: Descriptor) -> SparseMemory {
    let mut m = SparseMemory::new(FILL);
    m.load(SRC, data);
    m.load(DESC, &d.to_bytes());
    m
}

/// A frame of `data` laid out for DECOMPRESS: header + index at META, payload at SRC.
/// Returns the memory (descriptor at DESC, from `mk(payload_len)`) and the frame.
pub fn setup_frame(
    data: &[u8],
    elem: ElemWidth,
    c: u8,
    mk: impl Fn(u32) -> Descriptor,
) -> (SparseMemory, Vec<u8>) {
    let f = compress_chunked(data, elem, c).unwrap();
    let meta = layout::Header::parse(&f).unwrap().meta_len() as usize;
    let mut m = SparseMemory::new(FILL);
    m.load(META, &f[..meta]);
    m.load(SRC, &f[meta..]);
    m.load(DESC, &mk((f.len() - meta) as u32).to_bytes());
    (m, f)
}

/// Runs the single descriptor at DESC and checks the CSR view of its result.
pub fn single(mem: &mut SparseMemory, c: &EngineConfig, want: ErrorCode) -> DescOutcome {
    let o = run(mem, DESC, c);
    assert_eq!(o.descs.len(), 1);
    let d = o.descs[0].clone();
    assert_eq!(d.error, want, "descriptor error");
    assert_eq!(d.status_word, Some(status_word(want)));
    assert_eq!(o.end, ChainEnd::Completed);
    let irq = u64::from(o.irq_status);
    assert_eq!(csr::IRQ_DONE.get(irq), 1);
    if want == codes::OK {
        assert_eq!(o.error(), None);
        assert_eq!(o.err_desc, None);
        assert_eq!(csr::IRQ_ERROR.get(irq), 0);
        assert!(d.unspecified.is_empty());
    } else {
        assert_eq!(o.error(), Some(want));
        assert_eq!(o.err_desc, Some(DESC));
        assert_eq!(csr::IRQ_ERROR.get(irq), 1);
        assert_eq!(csr::STATUS_BUSY.get(u64::from(o.status)), 0);
    }
    d
}

/// The descriptor failed before writing anything but its status.
pub fn early(mem: &mut SparseMemory, c: &EngineConfig, want: ErrorCode) {
    let before = mem.clone();
    let d = single(mem, c, want);
    assert!(
        d.unspecified.is_empty(),
        "{}: {:x?}",
        want.name,
        d.unspecified
    );
    for r in mem.diff(&before) {
        assert!(r.start >= DESC + 0x30 && r.end <= DESC + 0x38, "{r:x?}");
    }
}
