//! `cdma gen`: emit the Verilog of every top (ZVC blocks and DMA engines) and a JSON manifest of ports and parameters.

use crate::CliResult;
use std::path::PathBuf;

/// Arguments of `cdma gen`.
#[derive(clap::Args)]
pub struct Args {
    /// Element width in bits (8, 16 or 32); repeat for several; default: all three.
    #[arg(long = "elem", value_parser = clap::builder::PossibleValuesParser::new(["8", "16", "32"]))]
    elems: Vec<String>,
    /// Output directory (created if missing).
    #[arg(long)]
    out: PathBuf,
}

/// Runs `cdma gen`.
pub fn run(a: Args) -> CliResult {
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
