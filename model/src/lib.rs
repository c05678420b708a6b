//! Golden, bit-exact software model of the cdma frame format (docs/FORMAT.md).
//!
//! The crate is both the reference the RTL is compared against and a product in its own
//! right (CPU-side compression/decompression of data the DMA engine offloads), so the hot
//! loops in [`zvc`] are written for throughput: branch-free per-block kernels, with an SSSE3
//! kernel picked at run time on x86-64 (see docs/PERFORMANCE.md). `unsafe` is confined to
//! that kernel and to one `Vec::set_len` per call, each with its justification.
//!
//! * [`compress`] / [`decompress`] work on whole frames (24-byte header + payload).
//! * [`zvc`] encodes / decodes the bare payload, exactly the bytes the RTL produces.
//! * [`spec`] holds the header layout as data; a test checks it against docs/FORMAT.md.
//! * [`synthetic`] builds deterministic edge-case tensors for tests and testbenches.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod spec;
pub mod synthetic;
pub mod zvc;

mod error;

pub use error::FormatError;

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

/// Compresses `data` (a tensor of `elem`-wide elements) into a self-describing frame:
/// the 24-byte header of docs/FORMAT.md followed by the ZVC payload.
///
/// Fails with [`FormatError::InputNotWholeElements`] if `data.len()` is not a multiple of
/// `elem.bytes()`.
pub fn compress(data: &[u8], elem: ElemWidth) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    compress_into(data, elem, &mut out)?;
    Ok(out)
}

/// Like [`compress`], but appends the frame to `out` so a caller can reuse one buffer
/// across many tensors (no allocation once it is large enough). On error `out` is unchanged.
pub fn compress_into(data: &[u8], elem: ElemWidth, out: &mut Vec<u8>) -> Result<(), FormatError> {
    // Validate before touching `out`, so an error leaves it as it was.
    zvc::check_whole_elements(data.len(), elem)?;
    let start = out.len();
    out.extend_from_slice(&[0u8; spec::HEADER_LEN]);
    zvc::encode_into(data, elem, out)?;
    let payload_len = (out.len() - start - spec::HEADER_LEN) as u64;
    let header = spec::Header {
        elem,
        uncompressed_len: data.len() as u64,
        payload_len,
    };
    header.write(&mut out[start..start + spec::HEADER_LEN]);
    Ok(())
}

/// Decompresses one frame produced by [`compress`], validating every header field and the
/// payload structure; each malformation listed in docs/FORMAT.md has its own
/// [`FormatError`] variant. Never panics on any input.
pub fn decompress(frame: &[u8]) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::new();
    decompress_into(frame, &mut out)?;
    Ok(out)
}

/// Like [`decompress`], but appends the data to `out` (reusable buffer). On error `out`
/// keeps its previous length.
pub fn decompress_into(frame: &[u8], out: &mut Vec<u8>) -> Result<(), FormatError> {
    let (header, payload) = spec::Header::parse_frame(frame)?;
    // parse_frame checked that the length is a whole number of elements and addressable.
    let n_elems = (header.uncompressed_len / header.elem.bytes() as u64) as usize;
    zvc::decode_into(payload, header.elem, n_elems, out)
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

    /// The FORMAT.md example, E=32, n=3, as a whole frame, computed by hand.
    #[test]
    fn pinned_frame_e32_format_md_example() {
        let data = [
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x80,
        ];
        let expected: Vec<u8> = [
            &b"cDMA"[..],               // magic
            &[1, 1, 32, 0],             // version, codec ZVC, elem_bits, reserved
            &[12, 0, 0, 0, 0, 0, 0, 0], // uncompressed_len = 12
            &[12, 0, 0, 0, 0, 0, 0, 0], // payload_len = 12
            &[0x06, 0, 0, 0],           // mask 0b110
            &[0x00, 0x00, 0x80, 0x3F],  // 1.0f32
            &[0x00, 0x00, 0x00, 0x80],  // -0.0f32 survives
        ]
        .concat();
        assert_eq!(compress(&data, ElemWidth::W32).unwrap(), expected);
        assert_eq!(decompress(&expected).unwrap(), data);
    }

    /// E=8, n=37: one full block and a partial block of 5 elements, computed by hand.
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
            &[1, 1, 8, 0],
            &[37, 0, 0, 0, 0, 0, 0, 0],
            &[14, 0, 0, 0, 0, 0, 0, 0], // 4 + 4 + 4 + 2
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

    /// E=16, n=2, both elements zero: the payload is only the (all-zero) mask.
    #[test]
    fn pinned_frame_e16_all_zero() {
        let expected: Vec<u8> = [
            &b"cDMA"[..],
            &[1, 1, 16, 0],
            &[4, 0, 0, 0, 0, 0, 0, 0],
            &[4, 0, 0, 0, 0, 0, 0, 0],
            &[0, 0, 0, 0],
        ]
        .concat();
        assert_eq!(compress(&[0; 4], ElemWidth::W16).unwrap(), expected);
        assert_eq!(decompress(&expected).unwrap(), vec![0; 4]);
    }

    #[test]
    fn empty_input_gives_header_only_frame() {
        for w in ElemWidth::ALL {
            let f = compress(&[], w).unwrap();
            assert_eq!(f.len(), spec::HEADER_LEN);
            assert_eq!(&f[16..24], &[0; 8]);
            assert_eq!(decompress(&f).unwrap(), Vec::<u8>::new());
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
    }
}
