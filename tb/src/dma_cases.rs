//! The DMA case lists: corpus chains, fault scenarios, an abort, the throughput pair, the large
//! descriptor — each a [`DmaCase`] for [`crate::dma::run_case`] (and `cdma regress`).

use std::ops::Range;

use cdma_corpus::{Corpus, CorpusError};
use cdma_model::dma::EngineConfig;

use crate::dma::{AbortPlan, DmaCase};
use crate::dma_faults::{
    abort_chain, all_faults, round_trip_alone, throughput_compress, throughput_decompress,
};
use crate::dma_scenario::{random_chain, RandomOpts, Tensor};

/// A second address window (above 8 GiB) for the chain that runs after an abort, so the
/// aborted chain's unspecified bytes cannot be confused with it.
pub const AFTER_ABORT_WINDOW: Range<u64> = 0x2_0000_0000..0x2_0400_0000;

/// The large-descriptor case's address window: 1 GiB from 16 GiB, room for its 64 MiB
/// source, a 64 MiB payload capacity and the metadata, each with guards (the default window is
/// 64 MiB).
pub const LARGE_WINDOW: Range<u64> = 0x4_0000_0000..0x4_4000_0000;

/// Bytes of the large-descriptor case: 64 MiB in one descriptor, 16384 chunks of 4 KiB (the
/// engine held at most 1024 before the chunk index was streamed, issue 13).
pub const LARGE_BYTES: usize = 64 << 20;

/// The corpus tensors whose element width is the engine's (`E` = bus bits / 32): f32 on the
/// 1024-bit engine, bf16 and f16 on the 512-bit one, none on the 256-bit one.
pub fn corpus_tensors(corpus: &Corpus, engine: &EngineConfig) -> Result<Vec<Tensor>, CorpusError> {
    corpus
        .entries()
        .iter()
        .filter(|e| e.dtype.elem_bits() == engine.elem_bits())
        .map(|e| {
            Ok(Tensor {
                name: e.name(),
                data: corpus.read(e)?,
            })
        })
        .collect()
}

/// The tensors a regression of `engine` streams: every corpus tensor of its element width
/// and, with `edge`, the synthetic edge tensors of that width. The corpus has no 8-bit
/// tensors: an 8-bit engine takes the bytes of the 16-bit corpus tensors as 8-bit elements
/// (named `<tensor>.as-u8`), so it too sees real activation data.
pub fn regress_tensors(
    corpus: &Corpus,
    engine: &EngineConfig,
    edge: bool,
) -> Result<Vec<Tensor>, CorpusError> {
    let mut v = corpus_tensors(corpus, engine)?;
    if v.is_empty() && engine.elem_bits() == 8 {
        for e in corpus
            .entries()
            .iter()
            .filter(|e| e.dtype.elem_bits() == 16)
        {
            v.push(Tensor {
                name: format!("{}.as-u8", e.name()),
                data: corpus.read(e)?,
            });
        }
    }
    if edge {
        v.extend(edge_tensors(engine));
    }
    Ok(v)
}

/// The synthetic edge tensors of the engine's width (empty, odd lengths, all zero, …),
/// named `edge.<name>`.
pub fn edge_tensors(engine: &EngineConfig) -> Vec<Tensor> {
    cdma_model::synthetic::edge_tensors(engine.elem())
        .into_iter()
        .map(|(name, data)| Tensor {
            name: format!("edge.{name}"),
            data,
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
                scenario: random_chain(
                    &name,
                    engine,
                    ts,
                    seed.wrapping_add(i as u64),
                    &RandomOpts::default(),
                ),
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

/// An abort `after` cycles into a chain over `tensors`, then a chain over `then` in another
/// window; the engine must be idle within `bound` cycles of the abort.
pub fn abort_case(
    engine: &EngineConfig,
    tensors: &[Tensor],
    then: &[Tensor],
    seed: u64,
    after: u64,
    bound: u64,
) -> DmaCase {
    let scenario = abort_chain(engine, tensors, seed, crate::dma_scenario::DEFAULT_WINDOW);
    let opts = RandomOpts {
        window: AFTER_ABORT_WINDOW,
        ..RandomOpts::default()
    };
    DmaCase {
        name: format!("abort after {after} cycles"),
        group: "dma-abort".into(),
        abort: Some(AbortPlan {
            after,
            bound,
            then: random_chain("after abort", engine, then, seed ^ 0xABCD, &opts),
        }),
        scenario,
    }
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

/// The throughput pair over `data`: one COMPRESS, one DECOMPRESS (run with
/// [`crate::dma::BenchConfig::fixed`]; read the utilisation from the reports).
pub fn throughput_cases(engine: &EngineConfig, data: &[u8], seed: u64) -> Vec<DmaCase> {
    [
        throughput_compress(engine, data, seed),
        throughput_decompress(engine, data, seed + 1),
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

/// One COMPRESS of `bytes` bytes of the tensors tiled (real activations, [`concat_data`]) in
/// one descriptor and the DECOMPRESS of the frame it wrote in another, in [`LARGE_WINDOW`]:
/// the frame in memory (payload and metadata) and the data restored are checked against the
/// golden model's byte for byte, guards included, and the data against the original.
pub fn large_cases(
    engine: &EngineConfig,
    tensors: &[Tensor],
    bytes: usize,
    seed: u64,
) -> Vec<DmaCase> {
    let data = concat_data(tensors, bytes, engine.elem().bytes());
    let name = format!("large round trip of {} MiB", data.len() >> 20);
    vec![DmaCase {
        scenario: round_trip_alone(&name, engine, &data, seed, LARGE_WINDOW),
        name,
        group: "dma-large".into(),
        abort: None,
    }]
}
