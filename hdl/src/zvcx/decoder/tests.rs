//! The decoder against the golden model (`cdma_model::zvcx`): the scanner's and the unpack
//! stage's functions chained in software over many chunks of every type (valid and damaged
//! payloads), then the block itself in rust-hdl's simulator under random handshakes, whose
//! trace replays on its Verilog under Verilator (`verilog_check`).

use cdma_model::rng::XorShift64;
use cdma_model::zvcx::{decode, encode};
use cdma_model::ElemType;
use rust_hdl::core::prelude::*;

use super::hdr::Elem;
use super::scan::scan;
use super::tables::BLK;
use super::unpack::unpack;
use super::ZvcxDecompressor;
use crate::testutil::{clock_cycle, settle};
use crate::zvcx::params_of;

/// `ty` and `elem` port codes of a model type.
fn codes(t: ElemType) -> (u64, u64) {
    let elem = match t.width().bits() {
        8 => 0,
        16 => 1,
        _ => 2,
    };
    (u64::from(t.code()), elem)
}

fn elem_of(t: ElemType) -> Elem {
    let (ty, el) = codes(t);
    let (w, e, m, kb, f) = params_of(ty, el);
    Elem::of(w.into(), e.into(), m.into(), kb.into(), f)
}

/// A chunk of `n` elements of `t`: clustered exponents, runs of repeats, `zero_pct` zeros,
/// now and then an arbitrary bit pattern.
fn chunk(rng: &mut XorShift64, t: ElemType, n: usize, zero_pct: u64) -> Vec<u8> {
    let p = elem_of(t);
    let eb = (p.width / 8) as usize;
    let mut out = Vec::with_capacity(n * eb);
    let mut last = 0u64;
    let centre = rng.next() % (1 << p.e.max(1));
    for _ in 0..n {
        let x = if rng.chance(zero_pct) {
            0
        } else if rng.chance(15) {
            last
        } else if !p.float || rng.chance(5) {
            rng.next()
        } else {
            let spread = rng.next() % 6;
            let e = (centre + rng.next() % (spread + 1)) & ((1 << p.e) - 1);
            let s = u64::from(rng.chance(30));
            (s << (p.e + p.m)) | (e << p.m) | (rng.next() & ((1 << p.m) - 1))
        };
        last = x;
        out.extend_from_slice(&x.to_le_bytes()[..eb]);
    }
    out
}

/// The decoder's rules chained in software: the scanner measures, the unpack stage decodes,
/// the top's chunk rules (ends inside a block, excess, padding) around them.
fn sw_decode(payload: &[u8], t: ElemType, n: usize) -> Option<Vec<u8>> {
    let p = elem_of(t);
    let eb = (p.width / 8) as usize;
    let total = payload.len() * 8;
    let bit = |i: usize| i < total && (payload[i / 8] >> (i % 8)) & 1 == 1;
    let (mut pos, mut left, mut first, mut prev) = (0usize, n, true, 0u32);
    let mut out = Vec::new();
    while left > 0 {
        let blen = left.min(32) as u32;
        let win = (0..128).fold(0u128, |w, i| w | (u128::from(bit(pos + i)) << i));
        let (len, h) = scan(win, blen, first, &p);
        if pos + len as usize > total {
            return None;
        }
        let mut b = [0u64; BLK / 64];
        for i in 0..BLK {
            b[i / 64] |= u64::from(bit(pos + i)) << (i % 64);
        }
        let (v, err, mx) = unpack(&b, &h, blen, first, prev, &p);
        if err {
            return None;
        }
        if h.coded == 1 {
            first = false;
            prev = mx;
        }
        for x in &v[..blen as usize] {
            out.extend_from_slice(&x.to_le_bytes()[..eb]);
        }
        pos += len as usize;
        left -= blen as usize;
    }
    if total - pos >= 8 || (pos..total).any(bit) {
        return None;
    }
    Some(out)
}

