//! Writes every generated top to `OUTDIR/<module>.v` plus `OUTDIR/manifest.json` (used by
//! hdl/lint/check.sh; the `cdma gen` CLI does the same for users).

use std::path::PathBuf;

fn main() {
    let Some(out) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: write_tops OUTDIR");
        std::process::exit(2);
    };
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("write_tops: cannot create {}: {e}", out.display());
        std::process::exit(1);
    }
    let tops = cdma_hdl::all_tops();
    for t in &tops {
        let path = out.join(format!("{}.v", t.module));
        if let Err(e) = std::fs::write(&path, &t.verilog) {
            eprintln!("write_tops: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
        println!("{}", path.display());
    }
    let manifest = serde_json::to_string_pretty(
        &tops
            .iter()
            .map(|t| serde_json::json!({"module": t.module, "ports": t.ports, "params": t.params}))
            .collect::<Vec<_>>(),
    )
    .expect("manifest serialises");
    if let Err(e) = std::fs::write(out.join("manifest.json"), manifest) {
        eprintln!("write_tops: cannot write manifest: {e}");
        std::process::exit(1);
    }
}
