//! The Verilated DMA engine (`cdma_dma_top`, DW = 1024, every element width) against the
//! golden model: corpus chains (COMPRESS → DECOMPRESS round trips, COPYs, unaligned
//! descriptors) under random latency and backpressure, aborts and resets followed by clean chains,
//! the throughput goal and one 64 MiB descriptor; and on every top (DW = 1024, 512, 256,
//! 128) chains mixing the element widths, edge tensors and every fault scenario (each run
//! checks HWCFG and the performance counters too).
//!
//! The regression of the DMA RTL; each test first looks the top up in `cdma_sim::TOPS` and
//! fails with a clear message when it is missing.

use cdma_corpus::Corpus;
use cdma_model::{Codec, ElemType, ElemWidth};
use cdma_tb::dma::{
    abort_bound, configured_tops, engine_of, run_case, run_case_on, top_available, BenchConfig,
    DmaBench, DmaResult, Interruption, DMA_TOPS, MATRIX_CONFIG_TOP, TOP, ZVCX_CONFIG_TOP,
};
use cdma_tb::dma_cases::{
    bad_field_cases, chain_cases, concat_data, corpus_tensors, damaged_frame_cases, fault_cases,
    interrupt_case, interrupt_cases, large_cases, regress_tensors, throughput_cases, LARGE_BYTES,
};
use cdma_tb::dma_scenario::Tensor;

