//! The codecs compared by `cdma analyze`, and how many bytes each one's output takes.
//!
//! Every size is checked by decoding it back to the input before it is reported: a ratio of a
//! codec that does not round-trip would be meaningless.

use crate::rl;
use cdma_model::{layout, zvc, ElemType, ElemWidth};
use std::io::{Read, Write};

/// A codec of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Codec {
    /// Zero-value compression as one stream over the whole tensor (the paper's unchunked
    /// scheme), plus the 32-byte frame header. The frame cdma really writes (chunked, with raw
    /// fallback) is [`chunked_size`].
    Zvc,
    /// Run-length coding of zeros (docs/FORMAT.md), plus a 32-byte frame header.
    Rl,
    /// zlib (flate2, level 6): the zlib stream (2-byte header, deflate, Adler-32).
    Zlib,
    /// lz4_flex block with its 4-byte size prefix (`compress_prepend_size`).
    Lz4,
    /// zstd level 3: one zstd frame (with the content size).
    Zstd,
    /// ZVC-X, the float-aware block codec: the whole version 3 frame `cdma compress --codec
    /// zvcx --type T` writes (4 KiB chunks, raw fallback, header + index).
    ZvcX,
}

impl Codec {
    /// All codecs, in table order.
    pub const ALL: [Codec; 6] = [
        Codec::Zvc,
        Codec::Rl,
        Codec::Zlib,
        Codec::Lz4,
        Codec::Zstd,
        Codec::ZvcX,
    ];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Zvc => "ZVC",
            Codec::Rl => "RL",
            Codec::Zlib => "zlib-6",
            Codec::Lz4 => "lz4",
            Codec::Zstd => "zstd-3",
            Codec::ZvcX => "ZVC-X",
        }
    }

    /// Key used in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            Codec::Zvc => "zvc",
            Codec::Rl => "rl",
            Codec::Zlib => "zlib6",
            Codec::Lz4 => "lz4",
            Codec::Zstd => "zstd3",
            Codec::ZvcX => "zvcx",
        }
    }

    /// Position in [`Codec::ALL`] (and in [`Sizes`]).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Compressed size in bytes per codec, indexed by [`Codec::index`].
pub type Sizes = [u64; 6];

/// Compressed sizes of `data` (elements of `ty`) under every codec, each verified to
/// round-trip.
pub fn sizes(data: &[u8], ty: ElemType) -> Result<Sizes, String> {
    let elem = ty.width();
    let mut s = [0u64; 6];
    s[Codec::Zvc.index()] = zvc_size(data, elem)?;
    s[Codec::Rl.index()] = rl_size(data, elem)?;
    s[Codec::Zlib.index()] = zlib_size(data)?;
    s[Codec::Lz4.index()] = lz4_size(data)?;
    s[Codec::Zstd.index()] = zstd_size(data)?;
    s[Codec::ZvcX.index()] = zvcx_size(data, ty)?;
    Ok(s)
}

fn check(codec: Codec, back: &[u8], data: &[u8]) -> Result<(), String> {
    if back == data {
        Ok(())
    } else {
        Err(format!("{} did not round-trip", codec.name()))
    }
}

/// One ZVC stream over the whole tensor plus the 32-byte frame header: what ZVC without
/// chunking costs, framed like the other codecs.
pub fn zvc_size(data: &[u8], elem: ElemWidth) -> Result<u64, String> {
    let p = zvc::encode(data, elem).map_err(|e| format!("ZVC: {e}"))?;
    let back = zvc::decode(&p, elem, data.len() / elem.bytes()).map_err(|e| format!("ZVC: {e}"))?;
    check(Codec::Zvc, &back, data)?;
    Ok((p.len() + layout::HEADER_LEN) as u64)
}

/// Size of the chunked frame `cdma_model::compress` writes (4 KiB chunks, raw fallback,
/// header + index): the very function `cdma compress` calls, so both report the same number.
pub fn chunked_size(data: &[u8], elem: ElemWidth) -> Result<u64, String> {
    let frame = cdma_model::compress(data, elem).map_err(|e| format!("chunked: {e}"))?;
    let back = cdma_model::decompress(&frame).map_err(|e| format!("chunked: {e}"))?;
    if back != data {
        return Err("chunked frame did not round-trip".into());
    }
    Ok(frame.len() as u64)
}

