//! Reading and writing configs: defaults, unknown and missing fields, TOML errors with their
//! line and column, presets, the `to_toml` round trip and `load` naming its file.

use cdma_config::{ConfigError, EngineConfig};
use std::path::{Path, PathBuf};

/// A file under cargo's per-test scratch directory holding `text`.
fn file(name: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn missing_fields_take_their_defaults() {
    let c = EngineConfig::from_toml("data_width = 512").unwrap();
    assert_eq!(
        c,
        EngineConfig {
            data_width: 512,
            elem_widths: vec![8, 16, 32],
            codecs: vec!["zvc".into()],
            addr_width: 64,
            id_width: 1,
            reads_in_flight: 8,
            max_burst_beats: 16,
            chunk_log2_max: 12,
            module_prefix: "cdma_dma".into(),
        }
    );
}

#[test]
fn data_width_is_required() {
    for text in ["", "elem_widths = [8]\n", "# nothing\n"] {
        let e = EngineConfig::from_toml(text).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("data_width"), "{e}");
        assert!(e.message.contains("missing field `data_width`"), "{e}");
    }
}

#[test]
fn unknown_field_is_named_with_its_line() {
    let e = EngineConfig::from_toml("data_width = 256\n\nmax_burst_beat = 8\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("max_burst_beat"));
    assert!(
        e.message
            .starts_with("config: line 3, column 1: unknown field `max_burst_beat`"),
        "{e}"
    );
    // ... and lists the fields there are.
    assert!(e.message.contains("`max_burst_beats`"), "{e}");
    // A table is an unknown field too: the config is flat.
    let e = EngineConfig::from_toml("data_width = 256\n[engine]\nid_width = 2\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("engine"), "{e}");
}

#[test]
fn wrong_type_names_the_field_line_and_column() {
    let e = EngineConfig::from_toml("data_width = \"wide\"\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("data_width"));
    assert_eq!(
        e.message,
        "config field `data_width`: line 1, column 14: invalid type: string \"wide\", expected u32"
    );
    let e = EngineConfig::from_toml("data_width = 256\nid_width = -1\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("id_width"), "{e}");
    assert!(e.message.contains("line 2, column 12"), "{e}");
    let e = EngineConfig::from_toml("data_width = 256\nelem_widths = [8, \"16\"]\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("elem_widths"), "{e}");
    let e = EngineConfig::from_toml("data_width = 256\nmodule_prefix = 7\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("module_prefix"), "{e}");
}

#[test]
fn syntax_error_carries_line_and_column() {
    let e = EngineConfig::from_toml("data_width = 256\nid_width = = 2\n").unwrap_err();
    assert!(e.message.starts_with("config"), "{e}");
    assert!(e.message.contains("line 2, column 12"), "{e}");
    assert!(!e.message.contains('\n'), "one line: {e:?}");
    let e = EngineConfig::from_toml("data_width = 256\ndata_width = 512\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("data_width"), "{e}");
    assert!(e.message.contains("line 2"), "{e}");
}

#[test]
fn presets_are_todays_engines() {
    let expect = [
        ("dw1024", 1024, "8, 16, 32", "cdma_dma_top"),
        ("dw512", 512, "8, 16, 32", "cdma_dma_dw512"),
        ("dw256", 256, "8, 16, 32", "cdma_dma_dw256"),
        ("dw128", 128, "8, 16, 32", "cdma_dma_dw128"),
    ];
    let names: Vec<&str> = expect.iter().map(|e| e.0).collect();
    assert_eq!(EngineConfig::PRESETS.as_slice(), names);
    for (name, dw, elem, prefix) in expect {
        let c = EngineConfig::preset(name).unwrap();
        let text = format!("data_width = {dw}\nelem_widths = [{elem}]\nmodule_prefix = {prefix:?}");
        assert_eq!(Ok(c.clone()), EngineConfig::from_toml(&text), "{name}");
        assert_eq!(c.validate(), Ok(()), "{name}");
    }
}

#[test]
fn unknown_preset_lists_the_presets() {
    let e = EngineConfig::preset("dw64").unwrap_err();
    assert_eq!(e.field, None);
    assert_eq!(
        e.to_string(),
        "config preset `dw64` is unknown; the presets are dw1024, dw512, dw256, dw128"
    );
}

#[test]
fn to_toml_round_trips_presets_and_example() {
    let example = EngineConfig {
        data_width: 512,
        elem_widths: vec![16, 32],
        codecs: vec!["zvc".into(), "zvcx".into()],
        addr_width: 40,
        id_width: 16,
        reads_in_flight: 1,
        max_burst_beats: 64,
        chunk_log2_max: 24,
        module_prefix: "soc_cdma0".into(),
    };
    let presets = EngineConfig::PRESETS.map(|p| EngineConfig::preset(p).unwrap());
    for c in presets.iter().chain([&example]) {
        let text = c.to_toml();
        assert_eq!(text.lines().count(), 9, "every field written:\n{text}");
        assert_eq!(EngineConfig::from_toml(&text).as_ref(), Ok(c), "{text}");
    }
    assert_eq!(
        example.to_toml(),
        "data_width = 512\nelem_widths = [16, 32]\ncodecs = [\"zvc\", \"zvcx\"]\n\
         addr_width = 40\nid_width = 16\n\
         reads_in_flight = 1\nmax_burst_beats = 64\nchunk_log2_max = 24\n\
         module_prefix = \"soc_cdma0\"\n"
    );
}

#[test]
fn load_reads_a_file() {
    let path = file("load_ok.toml", "data_width = 1024\nelem_widths = [32]\n");
    let c = EngineConfig::load(&path).unwrap();
    assert_eq!((c.data_width, c.elem_widths), (1024, vec![32]));
}

#[test]
fn load_of_a_missing_file_names_it() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no_such_config.toml");
    let e = EngineConfig::load(&path).unwrap_err();
    assert_eq!(e.field, None);
    let head = format!("config file {}: cannot read: ", path.display());
    assert!(e.message.starts_with(&head), "{e}");
}

#[test]
fn load_errors_name_the_file_and_field() {
    let path = file("load_bad_value.toml", "data_width = 384\n");
    let e = EngineConfig::load(&path).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("data_width"));
    assert_eq!(
        e.message,
        format!(
            "config file {}: field `data_width`: 384 is not one of 128, 256, 512, 1024",
            path.display()
        )
    );
    let path = file("load_bad_key.toml", "data_width = 256\nfoo = 1\n");
    let e = EngineConfig::load(&path).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("foo"));
    let head = format!(
        "config file {}: line 2, column 1: unknown field `foo`",
        path.display()
    );
    assert!(e.message.starts_with(&head), "{e}");
}

#[test]
fn config_error_is_a_std_error() {
    let e: Box<dyn std::error::Error> =
        Box::new(EngineConfig::from_toml("data_width = 1").unwrap_err());
    assert!(e
        .to_string()
        .starts_with("config field `data_width`: 1 is not"));
    let made = ConfigError {
        field: None,
        message: "config: x".into(),
    };
    assert_eq!(made.to_string(), "config: x");
}
