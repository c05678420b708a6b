//! The regression: every tensor × both blocks × seeds, checked byte for byte against the model.

use crate::adapters::{new_compressor, new_decompressor};
use crate::dut::{CompressorPorts, DecompressorPorts};
use crate::error::TbError;
use crate::traffic::Traffic;
use crate::zvc::{compare, run_compressor, run_decompressor, RunStats};
use cdma_model::{zvc, ElemWidth};
use std::collections::BTreeMap;

/// One tensor to stream.
#[derive(Clone, Debug)]
pub struct Case {
    /// Tensor name (corpus file stem or synthetic edge-case name).
    pub name: String,
    /// Group for the summary table (corpus dtype, or `edge-e8` …).
    pub group: String,
    /// Element width.
    pub elem: ElemWidth,
    /// Raw little-endian tensor bytes (a whole number of elements).
    pub data: Vec<u8>,
}

/// The outcome of one case under one seed.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// Tensor name.
    pub name: String,
    /// Summary group.
    pub group: String,
    /// Seed of the valid/ready patterns (0 = always valid/ready).
    pub seed: u64,
    /// Compressor figures.
    pub comp: RunStats,
    /// Decompressor figures.
    pub decomp: RunStats,
    /// Failure, if any (`None` = bit-exact on both blocks).
    pub failure: Option<String>,
}

/// One Verilated compressor and decompressor per element width, reused across cases.
pub struct Duts {
    comp: BTreeMap<u32, Box<dyn CompressorPorts>>,
    decomp: BTreeMap<u32, Box<dyn DecompressorPorts>>,
}

impl Default for Duts {
    fn default() -> Self {
        Self::new()
    }
}

impl Duts {
    /// Creates the blocks lazily on first use.
    pub fn new() -> Self {
        Duts {
            comp: BTreeMap::new(),
            decomp: BTreeMap::new(),
        }
    }

    /// The compressor for `elem`.
    pub fn compressor(&mut self, elem: ElemWidth) -> &mut dyn CompressorPorts {
        self.comp
            .entry(elem.bits())
            .or_insert_with(|| new_compressor(elem))
            .as_mut()
    }

    /// The decompressor for `elem`.
    pub fn decompressor(&mut self, elem: ElemWidth) -> &mut dyn DecompressorPorts {
        self.decomp
            .entry(elem.bits())
            .or_insert_with(|| new_decompressor(elem))
            .as_mut()
    }
}

/// Source and sink patterns of one run, derived from the seed (salted per block and side).
pub fn patterns(seed: u64, block: u64) -> (Traffic, Traffic) {
    (
        Traffic::seeded(seed, 2 * block + 1),
        Traffic::seeded(seed, 2 * block + 2),
    )
}

