//! Drawing a chain: valid templates in regions of their own, then the faults.

use cdma_model::dma::{
    control_word, with_type_and_codec, BusError, Descriptor, EngineConfig, Op, SparseMemory,
};
use cdma_model::layout;
use cdma_model::{compress_frame, Codec, ElemType, ElemWidth, FrameOptions};
use cdma_spec::desc as d;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{ChainCase, DrawnDesc, Fault, InjectedError, DESC_LIMIT, FILL, MAX_DESCS};
use crate::Mutation;

use super::{DESC_BASE, REGION_BASE, REGION_STRIDE};
/// Largest data slice of a template.
const MAX_DATA: usize = 16 * 1024;

/// Region `k` (0 source, 1 destination, 2 metadata) of descriptor `i`.
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

/// The random stream of chain `index` of the campaign `seed`.
fn chain_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// Chain `index` of the campaign `seed`, on an engine of a random bus width, with or
/// without ZVC-X, with or without CRC32C.
pub fn draw(seed: u64, index: u64) -> ChainCase {
    let mut rng = chain_rng(seed, index);
    let bb = [16u32, 32, 64, 128][rng.gen_range(0..4)];
    let cfg = EngineConfig::new(bb)
        .expect("a bus width of the engine")
        .with_zvcx(rng.gen_bool(0.5))
        .with_crc(rng.gen_bool(0.8));
    draw_with(&mut rng, &cfg, false)
}

/// Chain `index` of the campaign `seed` for the engine `cfg`, as the RTL campaign runs it: no
/// chain that loops (the engine runs a loop until it is aborted; the model stops it).
pub fn draw_for(cfg: &EngineConfig, seed: u64, index: u64) -> ChainCase {
    let mut rng = chain_rng(seed, index);
    draw_with(&mut rng, cfg, true)
}

/// Chain `index` of the damaged-frame campaign `seed` for the engine `cfg`: [`MAX_DESCS`]
/// DECOMPRESS descriptors (version 4 frames but for a fifth of them), each of a frame damaged
/// by one of the fuzzer's mutations, none stopping the chain: the RTL campaign's corrupted
/// frames.
pub fn draw_damaged_for(cfg: &EngineConfig, seed: u64, index: u64) -> ChainCase {
    let mut rng = chain_rng(seed, index);
    let cfg = cfg.with_desc_limit(DESC_LIMIT);
    let mut mem = SparseMemory::new(FILL);
    let mut descs: Vec<DrawnDesc> = (0..MAX_DESCS)
        .map(|i| {
            let addr = DESC_BASE + 64 * i as u64;
            let next = if i + 1 < MAX_DESCS { addr + 64 } else { 0 };
            let mut dd = template(&mut rng, &cfg, &mut mem, (i, addr, next), true);
            let c = u64::from(dd.desc.control);
            dd.desc.control = d::CTRL_STOP_ON_ERROR.set(c, 0) as u32;
            dd
        })
        .collect();
    let mut errors = Vec::new();
    for i in 0..MAX_DESCS {
        let target = Target {
            mem: &mut mem,
            errors: &mut errors,
            rtl: true,
        };
        apply(&mut rng, &cfg, target, &mut descs, i, Fault::Frame);
    }
    placed(cfg, mem, descs, errors)
}

/// The chain with its descriptors written into `mem` at their addresses, headed at
/// [`DESC_BASE`].
fn placed(
    cfg: EngineConfig,
    mut mem: SparseMemory,
    descs: Vec<DrawnDesc>,
    errors: Vec<InjectedError>,
) -> ChainCase {
    for dd in &descs {
        mem.load(dd.addr, &dd.desc.to_bytes());
    }
    ChainCase {
        cfg,
        mem,
        head: DESC_BASE,
        descs,
        errors,
    }
}

