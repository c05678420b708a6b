//! RL: run-length coding of zeros, the paper's second zero-aware codec, kept for comparison
//! only (it is not a cdma frame codec and has no codec id). The exact format is in
//! docs/FORMAT.md, section "RL (run-length of zeros, analysis only)".
//!
//! The payload is a sequence of records `(run: u8, element)`: `run` zero elements, then
//! `element` (E/8 bytes, raw bits, little-endian). A record whose element is zero is only
//! written when a run reaches 255, so it stands for 256 zeros; zeros after the last record are
//! not written, the decoder restores them from the element count.

use cdma_model::ElemWidth;
use std::fmt;

/// Longest run a record's `run` byte can hold.
pub const MAX_RUN: usize = 255;

/// Why an RL payload was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RlError {
    /// The input is not a whole number of elements.
    InputNotWholeElements {
        /// Input length in bytes.
        len: usize,
        /// Element size in bytes.
        elem_bytes: usize,
    },
    /// The payload ends inside a record (after `offset` bytes).
    Truncated {
        /// Offset of the incomplete record.
        offset: usize,
    },
    /// A record would produce elements past the element count.
    TooManyElements {
        /// Offset of the offending record.
        offset: usize,
    },
    /// A record holds a zero element with a run below 255 (the encoder never writes one).
    NonCanonicalZero {
        /// Offset of the offending record.
        offset: usize,
    },
    /// More than 255 zeros are left implicit after the last record (the encoder would have
    /// written a `(255, 0)` record).
    NonCanonicalTail {
        /// Zeros left to restore.
        zeros: usize,
    },
}

impl fmt::Display for RlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RlError::InputNotWholeElements { len, elem_bytes } => write!(
                f,
                "RL input of {len} bytes is not a whole number of {elem_bytes}-byte elements"
            ),
            RlError::Truncated { offset } => {
                write!(f, "RL payload ends inside the record at byte {offset}")
            }
            RlError::TooManyElements { offset } => {
                write!(f, "RL record at byte {offset} runs past the element count")
            }
            RlError::NonCanonicalZero { offset } => write!(
                f,
                "RL record at byte {offset} stores a zero element with a run below {MAX_RUN}"
            ),
            RlError::NonCanonicalTail { zeros } => write!(
                f,
                "RL payload leaves {zeros} trailing zeros implicit (at most {MAX_RUN} allowed)"
            ),
        }
    }
}

impl std::error::Error for RlError {}

/// Encodes `data` (elements of width `elem`) as an RL payload.
pub fn encode(data: &[u8], elem: ElemWidth) -> Result<Vec<u8>, RlError> {
    let eb = elem.bytes();
    if !data.len().is_multiple_of(eb) {
        return Err(RlError::InputNotWholeElements {
            len: data.len(),
            elem_bytes: eb,
        });
    }
    let mut out = Vec::with_capacity(data.len() / 2 + 16);
    let mut run = 0usize;
    for x in data.chunks_exact(eb) {
        let zero = x.iter().all(|&b| b == 0);
        if zero && run < MAX_RUN {
            run += 1;
        } else {
            // Either a non-zero element, or the 256th zero of a run: emit a record.
            out.push(run as u8);
            out.extend_from_slice(x);
            run = 0;
        }
    }
    Ok(out)
}