/// A damaged copy of `payload`: bit flips, truncation or extension.
fn damage(rng: &mut XorShift64, payload: &[u8]) -> Vec<u8> {
    let mut d = payload.to_vec();
    match rng.next() % 5 {
        0 | 1 => {
            for _ in 0..1 + rng.next() % 3 {
                let i = (rng.next() % (d.len() as u64 * 8)) as usize;
                d[i / 8] ^= 1 << (i % 8);
            }
        }
        2 if d.len() > 1 => {
            let k = 1 + (rng.next() as usize % d.len().min(4));
            d.truncate(d.len() - k.min(d.len() - 1));
        }
        3 => {
            let k = 1 + rng.next() as usize % 3;
            d.extend(rng.bytes(k));
        }
        _ => d.push(if rng.chance(50) {
            0
        } else {
            1 << (rng.next() % 8)
        }),
    }
    d
}

#[test]
fn model_functions_agree_with_the_golden_model() {
    let mut rng = XorShift64::new(0x5eed_2c0d);
    let (mut ok, mut bad) = (0, 0);
    for t in ElemType::ALL {
        for round in 0..160 {
            let n = [1, 2, 31, 32, 33, 64, 77, 200][round % 8];
            let zero_pct = [0, 30, 60, 90, 97, 100][round % 6];
            let data = chunk(&mut rng, t, n, zero_pct);
            let payload = encode(&data, t).unwrap();
            assert_eq!(sw_decode(&payload, t, n), Some(data.clone()), "{t:?} n {n}");
            ok += 1;
            for _ in 0..4 {
                let d = damage(&mut rng, &payload);
                let want = decode(&d, t, n).ok();
                assert_eq!(sw_decode(&d, t, n), want, "{t:?} n {n} damaged {d:02x?}");
                bad += usize::from(want.is_none());
            }
        }
    }
    // The campaign must reach both verdicts often.
    assert!(ok >= 1000 && bad >= 1000, "{ok} valid, {bad} rejected");
}

/// One run of the block: `chunks` (payload, type, elements) streamed in 128-byte words (the
/// last of a chunk short) under random handshakes (`pct`: percent of cycles valid / ready); returns the
/// decoded bytes of each chunk up to the first error, and whether `error` rose.
fn run(chunks: &[(Vec<u8>, ElemType, usize)], pct: (u64, u64), seed: u64) -> (Vec<Vec<u8>>, bool) {
    let word = 128;
    let mut rng = XorShift64::new(seed);
    let mut uut = ZvcxDecompressor::default();
    uut.connect_all();
    uut.rst.next = true;
    uut.in_valid.next = false;
    uut.out_ready.next = false;
    settle(&mut uut);
    clock_cycle!(&mut uut);
    clock_cycle!(&mut uut);
    uut.rst.next = false;
    // Words: (chunk, bytes, last).
    let mut words = vec![];
    for (c, (p, _, _)) in chunks.iter().enumerate() {
        let k = p.len().div_ceil(word);
        for i in 0..k {
            words.push((
                c,
                p[i * word..((i + 1) * word).min(p.len())].to_vec(),
                i + 1 == k,
            ));
        }
    }
    let mut out: Vec<Vec<u8>> = vec![vec![]; chunks.len()];
    let (mut wi, mut oc, mut err) = (0, 0, false);
    for _ in 0..(40 * words.len() + 60 * chunks.len() + 400) {
        let valid = wi < words.len() && rng.chance(pct.0);
        uut.in_valid.next = valid;
        if wi < words.len() {
            let (c, ref w, last) = words[wi];
            let (ty, el) = codes(chunks[c].1);
            uut.ty.next = ty.into();
            uut.elem.next = el.into();
            let mut d = Bits::<1024>::default();
            for (j, x) in w.iter().enumerate() {
                d.set_bits::<8>(8 * j, u64::from(*x).into());
            }
            // Garbage past a short word's valid bytes.
            for j in w.len()..128 {
                d.set_bits::<8>(8 * j, 0x5Au64.into());
            }
            uut.in_data.next = d;
            uut.in_bytes.next = (w.len() as u64).into();
            uut.in_last.next = last;
            uut.in_elems.next = (chunks[c].2 as u64).into();
        }
        uut.out_ready.next = rng.chance(pct.1);
        settle(&mut uut);
        crate::prims::verilog_check::record(&uut);
        err |= uut.error.val();
        if uut.out_valid.val() && uut.out_ready.val() {
            assert!(oc < chunks.len(), "output past the last chunk");
            let t = chunks[oc].1;
            let eb = t.width().bytes();
            let len = uut.out_len.val().to_u64() as usize;
            let d = uut.out_data.val();
            for i in 0..32 {
                let x = d.get_bits::<32>(32 * i).to_u64();
                if i >= len {
                    assert_eq!(x, 0, "lane {i} past out_len");
                } else {
                    out[oc].extend_from_slice(&x.to_le_bytes()[..eb]);
                }
            }
            if uut.out_last.val() {
                oc += 1;
            }
        }
        if valid && uut.in_ready.val() {
            wi += 1;
        }
        clock_cycle!(&mut uut);
        if wi == words.len() && (oc == chunks.len() || err) {
            for _ in 0..8 {
                uut.out_ready.next = true;
                uut.in_valid.next = false;
                settle(&mut uut);
                crate::prims::verilog_check::record(&uut);
                err |= uut.error.val();
                assert!(!uut.out_valid.val() || err, "output after the last chunk");
                clock_cycle!(&mut uut);
            }
            return (out, err);
        }
    }
    panic!(
        "stuck: {wi} of {} words in, {oc} chunks out, error {err}",
        words.len()
    );
}

