//! Bus errors: a read or write error on each kind of access, and `stop_on_error`.

use cdma_model::dma::{codes, EngineConfig};
use cdma_model::layout::HEADER_LEN;
use cdma_spec::desc as d;

use super::parts::{builder, compress_regions, good_copy, place_frame, relu_data, stored_offset};
use crate::axi::{Access, ErrorRange, Resp};
use crate::dma_scenario::{
    compress_desc, copy_desc, decompress_desc, frame_parts, with_flags, RegionKind, Scenario,
};

/// Where a bus fault is injected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// COPY source.
    CopySrc,
    /// COMPRESS source (in its second chunk).
    CompressSrc,
    /// DECOMPRESS payload (in its second chunk's stored bytes).
    DecompressPayload,
    /// A descriptor (fetch).
    Descriptor,
    /// DECOMPRESS frame header.
    Header,
    /// DECOMPRESS chunk index, past the beat holding the header.
    Index,
    /// COPY destination.
    CopyDst,
    /// COMPRESS destination (payload).
    CompressDst,
    /// COMPRESS metadata (header + index write).
    CompressMeta,
    /// DECOMPRESS destination.
    DecompressDst,
    /// The status write-back of a descriptor.
    StatusWriteback,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 11] = [
        Target::CopySrc,
        Target::CompressSrc,
        Target::DecompressPayload,
        Target::Descriptor,
        Target::Header,
        Target::Index,
        Target::CopyDst,
        Target::CompressDst,
        Target::CompressMeta,
        Target::DecompressDst,
        Target::StatusWriteback,
    ];
}

/// A read or write error (`resp` = SLVERR or DECERR) at `target`.
pub fn bus_fault(engine: &EngineConfig, seed: u64, target: Target, resp: Resp) -> Scenario {
    let name = format!("bus fault {target:?} {resp:?}");
    let mut b = builder(&name, engine, seed);
    let elem = b.elem();
    let eb = elem.bytes();
    let bb = u64::from(engine.bus_bytes());
    let chunk = 7.max(engine.bus_bytes().trailing_zeros() as u8);
    // 40 chunks: the index (160 B) reaches past the beat holding the header on every bus.
    let data = relu_data(40 * (1 << chunk) / eb, elem, &mut b.rng);
    let err = |lo: u64, len: u64, on: Access| ErrorRange::new(lo, lo + len, resp, on);
    // Which descriptor ends the chain early (fetch or write-back failure).
    let mut ends_chain = false;
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    match target {
        Target::CopySrc | Target::CopyDst => {
            let src = b.data(&data, RegionKind::Source, &format!("d{i} COPY src"));
            let dst = b.alloc(
                data.len() as u64,
                bb,
                RegionKind::Destination,
                &format!("d{i} COPY dst"),
            );
            let (code, e) = if target == Target::CopySrc {
                (codes::READ_ERROR, err(src + 1000, 4, Access::Read))
            } else {
                (codes::WRITE_ERROR, err(dst + 1000, 4, Access::Write))
            };
            b.error(e);
            let len = data.len() as u32;
            b.push(copy_desc(elem, src, len, dst, len), "COPY", Some(code));
        }
        Target::CompressSrc | Target::CompressDst | Target::CompressMeta => {
            let parts = frame_parts(&data, elem, chunk);
            let (dst_len, meta_len) = (data.len() as u64, parts.meta.len() as u64);
            let (src, dst, meta) = compress_regions(&mut b, i, &data, dst_len, meta_len);
            let (code, e) = match target {
                Target::CompressSrc => (
                    codes::READ_ERROR,
                    err(src + (1 << chunk) + 8, 4, Access::Read),
                ),
                Target::CompressDst => (
                    codes::WRITE_ERROR,
                    err(dst + stored_offset(&parts.meta, 1) as u64, 4, Access::Write),
                ),
                _ => (codes::WRITE_ERROR, err(meta + 40, 4, Access::Write)),
            };
            b.error(e);
            let len = data.len() as u32;
            b.push(
                compress_desc(elem, src, len, dst, len, meta, chunk),
                "COMPRESS",
                Some(code),
            );
        }
        Target::DecompressPayload | Target::Header | Target::Index | Target::DecompressDst => {
            let f = place_frame(&mut b, &data, chunk, &format!("d{i} DECOMPRESS"), |_, _| {});
            let dst = b.alloc(
                u64::from(f.data_len),
                bb,
                RegionKind::Destination,
                &format!("d{i} DECOMPRESS dst"),
            );
            let (code, e) = match target {
                Target::DecompressPayload => (
                    codes::READ_ERROR,
                    err(
                        f.payload + stored_offset(&f.parts.meta, 1) as u64,
                        4,
                        Access::Read,
                    ),
                ),
                Target::Header => (codes::READ_ERROR, err(f.meta + 8, 4, Access::Read)),
                Target::Index => {
                    // First index byte past the beat that holds the header.
                    let at = (f.meta + HEADER_LEN as u64).next_multiple_of(bb);
                    (codes::READ_ERROR, err(at, 4, Access::Read))
                }
                _ => (
                    codes::WRITE_ERROR,
                    err(dst + (1 << chunk) + 8, 4, Access::Write),
                ),
            };
            b.error(e);
            b.push(
                decompress_desc(elem, f.payload, f.payload_len, dst, f.data_len, f.meta),
                "DECOMPRESS",
                Some(code),
            );
        }
        Target::Descriptor => {
            // The fault is on the next descriptor's own bytes, known once placed: push it
            // and inject after finish (see below).
            good_copy(&mut b, Some(codes::READ_ERROR));
            ends_chain = true;
        }
        Target::StatusWriteback => {
            // The descriptor succeeds but its write-back fails: the chain ends.
            good_copy(&mut b, Some(codes::OK));
            ends_chain = true;
        }
    }
    good_copy(&mut b, if ends_chain { None } else { Some(codes::OK) });
    let mut scn = b.finish();
    let p = &scn.descs[1];
    match target {
        Target::Descriptor => scn.errors.push(err(p.addr + 8, 8, Access::Read)),
        Target::StatusWriteback => scn.errors.push(err(
            p.addr + d::STATUS_FIELD.offset as u64,
            8,
            Access::Write,
        )),
        _ => {}
    }
    scn
}

/// A descriptor failing with `stop_on_error` = `stop`: with 1 the chain ends there, with 0
/// it goes on.
pub fn stop_on_error(engine: &EngineConfig, seed: u64, stop: bool) -> Scenario {
    let mut b = builder(&format!("stop_on_error={stop}"), engine, seed);
    good_copy(&mut b, Some(codes::OK));
    let i = b.next_index();
    let bb = u64::from(engine.bus_bytes());
    let src = b.alloc(256, bb, RegionKind::Source, &format!("d{i} COPY src"));
    let dst = b.alloc(128, bb, RegionKind::Destination, &format!("d{i} COPY dst"));
    // COPY longer than its capacity: DST_OVERFLOW before anything moves.
    let desc = with_flags(copy_desc(b.elem(), src, 256, dst, 128), true, stop);
    b.push(desc, "COPY overflow", Some(codes::DST_OVERFLOW));
    good_copy(&mut b, if stop { None } else { Some(codes::OK) });
    b.finish()
}
