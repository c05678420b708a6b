//! Writes every DMA block, emitted standalone (`cdma_hdl::dma::standalone_blocks`), to
//! `OUTDIR/<module>.v`; lint them with `hdl/lint/check.sh --no-gen OUTDIR`
//! (tests/lint_dma.rs does both).

use std::path::PathBuf;

fn main() {
    let Some(out) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: write_dma_blocks OUTDIR");
        std::process::exit(2);
    };
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("write_dma_blocks: cannot create {}: {e}", out.display());
        std::process::exit(1);
    }
    for b in cdma_hdl::dma::standalone_blocks() {
        let path = out.join(format!("{}.v", b.module));
        if let Err(e) = std::fs::write(&path, &b.verilog) {
            eprintln!("write_dma_blocks: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
        println!("{}", path.display());
    }
}
