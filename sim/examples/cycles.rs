//! Bridge throughput: cycles per second of the Verilated E=32 compressor and decompressor in
//! complete testbench loops, always-valid source, always-ready sink.
//!
//! `cargo run --release -p cdma-sim --example cycles [-- CYCLES [SEED]]`
//!
//! Compressor: every cycle drives the 1024-bit `in_data` and `in_last`, `eval()`, samples
//! `in_ready` / `out_valid`, reads the 1056-bit `out_data` and `out_count`, `tick()`. The
//! packed output is checked word for word against a ZVC reference computed here (per pool
//! block, before the timed loop), so the figure is for correct, fully observed simulation.
//!
//! Decompressor: the packed payload of the whole pool (one tensor, `in_last` on its final
//! beat, repeated) is fed beat by beat the same way (1056-bit `in_data`, `in_count`,
//! `in_last`); every decoded block is checked against the pool.
//!
//! A last figure runs the same bridge calls (1056-bit input, eval, two 1-bit and one
//! 1056-bit output read, tick) on the bridge's tiny self-test top `cdma_sim_widths`: the
//! ceiling the bridge itself allows, i.e. how much of the first figures is the design.

use std::time::Instant;

use cdma_sim::{CdmaSimWidths, CdmaZvcCompressorE32, CdmaZvcDecompressorE32};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Distinct random blocks cycled through (precomputed so the RNG is not in the timed loop).
const POOL: usize = 4096;

/// Lanes of a packed E=32 beat.
const P: usize = 33;

/// Expected-word FIFO of the compressor check: a power-of-two ring (a `VecDeque` costs more
/// per word than the model does per cycle). Far larger than the words in flight.
const RING: usize = 1 << 16;

/// ZVC encoding of one block: the mask word, then the non-zero elements in order.
fn encode(block: &[u32; 32]) -> Vec<u32> {
    let mask = block
        .iter()
        .enumerate()
        .fold(0u32, |m, (i, &x)| m | (u32::from(x != 0) << i));
    std::iter::once(mask)
        .chain(block.iter().copied().filter(|&x| x != 0))
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let cycles: u64 = match args.next().map(|a| a.parse()) {
        None => 20_000_000,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: cycles [CYCLES>0 [SEED]]");
            std::process::exit(2);
        }
    };
    let seed: u64 = match args.next().map(|a| a.parse()) {
        None => 1,
        Some(Ok(s)) => s,
        Some(Err(_)) => {
            eprintln!("usage: cycles [CYCLES>0 [SEED]]");
            std::process::exit(2);
        }
    };

    // Random sparsity per block (0 %, 25 %, 50 %, 75 %, 100 % zeros) so the packer sees every
    // alignment; non-zero elements are random non-zero words.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let pool: Vec<[u32; 32]> = (0..POOL)
        .map(|_| {
            let p_zero = f64::from(rng.gen_range(0..=4u32)) / 4.0;
            std::array::from_fn(|_| {
                if rng.gen_bool(p_zero) {
                    0
                } else {
                    rng.gen_range(1..=u32::MAX)
                }
            })
        })
        .collect();

    let mut c = CdmaZvcCompressorE32::new();
    c.set_rst(true);
    c.tick();
    c.set_rst(false);
    c.set_out_ready(true);
    c.set_in_valid(true);

    let enc: Vec<Vec<u32>> = pool.iter().map(encode).collect();
    let mut ring = vec![0u32; RING];
    let (mut head, mut tail) = (0usize, 0usize);
    let mut beat = [0u32; 33];
    let (mut sent, mut beats, mut words_out) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for _ in 0..cycles {
        let idx = (sent % POOL as u64) as usize;
        c.set_in_data(&pool[idx]);
        // A "tensor" is 1 M blocks, so the end-of-tensor flush is exercised too.
        c.set_in_last(sent % (1 << 20) == (1 << 20) - 1);
        c.eval();
        if c.in_ready() {
            for &w in &enc[idx] {
                ring[tail % RING] = w;
                tail += 1;
            }
            sent += 1;
        }
        if c.out_valid() {
            c.out_data_into(&mut beat);
            let n = c.out_count() as usize;
            for (lane, &w) in beat[..n].iter().enumerate() {
                if head == tail || ring[head % RING] != w {
                    eprintln!("MISMATCH in beat {beats}, lane {lane}: got {w:#010x}");
                    std::process::exit(1);
                }
                head += 1;
            }
            beats += 1;
            words_out += n as u64;
        }
        c.tick();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "cdma_zvc_compressor_e32: {cycles} cycles in {secs:.3} s = {:.2} M cycles/s",
        cycles as f64 / secs / 1e6
    );
    println!(
        "  {sent} blocks in ({:.3} blocks/cycle), {beats} beats / {words_out} words out, \
         all checked against the reference ({} words in flight)",
        sent as f64 / cycles as f64,
        tail - head
    );
    decompressor(cycles, &pool, &enc);
    bridge_ceiling(cycles, &pool);
}

