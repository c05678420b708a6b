//! The model under traffic from the [`TestMaster`]: data, latency, backpressure, error ranges,
//! ordering, determinism and hang reports.

use super::master::{apply, bytes, random_write, run, TestMaster, WriteReq};
use crate::axi::{
    Access, AxiMemConfig, AxiMemory, AxiStats, ErrorRange, PerChannel, Resp, Stalls, PAGE_BYTES,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn bursts_of_every_length_round_trip_with_strobes_at_every_width() {
    for (bits, seed) in [(128u32, 1u64), (256, 2), (512, 3), (1024, 4)] {
        let mut cfg = AxiMemConfig::random(bits, seed);
        cfg.fill = 0xA5;
        cfg.read_latency = (0, 20);
        cfg.write_latency = (0, 20);
        let bb = cfg.bus_bytes();
        let mut mem = AxiMemory::new(cfg);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // A 64-bit base: the high address bits must survive.
        let base = 0x1234_5678_0000_0000u64;
        let region = 16 * PAGE_BYTES as usize;
        let mut shadow = vec![0xA5u8; region];
        let max = (PAGE_BYTES as usize / bb).min(256);
        let lens = [1, 2, 3, 7, 16, max - 1, max, max];
        let mut m = TestMaster::new(bb, seed);
        m.p_valid = 0.3;
        m.p_ready = 0.3;
        let mut written = 0u64;
        let mut reqs = Vec::new();
        for (k, &len) in lens.iter().enumerate() {
            let page = rng.gen_range(0..16) as u64 * PAGE_BYTES;
            let off = rng.gen_range(0..=(max - len)) * bb;
            let w = random_write(&mut rng, bb, k as u64 & 1, base + page + off as u64, len);
            apply(&mut shadow, base, &w, bb);
            written += w
                .strb
                .iter()
                .map(|s| u64::from(s.count_ones()))
                .sum::<u64>();
            m.write(&w);
            reqs.push((w.addr, len as u32));
        }
        run(&mut mem, &mut m, 100_000).unwrap();
        assert!(m.writes.iter().all(|w| w.resp == Resp::Okay));
        assert_eq!(mem.stats().bytes_written, written);
        for (k, &(addr, beats)) in reqs.iter().enumerate() {
            m.read(k as u64 & 1, addr, beats);
        }
        run(&mut mem, &mut m, 100_000).unwrap();
        for r in &m.reads {
            let off = (r.addr - base) as usize;
            assert!(r.resps.iter().all(|&x| x == Resp::Okay));
            assert!(
                r.data == shadow[off..off + r.data.len()],
                "bus {bits}: read of {} beats at {:#x} differs from what was written",
                r.beats,
                r.addr
            );
        }
        assert_eq!(mem.read_bytes(base, region), shadow, "bus {bits}: backdoor");
        // Untouched memory reads as the fill byte.
        assert_eq!(mem.read_bytes(0, 3), vec![0xA5; 3]);
        assert_eq!(
            mem.stats().r_beats,
            reqs.iter().map(|r| u64::from(r.1)).sum::<u64>()
        );
    }
}

#[test]
fn w_beats_may_precede_their_aw() {
    let mut mem = AxiMemory::new(AxiMemConfig::random(256, 9));
    let mut m = TestMaster::new(32, 9);
    m.aw_after_w = true;
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let ws: Vec<_> = (0..4)
        .map(|k| random_write(&mut rng, 32, 0, 0x8000 + k * 0x200, 16))
        .collect();
    ws.iter().for_each(|w| m.write(w));
    run(&mut mem, &mut m, 100_000).unwrap();
    for (k, w) in ws.iter().enumerate() {
        // Each AW really came after all its data.
        assert!(mem.write_log()[k].accepted > m.w_last_cycles[k]);
        let mut shadow = vec![0u8; w.data.len()];
        apply(&mut shadow, w.addr, w, 32);
        assert_eq!(mem.read_bytes(w.addr, shadow.len()), shadow);
    }
}

#[test]
fn latency_is_drawn_within_the_configured_range() {
    let mut cfg = AxiMemConfig::random(256, 5);
    cfg.stalls = Stalls::none();
    cfg.read_latency = (5, 60);
    cfg.write_latency = (3, 40);
    let mut mem = AxiMemory::new(cfg);
    let mut m = TestMaster::new(32, 5);
    // One at a time, so no request queues behind another.
    (m.max_reads, m.max_writes) = (1, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for k in 0..200u64 {
        m.read(0, k * 128, rng.gen_range(1..=4));
        m.write(&random_write(&mut rng, 32, 0, k * 128, 2));
    }
    run(&mut mem, &mut m, 100_000).unwrap();
    let lat: Vec<u64> = m.reads.iter().map(|r| r.first_r - r.ar_cycle - 1).collect();
    let (lo, hi) = (*lat.iter().min().unwrap(), *lat.iter().max().unwrap());
    assert!(
        lo >= 5 && hi <= 60,
        "read latency {lo}..={hi} outside 5..=60"
    );
    assert!(
        lo <= 8 && hi >= 57,
        "read latency {lo}..={hi} does not span 5..=60"
    );
    // The model's own record agrees with what the master saw.
    for (r, rec) in m.reads.iter().zip(mem.read_log()) {
        assert_eq!(rec.first_data, Some(r.first_r));
    }
    // B latency counts from the cycle after the last W beat (or AW, if later).
    let blat: Vec<u64> = m
        .writes
        .iter()
        .zip(&m.w_last_cycles)
        .map(|(w, &wl)| w.b_cycle - wl.max(w.aw_cycle) - 1)
        .collect();
    let (lo, hi) = (*blat.iter().min().unwrap(), *blat.iter().max().unwrap());
    assert!(
        lo >= 3 && hi <= 40,
        "write latency {lo}..={hi} outside 3..=40"
    );
    assert!(
        lo <= 6 && hi >= 37,
        "write latency {lo}..={hi} does not span 3..=40"
    );
}

/// Runs a mixed read/write load with `p` backpressure on the model and the master.
fn backpressure_run(p: f64) -> (AxiStats, TestMaster) {
    let mut cfg = AxiMemConfig::random(512, 21);
    cfg.stalls = Stalls::all(p);
    cfg.read_latency = (0, 4);
    cfg.write_latency = (0, 4);
    let mut mem = AxiMemory::new(cfg);
    let mut m = TestMaster::new(64, 21);
    m.p_ready = p;
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for k in 0..40u64 {
        m.write(&random_write(&mut rng, 64, k & 1, k * 0x400, 8));
        m.read(k & 1, k * 0x400, 8);
    }
    run(&mut mem, &mut m, 100_000).unwrap();
    (*mem.stats(), m)
}

#[test]
fn backpressure_is_seen_on_every_channel() {
    let (st, m) = backpressure_run(0.3);
    let s = st.stalls;
    assert!(s.ar > 0 && s.aw > 0 && s.w > 0, "ready stalls {s:?}");
    assert!(st.gaps.r > 0 && st.gaps.b > 0, "valid gaps {:?}", st.gaps);
    // The master's own ready drops are counted as R/B stalls.
    assert!(s.r > 0 && s.b > 0, "{s:?}");
    // And the master saw them: waits on AR/AW/W, gaps inside read bursts.
    assert!(m.waits.iter().all(|&w| w > 0), "{:?}", m.waits);
    assert!(m.reads.iter().any(|r| r.gaps > 0));
    assert_eq!([s.ar, s.aw, s.w], m.waits);
    // Control: with p = 0 nothing stalls, so the checks above can fail.
    let (st, m) = backpressure_run(0.0);
    assert_eq!(st.stalls, PerChannel::default());
    assert_eq!(st.gaps, PerChannel::default());
    assert_eq!(m.waits, [0; 3]);
    assert!(m.reads.iter().all(|r| r.gaps == 0));
}

#[test]
fn error_ranges_answer_exactly_the_overlapping_beats() {
    let mut cfg = AxiMemConfig::random(512, 3);
    cfg.fill = 0x11;
    let mut mem = AxiMemory::new(cfg);
    let old: Vec<u8> = (0..0x1000u32).map(|i| (i * 7) as u8).collect();
    mem.write_bytes(0x1000, &old);
    mem.add_error(ErrorRange::new(0x1050, 0x10C1, Resp::Slverr, Access::Read));
    mem.add_error(ErrorRange::new(0x1300, 0x1340, Resp::Decerr, Access::Both));
    mem.add_error(ErrorRange::new(0x1400, 0x1401, Resp::Slverr, Access::Write));
    let mut m = TestMaster::new(64, 3);
    m.read(0, 0x1000, 16); // 0x1000..0x1400
    m.read(1, 0x1400, 1); // write-only range there: OKAY
    run(&mut mem, &mut m, 100_000).unwrap();
    let r = &m.reads[0];
    for (i, &resp) in r.resps.iter().enumerate() {
        let want = match i {
            1..=3 => Resp::Slverr,
            12 => Resp::Decerr,
            _ => Resp::Okay,
        };
        assert_eq!(resp, want, "beat {i}");
        let got = &r.data[i * 64..(i + 1) * 64];
        if want.is_err() {
            assert_eq!(got, &[0u8; 64][..], "error beat {i} carries data");
        } else {
            assert_eq!(got, &old[i * 64..(i + 1) * 64], "beat {i}");
        }
    }
    assert_eq!(mem.read_log()[0].resp, Resp::Decerr);
    assert_eq!(m.reads[1].resps, vec![Resp::Okay]);

    // Writes: 0x1280..0x1480; beat 2 (0x1300) hits DECERR, beat 6 (0x1400) both
    // write-only range; B carries the worst, those beats keep their old bytes.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let w = WriteReq {
        id: 1,
        addr: 0x1280,
        data: bytes(&mut rng, 8 * 64),
        strb: vec![u128::from(u64::MAX); 8],
    };
    m.write(&w);
    // A read-only error range does not affect writes.
    let w2 = random_write(&mut rng, 64, 0, 0x1040, 2);
    m.write(&w2);
    run(&mut mem, &mut m, 100_000).unwrap();
    assert_eq!(m.writes[0].resp, Resp::Decerr);
    assert_eq!(m.writes[1].resp, Resp::Okay);
    for i in 0..8usize {
        let a = 0x1280 + 64 * i as u64;
        let now = mem.read_bytes(a, 64);
        let expect = if i == 2 || i == 6 {
            &old[(a - 0x1000) as usize..][..64]
        } else {
            &w.data[i * 64..][..64]
        };
        assert_eq!(now, expect, "beat {i} at {a:#x}");
    }
    let mut shadow = old[0x40..0xC0].to_vec();
    apply(&mut shadow, 0x1040, &w2, 64);
    assert_eq!(mem.read_bytes(0x1040, 128), shadow);
}

#[test]
fn outstanding_reads_complete_in_order() {
    let mut cfg = AxiMemConfig::random(256, 77);
    cfg.stalls = Stalls::all(0.1);
    let mut mem = AxiMemory::new(cfg);
    let image: Vec<u8> = bytes(&mut ChaCha8Rng::seed_from_u64(1), 0x10000);
    mem.write_bytes(0x40_0000, &image);
    let mut m = TestMaster::new(32, 77);
    m.max_reads = 8;
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut issued = Vec::new();
    for k in 0..40u64 {
        let addr = 0x40_0000 + rng.gen_range(0..16) * 0x1000 + rng.gen_range(0..64) * 32;
        let room = (0x1000 - addr % 0x1000) / 32;
        let beats = rng.gen_range(1..=room.min(16));
        m.read(k % 2, addr, beats as u32);
        issued.push((addr, beats));
    }
    let cycles = run(&mut mem, &mut m, 100_000).unwrap();
    assert!(
        m.max_reads_seen >= 4,
        "only {} reads overlapped",
        m.max_reads_seen
    );
    // Serial reads would take at least the sum of the latencies.
    let serial: u64 = mem
        .read_log()
        .iter()
        .map(|r| r.first_data.unwrap() - r.accepted)
        .sum();
    assert!(
        cycles < serial,
        "{cycles} cycles, latencies alone sum to {serial}"
    );
    for (r, &(addr, beats)) in m.reads.iter().zip(&issued) {
        assert_eq!((r.addr, u64::from(r.beats)), (addr, beats), "out of order");
        let off = (addr - 0x40_0000) as usize;
        assert_eq!(r.data, image[off..off + r.data.len()], "read at {addr:#x}");
    }
}

#[test]
fn fixed_latency_mode_takes_exactly_latency_plus_beats() {
    for beats in [1u32, 2, 16, 32] {
        let mut mem = AxiMemory::new(AxiMemConfig::fixed(1024, 100));
        let mut m = TestMaster::new(128, 0);
        m.read(0, 0x2000, beats);
        m.write(&random_write(
            &mut ChaCha8Rng::seed_from_u64(0),
            128,
            0,
            0x3000,
            beats as usize,
        ));
        run(&mut mem, &mut m, 10_000).unwrap();
        let r = &m.reads[0];
        assert_eq!(
            r.last_r - r.ar_cycle,
            100 + u64::from(beats),
            "{beats} beats"
        );
        assert_eq!(r.gaps, 0);
        let st = mem.stats();
        assert_eq!(st.read_busy_cycles, 100 + u64::from(beats));
        assert_eq!(
            st.read_utilisation(),
            f64::from(beats) / f64::from(100 + beats)
        );
        // Always ready: AW and all W beats in consecutive cycles from cycle 0, B 101
        // cycles after the last W beat.
        assert_eq!(m.w_last_cycles[0], u64::from(beats) - 1);
        assert_eq!(m.writes[0].b_cycle, m.w_last_cycles[0] + 101);
    }
}

#[test]
fn same_seed_same_run_other_seed_other_run() {
    let go = |seed| {
        let mut mem = AxiMemory::new(AxiMemConfig::random(256, seed));
        let mut m = TestMaster::new(32, 1);
        for k in 0..20u64 {
            m.read(0, k * 0x100, 8);
        }
        run(&mut mem, &mut m, 100_000).unwrap()
    };
    assert_eq!(go(1), go(1));
    assert_ne!(go(1), go(2));
}

#[test]
fn a_hang_names_what_is_outstanding() {
    let mut cfg = AxiMemConfig::fixed(256, 0);
    cfg.stalls.r = 1.0; // R never presented
    let mut mem = AxiMemory::new(cfg);
    let mut m = TestMaster::new(32, 0);
    m.read(0, 0x1000, 4);
    m.read(1, 0x2000, 4);
    let e = run(&mut mem, &mut m, 500).unwrap_err().to_string();
    assert!(e.starts_with("hang:") && e.contains("500 cycles"), "{e}");
    assert!(
        e.contains("2 read(s) outstanding (oldest: AR 0x1000 x4 beats accepted at cycle 0, 0 beat(s) returned)"),
        "{e}"
    );
    assert!(e.contains("last handshake AR at cycle 1"), "{e}");
}
