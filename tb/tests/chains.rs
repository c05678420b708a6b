//! Scenario builders against the golden model, no RTL: random chains and every fault chain
//! are laid out as planned (regions, guards, alignment), the model ends each descriptor with
//! its intended code and writes only destinations, metadata and status words; round trips,
//! prefix expectations and the throughput and abort chains.
//!
//! These tests use `dma_scenario`, `dma_check`, `dma_faults` and `dma_cases` together, so they
//! live here rather than inside one of those modules (where they would import modules that
//! import it back).

use std::ops::Range;

use cdma_model::dma::{codes, ChainEnd, EngineConfig, Op};
use cdma_model::{Codec, ElemType, ElemWidth};
use cdma_spec::desc as d;
use cdma_tb::axi::Resp;
use cdma_tb::dma_cases::corpus_tensors;
use cdma_tb::dma_check::{check_round_trips, merge, writeback_range};
use cdma_tb::dma_faults::{
    abort_chain, all_faults, bad_header, bus_fault, relu_data, stop_on_error, throughput_compress,
    throughput_decompress, HeaderFault, Target,
};
use cdma_tb::dma_scenario::{
    check_intents, desc_op, random_chain, Expected, RandomOpts, Region, RegionKind, Scenario,
    Tensor, DEFAULT_WINDOW,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every bus width, each engine running every element width, and one engine running one.
fn engines() -> Vec<EngineConfig> {
    let mut v: Vec<EngineConfig> = [16, 32, 64, 128]
        .map(|bb| EngineConfig::new(bb).unwrap())
        .to_vec();
    v.push(
        EngineConfig::new(64)
            .unwrap()
            .with_elem_widths(&[ElemWidth::W16])
            .unwrap(),
    );
    // With ZVC-X: its faults, and random chains half of whose COMPRESSes use it.
    v.extend([16, 128].map(|bb| EngineConfig::new(bb).unwrap().with_zvcx(true)));
    v
}

/// Tensors of every width the engine runs, mixed: ReLU-like data and a few edge tensors
/// (empty, odd lengths, all zero, incompressible).
fn tensors(engine: &EngineConfig, seed: u64) -> Vec<Tensor> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut v: Vec<Tensor> = vec![];
    for elem in engine.elem_widths() {
        for i in 0..2 {
            v.push(Tensor {
                name: format!("relu{i}.e{}", elem.bits()),
                elem,
                data: relu_data(rng.gen_range(0..3000), elem, &mut rng),
            });
        }
        for (name, data) in cdma_model::synthetic::edge_tensors(elem)
            .into_iter()
            .step_by(7)
        {
            v.push(Tensor { name, elem, data });
        }
    }
    cdma_tb::dma_cases::interleave_by_width(v)
}

/// Layout invariants: no two regions overlap, every non-guard region has guards of at
/// least 64 bytes on both sides reaching past its beat boundaries, descriptors are
/// 64-aligned unless meant to be UNALIGNED, data addresses are bus-aligned.
fn check_layout(scn: &Scenario) {
    let bb = scn.bus_bytes();
    let mut rs: Vec<&Region> = scn.regions.iter().collect();
    rs.sort_by_key(|r| r.range.start);
    for w in rs.windows(2) {
        assert!(
            w[0].range.end <= w[1].range.start,
            "{}: {:?} overlaps {:?}",
            scn.name,
            w[0],
            w[1]
        );
    }
    for r in scn.regions.iter().filter(|r| r.kind != RegionKind::Guard) {
        let before = scn.region_of(r.range.start - 1).expect("guard before");
        let after = scn.region_of(r.range.end).expect("guard after");
        assert_eq!(before.kind, RegionKind::Guard, "{}", r.label);
        assert_eq!(after.kind, RegionKind::Guard, "{}", r.label);
        assert!(
            before.range.start + 64 <= r.range.start & !(bb - 1),
            "{}",
            r.label
        );
        assert!(
            after.range.end >= r.range.end.next_multiple_of(bb) + 64,
            "{}",
            r.label
        );
    }
    for p in &scn.descs {
        if p.intent != Some(codes::UNALIGNED) {
            assert_eq!(p.addr % 64, 0, "{}", p.label);
        }
        let r = scn.region_of(p.addr).expect("descriptor region");
        assert!(r.kind == RegionKind::Descriptor, "{}", p.label);
    }
}

/// What the model changed lies in destinations, metadata and status words only — never
/// in a guard, a source or a descriptor's other fields.
fn check_model_writes(scn: &Scenario, exp: &Expected) {
    let wbs: Vec<Range<u64>> = exp
        .outcome
        .descs
        .iter()
        .map(|o| writeback_range(o.addr))
        .collect();
    for r in exp.mem.diff(&scn.model_memory()) {
        for a in r {
            if wbs.iter().any(|w| w.contains(&a)) {
                continue;
            }
            let g = scn
                .region_of(a)
                .unwrap_or_else(|| panic!("{}: model wrote {a:#x} outside every region", scn.name));
            assert!(
                matches!(g.kind, RegionKind::Destination | RegionKind::Metadata),
                "{}: model wrote {a:#x} in {:?} {}",
                scn.name,
                g.kind,
                g.label
            );
        }
    }
}