fn draw_with(rng: &mut ChaCha8Rng, cfg: &EngineConfig, rtl: bool) -> ChainCase {
    let cfg = cfg.with_desc_limit(DESC_LIMIT);
    let mut errors = Vec::new();
    let mut mem = SparseMemory::new(FILL);
    let n = rng.gen_range(1..=MAX_DESCS);
    let mut descs = Vec::with_capacity(n);
    for i in 0..n {
        let addr = DESC_BASE + 64 * i as u64;
        let next = if i + 1 < n { addr + 64 } else { 0 };
        descs.push(template(rng, &cfg, &mut mem, (i, addr, next), false));
    }
    // The RTL draw picks among the faults but a destination at the top of the address space,
    // then gives that one to a tenth of its chains: its chains stay those it drew before
    // the engine handled the top (2026-11-27), plus the new fault.
    let faults: Vec<Fault> = Fault::ALL
        .into_iter()
        .filter(|&f| !(rtl && f == Fault::TopOfMemory))
        .collect();
    for i in 0..n {
        if rng.gen_bool(0.5) {
            for _ in 0..rng.gen_range(1..=2) {
                let f = faults[rng.gen_range(0..faults.len())];
                let target = Target {
                    mem: &mut mem,
                    errors: &mut errors,
                    rtl,
                };
                apply(rng, &cfg, target, &mut descs, i, f);
            }
        }
    }
    if rtl && rng.gen_bool(0.1) {
        let i = rng.gen_range(0..n);
        let target = Target {
            mem: &mut mem,
            errors: &mut errors,
            rtl,
        };
        apply(rng, &cfg, target, &mut descs, i, Fault::TopOfMemory);
    }
    placed(cfg, mem, descs, errors)
}

/// A valid descriptor `i` at `addr` (then `next`) and the data it needs placed in memory; a
/// DECOMPRESS if `decompress`, else of a random operation.
fn template(
    rng: &mut ChaCha8Rng,
    cfg: &EngineConfig,
    mem: &mut SparseMemory,
    (i, addr, next): (usize, u64, u64),
    decompress: bool,
) -> DrawnDesc {
    let elem = if decompress {
        let widths = cfg.elem_widths();
        widths[rng.gen_range(0..widths.len())]
    } else {
        ElemWidth::ALL[rng.gen_range(0..3)]
    };
    let op = if decompress {
        Op::Decompress
    } else {
        [Op::Copy, Op::Compress, Op::Decompress][rng.gen_range(0..3)]
    };
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
    // COMPRESS with CRCs (version 4) unless the engine has none or, a third of the time,
    // the descriptor says no_crc; a DECOMPRESS frame has them half the time.
    let crc_share = match (op, decompress) {
        (Op::Decompress, true) => 0.8,
        (Op::Decompress, false) => 0.5,
        _ => 2.0 / 3.0,
    };
    let crc = cfg.has_crc() && rng.gen_bool(crc_share);
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
            let c = with_type_and_codec(c, elem_type.code(), zvcx);
            desc.control = d::CTRL_NO_CRC.set(u64::from(c), u64::from(!crc)) as u32;
        }
        Op::Decompress => {
            let codec = if zvcx { Codec::ZvcX } else { Codec::Zvc };
            let opts = FrameOptions {
                codec,
                elem_type,
                chunk_log2,
                crc,
            };
            let frame = compress_frame(&src, &opts).expect("whole elements and a valid chunk size");
            let meta_len = layout::Header::parse(&frame).expect("a frame").meta_len();
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

/// What a fault may change besides the descriptors: the memory, its error ranges (kept for
/// the testbench too), and whether the chain is drawn for the RTL.
struct Target<'a> {
    mem: &'a mut SparseMemory,
    errors: &'a mut Vec<InjectedError>,
    rtl: bool,
}

/// Applies fault `f` to descriptor `i`.
fn apply(
    rng: &mut ChaCha8Rng,
    cfg: &EngineConfig,
    t: Target,
    descs: &mut [DrawnDesc],
    i: usize,
    f: Fault,
) {
    let Target { mem, errors, rtl } = t;
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
            let ahead = i as u64 + 1..n;
            c.next = match rng.gen_range(0..5) {
                // (For the RTL only later descriptors: a loop never ends there.)
                0 if rtl && ahead.is_empty() => 0,
                0 if rtl => DESC_BASE + 64 * rng.gen_range(ahead),
                0 => DESC_BASE + 64 * rng.gen_range(0..n),
                1 if !rtl => c.src_addr,
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
            let range = at..at.saturating_add(rng.gen_range(1..=256));
            let resp = if rng.gen() {
                BusError::SlvErr
            } else {
                BusError::DecErr
            };
            let on_read = rng.gen();
            if range.is_empty() {
                return;
            }
            if on_read {
                mem.add_read_error(range.clone(), resp);
            } else {
                mem.add_write_error(range.clone(), resp);
            }
            errors.push(InjectedError {
                range,
                resp,
                on_read,
            });
        }
        Fault::TopOfMemory => {
            // The source, destination or metadata within four beats of the top, or the next
            // descriptor in the top beat.
            let back = bb * rng.gen_range(0..4);
            let at = (u64::MAX - back) & !(bb - 1);
            match rng.gen_range(0..4) {
                0 => c.dst_addr = at,
                1 => c.src_addr = at,
                2 => c.meta_addr = at,
                _ => c.next = !63,
            }
        }
    }
    dd.faults.push(f);
}
