//! `cdma gen`: emit the Verilog of every top (ZVC blocks and DMA engines) and a JSON manifest
//! of ports and parameters; with `--preset` or `--config`, the self-contained IP package of one
//! configured DMA engine (`cdma_hdl::ip`).

use crate::CliResult;
use cdma_config::EngineConfig;
use std::path::{Path, PathBuf};

/// Arguments of `cdma gen`.
#[derive(clap::Args)]
pub struct Args {
    /// Element width in bits (8, 16 or 32); repeat for several; default: all three.
    #[arg(long = "elem", value_parser = clap::builder::PossibleValuesParser::new(["8", "16", "32"]))]
    elems: Vec<String>,
    /// Output directory (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Write the IP package of this engine preset (docs/CONFIG.md) instead of every top.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["config", "elems"],
          value_parser = clap::builder::PossibleValuesParser::new(EngineConfig::PRESETS))]
    preset: Option<String>,
    /// Write the IP package of the engine this TOML file configures (docs/CONFIG.md).
    #[arg(long, value_name = "FILE", conflicts_with = "elems")]
    config: Option<PathBuf>,
}

/// The IP package of one configured engine (read from `source`, if a file): Verilog, waivers,
/// file list, FuseSoC core, C header, port table and resolved config, all made before
/// anything is written.
fn write_package(cfg: &EngineConfig, source: Option<&Path>, out: &Path) -> CliResult {
    let files = cdma_hdl::ip::package(cfg).map_err(|e| match source {
        Some(path) => e.in_file(path).to_string(),
        None => e.to_string(),
    })?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for (name, text) in files {
        let path = out.join(&name);
        std::fs::write(&path, text)
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Runs `cdma gen`.
pub fn run(a: Args) -> CliResult {
    if let Some(name) = &a.preset {
        let cfg = EngineConfig::preset(name).map_err(|e| e.to_string())?;
        return write_package(&cfg, None, &a.out);
    }
    if let Some(path) = &a.config {
        let cfg = EngineConfig::load(path).map_err(|e| e.to_string())?;
        return write_package(&cfg, Some(path), &a.out);
    }
    let elems = crate::elems_or_all(&a.elems);
    std::fs::create_dir_all(&a.out)
        .map_err(|e| format!("cannot create {}: {e}", a.out.display()))?;
    let mut manifest = Vec::new();
    for e in elems {
        // The ZVC blocks of this element width, then the DMA engine whose datapath runs at
        // it (DW = 32·E).
        let dma = cdma_hdl::dma_tops()
            .into_iter()
            .filter(|t| t.params.iter().any(|(k, v)| k == "E" && *v == u64::from(e)));
        for top in cdma_hdl::tops(e).into_iter().chain(dma) {
            let file = format!("{}.v", top.module);
            let path = a.out.join(&file);
            std::fs::write(&path, &top.verilog)
                .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
            println!("wrote {} ({} ports)", path.display(), top.ports.len());
            manifest.push(serde_json::json!({
                "module": top.module,
                "file": file,
                "elem_bits": e,
                "params": top.params.iter().map(|(k, v)| (k.clone(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
                "ports": top.ports,
            }));
        }
    }
    let path = a.out.join("manifest.json");
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    std::fs::write(&path, text + "\n")
        .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}
