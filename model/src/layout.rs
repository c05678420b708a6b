//! The chunked frame of docs/FORMAT.md (versions 2, 3 and 4) as typed values.
//!
//! The layout itself (offsets, sizes, bit positions, constants) is defined once, in
//! [`cdma_spec::frame`], and re-exported here; this module only adds the typed [`Header`] and
//! [`IndexEntry`] that read and write those fields, and the header/index rules of
//! docs/FORMAT.md. A test checks that docs/FORMAT.md contains the tables rendered from the
//! same definitions, so the document, the encoder and the decoder cannot drift apart.

pub use cdma_spec::field::{markdown_bits, markdown_fields, BitField, Field};
pub use cdma_spec::frame::{
    meta_len, meta_len_crc, n_chunks, BLOCK_ELEMS, CHUNK_LOG2_DEFAULT, CHUNK_LOG2_FIELD,
    CHUNK_LOG2_MAX, CHUNK_LOG2_MIN, CODEC_FIELD, CODEC_ZVC, CODEC_ZVCX, ELEM_BITS_FIELD,
    ELEM_TYPE_FIELD, HEADER_FIELDS, HEADER_FIELDS_TYPED, HEADER_LEN, INDEX_CRC_FIELD,
    INDEX_ENTRY_FIELDS_CRC, INDEX_ENTRY_LEN, INDEX_ENTRY_LEN_CRC, INDEX_FIELDS, INDEX_RAW,
    INDEX_SIZE, INDEX_WORD_FIELD, MAGIC, MAGIC_FIELD, MASK_BYTES, META_CRC_FIELD, META_CRC_LEN,
    N_CHUNKS_FIELD, PAYLOAD_LEN_FIELD, RESERVED_FIELD, RESERVED_TYPED_FIELD,
    UNCOMPRESSED_LEN_FIELD, VERSION, VERSION_CRC, VERSION_FIELD, VERSION_TYPED,
};

use crate::{Codec, ElemType, ElemWidth, FormatError};

/// A decoded frame header (magic and reserved bytes are implied; the version follows from
/// the CRC flag, the type and the codec: 4 with CRCs, else 2 for raw elements and ZVC, else
/// 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Codec of the compressed chunks.
    pub codec: Codec,
    /// Element type (and so width).
    pub elem_type: ElemType,
    /// Chunks are `2^chunk_log2` uncompressed bytes (the last one may be shorter).
    pub chunk_log2: u8,
    /// Number of chunks = index entries.
    pub n_chunks: u32,
    /// Bytes of original data (a whole number of elements).
    pub uncompressed_len: u64,
    /// Bytes of payload (sum of the index's stored sizes).
    pub payload_len: u64,
    /// The frame carries CRC32C checks (version 4): each index entry the CRC of its chunk's
    /// data, and a metadata CRC after the index.
    pub crc: bool,
}

/// CRC32C (Castagnoli; reflected, initial value and final XOR `0xFFFF_FFFF`, the CRC of
/// iSCSI, ext4 and NVMe) of `data`: `crc32c(b"123456789") == 0xE306_9283`.
pub fn crc32c(data: &[u8]) -> u32 {
    ::crc32c::crc32c(data)
}

/// The version 4 metadata CRC: CRC32C of the index bytes followed by the 32 header bytes.
/// The index comes first because the engine knows the header (`payload_len`) only after the
/// last chunk, when the index has already streamed out.
pub fn meta_crc(index: &[u8], header: &[u8]) -> u32 {
    ::crc32c::crc32c_append(::crc32c::crc32c(index), header)
}

/// Fails with [`FormatError::BadChunkLog2`] unless `chunk_log2` is in
/// `CHUNK_LOG2_MIN..=CHUNK_LOG2_MAX`.
pub fn check_chunk_log2(chunk_log2: u8) -> Result<(), FormatError> {
    if (CHUNK_LOG2_MIN..=CHUNK_LOG2_MAX).contains(&chunk_log2) {
        Ok(())
    } else {
        Err(FormatError::BadChunkLog2 {
            chunk_log2,
            min: CHUNK_LOG2_MIN,
            max: CHUNK_LOG2_MAX,
        })
    }
}

impl Header {
    /// Element width.
    pub fn elem(&self) -> ElemWidth {
        self.elem_type.width()
    }

    /// The version this header is written as: 4 with CRCs, else 2 (readable by version 2
    /// decoders) for raw elements and ZVC, else 3.
    pub fn version(&self) -> u8 {
        match (self.crc, self.codec, self.elem_type) {
            (true, _, _) => VERSION_CRC,
            (false, Codec::Zvc, ElemType::Raw(_)) => VERSION,
            _ => VERSION_TYPED,
        }
    }

