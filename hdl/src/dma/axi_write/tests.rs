//! Tests of the AXI write master against a Rust AXI slave model (burst cuts, strobes, B errors,
//! backpressure, abort, address jumps), at DW = 128 and 256 (one test module per width,
//! `dw128::…`, `dw256::…`).

use super::*;
use crate::testutil::{clock_cycle, settle, XorShift64};
use std::collections::{BTreeMap, VecDeque};

/// The test set at one bus width: module `$m`, the harness and every test with the write master
/// `$ty` (`$dw` bits, `BB = 2^$lg` bytes per beat); the width-dependent expectations are derived
/// from `BB`.
macro_rules! axi_write_tests {
    ($m:ident, $ty:ident, dw: $dw:tt, lg: $lg:tt) => {
        mod $m {
            use super::*;

            const BB: u64 = 1 << $lg;

            /// Beat data for the beat at `addr`: the address in the low 64 bits and its
            /// complement in the top 64.
            fn beat_data(addr: u64) -> Bits<$dw> {
                Bits::<$dw>::from(addr) | (Bits::<$dw>::from(!addr) << ($dw - 64u64))
            }

            /// Strobes of the beat at `addr`: all bytes except on some beats (passthrough check).
            fn beat_strb(addr: u64) -> u64 {
                let all = u64::MAX >> (64 - BB);
                if (addr / BB) % 3 == 1 {
                    (0x0F0F_00FF ^ (addr & 0xFF)) & all
                } else {
                    all
                }
            }

            #[derive(Clone, Copy, Debug, PartialEq)]
            struct Aw {
                addr: u64,
                beats: u64,
            }

            /// One stream: segments `(start address, beats)`; every segment after the first is reached by a
            /// jump (its first beat `wr_jump`, the beat before it `wr_close`).
            type Stream = Vec<(u64, u64)>;

            /// Streams of one segment each.
            fn plain(streams: &[(u64, u64)]) -> Vec<Stream> {
                streams.iter().map(|s| vec![*s]).collect()
            }

            /// (address, jump, close) of each beat of a stream.
            fn stream_beats(stream: &Stream) -> Vec<(u64, bool, bool)> {
                let mut v = vec![];
                for (k, &(addr, beats)) in stream.iter().enumerate() {
                    for i in 0..beats {
                        let close = i + 1 == beats && k + 1 < stream.len();
                        // (Wrapping: a stream may run past the top of the address space.)
                        v.push((addr.wrapping_add(i * BB), k > 0 && i == 0, close));
                    }
                }
                v
            }

            struct Scenario {
                wbm: usize,
                streams: Vec<Stream>,
                wr_valid_pct: u64,
                aw_ready_pct: u64,
                w_ready_pct: u64,
                b_valid_pct: u64,
                latency: u64,
                err_range: (u64, u64),
                /// Abort at this cycle (the stream open then is cut short).
                abort_at: Option<u64>,
                seed: u64,
            }

            #[derive(Default)]
            struct Outcome {
                aws: Vec<Aw>,
                /// address -> (data, strobes) of every W beat
                mem: BTreeMap<u64, (Bits<$dw>, u64)>,
                /// (stream index, err, cycle)
                done: Vec<(usize, bool, u64)>,
                /// cycles with a W handshake
                w_cycles: Vec<u64>,
                idle_after_abort: Option<u64>,
                beats_in_after_abort: usize,
                aborted_stream: Option<usize>,
                /// Sum of `w_bytes` over the run.
                w_bytes: u64,
            }

            fn run(s: &Scenario) -> Outcome {
                let mut uut = $ty::new(s.wbm);
                uut.connect_all();
                let mut rng = XorShift64::new(s.seed);
                uut.rst.next = true;
                uut.wr_req_valid.next = false;
                uut.wr_valid.next = false;
                uut.m_axi_bvalid.next = false;
                settle(&mut uut);
                clock_cycle!(&mut uut);
                clock_cycle!(&mut uut);
                uut.rst.next = false;
                let total: u64 = s.streams.iter().flatten().map(|x| x.1).sum();
                let mut o = Outcome::default();
                // producer
                let (mut stream, mut req_sent, mut beat, mut wvalid) = (0usize, false, 0u64, false);
                // slave: AWs accepted whose W beats are not all in, W beats not yet matched to an AW
                // (AXI lets W come before its AW; this slave takes W regardless of AW), B responses
                let mut w_queue: VecDeque<(Aw, u64)> = VecDeque::new();
                let mut w_beats: VecDeque<(Bits<$dw>, u64, bool)> = VecDeque::new();
                let mut b_queue: VecDeque<(bool, u64)> = VecDeque::new();
                let mut bvalid = false;
                let mut bursts_open = 0usize; // AW accepted, B not yet taken
                let mut aborted = false;
                let mut cycle = 0u64;
                let limit = 40 * total + 2000;
                loop {
                    assert!(cycle < limit, "write master hangs (cycle {cycle})");
                    let abort_now = s.abort_at == Some(cycle);
                    if abort_now {
                        aborted = true;
                        o.aborted_stream = Some(stream);
                    }
                    uut.abort.next = abort_now;
                    // ---- producer
                    let have = stream < s.streams.len();
                    uut.wr_req_valid.next = have && !req_sent;
                    if have {
                        let beats = stream_beats(&s.streams[stream]);
                        uut.wr_req_addr.next = s.streams[stream][0].0.into();
                        if !wvalid {
                            wvalid =
                                req_sent && beat < beats.len() as u64 && rng.chance(s.wr_valid_pct);
                        }
                        let (a, jump, close) =
                            beats.get(beat as usize).copied().unwrap_or_default();
                        uut.wr_data.next = beat_data(a);
                        uut.wr_strb.next = beat_strb(a).into();
                        uut.wr_last.next = beat + 1 == beats.len() as u64;
                        uut.wr_jump.next = jump;
                        // Where the producer does not jump, the jump address must not matter.
                        uut.wr_jump_addr.next = if jump { a.into() } else { (!a).into() };
                        uut.wr_close.next = close;
                    }
                    uut.wr_valid.next = wvalid;
                    // ---- slave
                    uut.m_axi_awready.next = rng.chance(s.aw_ready_pct);
                    uut.m_axi_wready.next = rng.chance(s.w_ready_pct);
                    if !bvalid {
                        bvalid = b_queue.front().is_some_and(|b| b.1 <= cycle)
                            && rng.chance(s.b_valid_pct);
                    }
                    uut.m_axi_bvalid.next = bvalid;
                    uut.m_axi_bresp.next = (if b_queue.front().is_some_and(|b| b.0) {
                        2u64
                    } else {
                        0
                    })
                    .into();
                    uut.m_axi_bid.next = false;
                    settle(&mut uut);
                    // ---- observe
                    if uut.m_axi_awvalid.val() && uut.m_axi_awready.val() {
                        let aw = Aw {
                            addr: uut.m_axi_awaddr.val().to_u64(),
                            beats: uut.m_axi_awlen.val().to_u64() + 1,
                        };
                        assert_eq!(aw.addr % BB, 0, "unaligned AW {aw:?}");
                        assert!(aw.beats <= s.wbm as u64, "burst over WR_BURST_MAX: {aw:?}");
                        assert!(
                            (aw.addr & 0xFFF) + aw.beats * BB <= 4096,
                            "burst crosses 4 KiB: {aw:?}"
                        );
                        assert!(
                            u128::from(aw.addr) + u128::from(aw.beats * BB)
                                <= (1u128 << 64) - u128::from(BB),
                            "burst reaches the top beat of the address space: {aw:?}"
                        );
                        assert_eq!(uut.m_axi_awsize.val().to_u64(), $lg);
                        assert_eq!(uut.m_axi_awburst.val().to_u64(), 1);
                        assert_eq!(uut.m_axi_awcache.val().to_u64(), 3);
                        assert_eq!(uut.m_axi_awprot.val().to_u64(), 0);
                        assert!(!uut.m_axi_awid.val());
                        o.aws.push(aw);
                        w_queue.push_back((aw, 0));
                        bursts_open += 1;
                    }
                    o.w_bytes += uut.w_bytes.val().to_u64();
                    if uut.m_axi_wvalid.val() && uut.m_axi_wready.val() {
                        w_beats.push_back((
                            uut.m_axi_wdata.val(),
                            uut.m_axi_wstrb.val().to_u64(),
                            uut.m_axi_wlast.val(),
                        ));
                        o.w_cycles.push(cycle);
                    }
                    while !w_queue.is_empty() && !w_beats.is_empty() {
                        let (data, strb, wlast) = w_beats.pop_front().unwrap();
                        let (aw, n) = w_queue.front_mut().unwrap();
                        let a = aw.addr + *n * BB;
                        *n += 1;
                        let last = *n == aw.beats;
                        assert_eq!(wlast, last, "WLAST misplaced at {a:#x}");
                        let old = o.mem.insert(a, (data, strb));
                        assert!(old.is_none(), "address {a:#x} written twice");
                        if last {
                            let err = aw.addr >= s.err_range.0 && aw.addr < s.err_range.1;
                            b_queue.push_back((err, cycle + s.latency));
                            w_queue.pop_front();
                        }
                    }
                    if bvalid && uut.m_axi_bready.val() {
                        b_queue.pop_front();
                        bursts_open -= 1;
                        bvalid = false;
                    }
                    if uut.wr_done.val() {
                        assert!(
                            !aborted || o.aborted_stream != Some(stream),
                            "wr_done for an aborted stream"
                        );
                        assert_eq!(bursts_open, 0, "wr_done before every B");
                        assert_eq!(
                            beat,
                            stream_beats(&s.streams[stream]).len() as u64,
                            "wr_done before the last beat"
                        );
                        o.done.push((stream, uut.wr_err.val(), cycle));
                        stream += 1;
                        req_sent = false;
                        beat = 0;
                    }
                    if uut.wr_req_valid.val() && uut.wr_req_ready.val() {
                        req_sent = true;
                    }
                    if wvalid && uut.wr_ready.val() {
                        if aborted && o.idle_after_abort.is_none() {
                            o.beats_in_after_abort += 1;
                        }
                        beat += 1;
                        wvalid = false;
                    }
                    if aborted && !abort_now && uut.idle.val() && o.idle_after_abort.is_none() {
                        assert_eq!(bursts_open, 0, "idle with bursts outstanding");
                        assert!(w_queue.is_empty(), "idle with W beats owed");
                        assert!(w_beats.is_empty(), "W beats without an AW");
                        o.idle_after_abort = Some(cycle);
                        // The producer gives up the aborted stream and goes on with the next one.
                        if o.aborted_stream == Some(stream) {
                            stream += 1;
                            req_sent = false;
                            beat = 0;
                            wvalid = false;
                        }
                    }
                    let finished = stream == s.streams.len() && uut.idle.val();
                    clock_cycle!(&mut uut);
                    cycle += 1;
                    if finished {
                        break;
                    }
                }
                assert!(w_queue.is_empty() && b_queue.is_empty() && bursts_open == 0);
                assert!(w_beats.is_empty(), "W beats without an AW");
                o
            }

            /// Bursts of a stream: WR_BURST_MAX beats, cut at each 4 KiB boundary and at each jump.
            fn expected_bursts(streams: &[Stream], wbm: u64) -> Vec<Aw> {
                let mut v = vec![];
                for &(mut addr, mut beats) in streams.iter().flatten() {
                    while beats > 0 {
                        let n = beats.min(wbm).min((4096 - (addr & 0xFFF)) / BB);
                        v.push(Aw { addr, beats: n });
                        addr += n * BB;
                        beats -= n;
                    }
                }
                v
            }

            fn check_mem(o: &Outcome, streams: &[Stream]) {
                let mut want = BTreeMap::new();
                for &(addr, beats) in streams.iter().flatten() {
                    for i in 0..beats {
                        let a = addr + i * BB;
                        want.insert(a, (beat_data(a), beat_strb(a)));
                    }
                }
                assert_eq!(o.mem.len(), want.len(), "number of beats written");
                let strobed: u64 = o.mem.values().map(|v| u64::from(v.1.count_ones())).sum();
                assert_eq!(
                    o.w_bytes, strobed,
                    "w_bytes does not add up to the strobed bytes"
                );
                for (a, w) in &want {
                    assert_eq!(o.mem.get(a), Some(w), "beat at {a:#x}");
                }
            }

            #[test]
            fn bursts_cut_at_max_and_4k_with_strobes_and_errors() {
                // 0x0F80: (0x1000 - 0x0F80) / BB beats to the boundary, then bursts of 16; a
                // one-beat stream; 17 beats (16 + 1) of which the second burst gets SLVERR.
                let streams = vec![(0x0F80, 40), (0x3000, 1), (0x4000, 17), (0x5FE0, 3)];
                let s = Scenario {
                    wbm: 16,
                    streams: plain(&streams),
                    wr_valid_pct: 70,
                    aw_ready_pct: 50,
                    w_ready_pct: 60,
                    b_valid_pct: 50,
                    latency: 4,
                    err_range: (0x4000 + 16 * BB, 0x4000 + 17 * BB),
                    abort_at: None,
                    seed: 3,
                };
                let o = run(&s);
                assert_eq!(o.aws, expected_bursts(&plain(&streams), 16));
                assert_eq!(
                    o.aws[0],
                    Aw {
                        addr: 0x0F80,
                        beats: (0x1000 - 0x0F80) / BB
                    }
                );
                check_mem(&o, &plain(&streams));
                let errs: Vec<(usize, bool)> = o.done.iter().map(|d| (d.0, d.1)).collect();
                assert_eq!(errs, vec![(0, false), (1, false), (2, true), (3, false)]);
            }

            /// A stream running into the top of the address space: the bursts stop before
            /// the top beat, that beat and the wrapped ones after it are dropped, the stream
            /// ends with an error; the next stream is written normally.
            #[test]
            fn a_stream_stops_short_of_the_top_beat_with_an_error() {
                let top = 0u64.wrapping_sub(BB);
                let streams = vec![(top - 4 * BB, 7), (0x2000, 3)];
                let s = Scenario {
                    wbm: 16,
                    streams: plain(&streams),
                    wr_valid_pct: 70,
                    aw_ready_pct: 60,
                    w_ready_pct: 60,
                    b_valid_pct: 60,
                    latency: 3,
                    err_range: (0, 0),
                    abort_at: None,
                    seed: 5,
                };
                let o = run(&s);
                assert_eq!(
                    o.aws,
                    vec![
                        Aw {
                            addr: top - 4 * BB,
                            beats: 4
                        },
                        Aw {
                            addr: 0x2000,
                            beats: 3
                        }
                    ]
                );
                check_mem(&o, &plain(&[(top - 4 * BB, 4), (0x2000, 3)]));
                let errs: Vec<(usize, bool)> = o.done.iter().map(|d| (d.0, d.1)).collect();
                assert_eq!(errs, vec![(0, true), (1, false)]);
            }

            #[test]
            fn short_bursts_with_a_small_wr_burst_max() {
                let streams = vec![(0x1FC0, 9)];
                let s = Scenario {
                    wbm: 3,
                    streams: plain(&streams),
                    wr_valid_pct: 90,
                    aw_ready_pct: 30,
                    w_ready_pct: 90,
                    b_valid_pct: 90,
                    latency: 1,
                    err_range: (0, 0),
                    abort_at: None,
                    seed: 9,
                };
                let o = run(&s);
                assert_eq!(o.aws, expected_bursts(&plain(&streams), 3));
                check_mem(&o, &plain(&streams));
                assert_eq!(o.done.len(), 1);
            }

            #[test]
            fn fifo_full_stalls_the_producer() {
                // A slow W channel: the producer fills the FIFO and must be held off.
                let streams = vec![(0x2000, 90)];
                let s = Scenario {
                    wbm: 16,
                    streams: plain(&streams),
                    wr_valid_pct: 100,
                    aw_ready_pct: 100,
                    w_ready_pct: 8,
                    b_valid_pct: 100,
                    latency: 2,
                    err_range: (0, 0),
                    abort_at: None,
                    seed: 12,
                };
                let o = run(&s);
                assert_eq!(o.aws, expected_bursts(&plain(&streams), 16));
                check_mem(&o, &plain(&streams));
            }

            #[test]
            fn single_beat_streams_at_full_speed() {
                // The W side reads the entry written in the cycle before: the RAM's read-during-write.
                let streams = vec![(0x100, 1), (0x200, 1), (0x300, 2), (0x400, 1)];
                let s = Scenario {
                    wbm: 16,
                    streams: plain(&streams),
                    wr_valid_pct: 100,
                    aw_ready_pct: 100,
                    w_ready_pct: 100,
                    b_valid_pct: 100,
                    latency: 0,
                    err_range: (0, 0),
                    abort_at: None,
                    seed: 2,
                };
                let o = run(&s);
                assert_eq!(o.aws, expected_bursts(&plain(&streams), 16));
                check_mem(&o, &plain(&streams));
                assert_eq!(o.done.len(), 4);
            }

            #[test]
            fn long_stream_keeps_the_w_channel_busy() {
                let streams = vec![(0x10000, 256)];
                let s = Scenario {
                    wbm: 16,
                    streams: plain(&streams),
                    wr_valid_pct: 100,
                    aw_ready_pct: 100,
                    w_ready_pct: 100,
                    b_valid_pct: 100,
                    latency: 6,
                    err_range: (0, 0),
                    abort_at: None,
                    seed: 1,
                };
                let o = run(&s);
                check_mem(&o, &plain(&streams));
                let span = o.w_cycles.last().unwrap() - o.w_cycles[0] + 1;
                let util = o.w_cycles.len() as f64 / span as f64;
                eprintln!(
                    "write: {} W beats in {span} cycles = {util:.3} beats/cycle",
                    o.w_cycles.len()
                );
                assert!(util >= 0.95, "W utilisation {util:.3}");
                assert_eq!(span, 256, "W not one beat per cycle");
            }

            #[test]
            fn abort_completes_issued_bursts_then_idles() {
                // Aborts before the first burst closed, and with bursts in flight.
                let mut written_any = vec![];
                for (abort_at, seed) in [(30, 4), (13, 5), (45, 6)] {
                    let streams = vec![(0x0, 100), (0x8000, 5)];
                    let s = Scenario {
                        wbm: 16,
                        streams: plain(&streams),
                        wr_valid_pct: 90,
                        aw_ready_pct: 60,
                        w_ready_pct: 50,
                        b_valid_pct: 70,
                        latency: 3,
                        err_range: (0, 0),
                        abort_at: Some(abort_at),
                        seed,
                    };
                    let o = run(&s);
                    assert!(
                        o.idle_after_abort.is_some(),
                        "no idle after abort at {abort_at}"
                    );
                    assert_eq!(o.beats_in_after_abort, 0, "beat taken after abort");
                    assert_eq!(o.aborted_stream, Some(0));
                    // Only the stream after the abort completes, with correct data (FIFO flushed).
                    assert_eq!(o.done.iter().map(|d| d.0).collect::<Vec<_>>(), vec![1]);
                    let written0: Vec<u64> =
                        o.mem.keys().copied().filter(|a| *a < 0x8000).collect();
                    assert!(written0.len() < 100, "abort at {abort_at}");
                    written_any.push(!written0.is_empty());
                    // Whole bursts only, a prefix of the stream, each beat correct.
                    let n = written0.len() as u64;
                    assert_eq!(written0, (0..n).map(|i| i * BB).collect::<Vec<_>>());
                    assert_eq!(n % 16, 0, "partial burst written");
                    for a in written0 {
                        assert_eq!(o.mem[&a], (beat_data(a), beat_strb(a)));
                    }
                    for i in 0..5 {
                        let a = 0x8000 + i * BB;
                        assert_eq!(o.mem.get(&a), Some(&(beat_data(a), beat_strb(a))));
                    }
                }
                assert!(written_any.contains(&true) && written_any.contains(&false));
            }

            #[test]
            fn jumps_start_new_bursts_at_their_address() {
                // Payload at 0x1000 with one-beat "index" beats at 0x9000.. interleaved (the controller's
                // pattern), a jump back into the middle of a 4 KiB page, a jump to the beat before a
                // 4 KiB boundary, and a second stream that jumps on its second beat.
                let streams = vec![
                    vec![
                        (0x1000, 5),
                        (0x9000, 1),
                        (0x10A0, 20),
                        (0x9080, 1),
                        (0x1320, 3),
                        (0x3000 - BB, 2),
                        (0x9100, 1),
                    ],
                    vec![(0x5000, 1), (0x7000, 17)],
                ];
                for (seed, pct) in [(21, 100), (22, 60)] {
                    let s = Scenario {
                        wbm: 16,
                        streams: streams.clone(),
                        wr_valid_pct: pct,
                        aw_ready_pct: pct,
                        w_ready_pct: pct,
                        b_valid_pct: 100,
                        latency: 2,
                        err_range: (0x9080, 0x9081),
                        abort_at: None,
                        seed,
                    };
                    let o = run(&s);
                    assert_eq!(o.aws, expected_bursts(&streams, 16));
                    assert!(o.aws.contains(&Aw {
                        addr: 0x9080,
                        beats: 1
                    }));
                    check_mem(&o, &streams);
                    let errs: Vec<(usize, bool)> = o.done.iter().map(|d| (d.0, d.1)).collect();
                    assert_eq!(errs, vec![(0, true), (1, false)]);
                }
            }
        }
    };
}

axi_write_tests!(dw128, AxiWriteMasterDw128, dw: 128, lg: 4);
axi_write_tests!(dw256, AxiWriteMasterDw256, dw: 256, lg: 5);
