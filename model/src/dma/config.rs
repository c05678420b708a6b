//! [`EngineConfig`]: the generation parameters of one engine that change what it accepts.

use cdma_spec::csr;

use cdma_spec::desc;

use crate::layout;
use crate::ElemWidth;

/// The HWCFG `elem_mask` of `widths`: bit `c` for the descriptor element code `c`.
fn mask_of(widths: &[ElemWidth]) -> u8 {
    let bits: Vec<u32> = widths.iter().map(|e| e.bits()).collect();
    desc::elem_mask_of(&bits).expect("every element width has a code")
}

/// An engine configuration could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The bus width is not one of the generated configurations.
    #[error("bus width of {bus_bytes} bytes is not supported (16, 32, 64 or 128)")]
    BusBytes {
        /// The rejected width.
        bus_bytes: u32,
    },
    /// No element width: an engine compresses at least one.
    #[error("an engine needs at least one element width")]
    NoElemWidth,
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
    /// Bit `c` set iff the descriptor element code `c` runs (HWCFG `elem_mask`).
    elem_mask: u8,
    chunk_log2_max: u8,
    desc_limit: usize,
    /// Whether the engine has the ZVC-X codec (descriptor `codec` 1, version 3 frames of
    /// codec 2); without it those are UNSUPPORTED.
    zvcx: bool,
    /// Whether the engine computes and checks CRC32C (HWCFG `crc`): COMPRESS writes version
    /// 4 frames unless the descriptor says `no_crc`, DECOMPRESS checks them; without it both
    /// are UNSUPPORTED.
    crc: bool,
}

impl Default for EngineConfig {
    /// The default `cdma_dma_top`: 1024-bit bus, every element width, 4 KiB chunks, CRC32C.
    fn default() -> EngineConfig {
        EngineConfig {
            bus_bytes: 128,
            elem_mask: mask_of(&ElemWidth::ALL),
            chunk_log2_max: 12,
            desc_limit: 1 << 16,
            zvcx: false,
            crc: true,
        }
    }
}

impl EngineConfig {
    /// The engine with a `bus_bytes`-byte data bus (16, 32, 64 or 128), every element width
    /// and the default `CHUNK_LOG2_MAX` (12). There is no chunk-count limit: the engine
    /// streams the index.
    pub fn new(bus_bytes: u32) -> Result<EngineConfig, ConfigError> {
        if ![16, 32, 64, 128].contains(&bus_bytes) {
            return Err(ConfigError::BusBytes { bus_bytes });
        }
        Ok(EngineConfig {
            bus_bytes,
            ..EngineConfig::default()
        })
    }

    /// Sets the element widths the engine compresses (COMPRESS / DECOMPRESS descriptors of
    /// any other width end UNSUPPORTED; COPY takes every width).
    pub fn with_elem_widths(mut self, widths: &[ElemWidth]) -> Result<EngineConfig, ConfigError> {
        if widths.is_empty() {
            return Err(ConfigError::NoElemWidth);
        }
        self.elem_mask = mask_of(widths);
        Ok(self)
    }

    /// Sets the element widths from an HWCFG `elem_mask` (bit `c` for the descriptor element
    /// code `c`; bits above the three codes are refused as no width).
    pub fn with_elem_mask(self, mask: u8) -> Result<EngineConfig, ConfigError> {
        let widths: Vec<ElemWidth> = desc::elem_widths_of(mask)
            .into_iter()
            .map(|bits| ElemWidth::from_bits(bits).expect("the codes are widths"))
            .collect();
        if u64::from(mask) >> desc::ELEM_CODES.len() != 0 {
            return Err(ConfigError::NoElemWidth);
        }
        self.with_elem_widths(&widths)
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

    /// Sets whether the engine has the ZVC-X codec (default: no; COMPRESS descriptors asking
    /// for it and DECOMPRESS of ZVC-X frames then end UNSUPPORTED).
    pub fn with_zvcx(mut self, zvcx: bool) -> EngineConfig {
        self.zvcx = zvcx;
        self
    }

    /// Sets whether the engine computes and checks CRC32C (default: yes).
    pub fn with_crc(mut self, crc: bool) -> EngineConfig {
        self.crc = crc;
        self
    }

    /// Whether the engine computes and checks CRC32C (HWCFG `crc`).
    pub fn has_crc(&self) -> bool {
        self.crc
    }

    /// Whether the engine has the ZVC-X codec.
    pub fn has_zvcx(&self) -> bool {
        self.zvcx
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

    /// Whether COMPRESS and DECOMPRESS run with elements of width `elem`.
    pub fn supports(&self, elem: ElemWidth) -> bool {
        self.elem_mask & mask_of(&[elem]) != 0
    }

    /// The element widths the engine compresses, narrowest first.
    pub fn elem_widths(&self) -> Vec<ElemWidth> {
        ElemWidth::ALL
            .into_iter()
            .filter(|&e| self.supports(e))
            .collect()
    }

    /// HWCFG `codec_mask`: bit `c` set iff the descriptor codec code `c` runs (ZVC always,
    /// ZVC-X iff the engine has it).
    pub fn codec_mask(&self) -> u8 {
        let zvcx = if self.zvcx {
            1 << desc::DESC_CODEC_ZVCX
        } else {
            0
        };
        (1 << desc::DESC_CODEC_ZVC) | zvcx
    }

    /// HWCFG `elem_mask`: bit `c` set iff the descriptor element code `c` runs.
    pub fn elem_mask(&self) -> u8 {
        self.elem_mask
    }

    /// The HWCFG register value (`reads_in_flight` is a timing parameter the model does not
    /// know; it is given).
    pub fn hwcfg(&self, reads_in_flight: u8) -> u32 {
        let w = csr::HWCFG_BUS_LOG2.set(0, u64::from(self.bus_bytes.trailing_zeros()));
        let w = csr::HWCFG_CRC.set(w, u64::from(self.crc));
        let w = csr::HWCFG_ELEM_MASK.set(w, u64::from(self.elem_mask));
        let w = csr::HWCFG_CODEC_MASK.set(w, u64::from(self.codec_mask()));
        let w = csr::HWCFG_CHUNK_LOG2_MAX.set(w, u64::from(self.chunk_log2_max));
        csr::HWCFG_READS_IN_FLIGHT.set(w, u64::from(reads_in_flight)) as u32
    }
}
