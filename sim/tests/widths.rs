//! Every Verilator storage class (CData, SData, IData, QData, VlWide) round-trips bit for bit
//! through the generated shim, on the bridge's self-test top `cdma_sim_widths`.

use cdma_sim::{new_dut, CdmaSimWidths, Dir, SimError, TOPS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const NARROW: [usize; 10] = [1, 7, 8, 9, 16, 17, 32, 33, 63, 64];

fn mask(width: usize) -> u64 {
    if width == 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

/// Random words for a `width`-bit port, with garbage above the width when `dirty`.
fn random_words(rng: &mut ChaCha8Rng, width: usize, dirty: bool) -> Vec<u32> {
    let mut w: Vec<u32> = (0..width.div_ceil(32)).map(|_| rng.gen()).collect();
    let top_bits = width % 32;
    if !dirty && top_bits != 0 {
        *w.last_mut().unwrap() &= (1 << top_bits) - 1;
    }
    w
}

fn masked(w: &[u32], width: usize) -> Vec<u32> {
    let mut w = w.to_vec();
    let top_bits = width % 32;
    if top_bits != 0 {
        *w.last_mut().unwrap() &= (1 << top_bits) - 1;
    }
    w
}

fn reset(d: &mut CdmaSimWidths) {
    d.set_rst(true);
    d.tick();
    d.set_rst(false);
}

#[test]
fn typed_accessors_round_trip_every_width() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut d = CdmaSimWidths::new();
    reset(&mut d);
    for round in 0..50 {
        // Values with bits above the port width: the setters must drop exactly those.
        let v: Vec<u64> = NARROW.iter().map(|_| rng.gen()).collect();
        d.set_d1(v[0] & 1 == 1);
        d.set_d7(v[1]);
        d.set_d8(v[2]);
        d.set_d9(v[3]);
        d.set_d16(v[4]);
        d.set_d17(v[5]);
        d.set_d32(v[6]);
        d.set_d33(v[7]);
        d.set_d63(v[8]);
        d.set_d64(v[9]);
        let w65: [u32; 3] = random_words(&mut rng, 65, true).try_into().unwrap();
        let w96: [u32; 3] = random_words(&mut rng, 96, true).try_into().unwrap();
        let w1056: [u32; 33] = random_words(&mut rng, 1056, true).try_into().unwrap();
        d.set_d65(&w65);
        d.set_d96(&w96);
        d.set_d1056(&w1056);

        // Inputs read back as driven, masked to their width.
        let back = [
            u64::from(d.d1()),
            d.d7(),
            d.d8(),
            d.d9(),
            d.d16(),
            d.d17(),
            d.d32(),
            d.d33(),
            d.d63(),
            d.d64(),
        ];
        for (i, &w) in NARROW.iter().enumerate() {
            assert_eq!(back[i], v[i] & mask(w), "round {round}: d{w}");
        }
        assert_eq!(d.d65().to_vec(), masked(&w65, 65));
        assert_eq!(d.d96().to_vec(), masked(&w96, 96));
        assert_eq!(d.d1056().to_vec(), w1056.to_vec());

        // Combinational output settles on eval() alone, registers wait for the edge.
        let before = d.q1056();
        d.eval();
        let inv: Vec<u32> = w1056.iter().map(|x| !x).collect();
        assert_eq!(d.n1056().to_vec(), inv);
        assert_eq!(d.q1056(), before, "a register changed without a clock edge");

        d.tick();
        let q = [
            u64::from(d.q1()),
            d.q7(),
            d.q8(),
            d.q9(),
            d.q16(),
            d.q17(),
            d.q32(),
            d.q33(),
            d.q63(),
            d.q64(),
        ];
        for (i, &w) in NARROW.iter().enumerate() {
            assert_eq!(q[i], v[i] & mask(w), "round {round}: q{w}");
        }
        assert_eq!(d.q65().to_vec(), masked(&w65, 65));
        assert_eq!(d.q96().to_vec(), masked(&w96, 96));
        assert_eq!(d.q1056(), w1056);
        assert_eq!(d.cycles(), round + 1, "one tick is one rising edge");
    }
    assert_eq!(d.time(), 2 * 51);
}

#[test]
fn bits_above_the_width_never_reach_the_model() {
    // Verilator assumes storage bits above a port's width are 0; a reduction would see them.
    let mut d = CdmaSimWidths::new();
    d.set_d7(!0x7F);
    d.set_d33(!((1 << 33) - 1));
    d.set_d65(&[0, 0, !1]);
    d.eval();
    assert_eq!((d.or7(), d.or33(), d.or65()), (false, false, false));
    d.set_d7(0x40);
    d.set_d33(1 << 32);
    d.set_d65(&[0, 0, 1]);
    d.eval();
    assert_eq!((d.or7(), d.or33(), d.or65()), (true, true, true));
}

#[test]
fn dynamic_interface_round_trips_every_port() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut d = new_dut("cdma_sim_widths").unwrap();
    assert_eq!(d.module(), "cdma_sim_widths");
    let rst = d.port("rst").unwrap();
    d.set_u64(rst, 1).unwrap();
    d.tick();
    d.set_u64(rst, 0).unwrap();
    let inputs: Vec<_> = d
        .ports()
        .iter()
        .filter(|p| p.dir == Dir::In && p.name.starts_with('d'))
        .collect();
    assert_eq!(inputs.len(), 13);
    let mut driven = Vec::new();
    for p in &inputs {
        let w = random_words(&mut rng, p.width, false);
        d.set_words(d.port(p.name).unwrap(), &w).unwrap();
        driven.push(w);
    }
    d.tick();
    for (p, w) in inputs.iter().zip(&driven) {
        let q = d.port(&format!("q{}", &p.name[1..])).unwrap();
        let mut got = vec![0; p.words()];
        d.get_words(q, &mut got).unwrap();
        assert_eq!(&got, w, "{}", p.name);
        if p.width <= 64 {
            let expect = w.iter().rev().fold(0u64, |a, &x| (a << 32) | u64::from(x));
            assert_eq!(d.get_u64(q).unwrap(), expect);
        }
    }
}

