//! Stream driver for the ZVC-X block compressor (`cdma_zvcx_compressor`,
//! docs/ARCHITECTURE.md "ZVC-X encoder"): chunks of any element type in, one 32-element block
//! per beat, under seeded valid/ready; each chunk's payload collected from the 128-byte
//! words, with the stream rules checked every cycle and a hang limit.

use cdma_model::ElemType;
use cdma_sim::{new_dut, Dut};
use cdma_spec::desc::ELEM_CODES;

use crate::error::TbError;
use crate::traffic::Traffic;

/// Verilog module name of the compressor.
pub const MODULE: &str = "cdma_zvcx_compressor";
/// Elements per block.
pub const BLOCK: usize = 32;
/// Payload bytes per output word.
pub const WORD_BYTES: usize = 128;
/// Cycles without any transfer after which a run is declared hung.
const HANG_CYCLES: u64 = 2000;

/// What one run measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EncStats {
    /// Blocks that went in.
    pub blocks: u64,
    /// Words that came out.
    pub words: u64,
    /// Cycles from the first to the one that took the last word.
    pub cycles: u64,
    /// Cycles from the first block transfer to the last, inclusive.
    pub stream_cycles: u64,
    /// Uncompressed bytes.
    pub raw_bytes: u64,
    /// Payload bytes.
    pub payload_bytes: u64,
}

impl EncStats {
    /// Blocks per cycle while blocks stream in (fill latency excluded).
    pub fn blocks_per_cycle(&self) -> f64 {
        self.blocks as f64 / self.stream_cycles.max(1) as f64
    }
}

/// The Verilated compressor with its ports looked up once.
pub struct ZvcxEnc {
    dut: Box<dyn Dut>,
    rst: usize,
    ty: usize,
    elem: usize,
    in_data: usize,
    in_len: usize,
    in_last: usize,
    in_valid: usize,
    in_ready: usize,
    out_data: usize,
    out_bytes: usize,
    out_last: usize,
    out_valid: usize,
    out_ready: usize,
}

/// The (`ty`, `elem`) port codes of a type: the spec's type code, and the descriptor's width
/// code of its element width.
pub fn port_codes(t: ElemType) -> (u64, u64) {
    let bits = t.width().bits();
    let elem = ELEM_CODES
        .iter()
        .find(|(_, b)| *b == bits)
        .map_or(0, |(c, _)| *c);
    (u64::from(t.code()), elem)
}

/// One block of a chunk as the compressor takes it: 32 words (element `i` in word `i`,
/// zero-extended), the element count and the chunk-end flag.
type Beat = ([u32; BLOCK], u64, bool);

fn beats_of(data: &[u8], t: ElemType) -> Vec<Beat> {
    let eb = t.width().bytes();
    let blocks: Vec<&[u8]> = data.chunks(BLOCK * eb).collect();
    let n = blocks.len();
    blocks
        .into_iter()
        .enumerate()
        .map(|(k, b)| {
            let mut w = [0u32; BLOCK];
            for (i, e) in b.chunks(eb).enumerate() {
                let mut x = [0u8; 4];
                x[..eb].copy_from_slice(e);
                w[i] = u32::from_le_bytes(x);
            }
            (w, (b.len() / eb) as u64, k + 1 == n)
        })
        .collect()
}

impl ZvcxEnc {
    /// A fresh compressor, reset.
    pub fn new() -> Result<Self, String> {
        let dut = new_dut(MODULE).map_err(|e| e.to_string())?;
        let p = |n: &str| dut.port(n).map_err(|e| e.to_string());
        let mut s = ZvcxEnc {
            rst: p("rst")?,
            ty: p("ty")?,
            elem: p("elem")?,
            in_data: p("in_data")?,
            in_len: p("in_len")?,
            in_last: p("in_last")?,
            in_valid: p("in_valid")?,
            in_ready: p("in_ready")?,
            out_data: p("out_data")?,
            out_bytes: p("out_bytes")?,
            out_last: p("out_last")?,
            out_valid: p("out_valid")?,
            out_ready: p("out_ready")?,
            dut,
        };
        s.reset();
        Ok(s)
    }

    fn set(&mut self, port: usize, v: u64) {
        self.dut
            .set_u64(port, v)
            .expect("port looked up at construction");
    }
    fn get(&self, port: usize) -> u64 {
        self.dut
            .get_u64(port)
            .expect("port looked up at construction")
    }

    /// Synchronous reset for two cycles, inputs idle.
    pub fn reset(&mut self) {
        self.set(self.in_valid, 0);
        self.set(self.out_ready, 0);
        self.set(self.rst, 1);
        self.dut.tick();
        self.dut.tick();
        self.set(self.rst, 0);
        self.dut.eval();
    }