    /// Bytes of one index entry: 8 with CRCs (version 4), else 4.
    pub fn entry_len(&self) -> usize {
        if self.crc {
            INDEX_ENTRY_LEN_CRC
        } else {
            INDEX_ENTRY_LEN
        }
    }

    /// Writes the header into `dst[..HEADER_LEN]` (`dst` must be at least 32 bytes).
    pub fn write(&self, dst: &mut [u8]) {
        dst[MAGIC_FIELD.offset..MAGIC_FIELD.end()].copy_from_slice(&MAGIC);
        VERSION_FIELD.put(dst, u64::from(self.version()));
        CODEC_FIELD.put(dst, u64::from(self.codec.id()));
        ELEM_BITS_FIELD.put(dst, u64::from(self.elem().bits()));
        CHUNK_LOG2_FIELD.put(dst, u64::from(self.chunk_log2));
        N_CHUNKS_FIELD.put(dst, u64::from(self.n_chunks));
        // Version 2's reserved word is elem_type 0 and three reserved bytes.
        ELEM_TYPE_FIELD.put(dst, u64::from(self.elem_type.code()));
        RESERVED_TYPED_FIELD.put(dst, 0);
        UNCOMPRESSED_LEN_FIELD.put(dst, self.uncompressed_len);
        PAYLOAD_LEN_FIELD.put(dst, self.payload_len);
    }

    /// Returns the header as its 32 bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        self.write(&mut b);
        b
    }

    /// Parses and checks the header at the start of `frame`: rules 1–9 of docs/FORMAT.md, in
    /// that order (so a header with several faults reports the first). It looks at the 32
    /// header bytes only; the index and payload rules need the rest of the frame
    /// ([`crate::FrameView::parse`]). The DMA engine applies the same checks (BAD_HEADER).
    pub fn parse(frame: &[u8]) -> Result<Header, FormatError> {
        if frame.len() < HEADER_LEN {
            return Err(FormatError::HeaderTooShort {
                len: frame.len(),
                header_len: HEADER_LEN,
            });
        }
        let magic = &frame[MAGIC_FIELD.offset..MAGIC_FIELD.end()];
        if magic != MAGIC {
            let mut found = [0u8; 4];
            found.copy_from_slice(magic);
            return Err(FormatError::BadMagic {
                found,
                expected: MAGIC,
            });
        }
        let version = VERSION_FIELD.get(frame) as u8;
        if !(VERSION..=VERSION_CRC).contains(&version) {
            return Err(FormatError::UnsupportedVersion {
                version,
                supported: VERSION_CRC,
            });
        }
        let id = CODEC_FIELD.get(frame) as u8;
        let codec = match Codec::from_id(id) {
            Some(c) if version != VERSION || c == Codec::Zvc => c,
            _ => return Err(FormatError::UnknownCodec { codec: id, version }),
        };
        let elem = ElemWidth::from_bits(ELEM_BITS_FIELD.get(frame) as u32)?;
        let chunk_log2 = CHUNK_LOG2_FIELD.get(frame) as u8;
        check_chunk_log2(chunk_log2)?;
        let reserved = if version == VERSION {
            RESERVED_FIELD.get(frame)
        } else {
            RESERVED_TYPED_FIELD.get(frame)
        } as u32;
        if reserved != 0 {
            return Err(FormatError::ReservedNonZero { value: reserved });
        }
        let elem_type = ElemType::from_code(ELEM_TYPE_FIELD.get(frame) as u8, elem)?;
        let uncompressed_len = UNCOMPRESSED_LEN_FIELD.get(frame);
        if !uncompressed_len.is_multiple_of(elem.bytes() as u64) {
            return Err(FormatError::UncompressedLenNotWholeElements {
                len: uncompressed_len,
                elem_bytes: elem.bytes(),
            });
        }
        let n_chunks = N_CHUNKS_FIELD.get(frame) as u32;
        let expected = n_chunks_of(uncompressed_len, chunk_log2);
        if u64::from(n_chunks) != expected {
            return Err(FormatError::ChunkCountMismatch {
                n_chunks,
                expected,
                uncompressed_len,
                chunk_log2,
            });
        }
        Ok(Header {
            codec,
            elem_type,
            chunk_log2,
            n_chunks,
            uncompressed_len,
            payload_len: PAYLOAD_LEN_FIELD.get(frame),
            crc: version == VERSION_CRC,
        })
    }

    /// Uncompressed bytes of a full chunk, `2^chunk_log2`.
    pub fn chunk_bytes(&self) -> u64 {
        1 << self.chunk_log2
    }

    /// Uncompressed bytes of chunk `i` (`2^chunk_log2`, or less for the last chunk; 0 past
    /// the end).
    pub fn chunk_len(&self, i: u64) -> u64 {
        let start = i.saturating_mul(self.chunk_bytes());
        self.uncompressed_len
            .saturating_sub(start)
            .min(self.chunk_bytes())
    }

    /// Bytes of header + index, `32 + 4·n_chunks` (version 4: + 4 more per entry and the
    /// 4-byte metadata CRC): where the payload starts in a frame file, and the size of the
    /// metadata region the DMA engine writes at `meta_addr`.
    pub fn meta_len(&self) -> u64 {
        let n = u64::from(self.n_chunks);
        if self.crc {
            meta_len_crc(n)
        } else {
            meta_len(n)
        }
    }
}

