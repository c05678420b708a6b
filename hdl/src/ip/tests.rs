//! The IP package: presets give exactly today's engine tops, unsupported fields are named,
//! the waivers are the engine's, the package lints clean with only its own files and its
//! C header compiles.

use std::process::Command;

use cdma_config::EngineConfig;

use super::*;
use crate::dma::dma_top;

fn preset(name: &str) -> EngineConfig {
    EngineConfig::preset(name).expect("preset")
}

#[test]
fn presets_are_todays_engines_byte_for_byte() {
    for (name, dw, module) in [
        ("dw1024", 1024, "cdma_dma_top"),
        ("dw512", 512, "cdma_dma_dw512"),
        ("dw256", 256, "cdma_dma_dw256"),
        ("dw128", 128, "cdma_dma_dw128"),
    ] {
        let top = engine_top(&preset(name)).expect("a preset is supported");
        assert_eq!(top.module, module);
        assert!(
            top.verilog == dma_top(dw, module).verilog,
            "{name}: Verilog differs from dma_top({dw})"
        );
    }
}

#[test]
fn element_widths_are_free_and_reported_in_hwcfg() {
    let mut cfg = preset("dw512");
    cfg.elem_widths = vec![16, 32];
    let top = engine_top(&cfg).expect("any element widths are supported");
    assert!(top.verilog != dma_top(512, "cdma_dma_dw512").verilog);
    let rif = crate::dma::axi_read::READS_IN_FLIGHT_DEFAULT as u32;
    let want = crate::dma::csr::HwCfg {
        bus_bytes_log2: 6,
        crc: 1,
        elem_mask: 0b110,
        codec_mask: 1,
        chunk_log2_max: 12,
        reads_in_flight: rif,
    }
    .value();
    assert!(
        top.verilog.contains(&format!("32'h{want:x}")),
        "HWCFG {want:#x} not in the Verilog"
    );
}

#[test]
fn construction_parameters_and_the_module_name_are_free() {
    let mut cfg = preset("dw256");
    cfg.reads_in_flight = 3;
    cfg.max_burst_beats = 4;
    cfg.module_prefix = "soc_cdma1".into();
    let top = engine_top(&cfg).expect("supported");
    assert_eq!(top.module, "soc_cdma1");
    assert!(top.verilog.contains("module soc_cdma1("));
    assert!(!top.verilog.contains("cdma_dma_dw256"));
    let p = |k: &str| top.params.iter().find(|(n, _)| n == k).map(|p| p.1);
    assert_eq!(
        (p("READS_IN_FLIGHT"), p("WR_BURST_MAX")),
        (Some(3), Some(4))
    );
}

#[test]
fn what_this_generator_cannot_build_is_named() {
    type Change = fn(&mut EngineConfig);
    let cases: [(&str, Change); 5] = [
        ("addr_width", |c| c.addr_width = 48),
        ("id_width", |c| c.id_width = 4),
        ("chunk_log2_max", |c| c.chunk_log2_max = 16),
        ("reads_in_flight", |c| c.reads_in_flight = 17),
        ("max_burst_beats", |c| c.max_burst_beats = 256),
    ];
    for (field, change) in cases {
        let mut cfg = preset("dw256");
        change(&mut cfg);
        let err = match engine_top(&cfg) {
            Ok(_) => panic!("{field}: built an engine it cannot build"),
            Err(e) => e,
        };
        assert_eq!(err.field.as_deref(), Some(field), "{err}");
    }
}

#[test]
fn waivers_are_the_engines_retargeted_with_their_reasons() {
    let w = waivers("soc_x");
    assert!(w.starts_with("`verilator_config\n"));
    assert!(w.contains("lint_off -rule UNOPTFLAT -file \"*soc_x.v\""));
    assert!(!w.contains("cdma_zvc_") && !w.contains("chunk_mux"), "{w}");
    assert!(
        !w.contains("-file \"*cdma_"),
        "a waiver kept its old file pattern:\n{w}"
    );
    // Every waiver is preceded by its reason.
    let lines: Vec<&str> = w.lines().collect();
    for (i, l) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("lint_off"))
    {
        let above = lines[..i].iter().rev().find(|l| !l.starts_with("lint_off"));
        assert!(
            above.is_some_and(|a| a.starts_with("//")),
            "no reason above {l}"
        );
    }
}

#[test]
fn glob_matches_like_verilator() {
    assert!(files::glob_match("*cdma_dma_*", "cdma_dma_top.v"));
    assert!(files::glob_match("*cdma_dma_top*", "cdma_dma_top.v"));
    assert!(!files::glob_match(
        "*cdma_dma_chunk_mux_*",
        "cdma_dma_top.v"
    ));
    assert!(!files::glob_match("*cdma_zvc_*", "cdma_dma_dw256.v"));
}

fn tool(name: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(found, "`{name}` is not on PATH (scripts/setup installs it)");
}

/// Writes the package of `cfg` into a fresh directory and checks it with only its own files.
fn check_package(cfg: &EngineConfig, dir_name: &str) {
    let dir = std::env::temp_dir().join(format!("cdma-{dir_name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = package(cfg).expect("supported");
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let m = &cfg.module_prefix;
    tool("verilator");
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", m, "-F"])
        .arg(dir.join(format!("{m}.f")))
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let log =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && log.trim().is_empty(),
        "{m}: lint over the package:\n{log}"
    );
    tool("cc");
    let c = dir.join("use.c");
    std::fs::write(
        &c,
        format!("#include \"{m}.h\"\nint main(void) {{ return 0; }}\n"),
    )
    .unwrap();
    let out = Command::new("cc")
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-c",
            "-o",
        ])
        .arg(dir.join("use.o"))
        .arg(&c)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{m}.h does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn package_lints_clean_and_its_header_compiles() {
    check_package(&preset("dw256"), "ip-dw256");
    let mut custom = preset("dw512");
    custom.module_prefix = "soc_cdma0".into();
    custom.reads_in_flight = 4;
    check_package(&custom, "ip-soc-cdma0");
    let mut zvcx = preset("dw128");
    zvcx.module_prefix = "soc_cdma_zx".into();
    zvcx.codecs = vec!["zvc".into(), "zvcx".into()];
    check_package(&zvcx, "ip-soc-cdma-zx");
}
