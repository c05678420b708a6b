//! Golden, bit-exact software model of the cdma frame format (docs/FORMAT.md) and of the DMA
//! engine's descriptor semantics (docs/DESCRIPTORS.md).
//!
//! The crate is both the reference the RTL is compared against and a product in its own
//! right (CPU-side compression/decompression of data the DMA engine offloads), so the hot
//! loops in [`zvc`] are written for throughput: branch-free per-block kernels, with an SSSE3
//! kernel picked at run time on x86-64 (see docs/PERFORMANCE.md). `unsafe` is confined to
//! that kernel and to one `Vec::set_len` per call, each with its justification.
//!
//! * [`compress`] / [`compress_chunked`] / [`decompress`] work on whole chunked frames
//!   (32-byte header, chunk index, payload); [`FrameView`] decodes single chunks.
//! * [`zvc`] encodes / decodes one chunk's ZVC payload, exactly the bytes the RTL produces.
//! * [`zvcx`] encodes / decodes one chunk's ZVC-X payload (the float-aware block codec);
//!   [`ElemType`] and [`Codec`] say what a frame holds.
//! * [`layout`] re-exports the frame layout of `cdma_spec::frame` with typed header and index
//!   entries; a test checks docs/FORMAT.md against it.
//! * [`dma`] is the golden model of the DMA engine: descriptor chains over a byte memory.
//! * [`rng`] is the one seeded pseudo-random generator of tests and testbenches; [`paged`]
//!   the one sparse byte store (model memory and the testbench's AXI memory).
//! * [`synthetic`] builds deterministic edge-case tensors for tests and testbenches.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod dma;
mod elem_type;
pub mod frame;
pub mod layout;
pub mod paged;
pub mod rng;
pub mod synthetic;
pub mod zvc;
pub mod zvcx;

mod error;

pub use elem_type::{Codec, ElemType};
pub use error::FormatError;
pub use frame::{
    compress, compress_chunked, compress_chunked_into, compress_frame, compress_frame_into,
    compress_into, compress_with, compress_with_into, decode_chunk, decode_chunk_with, decompress,
    decompress_into, encode_chunk, encode_chunk_with, FrameOptions, FrameView,
};

/// Width of one tensor element. The codec never interprets elements as numbers; the width
/// only decides how many bytes form one element (and therefore one mask bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemWidth {
    /// 8-bit elements (int8, fp8).
    W8,
    /// 16-bit elements (fp16, bf16, int16).
    W16,
    /// 32-bit elements (fp32, int32).
    W32,
}

impl ElemWidth {
    /// Every supported width, narrowest first (handy for tests that cover all of them).
    pub const ALL: [ElemWidth; 3] = [ElemWidth::W8, ElemWidth::W16, ElemWidth::W32];

    /// Width in bits (8, 16 or 32), the value stored in the header's `elem_bits` byte.
    pub fn bits(self) -> u32 {
        match self {
            ElemWidth::W8 => 8,
            ElemWidth::W16 => 16,
            ElemWidth::W32 => 32,
        }
    }

    /// Width in bytes (1, 2 or 4).
    pub fn bytes(self) -> usize {
        self.bits() as usize / 8
    }

    /// Parses a width given in bits; anything other than 8, 16 or 32 is
    /// [`FormatError::BadElemWidth`].
    pub fn from_bits(bits: u32) -> Result<ElemWidth, FormatError> {
        match bits {
            8 => Ok(ElemWidth::W8),
            16 => Ok(ElemWidth::W16),
            32 => Ok(ElemWidth::W32),
            _ => Err(FormatError::BadElemWidth { bits }),
        }
    }
}