/// Fails the test with the list of what was Verilated when `top` was not.
fn require(top: &str) {
    assert!(
        top_available(top),
        "{top} is not among the Verilated tops ({}); generate the DMA RTL first (issue #4)",
        cdma_sim::TOPS
            .iter()
            .map(|t| t.module)
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// The configuration matrix: every default top (each every element width) and the engines
/// Verilated from config files (the bundled 512/{16,32} one is required).
fn matrix() -> Vec<(&'static str, u32)> {
    require(MATRIX_CONFIG_TOP);
    require(ZVCX_CONFIG_TOP);
    DMA_TOPS.iter().copied().chain(configured_tops()).collect()
}

fn tensors() -> Vec<Tensor> {
    let corpus = Corpus::open(&Corpus::default_dir()).expect("bundled corpus");
    corpus_tensors(&corpus, &engine_of(TOP).unwrap()).expect("corpus verifies")
}

fn assert_clean(results: &[DmaResult]) {
    let bad: Vec<String> = results.iter().filter_map(|r| r.failure.clone()).collect();
    for r in results {
        println!(
            "{:<60} runs {} mismatches {} cycles {} ratio {:.3}",
            r.name,
            r.runs,
            r.mismatches,
            r.cycles,
            r.ratio()
        );
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases failed:\n{}",
        bad.len(),
        results.len(),
        bad.join("\n\n")
    );
}

/// A few corpus tensors per chain, two chains, random memory timing.
#[test]
fn corpus_chains_match_the_model() {
    require(TOP);
    let ts: Vec<Tensor> = tensors().into_iter().step_by(20).take(6).collect();
    let engine = engine_of(TOP).unwrap();
    let results: Vec<DmaResult> = chain_cases("dma-corpus", &ts, &engine, 1, 3)
        .iter()
        .enumerate()
        .map(|(i, c)| run_case(TOP, c, BenchConfig::random(1024, i as u64 + 1)))
        .collect();
    assert_clean(&results);
}

/// Every top: chains mixing corpus tensors of every element width (8-bit: bytes of 16-bit
/// ones), random memory timing — the configuration matrix (bus width × element widths).
#[test]
fn corpus_chains_on_every_top() {
    let corpus = Corpus::open(&Corpus::default_dir()).expect("bundled corpus");
    let mut results = vec![];
    for (i, &(top, bits)) in matrix().iter().enumerate() {
        require(top);
        let engine = engine_of(top).unwrap();
        let ts: Vec<Tensor> = regress_tensors(&corpus, &engine, false)
            .expect("corpus verifies")
            .into_iter()
            .step_by(37)
            .take(6)
            .collect();
        let widths: std::collections::BTreeSet<u32> = ts.iter().map(|t| t.elem.bits()).collect();
        assert_eq!(
            widths.len(),
            engine.elem_widths().len(),
            "{top}: the chains do not mix every width"
        );
        for c in chain_cases("dma-corpus", &ts, &engine, 11 + i as u64, 3) {
            results.push(run_case(top, &c, BenchConfig::random(bits, i as u64 + 21)));
        }
    }
    assert_clean(&results);
}

/// Every engine configuration: chains over all the synthetic edge tensors of its width
/// (empty, 1/31/32/33 elements, all zero, all non-zero, -0.0, NaNs, denormals), two chain
/// seeds, random memory timing. Back-to-back small descriptors: state left over from one descriptor shows.
#[test]
fn edge_chains_on_every_top() {
    let mut results = vec![];
    for (i, &(top, bits)) in matrix().iter().enumerate() {
        require(top);
        let engine = engine_of(top).unwrap();
        let ts = cdma_tb::dma_cases::interleave_by_width(cdma_tb::dma_cases::edge_tensors(&engine));
        for seed in 1..=2 {
            for c in chain_cases("dma-edge", &ts, &engine, seed, 4) {
                results.push(run_case(
                    top,
                    &c,
                    BenchConfig::random(bits, i as u64 + seed),
                ));
            }
        }
    }
    assert_clean(&results);
}

/// Every fault scenario (bus errors, stop/continue, header, index, payload, overflow, bad
/// descriptors, unsupported, unaligned) on every engine configuration, one engine reused
/// across the scenarios of a configuration.
#[test]
fn every_fault_matches_the_model() {
    let mut results: Vec<DmaResult> = vec![];
    for (top, bits) in matrix() {
        require(top);
        let engine = engine_of(top).unwrap();
        let mut bench = DmaBench::open(top, BenchConfig::random(bits, 7)).expect("bench");
        results.extend(
            fault_cases(&engine, 7)
                .iter()
                .map(|c| cdma_tb::dma::run_case_on(&mut bench, c)),
        );
    }
    assert_clean(&results);
}

/// The RTL fault campaign, short: random descriptor chains with bad fields (`cdma fuzz
/// --chains`, loops left out) on every engine configuration, one engine reused across them,
/// so each chain also runs after the previous one's errors. `cdma regress` runs 1000 per
/// engine.
#[test]
fn chains_with_bad_fields_match_the_model() {
    let mut results: Vec<DmaResult> = vec![];
    for (top, bits) in matrix() {
        let engine = engine_of(top).unwrap();
        let mut bench = DmaBench::open(top, BenchConfig::random(bits, 13)).expect("bench");
        let (cases, left_out) = bad_field_cases(&engine, 15, 16);
        assert_eq!(left_out, 0, "{top}: a drawn chain loops");
        results.extend(
            cases
                .iter()
                .map(|c| cdma_tb::dma::run_case_on(&mut bench, c)),
        );
    }
    assert_clean(&results);
}

/// Chains of six DECOMPRESSes of damaged frames (version 4 mostly; the RTL campaign's
/// corrupted frames) on every engine configuration, one engine reused across them: each
/// ends with the model's data or error, CRC mismatches included. `cdma regress` runs 1700
/// chains (10 200 frames) per engine.
#[test]
fn damaged_frames_match_the_model() {
    let mut results: Vec<DmaResult> = vec![];
    for (top, bits) in matrix() {
        let engine = engine_of(top).unwrap();
        let mut bench = DmaBench::open(top, BenchConfig::random(bits, 17)).expect("bench");
        results.extend(
            damaged_frame_cases(&engine, 16, 8)
                .iter()
                .map(|c| cdma_tb::dma::run_case_on(&mut bench, c)),
        );
    }
    assert_clean(&results);
}

/// Aborts and resets in the middle of chains under random latency and backpressure: after an
/// abort ABORTED (or the descriptor done) and idle within the documented bound, after a reset
/// idle with the CSRs at their reset values; nothing written outside destinations; then a new
/// chain runs correctly — on the widest and the narrowest engine, one bench each.
#[test]
fn aborts_and_resets_mid_chain_then_clean_chains() {
    let ts = tensors();
    let big: Vec<Tensor> = ts
        .iter()
        .filter(|t| t.data.len() > 100_000)
        .take(3)
        .cloned()
        .collect();
    let small: Vec<Tensor> = ts.iter().step_by(40).take(2).cloned().collect();
    let mut results = Vec::new();
    for (top, bits) in [(TOP, 1024), ("cdma_dma_dw128", 128)] {
        require(top);
        let engine = engine_of(top).unwrap();
        let cfg = BenchConfig::random(bits, 3);
        let bound = abort_bound(top, &cfg.mem).expect("a DMA top");
        // Deep into a long chain, then at random cycles of short ones.
        let mut cases: Vec<_> = [Interruption::Abort, Interruption::Reset]
            .into_iter()
            .map(|how| interrupt_case(&engine, (&big, &small), 3, how, 3_000, bound))
            .collect();
        cases.extend(interrupt_cases(&engine, (&small, &small[..1]), 5, 8, bound));
        let mut bench = DmaBench::open(top, cfg).expect("bench");
        results.extend(cases.iter().map(|c| run_case_on(&mut bench, c)));
    }
    assert_clean(&results);
}

/// Fixed 100-cycle latency, no backpressure: read-bus utilisation during a 1 MiB COMPRESS
/// and write-bus utilisation during the matching DECOMPRESS, goal ≥ 95 % each.
#[test]
fn throughput_goal() {
    require(TOP);
    let engine = engine_of(TOP).unwrap();
    let f32s: Vec<Tensor> = tensors()
        .into_iter()
        .filter(|t| t.elem == ElemWidth::W32)
        .collect();
    let data = concat_data(&f32s, 1 << 20, 4);
    let cases = throughput_cases(
        &engine,
        (Codec::Zvc, ElemType::Raw(ElemWidth::W32)),
        &data,
        1,
        true,
    );
    let mut bench = DmaBench::open(TOP, BenchConfig::fixed(1024, 100)).expect("bench");
    let comp = bench
        .run(&cases[0].scenario, &cases[0].scenario.expect())
        .expect("COMPRESS runs");
    let decomp = bench
        .run(&cases[1].scenario, &cases[1].scenario.expect())
        .expect("DECOMPRESS runs");
    let (ru, wu) = (
        comp.read_utilisation.unwrap_or(0.0),
        decomp.write_utilisation.unwrap_or(0.0),
    );
    println!(
        "COMPRESS 1 MiB: {} cycles, read utilisation {:.1} %; DECOMPRESS: {} cycles, write utilisation {:.1} %",
        comp.cycles,
        100.0 * ru,
        decomp.cycles,
        100.0 * wu
    );
    assert!(comp.mismatches.is_empty(), "{}", comp.describe(20));
    assert!(decomp.mismatches.is_empty(), "{}", decomp.describe(20));
    assert!(ru >= 0.95, "read utilisation {:.1} % < 95 %", 100.0 * ru);
    assert!(wu >= 0.95, "write utilisation {:.1} % < 95 %", 100.0 * wu);
}

/// One COMPRESS of 64 MiB of tiled corpus tensors in one descriptor (16384 chunks of 4 KiB,
/// more than the 1024 the engine held before its chunk index was streamed) and the DECOMPRESS
/// of the frame it wrote: payload, metadata and the data restored are the golden model's byte
/// for byte (the data the original's), the guards around them untouched.
#[test]
fn large_descriptor_matches_the_model() {
    require(TOP);
    let engine = engine_of(TOP).unwrap();
    let cases = large_cases(&engine, ElemWidth::W32, &tensors(), LARGE_BYTES, 11);
    let results: Vec<DmaResult> = cases
        .iter()
        .map(|c| run_case(TOP, c, BenchConfig::fixed(1024, 20)))
        .collect();
    assert_clean(&results);
    assert!(results.iter().all(|r| r.raw_bytes >= LARGE_BYTES as u64));
}
