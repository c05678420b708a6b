//! `cdma compress` / `cdma decompress`: the golden model on files.

use crate::{parse_elem, CliResult};
use cdma_model::ElemWidth;
use std::path::PathBuf;

/// Arguments of `cdma compress`.
#[derive(clap::Args)]
pub struct CompressArgs {
    /// Element width in bits (8, 16 or 32).
    #[arg(long, value_parser = parse_elem, default_value = "32")]
    elem: ElemWidth,
    /// Chunk size: each 2^N bytes of input are compressed on their own, or stored raw when
    /// that is not smaller (7..=24; docs/FORMAT.md).
    #[arg(long = "chunk-log2", value_name = "N", default_value_t = cdma_model::layout::CHUNK_LOG2_DEFAULT)]
    chunk_log2: u8,
    /// Raw little-endian tensor file (a whole number of elements).
    input: PathBuf,
    /// Output frame file (docs/FORMAT.md, version 2).
    output: PathBuf,
}

/// Arguments of `cdma decompress`.
#[derive(clap::Args)]
pub struct DecompressArgs {
    /// cdma frame file (docs/FORMAT.md, version 2).
    input: PathBuf,
    /// Output raw tensor file.
    output: PathBuf,
}

fn read(p: &PathBuf) -> Result<Vec<u8>, String> {
    std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

fn write(p: &PathBuf, data: &[u8]) -> CliResult {
    std::fs::write(p, data).map_err(|e| format!("cannot write {}: {e}", p.display()))
}

/// Runs `cdma compress`.
pub fn compress(a: CompressArgs) -> CliResult {
    let data = read(&a.input)?;
    let frame = cdma_model::compress_chunked(&data, a.elem, a.chunk_log2)
        .map_err(|e| format!("{}: {e}", a.input.display()))?;
    write(&a.output, &frame)?;
    // Parsing our own output cannot fail; it gives the chunk statistics for the summary.
    let view = cdma_model::FrameView::parse(&frame).map_err(|e| e.to_string())?;
    let raw = view.index().iter().filter(|e| e.raw).count();
    println!(
        "{} -> {}: {} -> {} bytes, ratio {:.3}x ({} chunks of {} bytes, {} raw)",
        a.input.display(),
        a.output.display(),
        data.len(),
        frame.len(),
        data.len() as f64 / frame.len() as f64,
        view.n_chunks(),
        1u64 << a.chunk_log2,
        raw
    );
    Ok(())
}

/// Runs `cdma decompress`.
pub fn decompress(a: DecompressArgs) -> CliResult {
    let frame = read(&a.input)?;
    let data = cdma_model::decompress(&frame).map_err(|e| format!("{}: {e}", a.input.display()))?;
    write(&a.output, &data)?;
    println!(
        "{} -> {}: {} -> {} bytes",
        a.input.display(),
        a.output.display(),
        frame.len(),
        data.len()
    );
    Ok(())
}
