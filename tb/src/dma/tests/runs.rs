//! The bench against a hanging, a lazy, a perfect and a slightly wrong fake engine.

use super::fake_engine::{beats_between, FakeEngine, Mode};
use crate::dma::{BenchConfig, DmaBench};
use crate::dma_check::{writeback_range, Mismatch};
use crate::dma_faults::relu_data;
use crate::dma_scenario::{random_chain, Expected, RandomOpts, RegionKind, Scenario, Tensor, FILL};
use cdma_model::dma::EngineConfig;
use cdma_model::ElemWidth;
use rand::SeedableRng;

fn scenario(engine: &EngineConfig, seed: u64) -> Scenario {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    // Tensors of two element widths.
    let ts: Vec<Tensor> = [ElemWidth::W16, ElemWidth::W32]
        .into_iter()
        .enumerate()
        .map(|(i, elem)| Tensor {
            name: format!("t{i}"),
            elem,
            data: relu_data(700 + 300 * i, elem, &mut rng),
        })
        .collect();
    random_chain("fake", engine, &ts, seed, &RandomOpts::default())
}

fn bench(engine: EngineConfig, fake: FakeEngine, seed: u64) -> DmaBench {
    let mut cfg = BenchConfig::random(engine.bus_bytes() * 8, seed);
    // The fake writes one beat per round trip of up to 200 cycles of latency.
    cfg.limit = 3_000_000;
    cfg.idle_limit = 20_000;
    DmaBench::new(Box::new(fake), engine, cfg).unwrap()
}

#[test]
fn an_engine_that_stays_busy_is_reported_as_a_hang_with_the_last_status() {
    let engine = EngineConfig::new(64).unwrap();
    let scn = scenario(&engine, 1);
    let mut b = bench(engine, FakeEngine::new(64, Mode::Hang), 1);
    let e = b.run(&scn, &scn.expect()).unwrap_err().to_string();
    assert!(e.starts_with("hang:"), "{e}");
    assert!(e.contains("STATUS.busy = 0 (last STATUS read: 0x1"), "{e}");
    assert!(e.contains("m_axi: "), "{e}");
    // The idle limit catches a silent engine long before the total budget.
    let mut b = bench(engine, FakeEngine::new(64, Mode::Hang), 2);
    b.cfg.idle_limit = 500;
    let e = b.run(&scn, &scn.expect()).unwrap_err().to_string();
    assert!(e.contains("no progress for 500 cycles"), "{e}");
}

#[test]
fn an_engine_that_does_nothing_is_caught_on_every_descriptor_and_csr() {
    let engine = EngineConfig::new(32).unwrap();
    let scn = scenario(&engine, 3);
    let exp = scn.expect();
    let mut b = bench(engine, FakeEngine::new(32, Mode::Lazy), 3);
    let r = b.run(&scn, &exp).unwrap();
    let statuses = r
        .mismatches
        .iter()
        .filter(|m| matches!(m, Mismatch::Status { .. }))
        .count();
    assert_eq!(statuses, scn.descs.len(), "{}", r.describe(100));
    let s = r.describe(200);
    assert!(s.contains("expected done, OK (0x1)"), "{s}");
    assert!(s.contains("Destination d"), "{s}");
    assert!(s.contains("CSR DESC_DONE (advance): expected"), "{s}");
    assert!(s.contains("CSR IRQ_STATUS"), "{s}");
}

fn perfect(engine: EngineConfig, scn: &Scenario, exp: &Expected) -> FakeEngine {
    let mut f = FakeEngine::new(engine.bus_bytes() as usize, Mode::Perfect);
    f.beats = beats_between(scn, exp);
    f.outcome = Some(exp.outcome.clone());
    f
}