#[test]
fn block_decodes_every_type_under_backpressure() {
    let mut rng = XorShift64::new(0xdec0de);
    let mut chunks = vec![];
    for (i, t) in ElemType::ALL.into_iter().enumerate() {
        for n in [1, 45, 64 + i, [300, 600, 1100][i % 3]] {
            let data = chunk(&mut rng, t, n, [0, 50, 90][n % 3]);
            chunks.push((encode(&data, t).unwrap(), t, n, data));
        }
    }
    let list: Vec<_> = chunks.iter().map(|c| (c.0.clone(), c.1, c.2)).collect();
    for (pct, seed) in [((100, 100), 1), ((70, 60), 2)] {
        let trace = crate::prims::verilog_check::recording(|| {
            let (out, err) = run(&list, pct, seed);
            assert!(!err, "error on valid payloads (seed {seed})");
            for (o, c) in out.iter().zip(&chunks) {
                assert_eq!(o, &c.3, "{:?} n {} seed {seed}", c.1, c.2);
            }
        });
        if seed == 2 {
            let b = crate::emit::standalone_block(
                ZvcxDecompressor::default(),
                "cdma_zvcx_decompressor",
                &super::DECOMPRESSOR_PORTS,
            );
            crate::prims::verilog_check::check(&b, &trace);
        }
    }
}

#[test]
fn block_flags_damaged_payloads_as_the_model_does() {
    let mut rng = XorShift64::new(0xbad);
    let mut seen = (0, 0);
    for (i, t) in ElemType::ALL.into_iter().cycle().take(24).enumerate() {
        let n = [3, 40, 70][i % 3];
        let data = chunk(&mut rng, t, n, 40);
        let payload = encode(&data, t).unwrap();
        let d = damage(&mut rng, &payload);
        let want = decode(&d, t, n).ok();
        let (out, err) = run(&[(d.clone(), t, n)], (80, 80), i as u64);
        assert_eq!(err, want.is_none(), "{t:?} n {n}: {d:02x?}");
        if let Some(w) = want {
            assert_eq!(out[0], w);
            seen.0 += 1;
        } else {
            seen.1 += 1;
        }
    }
    assert!(seen.1 > 0, "no damaged payload was rejected");
}

/// Test bench of the two stages chained on one block (ports for `verilog_check`).
#[derive(LogicBlock, Default)]
struct StageBench {
    /// Clock (unused: the stages are combinational).
    clock: Signal<In, Clock>,
    /// Reset (unused).
    rst: Signal<In, Bit>,
    /// Block bits.
    blk: Signal<In, Bits<BLK>>,
    /// Elements.
    blen: Signal<In, Bits<6>>,
    /// No coded block before.
    first: Signal<In, Bit>,
    /// Previous largest exponent.
    prev: Signal<In, Bits<8>>,
    /// Type code.
    ty: Signal<In, Bits<3>>,
    /// Raw width code.
    elem: Signal<In, Bits<2>>,
    /// Scanner: length.
    len: Signal<Out, Bits<12>>,
    /// Scanner: header.
    hdr: Signal<Out, Bits<{ super::tables::HDR }>>,
    /// Unpack: data.
    data: Signal<Out, Bits<1024>>,
    /// Unpack: error.
    err: Signal<Out, Bit>,
    /// Unpack: largest exponent.
    max_exp: Signal<Out, Bits<8>>,
    params: crate::zvcx::ElemParams,
    sc: super::scan::ZvcxScan,
    up: super::unpack::ZvcxUnpack,
}

