//! The frame header of docs/FORMAT.md as data.
//!
//! [`HEADER_FIELDS`] is the single source of the layout: [`Header::write`] and
//! [`Header::parse_frame`] take every offset and size from it, and a test renders it with
//! [`markdown_table`] and checks that docs/FORMAT.md contains exactly that table, so the
//! document, the encoder and the decoder cannot drift apart.

use crate::{ElemWidth, FormatError};

/// One field of the frame header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderField {
    /// Field name as written in docs/FORMAT.md.
    pub name: &'static str,
    /// Byte offset from the start of the frame.
    pub offset: usize,
    /// Size in bytes (multi-byte fields are little-endian).
    pub size: usize,
    /// Meaning, exactly the "meaning" column of docs/FORMAT.md.
    pub description: &'static str,
}

/// `magic`: identifies a cdma frame.
pub const MAGIC_FIELD: HeaderField = HeaderField {
    name: "magic",
    offset: 0,
    size: 4,
    description: "ASCII `cDMA` (`63 44 4D 41`)",
};
/// `version`: format version.
pub const VERSION_FIELD: HeaderField = HeaderField {
    name: "version",
    offset: 4,
    size: 1,
    description: "1",
};
/// `codec`: which payload encoding follows.
pub const CODEC_FIELD: HeaderField = HeaderField {
    name: "codec",
    offset: 5,
    size: 1,
    description: "1 = ZVC",
};
/// `elem_bits`: element width.
pub const ELEM_BITS_FIELD: HeaderField = HeaderField {
    name: "elem_bits",
    offset: 6,
    size: 1,
    description: "element width in bits: 8, 16 or 32",
};
/// `reserved`: must be zero (room for flags in a later version).
pub const RESERVED_FIELD: HeaderField = HeaderField {
    name: "reserved",
    offset: 7,
    size: 1,
    description: "0",
};
/// `uncompressed_len`: bytes of original data.
pub const UNCOMPRESSED_LEN_FIELD: HeaderField = HeaderField {
    name: "uncompressed_len",
    offset: 8,
    size: 8,
    description: "bytes of the original data; a multiple of `elem_bits/8`",
};
/// `payload_len`: bytes of payload after the header.
pub const PAYLOAD_LEN_FIELD: HeaderField = HeaderField {
    name: "payload_len",
    offset: 16,
    size: 8,
    description: "bytes of payload that follow the header",
};

/// All header fields in offset order; they tile `0..HEADER_LEN` without gaps (tested).
pub const HEADER_FIELDS: [HeaderField; 7] = [
    MAGIC_FIELD,
    VERSION_FIELD,
    CODEC_FIELD,
    ELEM_BITS_FIELD,
    RESERVED_FIELD,
    UNCOMPRESSED_LEN_FIELD,
    PAYLOAD_LEN_FIELD,
];

/// Length of the frame header in bytes.
pub const HEADER_LEN: usize = 24;
/// The magic bytes, ASCII `cDMA`.
pub const MAGIC: [u8; 4] = *b"cDMA";
/// The format version this crate writes and reads.
pub const VERSION: u8 = 1;
/// Codec id of zero-value compression.
pub const CODEC_ZVC: u8 = 1;
/// Elements per ZVC block (one mask bit each).
pub const BLOCK_ELEMS: usize = 32;
/// Bytes of a ZVC block mask.
pub const MASK_BYTES: usize = 4;

/// A decoded frame header (version and codec are implied: this crate only knows v1 / ZVC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Element width.
    pub elem: ElemWidth,
    /// Bytes of original data (a whole number of elements).
    pub uncompressed_len: u64,
    /// Bytes of payload following the header.
    pub payload_len: u64,
}

fn put(dst: &mut [u8], field: HeaderField, value: &[u8]) {
    dst[field.offset..field.offset + field.size].copy_from_slice(value);
}

fn get(src: &[u8], field: HeaderField) -> &[u8] {
    &src[field.offset..field.offset + field.size]
}

fn get_u64(src: &[u8], field: HeaderField) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(get(src, field));
    u64::from_le_bytes(b)
}

impl Header {
    /// Writes the header into `dst[..HEADER_LEN]` (`dst` must be at least 24 bytes).
    pub fn write(&self, dst: &mut [u8]) {
        put(dst, MAGIC_FIELD, &MAGIC);
        put(dst, VERSION_FIELD, &[VERSION]);
        put(dst, CODEC_FIELD, &[CODEC_ZVC]);
        put(dst, ELEM_BITS_FIELD, &[self.elem.bits() as u8]);
        put(dst, RESERVED_FIELD, &[0]);
        put(
            dst,
            UNCOMPRESSED_LEN_FIELD,
            &self.uncompressed_len.to_le_bytes(),
        );
        put(dst, PAYLOAD_LEN_FIELD, &self.payload_len.to_le_bytes());
    }

