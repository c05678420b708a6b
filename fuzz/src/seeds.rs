//! Seed frames: well-formed frames the campaign damages, cut from the data it is given.
//!
//! Each seed is a slice of one source (whole elements, up to `max_bytes`), compressed by the
//! golden model with a codec and chunk size drawn from the seed generator, so a campaign's
//! seeds mix ZVC and ZVC-X frames, coded and raw chunks, one chunk and many, full and partial
//! last blocks; with CRCs (format version 4) or without (versions 2 and 3).

use cdma_model::{compress_frame, synthetic, Codec, ElemType, ElemWidth, FrameOptions};
use cdma_spec::frame::CHUNK_LOG2_MIN;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Data to cut seed frames from: a tensor and its element type.
#[derive(Clone, Debug)]
pub struct Source {
    /// Name, for labels.
    pub name: String,
    /// Element type the frames of this source name (and ZVC-X codes).
    pub ty: ElemType,
    /// Little-endian elements.
    pub data: Vec<u8>,
}

/// One well-formed frame and the data it holds.
#[derive(Clone, Debug)]
pub struct SeedFrame {
    /// Where it came from: source, offset, length, codec, chunk size.
    pub label: String,
    /// The data.
    pub data: Vec<u8>,
    /// The model's frame of `data`.
    pub frame: Vec<u8>,
}

/// Largest chunk size a seed frame uses (small chunks make many index entries per frame).
const SEED_CHUNK_LOG2_MAX: u8 = 12;

/// `count` seed frames cut from `sources` (round robin), each at most `max_bytes` of data,
/// drawn from `seed`, with CRCs (version 4) if `crc`.
///
/// # Panics
/// If `sources` is empty or a source is not a whole number of its elements.
pub fn seed_frames(
    sources: &[Source],
    count: usize,
    max_bytes: usize,
    seed: u64,
    crc: bool,
) -> Vec<SeedFrame> {
    assert!(!sources.is_empty(), "seed_frames needs at least one source");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|i| {
            let s = &sources[i % sources.len()];
            let eb = s.ty.width().bytes();
            assert_eq!(s.data.len() % eb, 0, "{}: not whole elements", s.name);
            let elems = s.data.len() / eb;
            let want = rng.gen_range(1..=(max_bytes / eb).max(1)).min(elems);
            let at = rng.gen_range(0..=elems - want);
            let data = s.data[at * eb..(at + want) * eb].to_vec();
            let codec = Codec::ALL[rng.gen_range(0..Codec::ALL.len())];
            let chunk_log2 = rng.gen_range(CHUNK_LOG2_MIN..=SEED_CHUNK_LOG2_MAX);
            let opts = FrameOptions {
                codec,
                elem_type: s.ty,
                chunk_log2,
                crc,
            };
            let frame =
                compress_frame(&data, &opts).expect("whole elements and a valid chunk size");
            SeedFrame {
                label: format!(
                    "{} [{}..{}) {} {} chunk 2^{chunk_log2}",
                    s.name,
                    at * eb,
                    (at + want) * eb,
                    codec.name(),
                    s.ty.name()
                ),
                data,
                frame,
            }
        })
        .collect()
}

/// Synthetic sources for a campaign without real data: the model's edge tensors of every
/// width (raw elements), a ReLU-like tensor of each float type and random bytes.
pub fn synthetic_sources(seed: u64) -> Vec<Source> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v = Vec::new();
    for elem in ElemWidth::ALL {
        let mut all = Vec::new();
        for (_, d) in synthetic::edge_tensors(elem) {
            all.extend_from_slice(&d);
        }
        v.push(Source {
            name: format!("edge-e{}", elem.bits()),
            ty: ElemType::Raw(elem),
            data: all,
        });
    }
    for ty in ElemType::ALL.into_iter().filter(|t| t.is_float()) {
        let eb = ty.width().bytes();
        // Three in four zero, the others random positive bit patterns of the width.
        let positive = ((1u64 << (8 * eb - 1)) - 1) as u32;
        let data = (0..16384 / eb)
            .flat_map(|_| {
                let x: u32 = if rng.gen_bool(0.25) { rng.gen() } else { 0 };
                (x & positive).to_le_bytes()[..eb].to_vec()
            })
            .collect();
        v.push(Source {
            name: format!("relu-{}", ty.name()),
            ty,
            data,
        });
    }
    v.push(Source {
        name: "random-bytes".into(),
        ty: ElemType::Raw(ElemWidth::W8),
        data: (0..8192).map(|_| rng.gen()).collect(),
    });
    v
}
