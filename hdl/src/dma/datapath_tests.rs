//! The payload datapath (`DatapathDw*`) alone, at every bus width and every element width:
//! COMPRESS (ChunkScan → chunk FIFO → bus compressor, the decisions fed straight back as
//! chunk commands, as the controller does when they fit), DECOMPRESS (the model's frame in,
//! its chunk commands from the index) and COPY, byte for byte against the golden model
//! (spec/src/frame.rs: each chunk ZVC-encoded iff that is strictly smaller, else raw), under
//! random valid / ready.

use super::datapath::{
    DatapathDw1024, DatapathDw128, DatapathDw256, DatapathDw512, DatapathZxDw1024, DatapathZxDw128,
    DatapathZxDw256, DatapathZxDw512,
};
use crate::prims::{bits_of, bytes_of};
use crate::testutil::*;
use cdma_model::frame::encode_chunk_with;
use cdma_model::{zvc, Codec, ElemType, ElemWidth};
use cdma_spec::desc;
use rust_hdl::core::prelude::*;

/// The chunked payload of `data` and its index `(stored_len, raw)`, from the model.
fn reference(data: &[u8], e: ElemWidth, chunk_log2: u32) -> (Vec<u8>, Vec<(u64, bool)>) {
    let (mut payload, mut index) = (vec![], vec![]);
    for c in data.chunks(1 << chunk_log2) {
        let z = zvc::encode(c, e).unwrap();
        if z.len() < c.len() {
            index.push((z.len() as u64, false));
            payload.extend(z);
        } else {
            index.push((c.len() as u64, true));
            payload.extend_from_slice(c);
        }
    }
    (payload, index)
}

/// One operation through the datapath: what it wrote (by strobe), the decisions it made
/// (COMPRESS) and the cycles it took.
struct Outcome {
    bytes: Vec<u8>,
    decs: Vec<(u64, bool)>,
    cycles: u64,
    error: bool,
}

/// One operation: `op` over the source `src` (`e`-bit elements, `2^chunk_log2`-byte chunks;
/// DECOMPRESS: `src` is the payload and `index` its chunks of `data_len` bytes).
struct Job<'a> {
    /// ZVC-X of element type code `ty` (else ZVC, `ty` 0).
    zvcx: Option<u64>,
    op: u64,
    e: ElemWidth,
    src: &'a [u8],
    chunk_log2: u32,
    index: &'a [(u64, bool)],
    data_len: usize,
}

impl<'a> Job<'a> {
    fn compress(e: ElemWidth, data: &'a [u8], chunk_log2: u32) -> Self {
        let op = desc::OP_COMPRESS;
        Job {
            zvcx: None,
            op,
            e,
            src: data,
            chunk_log2,
            index: &[],
            data_len: 0,
        }
    }
    fn copy(e: ElemWidth, data: &'a [u8]) -> Self {
        let op = desc::OP_COPY;
        Job {
            zvcx: None,
            op,
            e,
            src: data,
            chunk_log2: 0,
            index: &[],
            data_len: 0,
        }
    }
    fn decompress(
        e: ElemWidth,
        payload: &'a [u8],
        chunk_log2: u32,
        index: &'a [(u64, bool)],
        data_len: usize,
    ) -> Self {
        let op = desc::OP_DECOMPRESS;
        Job {
            zvcx: None,
            op,
            e,
            src: payload,
            chunk_log2,
            index,
            data_len,
        }
    }
}

