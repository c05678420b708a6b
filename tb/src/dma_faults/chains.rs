//! Whole lists and long chains: every fault for an engine, the throughput COMPRESS and
//! DECOMPRESS, and the chain an abort is aimed at.

use cdma_model::dma::{codes, with_type_and_codec, EngineConfig};
use cdma_model::{Codec, ElemType, ElemWidth};

use super::bus::{bus_fault, stop_on_error, Target};
use super::desc::{bad_desc, dst_overflow, DescFault, Overflow};
use super::frame::{bad_header, bad_index, bad_payload, mask_past_end, HeaderFault, IndexFault};
use super::order::{stream_race, Race};
use super::parts::{builder_of_width, compress_regions, place_frame_crc, push_decompress};
use super::zvcx::{zvcx_fault, ZvcxFault};
use crate::axi::Resp;
use crate::dma_scenario::{
    compress_desc, decompress_desc, frame_parts_with, seeded_elem, window_for, ChainBuilder,
    RegionKind, RoundTrip, Scenario, Tensor,
};
use std::ops::Range;

/// Every fault scenario that applies to `engine`, each seeded from `seed`.
pub fn all_faults(engine: &EngineConfig, seed: u64) -> Vec<Scenario> {
    let mut v = Vec::new();
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        s
    };
    for t in Target::ALL {
        for r in [Resp::Slverr, Resp::Decerr] {
            v.push(bus_fault(engine, next(), t, r));
        }
    }
    for stop in [false, true] {
        v.push(stop_on_error(engine, next(), stop));
    }
    // A fault that needs a wider element than 8 bits takes the next seed whose width
    // (`seeded_elem`) is one; it is left out only if the engine runs 8-bit elements alone.
    let mut seed_for = |ok: &dyn Fn(ElemWidth) -> bool| {
        (0..ElemWidth::ALL.len())
            .map(|_| next())
            .find(|&s| ok(seeded_elem(engine, s)))
    };
    for f in HeaderFault::ALL {
        if let Some(s) = seed_for(&|e| f.applies(engine, e)) {
            v.push(bad_header(engine, s, f));
        }
    }
    for f in IndexFault::ALL {
        if let Some(s) = seed_for(&|e| f.applies(e)) {
            v.push(bad_index(engine, s, f));
        }
    }
    v.push(bad_payload(engine, seed_for(&|_| true).expect("any width")));
    if engine.has_zvcx() {
        for f in ZvcxFault::ALL {
            v.push(zvcx_fault(
                engine,
                seed_for(&|_| true).expect("any width"),
                f,
            ));
        }
    }
    v.push(mask_past_end(
        engine,
        seed_for(&|_| true).expect("any width"),
    ));
    for o in [
        Overflow::Copy,
        Overflow::CompressMidStream,
        Overflow::DecompressHeader,
    ] {
        v.push(dst_overflow(
            engine,
            seed_for(&|_| true).expect("any width"),
            o,
        ));
    }
    for r in Race::ALL {
        let s = seed_for(&|_| true).expect("any width");
        v.push(stream_race(engine, s, r, false));
        if engine.has_zvcx() {
            v.push(stream_race(engine, s, r, true));
        }
    }
    for f in DescFault::ALL {
        if let Some(s) = seed_for(&|e| f.applies(engine, e)) {
            v.push(bad_desc(engine, s, f));
        }
    }
    v
}

/// What a throughput descriptor codes: the codec and the element type (its width the data's).
pub type CodecType = (Codec, ElemType);

/// The name of a throughput case's codec and type: `E32` for ZVC on raw 32-bit elements (the
/// names the throughput figures always had), `ZVC-X f32` for a ZVC-X frame of f32.
fn codec_type_name(ct: CodecType) -> String {
    match ct {
        (Codec::Zvc, ElemType::Raw(e)) => format!("E{}", e.bits()),
        (Codec::Zvc, t) => format!("ZVC {}", t.name()),
        (Codec::ZvcX, t) => format!("ZVC-X {}", t.name()),
    }
}

/// One large COMPRESS of `data` (elements of `ct`'s type, coded by its codec, chunks of
/// `2^CHUNK_LOG2_MAX`, capacity `src_len`), alone in its chain: the read side of the
/// throughput goal.
///
/// With `crc` false the descriptor sets `no_crc` (a version 2/3 frame): the pair without
/// CRCs, to show what they cost (on an engine without CRC32C the frame has none anyway).
pub fn throughput_compress(
    engine: &EngineConfig,
    ct: CodecType,
    data: &[u8],
    seed: u64,
    crc: bool,
) -> Scenario {
    let mut b = builder_of_width(
        &format!(
            "throughput COMPRESS {}{}",
            codec_type_name(ct),
            crc_suffix(crc)
        ),
        engine,
        ct.1.width(),
        seed,
        window_for(data.len() as u64),
    );
    push_compress(&mut b, data, ct, "COMPRESS (throughput)", crc);
    b.finish()
}