#[test]
fn dynamic_interface_rejects_bad_calls() {
    let mut d = new_dut("cdma_sim_widths").unwrap();
    let d7 = d.port("d7").unwrap();
    let d1056 = d.port("d1056").unwrap();
    let q65 = d.port("q65").unwrap();
    assert!(matches!(d.port("nope"), Err(SimError::UnknownPort { .. })));
    assert!(matches!(
        d.set_words(d7, &[0x80]),
        Err(SimError::ValueTooWide { width: 7, .. })
    ));
    assert!(matches!(
        d.set_u64(d7, 1 << 40),
        Err(SimError::ValueTooWide { .. })
    ));
    assert!(matches!(
        d.set_words(d1056, &[0; 32]),
        Err(SimError::WordCount {
            expected: 33,
            got: 32,
            ..
        })
    ));
    assert!(matches!(
        d.set_words(q65, &[0; 3]),
        Err(SimError::NotAnInput { .. })
    ));
    assert!(matches!(d.get_u64(q65), Err(SimError::WordCount { .. })));
    assert!(matches!(
        d.get_words(999, &mut [0]),
        Err(SimError::UnknownPort { .. })
    ));
    // A rejected call changes nothing.
    d.eval();
    assert_eq!(d.get_u64(d7).unwrap(), 0);
    let err = new_dut("no_such_top").err().unwrap();
    assert!(err.to_string().contains("cdma_sim_widths"), "{err}");
}

#[test]
fn tops_list_matches_the_types() {
    let t = TOPS
        .iter()
        .find(|t| t.module == CdmaSimWidths::MODULE)
        .unwrap();
    assert_eq!(t.ports, CdmaSimWidths::PORTS);
    let d = (t.new)();
    assert_eq!(d.ports().len(), 2 + 13 + 13 + 2 + 3);
    let n = d.ports().iter().find(|p| p.name == "d1056").unwrap();
    assert_eq!((n.width, n.dir, n.words()), (1056, Dir::In, 33));
}

#[test]
fn independent_instances_do_not_share_state() {
    let mut a = CdmaSimWidths::new();
    let mut b = CdmaSimWidths::new();
    a.set_d32(0xdead_beef);
    b.set_d32(0x1234_5678);
    a.tick();
    a.tick();
    b.tick();
    assert_eq!((a.q32(), b.q32()), (0xdead_beef, 0x1234_5678));
    assert_eq!((a.time(), b.time()), (4, 2));
}

#[test]
fn input_changed_after_eval_is_what_the_edge_samples() {
    // tick() reuses the testbench's eval() as its low phase only while no input changed
    // since; a change after eval() must still be settled before the rising edge.
    let mut d = CdmaSimWidths::new();
    reset(&mut d);
    d.set_d32(0x1111_1111);
    d.set_d1056(&[7; 33]);
    d.eval();
    assert_eq!(d.n1056(), [!7; 33]);
    d.set_d32(0x2222_2222);
    d.set_d1056(&[9; 33]);
    d.tick();
    assert_eq!((d.q32(), d.q1056()), (0x2222_2222, [9; 33]));
    // And with eval() right before tick(), the edge samples the same values.
    d.set_d32(0x3333_3333);
    d.eval();
    d.tick();
    assert_eq!(d.q32(), 0x3333_3333);
    assert_eq!(d.cycles(), 2);
    // A testbench that drives the clock itself cannot desynchronise tick().
    d.set_clock(true);
    d.eval();
    d.tick();
    assert_eq!(d.cycles(), 3);
}
