//! DMA scenarios: a memory image, a descriptor chain in it, injected bus errors, and what the
//! golden model (`cdma_model::dma::run_chain`) says the engine must leave behind.
//!
//! A [`Scenario`] is pure data (no DUT): the testbench in [`crate::dma`] loads its
//! [`Scenario::image`] into the AXI memory model, rings the doorbell at [`Scenario::head`] and
//! compares the result with [`Scenario::expect`]. Scenarios are built with a [`ChainBuilder`]
//! (hand-made fault cases in [`crate::dma_faults`]) or at random by [`random_chain`].
//!
//! Layout rules the builder keeps, so that a stray access is always visible:
//! - every region (descriptor, source, destination, metadata) is surrounded by guard bytes
//!   holding a random pattern: 64–256 bytes, measured from the bus-beat boundaries around the
//!   region, so a whole-beat access (reads cover whole beats, a partial last write beat is
//!   strobed) never leaves the region's guarded block;
//! - blocks (region + guards) never overlap; destinations and metadata start with random
//!   garbage, so bytes the engine must not write are not accidentally equal to its output.

use std::ops::Range;

use cdma_model::dma::{
    codes, control_word, run_chain, BusError, ChainEnd, ChainOutcome, Descriptor, EngineConfig,
    ErrorCode, Op, SparseMemory,
};
use cdma_model::{compress_chunked, spec, ElemWidth};
use cdma_spec::desc as d;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::axi::{Access, ErrorRange, Resp};

/// What a region of a scenario holds (for reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// A 64-byte descriptor.
    Descriptor,
    /// Data the engine reads (COPY/COMPRESS source, DECOMPRESS payload).
    Source,
    /// Where the engine writes data or a payload.
    Destination,
    /// Frame header + index (written by COMPRESS, read by DECOMPRESS).
    Metadata,
    /// Guard bytes: nothing may ever write them.
    Guard,
}

/// One named address range of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The bytes.
    pub range: Range<u64>,
    /// What they are.
    pub kind: RegionKind,
    /// Human-readable owner, e.g. `d3 COMPRESS dst (vgg16.conv1_1)`.
    pub label: String,
}

/// Bytes placed in memory before the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First byte address.
    pub addr: u64,
    /// The bytes.
    pub data: Vec<u8>,
}

/// A descriptor of the chain as planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedDesc {
    /// Where the chain points to it (may be deliberately unaligned).
    pub addr: u64,
    /// Its fields (`next` as linked by the builder).
    pub desc: Descriptor,
    /// Short description for reports.
    pub label: String,
    /// The error code the builder means it to end with; `None`: the chain is meant to end
    /// before it (after a fetch failure or a `stop_on_error` descriptor).
    pub intent: Option<ErrorCode>,
}

/// A COMPRESS whose frame a later DECOMPRESS of the same chain restores elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundTrip {
    /// Tensor name.
    pub label: String,
    /// The original data (COMPRESS source).
    pub original: Range<u64>,
    /// Where the DECOMPRESS writes it back.
    pub restored: u64,
}

/// A complete test scenario: memory image, chain, injected errors.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Name for reports.
    pub name: String,
    /// The engine configuration the chain is meant for (bus width, chunk and index limits).
    pub engine: EngineConfig,
    /// Value of memory bytes never written.
    pub fill: u8,
    /// Address written to HEAD.
    pub head: u64,
    /// The chain, in link order.
    pub descs: Vec<PlannedDesc>,
    /// Every region and guard, non-overlapping.
    pub regions: Vec<Region>,
    /// Initial memory content besides the fill byte.
    pub image: Vec<Segment>,
    /// Bus errors injected into the memory.
    pub errors: Vec<ErrorRange>,
    /// COMPRESS → DECOMPRESS pairs.
    pub round_trips: Vec<RoundTrip>,
    /// IRQ_ENABLE value to program.
    pub irq_enable: u32,
    /// Uncompressed bytes of the COMPRESS descriptors (for ratio reports).
    pub compress_in: u64,
}

/// What the golden model says a run leaves behind.
#[derive(Clone, Debug)]
pub struct Expected {
    /// The memory after the chain.
    pub mem: SparseMemory,
    /// Per-descriptor outcomes and the CSRs.
    pub outcome: ChainOutcome,
    /// Ranges whose content is unspecified (failed streaming descriptors), to skip.
    pub unspecified: Vec<Range<u64>>,
}

impl Expected {
    /// Whether `addr` lies in an unspecified range.
    pub fn is_unspecified(&self, addr: u64) -> bool {
        self.unspecified.iter().any(|r| r.contains(&addr))
    }
}

fn bus_error(resp: Resp) -> BusError {
    match resp {
        Resp::Decerr => BusError::DecErr,
        _ => BusError::SlvErr,
    }
}