/// The header's `n_chunks` for `len` bytes in chunks of `2^chunk_log2` (which must be in
/// range), or [`FormatError::TooManyChunks`] if that exceeds its 32 bits.
pub fn chunk_count(len: u64, chunk_log2: u8) -> Result<u32, FormatError> {
    let n = n_chunks_of(len, chunk_log2);
    u32::try_from(n).map_err(|_| FormatError::TooManyChunks {
        len,
        chunk_log2,
        n_chunks: n,
        max: u64::from(u32::MAX),
    })
}

/// `ceil(len / 2^chunk_log2)` without the overflow `len + 2^k - 1` could have.
fn n_chunks_of(len: u64, chunk_log2: u8) -> u64 {
    (len >> chunk_log2) + u64::from(len & ((1u64 << chunk_log2) - 1) != 0)
}

/// One chunk index entry: where the chunk's bytes are in the payload is the sum of the
/// stored sizes before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// Bytes the chunk occupies in the payload.
    pub stored_len: u32,
    /// Stored raw (`stored_len` = the chunk's size) rather than ZVC-compressed.
    pub raw: bool,
    /// Version 4: CRC32C of the chunk's uncompressed bytes (0 in a frame without CRCs).
    pub crc: u32,
}

impl IndexEntry {
    /// Decodes a little-endian index word (the CRC is left 0).
    pub fn from_word(w: u32) -> IndexEntry {
        IndexEntry {
            stored_len: INDEX_SIZE.get(u64::from(w)) as u32,
            raw: INDEX_RAW.get(u64::from(w)) == 1,
            crc: 0,
        }
    }

    /// The index word (`stored_len` must fit its 31 bits: chunks are at most 2^24 bytes).
    pub fn to_word(self) -> u32 {
        let w = INDEX_SIZE.set(0, u64::from(self.stored_len));
        INDEX_RAW.set(w, u64::from(self.raw)) as u32
    }

    /// Reads entry `i` of the index that starts at `index[0]`, of 8-byte entries with a CRC
    /// (version 4) if `with_crc`, else of 4-byte ones (caller checked the length).
    pub fn read(index: &[u8], i: usize, with_crc: bool) -> IndexEntry {
        let len = if with_crc {
            INDEX_ENTRY_LEN_CRC
        } else {
            INDEX_ENTRY_LEN
        };
        let entry = &index[i * len..(i + 1) * len];
        let mut e = IndexEntry::from_word(INDEX_WORD_FIELD.get(entry) as u32);
        if with_crc {
            e.crc = INDEX_CRC_FIELD.get(entry) as u32;
        }
        e
    }

    /// Writes the entry into `dst`: its word, then its CRC if `with_crc` (8 bytes, else 4).
    pub fn write(self, dst: &mut [u8], with_crc: bool) {
        INDEX_WORD_FIELD.put(dst, u64::from(self.to_word()));
        if with_crc {
            INDEX_CRC_FIELD.put(dst, u64::from(self.crc));
        }
    }

