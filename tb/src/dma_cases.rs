//! The DMA case lists: corpus chains, fault scenarios, aborts and resets, the throughput pair, the large
//! descriptor — each a [`DmaCase`] for [`crate::dma::run_case`] (and `cdma regress`).

use std::ops::Range;

use cdma_corpus::{Corpus, CorpusError};
use cdma_model::dma::EngineConfig;
use cdma_model::{Codec, ElemType, ElemWidth};

use crate::dma::{AbortPlan, DmaCase, Interruption};
pub use crate::dma_faults::CodecType;
use crate::dma_faults::{
    abort_chain, all_faults, round_trip_alone, throughput_compress, throughput_decompress,
};
use crate::dma_scenario::random::floats_of;
use crate::dma_scenario::{random_chain, RandomOpts, Tensor};
use rand::{Rng, SeedableRng};

/// A second address window (above 8 GiB) for the chain that runs after an abort, so the
/// aborted chain's unspecified bytes cannot be confused with it.
pub const AFTER_ABORT_WINDOW: Range<u64> = 0x2_0000_0000..0x2_0400_0000;

pub use crate::dma_scenario::{LARGE_WINDOW, MAX_TRANSFER};

/// Bytes of the large-descriptor case: 64 MiB in one descriptor, 16384 chunks of 4 KiB (the
/// engine held at most 1024 before the chunk index was streamed, issue 13).
pub const LARGE_BYTES: usize = 64 << 20;

/// The element width of a corpus tensor's dtype.
fn dtype_elem(e: &cdma_corpus::Entry) -> ElemWidth {
    ElemWidth::from_bits(e.dtype.elem_bits()).expect("corpus dtypes are 8, 16 or 32 bits")
}

/// The corpus tensors of every element width the engine runs (f32, bf16, f16, …).
pub fn corpus_tensors(corpus: &Corpus, engine: &EngineConfig) -> Result<Vec<Tensor>, CorpusError> {
    corpus
        .entries()
        .iter()
        .filter(|e| engine.supports(dtype_elem(e)))
        .map(|e| {
            Ok(Tensor {
                name: e.name(),
                elem: dtype_elem(e),
                data: corpus.read(e)?,
            })
        })
        .collect()
}

/// The tensors a regression of `engine` streams: every corpus tensor of a width it runs and,
/// with `edge`, the synthetic edge tensors of each of its widths, interleaved by width so
/// that a chain of consecutive tensors mixes widths. The bundled corpus has 8-bit (fp8)
/// tensors; for a corpus without any, an engine of 8-bit elements takes the bytes of the
/// 16-bit tensors as 8-bit elements instead (named `<tensor>.as-u8`), so it too sees real
/// activation data.
pub fn regress_tensors(
    corpus: &Corpus,
    engine: &EngineConfig,
    edge: bool,
) -> Result<Vec<Tensor>, CorpusError> {
    let mut v = corpus_tensors(corpus, engine)?;
    let has_u8 = v.iter().any(|t| t.elem == ElemWidth::W8);
    if engine.supports(ElemWidth::W8) && !has_u8 {
        for e in corpus
            .entries()
            .iter()
            .filter(|e| dtype_elem(e) == ElemWidth::W16)
        {
            v.push(Tensor {
                name: format!("{}.as-u8", e.name()),
                elem: ElemWidth::W8,
                data: corpus.read(e)?,
            });
        }
    }
    if edge {
        v.extend(edge_tensors(engine));
    }
    Ok(interleave_by_width(v))
}

/// The tensors reordered round-robin over their element widths (each width's own order
/// kept): `f32 a, bf16 a, u8 a, f32 b, …`.
pub fn interleave_by_width(tensors: Vec<Tensor>) -> Vec<Tensor> {
    let mut by_width: Vec<std::collections::VecDeque<Tensor>> =
        ElemWidth::ALL.iter().map(|_| Default::default()).collect();
    for t in tensors {
        let w = ElemWidth::ALL
            .iter()
            .position(|&e| e == t.elem)
            .expect("a width");
        by_width[w].push_back(t);
    }
    let mut out = vec![];
    while by_width.iter().any(|q| !q.is_empty()) {
        out.extend(by_width.iter_mut().rev().filter_map(|q| q.pop_front()));
    }
    out
}

