//! `cdma fuzz`: a mutation campaign over the golden model's frame decoder (cdma-fuzz): damaged
//! frames cut from the corpus (or synthetic data), each classified detected / benign / silent /
//! panic / hang; a table per kind of damage; failures shrunk and optionally saved.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::progress::Progress;
use cdma_analysis::table::Table;
use cdma_corpus::Corpus;
use cdma_fuzz::seeds::{seed_frames, synthetic_sources, Source};
use cdma_fuzz::{cases, run as run_campaign, Campaign, Class, ModelDecoder, Mutation, Report};
use cdma_model::ElemType;

use crate::CliResult;

/// Arguments of `cdma fuzz`.
#[derive(clap::Args)]
pub struct Args {
    /// Damaged frames to decode.
    #[arg(long, default_value_t = 1_000_000)]
    frames: u64,
    /// Seed of the campaign: the same seed and options give the same cases and counts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core; the counts do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// Well-formed seed frames to damage.
    #[arg(long, default_value_t = 256)]
    seed_frames: usize,
    /// Largest data of a seed frame, in bytes.
    #[arg(long, default_value_t = 16384)]
    max_bytes: usize,
    /// Corpus directory (with manifest.json); default: the bundled data/activations.
    #[arg(long, conflicts_with = "synthetic")]
    corpus: Option<PathBuf>,
    /// Cut the seed frames from synthetic data (edge tensors, ReLU-like floats, random bytes)
    /// instead of a corpus.
    #[arg(long)]
    synthetic: bool,
    /// Seed frames without CRC32C checks (format versions 2 and 3), to measure what the checks
    /// catch: silent corruptions are then counted but not an error. With CRCs (version 4, the
    /// default) a single silent corruption fails the campaign.
    #[arg(long)]
    no_crc: bool,
    /// A decode that takes longer than this many seconds is a hang (the campaign stops).
    #[arg(long, default_value_t = 10)]
    hang_secs: u64,
    /// Also keep (shrink, list, save) cases of these classes: detected, benign, silent
    /// (panics and hangs are always kept).
    #[arg(long, value_name = "CLASS", value_parser = parse_class)]
    keep_class: Vec<Class>,
    /// Cases kept at most.
    #[arg(long, default_value_t = 20)]
    keep: usize,
    /// Save the kept cases here (`.frame` + `.data` each; fuzz/cases is what the tests replay).
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// Random descriptor chains with bad fields to run on the golden DMA model after the
    /// frames (0: none). Chain `i` replays alone from the seed and `i`.
    #[arg(long, default_value_t = 10_000)]
    chains: u64,
}

fn parse_class(s: &str) -> Result<Class, String> {
    Class::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
        format!("unknown class {s:?} (one of {})", names.join(", "))
    })
}

/// The corpus's tensors as sources, each with the element type of its dtype.
fn corpus_sources(dir: PathBuf) -> Result<Vec<Source>, String> {
    let corpus = Corpus::open(&dir).map_err(|e| e.to_string())?;
    corpus
        .entries()
        .iter()
        .map(|e| {
            let ty = ElemType::from_name(e.dtype.name()).ok_or_else(|| {
                format!("{}: dtype {} has no element type", e.name(), e.dtype.name())
            })?;
            Ok(Source {
                name: e.name(),
                ty,
                data: corpus.read(e).map_err(|e| e.to_string())?,
            })
        })
        .collect()
}

