//! Stream drivers for the ZVC compressor and decompressor: feed a tensor (or a payload) under
//! a valid/ready pattern, collect the output, check the stream protocol, never hang.

use crate::dut::{CompressorPorts, DecompressorPorts};
use crate::traffic::Traffic;

/// The testbenches' error type, also reachable here where it was first defined (callers use
/// `cdma_tb::zvc::TbError`).
pub use crate::error::TbError;

/// Elements per block (docs/FORMAT.md).
pub const BLOCK: usize = 32;

/// Packed lanes per beat for element width `elem_bits`: one worst-case block (32 elements and
/// the mask's 32/E slots), see docs/ARCHITECTURE.md.
pub fn packed_lanes(elem_bits: u32) -> usize {
    BLOCK + 32 / elem_bits as usize
}

/// What one run through a block measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunStats {
    /// 32-element blocks that went in (compressor) or came out (decompressor).
    pub blocks: u64,
    /// Packed beats that came out (compressor) or went in (decompressor).
    pub beats: u64,
    /// Clock cycles from the first cycle to the one that transferred the last output.
    pub cycles: u64,
    /// Cycles from the first to the last block transfer, inclusive (compressor: blocks in;
    /// decompressor: blocks out): the streaming rate without the pipeline's fill latency.
    pub stream_cycles: u64,
    /// Uncompressed tensor bytes.
    pub raw_bytes: u64,
    /// Payload bytes.
    pub payload_bytes: u64,
}

impl RunStats {
    /// Blocks per clock cycle while streaming (fill latency excluded).
    pub fn blocks_per_cycle(&self) -> f64 {
        self.blocks as f64 / self.stream_cycles.max(1) as f64
    }
    /// Uncompressed bytes per clock cycle.
    pub fn raw_bytes_per_cycle(&self) -> f64 {
        self.raw_bytes as f64 / self.cycles.max(1) as f64
    }
    /// Adds another run's figures (for totals).
    pub fn add(&mut self, o: &RunStats) {
        self.blocks += o.blocks;
        self.beats += o.beats;
        self.cycles += o.cycles;
        self.stream_cycles += o.stream_cycles;
        self.raw_bytes += o.raw_bytes;
        self.payload_bytes += o.payload_bytes;
    }
}

/// Compares `got` with `expected` byte for byte, naming the first difference.
pub fn compare(what: &'static str, expected: &[u8], got: &[u8]) -> Result<(), TbError> {
    if expected == got {
        return Ok(());
    }
    let offset = expected
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(got.len()));
    Err(TbError::Mismatch {
        what,
        offset,
        expected: expected.get(offset).copied(),
        got: got.get(offset).copied(),
    })
}

/// Little-endian u32 words of `bytes`, zero-padded to `words` words.
pub fn to_words(bytes: &[u8], words: usize) -> Vec<u32> {
    let mut w = vec![0u32; words];
    for (i, c) in bytes.chunks(4).enumerate() {
        let mut b = [0u8; 4];
        b[..c.len()].copy_from_slice(c);
        w[i] = u32::from_le_bytes(b);
    }
    w
}

/// Appends the first `n` bytes of the little-endian words `w` to `out`.
pub fn push_bytes(out: &mut Vec<u8>, w: &[u32], n: usize) {
    let start = out.len();
    out.extend(w.iter().flat_map(|x| x.to_le_bytes()));
    out.truncate(start + n);
}

/// Cycle budget: generous for the slowest pattern (1/8 duty on both sides), tight enough that
/// a hang is reported in seconds.
fn cycle_limit(units: usize) -> u64 {
    2_000 + 200 * units as u64
}

/// Remembers a stalled output (valid high, ready low): the next cycle must present the same
/// beat with valid still high.
#[derive(Default)]
struct HoldCheck {
    stalled: Option<(Vec<u32>, u32, bool)>,
}

impl HoldCheck {
    /// `beat` is what the output presents this cycle (`None` when `out_valid` is low).
    fn check(&mut self, ready: bool, beat: Option<&(Vec<u32>, u32, bool)>) -> Result<(), TbError> {
        if let Some(prev) = self.stalled.take() {
            match beat {
                None => {
                    return Err(TbError::Protocol(
                        "out_valid dropped while out_ready was low".into(),
                    ))
                }
                Some(b) if *b != prev => {
                    return Err(TbError::Protocol(
                        "output changed while out_ready was low".into(),
                    ))
                }
                Some(_) => {}
            }
        }
        if !ready {
            self.stalled = beat.cloned();
        }
        Ok(())
    }
}

