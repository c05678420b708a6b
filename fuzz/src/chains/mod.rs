//! Random descriptor chains with bad fields against the golden DMA model
//! (`cdma_model::dma::run_chain`), deterministic from a seed: chain `i` is drawn from its own
//! generator seeded by `(seed, i)`.
//!
//! A chain is one to six descriptors, each built valid (COPY, COMPRESS or DECOMPRESS of a
//! slice of seed data, in regions of their own) and then, with probability one half, given one
//! or two [`Fault`]s: control bits, misaligned addresses, lengths, capacities, `next`
//! pointers (loops and garbage included), reserved fields, damaged frames, bus errors,
//! addresses at the top of the address space. Every chain must end (the model's descriptor
//! limit stops loops), must not panic, and must change only the bytes docs/DESCRIPTORS.md lets
//! it change: status write-backs, and per descriptor its destination (and COMPRESS metadata)
//! when it succeeds or the `unspecified` ranges when it fails. An undamaged descriptor in a
//! chain without address faults that ends OK must also have produced the right bytes.

mod draw;

use std::ops::Range;

use cdma_model::dma::{
    codes, run_chain, BusError, ChainOutcome, Descriptor, EngineConfig, ErrorCode, Memory, Op,
    SparseMemory,
};
use cdma_model::{decompress, layout};
use cdma_spec::desc as d;

pub use draw::{draw, draw_damaged_for, draw_for};

/// A kind of bad field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// One random bit of `control` flipped.
    ControlBit,
    /// One `control` field (op, elem, chunk_log2, type, codec) set to a random value.
    ControlField,
    /// `src_addr`, `dst_addr` or `meta_addr` off its bus alignment.
    Misalign,
    /// `src_len` 0, one byte off, random or huge.
    SrcLen,
    /// `dst_cap` 0, one short, or random and small.
    DstCap,
    /// `next` to another descriptor (a loop), into data, to garbage, misaligned or 0.
    Next,
    /// `reserved0` or `reserved1` not 0.
    Reserved,
    /// A DECOMPRESS frame damaged as `cdma fuzz` damages frames.
    Frame,
    /// A read or write error on part of a region.
    BusError,
    /// A source, destination or metadata region at the very top of the address space, or
    /// the next descriptor there.
    TopOfMemory,
}

impl Fault {
    /// Every fault kind, in report order.
    pub const ALL: [Fault; 10] = [
        Fault::ControlBit,
        Fault::ControlField,
        Fault::Misalign,
        Fault::SrcLen,
        Fault::DstCap,
        Fault::Next,
        Fault::Reserved,
        Fault::Frame,
        Fault::BusError,
        Fault::TopOfMemory,
    ];

    /// Lower-case name (report rows).
    pub fn name(self) -> &'static str {
        match self {
            Fault::ControlBit => "control-bit",
            Fault::ControlField => "control-field",
            Fault::Misalign => "misalign",
            Fault::SrcLen => "src-len",
            Fault::DstCap => "dst-cap",
            Fault::Next => "next",
            Fault::Reserved => "reserved",
            Fault::Frame => "frame",
            Fault::BusError => "bus-error",
            Fault::TopOfMemory => "top-of-memory",
        }
    }
}
/// Descriptors visited at most (a looping chain stops there).
pub const DESC_LIMIT: usize = 32;
/// Unwritten memory reads as this byte (the testbench's fill byte too).
pub const FILL: u8 = 0xE5;
/// Descriptors of a chain at most.
pub const MAX_DESCS: usize = 6;
/// Where descriptor `i` of a chain lives: `DESC_BASE + 64·i`.
pub const DESC_BASE: u64 = 0x1000;
/// Where descriptor `i`'s regions start: source, destination and metadata at
/// `REGION_BASE + (3i + k)·REGION_STRIDE`, `k` = 0, 1, 2.
pub const REGION_BASE: u64 = 0x10_0000;
/// Bytes between two regions: more than any region a valid template uses.
pub const REGION_STRIDE: u64 = 0x4_0000;

/// A bus error range a chain injects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InjectedError {
    /// The bytes that fail.
    pub range: Range<u64>,
    /// The response.
    pub resp: BusError,
    /// Reads fail (else writes).
    pub on_read: bool,
}

/// One drawn descriptor: where it is, what it says, the data it moves and its faults.
#[derive(Clone, Debug)]
pub struct DrawnDesc {
    /// Descriptor address.
    pub addr: u64,
    /// The descriptor as placed in memory (faults applied).
    pub desc: Descriptor,
    /// Its operation as built.
    pub op: Op,
    /// The data it moves (COPY, COMPRESS: the source; DECOMPRESS: what the frame holds).
    pub data: Vec<u8>,
    /// The faults applied.
    pub faults: Vec<Fault>,
    /// DECOMPRESS: bytes of the frame's metadata at `meta_addr` and of its payload at
    /// `src_addr`, as placed (the descriptor's own fields may be damaged).
    pub frame_split: (usize, usize),
}

/// A drawn chain: the engine, the memory before it runs, its head and its descriptors.
#[derive(Clone, Debug)]
pub struct ChainCase {
    /// The engine configuration.
    pub cfg: EngineConfig,
    /// Memory before the chain.
    pub mem: SparseMemory,
    /// First descriptor.
    pub head: u64,
    /// The descriptors in chain order.
    pub descs: Vec<DrawnDesc>,
    /// The bus errors it injects (also in `mem`).
    pub errors: Vec<InjectedError>,
}