/// A throughput case's name suffix: nothing with CRCs, " without CRC" else.
fn crc_suffix(crc: bool) -> &'static str {
    if crc {
        ""
    } else {
        " without CRC"
    }
}

/// A COMPRESS of `data` (`elem`-wide elements, chunks of `2^CHUNK_LOG2_MAX`, capacity
/// `src_len`) and then the DECOMPRESS of the frame it wrote, one descriptor each, named
/// `name`, in `window`; the data restored is checked against the original (a round trip).
pub fn round_trip_alone(
    name: &str,
    engine: &EngineConfig,
    elem: ElemWidth,
    data: &[u8],
    seed: u64,
    window: Range<u64>,
) -> Scenario {
    let mut b = builder_of_width(name, engine, elem, seed, window);
    let ct = (Codec::Zvc, ElemType::Raw(elem));
    let (src, dst, meta, payload_len) =
        push_compress(&mut b, data, ct, &format!("{name}: COMPRESS"), true);
    let len = data.len() as u64;
    let bb = u64::from(engine.bus_bytes());
    let out = b.alloc(len, bb, RegionKind::Destination, "d1 DECOMPRESS dst");
    b.push(
        decompress_desc(elem, dst, payload_len, out, len as u32, meta),
        &format!("{name}: DECOMPRESS"),
        Some(codes::OK),
    );
    b.round_trip(RoundTrip {
        label: name.to_string(),
        original: src..src + len,
        restored: out,
    });
    b.finish()
}

/// Pushes a COMPRESS of `data` coded as `ct` says (chunks of `2^CHUNK_LOG2_MAX`, capacity
/// `src_len`) labelled `label`; returns its source, payload and metadata addresses and the
/// payload length.
fn push_compress(
    b: &mut ChainBuilder,
    data: &[u8],
    (codec, ty): CodecType,
    label: &str,
    crc: bool,
) -> (u64, u64, u64, u32) {
    let engine = b.engine();
    let chunk = engine.chunk_log2_max();
    let parts = frame_parts_with(data, codec, ty, chunk);
    let (dst_len, meta_len) = (data.len() as u64, parts.meta.len() as u64);
    let (src, dst, meta) = compress_regions(b, 0, data, dst_len, meta_len);
    let len = data.len() as u32;
    let mut desc = compress_desc(b.elem(), src, len, dst, len, meta, chunk);
    if ty != ElemType::Raw(b.elem()) || codec != Codec::Zvc {
        desc.control = with_type_and_codec(desc.control, ty.code(), codec == Codec::ZvcX);
    }
    if !crc {
        desc.control = cdma_spec::desc::CTRL_NO_CRC.set(u64::from(desc.control), 1) as u32;
    }
    b.push(desc, label, Some(codes::OK));
    (src, dst, meta, parts.payload.len() as u32)
}

/// One large DECOMPRESS of the model's frame of `data` (coded as `ct` says), alone in its
/// chain: the write side of the throughput goal. With `crc` false the frame has no CRCs.
pub fn throughput_decompress(
    engine: &EngineConfig,
    ct: CodecType,
    data: &[u8],
    seed: u64,
    crc: bool,
) -> Scenario {
    let mut b = builder_of_width(
        &format!(
            "throughput DECOMPRESS {}{}",
            codec_type_name(ct),
            crc_suffix(crc)
        ),
        engine,
        ct.1.width(),
        seed,
        window_for(data.len() as u64),
    );
    // A version 4 frame on an engine with CRC32C (unless `crc` is false): its checks run at
    // line rate too.
    let f = place_frame_crc(
        &mut b,
        data,
        (ct, engine.chunk_log2_max(), engine.has_crc() && crc),
        "d0 DECOMPRESS",
        |_, _| {},
    );
    push_decompress(&mut b, &f, 0, "DECOMPRESS (throughput)", codes::OK);
    b.finish()
}

/// A long chain to abort: every tensor compressed and restored (a round trip each), in a
/// window of its own (`window`) so a second chain can run beside it afterwards.
pub fn abort_chain(
    engine: &EngineConfig,
    tensors: &[Tensor],
    seed: u64,
    window: std::ops::Range<u64>,
) -> Scenario {
    let opts = crate::dma_scenario::RandomOpts {
        max_copies: 2,
        max_unaligned: 0,
        window,
        ..Default::default()
    };
    crate::dma_scenario::random_chain_with("abort", engine, tensors, seed, &opts, |b| {
        b.junk_status(false)
    })
}
