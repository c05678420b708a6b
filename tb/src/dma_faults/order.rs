//! Two errors in one descriptor's stream, a chunk apart: the engine must report the one the
//! model meets first (docs/DESCRIPTORS.md: errors in earlier chunks win, after step 8),
//! however far its read side runs ahead of its decisions. A read error on a later chunk's
//! source or payload arrives while an earlier chunk is still in the encoder or decoder: the
//! engine holds it until that chunk is decided.

use cdma_model::dma::{codes, with_type_and_codec, EngineConfig, ErrorCode};
use cdma_model::frame::decode_chunk_with;
use cdma_model::layout::{IndexEntry, HEADER_LEN};
use cdma_model::{Codec, ElemType};

use super::parts::{
    builder, compress_regions, good_copy, place_frame_with, push_decompress, relu_data,
    stored_offset,
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
    /// DECOMPRESS: chunk 0's payload does not decode (as late in it as can be), the first
    /// payload beat only chunk 1 needs fails (BAD_PAYLOAD).
    BadPayloadThenReadError,
    /// DECOMPRESS: chunk 0's payload does not decode (as early in it as can be) and its last
    /// payload beat fails (READ_ERROR: the chunk's bytes are read before it is decoded).
    ReadErrorInBadChunk,
}

impl Race {
    /// Every race.
    pub const ALL: [Race; 4] = [
        Race::OverflowThenReadError,
        Race::ReadErrorThenOverflow,
        Race::BadPayloadThenReadError,
        Race::ReadErrorInBadChunk,
    ];

    /// The code the descriptor must end with.
    pub fn code(self) -> ErrorCode {
        match self {
            Race::OverflowThenReadError => codes::DST_OVERFLOW,
            Race::ReadErrorThenOverflow => codes::READ_ERROR,
            Race::BadPayloadThenReadError => codes::BAD_PAYLOAD,
            Race::ReadErrorInBadChunk => codes::READ_ERROR,
        }
    }
}

/// `race` in a descriptor between two good COPYs; its frame is coded ZVC-X (a float type of
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
        Race::BadPayloadThenReadError | Race::ReadErrorInBadChunk => {
            let late = race == Race::BadPayloadThenReadError;
            let ty = if zvcx {
                float_of(elem, &mut b.rng)
            } else {
                ElemType::Raw(elem)
            };
            let label = format!("d{i} DECOMPRESS");
            let (mut chunk1, mut broken) = (0, 0);
            let clen = 1usize << chunk;
            let f = place_frame_with(&mut b, &data, (codec, ty), chunk, &label, |m, p| {
                chunk1 = stored_offset(m, 1) as u64;
                let e = IndexEntry::read(&m[HEADER_LEN..], 0, false);
                assert!(!e.raw, "chunk 0 is coded");
                broken = break_chunk(&mut p[..chunk1 as usize], e, clen, (codec, ty), late);
            });
            // BadPayloadThenReadError: the first beat only chunk 1 needs; ReadErrorInBadChunk:
            // chunk 0's last beat, after the one it fails in.
            let beat = if late {
                chunk1.div_ceil(bb) * bb
            } else {
                (chunk1 - 1) / bb * bb
            };
            assert!(
                beat < u64::from(f.payload_len),
                "the beat is in the payload"
            );
            assert!(
                late || broken as u64 / bb < beat / bb,
                "chunk 0 fails a beat before"
            );
            b.error(err(f.payload + beat));
            push_decompress(&mut b, &f, 0, "DECOMPRESS bad chunk 0", race.code());
        }
    }
    good_copy(&mut b, Some(codes::OK));
    b.finish()
}

/// Breaks the coded chunk `stored` (of `entry`, `clen` bytes of data) so that it no longer
/// decodes, as late in it as can be if `late`, else as early. ZVC: its last (first) stored
/// element becomes zero (rule 17c); ZVC-X: the last (first) byte some one-byte change of
/// which the model's decoder rejects. Returns the offset of the first byte changed.
fn break_chunk(
    stored: &mut [u8],
    entry: IndexEntry,
    clen: usize,
    (codec, ty): (Codec, ElemType),
    late: bool,
) -> usize {
    let eb = ty.width().bytes();
    if codec == Codec::Zvc {
        // The stored elements' offsets, block by block (a mask, then its elements).
        let (mut at, mut elems) = (0, Vec::new());
        while at < stored.len() {
            let mask = u32::from_le_bytes(stored[at..at + 4].try_into().expect("4 bytes"));
            let n = mask.count_ones() as usize;
            elems.extend((0..n).map(|k| at + 4 + k * eb));
            at += 4 + n * eb;
        }
        let e = if late { elems.last() } else { elems.first() };
        let e = *e.expect("a stored element in chunk 0");
        stored[e..e + eb].fill(0);
        return e;
    }
    let fails = |s: &[u8]| decode_chunk_with(s, entry, clen, codec, ty, &mut Vec::new()).is_err();
    let order: Vec<usize> = if late {
        (0..stored.len()).rev().collect()
    } else {
        (0..stored.len()).collect()
    };
    for at in order {
        let was = stored[at];
        for v in [0, 0xff, was ^ 0x80, was ^ 1] {
            stored[at] = v;
            if fails(stored) {
                return at;
            }
        }
        stored[at] = was;
    }
    panic!("no one-byte change breaks chunk 0");
}
