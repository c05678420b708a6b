//! The chunked frame (format versions 2, 3 and 4): header, chunk index, payload.
//!
//! A frame is `header ‖ index ‖ payload` (version 4: `header ‖ index ‖ meta_crc ‖ payload`).
//! The source is cut into chunks of `2^chunk_log2` uncompressed bytes (the last one may be
//! shorter); each chunk is compressed on its own and stored compressed when that is strictly
//! smaller than the chunk, raw otherwise. The index has one entry per chunk: a 32-bit word
//! (stored size + raw flag), and in version 4 the CRC32C of the chunk's uncompressed bytes. The DMA engine writes the header and
//! index at the descriptor's metadata address and the payload at its destination, so a frame
//! file is exactly what memory holds when `meta + meta_len == dst`.

use crate::field::{BitField, Field};

/// `magic`: identifies a cdma frame.
pub const MAGIC_FIELD: Field = Field {
    name: "magic",
    offset: 0,
    size: 4,
    description: "ASCII `cDMA` (`63 44 4D 41`)",
};
/// `version`: format version.
pub const VERSION_FIELD: Field = Field {
    name: "version",
    offset: 4,
    size: 1,
    description:
        "4 (typed, with CRC32C), 3 (typed), or 2 (untyped: `elem_type` raw and codec ZVC; no CRC)",
};
/// `codec`: encoding of the compressed chunks.
pub const CODEC_FIELD: Field = Field {
    name: "codec",
    offset: 5,
    size: 1,
    description: "1 = ZVC, 2 = ZVC-X (versions 3 and 4)",
};
/// `elem_bits`: element width.
pub const ELEM_BITS_FIELD: Field = Field {
    name: "elem_bits",
    offset: 6,
    size: 1,
    description: "element width in bits: 8, 16 or 32",
};
/// `chunk_log2`: log2 of the uncompressed chunk size.
pub const CHUNK_LOG2_FIELD: Field = Field {
    name: "chunk_log2",
    offset: 7,
    size: 1,
    description: "uncompressed chunk size is `2^chunk_log2` bytes; 7 to 24",
};
/// `n_chunks`: number of chunks (= index entries).
pub const N_CHUNKS_FIELD: Field = Field {
    name: "n_chunks",
    offset: 8,
    size: 4,
    description: "number of chunks = index entries = `ceil(uncompressed_len / 2^chunk_log2)`",
};
/// `reserved`: must be zero. In a version 2 frame bytes 12–15 are this one reserved word
/// (what the DMA engine checks today); version 3 splits it into [`ELEM_TYPE_FIELD`] and
/// [`RESERVED_TYPED_FIELD`].
pub const RESERVED_FIELD: Field = Field {
    name: "reserved",
    offset: 12,
    size: 4,
    description: "0",
};
/// `elem_type` (versions 3 and 4): the element type, a code of `crate::zvcx::ELEM_TYPES`.
pub const ELEM_TYPE_FIELD: Field = Field {
    name: "elem_type",
    offset: 12,
    size: 1,
    description: "element type (table below); 0 = raw; a float type's width is `elem_bits`",
};
/// `reserved` (versions 3 and 4): must be zero.
pub const RESERVED_TYPED_FIELD: Field = Field {
    name: "reserved",
    offset: 13,
    size: 3,
    description: "0",
};
/// `uncompressed_len`: bytes of original data.
pub const UNCOMPRESSED_LEN_FIELD: Field = Field {
    name: "uncompressed_len",
    offset: 16,
    size: 8,
    description: "bytes of the original data; a multiple of `elem_bits/8`",
};
/// `payload_len`: bytes of payload (sum of the stored chunk sizes).
pub const PAYLOAD_LEN_FIELD: Field = Field {
    name: "payload_len",
    offset: 24,
    size: 8,
    description: "bytes of payload = sum of the index's stored sizes",
};

/// All header fields of a version 2 frame in offset order; they tile `0..HEADER_LEN`
/// (tested).
pub const HEADER_FIELDS: [Field; 9] = [
    MAGIC_FIELD,
    VERSION_FIELD,
    CODEC_FIELD,
    ELEM_BITS_FIELD,
    CHUNK_LOG2_FIELD,
    N_CHUNKS_FIELD,
    RESERVED_FIELD,
    UNCOMPRESSED_LEN_FIELD,
    PAYLOAD_LEN_FIELD,
];

/// All header fields of a version 3 or 4 frame in offset order (docs/FORMAT.md's table).
pub const HEADER_FIELDS_TYPED: [Field; 10] = [
    MAGIC_FIELD,
    VERSION_FIELD,
    CODEC_FIELD,
    ELEM_BITS_FIELD,
    CHUNK_LOG2_FIELD,
    N_CHUNKS_FIELD,
    ELEM_TYPE_FIELD,
    RESERVED_TYPED_FIELD,
    UNCOMPRESSED_LEN_FIELD,
    PAYLOAD_LEN_FIELD,
];

