//! The campaign machinery against the golden model and against deliberately broken decoders
//! (a panic, a hang, a decoder that hides its errors), so each class is seen to be caught.

use std::sync::Arc;
use std::time::Duration;

use cdma_fuzz::seeds::{seed_frames, synthetic_sources};
use cdma_fuzz::{cases, run, Campaign, Class, Decoder, ModelDecoder, Mutation, SeedFrame};

/// Seed frames without CRCs (versions 2 and 3): what the machinery tests below damage.
fn seeds(n: usize) -> Arc<Vec<SeedFrame>> {
    Arc::new(seed_frames(&synthetic_sources(3), n, 4096, 5, false))
}

/// Seed frames with CRCs (version 4).
fn seeds_crc(n: usize) -> Arc<Vec<SeedFrame>> {
    Arc::new(seed_frames(&synthetic_sources(3), n, 4096, 5, true))
}

/// The model's decoder with its CRC checks disabled: a version 4 frame is rewritten as the
/// version 3 frame it extends (entry words kept, CRCs dropped) and decoded as such.
fn ignores_crcs(frame: &[u8]) -> Result<Vec<u8>, String> {
    if frame.len() < 32 || frame[4] != 4 {
        return cdma_model::decompress(frame).map_err(|e| e.to_string());
    }
    let n = u32::from_le_bytes(frame[8..12].try_into().unwrap()) as usize;
    let meta = 32 + 8 * n + 4;
    if frame.len() < meta {
        return Err("truncated".into());
    }
    let mut f = frame[..32].to_vec();
    f[4] = 3;
    for i in 0..n {
        f.extend_from_slice(&frame[32 + 8 * i..36 + 8 * i]);
    }
    f.extend_from_slice(&frame[meta..]);
    cdma_model::decompress(&f).map_err(|e| e.to_string())
}

fn campaign(frames: u64, threads: usize) -> Campaign {
    Campaign {
        seed: 11,
        frames,
        threads,
        hang_after: Duration::from_secs(20),
        ..Campaign::default()
    }
}

/// Where a frame differs from the seed frame in their common length.
fn diffs(a: &[u8], b: &[u8]) -> Vec<usize> {
    (0..a.len().min(b.len()))
        .filter(|&i| a[i] != b[i])
        .collect()
}

/// The model decoder with a missing bound check: it panics on a `chunk_log2` byte (header
/// offset 7) above 24 instead of refusing the frame.
fn panics_on_big_chunks(frame: &[u8]) -> Result<Vec<u8>, String> {
    if frame.len() > 7 && frame[7] > 24 {
        panic!("chunk of 2^{} bytes", frame[7]);
    }
    cdma_model::decompress(frame).map_err(|e| e.to_string())
}

#[test]
fn the_model_never_panics_or_hangs_and_every_case_is_counted() {
    let r = run(
        Arc::new(ModelDecoder),
        seeds(48),
        &campaign(20_000, 2),
        &|_| {},
    );
    assert_eq!(r.frames, 20_000);
    assert_eq!(Class::ALL.iter().map(|&c| r.count(c)).sum::<u64>(), 20_000);
    assert_eq!(r.count(Class::Panic), 0, "{:?}", r.failures.first());
    assert_eq!(r.count(Class::Hang), 0);
    for m in Mutation::ALL {
        assert!(r.of_mutation(m) > 0, "{m:?} never drawn");
    }
    // Truncation always loses bytes the header accounts for; extension adds bytes it does
    // not: the model detects both every time.
    for m in [Mutation::Truncate, Mutation::Extend] {
        let n = r.of_mutation(m);
        assert_eq!(
            r.counts.get(&(m, Class::Detected)).copied(),
            Some(n),
            "{m:?}"
        );
    }
    assert!(r.count(Class::Detected) > 0);
    assert!(r.failures.is_empty());
}

#[test]
fn counts_do_not_depend_on_the_thread_count() {
    let s = seeds(16);
    let one = run(
        Arc::new(ModelDecoder),
        s.clone(),
        &campaign(3000, 1),
        &|_| {},
    );
    let two = run(Arc::new(ModelDecoder), s, &campaign(3000, 2), &|_| {});
    assert_eq!(one.counts, two.counts);
}