impl Scenario {
    /// Bus bytes of the engine.
    pub fn bus_bytes(&self) -> u64 {
        u64::from(self.engine.bus_bytes())
    }

    /// The initial memory as the model sees it: image, fill byte and error ranges.
    pub fn model_memory(&self) -> SparseMemory {
        let mut m = SparseMemory::new(self.fill);
        for s in &self.image {
            m.load(s.addr, &s.data);
        }
        for e in &self.errors {
            let r = e.lo..e.hi;
            if matches!(e.on, Access::Read | Access::Both) {
                m.add_read_error(r.clone(), bus_error(e.resp));
            }
            if matches!(e.on, Access::Write | Access::Both) {
                m.add_write_error(r, bus_error(e.resp));
            }
        }
        m
    }

    /// Runs the golden model over the whole chain.
    pub fn expect(&self) -> Expected {
        let mut mem = self.model_memory();
        let outcome = run_chain(&mut mem, self.head, &self.engine);
        let unspecified = outcome
            .descs
            .iter()
            .flat_map(|o| o.unspecified.iter().cloned())
            .collect();
        Expected {
            mem,
            outcome,
            unspecified,
        }
    }

    /// The model's result had the chain ended after its first `n` descriptors (what an abort
    /// that landed after descriptor `n − 1` finished leaves). The planned descriptors must be
    /// linked as listed; the cut is made by zeroing `next` of descriptor `n − 1` in the
    /// model's copy only, and that field is restored in the memory of the result (the
    /// outcome's parsed descriptor `n − 1` shows `next` = 0).
    pub fn expect_prefix(&self, n: usize) -> Expected {
        let mut mem = self.model_memory();
        if n == 0 {
            return Expected {
                mem,
                outcome: ChainOutcome {
                    descs: Vec::new(),
                    end: ChainEnd::Completed,
                    status: 0,
                    desc_done: 0,
                    irq_status: 0,
                    err_desc: None,
                },
                unspecified: Vec::new(),
            };
        }
        let n = n.min(self.descs.len());
        let next_at = self.descs[n - 1].addr + d::NEXT_FIELD.offset as u64;
        let orig = mem.peek(next_at, 8);
        mem.load(next_at, &[0; 8]);
        let outcome = run_chain(&mut mem, self.head, &self.engine);
        mem.load(next_at, &orig);
        let unspecified = outcome
            .descs
            .iter()
            .flat_map(|o| o.unspecified.iter().cloned())
            .collect();
        Expected {
            mem,
            outcome,
            unspecified,
        }
    }

    /// The region holding `addr`, if any.
    pub fn region_of(&self, addr: u64) -> Option<&Region> {
        self.regions.iter().find(|r| r.range.contains(&addr))
    }

    /// Index of the planned descriptor at `addr`.
    pub fn desc_index(&self, addr: u64) -> Option<usize> {
        self.descs.iter().position(|p| p.addr == addr)
    }
}

/// A tensor to move: name and bytes (a whole number of the engine's elements).
#[derive(Clone, Debug)]
pub struct Tensor {
    /// Name for labels.
    pub name: String,
    /// Little-endian element bytes.
    pub data: Vec<u8>,
}

/// Builds a scenario region by region and descriptor by descriptor. Every allocation lands at
/// a random free place of the address window with its own guards.
pub struct ChainBuilder {
    engine: EngineConfig,
    /// The scenario's random stream (placement, guards, garbage); public for fault builders
    /// that need more random choices from the same seed.
    pub rng: ChaCha8Rng,
    window: Range<u64>,
    blocks: Vec<Range<u64>>,
    scn: Scenario,
    /// Descriptor placement requests: `None` = a random aligned slot, `Some(off)` = a slot
    /// and the descriptor `off` bytes into it (deliberately unaligned).
    placement: Vec<Option<u64>>,
    junk_status: bool,
}

/// The value of memory never written, in every scenario and in the bench's AXI memory
/// (one constant: the bench's memory is built before it sees a scenario). Not 0x00, so a
/// read of unwritten memory does not look like zeros.
pub const FILL: u8 = 0xE5;

/// The default address window: 64 MiB just below 4 GiB, so region addresses and bursts cross
/// the 32-bit boundary now and then (HEAD_HI and the upper address bits get exercised).
pub const DEFAULT_WINDOW: Range<u64> = 0xFC00_0000..0x1_0400_0000;

