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

/// The engine configuration of a top by module name (`cdma_dma_top` or `cdma_dma_dw1024`,
/// `cdma_dma_dw512`, `cdma_dma_dw256`, `cdma_dma_dw128`), with the default `CHUNK_LOG2_MAX`.
pub fn engine_of(module: &str) -> Option<EngineConfig> {
    let module = if module == "cdma_dma_dw1024" {
        "cdma_dma_top"
    } else {
        module
    };
    let &(_, bits) = DMA_TOPS.iter().find(|t| t.0 == module)?;
    EngineConfig::new(bits / 8).ok()
}

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