#[test]
fn random_chains_are_laid_out_as_planned_and_the_model_agrees() {
    for engine in engines() {
        for seed in 0..6 {
            let ts = tensors(&engine, seed);
            let scn = random_chain("t", &engine, &ts, seed, &RandomOpts::default());
            check_layout(&scn);
            let exp = scn.expect();
            assert_eq!(check_intents(&scn, &exp), Vec::<String>::new());
            assert_eq!(exp.outcome.end, ChainEnd::Completed);
            assert_eq!(exp.outcome.descs.len(), scn.descs.len());
            assert_eq!(scn.round_trips.len(), ts.len());
            assert!(check_round_trips(&scn, &exp.mem).is_empty());
            check_model_writes(&scn, &exp);
            // Successful descriptors only: nothing is unspecified.
            assert!(exp.unspecified.is_empty());
        }
    }
}

#[test]
fn chains_mix_operations_chunk_sizes_capacities_and_unaligned_descriptors() {
    let engine = EngineConfig::default();
    let mut ops = [0usize; 3];
    let mut chunks = std::collections::BTreeSet::new();
    let mut unaligned = 0;
    let mut slack = 0;
    for seed in 0..20 {
        let ts = tensors(&engine, seed);
        let scn = random_chain("t", &engine, &ts, seed, &RandomOpts::default());
        for p in &scn.descs {
            let c = u64::from(p.desc.control);
            ops[d::CTRL_OP.get(c) as usize] += 1;
            if desc_op(&p.desc) == Some(Op::Compress) {
                chunks.insert(d::CTRL_CHUNK_LOG2.get(c));
            }
            unaligned += usize::from(p.intent == Some(codes::UNALIGNED));
            slack += usize::from(u64::from(p.desc.dst_cap) > u64::from(p.desc.src_len));
        }
    }
    assert!(ops.iter().all(|&n| n > 10), "{ops:?}");
    // 7..=12 and the default code 0.
    assert_eq!(
        chunks.into_iter().collect::<Vec<_>>(),
        vec![0, 7, 8, 9, 10, 11, 12]
    );
    assert!(unaligned > 5 && slack > 10, "{unaligned} {slack}");
}

#[test]
fn a_round_trip_restores_the_original_and_a_broken_one_is_caught() {
    let engine = EngineConfig::default();
    let ts = tensors(&engine, 3);
    let scn = random_chain("t", &engine, &ts, 3, &RandomOpts::default());
    let mut exp = scn.expect();
    assert!(check_round_trips(&scn, &exp.mem).is_empty());
    let rt = scn
        .round_trips
        .iter()
        .find(|r| r.original.end > r.original.start)
        .unwrap();
    let b = exp.mem.peek(rt.restored, 1)[0];
    exp.mem.load(rt.restored, &[b ^ 1]);
    let e = check_round_trips(&scn, &exp.mem);
    assert_eq!(e.len(), 1, "{e:?}");
}

#[test]
fn the_prefix_expectation_cuts_the_chain_and_keeps_next() {
    let engine = EngineConfig::default();
    let ts = tensors(&engine, 9);
    let scn = random_chain("t", &engine, &ts, 9, &RandomOpts::default());
    let n = scn.descs.len();
    assert!(n >= 4);
    let full = scn.expect();
    assert_eq!(scn.expect_prefix(n).outcome, full.outcome);
    assert!(scn.expect_prefix(n).mem.diff(&full.mem).is_empty());
    let p = scn.expect_prefix(2);
    assert_eq!(p.outcome.descs.len(), 2);
    for (a, b) in p.outcome.descs.iter().zip(&full.outcome.descs) {
        assert_eq!(
            (a.addr, a.status_word, a.bytes_written),
            (b.addr, b.status_word, b.bytes_written)
        );
    }
    // `next` of d1 is intact; d2's write-back has not happened.
    let next_at = scn.descs[1].addr + d::NEXT_FIELD.offset as u64;
    assert_eq!(
        p.mem.peek(next_at, 8),
        scn.descs[2].addr.to_le_bytes().to_vec()
    );
    let wb = writeback_range(scn.descs[2].addr);
    assert_eq!(
        p.mem.peek(wb.start, 8),
        scn.model_memory().peek(wb.start, 8)
    );
    assert_eq!(scn.expect_prefix(0).outcome.desc_done, 0);
    assert!(merge(p.unspecified.clone()).is_empty());
}

