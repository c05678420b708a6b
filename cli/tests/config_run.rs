//! `cdma sim|regress --config FILE`: an engine described by a config file runs once it is
//! Verilated into the build (`CDMA_SIM_CONFIGS`; .cargo/config.toml builds in the bundled
//! data/configs/dw512_e16_32.toml), and a config that was not gets a message saying how.

mod common;

use common::{cdma, cdma_ok, text};
use std::path::{Path, PathBuf};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn tmp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// 16-bit ReLU-like elements: zeros and non-zeros in runs.
fn relu16(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let v: u16 = if (i / 5) % 3 == 0 {
                0
            } else {
                (i as u16) | 0x100
            };
            v.to_le_bytes()
        })
        .collect()
}

#[test]
fn a_configured_engine_runs_from_its_file() {
    let cfg = repo("data/configs/dw512_e16_32.toml");
    let input = tmp("config-run-relu16.bin");
    std::fs::write(&input, relu16(3000)).unwrap();
    let (cfg, input) = (cfg.to_str().unwrap(), input.to_str().unwrap());
    let out = cdma_ok(&[
        "sim", "--block", "dma", "--config", cfg, "--elem", "16", "--input", input, "--seed", "3",
    ]);
    assert!(out.contains("cdma_cfg_dw512_e16_32: bit-exact"), "{out}");
    // The file's engine runs 16- and 32-bit elements only.
    let o = cdma(&[
        "sim", "--block", "dma", "--config", cfg, "--elem", "8", "--input", input,
    ]);
    assert!(!o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("does not compress 8-bit elements"), "{err}");
}

#[test]
fn a_config_not_built_in_says_how_to_build_it() {
    let cfg = tmp("config-run-unbuilt.toml");
    std::fs::write(
        &cfg,
        "data_width = 256\nelem_widths = [8]\nmodule_prefix = \"soc_not_verilated\"\n",
    )
    .unwrap();
    let o = cdma(&["regress", "--no-blocks", "--config", cfg.to_str().unwrap()]);
    assert!(!o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("soc_not_verilated") && err.contains("CDMA_SIM_CONFIGS="),
        "{err}"
    );
}

#[test]
fn a_preset_runs_its_built_in_engine() {
    let input = tmp("config-run-preset-relu16.bin");
    std::fs::write(&input, relu16(2000)).unwrap();
    let input = input.to_str().unwrap();
    let out = cdma_ok(&[
        "sim", "--block", "dma", "--preset", "dw128", "--elem", "8", "--input", input, "--seed",
        "2",
    ]);
    assert!(out.contains("cdma_dma_dw128: bit-exact"), "{out}");
    // An unknown preset is refused before anything runs, listing the presets.
    let o = cdma(&["regress", "--no-blocks", "--preset", "dw64"]);
    assert!(!o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`dw64` is unknown") && err.contains("dw1024, dw512, dw256, dw128"),
        "{err}"
    );
}
