//! One engine's generation parameters: the TOML config file of `cdma gen` (issue 13).
//!
//! [`EngineConfig`] is what the RTL generator needs to build one compressing-DMA engine: bus
//! widths, element widths, outstanding reads, burst length, the largest chunk it buffers and
//! the Verilog module name. It comes from a preset ([`EngineConfig::preset`], today's three
//! engines) or a TOML file ([`EngineConfig::load`], [`EngineConfig::from_toml`]); every field
//! but `data_width` has a default. docs/CONFIG.md documents each field; tests check that its
//! example parses and that its preset table matches [`EngineConfig::preset`].
//!
//! This crate checks what the frame format and the engine's interfaces allow
//! ([`EngineConfig::validate`]); which of those combinations the RTL generator can build today
//! is checked by the generator.
//!
//! ```
//! use cdma_config::EngineConfig;
//!
//! let c = EngineConfig::from_toml("data_width = 512\nelem_widths = [32, 16]")?;
//! assert_eq!((c.bus_bytes(), c.elem_widths.as_slice()), (64, [16, 32].as_slice()));
//! assert_eq!(c.module_prefix, "cdma_dma"); // a default
//! assert_eq!(EngineConfig::from_toml(&c.to_toml())?, c);
//!
//! let e = EngineConfig::from_toml("data_width = 384").unwrap_err();
//! assert_eq!(e.field.as_deref(), Some("data_width"));
//! assert_eq!(e.to_string(), "config field `data_width`: 384 is not one of 128, 256, 512, 1024");
//! # Ok::<(), cdma_config::ConfigError>(())
//! ```
#![warn(missing_docs)]

mod error;
mod keywords;
mod validate;

pub use error::ConfigError;

use std::path::Path;

/// The `codecs` name of ZVC (every engine runs it).
pub const CODEC_ZVC: &str = "zvc";
/// The `codecs` name of ZVC-X.
pub const CODEC_ZVCX: &str = "zvcx";

/// One engine's generation parameters.
///
/// Built by [`EngineConfig::preset`], [`EngineConfig::from_toml`] or [`EngineConfig::load`],
/// which validate it and keep `elem_widths` sorted ascending; a value built by hand should be
/// checked with [`EngineConfig::validate`]. docs/CONFIG.md describes what each field changes
/// in the hardware.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    /// AXI data bus width in bits: 128, 256, 512 or 1024. Required in a config file.
    pub data_width: u32,
    /// Element widths in bits the codec handles: a non-empty subset of {8, 16, 32} without
    /// duplicates. Default `[8, 16, 32]`.
    #[serde(default = "default_elem_widths")]
    pub elem_widths: Vec<u32>,
    /// Codecs COMPRESS and DECOMPRESS run: `"zvc"` (always; the paper's zero-value
    /// compression) and optionally `"zvcx"` (the float-aware ZVC-X block codec, about twice
    /// the datapath's area). Default `["zvc"]`.
    #[serde(default = "default_codecs")]
    pub codecs: Vec<String>,
    /// AXI address width in bits, 32..=64. Default 64.
    #[serde(default = "default_addr_width")]
    pub addr_width: u32,
    /// AXI ID width in bits, 1..=16. Default 1.
    #[serde(default = "default_id_width")]
    pub id_width: u32,
    /// Read bursts the AXI read master keeps outstanding, 1..=16. Default 8.
    #[serde(default = "default_reads_in_flight")]
    pub reads_in_flight: u32,
    /// Longest AXI write burst in beats: a power of two in 1..=256 whose bytes
    /// (`bus_bytes() * max_burst_beats`) fit in 4096, so no burst crosses 4 KiB. Default 16.
    #[serde(default = "default_max_burst_beats")]
    pub max_burst_beats: u32,
    /// log2 of the largest chunk in bytes the engine buffers: 7..=24 (the frame format's
    /// limit) and at least log2(`bus_bytes()`). Default 12 (4 KiB).
    #[serde(default = "default_chunk_log2_max")]
    pub chunk_log2_max: u32,
    /// Name of the Verilog top module and prefix of every sub-module: a Verilog identifier
    /// (`[A-Za-z_][A-Za-z0-9_]*`) of at most 64 characters that is not a keyword.
    /// Default `"cdma_dma"`.
    #[serde(default = "default_module_prefix")]
    pub module_prefix: String,
}

