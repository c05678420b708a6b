//! `cdma analyze`: ZVC against RL, zlib, lz4 and zstd over the corpus, grouped per layer kind,
//! dtype, training step and layer; SVG plots; the offload-time model (docs/MODEL.md).

use crate::inputs::Inputs;
use crate::CliResult;
use cdma_analysis::analyze::{measure_corpus, tables, to_json, Analysis, LEGEND};
use cdma_analysis::codecs::Codec;
use cdma_analysis::offload::{self, Compute, NetReport};
use cdma_corpus::Dtype;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `cdma analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// Corpus directory (with manifest.json); default: the bundled data/activations.
    #[arg(long)]
    corpus: Option<PathBuf>,
    #[command(flatten)]
    inputs: Inputs,
    /// Write the SVG plots into this directory.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Print JSON (analysis + offload model) on stdout instead of the tables.
    #[arg(long)]
    json: bool,
    /// Also write the tables as markdown to this file.
    #[arg(long)]
    markdown: Option<PathBuf>,
    /// Only tensors whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Also print the per-tensor table.
    #[arg(long)]
    tensors: bool,
    /// Link bandwidth of the offload model, in GB/s (10^9 bytes/s); default PCIe 3.0 x16.
    #[arg(long, default_value_t = offload::DEFAULT_LINK_GBPS)]
    link_gbps: f64,
    /// Sustained compute throughput for FLOP-derived layer times, in TFLOP/s.
    #[arg(long, default_value_t = offload::DEFAULT_TFLOPS)]
    tflops: f64,
    /// Per-layer compute times instead of FLOPs: lines `net layer forward_ms backward_ms`.
    #[arg(long)]
    compute: Option<PathBuf>,
}

/// The offload model for every codec (ZVC first), or an error.
fn model(a: &Analysis, args: &Args) -> Result<(Vec<NetReport>, Compute, f64), String> {
    if !(args.link_gbps.is_finite() && args.link_gbps > 0.0) {
        return Err(format!(
            "--link-gbps must be positive, not {}",
            args.link_gbps
        ));
    }
    let compute = match &args.compute {
        Some(p) => Compute::File(offload::read_compute_file(p)?),
        None if args.tflops.is_finite() && args.tflops > 0.0 => Compute::Flops(args.tflops * 1e12),
        None => return Err(format!("--tflops must be positive, not {}", args.tflops)),
    };
    let link = args.link_gbps * 1e9;
    let built = offload::layer_shapes(&a.tensors).and_then(|shapes| {
        let mut all = Vec::new();
        for c in Codec::ALL {
            all.extend(offload::model_nets(
                &a.by_layer,
                &shapes,
                c,
                &compute,
                link,
            )?);
        }
        Ok(all)
    });
    match built {
        Ok(all) => Ok((all, compute, link)),
        // Without a compute file the model needs a known network; an unknown one must not
        // stop the codec analysis, only the model.
        Err(e) if args.compute.is_none() => {
            eprintln!("cdma: offload model skipped: {e}");
            Ok((Vec::new(), compute, link))
        }
        Err(e) => Err(e),
    }
}

fn compute_note(compute: &Compute, link: f64) -> String {
    let src = match compute {
        Compute::Flops(r) => format!(
            "compute from FLOPs at {:.1} TFLOP/s, backward = {}x forward",
            r / 1e12,
            offload::BACKWARD_FACTOR
        ),
        Compute::File(_) => "compute times from --compute file".to_string(),
    };
    format!(
        "link {:.1} GB/s, {src}; every captured activation offloaded in the forward pass and \
         prefetched in the backward pass (docs/MODEL.md)",
        link / 1e9
    )
}

/// Runs `cdma analyze`.
pub fn run(args: Args) -> CliResult {
    let corpus = args.inputs.open(args.corpus.as_deref())?;
    let rows = measure_corpus(&corpus, args.filter.as_deref())?;
    if rows.is_empty() {
        return Err("no tensor matches".into());
    }
    let a = Analysis::new(rows);
    let (reports, compute, link) = model(&a, &args)?;
    let zvc: Vec<NetReport> = reports
        .iter()
        .filter(|r| r.codec == Codec::Zvc)
        .cloned()
        .collect();

    let mut svgs = Vec::new();
    if let Some(d) = &args.svg {
        svgs = cdma_analysis::plot::write_all(&a, d)?;
    }
    if args.json {
        let mut j = to_json(&a);
        j["offload"] = offload::to_json(&reports, link, &compute);
        println!(
            "{}",
            serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?
        );
    } else {
        println!(
            "analyze: {} tensors from {} ({:.2} MiB)\n",
            a.tensors.len(),
            args.inputs.describe(args.corpus.as_deref()),
            a.total.raw_bytes as f64 / (1u64 << 20) as f64
        );
        for (title, t) in tables(&a, args.tensors) {
            println!("{title}:\n{}", t.text());
        }
        println!("{LEGEND}\n");
        if !zvc.is_empty() {
            println!(
                "Offload model, ZVC (cDMA) vs uncompressed (vDNN):\n{}",
                offload::summary_table(&zvc).text()
            );
            println!("Speedup over vDNN if each codec ran at link rate in the engine (only ZVC is built):\n{}", offload::codec_table(&reports).text());
            for r in zvc.iter().filter(|r| r.dtype == Dtype::F32) {
                println!(
                    "{} f32, per activation:\n{}",
                    r.net,
                    offload::layer_table(r, link).text()
                );
            }
            println!("({})", compute_note(&compute, link));
        }
        for p in &svgs {
            println!("wrote {}", p.display());
        }
    }
    if let Some(p) = &args.markdown {
        std::fs::write(p, markdown(&a, &zvc, &reports, &compute, link))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        if !args.json {
            println!("wrote {}", p.display());
        }
    }
    Ok(())
}

fn markdown(
    a: &Analysis,
    zvc: &[NetReport],
    all: &[NetReport],
    compute: &Compute,
    link: f64,
) -> String {
    let mut s = format!(
        "# cdma analyze\n\n{} tensors, {:.2} MiB. {LEGEND}\n\n",
        a.tensors.len(),
        a.total.raw_bytes as f64 / (1u64 << 20) as f64
    );
    for (title, t) in tables(a, true) {
        let _ = write!(s, "## {title}\n\n{}\n", t.markdown());
    }
    if !zvc.is_empty() {
        let _ = write!(
            s,
            "## Offload model\n\n{}.\n\n{}\n### Speedup over vDNN per codec (if each ran at link rate; only ZVC is built)\n\n{}\n",
            compute_note(compute, link),
            offload::summary_table(zvc).markdown(),
            offload::codec_table(all).markdown()
        );
        for r in zvc.iter().filter(|r| r.dtype == Dtype::F32) {
            let _ = write!(
                s,
                "### {} f32, per activation\n\n{}\n",
                r.net,
                offload::layer_table(r, link).markdown()
            );
        }
    }
    s
}
