//! The CRC unit against the golden model's CRC32C (`cdma_model::layout::crc32c`): messages of
//! random lengths, back to back or with idle cycles, continued messages and a first beat with
//! leading lanes that are not part of the message; and its emitted Verilog against its
//! rust-hdl simulation.

use rust_hdl::core::prelude::*;

use super::math::{unshift, INIT};
use super::*;
use crate::prims::bits_of;
use crate::prims::verilog_check::{check, record, recording};
use crate::testutil::{clock_cycle, settle, XorShift64};

/// One message: its bytes, the state it starts from, and how many leading lanes of its first
/// beat are not its own (cleared, compensated by the initial state).
struct Message {
    bytes: Vec<u8>,
    init: u32,
    lead: usize,
}

impl Message {
    /// The raw state the unit must report: CRC32C's state from the model, and for a message
    /// that starts from another state the difference by linearity (the state difference
    /// carried over the message's length of zero bytes).
    fn expected(&self) -> u32 {
        let from_init = cdma_model::layout::crc32c(&self.bytes) ^ INIT;
        from_init ^ super::math::advance(self.init ^ INIT, &vec![0; self.bytes.len()])
    }
}

macro_rules! run_fn {
    ($fname:ident, $ty:ty, $dw:expr) => {
        /// Streams `msgs` through the unit (`idle_pct` of the cycles without a beat) and
        /// returns the states it reported, in order. With `keep_tail` a message's last beat
        /// waits while a partial one's state has not left (the unit's rule of use).
        fn $fname(msgs: &[Message], idle_pct: u64, seed: u64, keep_tail: bool) -> Vec<u32> {
            const BB: usize = $dw / 8;
            let mut rng = XorShift64::new(seed);
            let mut uut = <$ty>::default();
            uut.connect_all();
            uut.rst.next = true;
            uut.in_valid.next = false;
            settle(&mut uut);
            clock_cycle!(&mut uut);
            clock_cycle!(&mut uut);
            uut.rst.next = false;
            // The beats: (lanes, count, first, last, init, message).
            let mut beats = vec![];
            for (k, m) in msgs.iter().enumerate() {
                let mut lanes = vec![0u8; m.lead];
                lanes.extend_from_slice(&m.bytes);
                let n = lanes.len().div_ceil(BB).max(1);
                for b in 0..n {
                    let part = &lanes[(b * BB).min(lanes.len())..((b + 1) * BB).min(lanes.len())];
                    beats.push((part.to_vec(), part.len(), b == 0, b + 1 == n, m.init, k));
                }
            }
            let mut got = vec![];
            let mut i = 0;
            let mut tail = 0;
            // The partial message whose state has not left yet.
            let mut partial: Option<usize> = None;
            while i < beats.len() || tail < latency_max(BB) + 2 {
                if partial.is_some_and(|k| got.len() > k) {
                    partial = None;
                }
                let wait = keep_tail && partial.is_some() && i < beats.len() && beats[i].3;
                let go = i < beats.len() && !wait && !rng.chance(idle_pct);
                uut.in_valid.next = go;
                if i < beats.len() {
                    let (lanes, cnt, first, last, init, k) = &beats[i];
                    if go && *last && *cnt < BB {
                        partial = Some(*k);
                    }
                    // Garbage past the count: the unit must ignore it.
                    let mut full = lanes.clone();
                    full.resize(BB, 0xA5);
                    uut.in_data.next = bits_of::<$dw>(&full);
                    uut.in_cnt.next = (*cnt as u64).into();
                    uut.in_first.next = *first;
                    uut.in_last.next = *last;
                    uut.in_init.next = u64::from(*init).into();
                } else {
                    tail += 1;
                }
                settle(&mut uut);
                record(&uut);
                if uut.out_valid.val() {
                    got.push(uut.out_crc.val().to_u64() as u32);
                }
                if go {
                    i += 1;
                }
                clock_cycle!(&mut uut);
            }
            got
        }
    };
}

run_fn!(run128, Crc32cBeatDw128, 128);
run_fn!(run256, Crc32cBeatDw256, 256);
run_fn!(run512, Crc32cBeatDw512, 512);
run_fn!(run1024, Crc32cBeatDw1024, 1024);

fn run(dw: usize, msgs: &[Message], idle_pct: u64, seed: u64) -> Vec<u32> {
    run_with(dw, msgs, idle_pct, seed, true)
}

fn run_with(dw: usize, msgs: &[Message], idle_pct: u64, seed: u64, keep_tail: bool) -> Vec<u32> {
    match dw {
        128 => run128(msgs, idle_pct, seed, keep_tail),
        256 => run256(msgs, idle_pct, seed, keep_tail),
        512 => run512(msgs, idle_pct, seed, keep_tail),
        _ => run1024(msgs, idle_pct, seed, keep_tail),
    }
}

