//! The Verilated ZVC-X decompressor (`cdma_zvcx_decompressor`, docs/ARCHITECTURE.md "ZVC-X
//! decoder") driven with chunk payloads of `cdma_model::zvcx` under seeded valid/ready
//! patterns ([`Traffic`]): 128-byte words (a chunk's last one short), `ty`/`elem`/`in_elems`
//! with every word, every output block collected per chunk, with protocol checks (a held word
//! and a held block must not change, `in_ready` must not depend on `in_valid`, lanes past
//! `out_len` are zero, `out_last` ends each chunk) and a cycle limit.

use cdma_model::ElemType;
use cdma_sim::{new_dut, Dut};

use crate::error::TbError;
use crate::traffic::Traffic;
use crate::watchdog::Watchdog;

/// Module name of the decoder top.
pub const MODULE: &str = "cdma_zvcx_decompressor";

/// One chunk: its payload, element type and element count.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// The ZVC-X payload (valid or damaged).
    pub payload: Vec<u8>,
    /// Element type.
    pub ty: ElemType,
    /// Elements the chunk decodes to.
    pub elems: usize,
}

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Decoded bytes per chunk (up to an error).
    pub data: Vec<Vec<u8>>,
    /// `error` rose.
    pub error: bool,
    /// Cycles from the first word offered to the end.
    pub cycles: u64,
    /// Blocks delivered.
    pub blocks: u64,
}

/// `ty` and `elem` port values of a model type.
pub fn type_codes(t: ElemType) -> (u64, u64) {
    let elem = match t.width().bits() {
        8 => 0,
        16 => 1,
        _ => 2,
    };
    (u64::from(t.code()), elem)
}

/// Port indices of the top.
struct Ports {
    rst: usize,
    ty: usize,
    elem: usize,
    in_data: usize,
    in_bytes: usize,
    in_last: usize,
    in_elems: usize,
    in_valid: usize,
    in_ready: usize,
    out_data: usize,
    out_len: usize,
    out_last: usize,
    out_valid: usize,
    out_ready: usize,
    error: usize,
}

fn bind(dut: &dyn Dut) -> Result<Ports, TbError> {
    let p = |n: &str| {
        dut.port(n)
            .map_err(|e| TbError::Protocol(format!("{MODULE}: {e}")))
    };
    Ok(Ports {
        rst: p("rst")?,
        ty: p("ty")?,
        elem: p("elem")?,
        in_data: p("in_data")?,
        in_bytes: p("in_bytes")?,
        in_last: p("in_last")?,
        in_elems: p("in_elems")?,
        in_valid: p("in_valid")?,
        in_ready: p("in_ready")?,
        out_data: p("out_data")?,
        out_len: p("out_len")?,
        out_last: p("out_last")?,
        out_valid: p("out_valid")?,
        out_ready: p("out_ready")?,
        error: p("error")?,
    })
}

fn get(dut: &dyn Dut, port: usize) -> u64 {
    let mut w = [0u32; 1];
    dut.get_words(port, &mut w).expect("bound port");
    u64::from(w[0])
}

fn set(dut: &mut dyn Dut, port: usize, v: u64) {
    dut.set_u64(port, v).expect("bound port");
}

