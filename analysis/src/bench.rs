//! Single-thread throughput of the golden model's two codecs (ZVC and ZVC-X) against lz4_flex
//! and zstd (level 3) on the same data in the same run: the measuring core shared by
//! `cdma bench` and the `cdma-analysis` `throughput` example (docs/PERFORMANCE.md, "Method").
//!
//! Every codec compresses and decompresses each whole input into buffers allocated once; each
//! time is the best of at least `reps` runs, continued until `min_time` was spent, so it is the
//! codec's speed with warm caches and no allocator or page-fault noise. Every codec's output is
//! checked to round-trip before it is timed.

use cdma_model::{Codec, ElemType, ElemWidth};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One codec's result on one input (or a sum over inputs): compressed size and best times.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    /// Compressed bytes (ZVC, ZVC-X: whole frame; lz4: block + 4-byte size; zstd: frame).
    pub size: usize,
    /// Best compression time.
    pub comp: Duration,
    /// Best decompression time.
    pub decomp: Duration,
}

impl Stat {
    /// Adds another input's figures (totals are total bytes / sum of best times).
    pub fn add(&mut self, o: Stat) {
        self.size += o.size;
        self.comp += o.comp;
        self.decomp += o.decomp;
    }
}

/// The four codecs' results on the same input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Uncompressed bytes.
    pub bytes: usize,
    /// ZVC (cdma-model).
    pub zvc: Stat,
    /// ZVC-X (cdma-model) over the input's element type.
    pub zvcx: Stat,
    /// lz4_flex.
    pub lz4: Stat,
    /// zstd level 3.
    pub zstd: Stat,
}

impl Stats {
    /// Adds another input's figures.
    pub fn add(&mut self, o: &Stats) {
        self.bytes += o.bytes;
        self.zvc.add(o.zvc);
        self.zvcx.add(o.zvcx);
        self.lz4.add(o.lz4);
        self.zstd.add(o.zstd);
    }
}

/// Repetition policy of one measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opts {
    /// Minimum runs.
    pub reps: usize,
    /// Keep running (up to 100 × `reps`) until this much time was spent.
    pub min_time: Duration,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            reps: 10,
            min_time: Duration::from_millis(400),
        }
    }
}

