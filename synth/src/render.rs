//! Tables of `cdma synth` (terminal and synth/AREA.md), and the goals of issue #5.

use crate::baseline::{trim, BlockFigures, Figures};
use crate::flow::{metrics, PNR, PNR_ECP5};
use crate::pnr::ecp5;
use cdma_analysis::table::Table;

/// EBPC, the reference the goals compare with, as issue #5 quotes it: encoder 2.8 kGE and
/// decoder 1.7 kGE, about one word per cycle (taken as 4 bytes). L. Cavigelli, G. Rutishauser,
/// L. Benini, "EBPC: Extended Bit-Plane Compression for Deep Neural Network Inference and
/// Training Accelerators", IEEE JETCAS 2019.
pub const EBPC_KGE: f64 = 2.8 + 1.7;
/// EBPC bytes per cycle (one 4-byte word).
pub const EBPC_BYTES_PER_CYCLE: f64 = 4.0;
/// Goal: 32-bit compressor + decompressor logic, kGE.
pub const GOAL_KGE_E32: f64 = 60.0;
/// Goal: gate levels.
pub const GOAL_DEPTH: f64 = 30.0;
/// Goal: bytes/cycle/kGE relative to EBPC.
pub const GOAL_VS_EBPC: f64 = 5.0;

/// Title of each target's table.
fn title(target: &str) -> String {
    if target == PNR_ECP5 {
        return format!(
            "ECP5 place and route (nextpnr-ecp5, LFE5U-…F {}, speed {}, seed {}, target {} MHz, \
             in the pin wrapper of `cdma synth --pnr --target ecp5`): LUT4 and LUT4 % of the \
             device, critical path = its start → end as module instances",
            ecp5::DEVICES[0].2,
            ecp5::SPEED,
            crate::pnr::SEED,
            ecp5::TARGET_MHZ
        );
    }
    let t = match target {
        "generic" => {
            "Standard cells (synth/cells.lib): GE = NAND2 equivalents of all cells (flip-flops \
             included, memories not), comb. GE = without flip-flops, depth = longest path in cells"
        }
        "ice40" => "Lattice iCE40 (synth_ice40): LUT4, carry cells, flip-flops, 4 kbit block RAMs",
        "ecp5" => "Lattice ECP5 (synth_ecp5): LUT4, PFUMX/L6MUX21 wide-function muxes, CCU2C carry, flip-flops, DPR16X4 LUT RAMs, 16 kbit DP16KD block RAMs",
        "xilinx" => "Xilinx 7-series (synth_xilinx): LUT6 (LUT1..6), flip-flops, CARRY4, MUXF7/8, LUT RAMs, 36 kbit block RAMs",
        PNR => "iCE40 place and route (nextpnr-ice40, in the pin wrapper of `cdma synth --pnr`)",
        _ => "",
    };
    t.to_owned()
}

/// The last columns of a place-and-route table (after its figures): the iCE40 note, or the
/// ECP5 critical path and part read from the note (a note that names no path, e.g. "does not
/// fit", stands in the path's column).
fn note_columns(target: &str, note: Option<&String>) -> Vec<String> {
    let note = note.cloned().unwrap_or_default();
    if target != PNR_ECP5 {
        return vec![note];
    }
    let (part, path) = ecp5::read_note(&note);
    vec![
        path.map_or(note, |p| p.replace(" -> ", " → ")),
        part.unwrap_or_default(),
    ]
}

/// A block's name in a table cell (as code in markdown).
fn name_cell(name: &str, markdown: bool) -> String {
    if markdown {
        format!("`{name}`")
    } else {
        name.to_owned()
    }
}

/// A table under its title: a `**bold**` paragraph in markdown, a line on the terminal.
fn titled(title: &str, t: &Table, markdown: bool) -> String {
    if markdown {
        format!("**{title}**\n\n{}", t.markdown())
    } else {
        format!("{title}\n{}", t.text())
    }
}

/// Blocks in report order: by element width, ZVC tops before the DMA, each top before its
/// submodules.
pub fn ordered(figs: &Figures) -> Vec<(&String, &BlockFigures)> {
    let mut v: Vec<_> = figs.iter().collect();
    v.sort_by_key(|(name, b)| (b.elem_bits, b.top.starts_with("cdma_dma"), &b.top, *name));
    v
}