impl ChainBuilder {
    /// An empty scenario for `engine`, placing everything in `window` (which must be large
    /// enough for what is allocated; allocation panics after many failed tries).
    pub fn new(name: &str, engine: EngineConfig, seed: u64, window: Range<u64>) -> Self {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        ChainBuilder {
            engine,
            window,
            blocks: Vec::new(),
            scn: Scenario {
                name: name.to_string(),
                engine,
                fill: FILL,
                head: 0,
                descs: Vec::new(),
                regions: Vec::new(),
                image: Vec::new(),
                errors: Vec::new(),
                round_trips: Vec::new(),
                irq_enable: 0b11,
                compress_in: 0,
            },
            rng,
            placement: Vec::new(),
            junk_status: true,
        }
    }

    /// Whether [`ChainBuilder::finish`] may start status words as a random pattern (default)
    /// or always as zero (needed when "done" must be read from memory, e.g. after an abort).
    pub fn junk_status(&mut self, on: bool) {
        self.junk_status = on;
    }

    /// The engine configuration.
    pub fn engine(&self) -> EngineConfig {
        self.engine
    }

    fn bb(&self) -> u64 {
        u64::from(self.engine.bus_bytes())
    }

    /// Index the next pushed descriptor will get (for labels).
    pub fn next_index(&self) -> usize {
        self.scn.descs.len()
    }

    fn random_bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        self.rng.fill(&mut v[..]);
        v
    }

    /// Reserves `len` bytes aligned to `align` with guards around them; the region is
    /// recorded as `kind` and filled with random garbage. Returns its address.
    pub fn alloc(&mut self, len: u64, align: u64, kind: RegionKind, label: &str) -> u64 {
        let bb = self.bb();
        for _ in 0..10_000 {
            let span = self.window.end - self.window.start;
            let a = (self.window.start + self.rng.gen_range(0..span)) & !(align - 1);
            let gb = self.rng.gen_range(64..=256u64);
            let ga = self.rng.gen_range(64..=256u64);
            let Some(lo) = (a & !(bb - 1)).checked_sub(gb) else {
                continue;
            };
            let hi = (a + len).next_multiple_of(bb) + ga;
            if lo < self.window.start || hi > self.window.end {
                continue;
            }
            if self.blocks.iter().any(|b| b.start < hi && lo < b.end) {
                continue;
            }
            self.blocks.push(lo..hi);
            let guard = format!("guard of {label}");
            for r in [lo..a, a + len..hi] {
                let data = self.random_bytes((r.end - r.start) as usize);
                self.scn.image.push(Segment {
                    addr: r.start,
                    data,
                });
                self.scn.regions.push(Region {
                    range: r,
                    kind: RegionKind::Guard,
                    label: guard.clone(),
                });
            }
            if len > 0 {
                let data = self.random_bytes(len as usize);
                self.scn.image.push(Segment { addr: a, data });
                self.scn.regions.push(Region {
                    range: a..a + len,
                    kind,
                    label: label.to_string(),
                });
            }
            return a;
        }
        panic!(
            "no room for {len} bytes ({label}) in window {:#x?}",
            self.window
        );
    }

    /// Allocates a bus-aligned region holding `data`.
    pub fn data(&mut self, data: &[u8], kind: RegionKind, label: &str) -> u64 {
        let a = self.alloc(data.len() as u64, self.bb(), kind, label);
        self.put(a, data);
        a
    }

    /// Overwrites memory at `addr` (inside an allocated region) in the initial image.
    pub fn put(&mut self, addr: u64, data: &[u8]) {
        self.scn.image.push(Segment {
            addr,
            data: data.to_vec(),
        });
    }

    /// Injects a bus error.
    pub fn error(&mut self, e: ErrorRange) {
        self.scn.errors.push(e);
    }

    /// Records a round trip to check.
    pub fn round_trip(&mut self, rt: RoundTrip) {
        self.scn.round_trips.push(rt);
    }

    /// Sets IRQ_ENABLE.
    pub fn irq_enable(&mut self, v: u32) {
        self.scn.irq_enable = v;
    }

    /// Appends a descriptor at a random 64-aligned slot; `next` is linked by
    /// [`ChainBuilder::finish`]. Returns its index.
    pub fn push(&mut self, desc: Descriptor, label: &str, intent: Option<ErrorCode>) -> usize {
        self.push_at(desc, label, intent, None)
    }

    /// Like [`ChainBuilder::push`], with the descriptor `off` bytes past a 64-aligned slot
    /// when `off` is given (an unaligned descriptor address).
    pub fn push_at(
        &mut self,
        desc: Descriptor,
        label: &str,
        intent: Option<ErrorCode>,
        off: Option<u64>,
    ) -> usize {
        if let Some(o) = desc_op(&desc) {
            if o == Op::Compress {
                self.scn.compress_in += u64::from(desc.src_len);
            }
        }
        self.scn.descs.push(PlannedDesc {
            addr: 0,
            desc,
            label: label.to_string(),
            intent,
        });
        self.placement.push(off);
        self.scn.descs.len() - 1
    }

    /// Places the descriptors, links them in push order and returns the scenario. The
    /// status/bytes_written words start as a random pattern or zero (both are legal: the engine
    /// overwrites them).
    pub fn finish(mut self) -> Scenario {
        let n = self.scn.descs.len();
        for i in 0..n {
            let label = format!("d{i} {}", self.scn.descs[i].label);
            let off = self.placement[i].unwrap_or(0);
            let slot = self.alloc(64 + off, 64, RegionKind::Descriptor, &label);
            self.scn.descs[i].addr = slot + off;
        }
        for i in 0..n {
            let next = self.scn.descs.get(i + 1).map_or(0, |p| p.addr);
            self.scn.descs[i].desc.next = next;
            let mut bytes = self.scn.descs[i].desc.to_bytes();
            if self.junk_status && self.rng.gen_bool(0.5) {
                let junk: [u8; 8] = self.rng.gen();
                bytes[d::STATUS_FIELD.offset..d::STATUS_FIELD.offset + 8].copy_from_slice(&junk);
            }
            let addr = self.scn.descs[i].addr;
            self.put(addr, &bytes);
        }
        self.scn.head = self.scn.descs.first().map_or(0, |p| p.addr);
        self.scn
    }
}

