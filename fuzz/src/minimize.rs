//! Shrinking a failure case: the smallest change to its seed frame that still makes the
//! decoder do the same thing, so a saved case shows the fault and little else.

use crate::{classify, Class, Decoder};

/// Shrinks `damaged` (a damaged copy of `seed_frame`, which holds `data`) while the decoder
/// still classifies it as `class`: extra bytes past the seed frame's length are cut, then
/// every byte that differs from the seed frame is restored where that keeps the class. Hangs
/// are returned as they are (trying variants could hang again).
pub fn minimize(
    decoder: &dyn Decoder,
    seed_frame: &[u8],
    data: &[u8],
    damaged: &[u8],
    class: Class,
) -> Vec<u8> {
    if class == Class::Hang {
        return damaged.to_vec();
    }
    let same = |f: &[u8]| classify(decoder, f, data) == class;
    let mut cur = damaged.to_vec();
    // Appended bytes: the shortest length at or above the seed frame's that keeps the class.
    if cur.len() > seed_frame.len() {
        for len in seed_frame.len()..cur.len() {
            if same(&cur[..len]) {
                cur.truncate(len);
                break;
            }
        }
    }
    // Changed bytes: restore each one that the class does not need.
    let common = cur.len().min(seed_frame.len());
    for i in 0..common {
        if cur[i] != seed_frame[i] {
            let keep = cur[i];
            cur[i] = seed_frame[i];
            if !same(&cur) {
                cur[i] = keep;
            }
        }
    }
    cur
}
