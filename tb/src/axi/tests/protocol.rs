//! The protocol checks, one rule per test, driven by scripted master signals.

use crate::axi::{AxiMemConfig, AxiMemory, Channel, MasterSignals, Resp, Violation, ViolationKind};

/// Master signals with both response readies high and nothing valid.
fn idle(bb: usize) -> MasterSignals {
    MasterSignals {
        wdata: vec![0; bb],
        rready: true,
        bready: true,
        ..Default::default()
    }
}

fn ar(bb: usize, addr: u64, len: u64, size: u64, burst: u64) -> MasterSignals {
    MasterSignals {
        arvalid: true,
        araddr: addr,
        arlen: len,
        arsize: size,
        arburst: burst,
        ..idle(bb)
    }
}

fn aw(bb: usize, addr: u64, len: u64) -> MasterSignals {
    MasterSignals {
        awvalid: true,
        awaddr: addr,
        awlen: len,
        awsize: u64::from(bb.trailing_zeros()),
        awburst: 1,
        ..idle(bb)
    }
}

fn w(bb: usize, byte: u8, last: bool) -> MasterSignals {
    MasterSignals {
        wvalid: true,
        wdata: vec![byte; bb],
        wstrb: u128::MAX >> (128 - bb),
        wlast: last,
        ..idle(bb)
    }
}

fn step(mem: &mut AxiMemory, m: &MasterSignals) -> Result<(), Violation> {
    mem.drive();
    mem.sample(m)
}

/// Steps idle cycles until B or the last R beat is taken; returns the responses seen.
fn drain(mem: &mut AxiMemory) -> (Vec<Resp>, Vec<Vec<u8>>, Option<Resp>) {
    let (mut r, mut data, mut b) = (Vec::new(), Vec::new(), None);
    for _ in 0..1000 {
        let s = mem.drive().clone();
        if s.rvalid {
            r.push(s.rresp);
            data.push(s.rdata.clone());
        }
        if s.bvalid {
            b = Some(s.bresp);
        }
        mem.sample(&idle(mem.bus_bytes())).unwrap();
        if mem.is_idle() {
            break;
        }
    }
    (r, data, b)
}

fn expect(r: Result<(), Violation>, kind: ViolationKind, ch: Channel, text: &str) {
    let v = r.expect_err("violation expected");
    assert_eq!((v.kind, v.channel), (kind, ch), "{v}");
    assert!(v.to_string().contains(text), "{v:?} does not say {text:?}");
}

fn fast(bits: u32) -> AxiMemory {
    AxiMemory::new(AxiMemConfig::fixed(bits, 0))
}

#[test]
fn reset_bus_drops_what_is_in_flight_and_keeps_memory() {
    let mut mem = AxiMemory::new(AxiMemConfig::fixed(256, 5));
    mem.write_bytes(0x100, &[9; 32]);
    step(&mut mem, &ar(32, 0x100, 3, 5, 1)).unwrap();
    step(&mut mem, &aw(32, 0x200, 1)).unwrap();
    step(&mut mem, &w(32, 1, false)).unwrap();
    assert!(!mem.is_idle());
    mem.reset_bus();
    assert!(mem.is_idle());
    mem.check_idle().unwrap();
    // Nothing of the old read comes back; the half-written burst stays half written.
    for _ in 0..20 {
        assert!(!mem.drive().rvalid);
        mem.sample(&idle(32)).unwrap();
    }
    assert_eq!(mem.read_bytes(0x100, 32), vec![9; 32]);
    assert_eq!(mem.read_bytes(0x200, 64), [[1u8; 32], [0; 32]].concat());
}

