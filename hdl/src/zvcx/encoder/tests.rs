//! The encoder against the golden model `cdma_model::zvcx::encode`: first the leaves' Rust
//! models chained per block (fast, many chunks of every type), then the whole
//! [`ZvcxCompressor`] in rust-hdl's simulator under random valid/ready, then its Verilog
//! against that simulation (`prims::verilog_check`).

use cdma_model::rng::XorShift64;
use cdma_model::{zvcx, ElemType, ElemWidth};
use rust_hdl::core::prelude::*;

use super::analyze::analyze;
use super::assemble::assemble;
use super::codes::Ep;
use super::fields::fields;
use super::head::head;
use super::packer::{flow, pack};
use super::top::ZvcxCompressor;
use super::words::{bits_of_lanes, words_of, BitVec};
use crate::testutil::{clock_cycle, settle};
use crate::zvcx::params_of;

/// The (`ty`, `elem`) port codes of a type.
pub(crate) fn codes_of(t: ElemType) -> (u64, u64) {
    let elem = match t.width() {
        ElemWidth::W8 => 0,
        ElemWidth::W16 => 1,
        ElemWidth::W32 => 2,
    };
    (u64::from(t.code()), elem)
}

fn ep_of(t: ElemType) -> Ep {
    let (ty, elem) = codes_of(t);
    let (w, e, m, kb, fl) = params_of(ty, elem);
    Ep::new(w.into(), e.into(), m.into(), kb.into(), fl)
}

/// Random elements of `t` in the styles that make the encoder's choices differ: zeros,
/// repeats, exponents near a base or far from it (escapes), signs, raw-looking noise.
pub(crate) fn random_chunk(rng: &mut XorShift64, t: ElemType, n: usize) -> Vec<u8> {
    let s = t.spec();
    let w = t.width().bits();
    let pz = rng.next() % 101;
    let pr = rng.next() % 40;
    let pneg = [0, 50, 100][(rng.next() % 3) as usize];
    let far = rng.next() % 30;
    let noise = rng.chance(10);
    let emax = (1u64 << s.exp_bits) - 1;
    let base = if s.exp_bits > 0 {
        rng.next() % (emax + 1)
    } else {
        0
    };
    let mut prev = 0u64;
    let mut out = Vec::with_capacity(n * w as usize / 8);
    for _ in 0..n {
        let wmask = if w == 32 {
            u64::from(u32::MAX)
        } else {
            (1 << w) - 1
        };
        let v = if rng.chance(pz) {
            0
        } else if prev != 0 && rng.chance(pr) {
            prev
        } else if noise || s.exp_bits == 0 {
            let small = rng.chance(50);
            rng.next() & if small { 0xF } else { wmask }
        } else {
            let d = if rng.chance(far) {
                (rng.next() % 24) as i64 - 16
            } else {
                -((rng.next() % 4) as i64)
            };
            let ex = (base as i64 + d).clamp(0, emax as i64) as u64;
            let man = rng.next() & ((1u64 << s.man_bits) - 1);
            let sign = u64::from(rng.chance(pneg));
            (sign << (s.exp_bits + s.man_bits)) | (ex << s.man_bits) | man
        };
        let v = v & wmask;
        prev = v;
        out.extend_from_slice(&v.to_le_bytes()[..w as usize / 8]);
    }
    out
}

/// The blocks of a chunk as (lanes, len).
pub(crate) fn blocks_of(data: &[u8], t: ElemType) -> Vec<([u32; 32], u32)> {
    let eb = t.width().bytes();
    data.chunks(32 * eb)
        .map(|b| {
            let mut x = [0u32; 32];
            for (i, e) in b.chunks(eb).enumerate() {
                let mut w = [0u8; 4];
                w[..eb].copy_from_slice(e);
                x[i] = u32::from_le_bytes(w);
            }
            (x, (b.len() / eb) as u32)
        })
        .collect()
}

