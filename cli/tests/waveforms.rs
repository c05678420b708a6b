//! `cdma sim --vcd/--fst` with a trace window: the waveform holds the window's cycles only
//! and is readable (the FST by an independent reader, `fst-reader`); bad windows are refused.

mod common;

use common::{cdma, cdma_ok, text};
use std::path::{Path, PathBuf};

/// A fresh directory with a small raw f32 tensor (half zeros, so the blocks vary).
fn setup(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("cdma-waves-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data: Vec<u8> = (0..4096u32)
        .flat_map(|i| if i % 3 == 0 { 0.0f32 } else { i as f32 }.to_le_bytes())
        .collect();
    let input = dir.join("t.raw");
    std::fs::write(&input, data).unwrap();
    (dir, input)
}

/// The FST's time table and number of signals.
fn read_fst(path: &Path) -> (Vec<u64>, usize) {
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut r = fst_reader::FstReader::open_and_read_time_table(f)
        .unwrap_or_else(|e| panic!("{} is not a readable FST: {e:?}", path.display()));
    let times = r.get_time_table().unwrap().to_vec();
    let mut vars = 0;
    r.read_hierarchy(|e| {
        if matches!(e, fst_reader::FstHierarchyEntry::Var { .. }) {
            vars += 1;
        }
    })
    .unwrap();
    (times, vars)
}

#[test]
fn compressor_fst_window_is_readable_and_holds_the_window() {
    let (dir, input) = setup("fst");
    let fst = dir.join("w.fst");
    let out = cdma_ok(&[
        "sim",
        "--block",
        "compressor",
        "--input",
        input.to_str().unwrap(),
        "--fst",
        fst.to_str().unwrap(),
        "--trace-from",
        "10",
        "--trace-to",
        "50",
    ]);
    assert!(out.contains("bit-exact"), "{out}");
    assert!(
        out.contains(&format!("waveform: {} (cycles 10..=50)", fst.display())),
        "{out}"
    );
    let (times, vars) = read_fst(&fst);
    assert_eq!(times.first(), Some(&20), "cycle 10 is time 20");
    assert_eq!(times.last(), Some(&101), "cycle 50 ends at time 101");
    assert_eq!(times.len(), 82, "every step of the window");
    assert!(vars > 10, "only {vars} signals");
    assert!(!dir.join("w.fst.tmp.vcd").exists(), "temporary VCD left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dma_vcd_window_holds_only_the_window() {
    let (dir, input) = setup("dma");
    let vcd = dir.join("w.vcd");
    let out = cdma_ok(&[
        "sim",
        "--block",
        "dma",
        "--top",
        "cdma_dma_dw128",
        "--input",
        input.to_str().unwrap(),
        "--vcd",
        vcd.to_str().unwrap(),
        "--trace-from",
        "30",
        "--trace-to",
        "40",
    ]);
    assert!(out.contains("bit-exact"), "{out}");
    let text = std::fs::read_to_string(&vcd).unwrap();
    let steps: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(steps, (60..82).collect::<Vec<_>>());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_trace_options_are_refused_with_a_reason() {
    let (dir, input) = setup("bad");
    let input = input.to_str().unwrap();
    let w = dir.join("w.vcd");
    let w = w.to_str().unwrap();
    let sim = ["sim", "--block", "compressor", "--input", input];
    for (extra, want) in [
        (
            &["--vcd", w, "--trace-from", "60", "--trace-to", "50"][..],
            "--trace-from 60 is after --trace-to 50",
        ),
        (&["--trace-to", "50"][..], "need --vcd FILE or --fst FILE"),
        (&["--vcd", w, "--fst", "x.fst"][..], "cannot be used with"),
    ] {
        let args: Vec<&str> = sim.iter().chain(extra).copied().collect();
        let out = cdma(&args);
        assert!(
            !out.status.success() && text(&out).contains(want),
            "{args:?}: {}",
            text(&out)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