/// One table per target present in `figs`, each with a title line (a `**bold**` paragraph in
/// markdown).
pub fn tables(figs: &Figures, markdown: bool) -> String {
    let mut out = String::new();
    for target in ["generic", "ice40", "ecp5", "xilinx", PNR, PNR_ECP5] {
        let rows: Vec<_> = ordered(figs)
            .into_iter()
            .filter(|(_, b)| b.targets.contains_key(target))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let ms = metrics(target);
        let mut header = vec!["block".to_owned(), "E".to_owned()];
        header.extend(ms.iter().map(|m| m.label.to_owned()));
        let pnr = target == PNR || target == PNR_ECP5;
        if target == PNR {
            header.push("note".into());
        } else if target == PNR_ECP5 {
            header.extend(["critical path".into(), "device".into()]);
        }
        let mut t = Table::new(header);
        let mut last_e = None;
        for (name, b) in rows {
            if !markdown && last_e.is_some() && last_e != Some(b.elem_bits) {
                t.rule();
            }
            last_e = Some(b.elem_bits);
            let f = &b.targets[target];
            let mut row = vec![name_cell(name, markdown), elem_label(b.elem_bits)];
            row.extend(ms.iter().map(|m| match f.get(m.key) {
                Some(v) => format!("{v:.*}", m.decimals),
                None => "n/a".to_owned(),
            }));
            if pnr {
                row.extend(note_columns(target, b.notes.get(target)));
            }
            t.row(row);
        }
        out += &titled(&title(target), &t, markdown);
        out += "\n";
    }
    out
}

/// Per element width: compressor + decompressor against the goals of issue #5.
pub fn goals(figs: &Figures, markdown: bool) -> Option<String> {
    let mut t = Table::new(
        [
            "E",
            "bytes/cycle",
            "comp + decomp GE",
            "comb. GE",
            "FF",
            "max depth",
            "bytes/cycle/kGE",
            "vs EBPC",
        ]
        .map(String::from)
        .to_vec(),
    );
    for e in [8u32, 16, 32] {
        let get = |kind: &str| {
            figs.get(&format!("cdma_zvc_{kind}_e{e}"))
                .and_then(|b| b.targets.get("generic"))
        };
        let (Some(c), Some(d)) = (get("compressor"), get("decompressor")) else {
            continue;
        };
        let sum = |k: &str| c.get(k).copied().unwrap_or(0.0) + d.get(k).copied().unwrap_or(0.0);
        let depth = c
            .get("depth")
            .copied()
            .unwrap_or(0.0)
            .max(d.get("depth").copied().unwrap_or(0.0));
        // One 32-element block per cycle in each direction.
        let bytes = 32.0 * f64::from(e) / 8.0;
        let per_kge = bytes / (sum("ge") / 1000.0);
        let ebpc = EBPC_BYTES_PER_CYCLE / EBPC_KGE;
        t.row(vec![
            e.to_string(),
            trim(bytes),
            format!("{:.0}", sum("ge")),
            format!("{:.0}", sum("ge_comb")),
            trim(sum("ff")),
            trim(depth),
            format!("{per_kge:.2}"),
            format!("{:.2}x", per_kge / ebpc),
        ]);
    }
    if t.is_empty() {
        return None;
    }
    let ebpc = format!(
        "EBPC: {:.2} bytes/cycle/kGE ({EBPC_BYTES_PER_CYCLE} bytes/cycle, {EBPC_KGE} kGE); goals: \
         E = 32 compressor + decompressor <= {GOAL_KGE_E32} kGE and <= {GOAL_DEPTH} gate levels, \
         >= {GOAL_VS_EBPC}x EBPC's bytes/cycle/kGE",
        EBPC_BYTES_PER_CYCLE / EBPC_KGE
    );
    let t = titled("Goals (compressor + decompressor, generic)", &t, markdown);
    Some(if markdown {
        format!("{t}\n{ebpc}.\n")
    } else {
        format!("{t}{ebpc}\n")
    })
}

/// Parts of a DMA top in the breakdown table: block suffix and column label.
const DMA_PARTS: [(&str, &str); 7] = [
    ("__dp", "datapath"),
    ("__dp__comp", "bus compressor"),
    ("__dp__zdec", "bus decompressor"),
    ("__ctl", "controller"),
    ("__rd", "read master"),
    ("__csr", "CSR"),
    ("__wr", "write master"),
];

