//! The Verilated ZVC blocks against the golden model: the whole bundled corpus, the synthetic
//! edge tensors under random valid/ready, the full-rate goal, and malformed payloads.

use cdma_corpus::Corpus;
use cdma_model::rng::XorShift64;
use cdma_model::{zvc, ElemWidth};
use cdma_tb::regress::{
    corpus_cases, edge_cases, render_table, run_case, summarize, Case, CaseResult, Duts,
};
use cdma_tb::traffic::Traffic;
use cdma_tb::zvc::{expect_decompressor_error, run_compressor, run_decompressor, BLOCK};

fn run_all(cases: &[Case], seeds: &[u64]) -> Vec<CaseResult> {
    let mut duts = Duts::new();
    let results: Vec<CaseResult> = cases
        .iter()
        .flat_map(|c| seeds.iter().map(|&s| (c, s)).collect::<Vec<_>>())
        .map(|(c, s)| run_case(&mut duts, c, s))
        .collect();
    print!("{}", render_table(&summarize(&results)));
    results
}

fn assert_bit_exact(results: &[CaseResult]) {
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| r.failure.as_ref().map(|f| format!("{}: {f}", r.name)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} runs not bit-exact:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}

/// Every corpus tensor (all dtypes) through both blocks: always-ready and one random seed.
#[test]
fn corpus_is_bit_exact_through_both_blocks() {
    let corpus = Corpus::open(&Corpus::default_dir()).expect("bundled corpus");
    let cases = corpus_cases(&corpus).expect("corpus tensors verify");
    assert!(
        cases.len() >= 150,
        "corpus has only {} tensors",
        cases.len()
    );
    let results = run_all(&cases, &[0, 1]);
    assert_bit_exact(&results);
    // Every tensor really went through: blocks and payload accounted for in both directions.
    for r in &results {
        assert_eq!(r.comp.blocks, r.decomp.blocks, "{}", r.name);
        assert!(r.comp.blocks > 0 && r.comp.payload_bytes > 0, "{}", r.name);
    }
}

/// The edge tensors (all zero, -0.0, NaNs, denormals, odd lengths …) under several seeds.
#[test]
fn edge_tensors_are_bit_exact_under_random_traffic() {
    let cases = edge_cases();
    for e in ElemWidth::ALL {
        assert!(
            cases.iter().any(|c| c.elem == e),
            "no edge case for e{}",
            e.bits()
        );
    }
    assert_bit_exact(&run_all(&cases, &[0, 1, 2, 3, 4, 5]));
}

fn tensor(elem: ElemWidth, blocks: usize, nonzero_of_4: u32, seed: u64) -> Vec<u8> {
    let mut rng = XorShift64::new(seed | 1);
    let mut out = Vec::new();
    for i in 0..blocks * BLOCK {
        let x = rng.next();
        // Non-zero in `nonzero_of_4` of every 4 elements, so every block has the same mix.
        let nz = (i % 4) < nonzero_of_4 as usize;
        let bytes = (x | 1).to_le_bytes();
        if nz {
            out.extend_from_slice(&bytes[..elem.bytes()]);
        } else {
            out.extend(std::iter::repeat_n(0, elem.bytes()));
        }
    }
    out
}

/// Goal: one block per cycle at 0 %, 50 % and 100 % zeros with an always-ready sink, for both
/// blocks and every width (cycles counted, not time).
#[test]
fn both_blocks_sustain_one_block_per_cycle_at_any_sparsity() {
    let mut duts = Duts::new();
    for elem in ElemWidth::ALL {
        for nonzero in [0u32, 2, 4] {
            let data = tensor(elem, 2000, nonzero, 7);
            let payload = zvc::encode(&data, elem).unwrap();
            let n = data.len() / elem.bytes();
            let (got, c) = run_compressor(
                duts.compressor(elem),
                &data,
                &mut Traffic::always(),
                &mut Traffic::always(),
            )
            .unwrap();
            assert_eq!(got, payload);
            let (back, d) = run_decompressor(
                duts.decompressor(elem),
                &payload,
                n,
                &mut Traffic::always(),
                &mut Traffic::always(),
            )
            .unwrap();
            assert_eq!(back, data);
            println!(
                "e{} {}% non-zero: compressor {:.4} blocks/cycle ({} cycles), decompressor {:.4} ({} cycles)",
                elem.bits(),
                nonzero * 25,
                c.blocks_per_cycle(),
                c.cycles,
                d.blocks_per_cycle(),
                d.cycles
            );
            for (what, s) in [("compressor", c), ("decompressor", d)] {
                assert!(
                    s.blocks_per_cycle() >= 0.99,
                    "{what} e{} at {}% non-zero: {:.4} blocks/cycle",
                    elem.bits(),
                    nonzero * 25,
                    s.blocks_per_cycle()
                );
                // Fill latency is small and fixed (the compressor's pipeline is 10 registers
                // deep, the decompressor's 19 from a beat to its first block), so end to end
                // is also close to 1.
                let fill = if what == "compressor" { 12 } else { 20 };
                assert!(
                    s.cycles <= s.blocks + fill,
                    "{what}: {} cycles for {} blocks",
                    s.cycles,
                    s.blocks
                );
            }
        }
    }
}

/// A payload cut inside a block must raise `error` (and drain, not hang) for every width,
/// under a stalling sink too.
#[test]
fn truncated_payload_raises_error_without_hanging() {
    let mut duts = Duts::new();
    for elem in ElemWidth::ALL {
        for (seed, cut_elems) in [(0u64, 1usize), (3, 1), (5, 7)] {
            let data = tensor(elem, 40, 2, seed + 11);
            let payload = zvc::encode(&data, elem).unwrap();
            let cut = &payload[..payload.len() - cut_elems * elem.bytes()];
            let mut sink = Traffic::seeded(seed, 5);
            let cycles = expect_decompressor_error(duts.decompressor(elem), cut, 40, &mut sink)
                .unwrap_or_else(|e| panic!("e{} cut {cut_elems}: {e}", elem.bits()));
            assert!(cycles > 0);
            // The same block still decodes a well-formed payload after reset.
            let n = data.len() / elem.bytes();
            let (back, _) = run_decompressor(
                duts.decompressor(elem),
                &payload,
                n,
                &mut Traffic::always(),
                &mut Traffic::always(),
            )
            .unwrap();
            assert_eq!(
                back,
                data,
                "e{}: decode after an error + reset",
                elem.bits()
            );
        }
    }
}
