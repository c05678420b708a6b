//! Tests of the AXI read master against a Rust AXI slave model (4 KiB splits, order, errors,
//! abort), at DW = 128 and 256 (one test module per width, `dw128::…`, `dw256::…`).

use super::*;
use crate::testutil::{clock_cycle, settle, XorShift64};
use std::collections::VecDeque;

/// The test set at one bus width: module `$m`, the harness and every test with the read master
/// `$ty` (`$dw` bits, `BB = 2^$lg` bytes per beat); the width-dependent expectations are derived
/// from `BB`.
macro_rules! axi_read_tests {
    ($m:ident, $ty:ident, dw: $dw:tt, lg: $lg:tt) => {
        mod $m {
            use super::*;

            const BB: u64 = 1 << $lg;

            /// The address recorded for a beat the master made up itself (data 0, `rd_err`:
            /// a beat at or past the top of the address space); no bus beat is at an odd
            /// address.
            const GENERATED: u64 = 1;

            /// Beat data the slave returns for the beat at `addr`: the address in the low 64 bits
            /// and its complement in the top 64, so order and identity are both visible.
            fn beat_data(addr: u64) -> Bits<$dw> {
                Bits::<$dw>::from(addr) | (Bits::<$dw>::from(!addr) << ($dw - 64u64))
            }

            /// One AR as the slave saw it.
            #[derive(Clone, Copy, Debug, PartialEq)]
            struct Ar {
                addr: u64,
                beats: u64,
            }

            /// A scenario: requests, handshake probabilities, slave latency, SLVERR address range,
            /// and an optional abort cycle.
            struct Scenario {
                rif: usize,
                reqs: Vec<(u64, u64)>,
                ar_ready_pct: u64,
                r_valid_pct: u64,
                rd_ready_pct: u64,
                latency: u64,
                err_range: (u64, u64),
                abort_at: Option<u64>,
                seed: u64,
            }

            /// What the harness observed.
            #[derive(Default)]
            struct Outcome {
                ars: Vec<Ar>,
                /// (address of the beat, rd_last, rd_err, cycle)
                beats: Vec<(u64, bool, bool, u64)>,
                max_outstanding: usize,
                /// Cycle at which `idle` was seen after the abort (if any).
                idle_after_abort: Option<u64>,
                /// ARs first presented after the abort cycle (must be 0).
                ars_after_abort: usize,
                cycles: u64,
            }

            fn run(s: &Scenario) -> Outcome {
                let mut uut = $ty::new(s.rif);
                uut.connect_all();
                let mut rng = XorShift64::new(s.seed);
                uut.rst.next = true;
                uut.rd_req_valid.next = false;
                uut.m_axi_rvalid.next = false;
                settle(&mut uut);
                clock_cycle!(&mut uut);
                clock_cycle!(&mut uut);
                uut.rst.next = false;
                let total: u64 = s.reqs.iter().map(|r| r.1).sum();
                let mut o = Outcome::default();
                // Slave state: accepted bursts (AR, cycle data may start), beat index in the front.
                let mut pending: VecDeque<(Ar, u64)> = VecDeque::new();
                let mut beat = 0u64;
                let mut rvalid = false;
                let mut outstanding = 0usize; // AR accepted, RLAST not yet taken
                let mut req = 0;
                let mut cycle = 0u64;
                let mut aborted = false;
                // The AR on the bus this cycle is a new one (none was pending after the last edge).
                let mut ar_fresh = true;
                let limit = 40 * total + 2000;
                loop {
                    assert!(cycle < limit, "read master hangs (cycle {cycle})");
                    let abort_now = s.abort_at == Some(cycle);
                    aborted |= abort_now;
                    uut.abort.next = abort_now;
                    uut.rd_req_valid.next = req < s.reqs.len() && !aborted;
                    if req < s.reqs.len() {
                        uut.rd_req_addr.next = s.reqs[req].0.into();
                        uut.rd_req_beats.next = s.reqs[req].1.into();
                    }
                    uut.m_axi_arready.next = rng.chance(s.ar_ready_pct);
                    // R: once valid, held until taken (AXI).
                    if !rvalid {
                        rvalid = pending.front().is_some_and(|(_, t)| *t <= cycle)
                            && rng.chance(s.r_valid_pct);
                    }
                    uut.m_axi_rvalid.next = rvalid;
                    if let Some((ar, _)) = pending.front() {
                        let a = ar.addr + beat * BB;
                        uut.m_axi_rdata.next = beat_data(a);
                        uut.m_axi_rlast.next = beat + 1 == ar.beats;
                        let err = a >= s.err_range.0 && a < s.err_range.1;
                        uut.m_axi_rresp.next = (if err { 2u64 } else { 0 }).into();
                        uut.m_axi_rid.next = false;
                    }
                    uut.rd_ready.next = rng.chance(s.rd_ready_pct);
                    settle(&mut uut);
                    // ---- observe this cycle's handshakes
                    if uut.m_axi_arvalid.val() && ar_fresh && aborted && !abort_now {
                        o.ars_after_abort += 1;
                    }
                    ar_fresh = !uut.m_axi_arvalid.val() || uut.m_axi_arready.val();
                    if uut.m_axi_arvalid.val() {
                        // An AR presented counts as outstanding for the limit.
                        o.max_outstanding = o.max_outstanding.max(outstanding + 1);
                        assert!(outstanding < s.rif, "more than {} bursts in flight", s.rif);
                    }
                    if uut.m_axi_arvalid.val() && uut.m_axi_arready.val() {
                        let ar = Ar {
                            addr: uut.m_axi_araddr.val().to_u64(),
                            beats: uut.m_axi_arlen.val().to_u64() + 1,
                        };
                        assert_eq!(ar.addr % BB, 0, "unaligned AR {ar:?}");
                        assert!(ar.beats <= 256, "burst over 256 beats: {ar:?}");
                        assert!(
                            (ar.addr & 0xFFF) + ar.beats * BB <= 4096,
                            "burst crosses 4 KiB: {ar:?}"
                        );
                        assert!(
                            ar.addr.checked_add(ar.beats * BB).is_some(),
                            "burst reaches the top beat: {ar:?}"
                        );
                        assert_eq!(uut.m_axi_arsize.val().to_u64(), $lg);
                        assert_eq!(uut.m_axi_arburst.val().to_u64(), 1);
                        assert_eq!(uut.m_axi_arcache.val().to_u64(), 3);
                        assert_eq!(uut.m_axi_arprot.val().to_u64(), 0);
                        assert!(!uut.m_axi_arid.val());
                        o.ars.push(ar);
                        pending.push_back((ar, cycle + s.latency));
                        outstanding += 1;
                    }
                    if rvalid && uut.m_axi_rready.val() {
                        let (ar, _) = *pending.front().unwrap();
                        beat += 1;
                        if beat == ar.beats {
                            pending.pop_front();
                            beat = 0;
                            outstanding -= 1;
                        }
                        rvalid = false;
                    }
                    if uut.rd_valid.val() && uut.rd_ready.val() {
                        assert!(!aborted, "beat delivered after abort");
                        let d = uut.rd_data.val();
                        let mut a = d.get_bits::<64>(0).to_u64();
                        if d == Bits::<$dw>::from(0u64) {
                            assert!(uut.rd_err.val(), "a beat of zeros without an error");
                            a = GENERATED;
                        } else {
                            assert_eq!(d, beat_data(a), "corrupted beat");
                        }
                        o.beats
                            .push((a, uut.rd_last.val(), uut.rd_err.val(), cycle));
                    }
                    if uut.rd_req_valid.val() && uut.rd_req_ready.val() {
                        req += 1;
                    }
                    if aborted && !abort_now && uut.idle.val() && o.idle_after_abort.is_none() {
                        assert_eq!(outstanding, 0, "idle with bursts outstanding");
                        assert!(!uut.m_axi_arvalid.val());
                        o.idle_after_abort = Some(cycle);
                    }
                    let done = if s.abort_at.is_some() {
                        o.idle_after_abort.is_some()
                    } else {
                        o.beats.len() as u64 == total && uut.idle.val()
                    };
                    clock_cycle!(&mut uut);
                    cycle += 1;
                    if done {
                        break;
                    }
                }
                o.cycles = cycle;
                o
            }

            /// The bursts a request must become: to each 4 KiB boundary, then the rest.
            fn expected_bursts(reqs: &[(u64, u64)]) -> Vec<Ar> {
                let mut v = vec![];
                for &(mut addr, mut beats) in reqs {
                    while beats > 0 {
                        let n = beats.min((4096 - (addr & 0xFFF)) / BB);
                        v.push(Ar { addr, beats: n });
                        addr += n * BB;
                        beats -= n;
                    }
                }
                v
            }

            fn expected_beats(reqs: &[(u64, u64)], err: (u64, u64)) -> Vec<(u64, bool, bool)> {
                let mut v = vec![];
                for &(addr, beats) in reqs {
                    for i in 0..beats {
                        let a = addr + i * BB;
                        v.push((a, i + 1 == beats, a >= err.0 && a < err.1));
                    }
                }
                v
            }

            fn strip(b: &[(u64, bool, bool, u64)]) -> Vec<(u64, bool, bool)> {
                b.iter().map(|x| (x.0, x.1, x.2)).collect()
            }

            #[test]
            fn splits_at_4k_keeps_order_under_backpressure_with_an_error() {
                // 0x0FC0: (0x1000 - 0x0FC0) / BB beats to the boundary, then whole pages of
                // 4096 / BB beats (256 at 128 bits: the AXI limit); a 0-beat request does
                // nothing.
                let reqs = vec![
                    (0x0FC0, 300),
                    (0x2000, 1),
                    (0x5000, 0),
                    (0x2F60, 7),
                    (0x7000, 3),
                ];
                let s = Scenario {
                    rif: 3,
                    reqs: reqs.clone(),
                    ar_ready_pct: 50,
                    r_valid_pct: 70,
                    rd_ready_pct: 60,
                    latency: 6,
                    err_range: (0x2F80, 0x2FA0),
                    abort_at: None,
                    seed: 11,
                };
                let o = run(&s);
                assert_eq!(o.ars, expected_bursts(&reqs));
                assert_eq!(
                    o.ars[0],
                    Ar {
                        addr: 0x0FC0,
                        beats: (0x1000 - 0x0FC0) / BB
                    }
                );
                assert!(o.ars.contains(&Ar {
                    addr: 0x1000,
                    beats: 4096 / BB
                }));
                assert_eq!(strip(&o.beats), expected_beats(&reqs, s.err_range));
                assert!(o.beats.iter().any(|b| b.2), "no error beat exercised");
                assert_eq!(o.max_outstanding, 3, "never reached READS_IN_FLIGHT");
            }

            #[test]
            fn a_request_stops_short_of_the_top_beat_with_errors() {
                // The top beat is at 2^64 - BB: a request from 3 beats below it for 6 beats
                // reads those 3 (one burst, ending before the top beat), then delivers 3 error
                // beats (the top beat and two that would wrap to 0) of its own; the next
                // request still works. A request at the top beat itself reads nothing; one in
                // the top page that ends before the top beat is read whole.
                let top = 0u64.wrapping_sub(BB);
                for (rif, seed) in [(1, 3), (4, 4)] {
                    let reqs = vec![
                        (top - 3 * BB, 6),
                        (0x3000, 2),
                        (top, 2),
                        (top - 0x800, 4),
                        (top - 2 * BB, 2),
                    ];
                    let s = Scenario {
                        rif,
                        reqs: reqs.clone(),
                        ar_ready_pct: 60,
                        r_valid_pct: 70,
                        rd_ready_pct: 60,
                        latency: 4,
                        err_range: (0, 0),
                        abort_at: None,
                        seed,
                    };
                    let o = run(&s);
                    let ars = vec![
                        Ar {
                            addr: top - 3 * BB,
                            beats: 3,
                        },
                        Ar {
                            addr: 0x3000,
                            beats: 2,
                        },
                        Ar {
                            addr: top - 0x800,
                            beats: 4,
                        },
                        Ar {
                            addr: top - 2 * BB,
                            beats: 2,
                        },
                    ];
                    assert_eq!(o.ars, ars);
                    let g = |last| (GENERATED, last, true);
                    let mut want = vec![
                        (top - 3 * BB, false, false),
                        (top - 2 * BB, false, false),
                        (top - BB, false, false),
                        g(false),
                        g(false),
                        g(true),
                        (0x3000, false, false),
                        (0x3000 + BB, true, false),
                        g(false),
                        g(true),
                    ];
                    want.extend(expected_beats(&reqs[3..], (0, 0)));
                    assert_eq!(strip(&o.beats), want);
                }
            }

            #[test]
            fn full_rate_across_requests() {
                // Back-to-back requests of 40 beats each, memory latency 8 cycles: with 4 bursts in
                // flight the data never stops.
                let reqs: Vec<(u64, u64)> = (0..6).map(|i| (0x10000 + i * 0x1000, 40)).collect();
                let s = Scenario {
                    rif: 4,
                    reqs: reqs.clone(),
                    ar_ready_pct: 100,
                    r_valid_pct: 100,
                    rd_ready_pct: 100,
                    latency: 8,
                    err_range: (0, 0),
                    abort_at: None,
                    seed: 1,
                };
                let o = run(&s);
                assert_eq!(strip(&o.beats), expected_beats(&reqs, (0, 0)));
                let span = o.beats.last().unwrap().3 - o.beats[0].3 + 1;
                let rate = o.beats.len() as f64 / span as f64;
                eprintln!(
                    "read: {} beats in {span} cycles = {rate:.3} beats/cycle",
                    o.beats.len()
                );
                assert_eq!(span, 240, "read data not one beat per cycle");
            }

            #[test]
            fn abort_drains_outstanding_bursts_then_idles() {
                // Several abort moments (ARs being issued or not, beats waiting or not); 16 bursts in
                // flight, so the AR channel is busy when the abort comes.
                for (abort_at, seed) in [(40, 5), (9, 6), (14, 7), (5, 8)] {
                    let s = Scenario {
                        rif: 16,
                        reqs: vec![(0x0, 2000)],
                        ar_ready_pct: 80,
                        r_valid_pct: 60,
                        rd_ready_pct: 50,
                        latency: 5,
                        err_range: (0, 0),
                        abort_at: Some(abort_at),
                        seed,
                    };
                    let o = run(&s);
                    assert!(o.idle_after_abort.is_some());
                    assert!(o.beats.len() < 2000);
                    // Only an AR already presented at the abort may still be taken; none is new.
                    assert_eq!(o.ars_after_abort, 0, "AR issued after abort at {abort_at}");
                    assert_eq!(
                        strip(&o.beats),
                        expected_beats(&[(0, 2000)], (0, 0))[..o.beats.len()].to_vec()
                    );
                }
            }
        }
    };
}

axi_read_tests!(dw128, AxiReadMasterDw128, dw: 128, lg: 4);
axi_read_tests!(dw256, AxiReadMasterDw256, dw: 256, lg: 5);
