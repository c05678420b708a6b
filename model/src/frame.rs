//! The chunked frame (docs/FORMAT.md, versions 2, 3 and 4): `header ‖ index ‖ payload`.
//!
//! The input is cut into chunks of `2^chunk_log2` bytes (the last may be shorter); each chunk
//! is encoded on its own by the frame's codec ([`crate::zvc`] or [`crate::zvcx`]) and stored
//! compressed iff that is strictly smaller than the chunk, raw otherwise, so a frame is never
//! more than its metadata (`32 + 4·n_chunks` bytes, version 4 `36 + 8·n_chunks`) larger than
//! its input. Chunks are independent: [`FrameView::chunk`] decodes any one of them from the
//! index alone, and the DMA engine streams them with a bounded buffer. Version 4 adds the
//! CRC32C of every chunk's data to its index entry and a CRC of the index and header after
//! the index ([`FrameOptions::crc`]).

use std::ops::Range;

use crate::layout::{self, crc32c, Header, IndexEntry, HEADER_LEN, META_CRC_LEN};
use crate::{zvc, zvcx, Codec, ElemType, ElemWidth, FormatError};

/// How [`compress_frame`] writes a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameOptions {
    /// Codec of the compressed chunks.
    pub codec: Codec,
    /// Element type (and so width) of the data.
    pub elem_type: ElemType,
    /// Chunks of `2^chunk_log2` uncompressed bytes (7..=24).
    pub chunk_log2: u8,
    /// Carry CRC32C checks (a version 4 frame); without, the frame is version 2 or 3.
    pub crc: bool,
}

impl FrameOptions {
    /// The defaults for elements of `elem_type`: ZVC, 4 KiB chunks, CRCs on.
    pub fn new(elem_type: ElemType) -> FrameOptions {
        FrameOptions {
            codec: Codec::Zvc,
            elem_type,
            chunk_log2: layout::CHUNK_LOG2_DEFAULT,
            crc: true,
        }
    }
}

/// Compresses `data` into a frame as `opts` say: version 4 with CRCs, else as
/// [`compress_with`]. Errors as [`compress_chunked`].
pub fn compress_frame(data: &[u8], opts: &FrameOptions) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    compress_frame_into(data, opts, &mut out)?;
    Ok(out)
}

/// Compresses `data` (a tensor of `elem`-wide elements) into a frame with the default chunk
/// size (`2^12` = 4 KiB). See [`compress_chunked`].
pub fn compress(data: &[u8], elem: ElemWidth) -> Result<Vec<u8>, FormatError> {
    compress_chunked(data, elem, layout::CHUNK_LOG2_DEFAULT)
}

/// Compresses `data` into a frame with chunks of `2^chunk_log2` bytes (version 2: ZVC, no
/// CRCs; [`compress_frame`] writes the other versions).
///
/// Fails with [`FormatError::InputNotWholeElements`] if `data.len()` is not a multiple of
/// `elem.bytes()`, [`FormatError::BadChunkLog2`] if `chunk_log2` is outside 7..=24, and
/// [`FormatError::TooManyChunks`] if the input needs more than `u32::MAX` chunks.
pub fn compress_chunked(
    data: &[u8],
    elem: ElemWidth,
    chunk_log2: u8,
) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    compress_chunked_into(data, elem, chunk_log2, &mut out)?;
    Ok(out)
}

/// Like [`compress`], but appends the frame to `out` so a caller can reuse one buffer across
/// many tensors (no allocation once it is large enough). On error `out` is unchanged.
pub fn compress_into(data: &[u8], elem: ElemWidth, out: &mut Vec<u8>) -> Result<(), FormatError> {
    compress_chunked_into(data, elem, layout::CHUNK_LOG2_DEFAULT, out)
}

/// Like [`compress_chunked`], appending to `out`. On error `out` is unchanged.
pub fn compress_chunked_into(
    data: &[u8],
    elem: ElemWidth,
    chunk_log2: u8,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    compress_with_into(data, Codec::Zvc, ElemType::Raw(elem), chunk_log2, out)
}

/// Compresses `data` (elements of `elem_type`) with `codec` into a frame with chunks of
/// `2^chunk_log2` bytes without CRCs: version 2 for raw elements and ZVC (exactly
/// [`compress_chunked`]), else version 3. Errors as [`compress_chunked`].
pub fn compress_with(
    data: &[u8],
    codec: Codec,
    elem_type: ElemType,
    chunk_log2: u8,
) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    compress_with_into(data, codec, elem_type, chunk_log2, &mut out)?;
    Ok(out)
}

