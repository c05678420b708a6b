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

use std::ops::Range;

use cdma_model::dma::{
    codes, control_word, run_chain, with_type_and_codec, BusError, ChainOutcome, Descriptor,
    EngineConfig, ErrorCode, Memory, Op, SparseMemory,
};
use cdma_model::layout;
use cdma_model::{compress_with, decompress, Codec, ElemType, ElemWidth};
use cdma_spec::desc as d;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Mutation;

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
    /// A destination at the very top of the address space.
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

/// Where descriptors live (64 bytes apart) and where each descriptor's regions start.
const DESC_BASE: u64 = 0x1000;
const REGION_BASE: u64 = 0x10_0000;
/// Bytes between two regions: more than any region a valid template uses.
const REGION_STRIDE: u64 = 0x4_0000;
/// Largest data slice of a template.
const MAX_DATA: usize = 16 * 1024;
/// Descriptors visited at most (a looping chain stops there).
pub const DESC_LIMIT: usize = 32;
/// Unwritten memory reads as this byte.
const FILL: u8 = 0xA5;

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

fn region(i: usize, k: u64) -> u64 {
    REGION_BASE + (3 * i as u64 + k) * REGION_STRIDE
}

/// ReLU-like data: about half the elements zero.
fn data(rng: &mut ChaCha8Rng, elem: ElemWidth) -> Vec<u8> {
    let n = rng.gen_range(1..=MAX_DATA / elem.bytes());
    let mut v = Vec::with_capacity(n * elem.bytes());
    for _ in 0..n {
        let zero = rng.gen_bool(0.5);
        for _ in 0..elem.bytes() {
            v.push(if zero { 0 } else { rng.gen() });
        }
    }
    v
}

/// Chain `index` of the campaign `seed`.
pub fn draw(seed: u64, index: u64) -> ChainCase {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let bb = [16u32, 32, 64, 128][rng.gen_range(0..4)];
    let cfg = EngineConfig::new(bb)
        .expect("a bus width of the engine")
        .with_zvcx(rng.gen_bool(0.5))
        .with_desc_limit(DESC_LIMIT);
    let mut mem = SparseMemory::new(FILL);
    let n = rng.gen_range(1..=6);
    let mut descs = Vec::with_capacity(n);
    for i in 0..n {
        let addr = DESC_BASE + 64 * i as u64;
        let next = if i + 1 < n { addr + 64 } else { 0 };
        descs.push(template(&mut rng, &cfg, &mut mem, i, addr, next));
    }
    for i in 0..n {
        if rng.gen_bool(0.5) {
            for _ in 0..rng.gen_range(1..=2) {
                let f = Fault::ALL[rng.gen_range(0..Fault::ALL.len())];
                apply(&mut rng, &cfg, &mut mem, &mut descs, i, f);
            }
        }
    }
    for dd in &descs {
        mem.load(dd.addr, &dd.desc.to_bytes());
    }
    ChainCase {
        cfg,
        mem,
        head: DESC_BASE,
        descs,
    }
}

/// A valid descriptor `i` at `addr` and the data it needs placed in memory.
fn template(
    rng: &mut ChaCha8Rng,
    cfg: &EngineConfig,
    mem: &mut SparseMemory,
    i: usize,
    addr: u64,
    next: u64,
) -> DrawnDesc {
    let elem = ElemWidth::ALL[rng.gen_range(0..3)];
    let op = [Op::Copy, Op::Compress, Op::Decompress][rng.gen_range(0..3)];
    let src = data(rng, elem);
    let (src_addr, dst_addr, meta_addr) = (region(i, 0), region(i, 1), region(i, 2));
    let lo = 7.max(cfg.bus_bytes().trailing_zeros() as u8);
    let chunk_log2 = rng.gen_range(lo..=cfg.chunk_log2_max());
    let zvcx = cfg.has_zvcx() && rng.gen_bool(0.5);
    let elem_type = match (zvcx, elem) {
        (true, ElemWidth::W32) => ElemType::F32,
        (true, ElemWidth::W16) => ElemType::Bf16,
        (true, ElemWidth::W8) => ElemType::E4m3,
        (false, w) => ElemType::Raw(w),
    };
    let mut frame_split = (0, 0);
    let mut desc = Descriptor {
        control: control_word(op, elem.bits(), 0, rng.gen(), rng.gen()),
        src_len: src.len() as u32,
        src_addr,
        dst_addr,
        dst_cap: src.len() as u32 + rng.gen_range(0..64),
        reserved0: 0,
        meta_addr,
        next,
        reserved1: 0,
    };
    match op {
        Op::Copy => mem.load(src_addr, &src),
        Op::Compress => {
            mem.load(src_addr, &src);
            let c = control_word(op, elem.bits(), chunk_log2, rng.gen(), rng.gen());
            desc.control = with_type_and_codec(c, elem_type.code(), zvcx);
        }
        Op::Decompress => {
            let codec = if zvcx { Codec::ZvcX } else { Codec::Zvc };
            let frame = compress_with(&src, codec, elem_type, chunk_log2)
                .expect("whole elements and a valid chunk size");
            let meta_len = layout::meta_len(layout::n_chunks(src.len() as u64, chunk_log2));
            let (meta, payload) = frame.split_at(meta_len as usize);
            mem.load(meta_addr, meta);
            mem.load(src_addr, payload);
            desc.src_len = payload.len() as u32;
            frame_split = (meta.len(), payload.len());
        }
    }
    DrawnDesc {
        addr,
        desc,
        op,
        data: src,
        faults: Vec::new(),
        frame_split,
    }
}