impl ChainCase {
    /// The memory image before the chain as `(address, bytes)` runs (the rest reads
    /// [`FILL`]).
    pub fn segments(&self) -> Vec<(u64, Vec<u8>)> {
        self.mem
            .diff(&SparseMemory::new(FILL))
            .into_iter()
            .map(|r| (r.start, self.mem.peek(r.start, (r.end - r.start) as usize)))
            .collect()
    }
}

/// What a chain did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the rules; the error code of each descriptor visited.
    Pass(Vec<ErrorCode>),
    /// A rule was broken (what and where).
    Violation(String),
    /// The model panicked (the message).
    Panic(String),
}
/// Runs chain `case` on the model and checks it.
pub fn check(case: &ChainCase) -> Verdict {
    let mut mem = case.mem.clone();
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_chain(&mut mem, case.head, &case.cfg)
    }));
    match run {
        Ok(out) => judge(case, &out, mem),
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Verdict::Panic(msg)
        }
    }
}

/// Judges what a chain did: its outcome `out` and the memory `mem` it left.
pub fn judge(case: &ChainCase, out: &ChainOutcome, mut mem: SparseMemory) -> Verdict {
    let before = &case.mem;
    if out.descs.len() > DESC_LIMIT {
        return Verdict::Violation(format!("{} descriptors visited", out.descs.len()));
    }
    // Every changed byte must be one the rules allow.
    let mut allowed: Vec<Range<u64>> = Vec::new();
    for o in &out.descs {
        if o.status_word.is_some() {
            allowed.push(o.addr + 0x30..o.addr + 0x38);
        }
        if o.error != codes::OK && o.bytes_written != 0 {
            return Verdict::Violation(format!(
                "descriptor {:#x}: {} with bytes_written {}",
                o.addr, o.error.name, o.bytes_written
            ));
        }
        allowed.extend(o.unspecified.iter().cloned());
        if let (Some(desc), true) = (&o.desc, o.error == codes::OK) {
            allowed.push(desc.dst_addr..desc.dst_addr.saturating_add(u64::from(o.bytes_written)));
            if Op::of_control(desc.control) == Some(Op::Compress) {
                let chunk = d::CTRL_CHUNK_LOG2.get(u64::from(desc.control)) as u8;
                let meta = meta_len_of(desc.control, u64::from(desc.src_len), chunk);
                allowed.push(desc.meta_addr..desc.meta_addr.saturating_add(meta));
            }
        }
    }
    for r in mem.diff(before) {
        let covered = |b: u64| allowed.iter().any(|a| a.contains(&b));
        if let Some(b) = (r.start..r.end).find(|&b| !covered(b)) {
            return Verdict::Violation(format!("byte {b:#x} written outside the allowed ranges"));
        }
    }
    // Undamaged descriptors of a chain whose addresses were left alone: the right bytes.
    let moved = case.descs.iter().any(|dd| {
        dd.faults.iter().any(|f| {
            matches!(
                f,
                Fault::Next | Fault::Misalign | Fault::TopOfMemory | Fault::SrcLen
            )
        })
    });
    if !moved {
        for (dd, o) in case.descs.iter().zip(&out.descs) {
            if dd.faults.is_empty() && o.error == codes::OK {
                if let Err(e) = right_bytes(&mut mem, dd, o.bytes_written) {
                    return Verdict::Violation(format!("descriptor {:#x}: {e}", dd.addr));
                }
            }
        }
    }
    Verdict::Pass(out.descs.iter().map(|o| o.error).collect())
}

/// Bytes of metadata a COMPRESS of `len` bytes in chunks of `2^chunk` (a chunk size field,
/// 0 = the default) with control word `control` writes: with CRCs unless `no_crc`.
fn meta_len_of(control: u32, len: u64, chunk: u8) -> u64 {
    let chunk = if chunk == 0 {
        layout::CHUNK_LOG2_DEFAULT
    } else {
        chunk
    };
    let n = layout::n_chunks(len, chunk);
    if d::CTRL_NO_CRC.get(u64::from(control)) == 1 {
        layout::meta_len(n)
    } else {
        layout::meta_len_crc(n)
    }
}

/// What an undamaged descriptor that ended OK must have left in memory.
fn right_bytes(mem: &mut SparseMemory, dd: &DrawnDesc, written: u32) -> Result<(), String> {
    let c = &dd.desc;
    let mut got = vec![0u8; written as usize];
    mem.read(c.dst_addr, &mut got).map_err(|e| e.to_string())?;
    match dd.op {
        Op::Copy | Op::Decompress => {
            if got != dd.data {
                return Err("the destination does not hold the data".into());
            }
        }
        Op::Compress => {
            let chunk = d::CTRL_CHUNK_LOG2.get(u64::from(c.control)) as u8;
            let mut frame = vec![0u8; meta_len_of(c.control, dd.data.len() as u64, chunk) as usize];
            mem.read(c.meta_addr, &mut frame)
                .map_err(|e| e.to_string())?;
            frame.extend_from_slice(&got);
            match decompress(&frame) {
                Ok(back) if back == dd.data => {}
                Ok(_) => return Err("its frame decodes to other data".into()),
                Err(e) => return Err(format!("its frame does not decode: {e}")),
            }
        }
    }
    Ok(())
}
