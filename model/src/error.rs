//! The one error type of the crate: one variant per malformation of docs/FORMAT.md.

/// Everything that can be wrong with an input to the compressor or a frame/payload given
/// to the decompressor. Each variant corresponds to exactly one rule of docs/FORMAT.md
/// (plus [`FormatError::OutputTooLarge`], a limit of the machine, not of the format) and
/// carries the numbers needed to see what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The frame is shorter than the fixed 24-byte header.
    #[error("frame is {len} bytes, shorter than the {header_len}-byte header")]
    HeaderTooShort {
        /// Bytes available.
        len: usize,
        /// Header length (24).
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
    #[error("unsupported format version {version} (this decoder implements version {supported})")]
    UnsupportedVersion {
        /// Version byte found.
        version: u8,
        /// Version implemented (1).
        supported: u8,
    },
    /// The header's codec byte names no known codec.
    #[error("unknown codec id {codec} (known: 1 = ZVC)")]
    UnknownCodec {
        /// Codec byte found.
        codec: u8,
    },
    /// An element width other than 8, 16 or 32 bits (from a header or an API call).
    #[error("element width of {bits} bits is not supported (must be 8, 16 or 32)")]
    BadElemWidth {
        /// The rejected width in bits.
        bits: u32,
    },
    /// The header's reserved byte is not zero.
    #[error("reserved header byte (offset 7) is {value:#04x}, must be 0")]
    ReservedNonZero {
        /// Value found.
        value: u8,
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
    /// The frame holds fewer bytes after the header than `payload_len` says.
    #[error("frame truncated: header says {payload_len} payload bytes, only {available} follow the header")]
    Truncated {
        /// `payload_len` from the header.
        payload_len: u64,
        /// Bytes present after the header.
        available: usize,
    },
    /// The frame holds more bytes after the header than `payload_len` says.
    #[error("{extra} trailing bytes after the {payload_len}-byte payload")]
    TrailingBytes {
        /// `payload_len` from the header.
        payload_len: u64,
        /// Bytes after the payload.
        extra: usize,
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
}