/// Applies fault `f` to descriptor `i`.
fn apply(
    rng: &mut ChaCha8Rng,
    cfg: &EngineConfig,
    mem: &mut SparseMemory,
    descs: &mut [DrawnDesc],
    i: usize,
    f: Fault,
) {
    let bb = u64::from(cfg.bus_bytes());
    let n = descs.len() as u64;
    let dd = &mut descs[i];
    let len = dd.data.len() as u32;
    let c = &mut dd.desc;
    match f {
        Fault::ControlBit => c.control ^= 1 << rng.gen_range(0..32),
        Fault::ControlField => {
            let fields = [
                d::CTRL_OP,
                d::CTRL_ELEM,
                d::CTRL_CHUNK_LOG2,
                d::CTRL_TYPE,
                d::CTRL_CODEC,
            ];
            let field = fields[rng.gen_range(0..fields.len())];
            let v = rng.gen_range(0..=field.mask() >> field.lsb);
            c.control = field.set(u64::from(c.control), v) as u32;
        }
        Fault::Misalign => {
            let off = rng.gen_range(1..bb);
            match rng.gen_range(0..3) {
                0 => c.src_addr += off,
                1 => c.dst_addr += off,
                _ => c.meta_addr += off,
            }
        }
        Fault::SrcLen => {
            c.src_len = match rng.gen_range(0..5) {
                0 => 0,
                1 => len.wrapping_add(1),
                2 => len.saturating_sub(1),
                3 => rng.gen_range(0..1 << 20),
                _ => u32::MAX,
            }
        }
        Fault::DstCap => {
            c.dst_cap = match rng.gen_range(0..3) {
                0 => 0,
                1 => len.saturating_sub(1),
                _ => rng.gen_range(0..len.max(1)),
            }
        }
        Fault::Next => {
            c.next = match rng.gen_range(0..5) {
                0 => DESC_BASE + 64 * rng.gen_range(0..n),
                1 => c.src_addr,
                2 => 0x7000_0000 + 64 * rng.gen_range(0..16u64),
                3 => DESC_BASE + 64 * rng.gen_range(0..n) + rng.gen_range(1..64),
                _ => 0,
            }
        }
        Fault::Reserved => {
            if rng.gen() {
                c.reserved0 = rng.gen_range(1..=u32::MAX);
            } else {
                c.reserved1 = rng.gen_range(1..=u64::MAX);
            }
        }
        Fault::Frame => {
            if dd.op == Op::Decompress {
                // The frame as placed: metadata, then the payload (rebuilt, damaged, split at
                // the same place and placed again; the template's addresses).
                let (meta_len, payload_len) = dd.frame_split;
                let (meta_addr, src_addr) = (region(i, 2), region(i, 0));
                let mut frame = mem.peek(meta_addr, meta_len);
                frame.extend_from_slice(&mem.peek(src_addr, payload_len));
                Mutation::draw(rng).apply(&mut frame, rng);
                let cut = meta_len.min(frame.len());
                mem.load(meta_addr, &frame[..cut]);
                mem.load(src_addr, &frame[cut..]);
            }
        }
        Fault::BusError => {
            let (base, size) = match rng.gen_range(0..4) {
                0 => (c.src_addr, u64::from(c.src_len)),
                1 => (c.dst_addr, u64::from(c.dst_cap)),
                2 => (c.meta_addr, 64),
                _ => (dd.addr, 64),
            };
            // (A destination at the top of memory: the error range stops at its end.)
            let at = base.saturating_add(rng.gen_range(0..size.max(1)));
            let r = at..at.saturating_add(rng.gen_range(1..=256));
            let resp = if rng.gen() {
                BusError::SlvErr
            } else {
                BusError::DecErr
            };
            if rng.gen() {
                mem.add_read_error(r, resp);
            } else {
                mem.add_write_error(r, resp);
            }
        }
        Fault::TopOfMemory => {
            let back = bb * rng.gen_range(0..4);
            c.dst_addr = (u64::MAX - back) & !(bb - 1);
        }
    }
    dd.faults.push(f);
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
            if op_of(desc) == Some(Op::Compress) {
                let chunk = d::CTRL_CHUNK_LOG2.get(u64::from(desc.control)) as u8;
                let chunk = if chunk == 0 {
                    layout::CHUNK_LOG2_DEFAULT
                } else {
                    chunk
                };
                let meta = layout::meta_len(layout::n_chunks(u64::from(desc.src_len), chunk));
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

fn op_of(desc: &Descriptor) -> Option<Op> {
    match d::CTRL_OP.get(u64::from(desc.control)) {
        x if x == d::OP_COPY => Some(Op::Copy),
        x if x == d::OP_COMPRESS => Some(Op::Compress),
        x if x == d::OP_DECOMPRESS => Some(Op::Decompress),
        _ => None,
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
            let n = layout::n_chunks(dd.data.len() as u64, chunk);
            let mut frame = vec![0u8; layout::meta_len(n) as usize];
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
