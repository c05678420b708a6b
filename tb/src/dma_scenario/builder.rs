//! [`ChainBuilder`]: places regions with guards at random free addresses and links the
//! descriptors of a scenario.

use std::ops::Range;

use cdma_model::dma::{Descriptor, EngineConfig, ErrorCode, Op};
use cdma_model::ElemWidth;
use cdma_spec::desc as d;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::descs::desc_op;
use super::scenario::{PlannedDesc, Region, RegionKind, RoundTrip, Scenario, Segment};
use crate::axi::ErrorRange;

/// Builds a scenario region by region and descriptor by descriptor. Every allocation lands at
/// a random free place of the address window with its own guards.
pub struct ChainBuilder {
    engine: EngineConfig,
    elem: ElemWidth,
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

/// One of the element widths `engine` runs, chosen by `seed` (so the seeds of a regression
/// cover every width).
pub fn seeded_elem(engine: &EngineConfig, seed: u64) -> ElemWidth {
    let widths = engine.elem_widths();
    widths[(seed % widths.len() as u64) as usize]
}

/// The value of memory never written, in every scenario and in the bench's AXI memory
/// (one constant: the bench's memory is built before it sees a scenario). Not 0x00, so a
/// read of unwritten memory does not look like zeros.
pub const FILL: u8 = 0xE5;

/// The default address window: 128 MiB around 4 GiB, so region addresses and bursts cross
/// the 32-bit boundary now and then (HEAD_HI and the upper address bits get exercised).
pub const DEFAULT_WINDOW: Range<u64> = 0xFC00_0000..0x1_0400_0000;

/// The address window of large transfers: 1 GiB from 16 GiB, room for a source and a
/// destination of up to [`MAX_TRANSFER`] bytes each, the metadata and the guards.
pub const LARGE_WINDOW: Range<u64> = 0x4_0000_0000..0x4_4000_0000;

/// The largest transfer (bytes moved by one descriptor) a testbench scenario places:
/// a quarter of [`LARGE_WINDOW`], so its source, its destination and a round trip's
/// second destination always fit with their guards.
pub const MAX_TRANSFER: u64 = (LARGE_WINDOW.end - LARGE_WINDOW.start) / 4;

/// The window for a scenario that moves `bytes` in one descriptor: the default one when a
/// source, two destinations and guards fit in it four times over, else [`LARGE_WINDOW`].
pub fn window_for(bytes: u64) -> Range<u64> {
    if bytes.saturating_mul(16) <= DEFAULT_WINDOW.end - DEFAULT_WINDOW.start {
        DEFAULT_WINDOW
    } else {
        LARGE_WINDOW
    }
}

impl ChainBuilder {
    /// An empty scenario for `engine`, placing everything in `window` (which must be large
    /// enough for what is allocated; allocation panics after many failed tries).
    pub fn new(name: &str, engine: EngineConfig, seed: u64, window: Range<u64>) -> Self {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        ChainBuilder {
            engine,
            elem: seeded_elem(&engine, seed),
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

    /// The element width of the scenario's own data (fault scenarios, COPY filler): one the
    /// engine runs, chosen by the seed ([`seeded_elem`]) unless set with [`Self::set_elem`].
    pub fn elem(&self) -> ElemWidth {
        self.elem
    }

    /// Sets the element width of the scenario's own data (it must be one the engine runs).
    pub fn set_elem(&mut self, elem: ElemWidth) {
        assert!(
            self.engine.supports(elem),
            "{elem:?}: not one of the engine's widths"
        );
        self.elem = elem;
    }

    fn bb(&self) -> u64 {
        u64::from(self.engine.bus_bytes())
    }

    /// Index the next pushed descriptor will get (for labels).
    pub fn next_index(&self) -> usize {
        self.scn.descs.len()
    }

    pub(super) fn random_bytes(&mut self, n: usize) -> Vec<u8> {
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
