//! Single-thread throughput of the ZVC golden model against lz4_flex and zstd (level 3) on the
//! same files in the same run.
//!
//! ```text
//! cargo run --release -p cdma-analysis --example throughput -- [--reps N] [--elem 8|16|32] FILES_OR_DIRS...
//! ```
//!
//! Directories are searched recursively for `*.bin` files. The element width comes from the
//! file name (`.f32.`/`.i32.` → 32, `.f16.`/`.bf16.`/`.i16.` → 16, `.i8.`/`.u8.`/`.f8` → 8,
//! otherwise 32) unless `--elem` is given.
//!
//! Method: every codec compresses and decompresses each whole file at least `N` times
//! (default 10, more until 0.4 s were spent) into buffers allocated once, and the best (shortest) time is kept, so the figure is the
//! codec's speed with warm caches and no allocator or page-fault noise. GB/s = uncompressed
//! bytes / time (10^9 bytes). Every codec's output is checked to round-trip before timing.
//! Totals are total bytes / sum of per-file best times.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use cdma_analysis::bench::{
    bench_lz4, bench_zstd, bench_zvc, collect, dtype_of, elem_for, gbps, zero_fraction, Opts, Stat,
};
use cdma_model::ElemWidth;

// The measuring core (best-of timing, the three codecs, round-trip checks) lives in
// `cdma_analysis::bench`, shared with `cdma bench`, so both report the same method.

fn print_totals(label: &str, total: usize, z: Stat, l: Stat, s: Stat) {
    println!(
        "{:<10} {:>9.2} MB | zvc {:>6.3}x {:>6.2} {:>6.2} GB/s | lz4_flex {:>6.3}x {:>6.2} {:>6.2} GB/s | zstd-3 {:>6.3}x {:>6.2} {:>6.2} GB/s",
        label,
        total as f64 / 1e6,
        total as f64 / z.size as f64,
        gbps(total, z.comp),
        gbps(total, z.decomp),
        total as f64 / l.size as f64,
        gbps(total, l.comp),
        gbps(total, l.decomp),
        total as f64 / s.size as f64,
        gbps(total, s.comp),
        gbps(total, s.decomp),
    );
}

fn usage() -> &'static str {
    "usage: throughput [--reps N] [--min-ms MS] [--elem 8|16|32] [--quiet] FILES_OR_DIRS...\n\
     Measures single-thread GB/s of ZVC (cdma-model), lz4_flex and zstd -3 on raw tensor files.\n\
     Directories are searched recursively for *.bin files. Each measurement is the best of\n\
     at least N runs (default 10), repeated until MS milliseconds (default 400) were spent.\n\
     --quiet prints only the per-dtype and total summaries."
}

