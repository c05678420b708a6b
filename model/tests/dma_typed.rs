//! The descriptor's element type and codec (docs/DESCRIPTORS.md `control.type`,
//! `control.codec`): their BAD_DESC and UNSUPPORTED rules, the version 3 frames a typed
//! COMPRESS writes (ZVC, and ZVC-X on an engine that has it), and DECOMPRESS of version 3
//! frames. Every run is checked against the invariant of [`dma_common::run`].

#![allow(clippy::single_range_in_vec_init)]

mod dma_common;

use cdma_model::dma::{codes, with_type_and_codec, Descriptor, EngineConfig, SparseMemory};
use cdma_model::frame::compress_with;
use cdma_model::{compress_frame, layout, Codec, ElemType, ElemWidth, FrameOptions};

use dma_common::*;

/// `d` with its control word's type and codec fields set.
fn typed(d: Descriptor, ty: u8, zvcx: bool) -> Descriptor {
    Descriptor {
        control: with_type_and_codec(d.control, ty, zvcx),
        ..d
    }
}

#[test]
fn type_and_codec_bad_desc() {
    let base = comp(32, 256, 4096, 0);
    let cases: Vec<(&str, Descriptor)> = vec![
        ("type 6", typed(base, 6, false)),
        ("type 7", typed(base, 7, false)),
        ("bf16 with 32-bit elements", typed(base, 2, false)),
        (
            "e4m3 with 16-bit elements",
            typed(comp(16, 256, 4096, 0), 4, false),
        ),
        ("f32 on COPY", typed(copy(256, 256), 1, false)),
        ("f32 on DECOMPRESS", typed(decomp(32, 0, 0), 1, false)),
        ("ZVC-X on COPY", typed(copy(256, 256), 0, true)),
        ("ZVC-X on DECOMPRESS", typed(decomp(32, 0, 0), 0, true)),
        (
            "codec 2",
            Descriptor {
                control: base.control | 2 << 20,
                ..base
            },
        ),
        (
            "codec 3",
            Descriptor {
                control: base.control | 3 << 20,
                ..base
            },
        ),
    ];
    for (name, d) in cases {
        eprintln!("case {name}");
        // BAD_DESC even on an engine with ZVC-X (step 2 comes before the configuration).
        for c in [e32(), e32().with_zvcx(true)] {
            early(&mut setup(&[1; 256], d), &c, codes::BAD_DESC);
        }
    }
}

#[test]
fn zvcx_is_unsupported_without_the_codec() {
    for ty in [0u8, 1] {
        let d = typed(comp(32, 256, 4096, 0), ty, true);
        early(&mut setup(&[1; 256], d), &e32(), codes::UNSUPPORTED);
    }
    // UNSUPPORTED (step 3) before UNALIGNED (step 4).
    let d = Descriptor {
        src_addr: SRC + 4,
        ..typed(comp(32, 256, 4096, 0), 1, true)
    };
    early(&mut setup(&[], d), &e32(), codes::UNSUPPORTED);
}

/// The (type, width) pairs of every element type.
fn types() -> Vec<ElemType> {
    let mut v: Vec<ElemType> = ElemWidth::ALL.into_iter().map(ElemType::Raw).collect();
    v.extend(ElemType::ALL.into_iter().filter(|t| t.is_float()));
    v
}

/// COMPRESS of `data` as `ty` with `codec` on engine `c` writes exactly the golden frame
/// (with CRCs: version 4; `no_crc`: version 2 or 3), and DECOMPRESS of that frame (untyped
/// descriptor) gives the data back.
fn round_trip(c: &EngineConfig, data: &[u8], ty: ElemType, codec: Codec, chunk_log2: u8) {
    for crc in [false, true] {
        round_trip_crc(c, data, (ty, codec), chunk_log2, crc);
    }
}