/// Messages of every length class: one byte, under a beat, whole beats, a beat and a byte,
/// long ones; most start from CRC32C's initial state, some continue from another state.
fn messages(rng: &mut XorShift64, bb: usize, n: usize) -> Vec<Message> {
    (0..n)
        .map(|i| {
            let len = match i % 6 {
                0 => 1,
                1 => 1 + (rng.next() % (bb as u64 - 1)) as usize,
                2 => bb * (1 + (rng.next() % (3)) as usize),
                3 => bb + 1,
                4 => 1 + (rng.next() % (8 * bb as u64)) as usize,
                _ => bb - 1,
            };
            let bytes = (0..len).map(|_| rng.next() as u8).collect();
            let init = if i % 5 == 4 { rng.next() as u32 } else { INIT };
            Message {
                bytes,
                init,
                lead: 0,
            }
        })
        .collect()
}

#[test]
fn every_length_at_every_width_matches_the_model() {
    for dw in [128, 256, 512, 1024] {
        let bb = dw / 8;
        for (seed, idle) in [(1u64, 0u64), (2, 40)] {
            let mut rng = XorShift64::new(seed * 31 + dw as u64);
            let msgs = messages(&mut rng, bb, 24);
            let got = run(dw, &msgs, idle, seed);
            let want: Vec<u32> = msgs.iter().map(Message::expected).collect();
            assert_eq!(got.len(), msgs.len(), "dw {dw}: one state per message");
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "dw {dw}, seed {seed}, message {k} ({} bytes)",
                    msgs[k].bytes.len()
                );
            }
        }
    }
}

/// Full messages end on every cycle (one-beat chunks at 1024 bits) and each state leaves 2
/// cycles after its beat; a partial message's state leaves within `latency_max`.
#[test]
fn full_messages_back_to_back_and_the_tail_bound() {
    for dw in [128, 256, 1024] {
        let bb = dw / 8;
        let mut rng = XorShift64::new(11);
        let msg = |len: usize, rng: &mut XorShift64| Message {
            bytes: (0..len).map(|_| rng.next() as u8).collect(),
            init: INIT,
            lead: 0,
        };
        let msgs: Vec<Message> = (0..8).map(|_| msg(bb, &mut rng)).collect();
        let got = run(dw, &msgs, 0, 1);
        let want: Vec<u32> = msgs.iter().map(Message::expected).collect();
        assert_eq!(got, want, "dw {dw}: one-beat messages back to back");
        // One byte: the longest pad, taken back within the bound (the run's tail is the
        // bound plus 2 cycles; the state must be there).
        let one = [msg(1, &mut rng)];
        assert_eq!(
            run(dw, &one, 0, 2),
            [one[0].expected()],
            "dw {dw}: a 1-byte message"
        );
    }
    assert_eq!(
        (latency_max(16), latency_max(32), latency_max(128)),
        (17, 18, 24)
    );
}

/// Breaking the rule of use: a message that ends while a partial one is still unshifted cuts
/// that one short (its state is wrong) but every message still gives one state, in order.
#[test]
fn a_message_ending_in_the_tail_cuts_it_short_and_nothing_is_lost() {
    for dw in [128, 1024] {
        let bb = dw / 8;
        let mut rng = XorShift64::new(13);
        let msgs: Vec<Message> = [bb - 1, bb, bb, 1, bb]
            .iter()
            .map(|&len| Message {
                bytes: (0..len).map(|_| rng.next() as u8).collect(),
                init: INIT,
                lead: 0,
            })
            .collect();
        let got = run_with(dw, &msgs, 0, 1, false);
        let want: Vec<u32> = msgs.iter().map(Message::expected).collect();
        assert_eq!(got.len(), msgs.len(), "dw {dw}: one state per message");
        assert_ne!(
            got[0], want[0],
            "dw {dw}: the partial message was cut short"
        );
        assert_eq!(got[1..3], want[1..3], "dw {dw}: the full messages after it");
        assert_eq!(got[4], want[4], "dw {dw}: the last message");
    }
}

/// The metadata CRC's first beat: the frame header's 32 bytes share the beat with the index
/// at 512 and 1024 bits. The user clears them and starts from `unshift(INIT, 32)`.
#[test]
fn leading_lanes_cleared_and_compensated() {
    for dw in [512, 1024] {
        let mut rng = XorShift64::new(9);
        let bytes: Vec<u8> = (0..300).map(|_| rng.next() as u8).collect();
        let msgs = [Message {
            bytes: bytes.clone(),
            init: unshift(INIT, 32),
            lead: 32,
        }];
        let got = run(dw, &msgs, 0, 3);
        assert_eq!(got, [cdma_model::layout::crc32c(&bytes) ^ INIT], "dw {dw}");
    }
}

#[test]
fn verilog_matches_rust_simulation() {
    // 512 bits: the first width with a leading-lane message; 128: the smallest.
    for dw in [128, 512] {
        let mut rng = XorShift64::new(5);
        let msgs = messages(&mut rng, dw / 8, 12);
        let trace = recording(|| {
            run(dw, &msgs, 30, 7);
        });
        check(&crc_block(dw), &trace);
    }
}