    /// Streams `chunks` (each with its element type; types may change between chunks)
    /// through the compressor, `src` deciding when a block is offered and `sink` when a word
    /// is taken, and returns each chunk's payload. Checks every cycle: `in_ready` does not
    /// depend on `in_valid`; a word waiting for `out_ready` stays unchanged; `out_bytes` is
    /// 1..=128, below 128 only on a chunk's last word, with the bytes above it zero; no word
    /// comes after the last chunk's end.
    pub fn run(
        &mut self,
        chunks: &[(ElemType, &[u8])],
        src: &mut Traffic,
        sink: &mut Traffic,
    ) -> Result<(Vec<Vec<u8>>, EncStats), TbError> {
        let beats: Vec<(Beat, ElemType)> = chunks
            .iter()
            .flat_map(|&(t, d)| beats_of(d, t).into_iter().map(move |b| (b, t)))
            .collect();
        let mut st = EncStats {
            raw_bytes: chunks.iter().map(|c| c.1.len() as u64).sum(),
            ..EncStats::default()
        };
        let mut out: Vec<Vec<u8>> = vec![vec![]];
        let (mut next, mut offered) = (0usize, false);
        let (mut cycle, mut idle) = (0u64, 0u64);
        let (mut first_in, mut last_in) = (None, 0u64);
        let mut stalled: Option<(Vec<u32>, u64, u64)> = None;
        let mut data = vec![0u32; 32];
        while out.len() <= chunks.len() {
            if !offered && next < beats.len() {
                offered = src.next_on();
            }
            let ((words, len, last), t) = beats
                .get(next)
                .copied()
                .unwrap_or((([0; BLOCK], 0, false), ElemType::F32));
            let (ty, elem) = port_codes(t);
            self.set(self.ty, ty);
            self.set(self.elem, elem);
            self.dut
                .set_words(self.in_data, &words)
                .expect("in_data is 32 words");
            self.set(self.in_len, len);
            self.set(self.in_last, last.into());
            let ready = sink.next_on();
            self.set(self.out_ready, ready.into());
            self.set(self.in_valid, 0);
            self.dut.eval();
            let ready_idle = self.get(self.in_ready);
            self.set(self.in_valid, offered.into());
            self.dut.eval();
            let in_ready = self.get(self.in_ready);
            if in_ready != ready_idle {
                return Err(TbError::Protocol(format!(
                    "cycle {cycle}: in_ready depends on in_valid"
                )));
            }
            let mut progress = false;
            if self.get(self.out_valid) == 1 {
                self.dut
                    .get_words(self.out_data, &mut data)
                    .expect("out_data is 32 words");
                let (n, l) = (self.get(self.out_bytes), self.get(self.out_last));
                if let Some(s) = &stalled {
                    if *s != (data.clone(), n, l) {
                        return Err(TbError::Protocol(format!(
                            "cycle {cycle}: a stalled word changed"
                        )));
                    }
                }
                stalled = None;
                let bytes: Vec<u8> = data.iter().flat_map(|w| w.to_le_bytes()).collect();
                let nb = n as usize;
                if !(1..=WORD_BYTES).contains(&nb) || (nb < WORD_BYTES && l == 0) {
                    return Err(TbError::Protocol(format!(
                        "cycle {cycle}: out_bytes {n} with out_last {l}"
                    )));
                }
                if bytes[nb..].iter().any(|&b| b != 0) {
                    return Err(TbError::Protocol(format!(
                        "cycle {cycle}: bytes above out_bytes {n} are not zero"
                    )));
                }
                if ready {
                    out.last_mut()
                        .expect("open chunk")
                        .extend_from_slice(&bytes[..nb]);
                    st.words += 1;
                    progress = true;
                    if l == 1 {
                        out.push(vec![]);
                    }
                } else {
                    stalled = Some((data.clone(), n, l));
                }
            } else if stalled.is_some() {
                return Err(TbError::Protocol(format!(
                    "cycle {cycle}: out_valid dropped before the word was taken"
                )));
            }
            if offered && in_ready == 1 {
                next += 1;
                offered = false;
                st.blocks += 1;
                first_in.get_or_insert(cycle);
                last_in = cycle;
                progress = true;
            }
            self.dut.tick();
            cycle += 1;
            idle = if progress { 0 } else { idle + 1 };
            if idle > HANG_CYCLES {
                return Err(TbError::Hang {
                    cycles: cycle,
                    waiting_for: format!(
                        "chunk {} of {} (block {next} of {})",
                        out.len(),
                        chunks.len(),
                        beats.len()
                    ),
                });
            }
        }
        out.pop();
        // Nothing more may come out.
        self.set(self.in_valid, 0);
        self.set(self.out_ready, 1);
        for _ in 0..8 {
            self.dut.eval();
            if self.get(self.out_valid) == 1 {
                return Err(TbError::Protocol("a word after the last chunk".into()));
            }
            self.dut.tick();
        }
        st.cycles = cycle;
        st.stream_cycles = first_in.map_or(0, |f| last_in - f + 1);
        st.payload_bytes = out.iter().map(|c| c.len() as u64).sum();
        Ok((out, st))
    }
}