/// Runs `cdma fuzz`.
pub fn run(a: Args) -> CliResult {
    if a.frames == 0 || a.seed_frames == 0 || a.max_bytes == 0 {
        return Err("--frames, --seed-frames and --max-bytes must be at least 1".into());
    }
    let (sources, from) = if a.synthetic {
        (synthetic_sources(a.seed), "synthetic data".to_string())
    } else {
        let dir = a.corpus.clone().unwrap_or_else(Corpus::default_dir);
        let from = dir.display().to_string();
        (corpus_sources(dir)?, from)
    };
    if sources.is_empty() {
        return Err(format!("{from}: no tensors to cut seed frames from"));
    }
    let crc = !a.no_crc;
    let seeds = Arc::new(seed_frames(
        &sources,
        a.seed_frames,
        a.max_bytes,
        a.seed,
        crc,
    ));
    let mut failures = vec![Class::Panic, Class::Hang];
    failures.extend(a.keep_class.iter().copied());
    let campaign = Campaign {
        seed: a.seed,
        frames: a.frames,
        threads: a
            .threads
            .unwrap_or_else(|| Campaign::default().threads)
            .max(1),
        hang_after: Duration::from_secs(a.hang_secs.max(1)),
        failures,
        keep: a.keep,
    };
    eprintln!(
        "fuzz: {} damaged frames from {} seed frames of {from} ({}; seed {}, {} threads)",
        a.frames,
        seeds.len(),
        if crc { "version 4, CRC32C" } else { "no CRCs" },
        a.seed,
        campaign.threads
    );
    let bar = Progress::new("fuzz", "frames", a.frames);
    let progress = |n: u64| bar.set(n);
    // Decoder panics are caught and counted; their messages would only flood the log.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let report = run_campaign(Arc::new(ModelDecoder), seeds, &campaign, &progress);
    std::panic::set_hook(hook);
    bar.finish();
    print!("{}", render(&report));
    for o in &report.failures {
        println!(
            "{} case {} ({}, {}): {} bytes",
            o.class.name(),
            o.index,
            o.mutation.name(),
            o.seed_label,
            o.frame.len()
        );
        if let Some(dir) = &a.save {
            let p = cases::save(dir, a.seed, o).map_err(|e| format!("{}: {e}", dir.display()))?;
            println!("  saved {}", p.display());
        }
    }
    let bad = report.count(Class::Panic) + report.count(Class::Hang);
    if bad > 0 {
        return Err(format!(
            "{bad} frames made the decoder panic or hang (replay: --seed {} and the case numbers above)",
            a.seed
        ));
    }
    if a.chains > 0 {
        run_chains(a.chains, a.seed)?;
    }
    let silent = report.count(Class::Silent);
    if crc && silent > 0 {
        return Err(format!(
            "{silent} damaged frames with CRC32C decoded to wrong data without an error \
             (list them: --keep-class silent; replay: --seed {})",
            a.seed
        ));
    }
    Ok(())
}

/// `n` random descriptor chains with bad fields on the golden DMA model: a table of the
/// descriptors' error codes; an error if any chain panics or breaks a rule.
fn run_chains(n: u64, seed: u64) -> CliResult {
    use cdma_fuzz::chains::{check, draw, Verdict};
    let mut codes: std::collections::BTreeMap<(u8, &str), u64> = Default::default();
    let mut bad = Vec::new();
    let tenth = (n / 10).max(1);
    for i in 0..n {
        match check(&draw(seed, i)) {
            Verdict::Pass(errs) => {
                for e in errs {
                    *codes.entry((e.code, e.name)).or_default() += 1;
                }
            }
            other => bad.push((i, other)),
        }
        if (i + 1) % tenth == 0 && i + 1 < n {
            eprintln!("fuzz: {}/{n} descriptor chains", i + 1);
        }
    }
    let mut t = Table::new(vec!["descriptor result".into(), "descriptors".into()]);
    for ((_, name), count) in &codes {
        t.row(vec![(*name).to_string(), count.to_string()]);
    }
    t.rule();
    t.row(vec![
        "total".into(),
        codes.values().sum::<u64>().to_string(),
    ]);
    println!(
        "\n{n} random descriptor chains with bad fields on the golden DMA model (seed {seed}): \
         {} broke a rule or panicked",
        bad.len()
    );
    print!("{}", t.text());
    for (i, v) in bad.iter().take(20) {
        println!("chain {i}: {v:?}");
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} descriptor chains broke a rule or panicked (replay: --seed {seed}, the chain numbers above)",
            bad.len()
        ))
    }
}

/// The counts per kind of damage and class, a total row and the silent share.
fn render(r: &Report) -> String {
    let mut header = vec!["damage".to_string(), "frames".to_string()];
    header.extend(Class::ALL.iter().map(|c| c.name().to_string()));
    header.push("silent %".into());
    let mut t = Table::new(header);
    let row = |name: &str, n: u64, of: &dyn Fn(Class) -> u64| {
        let mut cells = vec![name.to_string(), n.to_string()];
        cells.extend(Class::ALL.iter().map(|&c| of(c).to_string()));
        cells.push(format!(
            "{:.2}",
            100.0 * of(Class::Silent) as f64 / n.max(1) as f64
        ));
        cells
    };
    for m in Mutation::ALL {
        let of = |c: Class| r.counts.get(&(m, c)).copied().unwrap_or(0);
        t.row(row(m.name(), r.of_mutation(m), &of));
    }
    t.rule();
    t.row(row("total", r.frames, &|c| r.count(c)));
    t.text()
}
