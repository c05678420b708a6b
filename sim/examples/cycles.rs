//! Bridge throughput: cycles per second of the Verilated E=32 compressor in a complete
//! testbench loop, with random blocks from an always-valid source into an always-ready sink.
//!
//! `cargo run --release -p cdma-sim --example cycles [-- CYCLES [SEED]]`
//!
//! Every cycle does what a real testbench does through the bridge: drive the 1024-bit
//! `in_data` and `in_last`, `eval()`, sample `in_ready` / `out_valid`, read the 1056-bit
//! `out_data` and `out_count`, `tick()`. The packed output is checked word for word against
//! a ZVC reference computed here, so the figure is for correct, fully observed simulation.
//!
//! A second figure runs the same bridge calls (1056-bit input, eval, two 1-bit and one
//! 1056-bit output read, tick) on the bridge's tiny self-test top `cdma_sim_widths`: the
//! ceiling the bridge itself allows, i.e. how much of the first figure is the design.

use std::collections::VecDeque;
use std::time::Instant;

use cdma_sim::{CdmaSimWidths, CdmaZvcCompressorE32};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Distinct random blocks cycled through (precomputed so the RNG is not in the timed loop).
const POOL: usize = 4096;

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

    let mut expect: VecDeque<u32> = VecDeque::new();
    let mut beat = [0u32; 33];
    let (mut sent, mut beats, mut words_out) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for _ in 0..cycles {
        let block = &pool[(sent % POOL as u64) as usize];
        c.set_in_data(block);
        // A "tensor" is 1 M blocks, so the end-of-tensor flush is exercised too.
        c.set_in_last(sent % (1 << 20) == (1 << 20) - 1);
        c.eval();
        if c.in_ready() {
            let mask = block
                .iter()
                .enumerate()
                .fold(0u32, |m, (i, &x)| m | (u32::from(x != 0) << i));
            expect.push_back(mask);
            expect.extend(block.iter().copied().filter(|&x| x != 0));
            sent += 1;
        }
        if c.out_valid() {
            c.out_data_into(&mut beat);
            let n = c.out_count() as usize;
            for (lane, &w) in beat[..n].iter().enumerate() {
                if expect.pop_front() != Some(w) {
                    eprintln!("MISMATCH in beat {beats}, lane {lane}: got {w:#010x}");
                    std::process::exit(1);
                }
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
        expect.len()
    );
    bridge_ceiling(cycles, &pool);
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
