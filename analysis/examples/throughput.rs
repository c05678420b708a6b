//! Single-thread throughput of the golden model's codecs (ZVC and ZVC-X) against lz4_flex and
//! zstd (level 3) on the same files in the same run.
//!
//! ```text
//! cargo run --release -p cdma-analysis --example throughput -- [--reps N] [--elem 8|16|32] [--codecs LIST] FILES_OR_DIRS...
//! ```
//!
//! Directories are searched recursively for `*.bin` files. The element width comes from the
//! file name (`.f32.`/`.i32.` → 32, `.f16.`/`.bf16.`/`.i16.` → 16, `.i8.`/`.u8.`/`.f8`/
//! `.e4m3.`/`.e5m2.` → 8, otherwise 32) unless `--elem` is given; ZVC-X codes the float type
//! the name's dtype label names (`f32`, `bf16`, `f16`, `e4m3`, `e5m2`), else raw elements.
//!
//! Method: every codec compresses and decompresses each whole file at least `N` times
//! (default 10, more until 0.4 s were spent) into buffers allocated once, and the best
//! (shortest) time is kept, so the figure is the codec's speed with warm caches and no
//! allocator or page-fault noise. GB/s = uncompressed bytes / time (10^9 bytes). Every
//! codec's output is checked to round-trip before timing. Totals are total bytes / sum of
//! per-file best times. `--codecs zvcx` (a comma-separated subset of `zvc,zvcx,lz4,zstd`)
//! measures only some codecs; the others print `-`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use cdma_analysis::bench::{
    bench_lz4, bench_zstd, bench_zvc, bench_zvcx, collect, dtype_of, elem_for, gbps, type_for,
    versus, zero_fraction, Opts, Stat, Stats,
};
use cdma_model::ElemWidth;

// The measuring core (best-of timing, the codecs, round-trip checks) lives in
// `cdma_analysis::bench`, shared with `cdma bench`, so both report the same method.

/// Codec names in column order.
const CODECS: [&str; 4] = ["zvc", "zvcx", "lz4", "zstd"];

/// The codecs of `s` in column order: ratio, compress GB/s, decompress GB/s, or `-` for a
/// codec not measured.
fn cells(bytes: usize, s: &Stats, on: &[bool; 4]) -> String {
    [s.zvc, s.zvcx, s.lz4, s.zstd]
        .iter()
        .zip(on)
        .map(|(st, &on)| {
            if on {
                format!(
                    "{:>6.3}x {:>6.2} {:>6.2}",
                    bytes as f64 / st.size as f64,
                    gbps(bytes, st.comp),
                    gbps(bytes, st.decomp)
                )
            } else {
                format!("{:>7} {:>6} {:>6}", "-", "-", "-")
            }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

fn usage() -> &'static str {
    "usage: throughput [--reps N] [--min-ms MS] [--elem 8|16|32] [--codecs LIST] [--quiet] FILES_OR_DIRS...\n\
     Measures single-thread GB/s of ZVC and ZVC-X (cdma-model), lz4_flex and zstd -3 on raw\n\
     tensor files. Directories are searched recursively for *.bin files. Each measurement is\n\
     the best of at least N runs (default 10), repeated until MS milliseconds (default 400)\n\
     were spent. --codecs: comma-separated subset of zvc,zvcx,lz4,zstd (default all).\n\
     --quiet prints only the per-dtype and total summaries."
}

fn run() -> Result<(), String> {
    let mut reps = 10usize;
    let mut min_ms = 400u64;
    let mut quiet = false;
    let mut forced_elem = None;
    let mut on = [true; 4];
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
            "--codecs" => {
                let list = args.next().ok_or("--codecs needs a list")?;
                on = [false; 4];
                for c in list.split(',') {
                    let i = CODECS
                        .iter()
                        .position(|&n| n == c)
                        .ok_or_else(|| format!("unknown codec {c:?} (zvc, zvcx, lz4, zstd)"))?;
                    on[i] = true;
                }
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
    let head = format!("{:>7} {:>6} {:>6}", "x", "c GB/s", "d GB/s");
    if !quiet {
        println!(
            "{:<40} {:>5} {:>9} {:>6} | {}",
            "file",
            "E",
            "MB",
            "zeros",
            CODECS
                .iter()
                .map(|c| format!("{c:<4} {head}"))
                .collect::<Vec<_>>()
                .join(" | ")
        );
    }
    // Per dtype, in first-seen order.
    let mut groups: Vec<(String, Stats)> = Vec::new();
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
        let ty = type_for(f, elem);
        let at = |e: String| format!("{}: {e}", f.display());
        let measure = |i: usize, b: &dyn Fn() -> Result<Stat, String>| {
            if on[i] {
                b().map_err(at)
            } else {
                Ok(Stat::default())
            }
        };
        let s = Stats {
            bytes: data.len(),
            zvc: measure(0, &|| bench_zvc(&data, elem, &o))?,
            zvcx: measure(1, &|| bench_zvcx(&data, ty, &o))?,
            lz4: measure(2, &|| bench_lz4(&data, &o))?,
            zstd: measure(3, &|| bench_zstd(&data, &o))?,
        };
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        if !quiet {
            println!(
                "{:<40} {:>5} {:>9.2} {:>5.1}% | {}",
                name.chars().take(40).collect::<String>(),
                elem.bits(),
                data.len() as f64 / 1e6,
                100.0 * zero_fraction(&data, elem),
                cells(data.len(), &s, &on)
            );
        }
        let dtype = dtype_of(f, elem);
        match groups.iter_mut().find(|g| g.0 == dtype) {
            Some(g) => g.1.add(&s),
            None => groups.push((dtype, s)),
        }
    }
    let mut all = Stats::default();
    println!();
    println!(
        "{} files; best of >= {reps} runs (>= {min_ms} ms) per measurement; single thread; \
         ratio = uncompressed / compressed, GB/s = uncompressed bytes / s (compress, decompress)",
        files.len()
    );
    println!(
        "{:<10} {:>9} | {}",
        "dtype",
        "MB",
        CODECS
            .iter()
            .map(|c| format!("{c:<4} {head}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    for (dtype, s) in &groups {
        println!(
            "{dtype:<10} {:>9.2} | {}",
            s.bytes as f64 / 1e6,
            cells(s.bytes, s, &on)
        );
        all.add(s);
    }
    println!(
        "{:<10} {:>9.2} | {}",
        "all",
        all.bytes as f64 / 1e6,
        cells(all.bytes, &all, &on)
    );
    for (i, ours, s) in [(0, "zvc", all.zvc), (1, "zvcx", all.zvcx)] {
        for (j, name, other) in [(2, "lz4_flex", all.lz4), (3, "zstd -3", all.zstd)] {
            if on[i] && on[j] {
                let (size, c, d) = versus(s, other);
                println!(
                    "{ours} vs {name}: compression ratio {size:.2}x theirs, compress {c:.2}x faster, decompress {d:.2}x faster"
                );
            }
        }
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
