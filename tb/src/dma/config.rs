//! Which DMA tops exist and how a bench around one is set up.

use crate::axi::AxiMemConfig;
use crate::axil::LiteConfig;
use crate::dma_scenario::FILL;
use cdma_model::dma::EngineConfig;

/// The default engine top (DW = 1024, every element width).
pub const TOP: &str = "cdma_dma_top";

/// Every DMA engine top the generator emits, widest bus first: (module, bus bits). Each runs
/// every element width. `cdma regress` runs them all by default.
pub const DMA_TOPS: [(&str, u32); 4] = [
    ("cdma_dma_top", 1024),
    ("cdma_dma_dw512", 512),
    ("cdma_dma_dw256", 256),
    ("cdma_dma_dw128", 128),
];

/// The engine configuration of a Verilated DMA top, from the generation parameters it was
/// built with (`DW`, `ELEM_MASK`, `CODEC_MASK`, `CHUNK_LOG2_MAX`): every top of [`DMA_TOPS`] and any engine
/// Verilated from a config file (`CDMA_SIM_CONFIGS`). `cdma_dma_dw1024` names `cdma_dma_top`.
/// `None` if `module` is not a Verilated DMA top.
pub fn engine_of(module: &str) -> Option<EngineConfig> {
    let module = if module == "cdma_dma_dw1024" {
        "cdma_dma_top"
    } else {
        module
    };
    let top = cdma_sim::TOPS.iter().find(|t| t.module == module)?;
    let param = |name: &str| top.params.iter().find(|p| p.0 == name).map(|p| p.1);
    let (dw, mask, cl) = (param("DW")?, param("ELEM_MASK")?, param("CHUNK_LOG2_MAX")?);
    let codecs = param("CODEC_MASK")?;
    let (bus, mask, cl) = (
        u32::try_from(dw / 8).ok()?,
        u8::try_from(mask).ok()?,
        u8::try_from(cl).ok()?,
    );
    let zvcx = codecs >> cdma_spec::desc::DESC_CODEC_ZVCX & 1 == 1;
    Some(
        EngineConfig::new(bus)
            .ok()?
            .with_elem_mask(mask)
            .ok()?
            .with_chunk_log2_max(cl)
            .ok()?
            .with_zvcx(zvcx),
    )
}

/// The configured engines Verilated into this build beside [`DMA_TOPS`] (from config files,
/// `CDMA_SIM_CONFIGS`; .cargo/config.toml names the bundled matrix entry): (module, bus
/// bits).
pub fn configured_tops() -> Vec<(&'static str, u32)> {
    cdma_sim::TOPS
        .iter()
        .filter(|t| DMA_TOPS.iter().all(|d| d.0 != t.module))
        .filter_map(|t| Some((t.module, engine_of(t.module)?.bus_bytes() * 8)))
        .collect()
}

/// The bundled configured engine (data/configs/dw512_e16_32.toml: 512 bits, 16- and 32-bit
/// elements), which the tests require.
pub const MATRIX_CONFIG_TOP: &str = "cdma_cfg_dw512_e16_32";

/// The bundled configured engine with ZVC-X (data/configs/dw128_zvcx.toml: 128 bits, every
/// element width, ZVC and ZVC-X), which the tests require.
pub const ZVCX_CONFIG_TOP: &str = "cdma_cfg_dw128_zvcx";

/// Whether `module` was Verilated into this build (`cdma_sim::TOPS`).
pub fn top_available(module: &str) -> bool {
    cdma_sim::TOPS.iter().any(|t| t.module == module)
}

/// Bench settings.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The AXI memory (its `fill` must be [`FILL`]).
    pub mem: AxiMemConfig,
    /// The AXI-Lite master.
    pub lite: LiteConfig,
    /// Cycles between STATUS polls while waiting for the chain.
    pub poll_every: u64,
    /// Total cycle budget of one chain.
    pub limit: u64,
    /// Cycles without any m_axi handshake before the run is declared hung.
    pub idle_limit: u64,
    /// Cycle budget of one CSR access.
    pub csr_limit: u64,
    /// Cycles `rst` is held.
    pub reset_cycles: u32,
}

impl BenchConfig {
    /// Random latency and backpressure on m_axi (`AxiMemConfig::random`), random AXI-Lite
    /// delays.
    pub fn random(data_bits: u32, seed: u64) -> Self {
        BenchConfig {
            mem: AxiMemConfig {
                fill: FILL,
                ..AxiMemConfig::random(data_bits, seed)
            },
            lite: LiteConfig::random(seed ^ 0x5A5A, 0.3),
            poll_every: 64,
            limit: 20_000_000,
            idle_limit: 20_000,
            csr_limit: 2_000,
            reset_cycles: 5,
        }
    }

    /// Fixed latency, no backpressure anywhere (throughput).
    pub fn fixed(data_bits: u32, latency: u32) -> Self {
        BenchConfig {
            mem: AxiMemConfig {
                fill: FILL,
                ..AxiMemConfig::fixed(data_bits, latency)
            },
            lite: LiteConfig::always(),
            poll_every: 256,
            ..Self::random(data_bits, 0)
        }
    }
}

/// docs/DESCRIPTORS.md "Abort": the cycles `module` may take from the abort write to idle on
/// a memory with `mem`'s worst latencies, `2 + max(L_R + R·P, 2·W + L_B, T_dp) + (2·Q + 4 +
/// L_B) + 4` with `T_dp` = 16. Under random stalls each beat term is stretched by
/// `ceil(2 / (1 − p))` for the highest stall probability `p` (twice the mean cost of a beat,
/// a margin no run of this bench's length exceeds). None if `module` is not a Verilated DMA
/// top.
pub fn abort_bound(module: &str, mem: &AxiMemConfig) -> Option<u64> {
    let top = cdma_sim::TOPS.iter().find(|t| t.module == module)?;
    let param = |name: &str| top.params.iter().find(|p| p.0 == name).map(|p| p.1);
    let bb = param("DW")? / 8;
    let (r, w) = (param("READS_IN_FLIGHT")?, param("WR_BURST_MAX")?);
    let (p, q) = (4096 / bb, bb / 4);
    let s = &mem.stalls;
    let worst = [s.ar, s.aw, s.w, s.r, s.b].into_iter().fold(0.0, f64::max);
    let stretch = if worst > 0.0 {
        (2.0 / (1.0 - worst)).ceil() as u64
    } else {
        1
    };
    let (lr, lb) = (
        u64::from(mem.read_latency.1),
        u64::from(mem.write_latency.1),
    );
    let drain = (lr + stretch * r * p).max(stretch * 2 * w + lb).max(16);
    Some(2 + drain + (stretch * 2 * q + 4 + lb) + 4)
}