/// Runs a [`Job`] with seeded random source valid / sink ready percentages.
macro_rules! run_fn {
    ($fname:ident, $ty:ty, $bw:expr) => {
        fn $fname(j: &Job, pcts: (u64, u64), seed: u64) -> Outcome {
            let Job {
                zvcx,
                op,
                e,
                src,
                chunk_log2,
                index,
                data_len,
            } = *j;
            const BB: usize = $bw / 8;
            let mut rng = XorShift64::new(seed);
            let mut uut = reset_block!($ty);
            uut.op.next = op.into();
            uut.zvcx.next = zvcx.is_some();
            uut.ty.next = zvcx.unwrap_or(0).into();
            uut.elem.next = u64::from(e.bytes().trailing_zeros()).into();
            uut.src_len.next = (src.len() as u64).into();
            uut.chunk_log2.next = u64::from(chunk_log2).into();
            uut.start.next = true;
            settle(&mut uut);
            clock_cycle!(&mut uut);
            uut.start.next = false;
            // Source beats: BB bytes, garbage past the source's end.
            let beats: Vec<Bits<$bw>> = src
                .chunks(BB)
                .map(|b| {
                    let mut v = b.to_vec();
                    v.resize(BB, 0xEE);
                    bits_of::<$bw>(&v)
                })
                .collect();
            let chunk = 1usize << chunk_log2;
            let mut o = Outcome {
                bytes: vec![],
                decs: vec![],
                cycles: 0,
                error: false,
            };
            let (mut idx, mut ck, mut valid, mut done) = (0, 0, false, false);
            while !done {
                if o.error && idx == beats.len() {
                    break; // a payload error ends the output early
                }
                assert!(
                    o.cycles < 30 * (beats.len() + data_len / BB) as u64 + 300,
                    "datapath hangs: op {op}, beat {idx} of {}, chunk command {ck}, {} bytes out",
                    beats.len(),
                    o.bytes.len()
                );
                valid = idx < beats.len() && (valid || rng.chance(pcts.0));
                uut.in_valid.next = valid;
                if idx < beats.len() {
                    uut.in_data.next = beats[idx];
                }
                uut.out_ready.next = rng.chance(pcts.1);
                settle(&mut uut);
                // Chunk commands: COMPRESS takes the scan's decisions as they come (the
                // controller's contract: dec_ready follows ck_ready in the same cycle);
                // DECOMPRESS issues the index's.
                if op == desc::OP_COMPRESS {
                    uut.ck_stored_len.next = uut.dec_stored_len.val();
                    uut.ck_raw.next = uut.dec_raw.val();
                    uut.ck_last.next = ck + 1 == src.len().div_ceil(chunk);
                    uut.ck_valid.next = uut.dec_valid.val();
                } else if ck < index.len() {
                    let n = chunk.min(data_len - ck * chunk);
                    uut.ck_stored_len.next = index[ck].0.into();
                    uut.ck_raw.next = index[ck].1;
                    uut.ck_chunk_len.next = (n as u64).into();
                    uut.ck_last.next = ck + 1 == index.len();
                    uut.ck_valid.next = true;
                } else {
                    uut.ck_valid.next = false;
                }
                settle(&mut uut);
                uut.dec_ready.next = uut.ck_ready.val();
                settle(&mut uut);
                if uut.ck_valid.val() && uut.ck_ready.val() {
                    if op == desc::OP_COMPRESS {
                        o.decs
                            .push((uut.dec_stored_len.val().to_u64(), uut.dec_raw.val()));
                    }
                    ck += 1;
                }
                if uut.out_valid.val() && uut.out_ready.val() {
                    let d = bytes_of(uut.out_data.val());
                    let strb = uut.out_strb.val();
                    let n = (0..BB).filter(|&j| strb.get_bit(j)).count();
                    assert!(
                        (0..BB).all(|j| strb.get_bit(j) == (j < n)),
                        "strobes not from lane 0"
                    );
                    o.bytes.extend_from_slice(&d[..n]);
                    done = uut.out_last.val();
                }
                if valid && uut.in_ready.val() {
                    idx += 1;
                    valid = false;
                }
                o.error |= uut.error.val();
                clock_cycle!(&mut uut);
                o.cycles += 1;
            }
            assert_eq!(idx, beats.len(), "the source was not all taken");
            o
        }
    };
}

run_fn!(run128, DatapathDw128, 128);
run_fn!(run256, DatapathDw256, 256);
run_fn!(run512, DatapathDw512, 512);
run_fn!(run1024, DatapathDw1024, 1024);

run_fn!(runzx128, DatapathZxDw128, 128);
run_fn!(runzx256, DatapathZxDw256, 256);
run_fn!(runzx512, DatapathZxDw512, 512);
run_fn!(runzx1024, DatapathZxDw1024, 1024);

/// The runner of a `dw`-bit datapath.
type Run = fn(&Job, (u64, u64), u64) -> Outcome;
const RUNS: [(usize, Run); 4] = [(128, run128), (256, run256), (512, run512), (1024, run1024)];
/// The runners of the datapaths with ZVC-X.
const RUNS_ZX: [(usize, Run); 4] = [
    (128, runzx128),
    (256, runzx256),
    (512, runzx512),
    (1024, runzx1024),
];

/// Activation-like elements: runs of zeros and non-zeros with per-region sparsity from
/// dense to empty.
fn activation_like(rng: &mut XorShift64, e: ElemWidth, n_elems: usize) -> Vec<u8> {
    let pcts = [95, 60, 0, 100, 40, 85, 10, 50];
    let mut out = vec![];
    let mut i = 0;
    while i < n_elems {
        let zero = rng.chance(pcts[(i / 64) % pcts.len()]);
        for _ in 0..(1 + rng.next() % 8).min((n_elems - i) as u64) {
            let v = if zero { 0 } else { rng.next() | 1 };
            out.extend_from_slice(&v.to_le_bytes()[..e.bytes()]);
            i += 1;
        }
    }
    out
}

