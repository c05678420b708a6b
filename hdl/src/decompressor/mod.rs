//! `ZvcDecompressor`: packed ZVC payload beats in, one 32-element block per cycle out,
//! pipelined for the clock (issue 17: every register-to-register path a few LUTs deep).
//!
//! A block is its mask (`M = 32/E` lanes) then its non-zero elements, `L = M + pop ≤ P`
//! lanes, packed back to back into beats of `P = 32 + M` lanes. The one serial dependency,
//! where the next block starts, is `start + M + popcount(mask at start)`: a wide shift and a
//! popcount if done on the fly. Here it is split up:
//! 1. [`Repack`]: input beats of any count (1..P) become full beats of `P` lanes (only a
//!    tensor's last beat may be partial), so a block lies in at most two consecutive beats.
//!    Three stages (one rotation in two registered halves) and an output register.
//! 2. [`Window`]: per beat, for every start lane `j` the lane where a block starting there
//!    ends, and so where the next block starts ([`BeatTable`], three stages; a beat waits for
//!    the next beat's first lanes when its last `M - 1` entries need them); a 4-beat queue;
//!    a stage where each entry learns from the beat behind it whether the next block is the
//!    last to start in its beat (`nn`), and a register of that finished table (`nn`'s
//!    lookup, `P` entries reading every `pp` bit, split on either side of it); the *loop*:
//!    a start-lane register `s` and a copy of the head beat's table, the next start a table
//!    lookup, dropping the head beat (decided a block ahead, from `nn`) when the next block
//!    starts in a later beat.
//! 3. The block pipeline, one block per cycle: *X0* the two beats the block lies in, its start
//!    and end (truncation and the tensor's last block are decided here); *X1* its mask and its
//!    lanes shifted by `8·⌊s/8⌋ + M` ([`BlockExtract`]); *X2* the remaining `s mod 8` lanes:
//!    its stored elements, and the zero-count scan of the mask begins ([`ZeroScan`], steps
//!    0–1); *X3* steps 2–3; *X4* step 4; *X5*, *X6* the counts compacted like the elements
//!    were, giving each stored element its distance ([`ExpandSteer`]); *X7* expansion stages
//!    4–3 ([`ExpandStages`]); stages 2–0 and the clearing of unmasked lanes on the way into
//! 4. the *output buffer*: two block slots, the outputs read from the head.
//!
//! Latency: 20 cycles from a beat taken to its first block out when nothing stalls (the
//! unpipelined decompressor took 2). Throughput: one block per cycle at any sparsity; a
//! tensor's last input beat leaves one idle input cycle behind it, and when its last block
//! straddles two beats the loop spends one cycle dropping the used-up beat.
//!
//! Backpressure: the block pipeline (X0..X7) moves while the output buffer has a free slot,
//! the input side while the beat queue has room; both decisions come from registers, so
//! `in_ready` depends on registers and `rst` only, never on `out_ready`. X0 has a skid slot,
//! so that the loop waits on that slot only, not on the block pipeline's stall.
//!
//! Errors (`error`, sticky until `rst`): a beat's `in_count` 0 or `> P`; a block that ends
//! past its tensor's last lane, or whose mask does (truncated payload); with
//! `with_zero_check`, a stored element that is zero. The input side is then cleared and every
//! beat is taken and dropped (`in_ready` high), so a bad stream never hangs its source; the
//! blocks ahead of the faulty one still come out (for the zero check, the faulty block too,
//! with `error` already high).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::port_docs::PortDocs;
use crate::prims::{EnReg, ExpandStages, ExpandSteer, LaneAny, Mux2, Thermo, ZeroScan};
use crate::steer::CNT;

mod finish;
mod lanes;
mod repack;
mod table;
mod top;
mod window;

use lanes::BlockExtract;
use repack::Repack;
#[cfg(doc)]
use table::BeatTable;
use top::zvc_decompressor_top;
use window::Window;

/// Port documentation of the decompressor, in Verilog port order: the `///` comments of
/// its port fields (decompressor/top.rs), the one place its ports are documented (the
/// emitted manifest and the engine's port tables read it).
pub static DECOMPRESSOR_PORTS: PortDocs = PortDocs::new(include_str!("top.rs"), "$name");

zvc_decompressor_top!(
    /// ZVC decompressor for E = 8 (P = 36 lanes of 8 bits per packed beat).
    ZvcDecompressorE8, e: 8, p: 36, bw: 256, pw: 288, bpw: 144, sw: 288, tw: 576, ww: 576,
    hw: 312
);
zvc_decompressor_top!(
    /// ZVC decompressor for E = 16 (P = 34 lanes of 16 bits per packed beat).
    ZvcDecompressorE16, e: 16, p: 34, bw: 512, pw: 544, bpw: 272, sw: 272, tw: 544, ww: 1088,
    hw: 624
);
zvc_decompressor_top!(
    /// ZVC decompressor for E = 32 (P = 33 lanes of 32 bits per packed beat).
    ZvcDecompressorE32, e: 32, p: 33, bw: 1024, pw: 1056, bpw: 528, sw: 264, tw: 528,
    ww: 2112, hw: 1248
);

#[cfg(test)]
mod tests;