/// Streams `case` through the compressor (payload compared with `zvc::encode`) and the model's
/// payload through the decompressor (output compared with the original).
pub fn run_case(duts: &mut Duts, case: &Case, seed: u64) -> CaseResult {
    let mut result = CaseResult {
        name: case.name.clone(),
        group: case.group.clone(),
        seed,
        comp: RunStats::default(),
        decomp: RunStats::default(),
        failure: None,
    };
    let expected = match zvc::encode(&case.data, case.elem) {
        Ok(p) => p,
        Err(e) => {
            result.failure = Some(format!("model rejected the tensor: {e}"));
            return result;
        }
    };
    let n_elems = case.data.len() / case.elem.bytes();
    let (mut src, mut sink) = patterns(seed, 0);
    let comp = run_compressor(duts.compressor(case.elem), &case.data, &mut src, &mut sink)
        .and_then(|(payload, stats)| {
            result.comp = stats;
            compare("compressor payload", &expected, &payload)
        });
    let (mut src, mut sink) = patterns(seed, 1);
    let decomp = run_decompressor(
        duts.decompressor(case.elem),
        &expected,
        n_elems,
        &mut src,
        &mut sink,
    )
    .and_then(|(data, stats)| {
        result.decomp = stats;
        compare("decompressor output", &case.data, &data)
    });
    let describe = |block: &str, e: TbError| {
        let (s, k) = patterns(seed, if block == "compressor" { 0 } else { 1 });
        format!(
            "{block}: {e} [seed {seed}: source {}, sink {}]",
            s.describe(),
            k.describe()
        )
    };
    let failures: Vec<String> = [
        comp.err().map(|e| describe("compressor", e)),
        decomp.err().map(|e| describe("decompressor", e)),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !failures.is_empty() {
        result.failure = Some(failures.join("; "));
    }
    result
}

/// Per-group totals for the summary table.
#[derive(Clone, Debug, Default)]
pub struct GroupSummary {
    /// Distinct tensors.
    pub tensors: usize,
    /// Runs (tensors × seeds).
    pub runs: usize,
    /// Runs that were not bit-exact.
    pub mismatches: usize,
    /// Uncompressed bytes of the distinct tensors.
    pub raw_bytes: u64,
    /// ZVC payload bytes of the distinct tensors.
    pub payload_bytes: u64,
    /// Compressor totals over always-ready (seed 0) runs.
    pub comp: RunStats,
    /// Decompressor totals over always-ready (seed 0) runs.
    pub decomp: RunStats,
}

impl GroupSummary {
    /// Uncompressed / payload bytes.
    pub fn ratio(&self) -> f64 {
        self.raw_bytes as f64 / self.payload_bytes.max(1) as f64
    }
}

/// Folds results into per-group summaries (sorted by group name).
pub fn summarize(results: &[CaseResult]) -> BTreeMap<String, GroupSummary> {
    let mut groups: BTreeMap<String, GroupSummary> = BTreeMap::new();
    for r in results {
        let g = groups.entry(r.group.clone()).or_default();
        g.runs += 1;
        g.mismatches += usize::from(r.failure.is_some());
        if r.seed == 0 {
            g.tensors += 1;
            g.raw_bytes += r.comp.raw_bytes;
            g.payload_bytes += r.comp.payload_bytes;
            g.comp.add(&r.comp);
            g.decomp.add(&r.decomp);
        }
    }
    groups
}

/// The summary as an aligned text table.
pub fn render_table(groups: &BTreeMap<String, GroupSummary>) -> String {
    let header = [
        "group",
        "tensors",
        "runs",
        "MiB",
        "ZVC ratio",
        "mismatches",
        "comp B/cyc",
        "comp blk/cyc",
        "decomp B/cyc",
        "decomp blk/cyc",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    let mut total = GroupSummary::default();
    for (name, g) in groups {
        rows.push(row(name, g));
        total.tensors += g.tensors;
        total.runs += g.runs;
        total.mismatches += g.mismatches;
        total.raw_bytes += g.raw_bytes;
        total.payload_bytes += g.payload_bytes;
        total.comp.add(&g.comp);
        total.decomp.add(&g.decomp);
    }
    rows.push(row("total", &total));
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (s, w))| {
                if c == 0 {
                    format!("{s:<w$}")
                } else {
                    format!("{s:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if i == 0 || i + 2 == rows.len() {
            out.push_str(&"-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1)));
            out.push('\n');
        }
    }
    out
}

fn row(name: &str, g: &GroupSummary) -> Vec<String> {
    vec![
        name.to_string(),
        g.tensors.to_string(),
        g.runs.to_string(),
        format!("{:.2}", g.raw_bytes as f64 / (1 << 20) as f64),
        format!("{:.3}x", g.ratio()),
        g.mismatches.to_string(),
        format!("{:.1}", g.comp.raw_bytes_per_cycle()),
        format!("{:.3}", g.comp.blocks_per_cycle()),
        format!("{:.1}", g.decomp.raw_bytes_per_cycle()),
        format!("{:.3}", g.decomp.blocks_per_cycle()),
    ]
}

/// The element width the RTL uses for a corpus dtype (bf16 and fp16 are both 16-bit words).
pub fn elem_of(dtype: cdma_corpus::Dtype) -> ElemWidth {
    match dtype.elem_bits() {
        32 => ElemWidth::W32,
        16 => ElemWidth::W16,
        _ => ElemWidth::W8,
    }
}

/// Every tensor of the corpus as a case (sha256-verified on load), grouped by dtype.
pub fn corpus_cases(corpus: &cdma_corpus::Corpus) -> Result<Vec<Case>, cdma_corpus::CorpusError> {
    corpus
        .entries()
        .iter()
        .map(|e| {
            Ok(Case {
                name: e.name(),
                group: e.dtype.name().to_string(),
                elem: elem_of(e.dtype),
                data: corpus.read(e)?,
            })
        })
        .collect()
}

/// The synthetic edge tensors of `cdma_model::synthetic` for every width, grouped `edge-eN`
/// (kept apart from the corpus and its figures).
pub fn edge_cases() -> Vec<Case> {
    ElemWidth::ALL
        .iter()
        .flat_map(|&elem| {
            cdma_model::synthetic::edge_tensors(elem)
                .into_iter()
                .map(move |(name, data)| Case {
                    name: format!("{name}.e{}", elem.bits()),
                    group: format!("edge-e{}", elem.bits()),
                    elem,
                    data,
                })
        })
        .collect()
}