/// The decompressor fed the pool's packed payload (one tensor, repeated), every decoded block
/// checked against the pool.
fn decompressor(cycles: u64, pool: &[[u32; 32]], enc: &[Vec<u32>]) {
    let stream: Vec<u32> = enc.iter().flatten().copied().collect();
    let beats: Vec<([u32; 33], u64, bool)> = stream
        .chunks(P)
        .enumerate()
        .map(|(i, ch)| {
            let mut b = [0u32; 33];
            b[..ch.len()].copy_from_slice(ch);
            (b, ch.len() as u64, (i + 1) * P >= stream.len())
        })
        .collect();
    let mut d = CdmaZvcDecompressorE32::new();
    d.set_rst(true);
    d.tick();
    d.set_rst(false);
    d.set_out_ready(true);
    d.set_in_valid(true);
    let mut out = [0u32; 32];
    let (mut fed, mut blocks) = (0usize, 0u64);
    let start = Instant::now();
    for _ in 0..cycles {
        let (data, count, last) = &beats[fed % beats.len()];
        d.set_in_data(data);
        d.set_in_count(*count);
        d.set_in_last(*last);
        d.eval();
        if d.in_ready() {
            fed += 1;
        }
        if d.out_valid() {
            d.out_data_into(&mut out);
            let want = &pool[(blocks % pool.len() as u64) as usize];
            let last = blocks % pool.len() as u64 == pool.len() as u64 - 1;
            if out != *want || d.out_last() != last {
                eprintln!("MISMATCH in decoded block {blocks}");
                std::process::exit(1);
            }
            blocks += 1;
        }
        d.tick();
    }
    let secs = start.elapsed().as_secs_f64();
    assert!(
        !d.error(),
        "decompressor flagged an error on a valid stream"
    );
    println!(
        "cdma_zvc_decompressor_e32: {cycles} cycles in {secs:.3} s = {:.2} M cycles/s",
        cycles as f64 / secs / 1e6
    );
    println!(
        "  {fed} beats in, {blocks} blocks out ({:.3} blocks/cycle), all checked against the pool",
        blocks as f64 / cycles as f64
    );
}

/// Same per-cycle bridge traffic on a trivial design: the bridge's own cost per cycle.
fn bridge_ceiling(cycles: u64, pool: &[[u32; 32]]) {
    let mut d = CdmaSimWidths::new();
    d.set_rst(true);
    d.tick();
    d.set_rst(false);
    let mut word = [0u32; 33];
    let mut q = [0u32; 33];
    let mut acc = 0u64;
    let start = Instant::now();
    for i in 0..cycles {
        word[..32].copy_from_slice(&pool[(i % POOL as u64) as usize]);
        d.set_d1056(&word);
        d.set_d1(i & 1 == 1);
        d.eval();
        acc += u64::from(d.q1()) + u64::from(d.d1());
        d.q1056_into(&mut q);
        acc += u64::from(q[0]);
        d.tick();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "cdma_sim_widths (bridge ceiling, same calls per cycle): {:.2} M cycles/s (checksum {acc:x})",
        cycles as f64 / secs / 1e6
    );
    assert_eq!(d.cycles(), cycles, "every tick must be one rising edge");
}