#[test]
fn corpus_f32_tensors_round_trip_on_the_1024_bit_engine() {
    let corpus = cdma_corpus::Corpus::open_default().expect("bundled corpus");
    let engine = EngineConfig::default();
    let ts: Vec<Tensor> = corpus_tensors(&corpus, &engine)
        .unwrap()
        .into_iter()
        .filter(|t| t.elem == ElemWidth::W32)
        .step_by(29)
        .collect();
    assert!(ts.len() >= 4);
    assert!(
        ts.iter().all(|t| t.name.ends_with("f32")),
        "{:?}",
        ts[0].name
    );
    let scn = random_chain("corpus", &engine, &ts, 1, &RandomOpts::default());
    check_layout(&scn);
    let exp = scn.expect();
    assert_eq!(check_intents(&scn, &exp), Vec::<String>::new());
    assert!(check_round_trips(&scn, &exp.mem).is_empty());
    // Real activations compress.
    let payload: u64 = exp
        .outcome
        .descs
        .iter()
        .filter(|o| desc_op(&o.desc.unwrap()) == Some(Op::Compress))
        .map(|o| u64::from(o.bytes_written))
        .sum();
    assert!(
        payload * 3 / 2 < scn.compress_in,
        "{payload} of {}",
        scn.compress_in
    );
}

/// Every fault scenario produces its intended code in the golden model (a cross-check of
/// builder and model), on every bus width, and changes nothing outside destinations,
/// metadata and status words.
#[test]
fn every_fault_gets_its_intended_code_from_the_model() {
    for engine in engines() {
        let all = all_faults(&engine, 11);
        assert!(all.len() >= 60, "{}", all.len());
        for scn in &all {
            let exp = scn.expect();
            let bad = check_intents(scn, &exp);
            assert!(
                bad.is_empty(),
                "{} (BB {}): {bad:?}",
                scn.name,
                engine.bus_bytes()
            );
            check_layout(scn);
            check_model_writes(scn, &exp);
        }
    }
}

#[test]
fn bus_faults_end_the_chain_where_the_rules_say() {
    let e = EngineConfig::default();
    let end = |t, r| bus_fault(&e, 1, t, r).expect().outcome.end;
    assert_eq!(end(Target::Descriptor, Resp::Slverr), ChainEnd::FetchFailed);
    assert_eq!(
        end(Target::StatusWriteback, Resp::Decerr),
        ChainEnd::WritebackFailed
    );
    assert_eq!(end(Target::CopySrc, Resp::Decerr), ChainEnd::Completed);
    assert_eq!(
        stop_on_error(&e, 1, true).expect().outcome.end,
        ChainEnd::StoppedOnError
    );
    // Streaming errors leave the destination unspecified, early ones nothing.
    let s = bus_fault(&e, 2, Target::CompressSrc, Resp::Slverr).expect();
    assert_eq!(merge(s.unspecified).len(), 2);
    assert!(bad_header(&e, 3, HeaderFault::Magic)
        .expect()
        .unspecified
        .is_empty());
    // The index error really lies past the header's beat.
    let s = bus_fault(&e, 4, Target::Index, Resp::Slverr);
    let p = &s.descs[1].desc;
    assert!(s.errors[0].lo >= p.meta_addr + 128);
}

#[test]
fn throughput_and_abort_scenarios_run_in_the_model() {
    let e = EngineConfig::default();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let data = relu_data(256 * 1024, ElemWidth::W32, &mut rng);
    // ZVC on the default engine, ZVC-X (f32) on one generated with it.
    let ex = e.with_zvcx(true);
    for (engine, ct) in [
        (e, (Codec::Zvc, ElemType::Raw(ElemWidth::W32))),
        (ex, (Codec::ZvcX, ElemType::F32)),
    ] {
        for scn in [
            throughput_compress(&engine, ct, &data, 1, true),
            throughput_decompress(&engine, ct, &data, 2, true),
            throughput_compress(&engine, ct, &data, 3, false),
            throughput_decompress(&engine, ct, &data, 4, false),
        ] {
            let exp = scn.expect();
            assert_eq!(
                check_intents(&scn, &exp),
                Vec::<String>::new(),
                "{}",
                scn.name
            );
        }
    }
    let ts: Vec<Tensor> = (0..3)
        .map(|i| Tensor {
            name: format!("t{i}"),
            elem: ElemWidth::W32,
            data: relu_data(8000, ElemWidth::W32, &mut rng),
        })
        .collect();
    let s = abort_chain(&e, &ts, 3, DEFAULT_WINDOW);
    // Status words start zero, so `done` in memory is the engine's.
    let m = s.model_memory();
    for p in &s.descs {
        assert_eq!(m.peek(p.addr + 0x30, 8), vec![0; 8]);
    }
}
