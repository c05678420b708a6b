//! The DMA descriptor: 64 bytes in memory, 64-byte aligned, chained through `next`.
//!
//! Software fills every field but `status`/`bytes_written`, links descriptors through `next`
//! (0 ends the chain), writes the head address to the HEAD CSRs and rings the doorbell. The
//! engine writes `status` and `bytes_written` back (one 8-byte write at [`STATUS_FIELD`]) when it
//! finishes each descriptor.

use crate::field::{BitField, Field};

/// Descriptor size and required alignment in bytes.
pub const DESC_LEN: usize = 64;

/// `control`: operation, element width, flags, chunk size.
pub const CONTROL_FIELD: Field = Field {
    name: "control",
    offset: 0x00,
    size: 4,
    description: "operation, element width, flags, chunk size (bit table below)",
};
/// `src_len`: bytes to read from `src_addr`.
pub const SRC_LEN_FIELD: Field = Field {
    name: "src_len",
    offset: 0x04,
    size: 4,
    description: "bytes at `src_addr`: the data (COPY, COMPRESS) or the frame payload (DECOMPRESS)",
};
/// `src_addr`: source address.
pub const SRC_ADDR_FIELD: Field = Field {
    name: "src_addr",
    offset: 0x08,
    size: 8,
    description: "source address",
};
/// `dst_addr`: destination address.
pub const DST_ADDR_FIELD: Field = Field {
    name: "dst_addr",
    offset: 0x10,
    size: 8,
    description: "destination address: the data (COPY, DECOMPRESS) or the frame payload (COMPRESS)",
};
/// `dst_cap`: destination capacity.
pub const DST_CAP_FIELD: Field = Field {
    name: "dst_cap",
    offset: 0x18,
    size: 4,
    description: "bytes the engine may write at `dst_addr`; it never writes outside `[dst_addr, dst_addr + dst_cap)`",
};
/// Reserved word.
pub const RESERVED0_FIELD: Field = Field {
    name: "reserved0",
    offset: 0x1C,
    size: 4,
    description: "0",
};
/// `meta_addr`: frame header + chunk index.
pub const META_ADDR_FIELD: Field = Field {
    name: "meta_addr",
    offset: 0x20,
    size: 8,
    description:
        "frame header + chunk index: written by COMPRESS, read by DECOMPRESS, unused by COPY",
};
/// `next`: next descriptor.
pub const NEXT_FIELD: Field = Field {
    name: "next",
    offset: 0x28,
    size: 8,
    description: "address of the next descriptor; 0 ends the chain",
};
/// `status`: written back by the engine.
pub const STATUS_FIELD: Field = Field {
    name: "status",
    offset: 0x30,
    size: 4,
    description: "written by the engine: done flag and error code (bit table below)",
};
/// `bytes_written`: written back by the engine.
pub const BYTES_WRITTEN_FIELD: Field = Field {
    name: "bytes_written",
    offset: 0x34,
    size: 4,
    description: "written by the engine: bytes written at `dst_addr` (COMPRESS: the payload)",
};
/// Reserved doubleword.
pub const RESERVED1_FIELD: Field = Field {
    name: "reserved1",
    offset: 0x38,
    size: 8,
    description: "0",
};

/// All descriptor fields in offset order; they tile `0..DESC_LEN` (tested).
pub const DESC_FIELDS: [Field; 11] = [
    CONTROL_FIELD,
    SRC_LEN_FIELD,
    SRC_ADDR_FIELD,
    DST_ADDR_FIELD,
    DST_CAP_FIELD,
    RESERVED0_FIELD,
    META_ADDR_FIELD,
    NEXT_FIELD,
    STATUS_FIELD,
    BYTES_WRITTEN_FIELD,
    RESERVED1_FIELD,
];

/// Operation codes of [`CTRL_OP`].
pub const OP_COPY: u64 = 0;
/// COMPRESS: source → chunked frame (payload at dst, header + index at meta).
pub const OP_COMPRESS: u64 = 1;
/// DECOMPRESS: chunked frame (header + index at meta, payload at src) → dst.
pub const OP_DECOMPRESS: u64 = 2;

/// Element width codes of [`CTRL_ELEM`]: code → bits.
pub const ELEM_CODES: [(u64, u32); 3] = [(0, 8), (1, 16), (2, 32)];

/// The HWCFG `elem_mask` of the element widths `bits` (8, 16, 32): bit `c` set for each
/// width's code `c` in [`ELEM_CODES`]. `None` if a width has no code.
pub fn elem_mask_of(bits: &[u32]) -> Option<u8> {
    bits.iter().try_fold(0u8, |m, b| {
        let (code, _) = ELEM_CODES.iter().find(|(_, w)| w == b)?;
        Some(m | 1 << code)
    })
}

/// The element widths (bits) of an `elem_mask`, narrowest first; bits above the codes are
/// ignored.
pub fn elem_widths_of(mask: u8) -> Vec<u32> {
    ELEM_CODES
        .iter()
        .filter(|(code, _)| mask >> code & 1 == 1)
        .map(|&(_, bits)| bits)
        .collect()
}