/// Like [`compress_with`], appending to `out`. On error `out` is unchanged.
pub fn compress_with_into(
    data: &[u8],
    codec: Codec,
    elem_type: ElemType,
    chunk_log2: u8,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    let opts = FrameOptions {
        codec,
        elem_type,
        chunk_log2,
        crc: false,
    };
    compress_frame_into(data, &opts, out)
}

/// Like [`compress_frame`], appending to `out`. On error `out` is unchanged.
pub fn compress_frame_into(
    data: &[u8],
    opts: &FrameOptions,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    let FrameOptions {
        codec,
        elem_type,
        chunk_log2,
        crc,
    } = *opts;
    let elem = elem_type.width();
    // Validate everything before touching `out`, so an error leaves it as it was.
    zvc::check_whole_elements(data.len(), elem)?;
    layout::check_chunk_log2(chunk_log2)?;
    let n_chunks = layout::chunk_count(data.len() as u64, chunk_log2)?;
    let mut header = Header {
        codec,
        elem_type,
        chunk_log2,
        n_chunks,
        uncompressed_len: data.len() as u64,
        payload_len: 0,
        crc,
    };
    let start = out.len();
    let meta = header.meta_len() as usize;
    // The frame is at most meta + data (raw fallback), so one reservation suffices but for
    // the ZVC encoder's own worst-case reservation of the last chunk.
    out.reserve(meta + data.len());
    out.resize(start + meta, 0);
    let index_at = start + HEADER_LEN;
    let entry_len = header.entry_len();
    for (i, chunk) in data.chunks(1 << chunk_log2).enumerate() {
        let mut e = encode_chunk_with(chunk, codec, elem_type, out);
        if crc {
            e.crc = crc32c(chunk);
        }
        let at = index_at + i * entry_len;
        e.write(&mut out[at..at + entry_len], crc);
    }
    header.payload_len = (out.len() - start - meta) as u64;
    header.write(&mut out[start..start + HEADER_LEN]);
    if crc {
        let index_end = start + meta - META_CRC_LEN;
        let m = layout::meta_crc(&out[index_at..index_end], &out[start..index_at]);
        out[index_end..index_end + META_CRC_LEN].copy_from_slice(&m.to_le_bytes());
    }
    Ok(())
}

/// Appends the stored bytes of one chunk to `out` and returns its index entry (CRC 0; the
/// caller adds it for a version 4 frame): the ZVC payload if it is strictly smaller than the
/// chunk, else the chunk itself (raw). The chunk must be a whole number of elements and at
/// most `2^24` bytes (callers check).
pub fn encode_chunk(chunk: &[u8], elem: ElemWidth, out: &mut Vec<u8>) -> IndexEntry {
    encode_chunk_with(chunk, Codec::Zvc, ElemType::Raw(elem), out)
}

/// Like [`encode_chunk`] with `codec` over elements of `elem_type`.
pub fn encode_chunk_with(
    chunk: &[u8],
    codec: Codec,
    elem_type: ElemType,
    out: &mut Vec<u8>,
) -> IndexEntry {
    debug_assert!(chunk.len() <= 1 << layout::CHUNK_LOG2_MAX);
    let at = out.len();
    // Encoding and then falling back costs one wasted encode on incompressible chunks, but
    // keeps a single pass over compressible ones (the common case for activations).
    match codec {
        Codec::Zvc => zvc::encode_into(chunk, elem_type.width(), out),
        Codec::ZvcX => zvcx::encode_into(chunk, elem_type, out),
    }
    .expect("caller checked whole elements");
    let stored = out.len() - at;
    if stored < chunk.len() {
        IndexEntry {
            stored_len: stored as u32,
            raw: false,
            crc: 0,
        }
    } else {
        out.truncate(at);
        out.extend_from_slice(chunk);
        IndexEntry {
            stored_len: chunk.len() as u32,
            raw: true,
            crc: 0,
        }
    }
}

/// Appends the `chunk_len` uncompressed bytes of a chunk to `out`, from its `stored` bytes
/// and index entry (already checked against the rules of the index). Errors are the ZVC
/// payload rules ([`crate::zvc::decode`]), relative to `stored`; on error `out` keeps its
/// length.
pub fn decode_chunk(
    stored: &[u8],
    entry: IndexEntry,
    chunk_len: usize,
    elem: ElemWidth,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    decode_chunk_with(
        stored,
        entry,
        chunk_len,
        Codec::Zvc,
        ElemType::Raw(elem),
        out,
    )
}

