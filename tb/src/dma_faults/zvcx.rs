//! Fault scenarios of ZVC-X frames (an engine with the codec): damaged coded chunks, which the
//! engine's ZVC-X decoder must refuse exactly where the model does (BAD_PAYLOAD after the
//! chunks before it were written), and index entries the ZVC-X rules allow but ZVC's do not.

use cdma_model::dma::{codes, EngineConfig, ErrorCode};
use cdma_model::frame::decode_chunk_with;
use cdma_model::layout::{IndexEntry, HEADER_LEN, INDEX_ENTRY_LEN, PAYLOAD_LEN_FIELD};
use cdma_model::{Codec, ElemType, ElemWidth};
use rand::Rng;

use super::parts::{builder, decompress_between_copies_with, relu_data, stored_offset};
use crate::dma_scenario::random::floats_of;
use crate::dma_scenario::Scenario;

/// What is wrong with (or unusual about) a ZVC-X frame's chunk 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZvcxFault {
    /// Bytes of its coded payload changed so that it no longer decodes (BAD_PAYLOAD).
    Damaged,
    /// Its coded payload cut short by one byte, index and header following (BAD_PAYLOAD).
    Truncated,
    /// One byte more after its coded payload, index and header following (BAD_PAYLOAD).
    Excess,
    /// A coded entry of 0 stored bytes, its payload removed (BAD_PAYLOAD: nothing to decode).
    Empty,
}

impl ZvcxFault {
    /// Every ZVC-X fault.
    pub const ALL: [ZvcxFault; 4] = [
        ZvcxFault::Damaged,
        ZvcxFault::Truncated,
        ZvcxFault::Excess,
        ZvcxFault::Empty,
    ];
}

/// A float type of `elem`'s width (the ZVC-X frames' element type).
pub(super) fn float_of(elem: ElemWidth, rng: &mut impl Rng) -> ElemType {
    let floats = floats_of(elem);
    floats[rng.gen_range(0..floats.len())]
}

/// Whether the model refuses chunk `k` of the frame `(meta, payload)`.
fn model_refuses(meta: &[u8], payload: &[u8], k: usize, chunk_len: usize, ty: ElemType) -> bool {
    let e = IndexEntry::read(&meta[HEADER_LEN..], k, false);
    let at = stored_offset(meta, k);
    let stored = &payload[at..at + e.stored_len as usize];
    decode_chunk_with(stored, e, chunk_len, Codec::ZvcX, ty, &mut Vec::new()).is_err()
}

/// Sets chunk `k`'s entry to `stored` bytes (coded), replacing its stored bytes with `bytes`
/// and moving the header's `payload_len` by the difference; returns the difference.
fn restore(meta: &mut [u8], payload: &mut Vec<u8>, k: usize, bytes: &[u8]) -> i64 {
    let e = IndexEntry::read(&meta[HEADER_LEN..], k, false);
    let at = stored_offset(meta, k);
    payload.splice(at..at + e.stored_len as usize, bytes.iter().copied());
    let ne = IndexEntry {
        stored_len: bytes.len() as u32,
        raw: false,
        crc: 0,
    };
    let w = HEADER_LEN + k * INDEX_ENTRY_LEN;
    meta[w..w + 4].copy_from_slice(&ne.to_word().to_le_bytes());
    let d = bytes.len() as i64 - i64::from(e.stored_len);
    let p = PAYLOAD_LEN_FIELD.get(meta) as i64 + d;
    PAYLOAD_LEN_FIELD.put(meta, p as u64);
    d
}

/// A DECOMPRESS of a ZVC-X frame whose chunk 1 has `fault` (between two good COPYs).
pub fn zvcx_fault(engine: &EngineConfig, seed: u64, fault: ZvcxFault) -> Scenario {
    let mut b = builder(&format!("ZVC-X {fault:?}"), engine, seed);
    let elem = b.elem();
    let eb = elem.bytes();
    let ty = float_of(elem, &mut b.rng);
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    let chunk_len = 1usize << chunk;
    // ReLU-like: three elements in four zero, so every chunk is stored coded.
    let mut data = relu_data(4 * chunk_len / eb, elem, &mut b.rng);
    for (i, x) in data.chunks_mut(eb).enumerate() {
        if i % 4 != 0 {
            x.fill(0);
        }
    }
    let mut rng = b.rng.clone();
    let label = format!("DECOMPRESS ZVC-X ({}) {fault:?}", ty.name());
    let intent: ErrorCode = codes::BAD_PAYLOAD;
    decompress_between_copies_with(
        b,
        &data,
        (Codec::ZvcX, ty),
        chunk,
        &label,
        intent,
        |m, p| {
            let e = IndexEntry::read(&m[HEADER_LEN..], 1, false);
            assert!(!e.raw, "chunk 1 is ReLU-like");
            let at = stored_offset(m, 1);
            let coded = p[at..at + e.stored_len as usize].to_vec();
            let d = match fault {
                ZvcxFault::Damaged => {
                    // Flip random bytes until the model refuses the chunk.
                    let mut bad = coded.clone();
                    while {
                        let i = rng.gen_range(0..bad.len());
                        bad[i] ^= rng.gen_range(1..=255u8);
                        restore(m, p, 1, &bad);
                        !model_refuses(m, p, 1, chunk_len, ty)
                    } {}
                    0
                }
                ZvcxFault::Truncated => restore(m, p, 1, &coded[..coded.len() - 1]),
                ZvcxFault::Excess => {
                    let mut more = coded.clone();
                    more.push(rng.gen_range(1..=255u8));
                    restore(m, p, 1, &more)
                }
                ZvcxFault::Empty => restore(m, p, 1, &[]),
            };
            assert!(
                model_refuses(m, p, 1, chunk_len, ty),
                "{fault:?}: the model decodes the damaged chunk"
            );
            // The descriptor reads the payload the header now names.
            d
        },
    )
}
