//! The one error type of the crate: one variant per malformation of docs/FORMAT.md.

/// Everything that can be wrong with an input to the compressor or a frame/payload given
/// to the decompressor. Each variant corresponds to exactly one rule of docs/FORMAT.md
/// (plus [`FormatError::OutputTooLarge`], a limit of the machine, not of the format, and the
/// API errors [`FormatError::TooManyChunks`] and [`FormatError::ChunkOutOfRange`]) and
/// carries the numbers needed to see what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The frame is shorter than the fixed 32-byte header.
    #[error("frame is {len} bytes, shorter than the {header_len}-byte header")]
    HeaderTooShort {
        /// Bytes available.
        len: usize,
        /// Header length (32).
        header_len: usize,
    },
    /// The first four bytes are not `cDMA`.
    #[error("bad magic {found:02x?}, expected {expected:02x?} (\"cDMA\")")]
    BadMagic {
        /// Bytes found at offset 0.
        found: [u8; 4],
        /// The magic `cDMA`.
        expected: [u8; 4],
    },
    /// The header's version byte is not one this decoder implements.
    #[error(
        "unsupported format version {version} (this decoder implements versions 2 to {supported})"
    )]
    UnsupportedVersion {
        /// Version byte found.
        version: u8,
        /// Newest version implemented (4).
        supported: u8,
    },
    /// The header's codec byte names no codec of its version (version 2: ZVC only).
    #[error("unknown codec id {codec} for format version {version} (known: 1 = ZVC, and in versions 3 and 4 2 = ZVC-X)")]
    UnknownCodec {
        /// Codec byte found.
        codec: u8,
        /// The frame's version.
        version: u8,
    },
    /// A version 3 header's `elem_type` byte names no element type.
    #[error("unknown element type code {code} (known: 0 = raw, 1 = f32, 2 = bf16, 3 = f16, 4 = e4m3, 5 = e5m2)")]
    UnknownElemType {
        /// Type code found.
        code: u8,
    },
    /// A version 3 header's float element type is not as wide as its `elem_bits`.
    #[error("element type {elem_type} is {type_bits} bits wide but the header's elem_bits is {elem_bits}")]
    ElemTypeWidthMismatch {
        /// The type's name.
        elem_type: &'static str,
        /// Its width.
        type_bits: u32,
        /// The header's `elem_bits`.
        elem_bits: u32,
    },
    /// An element width other than 8, 16 or 32 bits (from a header or an API call).
    #[error("element width of {bits} bits is not supported (must be 8, 16 or 32)")]
    BadElemWidth {
        /// The rejected width in bits.
        bits: u32,
    },
    /// The chunk size (`chunk_log2`, from a header or an API call) is outside the range the
    /// format allows.
    #[error(
        "chunk_log2 {chunk_log2} is outside {min}..={max} (chunks of 2^{min} to 2^{max} bytes)"
    )]
    BadChunkLog2 {
        /// The rejected value.
        chunk_log2: u8,
        /// Smallest allowed (7).
        min: u8,
        /// Largest allowed (24).
        max: u8,
    },
    /// The header's reserved word is not zero.
    #[error("reserved header word (offset 12) is {value:#010x}, must be 0")]
    ReservedNonZero {
        /// Value found.
        value: u32,
    },
    /// The header's `uncompressed_len` is not a whole number of elements.
    #[error(
        "header uncompressed_len {len} is not a whole number of {elem_bytes}-byte elements \
         ({} bytes too many)",
        len % *elem_bytes as u64
    )]
    UncompressedLenNotWholeElements {
        /// `uncompressed_len` from the header.
        len: u64,
        /// Element size in bytes.
        elem_bytes: usize,
    },
    /// The header's `uncompressed_len` (or an element count given to
    /// [`crate::zvc::decode`]) is more than this machine can hold in one buffer
    /// (`isize::MAX` bytes). Not a format rule but a platform limit, checked before the
    /// payload is looked at.
    #[error(
        "{n_elems} elements of {elem_bytes} bytes are more than this platform can hold in one \
         buffer ({max} bytes)"
    )]
    OutputTooLarge {
        /// Requested number of elements.
        n_elems: u64,
        /// Element size in bytes.
        elem_bytes: usize,
        /// Largest buffer this platform allows (`isize::MAX`).
        max: u64,
    },
    /// The header's `n_chunks` is not `ceil(uncompressed_len / 2^chunk_log2)`.
    #[error(
        "header n_chunks is {n_chunks}, but {uncompressed_len} bytes in chunks of 2^{chunk_log2} \
         bytes are {expected} chunks"
    )]
    ChunkCountMismatch {
        /// `n_chunks` from the header.
        n_chunks: u32,
        /// `ceil(uncompressed_len / 2^chunk_log2)`.
        expected: u64,
        /// `uncompressed_len` from the header.
        uncompressed_len: u64,
        /// `chunk_log2` from the header.
        chunk_log2: u8,
    },
    /// The frame ends before the chunk index does.
    #[error(
        "frame is {len} bytes, but the header and the index of {n_chunks} chunks take {needed} bytes"
    )]
    IndexTruncated {
        /// Bytes of the frame.
        len: usize,
        /// `n_chunks` from the header.
        n_chunks: u32,
        /// Header + index bytes (`32 + 4·n_chunks`; version 4: `32 + 8·n_chunks + 4`).
        needed: u64,
    },
    /// Version 4: the metadata CRC after the index is not the CRC32C of the index and the
    /// header: one of them (or the CRC itself) was damaged.
    #[error(
        "metadata CRC mismatch: the frame stores {stored:#010x}, its index and header give \
         {computed:#010x} (header or index damaged)"
    )]
    MetaCrcMismatch {
        /// CRC stored after the index.
        stored: u32,
        /// CRC32C of the index bytes followed by the header bytes.
        computed: u32,
    },
    /// An index entry marks a chunk raw but its stored size is not the chunk's size.
    #[error("index entry {chunk}: raw chunk stored in {stored_len} bytes, but the chunk is {chunk_len} bytes")]
    RawChunkSizeMismatch {
        /// Chunk number.
        chunk: u32,
        /// `stored_len` of the entry.
        stored_len: u32,
        /// Uncompressed size of that chunk.
        chunk_len: u64,
    },
    /// An index entry marks a chunk ZVC-compressed but its stored size is not smaller than the
    /// chunk (a compressor stores such a chunk raw).
    #[error(
        "index entry {chunk}: compressed chunk stored in {stored_len} bytes, not smaller than \
         the {chunk_len}-byte chunk"
    )]
    ZvcChunkNotSmaller {
        /// Chunk number.
        chunk: u32,
        /// `stored_len` of the entry.
        stored_len: u32,
        /// Uncompressed size of that chunk.
        chunk_len: u64,
    },
    /// An index entry marks a chunk ZVC-compressed with a stored size that is not a whole
    /// number of elements (every ZVC payload is).
    #[error(
        "index entry {chunk}: compressed chunk stored in {stored_len} bytes, not a whole number \
         of {elem_bytes}-byte elements"
    )]
    ZvcChunkNotWholeElements {
        /// Chunk number.
        chunk: u32,
        /// `stored_len` of the entry.
        stored_len: u32,
        /// Element size in bytes.
        elem_bytes: usize,
    },
    /// The stored sizes of the index do not add up to the header's `payload_len`.
    #[error(
        "header payload_len is {payload_len}, but the index's stored sizes sum to {index_sum}"
    )]
    PayloadLenMismatch {
        /// `payload_len` from the header.
        payload_len: u64,
        /// Sum of the index's `stored_len`s.
        index_sum: u64,
    },
    /// The frame holds fewer bytes after the index than `payload_len` says.
    #[error("frame truncated: header says {payload_len} payload bytes, only {available} follow the index")]
    Truncated {
        /// `payload_len` from the header.
        payload_len: u64,
        /// Bytes present after the index.
        available: usize,
    },
    /// The frame holds more bytes after the index than `payload_len` says.
    #[error("{extra} trailing bytes after the {payload_len}-byte payload")]
    TrailingBytes {
        /// `payload_len` from the header.
        payload_len: u64,
        /// Bytes after the payload.
        extra: usize,
    },
    /// A ZVC chunk does not decode to exactly its chunk size in exactly its stored bytes; the
    /// inner error (block numbers and offsets relative to the chunk's stored bytes) says how.
    #[error("chunk {chunk} (payload bytes {offset}..{end}): {source}", end = offset + u64::from(*stored_len))]
    BadChunk {
        /// Chunk number.
        chunk: u32,
        /// Payload offset of the chunk's stored bytes.
        offset: u64,
        /// Stored size of the chunk.
        stored_len: u32,
        /// What is wrong with its ZVC payload: [`FormatError::PayloadEndsInsideBlock`],
        /// [`FormatError::MaskBitsPastEnd`], [`FormatError::ZeroElementInPayload`] or
        /// [`FormatError::ExcessPayload`].
        #[source]
        source: Box<FormatError>,
    },
    /// Version 4: a chunk decoded without error, but its data's CRC32C is not the one its
    /// index entry stores: the payload was damaged.
    #[error(
        "chunk {chunk} (payload bytes {offset}..{end}): CRC32C of the decoded data is \
         {computed:#010x}, the index says {stored:#010x} (payload damaged)",
        end = offset + u64::from(*stored_len)
    )]
    ChunkCrcMismatch {
        /// Chunk number.
        chunk: u32,
        /// Payload offset of the chunk's stored bytes.
        offset: u64,
        /// Stored size of the chunk.
        stored_len: u32,
        /// CRC of the index entry.
        stored: u32,
        /// CRC32C of the chunk's decoded bytes.
        computed: u32,
    },
    /// The payload ends before a block (its mask or one of its non-zero elements) is complete.
    #[error(
        "payload ends inside block {block} (block starts at payload byte {offset}, \
         needs {needed} bytes, {available} left)"
    )]
    PayloadEndsInsideBlock {
        /// Index of the incomplete block.
        block: usize,
        /// Payload byte offset of the block's mask.
        offset: usize,
        /// Bytes the block needs (4 for the mask if it is itself cut, else 4 + non-zeros·E/8).
        needed: usize,
        /// Bytes left in the payload from `offset`.
        available: usize,
    },
    /// The final, partial block's mask has bits set for elements past the end of the tensor.
    #[error("mask {mask:#010x} of final block {block} has bits set past its {valid} elements")]
    MaskBitsPastEnd {
        /// Index of the final block.
        block: usize,
        /// The offending mask.
        mask: u32,
        /// Number of elements the partial block holds (1..=31).
        valid: usize,
    },
    /// A mask bit is set but the element stored for it is zero. The compressor never writes
    /// this (a zero element has mask bit 0), so accepting it would make two different
    /// payloads decode to the same data; rejecting it keeps the format canonical.
    #[error(
        "block {block} stores a zero element for its element {element} (payload byte {offset}), \
         but zero elements must not be stored"
    )]
    ZeroElementInPayload {
        /// Index of the block.
        block: usize,
        /// Index of the element within the block (0..32).
        element: usize,
        /// Payload byte offset of the stored zero element.
        offset: usize,
    },
    /// Bytes remain in the payload after the last block has been decoded.
    #[error(
        "{extra} payload bytes left over after the last block (payload is {payload_len} bytes)"
    )]
    ExcessPayload {
        /// Bytes left over.
        extra: usize,
        /// Total payload length.
        payload_len: usize,
    },
    /// A ZVC-X chunk payload breaks one of the ZVC-X decoding rules.
    #[error("{0}")]
    ZvcX(crate::zvcx::ZvcxError),
    /// The compressor's input is not a whole number of elements.
    #[error(
        "input of {len} bytes is not a whole number of {elem_bytes}-byte elements ({} bytes too many)",
        len % elem_bytes
    )]
    InputNotWholeElements {
        /// Input length in bytes.
        len: usize,
        /// Element size in bytes.
        elem_bytes: usize,
    },
    /// The compressor's input would need more chunks than the header's 32-bit `n_chunks` holds.
    #[error(
        "input of {len} bytes needs {n_chunks} chunks of 2^{chunk_log2} bytes, more than {max}"
    )]
    TooManyChunks {
        /// Input length in bytes.
        len: u64,
        /// Chunk size exponent.
        chunk_log2: u8,
        /// Chunks needed.
        n_chunks: u64,
        /// Largest `n_chunks` (`u32::MAX`).
        max: u64,
    },
    /// A chunk number past the frame's last chunk was asked for.
    #[error("chunk {chunk} asked for, but the frame has {n_chunks} chunks")]
    ChunkOutOfRange {
        /// Chunk asked for.
        chunk: usize,
        /// Chunks in the frame.
        n_chunks: u32,
    },
}
