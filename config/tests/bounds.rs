//! Every field's bounds: values just inside are accepted, values just outside are refused
//! with an error naming that field and its allowed values. Each case goes through
//! `from_toml` (the file path) and `validate` (a config built by hand).

use cdma_config::EngineConfig;

/// `data_width = 256` (unless `line` sets it) plus `line`, parsed.
fn with(line: &str) -> Result<EngineConfig, cdma_config::ConfigError> {
    match line.starts_with("data_width") {
        true => EngineConfig::from_toml(line),
        false => EngineConfig::from_toml(&format!("data_width = 256\n{line}\n")),
    }
}

/// `line` is accepted.
fn ok(line: &str) {
    let c = with(line).unwrap_or_else(|e| panic!("`{line}` refused: {e}"));
    assert_eq!(c.validate(), Ok(()));
}

/// `line` is refused, naming `field`, its allowed values (`allowed` in the message) and the
/// same error from `validate`.
fn refused(line: &str, field: &str, allowed: &str) {
    let e = with(line).expect_err(line);
    assert_eq!(e.field.as_deref(), Some(field), "`{line}`: {e}");
    let head = format!("config field `{field}`: ");
    assert!(e.message.starts_with(&head), "`{line}`: {e}");
    assert!(
        e.message.contains(allowed),
        "`{line}`: {e} lacks {allowed:?}"
    );
    assert_eq!(e.to_string(), e.message);
    // The same check on a config built by hand (no TOML in between).
    let mut by_hand: EngineConfig = EngineConfig::preset("dw256").unwrap();
    let value: toml::Table = line.parse().unwrap();
    let mut text: toml::Table = by_hand.to_toml().parse().unwrap();
    text.extend(value);
    by_hand = toml::from_str(&toml::to_string(&text).unwrap()).unwrap();
    assert_eq!(by_hand.validate(), Err(e), "validate of `{line}`");
}

#[test]
fn data_width_is_one_of_four() {
    for dw in [128, 256, 512, 1024] {
        let c = EngineConfig::from_toml(&format!("data_width = {dw}")).unwrap();
        assert_eq!(c.bus_bytes(), dw / 8);
    }
    for dw in [0, 64, 127, 129, 384, 2048] {
        refused(
            &format!("data_width = {dw}"),
            "data_width",
            "128, 256, 512, 1024",
        );
    }
    let e = EngineConfig::from_toml("data_width = 384").unwrap_err();
    assert_eq!(
        e.to_string(),
        "config field `data_width`: 384 is not one of 128, 256, 512, 1024"
    );
}

#[test]
fn elem_widths_is_a_subset_of_8_16_32() {
    for w in [
        "[8]",
        "[16]",
        "[32]",
        "[8, 16]",
        "[8, 32]",
        "[16, 32]",
        "[8, 16, 32]",
    ] {
        ok(&format!("elem_widths = {w}"));
    }
    for w in ["[0]", "[4]", "[7]", "[9]", "[24]", "[64]", "[8, 12]"] {
        refused(&format!("elem_widths = {w}"), "elem_widths", "8, 16, 32");
    }
}

#[test]
fn elem_widths_empty_or_duplicate_is_refused() {
    refused("elem_widths = []", "elem_widths", "is empty");
    refused("elem_widths = [8, 8]", "elem_widths", "appears twice");
    refused("elem_widths = [32, 16, 32]", "elem_widths", "appears twice");
}

#[test]
fn elem_widths_are_sorted() {
    assert_eq!(
        with("elem_widths = [32, 8, 16]").unwrap().elem_widths,
        [8, 16, 32]
    );
    assert_eq!(
        with("elem_widths = [32, 16]").unwrap().elem_widths,
        [16, 32]
    );
}

#[test]
fn addr_width_is_32_to_64() {
    ok("addr_width = 32");
    ok("addr_width = 64");
    refused("addr_width = 31", "addr_width", "32..=64");
    refused("addr_width = 65", "addr_width", "32..=64");
}

#[test]
fn id_width_is_1_to_16() {
    ok("id_width = 1");
    ok("id_width = 16");
    refused("id_width = 0", "id_width", "1..=16");
    refused("id_width = 17", "id_width", "1..=16");
}

#[test]
fn reads_in_flight_is_1_to_16() {
    ok("reads_in_flight = 1");
    ok("reads_in_flight = 16");
    refused("reads_in_flight = 0", "reads_in_flight", "1..=16");
    refused("reads_in_flight = 17", "reads_in_flight", "1..=16");
}