/// Size of the version 3 ZVC-X frame of `data` (4 KiB chunks, raw fallback, header + index),
/// decoded back and compared before it is reported.
pub fn zvcx_size(data: &[u8], ty: ElemType) -> Result<u64, String> {
    let frame = cdma_model::compress_with(
        data,
        cdma_model::Codec::ZvcX,
        ty,
        layout::CHUNK_LOG2_DEFAULT,
    )
    .map_err(|e| format!("ZVC-X: {e}"))?;
    let back = cdma_model::decompress(&frame).map_err(|e| format!("ZVC-X: {e}"))?;
    check(Codec::ZvcX, &back, data)?;
    Ok(frame.len() as u64)
}

/// RL payload plus the 32-byte cdma header it would travel in, so RL and ZVC carry the same
/// framing cost.
pub fn rl_size(data: &[u8], elem: ElemWidth) -> Result<u64, String> {
    let p = rl::encode(data, elem).map_err(|e| e.to_string())?;
    let back = rl::decode(&p, elem, data.len() / elem.bytes()).map_err(|e| e.to_string())?;
    check(Codec::Rl, &back, data)?;
    Ok((p.len() + layout::HEADER_LEN) as u64)
}

/// zlib stream at level 6 (flate2's default backend, miniz_oxide).
pub fn zlib_size(data: &[u8]) -> Result<u64, String> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
    enc.write_all(data).map_err(|e| format!("zlib: {e}"))?;
    let z = enc.finish().map_err(|e| format!("zlib: {e}"))?;
    let mut back = Vec::with_capacity(data.len());
    flate2::read::ZlibDecoder::new(&z[..])
        .read_to_end(&mut back)
        .map_err(|e| format!("zlib: {e}"))?;
    check(Codec::Zlib, &back, data)?;
    Ok(z.len() as u64)
}

/// lz4_flex block format with its 4-byte length prefix.
pub fn lz4_size(data: &[u8]) -> Result<u64, String> {
    let c = lz4_flex::compress_prepend_size(data);
    let back = lz4_flex::decompress_size_prepended(&c).map_err(|e| format!("lz4: {e}"))?;
    check(Codec::Lz4, &back, data)?;
    Ok(c.len() as u64)
}

/// One zstd frame at level 3.
pub fn zstd_size(data: &[u8]) -> Result<u64, String> {
    let c = zstd::bulk::compress(data, 3).map_err(|e| format!("zstd: {e}"))?;
    let back = zstd::bulk::decompress(&c, data.len()).map_err(|e| format!("zstd: {e}"))?;
    check(Codec::Zstd, &back, data)?;
    Ok(c.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_of_a_known_tensor() {
        // 64 fp32 elements, every fourth non-zero: ZVC = 32 + 2 blocks × (4 + 8·4) = 104;
        // RL = 32 + 16 records × 5 bytes = 112 (the 3 trailing zeros stay implicit);
        // chunked = 32 + one index entry + the 72-byte ZVC chunk = 108.
        let data: Vec<u8> = (0..64u32)
            .flat_map(|i| if i % 4 == 0 { i + 1 } else { 0 }.to_le_bytes())
            .collect();
        let s = sizes(&data, ElemType::Raw(ElemWidth::W32)).unwrap();
        assert_eq!(s[Codec::Zvc.index()], 104);
        assert_eq!(s[Codec::Rl.index()], 112);
        assert!(s.iter().all(|&x| x > 0));
        assert_eq!(chunked_size(&data, ElemWidth::W32).unwrap(), 108);
        // Dense data: the chunk is stored raw, ZVC alone expands it.
        let dense = vec![1u8; 256];
        assert_eq!(
            zvc_size(&dense, ElemWidth::W32).unwrap(),
            32 + 2 * (4 + 128)
        );
        assert_eq!(chunked_size(&dense, ElemWidth::W32).unwrap(), 32 + 4 + 256);
    }

    #[test]
    fn codec_table_is_consistent() {
        for (i, c) in Codec::ALL.iter().enumerate() {
            assert_eq!(c.index(), i);
        }
        let keys: std::collections::BTreeSet<_> = Codec::ALL.iter().map(|c| c.key()).collect();
        assert_eq!(keys.len(), Codec::ALL.len());
    }

    #[test]
    fn rejects_partial_elements() {
        assert!(sizes(&[1, 2, 3], ElemType::F16).is_err());
    }
}