fn run() -> Result<(), String> {
    let mut reps = 10usize;
    let mut min_ms = 400u64;
    let mut quiet = false;
    let mut forced_elem = None;
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{}", usage());
                return Ok(());
            }
            "--reps" => {
                reps = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&r| r > 0)
                    .ok_or("--reps needs a positive integer")?;
            }
            "--min-ms" => {
                min_ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--min-ms needs a number of milliseconds")?;
            }
            "--quiet" => quiet = true,
            "--elem" => {
                let bits: u32 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--elem needs 8, 16 or 32")?;
                forced_elem = Some(ElemWidth::from_bits(bits).map_err(|e| e.to_string())?);
            }
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    if inputs.is_empty() {
        return Err(format!("no input given\n{}", usage()));
    }
    let mut files = Vec::new();
    for i in &inputs {
        if !i.exists() {
            return Err(format!("{} does not exist", i.display()));
        }
        collect(i, &mut files).map_err(|e| format!("{}: {e}", i.display()))?;
    }
    if files.is_empty() {
        return Err(format!(
            "no *.bin files found in {} (the activation corpus may not have been generated \
             yet; see data/activations, or generate synthetic files with the gen_relu_like example)",
            inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    let o = Opts {
        reps,
        min_time: Duration::from_millis(min_ms),
    };
    if !quiet {
        println!(
            "{:<40} {:>5} {:>9} {:>6} | {:>7} {:>6} {:>6} | {:>7} {:>6} {:>6} | {:>7} {:>6} {:>6}",
            "file",
            "E",
            "MB",
            "zeros",
            "zvc x",
            "c GB/s",
            "d GB/s",
            "lz4 x",
            "c GB/s",
            "d GB/s",
            "zstd x",
            "c GB/s",
            "d GB/s"
        );
    }
    // Per dtype: (bytes, zvc, lz4, zstd), in first-seen order.
    let mut groups: Vec<(String, usize, Stat, Stat, Stat)> = Vec::new();
    for f in &files {
        let data = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let elem = forced_elem.unwrap_or_else(|| elem_for(f));
        if data.len() % elem.bytes() != 0 {
            return Err(format!(
                "{}: {} bytes is not a whole number of {elem} elements (use --elem)",
                f.display(),
                data.len()
            ));
        }
        let z = bench_zvc(&data, elem, &o).map_err(|e| format!("{}: {e}", f.display()))?;
        let l = bench_lz4(&data, &o).map_err(|e| format!("{}: {e}", f.display()))?;
        let s = bench_zstd(&data, &o).map_err(|e| format!("{}: {e}", f.display()))?;
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        let r = |st: &Stat| data.len() as f64 / st.size as f64;
        if !quiet {
            println!(
            "{:<40} {:>5} {:>9.2} {:>5.1}% | {:>6.2}x {:>6.2} {:>6.2} | {:>6.2}x {:>6.2} {:>6.2} | {:>6.2}x {:>6.2} {:>6.2}",
            name.chars().take(40).collect::<String>(),
            elem.bits(),
            data.len() as f64 / 1e6,
            100.0 * zero_fraction(&data, elem),
            r(&z),
            gbps(data.len(), z.comp),
            gbps(data.len(), z.decomp),
            r(&l),
            gbps(data.len(), l.comp),
            gbps(data.len(), l.decomp),
            r(&s),
            gbps(data.len(), s.comp),
            gbps(data.len(), s.decomp),
        );
        }
        let dtype = dtype_of(f, elem);
        let gi = match groups.iter().position(|g| g.0 == dtype) {
            Some(i) => i,
            None => {
                groups.push((dtype, 0, Stat::default(), Stat::default(), Stat::default()));
                groups.len() - 1
            }
        };
        let g = &mut groups[gi];
        g.1 += data.len();
        g.2.add(z);
        g.3.add(l);
        g.4.add(s);
    }
    let (mut total, mut tz, mut tl, mut ts) =
        (0, Stat::default(), Stat::default(), Stat::default());
    println!();
    println!(
        "{} files; best of >= {reps} runs (>= {min_ms} ms) per measurement; single thread; \
         ratio = uncompressed / compressed, GB/s = uncompressed bytes / s (compress, decompress)",
        files.len()
    );
    for (dtype, bytes, z, l, s) in &groups {
        print_totals(dtype, *bytes, *z, *l, *s);
        total += bytes;
        tz.add(*z);
        tl.add(*l);
        ts.add(*s);
    }
    print_totals("all", total, tz, tl, ts);
    let ratio = |a: Stat, b: Stat| {
        (
            b.size as f64 / a.size as f64,
            b.comp.as_secs_f64() / a.comp.as_secs_f64(),
            b.decomp.as_secs_f64() / a.decomp.as_secs_f64(),
        )
    };
    for (name, other) in [("lz4_flex", tl), ("zstd -3", ts)] {
        let (size, c, d) = ratio(tz, other);
        println!(
            "zvc vs {name}: compression ratio {size:.2}x theirs, compress {c:.2}x faster, decompress {d:.2}x faster"
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