fn round_trip_crc(
    c: &EngineConfig,
    data: &[u8],
    (ty, codec): (ElemType, Codec),
    chunk_log2: u8,
    crc: bool,
) {
    let len = data.len() as u32;
    let e = ty.width();
    let mut d = typed(
        comp(e.bits(), len, len + 4096, chunk_log2),
        ty.code(),
        codec == Codec::ZvcX,
    );
    if !crc {
        d.control |= cdma_spec::desc::CTRL_NO_CRC.mask() as u32;
    }
    let mut m = setup(data, d);
    let out = single(&mut m, c, codes::OK);
    let opts = FrameOptions {
        codec,
        elem_type: ty,
        chunk_log2,
        crc,
    };
    let frame = compress_frame(data, &opts).unwrap();
    let meta = layout::Header::parse(&frame).unwrap().meta_len() as usize;
    let want_version = if crc {
        4
    } else if ty == ElemType::Raw(e) && codec == Codec::Zvc {
        2
    } else {
        3
    };
    assert_eq!(frame[4], want_version, "{ty:?} {codec:?}");
    assert_eq!(out.bytes_written as usize, frame.len() - meta);
    assert_eq!(m.peek(META, meta), &frame[..meta], "{ty:?} {codec:?}");
    assert_eq!(m.peek(DST, frame.len() - meta), &frame[meta..]);

    let mut m = SparseMemory::new(FILL);
    m.load(META, &frame[..meta]);
    m.load(SRC, &frame[meta..]);
    m.load(
        DESC,
        &decomp(e.bits(), (frame.len() - meta) as u32, len).to_bytes(),
    );
    assert_eq!(single(&mut m, c, codes::OK).bytes_written, len);
    assert_eq!(m.peek(DST, data.len()), data, "{ty:?} {codec:?}");
}

#[test]
fn typed_compress_writes_version_3_frames_and_decompress_reads_them() {
    for ty in types() {
        let data = relu(700, ty.width(), u64::from(ty.code()) + 3);
        round_trip(&e32(), &data, ty, Codec::Zvc, 7);
        round_trip(&e32().with_zvcx(true), &data, ty, Codec::ZvcX, 8);
        round_trip(&cfg(16).with_zvcx(true), &data, ty, Codec::ZvcX, 12);
    }
}

#[test]
fn decompress_of_zvcx_frames_needs_the_codec() {
    let data = relu(300, ElemWidth::W32, 5);
    let frame = compress_with(&data, Codec::ZvcX, ElemType::F32, 7).unwrap();
    let meta = layout::Header::parse(&frame).unwrap().meta_len() as usize;
    let mut m = SparseMemory::new(FILL);
    m.load(META, &frame[..meta]);
    m.load(SRC, &frame[meta..]);
    m.load(
        DESC,
        &decomp(32, (frame.len() - meta) as u32, 1200).to_bytes(),
    );
    early(&mut m, &e32(), codes::UNSUPPORTED);
}

#[test]
fn decompress_checks_the_version_3_header() {
    let data = relu(300, ElemWidth::W32, 6);
    let frame = compress_with(&data, Codec::Zvc, ElemType::F32, 7).unwrap();
    let meta = layout::Header::parse(&frame).unwrap().meta_len() as usize;
    let load = |patch: &[(usize, u8)]| {
        let mut f = frame.clone();
        for &(at, v) in patch {
            f[at] = v;
        }
        let mut m = SparseMemory::new(FILL);
        m.load(META, &f[..meta]);
        m.load(SRC, &f[meta..]);
        m.load(DESC, &decomp(32, (f.len() - meta) as u32, 1200).to_bytes());
        m
    };
    for (name, patch) in [
        ("elem_type 2 (bf16) with elem_bits 32", vec![(12, 2)]),
        ("elem_type 6", vec![(12, 6)]),
        ("reserved byte 13", vec![(13, 1)]),
        ("version 2 with elem_type 1", vec![(4, 2)]),
        ("codec 3", vec![(5, 3)]),
    ] {
        eprintln!("case {name}");
        early(&mut load(&patch), &e32(), codes::BAD_HEADER);
    }
    // Raw type in a version 3 frame: legal (writers use version 2 for it, readers take both).
    let mut m = load(&[(12, 0)]);
    assert_eq!(single(&mut m, &e32(), codes::OK).bytes_written, 1200);
    assert_eq!(m.peek(DST, 1200), data);
}
