//! `cdma compress` / `cdma decompress`: the golden model on files.

use crate::inputs::read_tensor;
use crate::{parse_elem, CliResult};
use cdma_corpus::Dtype;
use cdma_model::{Codec, ElemType, ElemWidth};
use std::path::PathBuf;

/// Arguments of `cdma compress`.
#[derive(clap::Args)]
pub struct CompressArgs {
    /// Element width in bits (8, 16 or 32); with --type, the type's width (default 32).
    #[arg(long, value_parser = parse_elem)]
    elem: Option<ElemWidth>,
    /// Element type: f32, bf16, f16, e4m3, e5m2, or raw8/raw16/raw32 (untyped); default:
    /// untyped elements of --elem. ZVC-X uses the sign, exponent and mantissa of a float type.
    #[arg(long = "type", value_name = "TYPE", value_parser = ElemType::parse)]
    elem_type: Option<ElemType>,
    /// Codec of the compressed chunks: zvc (the paper's, what the DMA engine writes) or zvcx
    /// (the float-aware block codec; docs/FORMAT.md).
    #[arg(long, value_parser = Codec::parse, default_value = "zvc")]
    codec: Codec,
    /// Chunk size: each 2^N bytes of input are compressed on their own, or stored raw when
    /// that is not smaller (7..=24; docs/FORMAT.md).
    #[arg(long = "chunk-log2", value_name = "N", default_value_t = cdma_model::layout::CHUNK_LOG2_DEFAULT)]
    chunk_log2: u8,
    /// Write no CRC32C checks: a version 3 frame (version 2 for untyped ZVC), as the DMA
    /// engine writes today, instead of version 4 (a CRC per chunk and one of the index and
    /// header; docs/FORMAT.md).
    #[arg(long)]
    no_crc: bool,
    /// Tensor file: raw little-endian (a whole number of elements), or a .npy or
    /// single-tensor .safetensors file, whose element type types the frame unless --type or
    /// --elem says otherwise.
    input: PathBuf,
    /// Output frame file (docs/FORMAT.md: version 4; with --no-crc version 2 for untyped ZVC,
    /// else version 3).
    output: PathBuf,
}

/// Arguments of `cdma decompress`.
#[derive(clap::Args)]
pub struct DecompressArgs {
    /// cdma frame file (docs/FORMAT.md, version 2, 3 or 4; a version 4 frame's CRCs are
    /// checked).
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
    // A typed input file (.npy, .safetensors, <name>.<type>.bin) types the frame unless
    // --type or --elem says otherwise.
    let (data, file_type) = read_tensor(&a.input)?;
    let file_type = file_type.map(Dtype::elem_type);
    let elem_type = match (a.elem_type, a.elem, file_type) {
        (Some(t), Some(w), _) if t.width() != w => {
            return Err(format!(
                "--type {t} has {}-bit elements, --elem says {}",
                t.width().bits(),
                w.bits()
            ))
        }
        (Some(t), _, _) => t,
        (None, Some(w), Some(f)) if f.width() == w => f,
        (None, None, Some(f)) => f,
        (None, w, _) => ElemType::Raw(w.unwrap_or(ElemWidth::W32)),
    };
    let opts = cdma_model::FrameOptions {
        codec: a.codec,
        elem_type,
        chunk_log2: a.chunk_log2,
        crc: !a.no_crc,
    };
    let frame = cdma_model::compress_frame(&data, &opts)
        .map_err(|e| format!("{}: {e}", a.input.display()))?;
    write(&a.output, &frame)?;
    // Parsing our own output cannot fail; it gives the chunk statistics for the summary.
    let view = cdma_model::FrameView::parse(&frame).map_err(|e| e.to_string())?;
    let raw = view.index().iter().filter(|e| e.raw).count();
    println!(
        "{} -> {}: {} {}: {} -> {} bytes, ratio {:.3}x ({} chunks of {} bytes, {} raw; \
         version {})",
        a.input.display(),
        a.output.display(),
        a.codec,
        elem_type,
        data.len(),
        frame.len(),
        data.len() as f64 / frame.len() as f64,
        view.n_chunks(),
        1u64 << a.chunk_log2,
        raw,
        view.header().version()
    );
    Ok(())
}

/// Runs `cdma decompress`.
pub fn decompress(a: DecompressArgs) -> CliResult {
    let frame = read(&a.input)?;
    let data = cdma_model::decompress(&frame).map_err(|e| format!("{}: {e}", a.input.display()))?;
    write(&a.output, &data)?;
    // The frame decoded, so its header parses.
    let crc = cdma_model::layout::Header::parse(&frame).is_ok_and(|h| h.crc);
    let checked = if crc {
        ", CRC32C of every chunk and of the index checked"
    } else {
        ", no CRCs in this frame version"
    };
    println!(
        "{} -> {}: {} -> {} bytes{checked}",
        a.input.display(),
        a.output.display(),
        frame.len(),
        data.len()
    );
    Ok(())
}