/// Like [`decode_chunk`] for a frame of `codec` over elements of `elem_type`.
pub fn decode_chunk_with(
    stored: &[u8],
    entry: IndexEntry,
    chunk_len: usize,
    codec: Codec,
    elem_type: ElemType,
    out: &mut Vec<u8>,
) -> Result<(), FormatError> {
    let n = chunk_len / elem_type.width().bytes();
    if entry.raw {
        debug_assert_eq!(stored.len(), chunk_len);
        out.extend_from_slice(stored);
        Ok(())
    } else {
        match codec {
            Codec::Zvc => zvc::decode_into(stored, elem_type.width(), n, out),
            Codec::ZvcX => zvcx::decode_into(stored, elem_type, n, out),
        }
    }
}

/// Decompresses one frame, validating every rule of docs/FORMAT.md; each malformation has
/// its own [`FormatError`] variant. Never panics on any input.
pub fn decompress(frame: &[u8]) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    decompress_into(frame, &mut out)?;
    Ok(out)
}

/// Like [`decompress`], but appends the data to `out` (reusable buffer). On error `out`
/// keeps its previous length.
pub fn decompress_into(frame: &[u8], out: &mut Vec<u8>) -> Result<(), FormatError> {
    FrameView::parse(frame)?.decompress_into(out)
}

/// A frame whose header, index and lengths have been checked (rules 1–16 of
/// docs/FORMAT.md, and in version 4 the metadata CRC); the chunks' payloads (and CRCs) are
/// checked when they are decoded, one by one, so any chunk can be decoded without reading the
/// others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameView<'a> {
    header: Header,
    index: Vec<IndexEntry>,
    /// `offsets[i]`: payload offset of chunk `i`'s stored bytes; `offsets[n]` = payload_len.
    offsets: Vec<u64>,
    payload: &'a [u8],
}