    /// Checks the entry of chunk `chunk` (uncompressed size `chunk_len`) of a frame of
    /// `codec` and `elem`: rules 11–13 of docs/FORMAT.md, in that order (13 for ZVC only).
    /// The DMA engine applies the same checks (BAD_INDEX).
    pub fn check(
        self,
        chunk: u32,
        chunk_len: u64,
        codec: Codec,
        elem: ElemWidth,
    ) -> Result<(), FormatError> {
        let stored = u64::from(self.stored_len);
        if self.raw {
            if stored != chunk_len {
                return Err(FormatError::RawChunkSizeMismatch {
                    chunk,
                    stored_len: self.stored_len,
                    chunk_len,
                });
            }
        } else {
            if stored >= chunk_len {
                return Err(FormatError::ZvcChunkNotSmaller {
                    chunk,
                    stored_len: self.stored_len,
                    chunk_len,
                });
            }
            if codec == Codec::Zvc && !stored.is_multiple_of(elem.bytes() as u64) {
                return Err(FormatError::ZvcChunkNotWholeElements {
                    chunk,
                    stored_len: self.stored_len,
                    elem_bytes: elem.bytes(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_bytes_round_trip() {
        let h = Header {
            codec: Codec::Zvc,
            elem_type: ElemType::Raw(ElemWidth::W16),
            chunk_log2: 9,
            n_chunks: 0x0A0B_0C0D,
            uncompressed_len: 0x0102_0304_0506_0708,
            payload_len: 0x1112_1314_1516_1718,
            crc: false,
        };
        let b = h.to_bytes();
        assert_eq!(
            b,
            [
                0x63, 0x44, 0x4D, 0x41, 2, 1, 16, 9, 0x0D, 0x0C, 0x0B, 0x0A, 0, 0, 0, 0, 8, 7, 6,
                5, 4, 3, 2, 1, 0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11
            ]
        );
        assert_eq!(MAGIC, [0x63, 0x44, 0x4D, 0x41]);
        // Typed or ZVC-X: version 3, the type in byte 12.
        let t = Header {
            codec: Codec::ZvcX,
            elem_type: ElemType::Bf16,
            ..h
        };
        let b = t.to_bytes();
        assert_eq!(b[4..8], [3, 2, 16, 9]);
        assert_eq!(b[12..16], [2, 0, 0, 0]);
        let consistent = Header {
            n_chunks: 2,
            uncompressed_len: 1000,
            ..t
        };
        assert_eq!(Header::parse(&consistent.to_bytes()), Ok(consistent));
        // With CRCs: version 4, 8-byte entries and the metadata CRC after the index.
        let checked = Header {
            crc: true,
            ..consistent
        };
        assert_eq!(checked.to_bytes()[4], 4);
        assert_eq!(Header::parse(&checked.to_bytes()), Ok(checked));
        assert_eq!((checked.entry_len(), checked.meta_len()), (8, 32 + 16 + 4));
        let plain_zvc = Header {
            codec: Codec::Zvc,
            elem_type: ElemType::Raw(ElemWidth::W16),
            ..checked
        };
        assert_eq!(Header::parse(&plain_zvc.to_bytes()), Ok(plain_zvc));
    }

    /// The check value of CRC-32C (the CRC catalogue's `CRC-32/ISCSI`), and the metadata CRC
    /// as one CRC over the index and header bytes.
    #[test]
    fn crc32c_check_value() {
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(meta_crc(b"1234", b"56789"), 0xE306_9283);
        assert_eq!(crc32c(b""), 0);
    }

    #[test]
    fn chunk_geometry() {
        let h = Header {
            codec: Codec::Zvc,
            elem_type: ElemType::Raw(ElemWidth::W8),
            chunk_log2: 7,
            n_chunks: 3,
            uncompressed_len: 300,
            payload_len: 0,
            crc: false,
        };
        assert_eq!(
            (0..4).map(|i| h.chunk_len(i)).collect::<Vec<_>>(),
            [128, 128, 44, 0]
        );
        assert_eq!(h.meta_len(), 32 + 12);
        assert_eq!(n_chunks_of(u64::MAX, 7), u64::MAX / 128 + 1);
        assert_eq!(n_chunks_of(256, 7), 2);
        assert_eq!(n_chunks_of(257, 7), 3);
        for len in [0, 1, 127, 128, 129, 4095, 4096, 4097] {
            assert_eq!(n_chunks_of(len, 12), n_chunks(len, 12));
        }
    }

    #[test]
    fn index_words() {
        let e = IndexEntry {
            stored_len: 0x1234,
            raw: true,
            crc: 0,
        };
        assert_eq!(e.to_word(), 0x8000_1234);
        assert_eq!(IndexEntry::from_word(0x8000_1234), e);
        assert_eq!(
            IndexEntry::from_word(0x7FFF_FFFF),
            IndexEntry {
                stored_len: 0x7FFF_FFFF,
                raw: false,
                crc: 0
            }
        );
        let sixteen = IndexEntry {
            stored_len: 16,
            raw: true,
            crc: 0,
        };
        assert_eq!(
            IndexEntry::read(&[0, 0, 0, 0, 0x10, 0, 0, 0x80], 1, false),
            sixteen
        );
        // Version 4: the word, then the CRC, little-endian.
        let bytes = [0x10, 0, 0, 0x80, 0x78, 0x56, 0x34, 0x12];
        let with_crc = IndexEntry {
            crc: 0x1234_5678,
            ..sixteen
        };
        assert_eq!(IndexEntry::read(&bytes, 0, true), with_crc);
        let mut b = [0u8; 8];
        with_crc.write(&mut b, true);
        assert_eq!(b, bytes);
    }
}