/// Streams `chunks` through a fresh decoder under the traffic of `seed` (0: always valid and
/// ready). Returns once every chunk's last block is out, or once `error` rose and every word
/// was taken; fails on a hang or a protocol breach.
pub fn run(chunks: &[Chunk], seed: u64) -> Result<Outcome, TbError> {
    let mut dut = new_dut(MODULE).map_err(|e| TbError::Protocol(e.to_string()))?;
    let p = bind(dut.as_ref())?;
    let d = dut.as_mut();
    // Words: (chunk, bytes, last).
    let mut words: Vec<(usize, &[u8], bool)> = vec![];
    for (c, ch) in chunks.iter().enumerate() {
        let k = ch.payload.len().div_ceil(128).max(1);
        for i in 0..k {
            let end = ((i + 1) * 128).min(ch.payload.len());
            words.push((c, &ch.payload[(i * 128).min(end)..end], i + 1 == k));
        }
    }
    set(d, p.rst, 1);
    set(d, p.in_valid, 0);
    set(d, p.out_ready, 0);
    for _ in 0..2 {
        d.eval();
        d.tick();
    }
    set(d, p.rst, 0);
    let (mut src, mut sink) = (Traffic::seeded(seed, 1), Traffic::seeded(seed, 2));
    let total_blocks: usize = chunks.iter().map(|c| c.elems.div_ceil(32)).sum();
    let mut dog =
        Watchdog::new(40 * (words.len() + total_blocks) as u64 + 1000).with_idle_limit(2000);
    let mut out = Outcome {
        data: vec![vec![]; chunks.len()],
        ..Outcome::default()
    };
    let (mut wi, mut oc) = (0usize, 0usize);
    let mut offered = false;
    let mut held_out: Option<Vec<u32>> = None;
    loop {
        dog.tick(|| {
            format!(
                "word {wi} of {}, chunk {oc} of {} out",
                words.len(),
                chunks.len()
            )
        })?;
        // A word once offered stays offered until taken.
        offered = wi < words.len() && (offered || src.next_on());
        if wi < words.len() {
            let (c, w, last) = words[wi];
            let (ty, el) = type_codes(chunks[c].ty);
            let mut data = [0u32; 32];
            for (j, b) in w.iter().enumerate() {
                data[j / 4] |= u32::from(*b) << (8 * (j % 4));
            }
            // Garbage past a short word's valid bytes.
            for j in w.len()..128 {
                data[j / 4] |= 0xA5 << (8 * (j % 4));
            }
            d.set_words(p.in_data, &data).expect("bound port");
            set(d, p.ty, ty);
            set(d, p.elem, el);
            set(d, p.in_bytes, w.len() as u64);
            set(d, p.in_last, u64::from(last));
            set(d, p.in_elems, chunks[c].elems as u64);
        }
        let ready = sink.next_on();
        set(d, p.out_ready, u64::from(ready));
        // in_ready must not depend on in_valid.
        set(d, p.in_valid, u64::from(!offered));
        d.eval();
        let r0 = get(d, p.in_ready);
        set(d, p.in_valid, u64::from(offered));
        d.eval();
        if get(d, p.in_ready) != r0 {
            return Err(TbError::Protocol("in_ready depends on in_valid".into()));
        }
        out.error |= get(d, p.error) == 1;
        if get(d, p.out_valid) == 1 {
            let mut o = vec![0u32; 32];
            d.get_words(p.out_data, &mut o).expect("bound port");
            if let Some(h) = &held_out {
                if *h != o {
                    return Err(TbError::Protocol("out_data changed while stalled".into()));
                }
            }
            if ready {
                held_out = None;
                if oc >= chunks.len() {
                    return Err(TbError::Protocol("a block after the last chunk".into()));
                }
                let len = get(d, p.out_len) as usize;
                let ch = &chunks[oc];
                let eb = ch.ty.width().bytes();
                let left = ch.elems - out.data[oc].len() / eb;
                if len != left.min(32) {
                    return Err(TbError::Protocol(format!(
                        "out_len {len}, {left} elements left"
                    )));
                }
                if o.iter().skip(len).any(|&x| x != 0) {
                    return Err(TbError::Protocol("a lane past out_len is not zero".into()));
                }
                for x in &o[..len] {
                    out.data[oc].extend_from_slice(&x.to_le_bytes()[..eb]);
                }
                out.blocks += 1;
                dog.progress();
                let last = get(d, p.out_last) == 1;
                if last != (len == left) {
                    return Err(TbError::Protocol(format!(
                        "out_last {last} with {left} left"
                    )));
                }
                if last {
                    oc += 1;
                }
            } else {
                held_out = Some(o);
            }
        }
        if offered && get(d, p.in_ready) == 1 {
            wi += 1;
            offered = false;
            dog.progress();
        }
        d.tick();
        out.cycles += 1;
        if wi == words.len() && (oc == chunks.len() || out.error) {
            // Nothing more may come out (after an error: a block already in the output
            // register may still leave).
            set(d, p.in_valid, 0);
            set(d, p.out_ready, 1);
            let mut extra = 0;
            for _ in 0..8 {
                d.eval();
                out.error |= get(d, p.error) == 1;
                extra += get(d, p.out_valid);
                d.tick();
            }
            if extra > u64::from(out.error) {
                return Err(TbError::Protocol(format!("{extra} blocks after the end")));
            }
            return Ok(out);
        }
    }
}

/// One input word as driven on the ports, for words the format's word rules forbid.
#[derive(Clone, Debug)]
pub struct RawWord {
    /// Payload bytes (at most 128 are driven).
    pub bytes: Vec<u8>,
    /// The `in_bytes` value driven (may disagree with `bytes`).
    pub in_bytes: u64,
    /// `in_last`.
    pub last: bool,
    /// `in_elems`.
    pub elems: u64,
    /// Element type.
    pub ty: ElemType,
}

/// Offers `words` back to back with `out_ready` high; returns whether `error` rose. Fails if
/// a word is not taken within the cycle limit (after an error every word must be taken).
pub fn run_words(words: &[RawWord]) -> Result<bool, TbError> {
    let mut dut = new_dut(MODULE).map_err(|e| TbError::Protocol(e.to_string()))?;
    let p = bind(dut.as_ref())?;
    let d = dut.as_mut();
    set(d, p.rst, 1);
    set(d, p.in_valid, 0);
    set(d, p.out_ready, 1);
    for _ in 0..2 {
        d.eval();
        d.tick();
    }
    set(d, p.rst, 0);
    let mut dog = Watchdog::new(64 * words.len() as u64 + 64);
    let (mut wi, mut error) = (0, false);
    while wi < words.len() {
        dog.tick(|| format!("word {wi} of {} not taken", words.len()))?;
        let w = &words[wi];
        let mut data = [0u32; 32];
        for (j, b) in w.bytes.iter().take(128).enumerate() {
            data[j / 4] |= u32::from(*b) << (8 * (j % 4));
        }
        let (ty, el) = type_codes(w.ty);
        d.set_words(p.in_data, &data).expect("bound port");
        set(d, p.ty, ty);
        set(d, p.elem, el);
        set(d, p.in_bytes, w.in_bytes);
        set(d, p.in_last, u64::from(w.last));
        set(d, p.in_elems, w.elems);
        set(d, p.in_valid, 1);
        d.eval();
        error |= get(d, p.error) == 1;
        if get(d, p.in_ready) == 1 {
            wi += 1;
        }
        d.tick();
    }
    set(d, p.in_valid, 0);
    for _ in 0..8 {
        d.eval();
        error |= get(d, p.error) == 1;
        d.tick();
    }
    Ok(error)
}