/// control: operation.
pub const CTRL_OP: BitField = BitField {
    name: "op",
    lsb: 0,
    width: 2,
    description: "0 = COPY, 1 = COMPRESS, 2 = DECOMPRESS, 3 = reserved (BAD_DESC)",
};
/// control: element width.
pub const CTRL_ELEM: BitField = BitField {
    name: "elem",
    lsb: 2,
    width: 2,
    description:
        "element width: 0 = 8, 1 = 16, 2 = 32 bits, 3 = reserved (BAD_DESC); COPY: src_len is whole elements of it",
};
/// control: raise IRQ_STATUS.done when this descriptor completes.
pub const CTRL_IRQ: BitField = BitField {
    name: "irq",
    lsb: 4,
    width: 1,
    description: "1: set IRQ_STATUS.done when this descriptor completes",
};
/// control: stop the chain if this descriptor fails.
pub const CTRL_STOP_ON_ERROR: BitField = BitField {
    name: "stop_on_error",
    lsb: 5,
    width: 1,
    description: "1: an error in this descriptor ends the chain; 0: the engine goes on with `next`",
};
/// control: write the frame without CRC32C.
pub const CTRL_NO_CRC: BitField = BitField {
    name: "no_crc",
    lsb: 6,
    width: 1,
    description: "COMPRESS: 0 = the frame carries CRC32C (version 4: a CRC per chunk and one of the metadata; UNSUPPORTED unless HWCFG.crc), 1 = it does not (version 2, or 3 with a type or ZVC-X); must be 0 for COPY and DECOMPRESS (a DECOMPRESS checks the CRCs a version 4 frame has)",
};
/// control: chunk size.
pub const CTRL_CHUNK_LOG2: BitField = BitField {
    name: "chunk_log2",
    lsb: 8,
    width: 5,
    description: "COMPRESS: chunk size `2^chunk_log2` bytes, 0 = default (12, 4 KiB); must be 0 for COPY and DECOMPRESS (DECOMPRESS reads it from the header)",
};
/// control: element type.
pub const CTRL_TYPE: BitField = BitField {
    name: "type",
    lsb: 16,
    width: 3,
    description: "COMPRESS: element type (docs/FORMAT.md `elem_type` codes: 0 = raw, 1 = f32, 2 = bf16, 3 = f16, 4 = e4m3, 5 = e5m2; 6, 7 BAD_DESC); a float type's width must be `elem` (BAD_DESC); not 0: the frame is version 3 and names the type; must be 0 for COPY and DECOMPRESS (DECOMPRESS reads it from the header)",
};
/// control: codec.
pub const CTRL_CODEC: BitField = BitField {
    name: "codec",
    lsb: 20,
    width: 2,
    description: "COMPRESS: 0 = ZVC, 1 = ZVC-X (version 3 frame; UNSUPPORTED unless the engine was generated with it), 2, 3 = reserved (BAD_DESC); must be 0 for COPY and DECOMPRESS",
};
/// All control bit fields; every other bit is reserved and must be 0 (BAD_DESC).
pub const CONTROL_BITS: [BitField; 8] = [
    CTRL_OP,
    CTRL_ELEM,
    CTRL_IRQ,
    CTRL_STOP_ON_ERROR,
    CTRL_NO_CRC,
    CTRL_CHUNK_LOG2,
    CTRL_TYPE,
    CTRL_CODEC,
];

/// `control.codec`: ZVC.
pub const DESC_CODEC_ZVC: u64 = 0;
/// `control.codec`: ZVC-X.
pub const DESC_CODEC_ZVCX: u64 = 1;

/// status: the engine has finished this descriptor.
pub const STATUS_DONE: BitField = BitField {
    name: "done",
    lsb: 0,
    width: 1,
    description: "1: the engine has finished this descriptor (successfully or not)",
};
/// status: error code.
pub const STATUS_ERROR: BitField = BitField {
    name: "error",
    lsb: 8,
    width: 8,
    description: "error code (table below); 0 = OK",
};
/// All status bit fields; other bits are written 0.
pub const STATUS_BITS: [BitField; 2] = [STATUS_DONE, STATUS_ERROR];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elem_masks_round_trip() {
        assert_eq!(elem_mask_of(&[8, 16, 32]), Some(0b111));
        assert_eq!(elem_mask_of(&[32, 16]), Some(0b110));
        assert_eq!(elem_mask_of(&[4]), None);
        assert_eq!(elem_widths_of(0b101), [8, 32]);
        assert_eq!(elem_widths_of(0b1000), Vec::<u32>::new());
    }
    use crate::field::{check_bits, check_tiling};

    #[test]
    fn descriptor_fields_tile_64_bytes() {
        check_tiling(&DESC_FIELDS, DESC_LEN).unwrap();
        check_bits(&CONTROL_BITS, 32).unwrap();
        check_bits(&STATUS_BITS, 32).unwrap();
        // status and bytes_written are adjacent so the engine writes them back in one 8-byte write.
        assert_eq!(STATUS_FIELD.end(), BYTES_WRITTEN_FIELD.offset);
        assert_eq!(STATUS_FIELD.offset % 8, 0);
    }

    #[test]
    fn field_accessors_round_trip() {
        let mut d = [0u8; DESC_LEN];
        SRC_ADDR_FIELD.put(&mut d, 0x1122_3344_5566_7788);
        assert_eq!(SRC_ADDR_FIELD.get(&d), 0x1122_3344_5566_7788);
        assert_eq!(d[8], 0x88);
        let w = CTRL_CHUNK_LOG2.set(CTRL_OP.set(0, OP_DECOMPRESS), 12);
        assert_eq!(w, 0x0C02);
        assert_eq!(CTRL_CHUNK_LOG2.get(w), 12);
    }
}