/// Per DMA top: its generic GE and what its parts take of it, flip-flops, memory bits and
/// depth (the parts' GE do not add up to the top's exactly: glue between them, and Yosys
/// optimises across the boundaries of the flattened top).
pub fn dma_breakdown(figs: &Figures, markdown: bool) -> Option<String> {
    let mut header = vec!["top".to_owned(), "E".to_owned(), "kGE".to_owned()];
    header.extend(DMA_PARTS.iter().map(|(_, l)| format!("{l} kGE")));
    header.extend(["FF", "memory kbit", "depth"].map(String::from));
    let mut t = Table::new(header);
    let generic = |name: &str| figs.get(name).and_then(|b| b.targets.get("generic"));
    let kge = |name: &str| match generic(name).and_then(|f| f.get("ge")) {
        Some(v) => format!("{:.1}", v / 1000.0),
        None => "n/a".to_owned(),
    };
    for (name, b) in ordered(figs) {
        if !b.top.starts_with("cdma_dma") || *name != b.top {
            continue;
        }
        let Some(f) = generic(name) else { continue };
        let get = |k: &str| f.get(k).copied().unwrap_or(0.0);
        let mut row = vec![
            name_cell(name, markdown),
            elem_label(b.elem_bits),
            kge(name),
        ];
        row.extend(
            DMA_PARTS
                .iter()
                .map(|(part, _)| kge(&format!("{name}{part}"))),
        );
        row.extend([
            trim(get("ff")),
            format!("{:.1}", get("mem_bits") / 1000.0),
            trim(get("depth")),
        ]);
        t.row(row);
    }
    if t.is_empty() {
        return None;
    }
    let title = "DMA engine tops and their parts (generic; memories apart)";
    Some(titled(title, &t, markdown) + "\n")
}

/// Start marker of the generated section of synth/AREA.md.
pub const BEGIN: &str =
    "<!-- cdma-synth:begin (generated from synth/baseline.json by `cdma synth --write-doc`; do not edit by hand) -->";
/// End marker.
pub const END: &str = "<!-- cdma-synth:end -->";

/// The generated section of synth/AREA.md: tool versions, tables, goals, DMA breakdown.
pub fn doc_section(base: &crate::baseline::Baseline) -> String {
    let tools: Vec<String> = base.tools.values().cloned().collect();
    let mut s = format!("Tools: {}.\n\n", tools.join("; "));
    s += &tables(&base.blocks, true);
    if let Some(g) = goals(&base.blocks, true) {
        s += &g;
    }
    if let Some(d) = dma_breakdown(&base.blocks, true) {
        s += "\n";
        s += &d;
    }
    s
}

/// Replaces the text between the markers of `doc`.
pub fn splice(doc: &str, body: &str) -> Result<String, String> {
    match (doc.find(BEGIN), doc.find(END)) {
        (Some(b), Some(e)) if b < e => Ok(format!("{}{BEGIN}\n{body}{}", &doc[..b], &doc[e..])),
        _ => Err(format!(
            "synth/AREA.md has no `{BEGIN}` ... `{END}` pair to write the figures between"
        )),
    }
}

