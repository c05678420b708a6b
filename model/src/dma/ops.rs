//! Steps 2–8 of docs/DESCRIPTORS.md for a fetched descriptor: its checks, then COPY,
//! COMPRESS or DECOMPRESS.

use std::ops::Range;

use cdma_spec::desc as d;
use cdma_spec::error::{self as code, ErrorCode};

use super::bus::{read_beats, read_beats_at, region, write_at};
use super::config::EngineConfig;
use super::descriptor::{Descriptor, Op};
use super::memory::Memory;
use crate::frame::{decode_chunk_with, encode_chunk_with};
use crate::layout::{
    self, Header, IndexEntry, HEADER_LEN, INDEX_ENTRY_LEN, INDEX_ENTRY_LEN_CRC, META_CRC_LEN,
};
use crate::{Codec, ElemType, ElemWidth};

/// Result of the operation of a fetched descriptor: error, bytes written, unspecified memory.
pub(super) struct OpResult {
    pub(super) error: ErrorCode,
    pub(super) bytes_written: u32,
    pub(super) unspecified: Vec<Range<u64>>,
}

impl OpResult {
    fn ok(bytes_written: u32) -> OpResult {
        OpResult {
            error: code::OK,
            bytes_written,
            unspecified: Vec::new(),
        }
    }
    /// An error before anything but the status word is written.
    fn early(error: ErrorCode) -> OpResult {
        OpResult {
            error,
            bytes_written: 0,
            unspecified: Vec::new(),
        }
    }
    /// An error while streaming: `unspecified` may hold anything.
    fn streaming(error: ErrorCode, unspecified: Vec<Range<u64>>) -> OpResult {
        OpResult {
            error,
            bytes_written: 0,
            unspecified,
        }
    }
}

/// Steps 2–8 of docs/DESCRIPTORS.md for a fetched descriptor.
pub(super) fn run_op(mem: &mut impl Memory, desc: &Descriptor, cfg: &EngineConfig) -> OpResult {
    let c = u64::from(desc.control);
    let bb = u64::from(cfg.bus_bytes());
    // Step 2: the descriptor's own consistency.
    let known = d::CONTROL_BITS.iter().fold(0, |m, f| m | f.mask());
    let op = Op::of_control(desc.control);
    let elem_bits = d::ELEM_CODES
        .iter()
        .find(|(code, _)| *code == d::CTRL_ELEM.get(c))
        .map(|(_, b)| *b);
    let chunk_field = d::CTRL_CHUNK_LOG2.get(c) as u8;
    let (Some(op), Some(elem_bits)) = (op, elem_bits) else {
        return OpResult::early(code::BAD_DESC);
    };
    if c & !known != 0 || desc.reserved0 != 0 || desc.reserved1 != 0 {
        return OpResult::early(code::BAD_DESC);
    }
    let chunk_log2 = match op {
        Op::Compress if chunk_field == 0 => layout::CHUNK_LOG2_DEFAULT,
        Op::Compress => chunk_field,
        _ if chunk_field != 0 => return OpResult::early(code::BAD_DESC),
        _ => 0,
    };
    if op == Op::Compress && layout::check_chunk_log2(chunk_log2).is_err() {
        return OpResult::early(code::BAD_DESC);
    }
    let elem = ElemWidth::from_bits(elem_bits).expect("the element codes are valid widths");
    // The type and codec: COMPRESS only (DECOMPRESS reads them from the header).
    let type_field = d::CTRL_TYPE.get(c) as u8;
    let codec_field = d::CTRL_CODEC.get(c);
    let no_crc = d::CTRL_NO_CRC.get(c) == 1;
    if op != Op::Compress && (type_field != 0 || codec_field != 0 || no_crc) {
        return OpResult::early(code::BAD_DESC);
    }
    let Ok(elem_type) = ElemType::from_code(type_field, elem) else {
        return OpResult::early(code::BAD_DESC);
    };
    let codec = match codec_field {
        d::DESC_CODEC_ZVC => Codec::Zvc,
        d::DESC_CODEC_ZVCX => Codec::ZvcX,
        _ => return OpResult::early(code::BAD_DESC),
    };
    // Step 3: what this configuration can run.
    if op != Op::Copy && !cfg.supports(elem) {
        return OpResult::early(code::UNSUPPORTED);
    }
    if codec == Codec::ZvcX && !cfg.has_zvcx() {
        return OpResult::early(code::UNSUPPORTED);
    }
    if op == Op::Compress && !no_crc && !cfg.has_crc() {
        return OpResult::early(code::UNSUPPORTED);
    }
    // (A chunk smaller than a beat cannot happen today, 2^7 >= BB; the rule keeps chunks
    // whole beats should a wider bus be added.)
    if op == Op::Compress && (chunk_log2 > cfg.chunk_log2_max() || (1u64 << chunk_log2) < bb) {
        return OpResult::early(code::UNSUPPORTED);
    }
    // Step 4: alignment.
    let misaligned = |a: u64| !a.is_multiple_of(bb);
    if misaligned(desc.src_addr)
        || misaligned(desc.dst_addr)
        || (op != Op::Copy && misaligned(desc.meta_addr))
    {
        return OpResult::early(code::UNALIGNED);
    }
    // Step 5: whole elements of the descriptor's width (COPY included: one rule for the data
    // of every operation is simpler for software). A DECOMPRESS `src_len` is payload bytes,
    // which ZVC-X packs to any byte count: the header's `payload_len` checks it.
    if op != Op::Decompress && !desc.src_len.is_multiple_of(elem.bytes() as u32) {
        return OpResult::early(code::BAD_DESC);
    }
    match op {
        Op::Copy => copy(mem, desc, bb),
        Op::Compress => compress(mem, desc, cfg, (codec, elem_type, !no_crc), chunk_log2),
        Op::Decompress => decompress(mem, desc, cfg, elem),
    }
}