#[test]
fn an_engine_that_writes_the_model_result_passes_under_backpressure() {
    for (bb, seed) in [(32, 4), (128, 5)] {
        let engine = EngineConfig::new(bb).unwrap();
        let scn = scenario(&engine, seed);
        let exp = scn.expect();
        let mut b = bench(engine, perfect(engine, &scn, &exp), seed);
        let r = b.run(&scn, &exp).unwrap();
        assert!(r.mismatches.is_empty(), "{}", r.describe(50));
        assert!(r.stats.w_beats > 10 && r.write_utilisation.is_some());
        // The same engine again (DESC_DONE and PERF deltas, not absolutes).
        let scn2 = scenario(&engine, seed + 100);
        let exp2 = scn2.expect();
        let f = perfect(engine, &scn2, &exp2);
        b.dut = Box::new(f);
        // A new fake starts from reset values; re-bind nothing (same port list).
        b.reset();
        let r = b.run(&scn2, &exp2).unwrap();
        assert!(r.mismatches.is_empty(), "{}", r.describe(50));
    }
}

#[test]
fn a_stray_write_into_a_guard_and_a_wrong_status_are_reported_precisely() {
    let engine = EngineConfig::new(64).unwrap();
    let scn = scenario(&engine, 6);
    let exp = scn.expect();
    let mut f = perfect(engine, &scn, &exp);
    let guard = scn
        .regions
        .iter()
        .find(|r| r.kind == RegionKind::Guard && r.range.start % 64 == 0)
        .unwrap()
        .clone();
    f.beats.push((guard.range.start, vec![0x5A; 64], 0b11));
    let wb = writeback_range(scn.descs[0].addr).start;
    let base = wb & !63;
    let mut beat = exp.mem.peek(base, 64);
    beat[(wb - base) as usize + 1] = 4; // error code READ_ERROR
    f.beats.push((base, beat, 0xFF << (wb - base)));
    let mut b = bench(engine, f, 6);
    let r = b.run(&scn, &exp).unwrap();
    let s = r.describe(50);
    assert!(
        s.contains(&format!(
            "memory [{:#x}, {:#x}) (2 B) in Guard guard of",
            guard.range.start,
            guard.range.start + 2
        )),
        "{s}"
    );
    assert!(s.contains("status of d0"), "{s}");
    assert!(s.contains("got done, READ_ERROR (0x401)"), "{s}");
    // PERF_WR_BYTES counted the stray bytes too, and so did the memory: no CSR mismatch
    // beyond what the model predicts.
    assert_eq!(r.mismatches.len(), 2, "{s}");
}

#[test]
fn what_an_earlier_chain_wrote_reads_as_the_fill_byte_when_the_next_is_loaded() {
    // A chain that follows a stray `next` writes a status outside every region of its
    // scenario; the next chain on the same bench must not find it there (a beat that chain
    // writes would show it as a mismatch).
    let engine = EngineConfig::new(64).unwrap();
    let scn = scenario(&engine, 7);
    let exp = scn.expect();
    let stray = 0x7000_0000;
    assert!(scn.region_of(stray).is_none());
    let mut f = perfect(engine, &scn, &exp);
    f.beats.push((stray, vec![0x01; 64], 0xFF));
    let mut b = bench(engine, f, 7);
    let r = b.run(&scn, &exp).unwrap();
    assert_eq!(r.mismatches.len(), 1, "{}", r.describe(50));
    assert_eq!(b.axi.mem.read_bytes(stray, 8), vec![0x01; 8]);
    let scn2 = scenario(&engine, 8);
    b.load(&scn2);
    assert_eq!(b.axi.mem.read_bytes(stray, 64), vec![FILL; 64]);
    // The new image is in place (its segments may overlap: the model's memory is the
    // reference), the old chain's bytes are not.
    let want = scn2.model_memory();
    for s in &scn2.image {
        let got = b.axi.mem.read_bytes(s.addr, s.data.len());
        assert!(
            got == want.peek(s.addr, s.data.len()),
            "image at {:#x}",
            s.addr
        );
    }
}