/// The element-width cell of a block: its width, or `any` for a DMA engine (`elem_bits` 0:
/// the element width is chosen per descriptor).
fn elem_label(elem_bits: u32) -> String {
    if elem_bits == 0 {
        "any".to_owned()
    } else {
        elem_bits.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::Baseline;
    use std::collections::BTreeMap;

    fn block(top: &str, e: u32, target: &str, figs: &[(&str, f64)]) -> BlockFigures {
        BlockFigures {
            top: top.into(),
            elem_bits: e,
            targets: BTreeMap::from([(
                target.to_owned(),
                figs.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            )]),
            notes: BTreeMap::new(),
        }
    }

    #[test]
    fn goals_compare_bytes_per_cycle_per_kge_with_ebpc() {
        let mut f = Figures::new();
        let c = "cdma_zvc_compressor_e32";
        let d = "cdma_zvc_decompressor_e32";
        f.insert(
            c.into(),
            block(
                c,
                32,
                "generic",
                &[
                    ("ge", 64000.0),
                    ("ge_comb", 46000.0),
                    ("ff", 3160.0),
                    ("depth", 34.0),
                ],
            ),
        );
        f.insert(
            d.into(),
            block(
                d,
                32,
                "generic",
                &[
                    ("ge", 56000.0),
                    ("ge_comb", 50000.0),
                    ("ff", 2000.0),
                    ("depth", 40.0),
                ],
            ),
        );
        let g = goals(&f, false).unwrap();
        // 128 bytes/cycle over 120 kGE = 1.07; EBPC 4 / 4.5 = 0.889: 1.20x.
        assert!(g.contains("1.07") && g.contains("1.20x"), "{g}");
        assert!(
            g.contains("120000") && g.contains("96000") && g.contains("40"),
            "{g}"
        );
        f.remove(d);
        assert!(goals(&f, false).is_none(), "needs both blocks");
    }

    #[test]
    fn tables_order_blocks_and_mark_missing_figures() {
        let mut f = Figures::new();
        f.insert(
            "b_e16".into(),
            block("b_e16", 16, "ice40", &[("lut4", 5.0)]),
        );
        f.insert(
            "a_e8__dp".into(),
            block("a_e8", 8, "ice40", &[("lut4", 2.0)]),
        );
        f.insert("a_e8".into(), block("a_e8", 8, "ice40", &[("lut4", 3.0)]));
        let t = tables(&f, true);
        let a = t.find("`a_e8`").unwrap();
        let dp = t.find("`a_e8__dp`").unwrap();
        let b = t.find("`b_e16`").unwrap();
        assert!(a < dp && dp < b, "{t}");
        assert!(t.contains("n/a"), "{t}");
        assert!(
            !t.contains("Standard cells"),
            "no generic figures, no generic table"
        );
    }

    #[test]
    fn ecp5_place_and_route_table_shows_the_path_and_the_part() {
        let mut f = Figures::new();
        let mut b = block(
            "c_e8",
            8,
            PNR_ECP5,
            &[
                ("lut4", 13061.0),
                ("lut4_pct", 54.0),
                ("ff", 1120.0),
                ("dp16kd", 0.0),
                ("fmax_mhz", 45.8),
            ],
        );
        b.notes.insert(
            PNR_ECP5.into(),
            "ECP5 25k (LFE5U-25F CABGA381, speed 8), nextpnr seed 1, target 150 MHz, wrapped \
             in cdma_pnr_wrap; critical path dut.r1_data -> dut.h_data"
                .into(),
        );
        f.insert("c_e8".into(), b);
        let t = tables(&f, true);
        assert!(
            t.contains("**ECP5 place and route (nextpnr-ecp5, LFE5U-…F CABGA381, speed 8,"),
            "{t}"
        );
        assert!(
            t.contains(
                "| block | E | LUT4 | LUT4 % | FF | DP16KD | Fmax MHz | critical path | device |"
            ),
            "{t}"
        );
        assert!(
            t.contains(
                "| `c_e8` | 8 | 13061 | 54 | 1120 | 0 | 45.8 | dut.r1_data → dut.h_data | LFE5U-25F |"
            ),
            "{t}"
        );
        assert!(
            !t.contains("iCE40 place and route"),
            "only the rows that exist: {t}"
        );
    }

    #[test]
    fn dma_breakdown_shows_each_top_with_its_parts() {
        let mut f = Figures::new();
        let t = "cdma_dma_x";
        f.insert(
            t.into(),
            block(
                t,
                8,
                "generic",
                &[
                    ("ge", 115260.0),
                    ("ff", 6318.0),
                    ("mem_bits", 109600.0),
                    ("depth", 65.0),
                ],
            ),
        );
        f.insert(
            format!("{t}__dp"),
            block(t, 8, "generic", &[("ge", 77602.0)]),
        );
        f.insert(
            "cdma_zvc_compressor_e8".into(),
            block("cdma_zvc_compressor_e8", 8, "generic", &[("ge", 1.0)]),
        );
        let d = dma_breakdown(&f, true).unwrap();
        assert!(
            d.contains(
                "| `cdma_dma_x` | 8 | 115.3 | 77.6 | n/a | n/a | n/a | n/a | n/a | n/a | 6318 | 109.6 | 65 |"
            ),
            "{d}"
        );
        assert!(!d.contains("cdma_dma_x__dp`") && !d.contains("zvc"), "{d}");
        f.remove(t);
        assert!(
            dma_breakdown(&f, true).is_none(),
            "a part without its top is no row"
        );
    }

    #[test]
    fn splice_keeps_the_rest_of_the_document() {
        let doc = format!("# A\n\n{BEGIN}\nold\n{END}\n\nprose\n");
        assert_eq!(
            splice(&doc, "new\n").unwrap(),
            format!("# A\n\n{BEGIN}\nnew\n{END}\n\nprose\n")
        );
        assert!(splice("# A\n", "x").is_err());
    }

    /// synth/AREA.md shows exactly the committed baseline: after `--update-baseline`, the same
    /// change must run `cdma synth --write-doc`.
    #[test]
    fn area_md_shows_the_committed_baseline() {
        let base: Baseline = serde_json::from_str(include_str!("../baseline.json")).unwrap();
        let doc = include_str!("../AREA.md");
        let b = doc.find(BEGIN).expect("AREA.md has the begin marker") + BEGIN.len() + 1;
        let e = doc.find(END).expect("AREA.md has the end marker");
        assert_eq!(
            &doc[b..e],
            doc_section(&base),
            "synth/AREA.md is out of date with synth/baseline.json: run `cdma synth --write-doc`"
        );
    }
}