#[test]
fn burst_crossing_4k_is_caught_and_answered_with_slverr() {
    let mut mem = fast(512);
    // 0xF80 + 2 x 64 = 0x1000 exactly: legal.
    step(&mut mem, &ar(64, 0xF80, 1, 6, 1)).unwrap();
    let (r, _, _) = drain(&mut mem);
    assert_eq!(r, vec![Resp::Okay; 2]);
    let e = step(&mut mem, &ar(64, 0xFC0, 1, 6, 1));
    expect(
        e,
        ViolationKind::Crosses4K,
        Channel::Ar,
        "crosses a 4 KiB boundary",
    );
    let (r, data, _) = drain(&mut mem);
    assert_eq!(r, vec![Resp::Slverr; 2]);
    assert!(data.iter().all(|d| d.iter().all(|&b| b == 0)));
    // Same rule on AW; the burst is not written and B is SLVERR.
    let e = step(&mut mem, &aw(64, 0x1FC0, 1));
    expect(e, ViolationKind::Crosses4K, Channel::Aw, "0x1fc0");
    step(&mut mem, &w(64, 0xEE, false)).unwrap();
    step(&mut mem, &w(64, 0xEE, true)).unwrap();
    let (_, _, b) = drain(&mut mem);
    assert_eq!(b, Some(Resp::Slverr));
    assert_eq!(mem.read_bytes(0x1FC0, 128), vec![0; 128]);
}

#[test]
fn axlen_over_255_is_caught() {
    let mut mem = fast(32);
    step(&mut mem, &ar(4, 0, 255, 2, 1)).unwrap();
    let e = step(&mut mem, &ar(4, 0x2000, 256, 2, 1));
    expect(
        e,
        ViolationKind::LenTooLarge,
        Channel::Ar,
        "ARLEN 256 above 255",
    );
}

#[test]
fn axsize_other_than_the_bus_width_is_caught() {
    let mut mem = fast(256);
    let e = step(&mut mem, &ar(32, 0, 0, 4, 1));
    expect(
        e,
        ViolationKind::BadSize,
        Channel::Ar,
        "ARSIZE 4 (16 bytes)",
    );
    let mut m = aw(32, 0, 0);
    m.awsize = 6;
    expect(
        step(&mut mem, &m),
        ViolationKind::BadSize,
        Channel::Aw,
        "AWSIZE 6",
    );
}

#[test]
fn fixed_and_wrap_bursts_are_rejected() {
    let mut mem = fast(256);
    let e = step(&mut mem, &ar(32, 0, 3, 5, 0));
    expect(e, ViolationKind::BadBurst, Channel::Ar, "FIXED");
    let mut m = aw(32, 0, 3);
    m.awburst = 2;
    expect(
        step(&mut mem, &m),
        ViolationKind::BadBurst,
        Channel::Aw,
        "WRAP",
    );
}

#[test]
fn unaligned_address_is_caught() {
    let mut mem = fast(512);
    let e = step(&mut mem, &ar(64, 0x1008, 0, 6, 1));
    expect(e, ViolationKind::Unaligned, Channel::Ar, "ARADDR 0x1008");
    expect(
        step(&mut mem, &aw(64, 0x20, 0)),
        ViolationKind::Unaligned,
        Channel::Aw,
        "AWADDR 0x20",
    );
}

/// A 256-bit memory after an AW of `len + 1` beats at 0 and W beats `1, 2, …` (each beat's
/// bytes its number) with the given `WLAST`s: what each W step returned, and the B response.
fn framed_write(len: u64, lasts: &[bool]) -> (AxiMemory, Vec<Result<(), Violation>>, Option<Resp>) {
    let mut mem = fast(256);
    step(&mut mem, &aw(32, 0, len)).unwrap();
    let steps = (1u8..)
        .zip(lasts)
        .map(|(byte, &last)| step(&mut mem, &w(32, byte, last)))
        .collect();
    let (_, _, b) = drain(&mut mem);
    (mem, steps, b)
}

#[test]
fn wlast_before_the_last_beat_is_caught() {
    let (_, mut steps, b) = framed_write(3, &[false, true]);
    expect(
        steps.pop().unwrap(),
        ViolationKind::WlastEarly,
        Channel::W,
        "WLAST on beat 2 of a 4-beat burst",
    );
    steps[0].clone().unwrap();
    assert_eq!(b, Some(Resp::Slverr));
}

