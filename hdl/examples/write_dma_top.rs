//! Writes one DMA engine top (`write_dma_top DW OUTDIR`): `OUTDIR/<module>.v`, for quick lint
//! runs without generating every top.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dw), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: write_dma_top DW OUTDIR");
        std::process::exit(2);
    };
    let dw: usize = dw.parse().expect("DW: 256, 512 or 1024");
    let module = if dw == 1024 {
        "cdma_dma_top".to_owned()
    } else {
        format!("cdma_dma_dw{dw}")
    };
    let t = cdma_hdl::dma::dma_top(dw, &module);
    std::fs::create_dir_all(out).expect("create OUTDIR");
    let path = std::path::Path::new(out).join(format!("{module}.v"));
    std::fs::write(&path, &t.verilog).expect("write top");
    println!("{}", path.display());
}