#[test]
fn compress_then_decompress_every_bus_and_element_width() {
    for (dw, run) in RUNS {
        for e in ElemWidth::ALL {
            let mut rng = XorShift64::new(dw as u64 + u64::from(e.bits()));
            // 128-byte chunks, one of them dense (raw), a final partial chunk ending inside
            // a block.
            let mut data = activation_like(&mut rng, e, 1024 / e.bytes());
            data.extend((0..128).map(|i| i as u8 | 1));
            data.extend(activation_like(&mut rng, e, 1000 / e.bytes() + 3));
            let (payload, index) = reference(&data, e, 7);
            assert!(index.iter().any(|d| d.1) && index.iter().any(|d| !d.1));
            let c = run(&Job::compress(e, &data, 7), (70, 60), 1);
            let at = format!("DW {dw}, E {}", e.bits());
            assert_eq!(c.decs, index, "{at}: decisions");
            assert_eq!(c.bytes, payload, "{at}: payload");
            let d = run(
                &Job::decompress(e, &payload, 7, &index, data.len()),
                (60, 70),
                2,
            );
            assert!(!d.error, "{at}: a good frame raised error");
            assert_eq!(d.bytes, data, "{at}: decompressed");
            let p = run(&Job::copy(e, &data), (80, 80), 3);
            assert_eq!(p.bytes, data, "{at}: copy");
        }
    }
}

#[test]
fn mixed_element_widths_one_after_another_at_full_rate() {
    // One datapath, the element width changing from one operation to the next (each
    // `start` clears the previous); 4 KiB chunks, one beat per cycle in and out.
    let (dw, run) = RUNS[1];
    let mut rng = XorShift64::new(77);
    for e in [
        ElemWidth::W32,
        ElemWidth::W8,
        ElemWidth::W16,
        ElemWidth::W32,
    ] {
        let data = activation_like(&mut rng, e, 12288 / e.bytes());
        let (payload, index) = reference(&data, e, 12);
        let c = run(&Job::compress(e, &data, 12), (100, 100), 4);
        assert_eq!((c.decs, c.bytes), (index.clone(), payload.clone()));
        let beats = (data.len() / (dw / 8)) as u64;
        // The FIFO holds a chunk until its decision: one chunk's latency, then a beat a cycle.
        assert!(
            c.cycles <= beats + (4096 / (dw / 8)) as u64 + 16,
            "COMPRESS E {}: {beats} beats in {} cycles",
            e.bits(),
            c.cycles
        );
        let d = run(
            &Job::decompress(e, &payload, 12, &index, data.len()),
            (100, 100),
            5,
        );
        assert_eq!(d.bytes, data);
        assert!(
            d.cycles <= beats + 16,
            "DECOMPRESS E {}: {beats} beats in {} cycles",
            e.bits(),
            d.cycles
        );
    }
}

/// docs/FORMAT.md rule 17b: in a chunk of 40 elements, the final block holds 8; a mask bit
/// for lane 20 of that block (with a non-zero element, so rule 17c holds) is an error.
#[test]
fn decompress_flags_a_mask_bit_past_the_chunk_end() {
    let mut data = vec![0u8; 40];
    data[3] = 7;
    data[17] = 9;
    data[30] = 1;
    for (i, x) in data[32..].iter_mut().enumerate() {
        *x = i as u8 + 1;
    }
    let good = zvc::encode(&data, ElemWidth::W8).unwrap();
    let ok = run256(
        &Job::decompress(ElemWidth::W8, &good, 7, &[(good.len() as u64, false)], 40),
        (100, 100),
        6,
    );
    assert!(!ok.error, "a good chunk raised error");
    assert_eq!(ok.bytes, data);
    // Block 1's mask is after block 0's mask and its 3 elements; its elements end the
    // payload, so lane 20's element goes last.
    let mut bad = good.clone();
    bad[4 + 3 + 2] |= 1 << 4;
    bad.push(0x55);
    assert!(zvc::decode(&bad, ElemWidth::W8, data.len()).is_err());
    let o = run256(
        &Job::decompress(ElemWidth::W8, &bad, 7, &[(bad.len() as u64, false)], 40),
        (100, 100),
        7,
    );
    assert!(o.error, "a mask bit past the chunk end was accepted");
    assert!(data.starts_with(&o.bytes), "nothing wrong is written");
}

/// The ZVC-X chunked payload of `data` (elements of `ty`) and its index, from the model.
fn reference_zvcx(data: &[u8], ty: ElemType, chunk_log2: u32) -> (Vec<u8>, Vec<(u64, bool)>) {
    let (mut payload, mut index) = (vec![], vec![]);
    for c in data.chunks(1 << chunk_log2) {
        let e = encode_chunk_with(c, Codec::ZvcX, ty, &mut payload);
        index.push((u64::from(e.stored_len), e.raw));
    }
    (payload, index)
}