#[test]
fn max_burst_beats_is_a_power_of_two_up_to_256() {
    let at = |dw: u32, beats: u32| {
        EngineConfig::from_toml(&format!("data_width = {dw}\nmax_burst_beats = {beats}"))
    };
    for beats in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
        assert!(at(128, beats).is_ok(), "{beats} beats at 128 bits");
    }
    for line in [
        "max_burst_beats = 0",
        "max_burst_beats = 3",
        "max_burst_beats = 24",
    ] {
        refused(line, "max_burst_beats", "power of two in 1..=256");
    }
    let e = at(128, 512).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("max_burst_beats"), "{e}");
    assert!(e.message.contains("power of two in 1..=256"), "{e}");
}

#[test]
fn max_burst_beats_stays_within_4_kib() {
    // The longest burst of each bus width is exactly 4096 bytes; twice that is refused (at
    // 128 bits the AXI limit of 256 beats comes first, see the test above).
    for (dw, longest) in [(256, 128), (512, 64), (1024, 32)] {
        let at = |beats: u32| {
            EngineConfig::from_toml(&format!("data_width = {dw}\nmax_burst_beats = {beats}"))
        };
        assert!(at(longest).is_ok(), "{longest} beats at {dw} bits");
        let e = at(longest * 2).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("max_burst_beats"), "{e}");
        assert!(e.message.contains("4096"), "{e}");
        assert!(e.message.contains(&format!("at most {longest}")), "{e}");
    }
    refused("max_burst_beats = 256", "max_burst_beats", "at most 128");
}

#[test]
fn chunk_log2_max_is_7_to_24() {
    ok("chunk_log2_max = 7");
    ok("chunk_log2_max = 24");
    refused("chunk_log2_max = 6", "chunk_log2_max", "7..=24");
    refused("chunk_log2_max = 25", "chunk_log2_max", "7..=24");
}

#[test]
fn chunk_log2_max_holds_one_beat() {
    // A chunk holds at least one beat: at 1024 bits (2^7 bytes a beat) the smallest chunk the
    // format allows is exactly one beat, and accepted; the format's lower bound (7) keeps every
    // narrower bus above its beat too.
    let c = EngineConfig::from_toml("data_width = 1024\nchunk_log2_max = 7").unwrap();
    assert_eq!(1 << c.chunk_log2_max, c.bus_bytes());
}

#[test]
fn module_prefix_is_a_verilog_identifier() {
    let long = "a".repeat(64);
    for p in [
        "a",
        "_",
        "Z",
        "A_9",
        "cdma_dma",
        "soc_cdma0",
        "_9",
        "Module",
        &long,
    ] {
        ok(&format!("module_prefix = {p:?}"));
    }
    let rule = "[A-Za-z_][A-Za-z0-9_]*";
    refused(r#"module_prefix = """#, "module_prefix", "is empty");
    refused(r#"module_prefix = "0cdma""#, "module_prefix", rule);
    refused(r#"module_prefix = "9""#, "module_prefix", rule);
    refused(r#"module_prefix = "cdma-dma""#, "module_prefix", rule);
    refused(r#"module_prefix = "cdma dma""#, "module_prefix", rule);
    refused(r#"module_prefix = "cdma$dma""#, "module_prefix", rule);
    refused(r#"module_prefix = "dmä""#, "module_prefix", rule);
    refused(r#"module_prefix = "\\cdma""#, "module_prefix", rule);
    let too_long = format!("module_prefix = {:?}", "a".repeat(65));
    refused(&too_long, "module_prefix", "at most 64");
}

#[test]
fn module_prefix_is_not_a_keyword() {
    for k in [
        "module",
        "wire",
        "reg",
        "always",
        "endmodule",
        "logic",
        "interface",
        "uwire",
    ] {
        refused(
            &format!("module_prefix = {k:?}"),
            "module_prefix",
            "keyword",
        );
    }
}

#[test]
fn codecs_name_zvc_and_optionally_zvcx() {
    assert!(!with("codecs = [\"zvc\"]").unwrap().has_zvcx());
    assert_eq!(
        with("codecs = [\"zvcx\", \"zvc\"]").unwrap().codecs,
        ["zvc", "zvcx"],
        "kept sorted"
    );
    assert!(with("codecs = [\"zvcx\", \"zvc\"]").unwrap().has_zvcx());
    refused(
        "codecs = [\"lz4\"]",
        "codecs",
        "is not one of \"zvc\", \"zvcx\"",
    );
    refused("codecs = [\"zvc\", \"zvc\"]", "codecs", "appears twice");
    refused("codecs = [\"zvcx\"]", "codecs", "must name \"zvc\"");
    refused("codecs = []", "codecs", "must name \"zvc\"");
}