/// One chunk through the leaves' Rust models, block by block (the datapath without its
/// registers), then through the packer model.
fn chain_models(data: &[u8], t: ElemType) -> Vec<u8> {
    let p = ep_of(t);
    let mut prev = None;
    let mut bits = BitVec::default();
    let mut total = 0usize;
    for (x, len) in blocks_of(data, t) {
        let info = analyze(&p, &x, len);
        let (h, hlen, raw, coded) = head(&p, &info, prev);
        if coded {
            prev = Some(info.max_exp);
        }
        let (f, keep, fw, flen, escv, elen) = fields(&p, &x, &info, raw);
        let mut pf = BitVec::zeros(1024);
        let mut c = 0;
        for (l, &fl) in f.iter().enumerate() {
            if (keep >> l) & 1 == 1 {
                pf.or_at(c * fw as usize, fl.into(), fw as usize);
                c += 1;
            }
        }
        let (blk, blen) = assemble(&h.w, hlen, &pf.w, flen, escv, elen);
        bits.or_string(total, &BitVec { w: blk }, blen as usize);
        total += blen as usize;
    }
    let mut out: Vec<u8> = bits.w.iter().flat_map(|x| x.to_le_bytes()).collect();
    out.truncate(total.div_ceil(8));
    out.resize(total.div_ceil(8), 0);
    out
}

fn sizes(rng: &mut XorShift64) -> usize {
    match rng.next() % 4 {
        0 => 1 + (rng.next() % 4) as usize,
        1 => 32 * (1 + (rng.next() % 4) as usize),
        _ => 1 + (rng.next() % 200) as usize,
    }
}

#[test]
fn leaf_models_match_the_golden_model() {
    let mut rng = XorShift64::new(0x5eed_2c0d);
    for t in ElemType::ALL {
        for case in 0..400 {
            let n = sizes(&mut rng);
            let data = random_chunk(&mut rng, t, n);
            let want = zvcx::encode(&data, t).expect("whole elements");
            let got = chain_models(&data, t);
            assert_eq!(got, want, "{} case {case}, {n} elements", t.name());
        }
    }
}

#[test]
fn packer_model_splits_words_and_pads_the_last() {
    // Two blocks of 1000 bits then a 30-bit last block: 2030 bits, words of 1024 + 1006.
    let blk: Vec<u64> = (0..17)
        .map(|i| 0x0123_4567_89ab_cdefu64.rotate_left(i))
        .collect();
    let mut b1000 = blk.clone();
    super::words::or_shifted(&mut b1000, 1000, &[], 0);
    let (emit, _, _, _, hold, hc, pend) = pack(&[0; 17], 0, false, &b1000, 1000, true, false);
    assert!(!emit && hc == 1000 && !pend);
    let (emit, word, bytes, last, hold, hc, pend) =
        pack(&hold, hc, pend, &b1000, 1000, true, false);
    assert!(emit && bytes == 128 && !last && hc == 976 && !pend);
    assert_eq!(word[0], b1000[0]);
    let (emit, _, bytes, last, _, hc, pend) = pack(&hold, hc, pend, &[0x3FFF_FFFF], 30, true, true);
    assert!(emit && last && bytes == 126 && hc == 0 && !pend);
    // Flow: a held word or a pending end blocks taking; a full output register stalls.
    assert_eq!(flow(false, false, true, 1023, false), (true, true, true));
    assert_eq!(flow(false, false, true, 1024, false), (true, false, false));
    assert_eq!(flow(false, true, true, 10, true), (true, true, true));
    assert_eq!(flow(false, true, true, 1025, true), (true, false, false));
    // A pending end leaves while the next chunk's first block starts the holding register.
    let (emit, word, bytes, last, hold, hc, pend) = pack(&b1000, 1000, true, &[0x5], 3, true, true);
    assert!(emit && last && bytes == 125 && hc == 3 && pend && hold[0] == 0x5);
    assert_eq!(word[0], b1000[0]);
    assert_eq!(flow(true, false, false, 0, false), (false, false, true));
}