/// The source side of a stream: offers items in order when its [`Traffic`] says so and, once
/// it has raised valid, holds the item until it is taken (the AXI-Stream rule).
struct Feeder {
    next: usize,
    len: usize,
    holding: bool,
    first_fire: Option<u64>,
}

impl Feeder {
    fn new(len: usize) -> Self {
        Feeder {
            next: 0,
            len,
            holding: false,
            first_fire: None,
        }
    }

    /// `valid` for this cycle.
    fn valid(&mut self, src: &mut Traffic) -> bool {
        self.next < self.len && (self.holding || src.next_on())
    }

    /// Whether the item on offer is the last one.
    fn is_last(&self) -> bool {
        self.next + 1 == self.len
    }

    /// Ends the cycle: advance if `valid && ready`, else keep holding what was offered.
    fn step(&mut self, valid: bool, ready: bool) -> bool {
        let fire = valid && ready;
        if fire {
            self.next += 1;
        }
        self.holding = valid && !fire;
        fire
    }
}

impl RunStats {
    /// Records a block transfer in cycle `self.cycles` for the streaming rate.
    fn block_fired(&mut self, first: &mut Option<u64>) {
        let start = *first.get_or_insert(self.cycles);
        self.stream_cycles = self.cycles + 1 - start;
    }

    /// Fails once the cycle budget is spent.
    fn check_limit(&self, limit: u64, waiting_for: impl FnOnce() -> String) -> Result<(), TbError> {
        if self.cycles < limit {
            return Ok(());
        }
        Err(TbError::Hang {
            cycles: limit,
            waiting_for: waiting_for(),
        })
    }
}

/// Streams `data` (whole elements) through a compressor and returns the payload it emitted.
///
/// `src` decides when the driver offers a block (it then holds it until accepted), `sink` when
/// it accepts a beat. Checks: output held while stalled, `out_count` in 1..=P, `out_last` on the
/// final beat only, nothing after it, every block consumed. An empty tensor is not run (the
/// payload is empty and the blocks have no way to signal zero blocks).
pub fn run_compressor<D: CompressorPorts + ?Sized>(
    dut: &mut D,
    data: &[u8],
    src: &mut Traffic,
    sink: &mut Traffic,
) -> Result<(Vec<u8>, RunStats), TbError> {
    let e = dut.elem_bits();
    let eb = e as usize / 8;
    let p = packed_lanes(e);
    let block_bytes = BLOCK * eb;
    let words_in = block_bytes / 4;
    let blocks: Vec<Vec<u32>> = data
        .chunks(block_bytes)
        .map(|c| to_words(c, words_in))
        .collect();
    let mut stats = RunStats {
        blocks: blocks.len() as u64,
        raw_bytes: data.len() as u64,
        ..Default::default()
    };
    let mut payload = Vec::new();
    if blocks.is_empty() {
        return Ok((payload, stats));
    }
    dut.reset();
    let limit = cycle_limit(blocks.len());
    let mut feed = Feeder::new(blocks.len());
    let mut done = false;
    let mut hold = HoldCheck::default();
    let idle = vec![0u32; words_in];
    while !done {
        stats.check_limit(limit, || {
            format!(
                "compressor output (blocks accepted {}/{})",
                feed.next, feed.len
            )
        })?;
        let valid = feed.valid(src);
        dut.set_in(
            blocks.get(feed.next).unwrap_or(&idle),
            feed.is_last(),
            valid,
        );
        let ready = sink.next_on();
        dut.set_out_ready(ready);
        dut.eval();
        // Output lanes are read only when valid: a wide read per cycle would dominate the run.
        let beat = dut.out_valid().then(|| dut.out_beat());
        hold.check(ready, beat.as_ref())?;
        let in_fire = valid && dut.in_ready();
        if let (Some((w, count, last)), true) = (beat, ready) {
            if count == 0 || count as usize > p {
                return Err(TbError::Protocol(format!(
                    "out_count {count} outside 1..={p}"
                )));
            }
            if !last && (count as usize) < p {
                return Err(TbError::Protocol(format!(
                    "partial beat ({count} lanes) without out_last"
                )));
            }
            push_bytes(&mut payload, &w, count as usize * eb);
            stats.beats += 1;
            done = last;
            if last && feed.next + usize::from(in_fire) < feed.len {
                return Err(TbError::Protocol(
                    "out_last before the last block went in".into(),
                ));
            }
        }
        if feed.step(valid, dut.in_ready()) {
            stats.block_fired(&mut feed.first_fire);
        }
        dut.tick();
        stats.cycles += 1;
    }
    // Nothing may follow the last beat.
    dut.set_in(&idle, false, false);
    dut.set_out_ready(true);
    for _ in 0..8 {
        dut.eval();
        if dut.out_valid() {
            return Err(TbError::Protocol("out_valid after out_last".into()));
        }
        dut.tick();
    }
    stats.payload_bytes = payload.len() as u64;
    Ok((payload, stats))
}