    /// Returns the header as its 24 bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        self.write(&mut b);
        b
    }

    /// Validates the header of `frame` and the frame length, and returns the header and the
    /// payload slice. Checks run in the order of docs/FORMAT.md's list, so a frame with
    /// several problems reports the first one. The payload itself is checked by
    /// [`crate::zvc::decode`].
    pub fn parse_frame(frame: &[u8]) -> Result<(Header, &[u8]), FormatError> {
        if frame.len() < HEADER_LEN {
            return Err(FormatError::HeaderTooShort {
                len: frame.len(),
                header_len: HEADER_LEN,
            });
        }
        let magic = get(frame, MAGIC_FIELD);
        if magic != MAGIC {
            let mut found = [0u8; 4];
            found.copy_from_slice(magic);
            return Err(FormatError::BadMagic {
                found,
                expected: MAGIC,
            });
        }
        let version = get(frame, VERSION_FIELD)[0];
        if version != VERSION {
            return Err(FormatError::UnsupportedVersion {
                version,
                supported: VERSION,
            });
        }
        let codec = get(frame, CODEC_FIELD)[0];
        if codec != CODEC_ZVC {
            return Err(FormatError::UnknownCodec { codec });
        }
        let elem = ElemWidth::from_bits(u32::from(get(frame, ELEM_BITS_FIELD)[0]))?;
        let reserved = get(frame, RESERVED_FIELD)[0];
        if reserved != 0 {
            return Err(FormatError::ReservedNonZero { value: reserved });
        }
        let uncompressed_len = get_u64(frame, UNCOMPRESSED_LEN_FIELD);
        if !uncompressed_len.is_multiple_of(elem.bytes() as u64) {
            return Err(FormatError::UncompressedLenNotWholeElements {
                len: uncompressed_len,
                elem_bytes: elem.bytes(),
            });
        }
        if uncompressed_len > isize::MAX as u64 {
            return Err(FormatError::OutputTooLarge {
                n_elems: uncompressed_len / elem.bytes() as u64,
                elem_bytes: elem.bytes(),
                max: isize::MAX as u64,
            });
        }
        let payload_len = get_u64(frame, PAYLOAD_LEN_FIELD);
        let available = frame.len() - HEADER_LEN;
        // Compare in u64: payload_len may exceed usize on 32-bit targets.
        if payload_len > available as u64 {
            return Err(FormatError::Truncated {
                payload_len,
                available,
            });
        }
        if payload_len < available as u64 {
            return Err(FormatError::TrailingBytes {
                payload_len,
                extra: available - payload_len as usize,
            });
        }
        let header = Header {
            elem,
            uncompressed_len,
            payload_len,
        };
        Ok((header, &frame[HEADER_LEN..]))
    }
}

/// Renders [`HEADER_FIELDS`] as the Markdown table docs/FORMAT.md must contain verbatim.
pub fn markdown_table() -> String {
    let mut s = String::from("| offset | size | field | meaning |\n|---|---|---|---|\n");
    for f in HEADER_FIELDS {
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            f.offset, f.size, f.name, f.description
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_tile_the_header() {
        let mut next = 0;
        for f in HEADER_FIELDS {
            assert_eq!(
                f.offset, next,
                "field {} does not follow its predecessor",
                f.name
            );
            assert!(f.size > 0);
            next += f.size;
        }
        assert_eq!(next, HEADER_LEN);
        assert_eq!(MAGIC_FIELD.size, MAGIC.len());
        assert_eq!(MAGIC, [0x63, 0x44, 0x4D, 0x41]);
    }

    #[test]
    fn format_md_contains_the_header_table() {
        let doc = include_str!("../../docs/FORMAT.md");
        let table = markdown_table();
        assert!(
            doc.contains(&table),
            "docs/FORMAT.md does not contain the header table of cdma_model::spec:\n{table}"
        );
    }

    #[test]
    fn header_bytes_round_trip() {
        let h = Header {
            elem: ElemWidth::W16,
            uncompressed_len: 0x0102_0304_0506_0708,
            payload_len: 0x1112_1314_1516_1718,
        };
        let b = h.to_bytes();
        assert_eq!(
            b,
            [
                0x63, 0x44, 0x4D, 0x41, 1, 1, 16, 0, 8, 7, 6, 5, 4, 3, 2, 1, 0x18, 0x17, 0x16,
                0x15, 0x14, 0x13, 0x12, 0x11
            ]
        );
    }
}