/// The synthetic edge tensors of every width the engine runs (empty, odd lengths, all
/// zero, …), named `edge.<name>`.
pub fn edge_tensors(engine: &EngineConfig) -> Vec<Tensor> {
    engine
        .elem_widths()
        .into_iter()
        .flat_map(|elem| {
            cdma_model::synthetic::edge_tensors(elem)
                .into_iter()
                .map(move |(name, data)| Tensor {
                    name: format!("edge.{name}"),
                    elem,
                    data,
                })
        })
        .collect()
}

/// One random chain per `per_chain` tensors (each compressed and restored), seeded per
/// chain from `seed`.
pub fn chain_cases(
    group: &str,
    tensors: &[Tensor],
    engine: &EngineConfig,
    seed: u64,
    per_chain: usize,
) -> Vec<DmaCase> {
    chain_cases_with(
        group,
        tensors,
        engine,
        seed,
        per_chain,
        &RandomOpts::default(),
    )
}

/// [`chain_cases`] with the random-chain options `opts`.
pub fn chain_cases_with(
    group: &str,
    tensors: &[Tensor],
    engine: &EngineConfig,
    seed: u64,
    per_chain: usize,
    opts: &RandomOpts,
) -> Vec<DmaCase> {
    tensors
        .chunks(per_chain.max(1))
        .enumerate()
        .map(|(i, ts)| {
            let name = format!(
                "{group} chain {i} ({} .. {})",
                ts[0].name,
                ts[ts.len() - 1].name
            );
            DmaCase {
                scenario: random_chain(&name, engine, ts, seed.wrapping_add(i as u64), opts),
                name,
                group: group.to_string(),
                abort: None,
            }
        })
        .collect()
}

/// Every fault scenario of [`crate::dma_faults::all_faults`] as a case.
pub fn fault_cases(engine: &EngineConfig, seed: u64) -> Vec<DmaCase> {
    all_faults(engine, seed)
        .into_iter()
        .map(|s| DmaCase {
            name: s.name.clone(),
            group: "dma-fault".into(),
            scenario: s,
            abort: None,
        })
        .collect()
}

/// `n` random descriptor chains with bad fields (`cdma_fuzz::chains`, seed `seed`) on
/// `engine`, and how many of the drawn chains were left out because they never end without
/// an abort (the model stops them; none so far).
pub fn bad_field_cases(engine: &EngineConfig, seed: u64, n: u64) -> (Vec<DmaCase>, u64) {
    let mut left_out = 0;
    let cases = (0..n)
        .filter_map(|i| {
            let s = crate::dma_scenario::bad_field_chain(engine, seed, i);
            left_out += u64::from(s.is_none());
            s
        })
        .map(|s| DmaCase {
            name: s.name.clone(),
            group: "dma-bad-fields".into(),
            scenario: s,
            abort: None,
        })
        .collect();
    (cases, left_out)
}

/// `n` chains of six DECOMPRESSes of damaged frames each (`cdma_fuzz::chains`, seed `seed`)
/// on `engine`: the RTL campaign's corrupted frames.
pub fn damaged_frame_cases(engine: &EngineConfig, seed: u64, n: u64) -> Vec<DmaCase> {
    (0..n)
        .map(|i| {
            let s = crate::dma_scenario::damaged_frame_chain(engine, seed, i);
            DmaCase {
                name: s.name.clone(),
                group: "dma-damaged-frames".into(),
                scenario: s,
                abort: None,
            }
        })
        .collect()
}

/// An abort or a reset (`how`) `after` cycles into a chain over `tensors` (seed `seed`), then
/// a chain over `then` in another window; after an abort the engine must be idle within
/// `bound` cycles.
pub fn interrupt_case(
    engine: &EngineConfig,
    (tensors, then): (&[Tensor], &[Tensor]),
    seed: u64,
    how: Interruption,
    after: u64,
    bound: u64,
) -> DmaCase {
    let scenario = abort_chain(engine, tensors, seed, crate::dma_scenario::DEFAULT_WINDOW);
    let opts = RandomOpts {
        window: AFTER_ABORT_WINDOW,
        ..RandomOpts::default()
    };
    let what = how.name();
    DmaCase {
        name: interrupt_name(how, after, seed),
        group: format!("dma-{what}"),
        abort: Some(AbortPlan {
            how,
            after,
            bound,
            then: random_chain(&format!("after {what}"), engine, then, seed ^ 0xABCD, &opts),
        }),
        scenario,
    }
}

fn interrupt_name(how: Interruption, after: u64, seed: u64) -> String {
    format!("{} after {after} cycles (seed {seed})", how.name())
}

