//! Single-thread throughput of the ZVC golden model against lz4_flex and zstd (level 3) on the
//! same files in the same run.
//!
//! ```text
//! cargo run --release -p cdma-model --example throughput -- [--reps N] [--elem 8|16|32] FILES_OR_DIRS...
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

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cdma_model::ElemWidth;

/// One codec's result on one file: compressed size and best times.
#[derive(Clone, Copy, Default)]
struct Stat {
    size: usize,
    comp: Duration,
    decomp: Duration,
}

impl Stat {
    fn add(&mut self, o: Stat) {
        self.size += o.size;
        self.comp += o.comp;
        self.decomp += o.decomp;
    }
}

/// Best wall time of at least `reps` runs of `f`, continuing (up to 100 × `reps` runs) until
/// `min_time` has been spent: on a shared machine the extra samples make it likely that at
/// least one run was not preempted.
fn best_of(reps: usize, min_time: Duration, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < reps || (start.elapsed() < min_time && runs < reps * 100) {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64().max(1e-12) / 1e9
}

fn elem_for(path: &Path) -> ElemWidth {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if [".f16.", ".bf16.", ".i16.", ".u16."]
        .iter()
        .any(|s| name.contains(s))
    {
        ElemWidth::W16
    } else if [".i8.", ".u8.", ".f8"].iter().any(|s| name.contains(s)) {
        ElemWidth::W8
    } else {
        ElemWidth::W32
    }
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "bin") {
                collect(&e, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

fn zero_fraction(data: &[u8], elem: ElemWidth) -> f64 {
    let n = data.len() / elem.bytes();
    if n == 0 {
        return 0.0;
    }
    let z = data
        .chunks_exact(elem.bytes())
        .filter(|e| e.iter().all(|&b| b == 0))
        .count();
    z as f64 / n as f64
}

fn bench_zvc(data: &[u8], elem: ElemWidth, o: &Opts) -> Result<Stat, String> {
    let mut frame = Vec::with_capacity(data.len() + data.len() / 8 + 64);
    let mut back = Vec::with_capacity(data.len());
    cdma_model::compress_into(data, elem, &mut frame).map_err(|e| e.to_string())?;
    cdma_model::decompress_into(&frame, &mut back).map_err(|e| e.to_string())?;
    if back != data {
        return Err("ZVC round trip mismatch".into());
    }
    let comp = best_of(o.reps, o.min_time, || {
        frame.clear();
        cdma_model::compress_into(black_box(data), elem, &mut frame).unwrap();
        black_box(&frame);
    });
    let decomp = best_of(o.reps, o.min_time, || {
        back.clear();
        cdma_model::decompress_into(black_box(&frame), &mut back).unwrap();
        black_box(&back);
    });
    Ok(Stat {
        size: frame.len(),
        comp,
        decomp,
    })
}

fn bench_lz4(data: &[u8], o: &Opts) -> Result<Stat, String> {
    // Same bytes as lz4_flex::compress_prepend_size minus its 4-byte length prefix, which we
    // add to the size so the ratio compares like with like (both are self-sizing).
    let mut comp_buf = vec![0u8; lz4_flex::block::get_maximum_output_size(data.len())];
    let mut back = vec![0u8; data.len()];
    let n = lz4_flex::block::compress_into(data, &mut comp_buf).map_err(|e| e.to_string())?;
    let m =
        lz4_flex::block::decompress_into(&comp_buf[..n], &mut back).map_err(|e| e.to_string())?;
    if m != data.len() || back != data {
        return Err("lz4 round trip mismatch".into());
    }
    let comp = best_of(o.reps, o.min_time, || {
        black_box(lz4_flex::block::compress_into(black_box(data), &mut comp_buf).unwrap());
    });
    let decomp = best_of(o.reps, o.min_time, || {
        black_box(lz4_flex::block::decompress_into(black_box(&comp_buf[..n]), &mut back).unwrap());
    });
    Ok(Stat {
        size: n + 4,
        comp,
        decomp,
    })
}

fn bench_zstd(data: &[u8], o: &Opts) -> Result<Stat, String> {
    let mut c = zstd::bulk::Compressor::new(3).map_err(|e| e.to_string())?;
    let mut d = zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?;
    let mut comp_buf = Vec::with_capacity(zstd::zstd_safe::compress_bound(data.len()));
    let mut back = Vec::with_capacity(data.len());
    c.compress_to_buffer(data, &mut comp_buf)
        .map_err(|e| e.to_string())?;
    d.decompress_to_buffer(&comp_buf, &mut back)
        .map_err(|e| e.to_string())?;
    if back != data {
        return Err("zstd round trip mismatch".into());
    }
    let mut out2 = Vec::with_capacity(comp_buf.capacity());
    let comp = best_of(o.reps, o.min_time, || {
        out2.clear();
        black_box(c.compress_to_buffer(black_box(data), &mut out2).unwrap());
    });
    let decomp = best_of(o.reps, o.min_time, || {
        back.clear();
        black_box(
            d.decompress_to_buffer(black_box(&comp_buf), &mut back)
                .unwrap(),
        );
    });
    Ok(Stat {
        size: comp_buf.len(),
        comp,
        decomp,
    })
}

/// Repetition policy of one measurement.
struct Opts {
    reps: usize,
    min_time: Duration,
}

/// A data-type label from a corpus file name (`model.step.layer.relu.f32.bin` → `f32`).
fn dtype_of(path: &Path, elem: ElemWidth) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let stem = name.strip_suffix(".bin").unwrap_or(&name);
    match stem.rsplit('.').next() {
        Some(t) if stem.contains('.') && t.len() <= 5 => t.to_string(),
        _ => format!("{}-bit", elem.bits()),
    }
}

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