impl std::fmt::Display for ElemWidth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-bit", self.bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_round_trip_through_bits() {
        for w in ElemWidth::ALL {
            assert_eq!(ElemWidth::from_bits(w.bits()), Ok(w));
            assert_eq!(w.bytes() * 8, w.bits() as usize);
        }
        assert_eq!(
            [
                ElemWidth::W8.bytes(),
                ElemWidth::W16.bytes(),
                ElemWidth::W32.bytes()
            ],
            [1, 2, 4]
        );
        for bad in [0, 1, 4, 7, 9, 12, 24, 31, 33, 64, u32::MAX] {
            assert_eq!(
                ElemWidth::from_bits(bad),
                Err(FormatError::BadElemWidth { bits: bad })
            );
        }
    }

    /// The FORMAT.md example, E=32, n=3, as a whole frame, computed by hand: the ZVC payload
    /// (12 bytes) is not smaller than the 12-byte chunk, so the chunk is stored raw.
    #[test]
    fn pinned_frame_e32_format_md_example() {
        let data = [
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x80,
        ];
        let expected: Vec<u8> = [
            &b"cDMA"[..],               // magic
            &[2, 1, 32, 12],            // version, codec ZVC, elem_bits, chunk_log2
            &[1, 0, 0, 0],              // n_chunks
            &[0, 0, 0, 0],              // reserved
            &[12, 0, 0, 0, 0, 0, 0, 0], // uncompressed_len = 12
            &[12, 0, 0, 0, 0, 0, 0, 0], // payload_len = 12
            &[12, 0, 0, 0x80],          // index: 12 bytes, raw
            &data,                      // the chunk itself
        ]
        .concat();
        assert_eq!(compress(&data, ElemWidth::W32).unwrap(), expected);
        assert_eq!(decompress(&expected).unwrap(), data);
        // The bare ZVC payload of the same data (what a ZVC chunk would hold).
        assert_eq!(
            zvc::encode(&data, ElemWidth::W32).unwrap(),
            [0x06, 0, 0, 0, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x80]
        );
    }

    /// The same example as a version 4 frame (CRCs on, the default of [`FrameOptions::new`]).
    /// The CRCs were computed by a bit-serial CRC-32C written independently of the `crc32c`
    /// crate (polynomial 0x82F63B78 reflected, init and final XOR 0xFFFFFFFF).
    #[test]
    fn pinned_frame_e32_format_md_example_with_crc() {
        let data = [
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x80,
        ];
        let expected: Vec<u8> = [
            &b"cDMA"[..],               // magic
            &[4, 1, 32, 12],            // version 4, codec ZVC, elem_bits, chunk_log2
            &[1, 0, 0, 0],              // n_chunks
            &[0, 0, 0, 0],              // elem_type raw, reserved
            &[12, 0, 0, 0, 0, 0, 0, 0], // uncompressed_len = 12
            &[12, 0, 0, 0, 0, 0, 0, 0], // payload_len = 12
            &[12, 0, 0, 0x80],          // index entry: 12 bytes, raw
            &[0xA2, 0xE8, 0x05, 0x4C],  // its CRC32C, 0x4C05E8A2
            &[0xCC, 0x28, 0xA1, 0x1D],  // metadata CRC (index, then header), 0x1DA128CC
            &data,                      // the chunk itself
        ]
        .concat();
        let opts = FrameOptions::new(ElemType::Raw(ElemWidth::W32));
        assert_eq!(compress_frame(&data, &opts).unwrap(), expected);
        assert_eq!(decompress(&expected).unwrap(), data);
        assert_eq!(layout::crc32c(&data), 0x4C05_E8A2);
    }

    /// E=8, n=37: one full block and a partial block of 5 elements, computed by hand; the
    /// 14-byte ZVC payload is smaller than the 37-byte chunk.
    #[test]
    fn pinned_frame_e8_partial_block() {
        let mut data = vec![0u8; 37];
        // Full block: non-zero at elements 0, 7, 8 and 31.
        data[0] = 0xAA;
        data[7] = 0x80;
        data[8] = 0x01;
        data[31] = 0xFF;
        // Partial block (elements 32..37): non-zero at its elements 1 and 4.
        data[33] = 0x11;
        data[36] = 0x7F;
        let expected: Vec<u8> = [
            &b"cDMA"[..],
            &[2, 1, 8, 12],
            &[1, 0, 0, 0],
            &[0, 0, 0, 0],
            &[37, 0, 0, 0, 0, 0, 0, 0],
            &[14, 0, 0, 0, 0, 0, 0, 0], // 4 + 4 + 4 + 2
            &[14, 0, 0, 0],             // index: 14 bytes, ZVC
            // mask bits 0, 7, 8, 31 = 0x8000_0181, little-endian
            &[0x81, 0x01, 0x00, 0x80],
            &[0xAA, 0x80, 0x01, 0xFF],
            // mask bits 1, 4 = 0x12
            &[0x12, 0x00, 0x00, 0x00],
            &[0x11, 0x7F],
        ]
        .concat();
        assert_eq!(compress(&data, ElemWidth::W8).unwrap(), expected);
        assert_eq!(decompress(&expected).unwrap(), data);
    }

    /// E=16, n=2, both elements zero: the ZVC payload (one 4-byte mask) is not smaller than
    /// the 4-byte chunk, so even all zeros are stored raw here.
    #[test]
    fn pinned_frame_e16_all_zero() {
        let expected: Vec<u8> = [
            &b"cDMA"[..],
            &[2, 1, 16, 12],
            &[1, 0, 0, 0],
            &[0, 0, 0, 0],
            &[4, 0, 0, 0, 0, 0, 0, 0],
            &[4, 0, 0, 0, 0, 0, 0, 0],
            &[4, 0, 0, 0x80],
            &[0, 0, 0, 0],
        ]
        .concat();
        assert_eq!(compress(&[0; 4], ElemWidth::W16).unwrap(), expected);
        assert_eq!(decompress(&expected).unwrap(), vec![0; 4]);
    }

    /// E=32, 40 elements in chunks of 2^7 bytes (FORMAT.md's two-chunk example): chunk 0
    /// (elements 0–31, only element 1 = 1.0 non-zero) is stored ZVC in 8 bytes; chunk 1
    /// (elements 32–39, all -0.0) would take 4 + 32 bytes as ZVC, more than its 32 bytes, so
    /// it is stored raw.
    #[test]
    fn pinned_frame_two_chunks() {
        let mut data = vec![0u8; 160];
        data[4..8].copy_from_slice(&0x3F80_0000u32.to_le_bytes());
        for e in 32..40 {
            data[e * 4..e * 4 + 4].copy_from_slice(&0x8000_0000u32.to_le_bytes());
        }
        let expected: Vec<u8> = [
            &b"cDMA"[..],
            &[2, 1, 32, 7],
            &[2, 0, 0, 0],
            &[0, 0, 0, 0],
            &[160, 0, 0, 0, 0, 0, 0, 0],
            &[40, 0, 0, 0, 0, 0, 0, 0],
            &[8, 0, 0, 0],     // chunk 0: 8 bytes, ZVC
            &[32, 0, 0, 0x80], // chunk 1: 32 bytes, raw
            &[2, 0, 0, 0, 0x00, 0x00, 0x80, 0x3F],
            &data[128..],
        ]
        .concat();
        let f = compress_chunked(&data, ElemWidth::W32, 7).unwrap();
        assert_eq!(f, expected);
        assert_eq!(decompress(&f).unwrap(), data);
        let v = FrameView::parse(&f).unwrap();
        assert_eq!(v.meta_len(), 40);
        assert_eq!(v.chunk(1).unwrap(), &data[128..]);
        assert_eq!(v.chunk_range(1).unwrap(), 128..160);
        assert_eq!(v.stored_range(1).unwrap(), 8..40);
    }

    #[test]
    fn empty_input_gives_header_only_frame() {
        for w in ElemWidth::ALL {
            let f = compress(&[], w).unwrap();
            assert_eq!(f.len(), layout::HEADER_LEN);
            assert_eq!(&f[8..12], &[0; 4], "n_chunks");
            assert_eq!(&f[16..32], &[0; 16], "lengths");
            assert_eq!(decompress(&f).unwrap(), Vec::<u8>::new());
        }
    }

    #[test]
    fn compress_rejects_bad_chunk_size() {
        for bad in [0, 6, 25, 255] {
            let mut out = vec![3u8];
            assert_eq!(
                compress_chunked_into(&[0; 8], ElemWidth::W8, bad, &mut out),
                Err(FormatError::BadChunkLog2 {
                    chunk_log2: bad,
                    min: 7,
                    max: 24
                })
            );
            assert_eq!(out, [3]);
        }
    }

    #[test]
    fn compress_rejects_partial_element() {
        assert_eq!(
            compress(&[1, 2, 3], ElemWidth::W16),
            Err(FormatError::InputNotWholeElements {
                len: 3,
                elem_bytes: 2
            })
        );
        let mut out = vec![9u8];
        assert!(compress_into(&[1, 2, 3, 4, 5], ElemWidth::W32, &mut out).is_err());
        assert_eq!(
            out,
            vec![9u8],
            "an error must leave the output buffer as it was"
        );
    }

    #[test]
    fn into_variants_append() {
        let data: Vec<u8> = (0..200u8).map(|i| if i % 3 == 0 { 0 } else { i }).collect();
        let mut frame = vec![0xEE];
        compress_into(&data, ElemWidth::W16, &mut frame).unwrap();
        assert_eq!(frame[0], 0xEE);
        assert_eq!(&frame[1..], &compress(&data, ElemWidth::W16).unwrap()[..]);
        let mut back = vec![0xDD];
        decompress_into(&frame[1..], &mut back).unwrap();
        assert_eq!(back[0], 0xDD);
        assert_eq!(&back[1..], &data[..]);
        // A failing decode leaves the buffer as it was.
        assert!(decompress_into(&frame[2..], &mut back).is_err());
        assert_eq!(back.len(), 1 + data.len());
    }
}