#[test]
fn a_panic_is_caught_shrunk_to_its_cause_saved_and_replayed() {
    let s = seeds(32);
    let r = run(
        Arc::new(panics_on_big_chunks),
        s.clone(),
        &campaign(20_000, 2),
        &|_| {},
    );
    assert!(
        r.count(Class::Panic) > 0,
        "no header damage reached chunk_log2"
    );
    assert!(!r.failures.is_empty());
    let dir = std::env::temp_dir().join(format!("cdma-fuzz-test-{}", std::process::id()));
    for o in &r.failures {
        assert_eq!(o.class, Class::Panic);
        let (si, _, drawn) = cdma_fuzz::campaign::case(&s, 11, o.index);
        assert_eq!(o.data, s[si].data);
        assert!(o.frame.len() <= drawn.len().max(s[si].frame.len()));
        // Shrunk to the one byte that matters.
        assert_eq!(diffs(&o.frame, &s[si].frame), vec![7], "{}", o.seed_label);
        cases::save(&dir, 11, o).unwrap();
    }
    let back = cases::load(&dir).unwrap();
    assert_eq!(back.len(), r.failures.len());
    for c in &back {
        assert_eq!(c.replay(&panics_on_big_chunks), Class::Panic, "{}", c.name);
        assert!(cases::passes(c.replay(&ModelDecoder)), "{}", c.name);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hang_stops_the_campaign_and_names_its_case() {
    let hangs = |frame: &[u8]| -> Result<Vec<u8>, String> {
        if frame.len() > 7 && frame[7] > 24 {
            loop {
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        cdma_model::decompress(frame).map_err(|e| e.to_string())
    };
    let c = Campaign {
        hang_after: Duration::from_millis(500),
        ..campaign(1_000_000, 1)
    };
    let s = seeds(32);
    let r = run(Arc::new(hangs), s.clone(), &c, &|_| {});
    assert_eq!(r.count(Class::Hang), 1);
    let h = r.failures.iter().find(|o| o.class == Class::Hang).unwrap();
    assert!(h.frame[7] > 24);
    assert!(r.frames < 1_000_000, "the campaign stopped at the hang");
    // Every case before the hung one was counted.
    assert_eq!(r.counts.values().sum::<u64>(), h.index + 1);
}

#[test]
fn a_decoder_that_hides_its_errors_is_caught_corrupting_silently() {
    // Returns zeros of the header's length instead of an error.
    struct Lenient;
    impl Decoder for Lenient {
        fn decode(&self, frame: &[u8]) -> Result<Vec<u8>, String> {
            cdma_model::decompress(frame).or_else(|_| Ok(vec![0; 16]))
        }
    }
    let s = seeds(16);
    let model = run(
        Arc::new(ModelDecoder),
        s.clone(),
        &campaign(4000, 2),
        &|_| {},
    );
    let lenient = run(Arc::new(Lenient), s, &campaign(4000, 2), &|_| {});
    assert_eq!(lenient.count(Class::Detected), 0);
    assert!(lenient.count(Class::Silent) >= model.count(Class::Detected));
}

/// With CRCs no damaged frame decodes to wrong data; the same campaign against a decoder that
/// skips the CRC checks finds silent corruptions (bit flips in raw chunks, for one).
#[test]
fn with_crcs_nothing_is_silent_and_without_the_check_the_campaign_fails() {
    let s = seeds_crc(48);
    assert!(s.iter().all(|f| f.frame[4] == 4));
    let r = run(
        Arc::new(ModelDecoder),
        s.clone(),
        &campaign(20_000, 2),
        &|_| {},
    );
    assert_eq!(r.count(Class::Silent), 0);
    assert_eq!(r.count(Class::Panic) + r.count(Class::Hang), 0);
    assert!(r.count(Class::Detected) > 15_000);
    let unchecked = run(Arc::new(ignores_crcs), s, &campaign(20_000, 2), &|_| {});
    assert!(
        unchecked.count(Class::Silent) > 100,
        "{}",
        unchecked.count(Class::Silent)
    );
}

#[test]
fn saved_cases_pass_on_the_model() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let saved = cases::load(&dir).unwrap();
    assert!(!saved.is_empty(), "fuzz/cases holds the cases found so far");
    for c in &saved {
        let class = c.replay(&ModelDecoder);
        assert!(cases::passes(class), "{}: {class:?}", c.name);
    }
}