/// ReLU-like floats of `ty` (a raw type: [`activation_like`]): about half zero, the others
/// positive with exponents within a few binades and random mantissas, runs of equal values.
fn float_like(rng: &mut XorShift64, ty: ElemType, n_elems: usize) -> Vec<u8> {
    let s = ty.spec();
    if !s.is_float() {
        return activation_like(rng, ty.width(), n_elems);
    }
    let bias = (1u64 << (s.exp_bits - 1)) - 1;
    let mut out = vec![];
    let mut prev = 0u64;
    for i in 0..n_elems {
        let v = if rng.chance(if (i / 96) % 3 == 0 { 85 } else { 45 }) {
            0
        } else if rng.chance(20) {
            prev
        } else {
            let exp = bias - 3 + rng.next() % 5;
            (exp << s.man_bits) | (rng.next() & ((1 << s.man_bits) - 1))
        };
        prev = v;
        out.extend_from_slice(&v.to_le_bytes()[..ty.width().bytes()]);
    }
    out
}

/// ZVC-X through the datapath at every bus width, every element type on one of them (the
/// Verilated engines run every type at every width; this is the slow rust-hdl simulation):
/// COMPRESS gives the model's decisions and payload (chunks of 128 bytes, a dense chunk
/// stored raw, a short last chunk), DECOMPRESS of that payload gives the data
/// back, under random valid / ready; a ZVC COMPRESS right after on the same datapath is
/// unchanged.
#[test]
fn zvcx_compress_then_decompress_every_bus_width_and_type() {
    for (i, (dw, run)) in RUNS_ZX.into_iter().enumerate() {
        for (j, ty) in ElemType::ALL.into_iter().enumerate() {
            if !(i + j).is_multiple_of(4) {
                continue; // each type on one width
            }
            let e = ty.width();
            let code = u64::from(ty.code());
            let mut rng = XorShift64::new(dw as u64 * 31 + code * 7 + u64::from(e.bits()));
            let mut data = float_like(&mut rng, ty, 640 / e.bytes());
            data.extend((0..128).map(|i| (i as u8).wrapping_mul(151) | 1));
            data.extend(float_like(&mut rng, ty, 300 / e.bytes() + 1));
            let cl = 7;
            let at = format!("DW {dw}, {}, chunks 2^{cl}", ty.name());
            let (payload, index) = reference_zvcx(&data, ty, cl);
            assert!(index.iter().any(|d| !d.1), "{at}: no coded chunk");
            let mut job = Job::compress(e, &data, cl);
            job.zvcx = Some(code);
            let c = run(&job, (75, 65), cl.into());
            assert_eq!(c.decs, index, "{at}: decisions");
            assert_eq!(c.bytes, payload, "{at}: payload");
            let mut job = Job::decompress(e, &payload, cl, &index, data.len());
            job.zvcx = Some(code);
            let d = run(&job, (65, 75), 2);
            assert!(!d.error, "{at}: a good frame raised error");
            assert_eq!(d.bytes, data, "{at}: decompressed");
            let (payload, index) = reference(&data, e, 7);
            let z = run(&Job::compress(e, &data, 7), (90, 90), 3);
            assert_eq!(
                (z.decs, z.bytes),
                (index, payload),
                "DW {dw}: ZVC after ZVC-X"
            );
        }
    }
}

/// A damaged ZVC-X chunk raises `error` (the model refuses it) without hanging.
#[test]
fn zvcx_decompress_flags_a_damaged_chunk() {
    let (dw, run) = RUNS_ZX[0];
    let ty = ElemType::F32;
    let mut rng = XorShift64::new(5);
    let data = float_like(&mut rng, ty, 96);
    let (mut payload, index) = reference_zvcx(&data, ty, 7);
    assert!(!index[1].1, "chunk 1 coded");
    // Cut chunk 1's payload by one byte (index and length following).
    let cut = index[0].0 as usize + index[1].0 as usize - 1;
    payload.remove(cut);
    let mut bad = index.clone();
    bad[1].0 -= 1;
    let at = index[0].0 as usize;
    let entry = cdma_model::layout::IndexEntry {
        stored_len: bad[1].0 as u32,
        raw: false,
        crc: 0,
    };
    let stored = &payload[at..at + bad[1].0 as usize];
    let refused =
        cdma_model::frame::decode_chunk_with(stored, entry, 128, Codec::ZvcX, ty, &mut vec![]);
    assert!(refused.is_err(), "the model decodes the truncated chunk");
    let mut job = Job::decompress(ty.width(), &payload, 7, &bad, data.len());
    job.zvcx = Some(u64::from(ty.code()));
    let o = run(&job, (80, 80), 9);
    assert!(o.error, "DW {dw}: a truncated chunk was accepted");
    assert!(data.starts_with(&o.bytes), "nothing wrong is written");
}