/// Length of the frame header in bytes.
pub const HEADER_LEN: usize = 32;
/// The magic bytes, ASCII `cDMA`.
pub const MAGIC: [u8; 4] = *b"cDMA";
/// The format version of an untyped ZVC frame (element type raw, codec ZVC): what the DMA
/// engine writes and reads today, and what writers still write for such frames so version 2
/// readers read them.
pub const VERSION: u8 = 2;
/// The format version of a typed frame (`elem_type` byte; codec ZVC or ZVC-X).
pub const VERSION_TYPED: u8 = 3;
/// The format version of a frame with CRC32C integrity checks: a version 3 frame whose index
/// entries carry the CRC32C of their chunk's uncompressed bytes ([`INDEX_ENTRY_FIELDS_CRC`])
/// and whose index is followed by [`META_CRC_FIELD`].
pub const VERSION_CRC: u8 = 4;
/// Codec id of zero-value compression.
pub const CODEC_ZVC: u8 = 1;
/// Codec id of ZVC-X, the float-aware block codec (`crate::zvcx`).
pub const CODEC_ZVCX: u8 = 2;
/// Elements per ZVC block (one mask bit each).
pub const BLOCK_ELEMS: usize = 32;
/// Bytes of a ZVC block mask.
pub const MASK_BYTES: usize = 4;
/// Smallest chunk: one 32-element block of 32-bit elements, and one 1024-bit bus beat.
pub const CHUNK_LOG2_MIN: u8 = 7;
/// Largest chunk the format allows (16 MiB; stored sizes must fit [`INDEX_SIZE`]).
pub const CHUNK_LOG2_MAX: u8 = 24;
/// Default chunk: 4 KiB.
pub const CHUNK_LOG2_DEFAULT: u8 = 12;

/// Bytes of one chunk index entry.
pub const INDEX_ENTRY_LEN: usize = 4;
/// Index entry: stored size of the chunk in the payload.
pub const INDEX_SIZE: BitField = BitField {
    name: "stored_len",
    lsb: 0,
    width: 31,
    description: "bytes the chunk occupies in the payload",
};
/// Index entry: the chunk is stored raw (uncompressed).
pub const INDEX_RAW: BitField = BitField {
    name: "raw",
    lsb: 31,
    width: 1,
    description: "1: stored raw, `stored_len` = its uncompressed size; 0: compressed by the frame's codec, `stored_len` < its uncompressed size",
};
/// All index entry fields.
pub const INDEX_FIELDS: [BitField; 2] = [INDEX_SIZE, INDEX_RAW];

/// Bytes of one version 4 chunk index entry: the entry word and the chunk's CRC32C.
pub const INDEX_ENTRY_LEN_CRC: usize = 8;
/// Version 4 index entry: the 32-bit word of a version 2/3 entry ([`INDEX_FIELDS`]).
pub const INDEX_WORD_FIELD: Field = Field {
    name: "entry",
    offset: 0,
    size: 4,
    description: "`stored_len` and `raw`, the 32-bit entry of versions 2 and 3 (table above)",
};
/// Version 4 index entry: CRC32C of the chunk's uncompressed bytes.
pub const INDEX_CRC_FIELD: Field = Field {
    name: "crc",
    offset: 4,
    size: 4,
    description: "CRC32C (Castagnoli) of the chunk's uncompressed bytes, raw or compressed alike",
};
/// The fields of a version 4 index entry; they tile [`INDEX_ENTRY_LEN_CRC`] (tested).
pub const INDEX_ENTRY_FIELDS_CRC: [Field; 2] = [INDEX_WORD_FIELD, INDEX_CRC_FIELD];
/// Version 4: the metadata CRC, right after the index (its offset is `32 + 8·n_chunks`, so
/// [`Field::offset`] here is relative to the end of the index).
pub const META_CRC_FIELD: Field = Field {
    name: "meta_crc",
    offset: 0,
    size: 4,
    description: "CRC32C of the index bytes followed by the 32 header bytes",
};
/// Bytes of [`META_CRC_FIELD`].
pub const META_CRC_LEN: usize = 4;

/// Bytes of header + index for `n_chunks` chunks of a version 2 or 3 frame (the metadata
/// region the engine writes).
pub const fn meta_len(n_chunks: u64) -> u64 {
    HEADER_LEN as u64 + INDEX_ENTRY_LEN as u64 * n_chunks
}

/// Bytes of header + index + metadata CRC for `n_chunks` chunks of a version 4 frame.
pub const fn meta_len_crc(n_chunks: u64) -> u64 {
    HEADER_LEN as u64 + INDEX_ENTRY_LEN_CRC as u64 * n_chunks + META_CRC_LEN as u64
}

/// Number of chunks of `len` bytes cut at `2^chunk_log2`.
pub const fn n_chunks(len: u64, chunk_log2: u8) -> u64 {
    len.div_ceil(1u64 << chunk_log2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::{check_bits, check_tiling};

    #[test]
    fn header_fields_tile_the_header() {
        check_tiling(&HEADER_FIELDS, HEADER_LEN).unwrap();
        check_tiling(&HEADER_FIELDS_TYPED, HEADER_LEN).unwrap();
        assert_eq!(MAGIC_FIELD.size, MAGIC.len());
        check_bits(&INDEX_FIELDS, 32).unwrap();
        check_tiling(&INDEX_ENTRY_FIELDS_CRC, INDEX_ENTRY_LEN_CRC).unwrap();
        assert_eq!(META_CRC_FIELD.size, META_CRC_LEN);
    }

    #[test]
    fn chunk_arithmetic() {
        assert_eq!(n_chunks(0, 12), 0);
        assert_eq!(n_chunks(1, 12), 1);
        assert_eq!(n_chunks(4096, 12), 1);
        assert_eq!(n_chunks(4097, 12), 2);
        assert_eq!(meta_len(256), 32 + 1024);
        assert_eq!(meta_len_crc(256), 32 + 2048 + 4);
        assert!((1u64 << CHUNK_LOG2_MAX) < INDEX_SIZE.mask());
    }
}
