//! Random chains: COMPRESS → DECOMPRESS round trips over given tensors, mixed with COPYs and
//! deliberately unaligned descriptors.

use std::ops::Range;

use cdma_model::dma::{codes, with_type_and_codec, EngineConfig};
use cdma_model::{Codec, ElemType, ElemWidth};
use rand::Rng;

use super::builder::{ChainBuilder, DEFAULT_WINDOW};
use super::descs::{
    chunk_range, compress_desc, copy_desc, decompress_desc, frame_parts_crc, with_flags,
    with_no_crc,
};
use super::scenario::{RegionKind, RoundTrip, Scenario, Tensor};

/// Knobs of [`random_chain`].
#[derive(Clone, Debug)]
pub struct RandomOpts {
    /// Extra COPY descriptors: random count in `0..=max_copies`.
    pub max_copies: usize,
    /// Largest COPY length in bytes.
    pub copy_max_len: usize,
    /// Deliberately unaligned descriptors (src/dst/meta off by a few bytes → UNALIGNED):
    /// random count in `0..=max_unaligned`.
    pub max_unaligned: usize,
    /// Address window.
    pub window: Range<u64>,
    /// On an engine with ZVC-X, the probability that a COMPRESS uses it (else ZVC).
    pub zvcx_share: f64,
}

impl Default for RandomOpts {
    fn default() -> Self {
        RandomOpts {
            max_copies: 3,
            copy_max_len: 3000,
            max_unaligned: 2,
            window: DEFAULT_WINDOW,
            zvcx_share: 0.5,
        }
    }
}

enum Step {
    Compress(usize),
    Decompress(usize),
    Copy,
    Unaligned,
}

/// A random chain over `tensors` (each a whole number of the engine's elements): for each
/// tensor a COMPRESS to a host region and, later in the same chain, a DECOMPRESS of that frame
/// to another region (a [`RoundTrip`]); random COPYs; a few deliberately unaligned descriptors
/// (intent UNALIGNED). Chunk sizes are random in [`chunk_range`] (the default code 0 now and
/// then), capacities exact or with slack, flags random (`stop_on_error` only where the
/// descriptor is meant to succeed). Deterministic in `seed`.
pub fn random_chain(
    name: &str,
    engine: &EngineConfig,
    tensors: &[Tensor],
    seed: u64,
    opts: &RandomOpts,
) -> Scenario {
    random_chain_with(name, engine, tensors, seed, opts, |_| {})
}

