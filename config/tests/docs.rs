//! docs/CONFIG.md against the code: its TOML blocks parse, its example and resolved block are
//! what the code makes of them, its field table's defaults and its preset table match.

use cdma_config::EngineConfig;

const DOC: &str = include_str!("../../docs/CONFIG.md");

/// The contents of every ```toml fenced block of the document, in order.
fn toml_blocks() -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in DOC.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```toml") => current = Some(String::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    assert!(current.is_none(), "unclosed ```toml block in CONFIG.md");
    blocks
}

/// The rows (cells, trimmed) of the Markdown table whose header row starts with `first`.
fn table(first: &str) -> Vec<Vec<String>> {
    let cells = |l: &str| -> Vec<String> {
        let l = l.trim().trim_start_matches('|').trim_end_matches('|');
        l.split('|').map(|c| c.trim().to_string()).collect()
    };
    let mut lines = DOC
        .lines()
        .skip_while(|l| !l.starts_with(&format!("| {first} |")));
    lines.next().expect("table header in CONFIG.md");
    lines
        .skip(1) // |---|
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect()
}

#[test]
fn every_toml_block_parses() {
    let blocks = toml_blocks();
    assert_eq!(
        blocks.len(),
        4,
        "CONFIG.md: example, smallest, resolved, the engine built today"
    );
    for b in &blocks {
        EngineConfig::from_toml(b).unwrap_or_else(|e| panic!("{e}\nin block:\n{b}"));
    }
}

#[test]
fn example_block_is_the_documented_engine() {
    let example = EngineConfig::from_toml(&toml_blocks()[0]).unwrap();
    assert_eq!(
        example,
        EngineConfig {
            data_width: 512,
            elem_widths: vec![16, 32],
            codecs: vec!["zvc".into()],
            addr_width: 48,
            id_width: 4,
            reads_in_flight: 16,
            max_burst_beats: 32,
            chunk_log2_max: 14,
            module_prefix: "soc_cdma0".into(),
        }
    );
    assert_eq!(EngineConfig::from_toml(&example.to_toml()), Ok(example));
}

#[test]
fn resolved_block_is_to_toml_of_the_smallest() {
    let blocks = toml_blocks();
    let smallest = EngineConfig::from_toml(&blocks[1]).unwrap();
    assert_eq!(smallest.to_toml(), blocks[2]);
}

#[test]
fn field_table_lists_every_field_with_its_default() {
    let rows = table("field");
    let names: Vec<String> = rows.iter().map(|r| r[0].trim_matches('`').into()).collect();
    let text = EngineConfig::from_toml("data_width = 256")
        .unwrap()
        .to_toml();
    // to_toml writes the fields in declaration order, one per line.
    let fields: Vec<String> = text
        .lines()
        .map(|l| l.split(" = ").next().unwrap().into())
        .collect();
    assert_eq!(names, fields, "field table rows, in declaration order");
    let resolved: toml::Table = text.parse().unwrap();
    for row in &rows {
        let (name, default) = (row[0].trim_matches('`'), row[2].trim_matches('`'));
        if name == "data_width" {
            assert_eq!(default, "required");
            continue;
        }
        let parsed: toml::Table = format!("v = {default}").parse().unwrap();
        assert_eq!(
            parsed["v"], resolved[name],
            "default of `{name}` in CONFIG.md"
        );
    }
}

/// The preset table as CONFIG.md must show it, rendered from [`EngineConfig::preset`].
fn preset_table() -> String {
    let mut s = String::from(
        "| preset | data_width | elem_widths | addr_width | id_width | reads_in_flight \
         | max_burst_beats | chunk_log2_max | module_prefix |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for name in EngineConfig::PRESETS {
        let c = EngineConfig::preset(name).unwrap();
        let elems: Vec<String> = c.elem_widths.iter().map(u32::to_string).collect();
        s += &format!(
            "| `{name}` | {} | [{}] | {} | {} | {} | {} | {} | `{}` |\n",
            c.data_width,
            elems.join(", "),
            c.addr_width,
            c.id_width,
            c.reads_in_flight,
            c.max_burst_beats,
            c.chunk_log2_max,
            c.module_prefix
        );
    }
    s
}

#[test]
fn preset_table_matches_the_presets() {
    let want = preset_table();
    assert!(
        DOC.contains(&want),
        "CONFIG.md's preset table differs from EngineConfig::preset; it should read:\n{want}"
    );
    assert_eq!(table("preset").len(), EngineConfig::PRESETS.len());
}
