//! The master against the register file: round trips, errors, hangs and slave rule breaks.

use super::regfile::RegFile;
use crate::axi::Resp;
use crate::axil::{AxiLiteMaster, LiteAccess, LiteConfig, LiteSlaveSignals};
use crate::error::TbError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Bench {
    m: AxiLiteMaster,
    rf: RegFile,
}

impl LiteAccess for Bench {
    fn lite(&mut self) -> &mut AxiLiteMaster {
        &mut self.m
    }
}

fn cycle(b: &mut Bench) -> Result<(), TbError> {
    let m = *b.m.drive();
    let s = b.rf.outputs();
    b.m.sample(&s)?;
    b.rf.update(&m);
    Ok(())
}

#[test]
fn writes_and_reads_round_trip_with_strobes_and_delays() {
    for seed in 0..8u64 {
        let p = if seed == 0 { 0.0 } else { 0.5 };
        let mut b = Bench {
            m: AxiLiteMaster::new(LiteConfig::random(seed, p)),
            rf: RegFile::new(seed + 100, p),
        };
        let mut shadow = [0u32; 16];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..50 {
            let i = rng.gen_range(0..16);
            let (v, strb) = (rng.gen::<u32>(), rng.gen_range(0..16u8));
            let resp = b.lite_write_strb(4 * i, v, strb, 200, cycle).unwrap();
            assert_eq!(resp, Resp::Okay);
            let mask = (0..4)
                .filter(|k| strb >> k & 1 != 0)
                .fold(0u32, |m, k| m | 0xFF << (8 * k));
            shadow[i as usize] = shadow[i as usize] & !mask | v & mask;
            let j = rng.gen_range(0..16);
            let got = b.lite_read(4 * j, 200, cycle).unwrap();
            assert_eq!(got, (shadow[j as usize], Resp::Okay), "seed {seed} reg {j}");
        }
        assert_eq!(b.rf.regs, shadow);
        assert!(!b.m.busy());
    }
}

#[test]
fn error_responses_are_returned() {
    let mut b = Bench {
        m: AxiLiteMaster::new(LiteConfig::random(1, 0.3)),
        rf: RegFile::new(2, 0.3),
    };
    assert_eq!(b.lite_write(0x100, 1, 200, cycle).unwrap(), Resp::Slverr);
    assert_eq!(b.lite_write(0x900, 1, 200, cycle).unwrap(), Resp::Decerr);
    assert_eq!(b.lite_read(0x44, 200, cycle).unwrap(), (0, Resp::Slverr));
    assert_eq!(b.lite_read(0xFFC, 200, cycle).unwrap(), (0, Resp::Decerr));
}

#[test]
fn a_hang_is_an_error_that_names_the_missing_handshake() {
    let mut b = Bench {
        m: AxiLiteMaster::new(LiteConfig::always()),
        rf: RegFile::new(0, 0.0),
    };
    b.rf.mute = true;
    let e = b.lite_write(0x8, 5, 100, cycle).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, TbError::Hang { cycles: 100, .. }), "{text}");
    assert!(
        text.contains("AXI-Lite write 0x008 <- 0x00000005"),
        "{text}"
    );
    assert!(text.contains("waiting for BVALID"), "{text}");
    // A slave that never takes the address.
    let mut b = Bench {
        m: AxiLiteMaster::new(LiteConfig::always()),
        rf: RegFile::new(0, 0.0),
    };
    b.rf.r = Some((0, Resp::Okay)); // busy: ARREADY stays low
    b.rf.mute = true;
    let e = b.lite_read(0x8, 50, cycle).unwrap_err().to_string();
    assert!(e.contains("waiting for ARREADY"), "{e}");
}

#[test]
fn early_bvalid_from_the_slave_is_a_protocol_error() {
    let mut b = Bench {
        m: AxiLiteMaster::new(LiteConfig::always()),
        rf: RegFile::new(0, 0.0),
    };
    // Control: the same slave without the bug passes.
    b.lite_write(0, 1, 100, cycle).unwrap();
    // Bug: B right after AW, while W is still held off.
    (b.rf.early_b, b.rf.hold_w) = (true, true);
    let e = b.lite_write(0, 1, 1000, cycle).unwrap_err().to_string();
    assert!(
        e.contains("BVALID before the slave accepted both AW and W"),
        "{e}"
    );
}

#[test]
fn responses_that_are_dropped_changed_or_unsolicited_are_protocol_errors() {
    let ok = LiteSlaveSignals {
        awready: true,
        wready: true,
        arready: true,
        ..Default::default()
    };
    // Unsolicited.
    let mut m = AxiLiteMaster::new(LiteConfig::always());
    m.drive();
    let e = m
        .sample(&LiteSlaveSignals { rvalid: true, ..ok })
        .unwrap_err();
    assert!(
        e.to_string().contains("RVALID with no read in flight"),
        "{e}"
    );
    // RVALID dropped / RDATA changed while RREADY is low: find cycles where the random
    // master holds RREADY low.
    for (next, want) in [
        (
            LiteSlaveSignals {
                rvalid: false,
                ..ok
            },
            "RVALID dropped before RREADY",
        ),
        (
            LiteSlaveSignals {
                rvalid: true,
                rdata: 2,
                ..ok
            },
            "R changed from 0x1/Okay to 0x2/Okay",
        ),
    ] {
        let mut m = AxiLiteMaster::new(LiteConfig::random(4, 0.7));
        m.start_read(0x10);
        let mut ar_done = false;
        let mut hit = false;
        for _ in 0..200 {
            let out = *m.drive();
            if ar_done && !out.rready {
                m.sample(&LiteSlaveSignals {
                    rvalid: true,
                    rdata: 1,
                    ..ok
                })
                .unwrap();
                m.drive();
                let e = m.sample(&next).unwrap_err().to_string();
                assert!(e.contains(want), "{e}");
                hit = true;
                break;
            }
            ar_done |= out.arvalid;
            m.sample(&ok).unwrap();
        }
        assert!(hit, "RREADY never low");
    }
}