/// Decodes an RL payload back into `n_elems` elements of width `elem`, rejecting any payload
/// the encoder would not have written.
pub fn decode(payload: &[u8], elem: ElemWidth, n_elems: usize) -> Result<Vec<u8>, RlError> {
    let eb = elem.bytes();
    let rec = 1 + eb;
    // Every record yields at least one element, so a valid payload holds at most n records:
    // check before allocating so a hostile count cannot make us allocate for nothing.
    if payload.len() / rec > n_elems {
        return Err(RlError::TooManyElements {
            offset: n_elems * rec,
        });
    }
    let mut out = Vec::with_capacity(n_elems * eb);
    let mut produced = 0usize;
    let mut offset = 0usize;
    while offset < payload.len() {
        let Some(r) = payload.get(offset..offset + rec) else {
            return Err(RlError::Truncated { offset });
        };
        let run = r[0] as usize;
        let x = &r[1..];
        if x.iter().all(|&b| b == 0) && run < MAX_RUN {
            return Err(RlError::NonCanonicalZero { offset });
        }
        if produced + run + 1 > n_elems {
            return Err(RlError::TooManyElements { offset });
        }
        out.resize(out.len() + run * eb, 0);
        out.extend_from_slice(x);
        produced += run + 1;
        offset += rec;
    }
    let tail = n_elems - produced;
    if tail > MAX_RUN {
        return Err(RlError::NonCanonicalTail { zeros: tail });
    }
    out.resize(n_elems * eb, 0);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words32(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    /// The FORMAT.md example, computed by hand: E=16, elements
    /// `0, 0, 0x3C00, 0x8000, 0, 0` → records (2, 0x3C00), (0, 0x8000); the two trailing zeros
    /// stay implicit.
    #[test]
    fn pinned_example_e16() {
        let data: Vec<u8> = [0u16, 0, 0x3C00, 0x8000, 0, 0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let p = encode(&data, ElemWidth::W16).unwrap();
        assert_eq!(p, vec![0x02, 0x00, 0x3C, 0x00, 0x00, 0x80]);
        assert_eq!(decode(&p, ElemWidth::W16, 6).unwrap(), data);
    }

    /// 300 zeros then 1.0f32: a (255, 0) record covers 256 zeros, then (44, 1.0).
    #[test]
    fn pinned_long_run_e32() {
        let mut w = vec![0u32; 300];
        w.push(0x3F80_0000);
        let data = words32(&w);
        let p = encode(&data, ElemWidth::W32).unwrap();
        assert_eq!(
            p,
            vec![0xFF, 0, 0, 0, 0, 44, 0x00, 0x00, 0x80, 0x3F],
            "256 zeros in one record, then 44 zeros and the element"
        );
        assert_eq!(decode(&p, ElemWidth::W32, 301).unwrap(), data);
        // Exactly 255 zeros at the end stay implicit; 256 need a record.
        assert!(encode(&vec![0u8; 255], ElemWidth::W8).unwrap().is_empty());
        assert_eq!(
            encode(&vec![0u8; 256], ElemWidth::W8).unwrap(),
            vec![255, 0]
        );
    }

    #[test]
    fn round_trips_every_width_and_pattern() {
        // Deterministic pseudo-random data with runs of every length around the 255 limit.
        let mut s = 0x1234_5678u32;
        for elem in ElemWidth::ALL {
            for n in [0usize, 1, 2, 31, 255, 256, 257, 511, 512, 513, 2000] {
                for density in [0u32, 1, 8, 128, 255, 256] {
                    let mut data = Vec::new();
                    for _ in 0..n {
                        s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                        let nz = (s >> 24) < density;
                        let v = if nz { (s | 1).to_le_bytes() } else { [0; 4] };
                        data.extend_from_slice(&v[..elem.bytes()]);
                    }
                    let p = encode(&data, elem).unwrap();
                    assert_eq!(
                        decode(&p, elem, n).unwrap(),
                        data,
                        "{elem} n={n} d={density}"
                    );
                }
            }
        }
    }

    #[test]
    fn rejects_malformed_payloads() {
        let e = ElemWidth::W16;
        assert_eq!(
            encode(&[1, 2, 3], e),
            Err(RlError::InputNotWholeElements {
                len: 3,
                elem_bytes: 2
            })
        );
        assert_eq!(decode(&[0, 1], e, 4), Err(RlError::Truncated { offset: 0 }));
        assert_eq!(
            decode(&[3, 1, 0], e, 3),
            Err(RlError::TooManyElements { offset: 0 })
        );
        assert_eq!(
            decode(&[3, 0, 0], e, 10),
            Err(RlError::NonCanonicalZero { offset: 0 })
        );
        assert_eq!(
            decode(&[], e, 256),
            Err(RlError::NonCanonicalTail { zeros: 256 })
        );
        assert_eq!(decode(&[255, 0, 0], e, 256).unwrap(), vec![0; 512]);
    }
}
