//! [`validate`]: each field against what the frame format and the engine's interfaces allow.

use crate::keywords::VERILOG_KEYWORDS;
use crate::{ConfigError, EngineConfig, CODEC_ZVC, CODEC_ZVCX};

/// AXI data bus widths in bits.
const DATA_WIDTHS: [u32; 4] = [128, 256, 512, 1024];
/// Element widths in bits.
const ELEM_WIDTHS: [u32; 3] = [8, 16, 32];
/// No AXI burst crosses a 4 KiB boundary, so none is longer.
const BURST_BYTES_MAX: u32 = 4096;
/// The frame format's chunk sizes (2^7 ..= 2^24 bytes).
const CHUNK_LOG2: std::ops::RangeInclusive<u32> =
    cdma_spec::frame::CHUNK_LOG2_MIN as u32..=cdma_spec::frame::CHUNK_LOG2_MAX as u32;
/// Longest `module_prefix`.
const PREFIX_LEN_MAX: usize = 64;

/// The first field of `c` outside what it may be, as an error naming it and its allowed values.
pub(crate) fn validate(c: &EngineConfig) -> Result<(), ConfigError> {
    if !DATA_WIDTHS.contains(&c.data_width) {
        return Err(ConfigError::field(
            "data_width",
            format!("{} is not one of {}", c.data_width, list(&DATA_WIDTHS)),
        ));
    }
    elem_widths(&c.elem_widths)?;
    codecs(&c.codecs)?;
    in_range("addr_width", c.addr_width, 32..=64)?;
    in_range("id_width", c.id_width, 1..=16)?;
    in_range("reads_in_flight", c.reads_in_flight, 1..=16)?;
    max_burst_beats(c)?;
    chunk_log2_max(c)?;
    module_prefix(&c.module_prefix)
}

/// "a, b, c" of `values`.
fn list(values: &[u32]) -> String {
    values
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn in_range(field: &str, v: u32, range: std::ops::RangeInclusive<u32>) -> Result<(), ConfigError> {
    if range.contains(&v) {
        return Ok(());
    }
    Err(ConfigError::field(
        field,
        format!("{v} is outside {}..={}", range.start(), range.end()),
    ))
}

fn elem_widths(widths: &[u32]) -> Result<(), ConfigError> {
    let allowed = list(&ELEM_WIDTHS);
    if widths.is_empty() {
        return Err(ConfigError::field(
            "elem_widths",
            format!("is empty; give one or more of {allowed}"),
        ));
    }
    for (i, w) in widths.iter().enumerate() {
        if !ELEM_WIDTHS.contains(w) {
            return Err(ConfigError::field(
                "elem_widths",
                format!("{w} is not one of {allowed}"),
            ));
        }
        if widths[..i].contains(w) {
            return Err(ConfigError::field(
                "elem_widths",
                format!("{w} appears twice; each of {allowed} at most once"),
            ));
        }
    }
    Ok(())
}

fn codecs(codecs: &[String]) -> Result<(), ConfigError> {
    let allowed = format!("\"{CODEC_ZVC}\", \"{CODEC_ZVCX}\"");
    for (i, c) in codecs.iter().enumerate() {
        if c != CODEC_ZVC && c != CODEC_ZVCX {
            return Err(ConfigError::field(
                "codecs",
                format!("\"{c}\" is not one of {allowed}"),
            ));
        }
        if codecs[..i].contains(c) {
            return Err(ConfigError::field(
                "codecs",
                format!("\"{c}\" appears twice; each of {allowed} at most once"),
            ));
        }
    }
    if !codecs.iter().any(|c| c == CODEC_ZVC) {
        return Err(ConfigError::field(
            "codecs",
            format!(
                "must name \"{CODEC_ZVC}\" (every engine runs ZVC; add \"{CODEC_ZVCX}\" beside it)"
            ),
        ));
    }
    Ok(())
}

fn max_burst_beats(c: &EngineConfig) -> Result<(), ConfigError> {
    let beats = c.max_burst_beats;
    if beats > 256 || !beats.is_power_of_two() {
        return Err(ConfigError::field(
            "max_burst_beats",
            format!("{beats} is not a power of two in 1..=256 (1, 2, 4, 8, 16, 32, 64, 128, 256)"),
        ));
    }
    let bytes = c.bus_bytes() * beats;
    if bytes > BURST_BYTES_MAX {
        return Err(ConfigError::field(
            "max_burst_beats",
            format!(
                "{beats} beats of {} bytes are {bytes} bytes, over the {BURST_BYTES_MAX} a burst \
                 may span (no AXI burst crosses 4 KiB); at data_width {} at most {}",
                c.bus_bytes(),
                c.data_width,
                BURST_BYTES_MAX / c.bus_bytes()
            ),
        ));
    }
    Ok(())
}

fn chunk_log2_max(c: &EngineConfig) -> Result<(), ConfigError> {
    in_range("chunk_log2_max", c.chunk_log2_max, CHUNK_LOG2)?;
    // With today's data widths (at most 1024 bits = 2^7 bytes) the format's lower bound
    // implies this; it matters if a wider bus is ever allowed.
    let beat_log2 = c.bus_bytes().trailing_zeros();
    if c.chunk_log2_max < beat_log2 {
        return Err(ConfigError::field(
            "chunk_log2_max",
            format!(
                "{} is below log2 of one {}-byte beat ({beat_log2}); a chunk holds whole beats",
                c.chunk_log2_max,
                c.bus_bytes()
            ),
        ));
    }
    Ok(())
}

fn module_prefix(p: &str) -> Result<(), ConfigError> {
    let bad = |why: String| Err(ConfigError::field("module_prefix", format!("{p:?} {why}")));
    let rule = "a Verilog identifier is [A-Za-z_][A-Za-z0-9_]*";
    let mut chars = p.chars();
    match chars.next() {
        None => return bad(format!("is empty; {rule}")),
        Some(c) if !(c.is_ascii_alphabetic() || c == '_') => {
            return bad(format!("starts with {c:?}; {rule}"))
        }
        _ => {}
    }
    if let Some(c) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
        return bad(format!("contains {c:?}; {rule}"));
    }
    if p.len() > PREFIX_LEN_MAX {
        return bad(format!(
            "is {} characters long; at most {PREFIX_LEN_MAX}",
            p.len()
        ));
    }
    if VERILOG_KEYWORDS.contains(&p) {
        return bad("is a Verilog/SystemVerilog keyword; choose another name".to_string());
    }
    Ok(())
}