impl<'a> FrameView<'a> {
    /// Checks the header, the index and the frame's length, in the order of docs/FORMAT.md.
    pub fn parse(frame: &'a [u8]) -> Result<FrameView<'a>, FormatError> {
        let header = Header::parse(frame)?;
        // A machine limit, not a format rule: on 64-bit hosts rule 9 already bounds
        // uncompressed_len by 2^32 chunks of 2^24 bytes.
        if header.uncompressed_len > isize::MAX as u64 {
            return Err(FormatError::OutputTooLarge {
                n_elems: header.uncompressed_len / header.elem().bytes() as u64,
                elem_bytes: header.elem().bytes(),
                max: isize::MAX as u64,
            });
        }
        let meta = header.meta_len();
        if (frame.len() as u64) < meta {
            return Err(FormatError::IndexTruncated {
                len: frame.len(),
                n_chunks: header.n_chunks,
                needed: meta,
            });
        }
        // meta <= frame.len(): the index fits in memory, so n_chunks entries can be held.
        let meta = meta as usize;
        let index_end = if header.crc {
            meta - META_CRC_LEN
        } else {
            meta
        };
        let index_bytes = &frame[HEADER_LEN..index_end];
        if header.crc {
            // Rule 10a: the metadata CRC, before any index entry is believed.
            let stored = layout::META_CRC_FIELD.get(&frame[index_end..meta]) as u32;
            let computed = layout::meta_crc(index_bytes, &frame[..HEADER_LEN]);
            if stored != computed {
                return Err(FormatError::MetaCrcMismatch { stored, computed });
            }
        }
        let n = header.n_chunks as usize;
        let mut index = Vec::with_capacity(n);
        let mut offsets = Vec::with_capacity(n + 1);
        let mut sum = 0u64;
        for i in 0..n {
            let e = IndexEntry::read(index_bytes, i, header.crc);
            e.check(
                i as u32,
                header.chunk_len(i as u64),
                header.codec,
                header.elem(),
            )?;
            offsets.push(sum);
            sum += u64::from(e.stored_len);
            index.push(e);
        }
        offsets.push(sum);
        if sum != header.payload_len {
            return Err(FormatError::PayloadLenMismatch {
                payload_len: header.payload_len,
                index_sum: sum,
            });
        }
        let available = frame.len() - meta;
        if header.payload_len > available as u64 {
            return Err(FormatError::Truncated {
                payload_len: header.payload_len,
                available,
            });
        }
        if header.payload_len < available as u64 {
            return Err(FormatError::TrailingBytes {
                payload_len: header.payload_len,
                extra: available - header.payload_len as usize,
            });
        }
        Ok(FrameView {
            header,
            index,
            offsets,
            payload: &frame[meta..],
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The index, one entry per chunk.
    pub fn index(&self) -> &[IndexEntry] {
        &self.index
    }

    /// The payload: every chunk's stored bytes, back to back.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }

    /// Number of chunks.
    pub fn n_chunks(&self) -> usize {
        self.index.len()
    }

    /// Bytes of header + index (+ the metadata CRC in version 4): where the payload starts in
    /// the frame.
    pub fn meta_len(&self) -> usize {
        self.header.meta_len() as usize
    }

    fn check_chunk(&self, i: usize) -> Result<(), FormatError> {
        if i < self.index.len() {
            Ok(())
        } else {
            Err(FormatError::ChunkOutOfRange {
                chunk: i,
                n_chunks: self.header.n_chunks,
            })
        }
    }

    /// The uncompressed byte range chunk `i` decodes to.
    pub fn chunk_range(&self, i: usize) -> Result<Range<u64>, FormatError> {
        self.check_chunk(i)?;
        let start = i as u64 * self.header.chunk_bytes();
        Ok(start..start + self.header.chunk_len(i as u64))
    }

    /// The payload range holding chunk `i`'s stored bytes.
    pub fn stored_range(&self, i: usize) -> Result<Range<usize>, FormatError> {
        self.check_chunk(i)?;
        Ok(self.offsets[i] as usize..self.offsets[i + 1] as usize)
    }

    /// Decodes chunk `i` alone (its payload rule, rule 17, and in version 4 its CRC, rule 17a,
    /// are checked here; no other chunk's payload is read).
    pub fn chunk(&self, i: usize) -> Result<Vec<u8>, FormatError> {
        let mut out = Vec::new();
        self.chunk_into(i, &mut out)?;
        Ok(out)
    }

    /// Like [`FrameView::chunk`], appending to `out`; on error `out` keeps its length.
    pub fn chunk_into(&self, i: usize, out: &mut Vec<u8>) -> Result<(), FormatError> {
        let r = self.stored_range(i)?;
        let e = self.index[i];
        let chunk_len = self.header.chunk_len(i as u64) as usize;
        let at = out.len();
        decode_chunk_with(
            &self.payload[r.clone()],
            e,
            chunk_len,
            self.header.codec,
            self.header.elem_type,
            out,
        )
        .map_err(|source| FormatError::BadChunk {
            chunk: i as u32,
            offset: r.start as u64,
            stored_len: e.stored_len,
            source: Box::new(source),
        })?;
        if self.header.crc {
            let computed = crc32c(&out[at..]);
            if computed != e.crc {
                out.truncate(at);
                return Err(FormatError::ChunkCrcMismatch {
                    chunk: i as u32,
                    offset: r.start as u64,
                    stored_len: e.stored_len,
                    stored: e.crc,
                    computed,
                });
            }
        }
        Ok(())
    }

    /// Decodes every chunk in order and appends the data to `out`; the first chunk that
    /// fails is reported and `out` keeps its previous length.
    pub fn decompress_into(&self, out: &mut Vec<u8>) -> Result<(), FormatError> {
        let start = out.len();
        // Reserve what the frame can really expand to: a ZVC chunk needs a 4-byte mask per
        // 32 elements (at most 32 output bytes per stored byte), a ZVC-X chunk 2 bits per 32
        // elements (4 blocks of 32·E/8 bytes per stored byte), so a forged header that
        // promises far more data than its payload can hold costs no large allocation.
        let per_byte = match self.header.codec {
            Codec::Zvc => 32,
            Codec::ZvcX => 4 * 32 * self.header.elem().bytes() as u64,
        };
        let bound: u64 = (0..self.index.len())
            .map(|i| {
                let stored = u64::from(self.index[i].stored_len);
                self.header
                    .chunk_len(i as u64)
                    .min(stored.saturating_mul(per_byte))
            })
            .sum();
        out.reserve(bound as usize);
        for i in 0..self.index.len() {
            if let Err(e) = self.chunk_into(i, out) {
                out.truncate(start);
                return Err(e);
            }
        }
        Ok(())
    }
}