/// Streams `payload` through a decompressor and returns the first `n_elems` elements it
/// produced. Checks as for [`run_compressor`]; plus `out_last` on block `ceil(n/32)` exactly and
/// `error` low throughout.
pub fn run_decompressor<D: DecompressorPorts + ?Sized>(
    dut: &mut D,
    payload: &[u8],
    n_elems: usize,
    src: &mut Traffic,
    sink: &mut Traffic,
) -> Result<(Vec<u8>, RunStats), TbError> {
    let e = dut.elem_bits();
    let eb = e as usize / 8;
    let beat_bytes = packed_lanes(e) * eb;
    let n_blocks = n_elems.div_ceil(BLOCK);
    let mut stats = RunStats {
        blocks: n_blocks as u64,
        raw_bytes: (n_elems * eb) as u64,
        payload_bytes: payload.len() as u64,
        ..Default::default()
    };
    let mut out = Vec::with_capacity(n_blocks * BLOCK * eb);
    if n_blocks == 0 {
        return Ok((out, stats));
    }
    let beats = feed_beats(payload, beat_bytes, eb);
    stats.beats = beats.len() as u64;
    dut.reset();
    let limit = cycle_limit(n_blocks + beats.len());
    let mut feed = Feeder::new(beats.len());
    let mut got_blocks = 0usize;
    let mut first_out = None;
    let mut hold = HoldCheck::default();
    let idle = vec![0u32; beat_bytes / 4];
    while got_blocks < n_blocks {
        stats.check_limit(limit, || {
            format!(
                "decompressor output (blocks {got_blocks}/{n_blocks}, beats in {}/{})",
                feed.next, feed.len
            )
        })?;
        let valid = feed.valid(src);
        let (w, count) = beats.get(feed.next).map_or((&idle, 0), |(w, c)| (w, *c));
        dut.set_in(w, count, feed.is_last(), valid);
        let ready = sink.next_on();
        dut.set_out_ready(ready);
        dut.eval();
        if dut.error() {
            return Err(TbError::UnexpectedError);
        }
        let block = dut.out_valid().then(|| {
            let (w, last) = dut.out_block();
            (w, 0, last)
        });
        hold.check(ready, block.as_ref())?;
        if let (Some((ow, _, last)), true) = (block, ready) {
            stats.block_fired(&mut first_out);
            got_blocks += 1;
            push_bytes(&mut out, &ow, BLOCK * eb);
            if last != (got_blocks == n_blocks) {
                return Err(TbError::Protocol(format!(
                    "out_last={last} on block {got_blocks} of {n_blocks}"
                )));
            }
        }
        feed.step(valid, dut.in_ready());
        dut.tick();
        stats.cycles += 1;
    }
    if feed.next != feed.len {
        return Err(TbError::Protocol(format!(
            "last block out before all beats went in ({}/{})",
            feed.next, feed.len
        )));
    }
    out.truncate(n_elems * eb);
    Ok((out, stats))
}

/// Cuts a payload into packed beats: (words, valid lanes).
pub fn feed_beats(payload: &[u8], beat_bytes: usize, eb: usize) -> Vec<(Vec<u32>, u32)> {
    payload
        .chunks(beat_bytes)
        .map(|c| (to_words(c, beat_bytes / 4), (c.len() / eb) as u32))
        .collect()
}