impl Logic for StageBench {
    #[hdl_gen]
    fn update(&mut self) {
        self.params.ty.next = self.ty.val();
        self.params.elem.next = self.elem.val();
        self.sc.win.next = self.blk.val().get_bits::<128>(0);
        self.sc.blen.next = self.blen.val();
        self.sc.first.next = self.first.val();
        self.sc.width.next = self.params.width.val();
        self.sc.exp_bits.next = self.params.exp_bits.val();
        self.sc.man_bits.next = self.params.man_bits.val();
        self.sc.k_bits.next = self.params.k_bits.val();
        self.sc.float.next = self.params.float.val();
        self.up.blk.next = self.blk.val();
        self.up.hdr.next = self.sc.hdr.val();
        self.up.blen.next = self.blen.val();
        self.up.first.next = self.first.val();
        self.up.prev.next = self.prev.val();
        self.up.width.next = self.params.width.val();
        self.up.exp_bits.next = self.params.exp_bits.val();
        self.up.man_bits.next = self.params.man_bits.val();
        self.up.float.next = self.params.float.val();
        self.len.next = self.sc.len.val();
        self.hdr.next = self.sc.hdr.val();
        self.data.next = self.up.data.val();
        self.err.next = self.up.err.val();
        self.max_exp.next = self.up.max_exp.val();
    }
}

/// The scanner's and the unpack stage's Verilog against their Rust models, block by block of
/// real payloads (every type), each stage alone so a mismatch names its block.
#[test]
fn stage_verilog_matches_the_models() {
    let mut rng = XorShift64::new(77);
    // (window/block bits, blen, first, prev, type)
    let mut cases = vec![];
    for t in ElemType::ALL {
        for z in [0, 40, 90] {
            let n = 70;
            let data = chunk(&mut rng, t, n, z);
            let payload = encode(&data, t).unwrap();
            let p = elem_of(t);
            let total = payload.len() * 8;
            let bit = |i: usize| i < total && (payload[i / 8] >> (i % 8)) & 1 == 1;
            let (mut pos, mut left, mut first, mut prev) = (0usize, n, true, 0u32);
            while left > 0 {
                let blen = left.min(32) as u32;
                let mut b = Bits::<BLK>::default();
                let mut bw = [0u64; BLK / 64];
                for i in 0..BLK {
                    bw[i / 64] |= u64::from(bit(pos + i)) << (i % 64);
                }
                for (j, x) in bw.iter().enumerate() {
                    b.set_bits::<64>(64 * j, (*x).into());
                }
                let win = (0..128).fold(0u128, |w, i| w | (u128::from(bit(pos + i)) << i));
                let (len, h) = scan(win, blen, first, &p);
                let (_, _, mx) = unpack(&bw, &h, blen, first, prev, &p);
                cases.push((b, blen, first, prev, t));
                if h.coded == 1 {
                    first = false;
                    prev = mx;
                }
                pos += len as usize;
                left -= blen as usize;
            }
        }
    }
    let trace = crate::prims::verilog_check::recording(|| {
        let mut uut = StageBench::default();
        uut.connect_all();
        for (b, blen, first, prev, t) in &cases {
            let (ty, el) = codes(*t);
            uut.blk.next = *b;
            uut.blen.next = u64::from(*blen).into();
            uut.first.next = *first;
            uut.prev.next = u64::from(*prev).into();
            uut.ty.next = ty.into();
            uut.elem.next = el.into();
            settle(&mut uut);
            crate::prims::verilog_check::record(&uut);
        }
    });
    let b = crate::emit::standalone_block(StageBench::default(), "zvcx_stages", &[]);
    crate::prims::verilog_check::check(&b, &trace);
}
