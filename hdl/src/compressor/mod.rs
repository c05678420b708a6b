//! `ZvcCompressor`: one 32-element block per beat in, packed ZVC payload beats out,
//! pipelined for the clock (issue 17: every register-to-register path a few LUTs deep).
//!
//! A block's lanes are its mask (`M = 32/E` lanes) then its non-zero elements, `L = M + pop`
//! lanes; blocks are packed back to back into beats of `P = 32 + M` lanes. Pipeline (one
//! block per cycle at any sparsity while `out_ready`; 10 cycles from a block to its beat):
//! 1. *Input register* (`r1`): the raw block.
//! 2. *A*: the mask (lane `i` non-zero) and the first two steps of the zero-count scan
//!    ([`ZeroScan`]: a Hillis–Steele prefix count, bit-sliced).
//! 3. *B*: scan steps 2 and 3. 4. *C*: scan step 4: every lane's number of zero elements at
//!    or below it, and the block's zero count.
//! 5. *D*: compaction network stages 0–1 ([`CompactStages`]: each non-zero element moves down
//!    by its zero count, bit `k` at stage `k`, the count travelling with it).
//! 6. *N*: network stages 2–3.
//! 7. *E*: stage 4, zero lanes cleared, the encoded block `{data, mask}`; and where it goes:
//!    the *offset* register holds the lanes already in the beat being filled, so the block
//!    brings the beat to `total = offset + L` lanes. `total ≥ P` (or the tensor's last block)
//!    closes the beat (`emits`); `total > P` leaves `total - P` lanes over.
//! 8. *F*: the encoded block rotated up by bits 0–2 of the offset ([`LaneRot`], over `P`
//!    lanes). 9. *G*: rotated by bits 3–5 too, and the lanes below the offset flagged: at and
//!    above the offset the lanes that fill the beat (`lo`), below it those of the next beat
//!    (`hi`, the block's lanes above `P - offset`).
//! 10. *Holding register* (`h`, the beat being filled) OR `lo`: when the block closes the beat,
//!     that is the beat and `h` takes `hi` (or clears); otherwise `h` takes it. A last block
//!     that overflows owes a second beat with its `total - P` leftover lanes: a last block
//!     always leaves an empty slot behind it in the pipeline (`in_ready` drops for one cycle
//!     after it), in which the leftover beat is made. Unused lanes of a partial beat are zero.
//! 11. *Output buffer*: two beat slots (`b0`, `b1`), the outputs read from the head.
//!
//! Only the offset register and the holding register feed back on themselves, through one
//! small adder and one 2:1 choice respectively; everything wide is feed-forward.
//!
//! Backpressure: every stage moves together (`adv`) while the output buffer has a free slot,
//! so a beat made this cycle always has room; `adv` and `in_ready` come from registers only
//! (no combinational path from `out_ready` into the pipeline, whose enables reach thousands of
//! flip-flops), and the two slots keep one block per cycle with an always-ready sink.
//! `in_ready` is low for one cycle after a last block.
//!
//! Simulation speed: the top's own combinational block reads the handshake inputs, so a
//! simulator (Verilator) re-runs it on every `eval()`; it only decides 1-bit controls. The
//! wide logic sits in the datapath child, which reads registers only (evaluated once per
//! clock edge), and the wide registers are [`EnReg`]s loaded straight from it.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::port_docs::PortDocs;
use crate::prims::{CompactStages, EnReg, Join, LaneAny, LaneMask, LaneRot, Thermo, ZeroScan};
use crate::steer::CNT;

mod datapath;
mod top;

use datapath::zvc_compressor_dp;
use top::zvc_compressor_top;

/// Port documentation of the compressor, in Verilog port order: the `///` comments of
/// its port fields (compressor/top.rs), the one place its ports are documented (the emitted
/// manifest and the engine's port tables read it).
pub static COMPRESSOR_PORTS: PortDocs = PortDocs::new(include_str!("top.rs"), "$name");

zvc_compressor_dp!(ZvcCompressorE8Datapath, e: 8, lg: 3, p: 36, bw: 256, pw: 288);
zvc_compressor_top!(
    /// ZVC compressor for E = 8 (P = 36 lanes of 8 bits per packed beat).
    ZvcCompressorE8, ZvcCompressorE8Datapath, p: 36, bw: 256, pw: 288
);
zvc_compressor_dp!(ZvcCompressorE16Datapath, e: 16, lg: 4, p: 34, bw: 512, pw: 544);
zvc_compressor_top!(
    /// ZVC compressor for E = 16 (P = 34 lanes of 16 bits per packed beat).
    ZvcCompressorE16, ZvcCompressorE16Datapath, p: 34, bw: 512, pw: 544
);
zvc_compressor_dp!(ZvcCompressorE32Datapath, e: 32, lg: 5, p: 33, bw: 1024, pw: 1056);
zvc_compressor_top!(
    /// ZVC compressor for E = 32 (P = 33 lanes of 32 bits per packed beat).
    ZvcCompressorE32, ZvcCompressorE32Datapath, p: 33, bw: 1024, pw: 1056
);

#[cfg(test)]
mod tests;