/// `n` chains over `tensors`, each aborted or reset (alternately) at a random cycle of its
/// run on a random-timing bench (up to [`chain_span`]), each followed by a chain over `then`
/// (seeds from `seed`).
pub fn interrupt_cases(
    engine: &EngineConfig,
    tensors: (&[Tensor], &[Tensor]),
    seed: u64,
    n: u64,
    bound: u64,
) -> Vec<DmaCase> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let how = if i % 2 == 0 {
                Interruption::Abort
            } else {
                Interruption::Reset
            };
            let mut c = interrupt_case(engine, tensors, seed + i, how, 0, bound);
            let after = rng.gen_range(0..chain_span(&c.scenario, engine));
            c.name = interrupt_name(how, after, seed + i);
            if let Some(plan) = c.abort.as_mut() {
                plan.after = after;
            }
            c
        })
        .collect()
}

/// Cycles a chain takes on a random-timing bench, roughly (a little more, measured on the
/// corpus chains of the 128-bit engine): a cycle per beat of its sources and destination
/// capacities and 500 per descriptor (fetch, status, latencies up to 200 cycles). An
/// interruption drawn past the chain's end lands on an idle engine.
pub fn chain_span(scn: &crate::dma_scenario::Scenario, engine: &EngineConfig) -> u64 {
    let bb = u64::from(engine.bus_bytes());
    scn.descs
        .iter()
        .map(|p| (u64::from(p.desc.src_len) + u64::from(p.desc.dst_cap)) / bb + 500)
        .sum()
}

/// `bytes` bytes of tensor data (the tensors concatenated, repeated if needed, cut to whole
/// elements).
pub fn concat_data(tensors: &[Tensor], bytes: usize, elem_bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes);
    while out.len() < bytes && tensors.iter().any(|t| !t.data.is_empty()) {
        for t in tensors {
            let n = (bytes - out.len()).min(t.data.len());
            out.extend_from_slice(&t.data[..n]);
        }
    }
    out.truncate(bytes / elem_bytes * elem_bytes);
    out
}

/// What the throughput pairs of `elem`-wide data run on `engine`: ZVC on raw elements and, on
/// an engine with ZVC-X, ZVC-X on each float type of the width.
pub fn throughput_kinds(engine: &EngineConfig, elem: ElemWidth) -> Vec<CodecType> {
    let mut v = vec![(Codec::Zvc, ElemType::Raw(elem))];
    if engine.has_zvcx() {
        v.extend(floats_of(elem).into_iter().map(|t| (Codec::ZvcX, t)));
    }
    v
}

/// The throughput pair over `data` (elements of `ct`'s type, coded by its codec): one
/// COMPRESS, one DECOMPRESS (run with [`crate::dma::BenchConfig::fixed`]; read the
/// utilisation from the reports); version 4 frames with CRC32C on an engine that has it,
/// unless `crc` is false.
pub fn throughput_cases(
    engine: &EngineConfig,
    ct: CodecType,
    data: &[u8],
    seed: u64,
    crc: bool,
) -> Vec<DmaCase> {
    [
        throughput_compress(engine, ct, data, seed, crc),
        throughput_decompress(engine, ct, data, seed + 1, crc),
    ]
    .into_iter()
    .map(|s| DmaCase {
        name: s.name.clone(),
        group: "dma-throughput".into(),
        scenario: s,
        abort: None,
    })
    .collect()
}

/// One COMPRESS of `bytes` bytes of the tensors of width `elem` tiled (real activations,
/// [`concat_data`]) in one descriptor and the DECOMPRESS of the frame it wrote in another, in
/// [`LARGE_WINDOW`]: the frame in memory (payload and metadata) and the data restored are
/// checked against the golden model's byte for byte, guards included, and the data against
/// the original.
pub fn large_cases(
    engine: &EngineConfig,
    elem: ElemWidth,
    tensors: &[Tensor],
    bytes: usize,
    seed: u64,
) -> Vec<DmaCase> {
    let of_width: Vec<Tensor> = tensors.iter().filter(|t| t.elem == elem).cloned().collect();
    let data = concat_data(&of_width, bytes, elem.bytes());
    let name = format!(
        "large round trip of {} MiB (E{})",
        data.len() >> 20,
        elem.bits()
    );
    vec![DmaCase {
        scenario: round_trip_alone(&name, engine, elem, &data, seed, LARGE_WINDOW),
        name,
        group: "dma-large".into(),
        abort: None,
    }]
}