/// The operation of a descriptor's control word (None for the reserved code).
pub fn desc_op(desc: &Descriptor) -> Option<Op> {
    match d::CTRL_OP.get(u64::from(desc.control)) {
        x if x == d::OP_COPY => Some(Op::Copy),
        x if x == d::OP_COMPRESS => Some(Op::Compress),
        x if x == d::OP_DECOMPRESS => Some(Op::Decompress),
        _ => None,
    }
}

/// The chunk sizes a random COMPRESS may use on `engine`: `max(7, log2 BB)` to
/// `CHUNK_LOG2_MAX`.
pub fn chunk_range(engine: &EngineConfig) -> std::ops::RangeInclusive<u8> {
    let lo = (engine.bus_bytes().trailing_zeros() as u8).max(spec::CHUNK_LOG2_MIN);
    lo..=engine.chunk_log2_max()
}

/// Bytes of header + index for `len` bytes in chunks of `2^chunk_log2`.
pub fn meta_bytes(len: u32, chunk_log2: u8) -> u64 {
    spec::meta_len(spec::n_chunks(u64::from(len), chunk_log2))
}

/// A frame as the engine writes it: header + index (metadata) and payload, from the model.
#[derive(Clone, Debug)]
pub struct FrameParts {
    /// Header + index.
    pub meta: Vec<u8>,
    /// Payload.
    pub payload: Vec<u8>,
}

/// Compresses `data` with the model and splits the frame into metadata and payload.
pub fn frame_parts(data: &[u8], elem: ElemWidth, chunk_log2: u8) -> FrameParts {
    let f = compress_chunked(data, elem, chunk_log2).expect("whole elements, valid chunk size");
    let meta_len = spec::meta_len(spec::n_chunks(data.len() as u64, chunk_log2)) as usize;
    FrameParts {
        meta: f[..meta_len].to_vec(),
        payload: f[meta_len..].to_vec(),
    }
}

/// A COMPRESS descriptor (no flags).
pub fn compress_desc(
    engine: &EngineConfig,
    src: u64,
    len: u32,
    dst: u64,
    cap: u32,
    meta: u64,
    chunk_field: u8,
) -> Descriptor {
    Descriptor {
        control: control_word(Op::Compress, engine.elem_bits(), chunk_field, false, false),
        src_len: len,
        src_addr: src,
        dst_addr: dst,
        dst_cap: cap,
        meta_addr: meta,
        ..Descriptor::default()
    }
}

/// A DECOMPRESS descriptor (no flags).
pub fn decompress_desc(
    engine: &EngineConfig,
    payload: u64,
    payload_len: u32,
    dst: u64,
    cap: u32,
    meta: u64,
) -> Descriptor {
    Descriptor {
        control: control_word(Op::Decompress, engine.elem_bits(), 0, false, false),
        src_len: payload_len,
        src_addr: payload,
        dst_addr: dst,
        dst_cap: cap,
        meta_addr: meta,
        ..Descriptor::default()
    }
}

/// A COPY descriptor (no flags; the element field says the engine's width).
pub fn copy_desc(engine: &EngineConfig, src: u64, len: u32, dst: u64, cap: u32) -> Descriptor {
    Descriptor {
        control: control_word(Op::Copy, engine.elem_bits(), 0, false, false),
        src_len: len,
        src_addr: src,
        dst_addr: dst,
        dst_cap: cap,
        ..Descriptor::default()
    }
}

