//! `cdma gen --preset` / `--config`: the IP package of one engine, as the user runs it (the
//! built binary). Every preset, the hand-written example of docs/CONFIG.md, and a
//! configuration this generator cannot build, which must fail naming the field before any
//! file is written.

mod common;

use common::cdma;
use std::path::{Path, PathBuf};
use std::process::Output;

/// `cdma gen --config cfg --out out`.
fn gen_config(cfg: &Path, out: &Path) -> Output {
    let (cfg, out) = (cfg.to_str().unwrap(), out.to_str().unwrap());
    cdma(&["gen", "--config", cfg, "--out", out])
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("output directory")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn package_files(m: &str) -> Vec<String> {
    let mut v: Vec<String> = ["v", "vlt", "f", "core", "h", "toml"]
        .iter()
        .map(|x| format!("{m}.{x}"))
        .chain([format!("{m}_ports.md"), format!("{m}_spec.json")])
        .collect();
    v.sort();
    v
}

#[test]
fn every_preset_writes_its_package() {
    for (preset, module) in [
        ("dw1024", "cdma_dma_top"),
        ("dw512", "cdma_dma_dw512"),
        ("dw256", "cdma_dma_dw256"),
        ("dw128", "cdma_dma_dw128"),
    ] {
        let dir = fresh_dir(&format!("gen-{preset}"));
        let o = cdma(&["gen", "--preset", preset, "--out", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(files_in(&dir), package_files(module), "{preset}");
        let toml = std::fs::read_to_string(dir.join(format!("{module}.toml"))).unwrap();
        assert!(
            toml.contains(&format!("module_prefix = \"{module}\"")),
            "{toml}"
        );
    }
}

/// The ```toml block of docs/CONFIG.md's "An engine this generator builds today".
fn docs_example() -> String {
    let doc = include_str!("../../docs/CONFIG.md");
    let at = doc
        .find("## An engine this generator builds today")
        .expect("docs/CONFIG.md has the section");
    let rest = &doc[at..];
    let start = rest.find("```toml\n").expect("a toml block") + "```toml\n".len();
    let len = rest[start..].find("```").expect("closed block");
    rest[start..start + len].to_owned()
}

#[test]
fn the_hand_written_config_of_the_docs_generates() {
    let dir = fresh_dir("gen-docs-example");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("example.toml");
    std::fs::write(&cfg, docs_example()).unwrap();
    let out = dir.join("ip");
    let o = gen_config(&cfg, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let names = files_in(&out);
    let v = names
        .iter()
        .find(|n| n.ends_with(".v"))
        .expect("a Verilog file");
    let module = v.trim_end_matches(".v");
    assert_eq!(names, package_files(module));
    let verilog = std::fs::read_to_string(out.join(v)).unwrap();
    assert!(verilog.contains(&format!("module {module}(")));
}

#[test]
fn an_unbuildable_config_names_the_field_and_writes_nothing() {
    let dir = fresh_dir("gen-unsupported");
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("wide.toml");
    std::fs::write(&cfg, "data_width = 128\naddr_width = 48\n").unwrap();
    let out = dir.join("ip");
    let o = gen_config(&cfg, &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "48-bit address engine generated");
    assert!(err.contains("`addr_width`"), "{err}");
    assert!(!out.exists(), "files were written for a refused config");

    std::fs::write(&cfg, "data_width = 256\nbogus = 1\n").unwrap();
    let o = gen_config(&cfg, &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("bogus"), "{err}");
}
