//! [`EngineConfig`]: the generation parameters of one engine that change what it accepts.

use cdma_spec::csr;

use crate::layout;
use crate::ElemWidth;

/// An engine configuration could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The bus width is not one of the generated configurations.
    #[error("bus width of {bus_bytes} bytes is not supported (32, 64 or 128)")]
    BusBytes {
        /// The rejected width.
        bus_bytes: u32,
    },
    /// CHUNK_LOG2_MAX outside what the format allows.
    #[error("chunk_log2_max {value} is outside 7..=24")]
    ChunkLog2Max {
        /// The rejected value.
        value: u8,
    },
}

/// The generation parameters of one engine that change what it accepts (docs/ARCHITECTURE.md
/// "DMA engine"); the others (`READS_IN_FLIGHT`, `WR_BURST_MAX`) only change timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    bus_bytes: u32,
    chunk_log2_max: u8,
    desc_limit: usize,
}

impl Default for EngineConfig {
    /// The default `cdma_dma_top`: 1024-bit bus (E = 32), 4 KiB chunks.
    fn default() -> EngineConfig {
        EngineConfig {
            bus_bytes: 128,
            chunk_log2_max: 12,
            desc_limit: 1 << 16,
        }
    }
}

impl EngineConfig {
    /// The engine with a `bus_bytes`-byte data bus (32, 64 or 128) and the default
    /// `CHUNK_LOG2_MAX` (12). There is no chunk-count limit: the engine streams the index.
    pub fn new(bus_bytes: u32) -> Result<EngineConfig, ConfigError> {
        if ![32, 64, 128].contains(&bus_bytes) {
            return Err(ConfigError::BusBytes { bus_bytes });
        }
        Ok(EngineConfig {
            bus_bytes,
            ..EngineConfig::default()
        })
    }

    /// Sets `CHUNK_LOG2_MAX`, the largest chunk the engine's buffers hold (7..=24).
    pub fn with_chunk_log2_max(mut self, value: u8) -> Result<EngineConfig, ConfigError> {
        if !(layout::CHUNK_LOG2_MIN..=layout::CHUNK_LOG2_MAX).contains(&value) {
            return Err(ConfigError::ChunkLog2Max { value });
        }
        self.chunk_log2_max = value;
        Ok(self)
    }

    /// Sets how many descriptors [`run_chain`](super::run_chain) visits before it gives up on a chain (the RTL
    /// has no such limit: a chain that loops runs until it is aborted). Default 65536.
    pub fn with_desc_limit(mut self, n: usize) -> EngineConfig {
        self.desc_limit = n;
        self
    }

    /// How many descriptors [`run_chain`](super::run_chain) visits at most.
    pub(super) fn desc_limit(&self) -> usize {
        self.desc_limit
    }

    /// Data bus width in bytes (`BB`).
    pub fn bus_bytes(&self) -> u32 {
        self.bus_bytes
    }

    /// `CHUNK_LOG2_MAX`.
    pub fn chunk_log2_max(&self) -> u8 {
        self.chunk_log2_max
    }

    /// Element width of the datapath, `E = 8·BB/32` bits: one beat is one 32-element block.
    pub fn elem_bits(&self) -> u32 {
        self.bus_bytes * 8 / 32
    }

    /// [`EngineConfig::elem_bits`] as an [`ElemWidth`].
    pub fn elem(&self) -> ElemWidth {
        ElemWidth::from_bits(self.elem_bits()).expect("bus width checked")
    }

    /// The HWCFG register value (`reads_in_flight` is a timing parameter the model does not
    /// know; it is given).
    pub fn hwcfg(&self, reads_in_flight: u8) -> u32 {
        let w = csr::HWCFG_BUS_LOG2.set(0, u64::from(self.bus_bytes.trailing_zeros()));
        let w = csr::HWCFG_ELEM_BITS.set(w, u64::from(self.elem_bits()));
        let w = csr::HWCFG_CHUNK_LOG2_MAX.set(w, u64::from(self.chunk_log2_max));
        csr::HWCFG_READS_IN_FLIGHT.set(w, u64::from(reads_in_flight)) as u32
    }
}
