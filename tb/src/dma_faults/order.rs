//! Two errors in one descriptor's stream, a chunk apart: the engine must report the one the
//! model meets first (docs/DESCRIPTORS.md: errors in earlier chunks win, after step 8),
//! however far its read side runs ahead of its decisions. A read error on a later chunk's
//! source or payload arrives while an earlier chunk is still in the encoder or decoder: the
//! engine holds it until that chunk is decided.

use cdma_model::dma::{codes, with_type_and_codec, EngineConfig, ErrorCode};
use cdma_model::layout::{IndexEntry, HEADER_LEN};
use cdma_model::{Codec, ElemType};

use super::parts::{
    builder, compress_regions, good_copy, place_frame, push_decompress, relu_data, stored_offset,
};
use super::zvcx::float_of;
use crate::axi::{Access, ErrorRange, Resp};
use crate::dma_scenario::{compress_desc, frame_parts_with, Scenario};

/// Which two errors race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Race {
    /// COMPRESS: chunk 0 does not fit dst_cap, chunk 1's first source beat fails
    /// (DST_OVERFLOW).
    OverflowThenReadError,
    /// COMPRESS: chunk 1's first source beat fails and chunk 1 would not fit (READ_ERROR).
    ReadErrorThenOverflow,
    /// DECOMPRESS: chunk 0's ZVC payload does not decode (its last element), the first
    /// payload beat only chunk 1 needs fails (BAD_PAYLOAD).
    BadPayloadThenReadError,
}

impl Race {
    /// The races the engine decides as the model does. Not yet
    /// [`Race::BadPayloadThenReadError`]: the engine reports the read error as it arrives,
    /// before chunk 0's decoding error (an open finding, docs/INTEGRITY.md; run it with
    /// [`stream_race`] to see it).
    pub const ALL: [Race; 2] = [Race::OverflowThenReadError, Race::ReadErrorThenOverflow];

    /// The code the descriptor must end with.
    pub fn code(self) -> ErrorCode {
        match self {
            Race::OverflowThenReadError => codes::DST_OVERFLOW,
            Race::ReadErrorThenOverflow => codes::READ_ERROR,
            Race::BadPayloadThenReadError => codes::BAD_PAYLOAD,
        }
    }
}

/// `race` in a descriptor between two good COPYs; a COMPRESS codes ZVC-X (a float type of
/// the builder's width) if `zvcx`, else ZVC.
pub fn stream_race(engine: &EngineConfig, seed: u64, race: Race, zvcx: bool) -> Scenario {
    let codec = if zvcx { Codec::ZvcX } else { Codec::Zvc };
    let mut b = builder(&format!("race {race:?} {codec:?}"), engine, seed);
    let elem = b.elem();
    let bb = u64::from(engine.bus_bytes());
    // Chunks of several beats where the bus allows, so a chunk is still in the datapath when
    // the next one's first beat comes back.
    let chunk = 9
        .max(engine.bus_bytes().trailing_zeros() as u8 + 2)
        .min(engine.chunk_log2_max());
    let data = relu_data(4 * (1 << chunk) / elem.bytes(), elem, &mut b.rng);
    let err = |lo: u64| ErrorRange::new(lo, lo + bb, Resp::Slverr, Access::Read);
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    match race {
        Race::OverflowThenReadError | Race::ReadErrorThenOverflow => {
            let ty = if zvcx {
                float_of(elem, &mut b.rng)
            } else {
                ElemType::Raw(elem)
            };
            let parts = frame_parts_with(&data, codec, ty, chunk);
            let fits = if race == Race::OverflowThenReadError {
                0
            } else {
                1
            };
            let cap = stored_offset(&parts.meta, fits + 1) as u64 - 1;
            let (src, dst, meta) = compress_regions(&mut b, i, &data, cap, parts.meta.len() as u64);
            b.error(err(src + (1 << chunk)));
            let len = data.len() as u32;
            let mut desc = compress_desc(elem, src, len, dst, cap as u32, meta, chunk);
            desc.control = with_type_and_codec(desc.control, ty.code(), zvcx);
            b.push(desc, &format!("COMPRESS {codec:?}"), Some(race.code()));
        }
        Race::BadPayloadThenReadError => {
            let label = format!("d{i} DECOMPRESS");
            let mut chunk1 = 0;
            let f = place_frame(&mut b, &data, chunk, &label, |m, p| {
                chunk1 = stored_offset(m, 1) as u64;
                assert!(
                    !IndexEntry::read(&m[HEADER_LEN..], 0, false).raw,
                    "chunk 0 is ZVC"
                );
                // The last element of chunk 0 (under a set mask bit of its last block that
                // has one) becomes zero: the decoder sees it as late as it can.
                let eb = elem.bytes();
                let (mut at, mut last) = (0, None);
                while at < chunk1 as usize {
                    let mask = u32::from_le_bytes(p[at..at + 4].try_into().expect("4 bytes"));
                    let n = mask.count_ones() as usize;
                    if n > 0 {
                        last = Some(at + 4 + (n - 1) * eb);
                    }
                    at += 4 + n * eb;
                }
                let last = last.expect("a non-zero element in chunk 0");
                p[last..last + eb].fill(0);
            });
            let first = chunk1.div_ceil(bb) * bb;
            assert!(
                first < u64::from(f.payload_len),
                "chunk 1 has a beat of its own"
            );
            b.error(err(f.payload + first));
            push_decompress(&mut b, &f, 0, "DECOMPRESS bad chunk 0", race.code());
        }
    }
    good_copy(&mut b, Some(codes::OK));
    b.finish()
}