/// Sets or clears the `irq` and `stop_on_error` flags of a descriptor.
pub fn with_flags(mut desc: Descriptor, irq: bool, stop_on_error: bool) -> Descriptor {
    let c = u64::from(desc.control);
    let c = d::CTRL_IRQ.set(c, u64::from(irq));
    desc.control = d::CTRL_STOP_ON_ERROR.set(c, u64::from(stop_on_error)) as u32;
    desc
}

/// Knobs of [`random_chain`].
#[derive(Clone, Debug)]
pub struct RandomOpts {
    /// Extra COPY descriptors: random count in `0..=max_copies`.
    pub max_copies: usize,
    /// Largest COPY length in bytes.
    pub copy_max_len: usize,
    /// Deliberately unaligned descriptors (src/dst/meta off by a few bytes → UNALIGNED):
    /// random count in `0..=max_unaligned`.
    pub max_unaligned: usize,
    /// Address window.
    pub window: Range<u64>,
}

impl Default for RandomOpts {
    fn default() -> Self {
        RandomOpts {
            max_copies: 3,
            copy_max_len: 3000,
            max_unaligned: 2,
            window: DEFAULT_WINDOW,
        }
    }
}

enum Step {
    Compress(usize),
    Decompress(usize),
    Copy,
    Unaligned,
}

/// A random chain over `tensors` (each a whole number of the engine's elements): for each
/// tensor a COMPRESS to a host region and, later in the same chain, a DECOMPRESS of that frame
/// to another region (a [`RoundTrip`]); random COPYs; a few deliberately unaligned descriptors
/// (intent UNALIGNED). Chunk sizes are random in [`chunk_range`] (the default code 0 now and
/// then), capacities exact or with slack, flags random (`stop_on_error` only where the
/// descriptor is meant to succeed). Deterministic in `seed`.
pub fn random_chain(
    name: &str,
    engine: &EngineConfig,
    tensors: &[Tensor],
    seed: u64,
    opts: &RandomOpts,
) -> Scenario {
    random_chain_with(name, engine, tensors, seed, opts, |_| {})
}