/// Feeds a malformed (truncated) payload and checks that the decompressor raises `error`,
/// keeps accepting input (no hang) and emits no block past the data it had.
/// Returns the number of cycles until `error` rose.
pub fn expect_decompressor_error<D: DecompressorPorts + ?Sized>(
    dut: &mut D,
    payload: &[u8],
    max_blocks: usize,
    sink: &mut Traffic,
) -> Result<u64, TbError> {
    let e = dut.elem_bits();
    let eb = e as usize / 8;
    let beat_bytes = packed_lanes(e) * eb;
    let beats = feed_beats(payload, beat_bytes, eb);
    dut.reset();
    let limit = cycle_limit(beats.len() + max_blocks);
    let idle = vec![0u32; beat_bytes / 4];
    let (mut next, mut blocks) = (0usize, 0usize);
    for cycle in 0..limit {
        let valid = next < beats.len();
        let (w, count) = beats.get(next).map_or((&idle, 0), |(w, c)| (w, *c));
        dut.set_in(w, count, next + 1 == beats.len(), valid);
        let ready = sink.next_on();
        dut.set_out_ready(ready);
        dut.eval();
        if dut.error() {
            // Once in error the block must drain input (in_ready high) and go silent: only a
            // block already registered before the error may still leave, once.
            let mut late = 0;
            for _ in 0..16 {
                dut.set_in(&idle, 1, false, true);
                dut.set_out_ready(true);
                dut.eval();
                if !dut.in_ready() {
                    return Err(TbError::Protocol(
                        "after `error` the decompressor must keep in_ready high".into(),
                    ));
                }
                late += usize::from(dut.out_valid());
                if late > 1 || blocks + late > max_blocks {
                    return Err(TbError::Protocol(format!(
                        "{late} blocks out after `error` (at most the one already registered)"
                    )));
                }
                dut.tick();
            }
            return Ok(cycle);
        }
        if dut.out_valid() && ready {
            blocks += 1;
            if blocks > max_blocks {
                return Err(TbError::Protocol(format!(
                    "{blocks} blocks out of a truncated payload that holds at most {max_blocks}"
                )));
            }
        }
        if valid && dut.in_ready() {
            next += 1;
        }
        dut.tick();
    }
    Err(TbError::Hang {
        cycles: limit,
        waiting_for: "`error` on a truncated payload".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beat(x: u32) -> (Vec<u32>, u32, bool) {
        (vec![x, 0], 2, false)
    }

    #[test]
    fn hold_check_flags_dropped_or_changed_output_while_stalled() {
        let mut h = HoldCheck::default();
        // Stalled, then presented again unchanged: fine; then taken.
        h.check(false, Some(&beat(1))).unwrap();
        h.check(false, Some(&beat(1))).unwrap();
        h.check(true, Some(&beat(1))).unwrap();
        h.check(true, None).unwrap();
        // Stalled, then valid dropped.
        h.check(false, Some(&beat(2))).unwrap();
        assert!(matches!(h.check(true, None), Err(TbError::Protocol(_))));
        // Stalled, then the data changed.
        h.check(false, Some(&beat(3))).unwrap();
        assert!(matches!(
            h.check(true, Some(&beat(4))),
            Err(TbError::Protocol(_))
        ));
    }

    #[test]
    fn feeder_holds_an_offer_until_it_is_taken() {
        let mut f = Feeder::new(2);
        let mut src = Traffic::always();
        assert!(f.valid(&mut src) && !f.is_last());
        assert!(!f.step(true, false));
        // Held: valid without consulting the pattern, same item.
        assert!(f.holding && f.next == 0);
        assert!(f.step(true, true));
        assert!(f.is_last());
        let v = f.valid(&mut src);
        assert!(f.step(v, true));
        assert!(!f.valid(&mut src));
    }

    #[test]
    fn compare_names_the_first_difference() {
        assert!(compare("x", b"abc", b"abc").is_ok());
        let e = compare("x", b"abc", b"abd").unwrap_err();
        assert_eq!(
            e,
            TbError::Mismatch {
                what: "x",
                offset: 2,
                expected: Some(b'c'),
                got: Some(b'd')
            }
        );
        let e = compare("x", b"abc", b"ab").unwrap_err();
        assert!(matches!(
            e,
            TbError::Mismatch {
                offset: 2,
                got: None,
                ..
            }
        ));
    }
}
