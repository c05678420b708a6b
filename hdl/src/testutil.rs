//! Test support shared by the blocks' rust-hdl simulator tests: a straightforward reference
//! encoder written from docs/FORMAT.md, the project's deterministic PRNG
//! (`cdma_model::rng::XorShift64`, re-exported) and a clocking helper.

use rust_hdl::core::prelude::*;

pub use cdma_model::rng::XorShift64;

/// A block of 32 elements of `e` bits, each zero with probability `zero_pct` percent.
pub fn random_block(rng: &mut XorShift64, e: u32, zero_pct: u64) -> Vec<u64> {
    (0..32)
        .map(|_| {
            if rng.chance(zero_pct) {
                0
            } else {
                // Non-zero and full-width: force a high bit or bit 0 at random.
                let v = rng.next() & ((1u64 << e) - 1);
                if v == 0 {
                    1 << (e - 1)
                } else {
                    v
                }
            }
        })
        .collect()
}

/// The payload of one tensor as a list of E-bit lanes (docs/FORMAT.md): per block the 32-bit
/// mask as `32/E` little-endian lanes, then the non-zero elements in order.
pub fn reference_lanes(blocks: &[Vec<u64>], e: u32) -> Vec<u64> {
    let mut out = vec![];
    for b in blocks {
        let mask: u64 = b
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(i, _)| 1u64 << i)
            .sum();
        for j in 0..(32 / e) {
            out.push((mask >> (j * e)) & ((1u64 << e) - 1));
        }
        out.extend(b.iter().copied().filter(|v| *v != 0));
    }
    out
}

/// The payload beats of one tensor: `(lanes padded with zeros to P, count, last)`.
pub fn reference_beats(blocks: &[Vec<u64>], e: u32) -> Vec<(Vec<u64>, usize, bool)> {
    let p = 32 + 32 / e as usize;
    let lanes = reference_lanes(blocks, e);
    let n = lanes.chunks(p).count();
    lanes
        .chunks(p)
        .enumerate()
        .map(|(i, c)| {
            let mut v = c.to_vec();
            v.resize(p, 0);
            (v, c.len(), i + 1 == n)
        })
        .collect()
}

/// Packs `lanes` (each `< 2^E`) into a bus, lane `i` at bits `[i*E +: E]`.
pub fn to_bus<const N: usize>(lanes: &[u64], e: usize) -> Bits<N> {
    let mut b = Bits::<N>::default();
    for v in lanes.iter().rev() {
        b = (b << e as u64) | *v;
    }
    b
}

/// Splits a bus into `n` lanes of `e` bits.
pub fn from_bus<const N: usize>(b: Bits<N>, e: usize, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| match e {
            8 => b.get_bits::<8>(i * 8).to_u64(),
            16 => b.get_bits::<16>(i * 16).to_u64(),
            32 => b.get_bits::<32>(i * 32).to_u64(),
            _ => unreachable!("element width"),
        })
        .collect()
}

/// A test's AXI-style stream source over `len` items: `valid` rises at random and, once
/// high, holds until the item is taken; `next` is the index of the item on offer.
pub struct Source {
    /// Index of the item on offer (`len` when all were taken).
    pub next: usize,
    /// `valid` this cycle.
    pub valid: bool,
    len: usize,
}

impl Source {
    /// A source of `len` items, not valid yet.
    pub fn new(len: usize) -> Self {
        Source {
            next: 0,
            valid: false,
            len,
        }
    }
    /// This cycle's `valid`: held while an item waits, else raised with probability `pct`
    /// percent (one `rng` draw only when an item is left and `valid` is low).
    pub fn offer(&mut self, rng: &mut XorShift64, pct: u64) -> bool {
        self.valid = self.next < self.len && (self.valid || rng.chance(pct));
        self.valid
    }
    /// The item on offer, to drive the data ports (`None` when all were taken).
    pub fn current(&self) -> Option<usize> {
        (self.next < self.len).then_some(self.next)
    }
    /// After settling: the item on offer was taken if `valid` and `ready`.
    pub fn handshake(&mut self, ready: bool) {
        if self.valid && ready {
            self.next += 1;
            self.valid = false;
        }
    }
    /// Every item was taken.
    pub fn done(&self) -> bool {
        self.next == self.len
    }
}

/// Settles the combinational logic, panicking if it does not converge.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 10_000), "circuit did not settle");
}

/// One clock cycle of a rust-hdl block with a `clock` input: rising edge, settle, falling
/// edge, settle. A macro because the blocks are distinct macro-generated types.
macro_rules! clock_cycle {
    ($uut:expr) => {{
        $uut.clock.next = Clock { clk: true };
        settle($uut);
        $uut.clock.next = Clock { clk: false };
        settle($uut);
    }};
}

/// A fresh, connected ZVC block held in synchronous reset for two cycles with its handshakes
/// idle, then released (`rst` low, not yet settled).
macro_rules! reset_block {
    ($ty:ty) => {{
        let mut uut = <$ty>::default();
        uut.connect_all();
        uut.rst.next = true;
        uut.in_valid.next = false;
        uut.out_ready.next = false;
        settle(&mut uut);
        clock_cycle!(&mut uut);
        clock_cycle!(&mut uut);
        uut.rst.next = false;
        uut
    }};
}

/// End of a stream test: with `out_ready` high and every listed input `valid` low, the block
/// emits nothing more for `cycles` cycles (no beat left behind, none invented).
macro_rules! assert_no_more_output {
    ($uut:expr, $cycles:expr, [$($valid:ident),* $(,)?]) => {{
        $uut.out_ready.next = true;
        $($uut.$valid.next = false;)*
        for _ in 0..$cycles {
            settle(&mut $uut);
            assert!(!$uut.out_valid.val(), "extra output beat");
            clock_cycle!(&mut $uut);
        }
    }};
}

pub(crate) use {assert_no_more_output, clock_cycle, reset_block};