/// [`random_chain`] with `setup` applied to the builder first (e.g.
/// [`ChainBuilder::junk_status`]).
pub fn random_chain_with(
    name: &str,
    engine: &EngineConfig,
    tensors: &[Tensor],
    seed: u64,
    opts: &RandomOpts,
    setup: impl FnOnce(&mut ChainBuilder),
) -> Scenario {
    let mut b = ChainBuilder::new(name, *engine, seed, opts.window.clone());
    setup(&mut b);
    // COPY and the unaligned descriptors take a random width the engine runs.
    let widths = engine.elem_widths();
    // Order: compresses in random order, each decompress somewhere after its compress.
    let mut steps: Vec<Step> = (0..tensors.len()).map(Step::Compress).collect();
    for i in (1..steps.len()).rev() {
        let j = b.rng.gen_range(0..=i);
        steps.swap(i, j);
    }
    for t in 0..tensors.len() {
        let at = steps
            .iter()
            .position(|s| matches!(s, Step::Compress(x) if *x == t))
            .expect("pushed above");
        let pos = b.rng.gen_range(at + 1..=steps.len());
        steps.insert(pos, Step::Decompress(t));
    }
    let copies = b.rng.gen_range(0..=opts.max_copies);
    let unaligned = b.rng.gen_range(0..=opts.max_unaligned);
    for _ in 0..copies {
        let pos = b.rng.gen_range(0..=steps.len());
        steps.insert(pos, Step::Copy);
    }
    for _ in 0..unaligned {
        let pos = b.rng.gen_range(0..=steps.len());
        steps.insert(pos, Step::Unaligned);
    }
    // Per tensor: (meta addr, payload addr, payload len, original addr).
    let mut frames: Vec<Option<(u64, u64, u32, u64)>> = vec![None; tensors.len()];
    let bb = u64::from(engine.bus_bytes());
    for step in steps {
        let i = b.next_index();
        let irq = b.rng.gen_bool(0.3);
        let stop = b.rng.gen_bool(0.3);
        match step {
            Step::Compress(t) => {
                let tn = &tensors[t];
                let range = chunk_range(engine);
                let (chunk_log2, field) = if b.rng.gen_bool(0.2) && *range.end() == 12 {
                    (12, 0)
                } else {
                    let c = b.rng.gen_range(range);
                    (c, c)
                };
                // Half the compresses name a float type of the width: a version 3 frame,
                // which the DECOMPRESS of this tensor then reads; on an engine with ZVC-X,
                // `zvcx_share` of them use it.
                let ty = random_type(tn.elem, &mut b.rng);
                let codec = if engine.has_zvcx() && b.rng.gen_bool(opts.zvcx_share) {
                    Codec::ZvcX
                } else {
                    Codec::Zvc
                };
                // With CRCs (version 4) unless the engine has none or, a third of the
                // time, the descriptor says no_crc.
                let crc = engine.has_crc() && !b.rng.gen_bool(1.0 / 3.0);
                let parts = frame_parts_crc(&tn.data, (codec, ty), chunk_log2, crc);
                let len = tn.data.len() as u64;
                let src = b.data(
                    &tn.data,
                    RegionKind::Source,
                    &format!("d{i} COMPRESS src ({})", tn.name),
                );
                let payload = parts.payload.len() as u64;
                let cap = match b.rng.gen_range(0..3) {
                    0 => payload,
                    1 => payload + b.rng.gen_range(1..=300),
                    _ => len,
                };
                let dst = b.alloc(
                    cap,
                    bb,
                    RegionKind::Destination,
                    &format!("d{i} COMPRESS dst ({})", tn.name),
                );
                let mlen = parts.meta.len() as u64 + b.rng.gen_range(0..2) * 64;
                let meta = b.alloc(
                    mlen,
                    bb,
                    RegionKind::Metadata,
                    &format!("d{i} COMPRESS meta ({})", tn.name),
                );
                let mut desc =
                    compress_desc(tn.elem, src, len as u32, dst, cap as u32, meta, field);
                desc.control = with_type_and_codec(desc.control, ty.code(), codec == Codec::ZvcX);
                let desc = with_no_crc(desc, !crc);
                b.push(
                    with_flags(desc, irq, stop),
                    &format!(
                        "COMPRESS {} ({}, {}{}) chunk 2^{chunk_log2}",
                        tn.name,
                        ty.name(),
                        codec.name(),
                        if crc { ", CRC" } else { "" }
                    ),
                    Some(codes::OK),
                );
                frames[t] = Some((meta, dst, payload as u32, src));
            }
            Step::Decompress(t) => {
                let tn = &tensors[t];
                let (meta, payload, plen, orig) = frames[t].expect("compress comes first");
                let len = tn.data.len() as u64;
                let cap = if b.rng.gen_bool(0.5) {
                    len
                } else {
                    len + b.rng.gen_range(1..=300)
                };
                let dst = b.alloc(
                    cap,
                    bb,
                    RegionKind::Destination,
                    &format!("d{i} DECOMPRESS dst ({})", tn.name),
                );
                let desc = decompress_desc(tn.elem, payload, plen, dst, cap as u32, meta);
                b.push(
                    with_flags(desc, irq, stop),
                    &format!("DECOMPRESS {}", tn.name),
                    Some(codes::OK),
                );
                b.round_trip(RoundTrip {
                    label: tn.name.clone(),
                    original: orig..orig + len,
                    restored: dst,
                });
            }
            Step::Copy => {
                let elem = widths[b.rng.gen_range(0..widths.len())];
                let eb = elem.bytes();
                let len = b.rng.gen_range(0..=opts.copy_max_len / eb) * eb;
                let data = b.random_bytes(len);
                let src = b.data(&data, RegionKind::Source, &format!("d{i} COPY src"));
                let cap = len as u64 + b.rng.gen_range(0..2) * b.rng.gen_range(1..=200);
                let dst = b.alloc(cap, bb, RegionKind::Destination, &format!("d{i} COPY dst"));
                let desc = copy_desc(elem, src, len as u32, dst, cap as u32);
                b.push(
                    with_flags(desc, irq, stop),
                    &format!("COPY {len} B"),
                    Some(codes::OK),
                );
            }
            Step::Unaligned => {
                // A COPY or COMPRESS with one address off the bus alignment: rejected before
                // anything is read (so its regions need no content beyond garbage).
                let elem = widths[b.rng.gen_range(0..widths.len())];
                let len = (64 * elem.bytes()) as u64;
                let off = 4 * b.rng.gen_range(1..bb / 4);
                let src = b.alloc(len + bb, bb, RegionKind::Source, &format!("d{i} src"));
                let dst = b.alloc(len + bb, bb, RegionKind::Destination, &format!("d{i} dst"));
                let meta = b.alloc(2 * bb, bb, RegionKind::Metadata, &format!("d{i} meta"));
                let which = b.rng.gen_range(0..3);
                let (s, dd, m) = match which {
                    0 => (src + off, dst, meta),
                    1 => (src, dst + off, meta),
                    _ => (src, dst, meta + off),
                };
                let desc = if which == 2 || b.rng.gen_bool(0.5) {
                    compress_desc(elem, s, len as u32, dd, len as u32, m, 0)
                } else {
                    copy_desc(elem, s, len as u32, dd, len as u32)
                };
                let what = ["src", "dst", "meta"][which];
                // Never stop on this one: the chain is meant to go on.
                b.push(
                    with_flags(desc, irq, false),
                    &format!("unaligned {what} (+{off})"),
                    Some(codes::UNALIGNED),
                );
            }
        }
    }
    b.finish()
}

/// The float types of width `elem`.
pub(crate) fn floats_of(elem: ElemWidth) -> Vec<ElemType> {
    ElemType::ALL
        .into_iter()
        .filter(|t| t.is_float() && t.width() == elem)
        .collect()
}

/// Raw elements of `elem` half the time, else one of the float types of that width.
fn random_type(elem: ElemWidth, rng: &mut impl Rng) -> ElemType {
    let floats = floats_of(elem);
    if floats.is_empty() || rng.gen_bool(0.5) {
        ElemType::Raw(elem)
    } else {
        floats[rng.gen_range(0..floats.len())]
    }
}