/// Best wall time of at least `o.reps` runs of `f`, continuing (up to 100 × `reps` runs) until
/// `o.min_time` has been spent: on a shared machine the extra samples make it likely that at
/// least one run was not preempted.
pub fn best_of(o: &Opts, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < o.reps || (start.elapsed() < o.min_time && runs < o.reps * 100) {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

/// 10⁹ bytes per second.
pub fn gbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64().max(1e-12) / 1e9
}

/// Element width from a file name: `.f16.`/`.bf16.`/`.i16.`/`.u16.` → 16,
/// `.i8.`/`.u8.`/`.f8`/`.e4m3.`/`.e5m2.` → 8, otherwise 32.
pub fn elem_for(path: &Path) -> ElemWidth {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if [".f16.", ".bf16.", ".i16.", ".u16."]
        .iter()
        .any(|s| name.contains(s))
    {
        ElemWidth::W16
    } else if [".i8.", ".u8.", ".f8", ".e4m3.", ".e5m2."]
        .iter()
        .any(|s| name.contains(s))
    {
        ElemWidth::W8
    } else {
        ElemWidth::W32
    }
}

/// The element type ZVC-X codes a file as: the float type its name's dtype label names
/// ([`dtype_of`]: `f32`, `bf16`, `f16`, `e4m3`, `e5m2`) when that type is `elem` wide, else
/// raw elements of `elem`.
pub fn type_for(path: &Path, elem: ElemWidth) -> ElemType {
    ElemType::from_name(&dtype_of(path, elem))
        .filter(|t| t.width() == elem)
        .unwrap_or(ElemType::Raw(elem))
}

/// Appends `path` (a file) or every `*.bin` below it (a directory, sorted, recursively).
pub fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
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

/// Fraction of all-zero elements.
pub fn zero_fraction(data: &[u8], elem: ElemWidth) -> f64 {
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

/// A data-type label from a corpus file name (`model.step.layer.relu.f32.bin` → `f32`).
pub fn dtype_of(path: &Path, elem: ElemWidth) -> String {
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

/// ZVC: `compress_into` / `decompress_into` — a whole frame with header and full validation.
pub fn bench_zvc(data: &[u8], elem: ElemWidth, o: &Opts) -> Result<Stat, String> {
    let mut frame = Vec::with_capacity(data.len() + data.len() / 8 + 64);
    let mut back = Vec::with_capacity(data.len());
    cdma_model::compress_into(data, elem, &mut frame).map_err(|e| e.to_string())?;
    cdma_model::decompress_into(&frame, &mut back).map_err(|e| e.to_string())?;
    if back != data {
        return Err("ZVC round trip mismatch".into());
    }
    let comp = best_of(o, || {
        frame.clear();
        // Cannot fail: the same input compressed above.
        let _ = cdma_model::compress_into(black_box(data), elem, &mut frame);
        black_box(&frame);
    });
    let decomp = best_of(o, || {
        back.clear();
        let _ = cdma_model::decompress_into(black_box(&frame), &mut back);
        black_box(&back);
    });
    Ok(Stat {
        size: frame.len(),
        comp,
        decomp,
    })
}

/// ZVC-X: `compress_with_into` / `decompress_into` with the default chunk size — the whole
/// frame `cdma compress --codec zvcx` writes, with header and full validation.
pub fn bench_zvcx(data: &[u8], ty: ElemType, o: &Opts) -> Result<Stat, String> {
    let chunk_log2 = cdma_model::layout::CHUNK_LOG2_DEFAULT;
    let mut frame = Vec::with_capacity(data.len() + data.len() / 8 + 64);
    let mut back = Vec::with_capacity(data.len());
    cdma_model::compress_with_into(data, Codec::ZvcX, ty, chunk_log2, &mut frame)
        .map_err(|e| e.to_string())?;
    cdma_model::decompress_into(&frame, &mut back).map_err(|e| e.to_string())?;
    if back != data {
        return Err("ZVC-X round trip mismatch".into());
    }
    let comp = best_of(o, || {
        frame.clear();
        // Cannot fail: the same input compressed above.
        let _ = cdma_model::compress_with_into(
            black_box(data),
            Codec::ZvcX,
            ty,
            chunk_log2,
            &mut frame,
        );
        black_box(&frame);
    });
    let decomp = best_of(o, || {
        back.clear();
        let _ = cdma_model::decompress_into(black_box(&frame), &mut back);
        black_box(&back);
    });
    Ok(Stat {
        size: frame.len(),
        comp,
        decomp,
    })
}

/// lz4_flex block API: the bytes of `compress_prepend_size` without the 4-byte length
/// prefix, which is added to the size so the ratio compares like with like.
pub fn bench_lz4(data: &[u8], o: &Opts) -> Result<Stat, String> {
    let mut comp_buf = vec![0u8; lz4_flex::block::get_maximum_output_size(data.len())];
    let mut back = vec![0u8; data.len()];
    let n = lz4_flex::block::compress_into(data, &mut comp_buf).map_err(|e| e.to_string())?;
    let m =
        lz4_flex::block::decompress_into(&comp_buf[..n], &mut back).map_err(|e| e.to_string())?;
    if m != data.len() || back != data {
        return Err("lz4 round trip mismatch".into());
    }
    let comp = best_of(o, || {
        let _ = black_box(lz4_flex::block::compress_into(
            black_box(data),
            &mut comp_buf,
        ));
    });
    let decomp = best_of(o, || {
        let _ = black_box(lz4_flex::block::decompress_into(
            black_box(&comp_buf[..n]),
            &mut back,
        ));
    });
    Ok(Stat {
        size: n + 4,
        comp,
        decomp,
    })
}

/// zstd level 3 with reused `bulk` contexts.
pub fn bench_zstd(data: &[u8], o: &Opts) -> Result<Stat, String> {
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
    let comp = best_of(o, || {
        out2.clear();
        let _ = black_box(c.compress_to_buffer(black_box(data), &mut out2));
    });
    let decomp = best_of(o, || {
        back.clear();
        let _ = black_box(d.decompress_to_buffer(black_box(&comp_buf), &mut back));
    });
    Ok(Stat {
        size: comp_buf.len(),
        comp,
        decomp,
    })
}

/// All four codecs on `data`, elements of `ty` (ZVC uses only its width).
pub fn bench_all(data: &[u8], ty: ElemType, o: &Opts) -> Result<Stats, String> {
    Ok(Stats {
        bytes: data.len(),
        zvc: bench_zvc(data, ty.width(), o)?,
        zvcx: bench_zvcx(data, ty, o)?,
        lz4: bench_lz4(data, o)?,
        zstd: bench_zstd(data, o)?,
    })
}

/// Version of the libzstd the zstd crate links (e.g. `1.5.7`).
pub fn libzstd_version() -> String {
    zstd::zstd_safe::version_string().to_string()
}

/// One of our codecs against another: (their size / ours = our ratio relative to theirs,
/// their compress time / ours, their decompress time / ours).
pub fn versus(ours: Stat, other: Stat) -> (f64, f64, f64) {
    (
        other.size as f64 / ours.size as f64,
        other.comp.as_secs_f64() / ours.comp.as_secs_f64(),
        other.decomp.as_secs_f64() / ours.decomp.as_secs_f64(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_and_checks_sizes() {
        let data: Vec<u8> = (0..4096u32)
            .flat_map(|i| if i % 3 == 0 { i } else { 0 }.to_le_bytes())
            .collect();
        let o = Opts {
            reps: 2,
            min_time: Duration::ZERO,
        };
        let t = bench_all(&data, ElemType::F32, &o).unwrap();
        assert_eq!(t.bytes, data.len());
        assert_eq!(
            t.zvc.size,
            cdma_model::compress(&data, ElemWidth::W32).unwrap().len()
        );
        assert_eq!(
            t.zvcx.size,
            cdma_model::compress_with(&data, Codec::ZvcX, ElemType::F32, 12)
                .unwrap()
                .len()
        );
        assert!(t.zvcx.comp > Duration::ZERO && t.zvcx.decomp > Duration::ZERO);
        assert_eq!(t.lz4.size, lz4_flex::compress_prepend_size(&data).len());
        assert!(t.zvc.comp > Duration::ZERO && t.zstd.decomp > Duration::ZERO);
        let (size, _, _) = versus(t.zvc, t.lz4);
        assert!((size - t.lz4.size as f64 / t.zvc.size as f64).abs() < 1e-12);
    }

    #[test]
    fn names_give_widths_and_dtypes() {
        let p = Path::new("x/fmnist.step0000.pool1.maxpool.bf16.bin");
        assert_eq!(elem_for(p), ElemWidth::W16);
        assert_eq!(dtype_of(p, ElemWidth::W16), "bf16");
        assert_eq!(elem_for(Path::new("a.u8.bin")), ElemWidth::W8);
        let e4 = Path::new("x/vgg16.chelsea.conv1_1.relu.e4m3.bin");
        assert_eq!(elem_for(e4), ElemWidth::W8);
        assert_eq!(type_for(e4, ElemWidth::W8), ElemType::E4m3);
        assert_eq!(type_for(p, ElemWidth::W16), ElemType::Bf16);
        // A width forced against the name's type codes raw elements.
        assert_eq!(type_for(p, ElemWidth::W8), ElemType::Raw(ElemWidth::W8));
        assert_eq!(
            type_for(Path::new("plain"), ElemWidth::W32),
            ElemType::Raw(ElemWidth::W32)
        );
        assert_eq!(elem_for(Path::new("plain")), ElemWidth::W32);
        assert_eq!(dtype_of(Path::new("plain"), ElemWidth::W32), "32-bit");
        assert_eq!(zero_fraction(&[0, 0, 1, 0], ElemWidth::W8), 0.75);
    }
}