/// [`random_chain`] with `setup` applied to the builder first (e.g.
/// [`ChainBuilder::junk_status`]).
pub fn random_chain_with(
    name: &str,
    engine: &EngineConfig,
    tensors: &[Tensor],
    seed: u64,
    opts: &RandomOpts,
    setup: impl FnOnce(&mut ChainBuilder),
) -> Scenario {
    let mut b = ChainBuilder::new(name, *engine, seed, opts.window.clone());
    setup(&mut b);
    let elem = engine.elem();
    let eb = elem.bytes();
    // Order: compresses in random order, each decompress somewhere after its compress.
    let mut steps: Vec<Step> = (0..tensors.len()).map(Step::Compress).collect();
    for i in (1..steps.len()).rev() {
        let j = b.rng.gen_range(0..=i);
        steps.swap(i, j);
    }
    for t in 0..tensors.len() {
        let at = steps
            .iter()
            .position(|s| matches!(s, Step::Compress(x) if *x == t))
            .expect("pushed above");
        let pos = b.rng.gen_range(at + 1..=steps.len());
        steps.insert(pos, Step::Decompress(t));
    }
    let copies = b.rng.gen_range(0..=opts.max_copies);
    let unaligned = b.rng.gen_range(0..=opts.max_unaligned);
    for _ in 0..copies {
        let pos = b.rng.gen_range(0..=steps.len());
        steps.insert(pos, Step::Copy);
    }
    for _ in 0..unaligned {
        let pos = b.rng.gen_range(0..=steps.len());
        steps.insert(pos, Step::Unaligned);
    }
    // Per tensor: (meta addr, payload addr, payload len, original addr).
    let mut frames: Vec<Option<(u64, u64, u32, u64)>> = vec![None; tensors.len()];
    let bb = u64::from(engine.bus_bytes());
    for step in steps {
        let i = b.next_index();
        let irq = b.rng.gen_bool(0.3);
        let stop = b.rng.gen_bool(0.3);
        match step {
            Step::Compress(t) => {
                let tn = &tensors[t];
                // Chunks no smaller than the index allows (at most 2^IDX_LOG2 per descriptor).
                let need = (tn.data.len() as u64)
                    .div_ceil(1 << engine.idx_log2())
                    .next_power_of_two()
                    .trailing_zeros() as u8;
                let range = chunk_range(engine);
                let range = (*range.start()).max(need)..=*range.end();
                assert!(
                    !range.is_empty(),
                    "{} is too large for one descriptor",
                    tn.name
                );
                let (chunk_log2, field) = if b.rng.gen_bool(0.2) && *range.end() == 12 {
                    (12, 0)
                } else {
                    let c = b.rng.gen_range(range);
                    (c, c)
                };
                let parts = frame_parts(&tn.data, elem, chunk_log2);
                let len = tn.data.len() as u64;
                let src = b.data(
                    &tn.data,
                    RegionKind::Source,
                    &format!("d{i} COMPRESS src ({})", tn.name),
                );
                let payload = parts.payload.len() as u64;
                let cap = match b.rng.gen_range(0..3) {
                    0 => payload,
                    1 => payload + b.rng.gen_range(1..=300),
                    _ => len,
                };
                let dst = b.alloc(
                    cap,
                    bb,
                    RegionKind::Destination,
                    &format!("d{i} COMPRESS dst ({})", tn.name),
                );
                let mlen = parts.meta.len() as u64 + b.rng.gen_range(0..2) * 64;
                let meta = b.alloc(
                    mlen,
                    bb,
                    RegionKind::Metadata,
                    &format!("d{i} COMPRESS meta ({})", tn.name),
                );
                let desc = compress_desc(engine, src, len as u32, dst, cap as u32, meta, field);
                b.push(
                    with_flags(desc, irq, stop),
                    &format!("COMPRESS {} chunk 2^{chunk_log2}", tn.name),
                    Some(codes::OK),
                );
                frames[t] = Some((meta, dst, payload as u32, src));
            }
            Step::Decompress(t) => {
                let tn = &tensors[t];
                let (meta, payload, plen, orig) = frames[t].expect("compress comes first");
                let len = tn.data.len() as u64;
                let cap = if b.rng.gen_bool(0.5) {
                    len
                } else {
                    len + b.rng.gen_range(1..=300)
                };
                let dst = b.alloc(
                    cap,
                    bb,
                    RegionKind::Destination,
                    &format!("d{i} DECOMPRESS dst ({})", tn.name),
                );
                let desc = decompress_desc(engine, payload, plen, dst, cap as u32, meta);
                b.push(
                    with_flags(desc, irq, stop),
                    &format!("DECOMPRESS {}", tn.name),
                    Some(codes::OK),
                );
                b.round_trip(RoundTrip {
                    label: tn.name.clone(),
                    original: orig..orig + len,
                    restored: dst,
                });
            }
            Step::Copy => {
                let len = b.rng.gen_range(0..=opts.copy_max_len / eb) * eb;
                let data = b.random_bytes(len);
                let src = b.data(&data, RegionKind::Source, &format!("d{i} COPY src"));
                let cap = len as u64 + b.rng.gen_range(0..2) * b.rng.gen_range(1..=200);
                let dst = b.alloc(cap, bb, RegionKind::Destination, &format!("d{i} COPY dst"));
                let desc = copy_desc(engine, src, len as u32, dst, cap as u32);
                b.push(
                    with_flags(desc, irq, stop),
                    &format!("COPY {len} B"),
                    Some(codes::OK),
                );
            }
            Step::Unaligned => {
                // A COPY or COMPRESS with one address off the bus alignment: rejected before
                // anything is read (so its regions need no content beyond garbage).
                let len = (64 * eb) as u64;
                let off = 4 * b.rng.gen_range(1..bb / 4);
                let src = b.alloc(len + bb, bb, RegionKind::Source, &format!("d{i} src"));
                let dst = b.alloc(len + bb, bb, RegionKind::Destination, &format!("d{i} dst"));
                let meta = b.alloc(2 * bb, bb, RegionKind::Metadata, &format!("d{i} meta"));
                let which = b.rng.gen_range(0..3);
                let (s, dd, m) = match which {
                    0 => (src + off, dst, meta),
                    1 => (src, dst + off, meta),
                    _ => (src, dst, meta + off),
                };
                let desc = if which == 2 || b.rng.gen_bool(0.5) {
                    compress_desc(engine, s, len as u32, dd, len as u32, m, 0)
                } else {
                    copy_desc(engine, s, len as u32, dd, len as u32)
                };
                let what = ["src", "dst", "meta"][which];
                // Never stop on this one: the chain is meant to go on.
                b.push(
                    with_flags(desc, irq, false),
                    &format!("unaligned {what} (+{off})"),
                    Some(codes::UNALIGNED),
                );
            }
        }
    }
    b.finish()
}