/// COPY streams in pieces of this many bytes (a multiple of every bus width), so a large
/// `src_len` costs no large buffer.
const COPY_PIECE: u64 = 1 << 16;

fn copy(mem: &mut impl Memory, desc: &Descriptor, bb: u64) -> OpResult {
    // Step 6.
    if desc.src_len > desc.dst_cap {
        return OpResult::early(code::DST_OVERFLOW);
    }
    let unspec = vec![region(desc.dst_addr, u64::from(desc.dst_cap))];
    let len = u64::from(desc.src_len);
    // As for COMPRESS: a write error is reported only if every read succeeded.
    let mut write_failed = false;
    let mut off = 0;
    while off < len {
        let n = COPY_PIECE.min(len - off);
        let piece = read_beats_at(mem, desc.src_addr, off, n, bb);
        let Ok(piece) = piece else {
            return OpResult::streaming(code::READ_ERROR, unspec);
        };
        write_failed |= write_at(mem, (desc.dst_addr, off), &piece, bb).is_err();
        off += n;
    }
    if write_failed {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    OpResult::ok(desc.src_len)
}

fn compress(
    mem: &mut impl Memory,
    desc: &Descriptor,
    cfg: &EngineConfig,
    (codec, elem_type, crc): (Codec, ElemType, bool),
    chunk_log2: u8,
) -> OpResult {
    let bb = u64::from(cfg.bus_bytes());
    let len = u64::from(desc.src_len);
    let n = layout::n_chunks(len, chunk_log2);
    let (entry_len, meta_len) = if crc {
        (INDEX_ENTRY_LEN_CRC, layout::meta_len_crc(n))
    } else {
        (INDEX_ENTRY_LEN, layout::meta_len(n))
    };
    // Step 8: chunk by chunk, in stream order.
    let unspec = vec![
        region(desc.dst_addr, u64::from(desc.dst_cap)),
        region(desc.meta_addr, meta_len),
    ];
    let chunk = 1u64 << chunk_log2;
    let mut index = Vec::new();
    let mut stored = Vec::new();
    let mut off = 0u64;
    // Write responses come back after the stream has moved on, so a write error is reported
    // only when nothing in the stream (read error, overflow) failed first.
    let mut write_failed = false;
    for i in 0..n {
        let start = i * chunk;
        let clen = chunk.min(len - start);
        let src = read_beats_at(mem, desc.src_addr, start, clen, bb);
        let Ok(src) = src else {
            return OpResult::streaming(code::READ_ERROR, unspec);
        };
        stored.clear();
        let mut e = encode_chunk_with(&src, codec, elem_type, &mut stored);
        if crc {
            e.crc = layout::crc32c(&src);
        }
        if off + stored.len() as u64 > u64::from(desc.dst_cap) {
            return OpResult::streaming(code::DST_OVERFLOW, unspec);
        }
        write_failed |= write_at(mem, (desc.dst_addr, off), &stored, bb).is_err();
        off += stored.len() as u64;
        let at = index.len();
        index.resize(at + entry_len, 0);
        e.write(&mut index[at..], crc);
    }
    if write_failed {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    let header = Header {
        codec,
        elem_type,
        chunk_log2,
        n_chunks: n as u32,
        uncompressed_len: len,
        payload_len: off,
        crc,
    };
    let mut meta = header.to_bytes().to_vec();
    meta.extend_from_slice(&index);
    if crc {
        let m = layout::meta_crc(&index, &header.to_bytes());
        meta.extend_from_slice(&m.to_le_bytes());
    }
    if write_at(mem, (desc.meta_addr, 0), &meta, bb).is_err() {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    // off <= dst_cap, a u32.
    OpResult::ok(off as u32)
}

fn decompress(
    mem: &mut impl Memory,
    desc: &Descriptor,
    cfg: &EngineConfig,
    elem: ElemWidth,
) -> OpResult {
    let bb = u64::from(cfg.bus_bytes());
    // Step 7: the header; nothing is written before it is good.
    let Ok(hb) = read_beats(mem, desc.meta_addr, HEADER_LEN as u64, bb) else {
        return OpResult::early(code::READ_ERROR);
    };
    let Ok(h) = Header::parse(&hb) else {
        return OpResult::early(code::BAD_HEADER);
    };
    // The frame must hold the elements the descriptor names (a width the engine does not
    // compress was refused in step 3).
    if h.elem() != elem {
        return OpResult::early(code::BAD_HEADER);
    }
    if h.chunk_log2 > cfg.chunk_log2_max()
        || (h.codec == Codec::ZvcX && !cfg.has_zvcx())
        || (h.crc && !cfg.has_crc())
    {
        return OpResult::early(code::UNSUPPORTED);
    }
    if h.uncompressed_len > u64::from(desc.dst_cap) {
        return OpResult::early(code::DST_OVERFLOW);
    }
    if h.payload_len != u64::from(desc.src_len) {
        return OpResult::early(code::BAD_HEADER);
    }
    // Version 4: the metadata CRC over the whole index and the header, before any entry is
    // believed or any payload read.
    if h.crc {
        match meta_crc_matches(mem, desc.meta_addr, &hb, h.n_chunks, bb) {
            Err(_) => return OpResult::early(code::READ_ERROR),
            Ok(false) => return OpResult::early(code::BAD_CRC),
            Ok(true) => {}
        }
    }
    if h.n_chunks == 0 && h.payload_len != 0 {
        return OpResult::early(code::BAD_INDEX);
    }
    // Entry by entry, in chunk order: the index entry (read with the beat that holds it, its
    // rules, the running sum of stored sizes), then that chunk's payload. So an index error at
    // entry i comes after chunks 0..i have been written (nothing written when i = 0). Within a
    // chunk a read error wins over a decoding error (the engine sees the beat's response with
    // its data).
    let unspec = vec![region(desc.dst_addr, u64::from(desc.dst_cap))];
    let stop = |i: u32, error: ErrorCode| {
        if i == 0 {
            OpResult::early(error)
        } else {
            OpResult::streaming(error, unspec.clone())
        }
    };
    let mut off = 0u64;
    let mut out = Vec::new();
    let mut write_failed = false;
    // A chunk whose data does not match its CRC does not stop the stream (the engine checks
    // it after the chunk has gone out): BAD_CRC at the end, unless another error ends the
    // descriptor first.
    let mut crc_failed = false;
    let entry_len = h.entry_len() as u64;
    for i in 0..h.n_chunks {
        let at = HEADER_LEN as u64 + u64::from(i) * entry_len;
        let word = read_beats_at(mem, desc.meta_addr, at, entry_len, bb);
        let Ok(word) = word else {
            return stop(i, code::READ_ERROR);
        };
        let e = IndexEntry::read(&word, 0, h.crc);
        if e.check(i, h.chunk_len(u64::from(i)), h.codec, h.elem())
            .is_err()
        {
            return stop(i, code::BAD_INDEX);
        }
        let end = off + u64::from(e.stored_len);
        if end > h.payload_len || (i + 1 == h.n_chunks && end != h.payload_len) {
            return stop(i, code::BAD_INDEX);
        }
        let s = read_beats_at(mem, desc.src_addr, off, u64::from(e.stored_len), bb);
        let Ok(s) = s else {
            return OpResult::streaming(code::READ_ERROR, unspec);
        };
        out.clear();
        let clen = h.chunk_len(u64::from(i));
        if decode_chunk_with(&s, e, clen as usize, h.codec, h.elem_type, &mut out).is_err() {
            return OpResult::streaming(code::BAD_PAYLOAD, unspec);
        }
        crc_failed |= h.crc && layout::crc32c(&out) != e.crc;
        let at = u64::from(i) * h.chunk_bytes();
        write_failed |= write_at(mem, (desc.dst_addr, at), &out, bb).is_err();
        off = end;
    }
    if write_failed {
        return OpResult::streaming(code::WRITE_ERROR, unspec);
    }
    if crc_failed {
        return OpResult::streaming(code::BAD_CRC, unspec);
    }
    // uncompressed_len <= dst_cap, a u32.
    OpResult::ok(h.uncompressed_len as u32)
}

/// The index is read for the metadata CRC in pieces of this many bytes (a multiple of every
/// bus width), so a long index costs no large buffer.
const META_PIECE: u64 = 1 << 16;

/// Whether a version 4 frame's metadata CRC (after its `n` 8-byte entries) matches its index
/// and header `hb`, read in whole beats as the engine reads them (a bus fault on any of those
/// beats is the error).
fn meta_crc_matches(
    mem: &mut impl Memory,
    meta_addr: u64,
    hb: &[u8],
    n: u32,
    bb: u64,
) -> Result<bool, super::memory::BusFault> {
    let index_len = u64::from(n) * INDEX_ENTRY_LEN_CRC as u64;
    let mut state = 0u32;
    let mut off = 0;
    while off < index_len {
        let len = META_PIECE.min(index_len - off);
        let piece = read_beats_at(mem, meta_addr, HEADER_LEN as u64 + off, len, bb)?;
        state = ::crc32c::crc32c_append(state, &piece);
        off += len;
    }
    let at = HEADER_LEN as u64 + index_len;
    let stored = read_beats_at(mem, meta_addr, at, META_CRC_LEN as u64, bb)?;
    let stored = u32::from_le_bytes(stored[..].try_into().expect("4 bytes"));
    Ok(::crc32c::crc32c_append(state, hb) == stored)
}