#[test]
fn wlast_missing_on_the_last_beat_is_caught() {
    let (_, mut steps, _) = framed_write(1, &[false, false]);
    expect(
        steps.pop().unwrap(),
        ViolationKind::WlastMissing,
        Channel::W,
        "WLAST missing on the last beat (2)",
    );
    steps[0].clone().unwrap();
}

#[test]
fn more_w_beats_than_announced_are_caught_and_dropped() {
    let (mem, mut steps, b) = framed_write(1, &[false, false, true]);
    expect(
        steps.pop().unwrap(),
        ViolationKind::ExtraWBeats,
        Channel::W,
        "beat 3 of a 2-beat burst",
    );
    steps[0].clone().unwrap();
    steps[1].clone().unwrap_err();
    assert_eq!(b, Some(Resp::Slverr));
    // The two announced beats landed, the extra one did not.
    assert_eq!(
        mem.read_bytes(0, 96),
        [[1u8; 32], [2; 32], [0; 32]].concat()
    );
}

#[test]
fn valid_dropped_before_ready_is_caught() {
    let mut cfg = AxiMemConfig::fixed(256, 0);
    cfg.stalls.ar = 1.0;
    let mut mem = AxiMemory::new(cfg);
    let a = ar(32, 0x100, 0, 5, 1);
    step(&mut mem, &a).unwrap();
    step(&mut mem, &a).unwrap(); // held: fine
    let e = step(&mut mem, &idle(32));
    expect(
        e,
        ViolationKind::ValidDropped,
        Channel::Ar,
        "ARVALID dropped before ARREADY",
    );
}

#[test]
fn address_changed_while_stalled_is_caught() {
    let mut cfg = AxiMemConfig::fixed(256, 0);
    cfg.stalls.aw = 1.0;
    let mut mem = AxiMemory::new(cfg);
    step(&mut mem, &aw(32, 0x100, 0)).unwrap();
    let e = step(&mut mem, &aw(32, 0x140, 0));
    expect(e, ViolationKind::PayloadChanged, Channel::Aw, "addr: 320");
}

#[test]
fn w_data_changed_or_dropped_while_stalled_is_caught() {
    let mut cfg = AxiMemConfig::fixed(256, 0);
    cfg.stalls.w = 1.0;
    let mut mem = AxiMemory::new(cfg);
    step(&mut mem, &w(32, 5, true)).unwrap();
    step(&mut mem, &w(32, 5, true)).unwrap();
    let mut changed = w(32, 5, true);
    changed.wdata[9] = 6;
    let e = step(&mut mem, &changed);
    expect(
        e,
        ViolationKind::PayloadChanged,
        Channel::W,
        "data lane Some(9)",
    );
    let e = step(&mut mem, &idle(32));
    expect(e, ViolationKind::ValidDropped, Channel::W, "WVALID dropped");
}

#[test]
fn w_beats_without_an_aw_are_reported_at_the_end() {
    let mut mem = fast(256);
    // W first is legal ...
    step(&mut mem, &w(32, 7, true)).unwrap();
    drain(&mut mem);
    // ... but never getting an AW is not.
    let e = mem.check_idle();
    expect(
        e,
        ViolationKind::NotIdle,
        Channel::W,
        "1 W beat(s) received without an AW",
    );
    // A late AW still claims it.
    step(&mut mem, &aw(32, 0x40, 0)).unwrap();
    let (_, _, b) = drain(&mut mem);
    assert_eq!(b, Some(Resp::Okay));
    assert_eq!(mem.read_bytes(0x40, 32), vec![7; 32]);
    mem.check_idle().unwrap();
    // An AW left without data is reported too.
    step(&mut mem, &aw(32, 0x80, 0)).unwrap();
    expect(
        mem.check_idle(),
        ViolationKind::NotIdle,
        Channel::Aw,
        "waiting for W data",
    );
}