/// Streams `chunks` (each with its type, switching types between chunks) through the
/// rust-hdl compressor with random valid/ready and returns each chunk's payload.
fn run_rtl(chunks: &[(ElemType, Vec<u8>)], seed: u64, record: bool) -> Vec<Vec<u8>> {
    let mut uut = ZvcxCompressor::default();
    uut.connect_all();
    uut.rst.next = true;
    uut.in_valid.next = false;
    uut.out_ready.next = false;
    settle(&mut uut);
    clock_cycle!(&mut uut);
    clock_cycle!(&mut uut);
    uut.rst.next = false;
    let blocks: Vec<([u32; 32], u32, bool, ElemType)> = chunks
        .iter()
        .flat_map(|(t, c)| {
            let b = blocks_of(c, *t);
            let n = b.len();
            b.into_iter()
                .enumerate()
                .map(move |(i, (x, l))| (x, l, i + 1 == n, *t))
        })
        .collect();
    let mut rng = XorShift64::new(seed);
    let (mut next, mut offered) = (0usize, false);
    let mut out: Vec<Vec<u8>> = vec![vec![]];
    let mut cycles = 0;
    while out.len() <= chunks.len() {
        cycles += 1;
        assert!(cycles < 20 * blocks.len() + 200, "hang");
        if !offered && next < blocks.len() {
            offered = rng.chance(70);
        }
        let (x, l, last, t) =
            blocks
                .get(next)
                .copied()
                .unwrap_or(([0; 32], 0, false, ElemType::F32));
        let (ty, elem) = codes_of(t);
        uut.ty.next = ty.into();
        uut.elem.next = elem.into();
        uut.in_data.next = bits_of_lanes(&x);
        uut.in_len.next = u64::from(l).into();
        uut.in_last.next = last;
        uut.in_valid.next = offered;
        uut.out_ready.next = rng.chance(70);
        settle(&mut uut);
        if record {
            crate::prims::verilog_check::record(&uut);
        }
        if uut.out_valid.val() && uut.out_ready.val() {
            let n = uut.out_bytes.val().to_u64() as usize;
            let w = words_of(uut.out_data.val());
            let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
            assert!(bytes[n..].iter().all(|&b| b == 0), "bytes above out_bytes");
            assert!((1..=128).contains(&n));
            assert!(
                n == 128 || uut.out_last.val(),
                "short word that is not last"
            );
            out.last_mut()
                .expect("open chunk")
                .extend_from_slice(&bytes[..n]);
            if uut.out_last.val() {
                out.push(vec![]);
            }
        }
        if offered && uut.in_ready.val() {
            next += 1;
            offered = false;
        }
        clock_cycle!(&mut uut);
    }
    out.pop();
    out
}

#[test]
fn rtl_streams_match_the_golden_model() {
    let mut rng = XorShift64::new(0xc0de_0001);
    let chunks: Vec<(ElemType, Vec<u8>)> = (0..48)
        .map(|i| {
            let t = ElemType::ALL[i % 8];
            let n = sizes(&mut rng);
            (t, random_chunk(&mut rng, t, n))
        })
        .collect();
    let got = run_rtl(&chunks, rng.next(), false);
    assert_eq!(got.len(), chunks.len());
    for (i, ((t, c), g)) in chunks.iter().zip(&got).enumerate() {
        assert_eq!(
            g,
            &zvcx::encode(c, *t).expect("whole"),
            "{} chunk {i}",
            t.name()
        );
    }
}

/// The emitted Verilog of the whole compressor replays a recorded rust-hdl run (two chunks
/// of every type, types switching between chunks, random valid/ready) cycle by cycle under Verilator.
#[test]
fn verilog_matches_the_rust_hdl_simulation() {
    let mut rng = XorShift64::new(0x7e57_0003);
    let chunks: Vec<(ElemType, Vec<u8>)> = (0..16)
        .map(|i| {
            let t = ElemType::ALL[i % 8];
            let n = sizes(&mut rng).min(70);
            (t, random_chunk(&mut rng, t, n))
        })
        .collect();
    let trace = crate::prims::verilog_check::recording(|| {
        let got = run_rtl(&chunks, rng.next(), true);
        for ((t, c), g) in chunks.iter().zip(&got) {
            assert_eq!(g, &zvcx::encode(c, *t).expect("whole"));
        }
    });
    let block = crate::emit::standalone_block(
        ZvcxCompressor::default(),
        "cdma_zvcx_compressor",
        &super::ZVCX_COMPRESSOR_PORTS,
    );
    crate::prims::verilog_check::check(&block, &trace);
}