/// Checks the model's outcome against each descriptor's intent; returns the disagreements
/// (a builder bug or a model change).
pub fn check_intents(scn: &Scenario, exp: &Expected) -> Vec<String> {
    let mut out = Vec::new();
    let visited = &exp.outcome.descs;
    for (i, p) in scn.descs.iter().enumerate() {
        match (p.intent, visited.get(i)) {
            (Some(want), Some(o)) => {
                if o.addr != p.addr {
                    out.push(format!(
                        "d{i} ({}): model visited {:#x}, planned {:#x}",
                        p.label, o.addr, p.addr
                    ));
                } else if o.error != want {
                    out.push(format!(
                        "d{i} ({}): intended {}, model says {}",
                        p.label, want.name, o.error.name
                    ));
                }
            }
            (Some(want), None) => out.push(format!(
                "d{i} ({}): intended {} but the model's chain ended before it",
                p.label, want.name
            )),
            (None, Some(o)) => out.push(format!(
                "d{i} ({}): meant not to run but the model visited it ({})",
                p.label, o.error.name
            )),
            (None, None) => {}
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::dma_check::{check_round_trips, merge, writeback_range};
    use crate::dma_faults::relu_data;

    fn engines() -> Vec<EngineConfig> {
        [32, 64, 128]
            .map(|bb| EngineConfig::new(bb).unwrap())
            .to_vec()
    }

    fn tensors(engine: &EngineConfig, seed: u64) -> Vec<Tensor> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let elem = engine.elem();
        let mut v: Vec<Tensor> = (0..4)
            .map(|i| Tensor {
                name: format!("relu{i}"),
                data: relu_data(rng.gen_range(0..3000), elem, &mut rng),
            })
            .collect();
        // A few edge tensors: empty, odd lengths, all zero, incompressible.
        for (name, data) in cdma_model::synthetic::edge_tensors(elem)
            .into_iter()
            .step_by(7)
        {
            v.push(Tensor { name, data });
        }
        v
    }

    /// Layout invariants: no two regions overlap, every non-guard region has guards of at
    /// least 64 bytes on both sides reaching past its beat boundaries, descriptors are
    /// 64-aligned unless meant to be UNALIGNED, data addresses are bus-aligned.
    pub(crate) fn check_layout(scn: &Scenario) {
        let bb = scn.bus_bytes();
        let mut rs: Vec<&Region> = scn.regions.iter().collect();
        rs.sort_by_key(|r| r.range.start);
        for w in rs.windows(2) {
            assert!(
                w[0].range.end <= w[1].range.start,
                "{}: {:?} overlaps {:?}",
                scn.name,
                w[0],
                w[1]
            );
        }
        for r in scn.regions.iter().filter(|r| r.kind != RegionKind::Guard) {
            let before = scn.region_of(r.range.start - 1).expect("guard before");
            let after = scn.region_of(r.range.end).expect("guard after");
            assert_eq!(before.kind, RegionKind::Guard, "{}", r.label);
            assert_eq!(after.kind, RegionKind::Guard, "{}", r.label);
            assert!(
                before.range.start + 64 <= r.range.start & !(bb - 1),
                "{}",
                r.label
            );
            assert!(
                after.range.end >= r.range.end.next_multiple_of(bb) + 64,
                "{}",
                r.label
            );
        }
        for p in &scn.descs {
            if p.intent != Some(codes::UNALIGNED) {
                assert_eq!(p.addr % 64, 0, "{}", p.label);
            }
            let r = scn.region_of(p.addr).expect("descriptor region");
            assert!(r.kind == RegionKind::Descriptor, "{}", p.label);
        }
    }

    /// What the model changed lies in destinations, metadata and status words only — never
    /// in a guard, a source or a descriptor's other fields.
    pub(crate) fn check_model_writes(scn: &Scenario, exp: &Expected) {
        let wbs: Vec<Range<u64>> = exp
            .outcome
            .descs
            .iter()
            .map(|o| writeback_range(o.addr))
            .collect();
        for r in exp.mem.diff(&scn.model_memory()) {
            for a in r {
                if wbs.iter().any(|w| w.contains(&a)) {
                    continue;
                }
                let g = scn.region_of(a).unwrap_or_else(|| {
                    panic!("{}: model wrote {a:#x} outside every region", scn.name)
                });
                assert!(
                    matches!(g.kind, RegionKind::Destination | RegionKind::Metadata),
                    "{}: model wrote {a:#x} in {:?} {}",
                    scn.name,
                    g.kind,
                    g.label
                );
            }
        }
    }

    #[test]
    fn random_chains_are_laid_out_as_planned_and_the_model_agrees() {
        for engine in engines() {
            for seed in 0..6 {
                let ts = tensors(&engine, seed);
                let scn = random_chain("t", &engine, &ts, seed, &RandomOpts::default());
                check_layout(&scn);
                let exp = scn.expect();
                assert_eq!(check_intents(&scn, &exp), Vec::<String>::new());
                assert_eq!(exp.outcome.end, ChainEnd::Completed);
                assert_eq!(exp.outcome.descs.len(), scn.descs.len());
                assert_eq!(scn.round_trips.len(), ts.len());
                assert!(check_round_trips(&scn, &exp.mem).is_empty());
                check_model_writes(&scn, &exp);
                // Successful descriptors only: nothing is unspecified.
                assert!(exp.unspecified.is_empty());
            }
        }
    }

    #[test]
    fn chains_mix_operations_chunk_sizes_capacities_and_unaligned_descriptors() {
        let engine = EngineConfig::default();
        let mut ops = [0usize; 3];
        let mut chunks = std::collections::BTreeSet::new();
        let mut unaligned = 0;
        let mut slack = 0;
        for seed in 0..20 {
            let ts = tensors(&engine, seed);
            let scn = random_chain("t", &engine, &ts, seed, &RandomOpts::default());
            for p in &scn.descs {
                let c = u64::from(p.desc.control);
                ops[d::CTRL_OP.get(c) as usize] += 1;
                if desc_op(&p.desc) == Some(Op::Compress) {
                    chunks.insert(d::CTRL_CHUNK_LOG2.get(c));
                }
                unaligned += usize::from(p.intent == Some(codes::UNALIGNED));
                slack += usize::from(u64::from(p.desc.dst_cap) > u64::from(p.desc.src_len));
            }
        }
        assert!(ops.iter().all(|&n| n > 10), "{ops:?}");
        // 7..=12 and the default code 0.
        assert_eq!(
            chunks.into_iter().collect::<Vec<_>>(),
            vec![0, 7, 8, 9, 10, 11, 12]
        );
        assert!(unaligned > 5 && slack > 10, "{unaligned} {slack}");
    }

    #[test]
    fn a_round_trip_restores_the_original_and_a_broken_one_is_caught() {
        let engine = EngineConfig::default();
        let ts = tensors(&engine, 3);
        let scn = random_chain("t", &engine, &ts, 3, &RandomOpts::default());
        let mut exp = scn.expect();
        assert!(check_round_trips(&scn, &exp.mem).is_empty());
        let rt = scn
            .round_trips
            .iter()
            .find(|r| r.original.end > r.original.start)
            .unwrap();
        let b = exp.mem.peek(rt.restored, 1)[0];
        exp.mem.load(rt.restored, &[b ^ 1]);
        let e = check_round_trips(&scn, &exp.mem);
        assert_eq!(e.len(), 1, "{e:?}");
    }

    #[test]
    fn the_prefix_expectation_cuts_the_chain_and_keeps_next() {
        let engine = EngineConfig::default();
        let ts = tensors(&engine, 9);
        let scn = random_chain("t", &engine, &ts, 9, &RandomOpts::default());
        let n = scn.descs.len();
        assert!(n >= 4);
        let full = scn.expect();
        assert_eq!(scn.expect_prefix(n).outcome, full.outcome);
        assert!(scn.expect_prefix(n).mem.diff(&full.mem).is_empty());
        let p = scn.expect_prefix(2);
        assert_eq!(p.outcome.descs.len(), 2);
        for (a, b) in p.outcome.descs.iter().zip(&full.outcome.descs) {
            assert_eq!(
                (a.addr, a.status_word, a.bytes_written),
                (b.addr, b.status_word, b.bytes_written)
            );
        }
        // `next` of d1 is intact; d2's write-back has not happened.
        let next_at = scn.descs[1].addr + d::NEXT_FIELD.offset as u64;
        assert_eq!(
            p.mem.peek(next_at, 8),
            scn.descs[2].addr.to_le_bytes().to_vec()
        );
        let wb = writeback_range(scn.descs[2].addr);
        assert_eq!(
            p.mem.peek(wb.start, 8),
            scn.model_memory().peek(wb.start, 8)
        );
        assert_eq!(scn.expect_prefix(0).outcome.desc_done, 0);
        assert!(merge(p.unspecified.clone()).is_empty());
    }

    #[test]
    fn corpus_f32_tensors_round_trip_on_the_1024_bit_engine() {
        let corpus = cdma_corpus::Corpus::open_default().expect("bundled corpus");
        let engine = EngineConfig::default();
        let ts: Vec<Tensor> = crate::dma_cases::corpus_tensors(&corpus, &engine)
            .unwrap()
            .into_iter()
            .step_by(29)
            .collect();
        assert!(ts.len() >= 4);
        assert!(
            ts.iter().all(|t| t.name.ends_with("f32")),
            "{:?}",
            ts[0].name
        );
        let scn = random_chain("corpus", &engine, &ts, 1, &RandomOpts::default());
        check_layout(&scn);
        let exp = scn.expect();
        assert_eq!(check_intents(&scn, &exp), Vec::<String>::new());
        assert!(check_round_trips(&scn, &exp.mem).is_empty());
        // Real activations compress.
        let payload: u64 = exp
            .outcome
            .descs
            .iter()
            .filter(|o| desc_op(&o.desc.unwrap()) == Some(Op::Compress))
            .map(|o| u64::from(o.bytes_written))
            .sum();
        assert!(
            payload * 3 / 2 < scn.compress_in,
            "{payload} of {}",
            scn.compress_in
        );
    }
}
