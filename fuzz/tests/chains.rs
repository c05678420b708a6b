//! Random descriptor chains with bad fields against the golden DMA model: none panics, none
//! writes a byte it may not, undamaged descriptors move the right bytes; and the checks
//! themselves see a stray write and a wrong result.

use std::collections::BTreeMap;

use cdma_fuzz::chains::{check, draw, draw_damaged_for, judge, Fault, Verdict};
use cdma_model::dma::{codes, run_chain, EngineConfig};

#[test]
fn thousands_of_chains_follow_the_rules() {
    let mut codes_seen = BTreeMap::new();
    let mut faults_seen = BTreeMap::new();
    for i in 0..1000 {
        let case = draw(7, i);
        for d in &case.descs {
            for f in &d.faults {
                *faults_seen.entry(*f).or_insert(0u32) += 1;
            }
        }
        match check(&case) {
            Verdict::Pass(errs) => {
                for e in errs {
                    *codes_seen.entry(e.name).or_insert(0u32) += 1;
                }
            }
            other => panic!("chain {i}: {other:?}"),
        }
    }
    // The faults reach every check of the engine: each error code a chain can produce
    // without timing (ABORTED needs an abort) shows up.
    for name in [
        "OK",
        "BAD_DESC",
        "UNALIGNED",
        "UNSUPPORTED",
        "READ_ERROR",
        "WRITE_ERROR",
        "BAD_HEADER",
        "BAD_INDEX",
        "BAD_PAYLOAD",
        "DST_OVERFLOW",
        "BAD_CRC",
    ] {
        assert!(
            codes_seen.contains_key(name),
            "{name} never seen: {codes_seen:?}"
        );
    }
    for f in Fault::ALL {
        assert!(faults_seen.contains_key(&f), "{f:?} never drawn");
    }
}

#[test]
fn the_same_seed_draws_the_same_chain() {
    let (a, b) = (draw(3, 11), draw(3, 11));
    assert_eq!(a.head, b.head);
    assert_eq!(
        a.descs.iter().map(|d| d.desc).collect::<Vec<_>>(),
        b.descs.iter().map(|d| d.desc).collect::<Vec<_>>()
    );
    assert_eq!(check(&a), check(&b));
}

/// A byte changed outside every allowed range, and a wrong byte in the destination of a
/// descriptor that reported OK, are both violations.
#[test]
fn stray_writes_and_wrong_results_are_caught() {
    let (mut stray, mut wrong) = (false, false);
    for i in 0..200 {
        let case = draw(5, i);
        let mut mem = case.mem.clone();
        let out = run_chain(&mut mem, case.head, &case.cfg);
        assert!(matches!(judge(&case, &out, mem.clone()), Verdict::Pass(_)));
        // A write far from every region.
        let mut m = mem.clone();
        m.load(0x5000_0000, &[0]);
        assert!(matches!(judge(&case, &out, m), Verdict::Violation(_)));
        stray = true;
        // A flipped destination byte of an undamaged descriptor that ended OK.
        let clean = case.descs.iter().all(|d| d.faults.is_empty());
        if let Some((d, _)) = case.descs.iter().zip(&out.descs).find(|(d, o)| {
            clean && o.error == codes::OK && o.bytes_written > 0 && d.faults.is_empty()
        }) {
            let mut m = mem.clone();
            let b = m.peek(d.desc.dst_addr, 1)[0];
            m.load(d.desc.dst_addr, &[b ^ 1]);
            assert!(
                matches!(judge(&case, &out, m), Verdict::Violation(_)),
                "chain {i}"
            );
            wrong = true;
        }
    }
    assert!(stray && wrong);
}

/// The RTL campaign's damaged-frame chains on the model: within the rules, every descriptor a
/// DECOMPRESS, and the CRCs catch what the frame checks alone let through.
#[test]
fn damaged_frame_chains_follow_the_rules() {
    let mut codes_seen = BTreeMap::new();
    for bb in [16u32, 128] {
        let cfg = EngineConfig::new(bb).unwrap().with_zvcx(true);
        for i in 0..150 {
            let case = draw_damaged_for(&cfg, 9, i);
            assert!(case.descs.iter().all(|d| d.faults == [Fault::Frame]));
            match check(&case) {
                Verdict::Pass(errs) => {
                    assert_eq!(errs.len(), case.descs.len(), "chain {i}: it stopped");
                    for e in errs {
                        *codes_seen.entry(e.name).or_insert(0u32) += 1;
                    }
                }
                other => panic!("chain {i}: {other:?}"),
            }
        }
    }
    for name in ["OK", "BAD_HEADER", "BAD_INDEX", "BAD_PAYLOAD", "BAD_CRC"] {
        assert!(
            codes_seen.contains_key(name),
            "{name} never seen: {codes_seen:?}"
        );
    }
}