fn default_elem_widths() -> Vec<u32> {
    vec![8, 16, 32]
}
fn default_codecs() -> Vec<String> {
    vec![CODEC_ZVC.to_string()]
}
fn default_addr_width() -> u32 {
    64
}
fn default_id_width() -> u32 {
    1
}
fn default_reads_in_flight() -> u32 {
    8
}
fn default_max_burst_beats() -> u32 {
    16
}
fn default_chunk_log2_max() -> u32 {
    12
}
fn default_module_prefix() -> String {
    "cdma_dma".to_string()
}

impl EngineConfig {
    /// The preset names, in the order docs/CONFIG.md lists them: the four built-in engines.
    pub const PRESETS: [&'static str; 4] = ["dw1024", "dw512", "dw256", "dw128"];

    /// The preset called `name` (one of [`EngineConfig::PRESETS`]): `dw1024` is the 1024-bit
    /// engine (`cdma_dma_top`), `dw512` the 512-bit one (`cdma_dma_dw512`), `dw256` the
    /// 256-bit one (`cdma_dma_dw256`), `dw128` the 128-bit one (`cdma_dma_dw128`), each for
    /// every element width; every other field takes
    /// its default. An unknown name is an error listing the presets.
    pub fn preset(name: &str) -> Result<EngineConfig, ConfigError> {
        let (data_width, module_prefix) = match name {
            "dw1024" => (1024, "cdma_dma_top"),
            "dw512" => (512, "cdma_dma_dw512"),
            "dw256" => (256, "cdma_dma_dw256"),
            "dw128" => (128, "cdma_dma_dw128"),
            _ => {
                return Err(ConfigError::other(format!(
                    "config preset `{name}` is unknown; the presets are {}",
                    Self::PRESETS.join(", ")
                )))
            }
        };
        Ok(EngineConfig {
            data_width,
            elem_widths: default_elem_widths(),
            codecs: default_codecs(),
            addr_width: default_addr_width(),
            id_width: default_id_width(),
            reads_in_flight: default_reads_in_flight(),
            max_burst_beats: default_max_burst_beats(),
            chunk_log2_max: default_chunk_log2_max(),
            module_prefix: module_prefix.to_string(),
        })
    }

    /// Parses a config from TOML text: top-level `key = value` pairs, one per field. A missing
    /// field takes its default except `data_width`, which is required; an unknown field is an
    /// error naming it. The result is validated ([`EngineConfig::validate`]) and its
    /// `elem_widths` sorted ascending.
    pub fn from_toml(text: &str) -> Result<EngineConfig, ConfigError> {
        let mut config: EngineConfig =
            toml::from_str(text).map_err(|e| ConfigError::from_toml(&e, text))?;
        config.validate()?;
        config.elem_widths.sort_unstable();
        config.codecs.sort_unstable();
        Ok(config)
    }

    /// Reads and parses the config file at `path` (as [`EngineConfig::from_toml`]); every
    /// error, including a file that cannot be read, names the file.
    pub fn load(path: &Path) -> Result<EngineConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            ConfigError::other(format!("config file {}: cannot read: {e}", path.display()))
        })?;
        Self::from_toml(&text).map_err(|e| e.in_file(path))
    }

    /// Checks every field against what the frame format and the engine's interfaces allow;
    /// the first violation is returned, naming the field and its allowed values.
    pub fn validate(&self) -> Result<(), ConfigError> {
        validate::validate(self)
    }

    /// The config as TOML with every field written (the resolved config, defaults included),
    /// in declaration order; [`EngineConfig::from_toml`] reads it back to an equal value.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("an EngineConfig is always representable in TOML")
    }

    /// The engine runs the ZVC-X codec (`codecs` names `"zvcx"`).
    pub fn has_zvcx(&self) -> bool {
        self.codecs.iter().any(|c| c == CODEC_ZVCX)
    }

    /// Bytes per data beat: `data_width / 8`.
    pub fn bus_bytes(&self) -> u32 {
        self.data_width / 8
    }
}
