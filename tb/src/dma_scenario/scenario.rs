//! A scenario as data (regions, image, chain, injected errors), what the golden model says it
//! leaves behind, and the check that the model agrees with each descriptor's intent.

use std::ops::Range;

use cdma_model::dma::{
    run_chain, BusError, ChainEnd, ChainOutcome, Descriptor, EngineConfig, ErrorCode, SparseMemory,
};
use cdma_model::ElemWidth;
use cdma_spec::desc as d;

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
    /// The model's memory and outcome after a chain, with the unspecified ranges of all its
    /// descriptors gathered.
    fn new(mem: SparseMemory, outcome: ChainOutcome) -> Expected {
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
        Expected::new(mem, outcome)
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
        Expected::new(mem, outcome)
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

/// A tensor to move: name, element width and bytes (a whole number of its elements).
#[derive(Clone, Debug)]
pub struct Tensor {
    /// Name for labels.
    pub name: String,
    /// Its element width (the descriptors that move it say so).
    pub elem: ElemWidth,
    /// Little-endian element bytes.
    pub data: Vec<u8>,
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
