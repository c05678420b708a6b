//! What `cdma synth` synthesises: every generated top of the selected element widths and the
//! main submodules of each ([`SUBBLOCKS`]), each as a [`Block`] with the Verilog it is read from.

use std::collections::BTreeSet;
use std::sync::Arc;

/// Main submodules synthesised on their own besides their top: top-module prefix, instance
/// path under the top (module `<top>__<path>`), what it is. Adding a block is one more line;
/// a path a top does not have is skipped.
pub const SUBBLOCKS: &[(&str, &str, &str)] = &[
    (
        "cdma_zvc_compressor_",
        "dp",
        "datapath (no registers): mask, scan, network, packer shifts",
    ),
    (
        "cdma_zvc_compressor_",
        "dp__scan",
        "zero-count scan in three pipeline sections, the block's zero count",
    ),
    (
        "cdma_zvc_compressor_",
        "dp__net",
        "element network: compaction",
    ),
    (
        "cdma_zvc_decompressor_",
        cdma_hdl::ZVC_LOOP_PATH,
        "beat window: block-end tables, beat queue, block-to-block loop",
    ),
    (
        "cdma_zvc_decompressor_",
        "net",
        "element network: expansion in two pipeline sections",
    ),
    ("cdma_dma_", "csr", "CSR block (AXI4-Lite slave)"),
    (
        "cdma_dma_",
        "ctl",
        "controller: descriptors, index RAM, header and status write-back",
    ),
    ("cdma_dma_", "rd", "AXI4 read master"),
    ("cdma_dma_", "wr", "AXI4 write master and its burst buffer"),
    (
        "cdma_dma_",
        "dp",
        "datapath: chunk scan, chunk FIFO, bus compressor (with its packer), bus decompressor",
    ),
    ("cdma_dma_", "dp__scan", "chunk scan"),
    ("cdma_dma_", "dp__fifo", "chunk FIFO"),
    (
        "cdma_dma_",
        "dp__comp",
        "bus compressor (all element widths) and its packer",
    ),
    (
        "cdma_dma_",
        "dp__zdec",
        "bus decompressor (all element widths)",
    ),
    (
        "cdma_dma_",
        "dp__crcp",
        "CRC32C path: the beat unit and its queue (frame version 4)",
    ),
    (
        "cdma_dma_",
        "ctl__mcrc",
        "controller's metadata CRC32C (8 bytes a cycle)",
    ),
];

/// One block to synthesise.
#[derive(Clone)]
pub struct Block {
    /// Verilog module name (`<top>` or `<top>__<instance path>`).
    pub name: String,
    /// The top it belongs to.
    pub top: String,
    /// Element width of the top (0 when it has no `E` parameter: a DMA engine, whose
    /// element width is chosen per descriptor).
    pub elem_bits: u32,
    /// What it is, for progress lines.
    pub what: String,
    /// The whole top's Verilog (a submodule is synthesised from it with `-top`).
    pub verilog: Arc<str>,
    /// Ports, for tops (place and route wraps them).
    pub ports: Option<Vec<cdma_hdl::Port>>,
    /// Its parts (DMA engines' blocks only; empty for the ZVC blocks, which stay flat): the
    /// blocks one instance level below it (`<name>__<instance>`), whose own generic runs'
    /// mapped cells its generic run reads instead of synthesising them again
    /// ([`crate::jobs::parts_script`]).
    pub parts: Vec<String>,
    /// It is one of another block's `parts`: its generic run saves its mapped cells for that one.
    pub is_part: bool,
}

/// Module names declared in a Verilog file.
pub fn modules(verilog: &str) -> BTreeSet<String> {
    verilog
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("module "))
        .filter_map(|r| {
            r.split(|c: char| c == '(' || c == ';' || c.is_whitespace())
                .next()
        })
        .map(str::to_owned)
        .collect()
}

/// The part of `verilog` that synthesising `block` reads: the text outside every module
/// (directives, comments) and the modules `block` reaches, a module being reached when its
/// name stands as a word in one already reached (an instantiation; a mention in a comment
/// counts too, which can only include more). Yosys reads the whole file, but `hierarchy -top`
/// keeps only these, so the figures depend on nothing else: the cache key hashes this rather
/// than the whole top, and a change in one part of a top does not rerun its other parts.
/// The whole file when `block` is not a module of it.
pub fn reachable(verilog: &str, block: &str) -> String {
    // Module name → its text, in file order, and what lies outside every module.
    let mut mods: Vec<(String, String)> = vec![];
    let mut outside = String::new();
    let mut current: Option<(String, String)> = None;
    for line in verilog.lines() {
        let t = line.trim_start();
        match &mut current {
            None => match t.strip_prefix("module ") {
                Some(rest) => {
                    let name = rest
                        .split(|c: char| c == '(' || c == ';' || c.is_whitespace())
                        .next()
                        .unwrap_or_default();
                    current = Some((name.to_owned(), format!("{line}\n")));
                }
                None => outside += &format!("{line}\n"),
            },
            Some((_, text)) => {
                *text += &format!("{line}\n");
                if t.starts_with("endmodule") {
                    mods.extend(current.take());
                }
            }
        }
    }
    // An unterminated module: not a file to be clever about.
    if current.is_some() || !mods.iter().any(|(n, _)| n == block) {
        return verilog.to_owned();
    }
    let mut keep = BTreeSet::from([block.to_owned()]);
    let mut todo = vec![block.to_owned()];
    while let Some(m) = todo.pop() {
        let text = &mods
            .iter()
            .find(|(n, _)| *n == m)
            .expect("a parsed module")
            .1;
        let words: BTreeSet<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .collect();
        for (n, _) in &mods {
            if words.contains(n.as_str()) && keep.insert(n.clone()) {
                todo.push(n.clone());
            }
        }
    }
    mods.iter()
        .filter(|(n, _)| keep.contains(n))
        .fold(outside, |acc, (_, text)| acc + text)
}

/// The blocks of one top: the top itself, then the [`SUBBLOCKS`] it has.
pub fn blocks_of(top: &cdma_hdl::Top, elem_bits: u32) -> Vec<Block> {
    let verilog: Arc<str> = Arc::from(top.verilog.as_str());
    let have = modules(&top.verilog);
    // A DMA engine (it has an ELEM_MASK) takes the `cdma_dma_` submodules whatever its name
    // (a config file's `module_prefix`).
    let is_dma = top.params.iter().any(|(k, _)| k == "ELEM_MASK");
    let mut v = vec![Block {
        name: top.module.clone(),
        top: top.module.clone(),
        elem_bits,
        what: "top".into(),
        verilog: verilog.clone(),
        ports: Some(top.ports.clone()),
        parts: vec![],
        is_part: false,
    }];
    for (prefix, path, what) in SUBBLOCKS {
        let name = format!("{}__{path}", top.module);
        let applies = if is_dma {
            *prefix == "cdma_dma_"
        } else {
            top.module.starts_with(prefix)
        };
        if applies && have.contains(&name) {
            v.push(Block {
                name,
                top: top.module.clone(),
                elem_bits,
                what: (*what).to_owned(),
                verilog: verilog.clone(),
                ports: None,
                parts: vec![],
                is_part: false,
            });
        }
    }
    // Only a DMA engine is synthesised from its parts (generic flow): its parts end at
    // registers and handshakes, and the engine's figures agree with a flat run (the 256-bit
    // engine: 169.7 kGE against 170.1, depth 60 both). A ZVC compressor's datapath has no
    // registers: cut there, its top came out 3 to 5 levels deeper and with 70 more
    // flip-flops than flat (duplicates a flat run merges), so the ZVC blocks stay flat.
    let names: Vec<String> = if is_dma {
        v.iter().map(|b| b.name.clone()).collect()
    } else {
        vec![]
    };
    for b in &mut v {
        b.parts = names
            .iter()
            .filter(|n| {
                n.strip_prefix(b.name.as_str())
                    .and_then(|rest| rest.strip_prefix("__"))
                    .is_some_and(|inst| !inst.contains("__"))
            })
            .cloned()
            .collect();
    }
    let parts: Vec<String> = v.iter().flat_map(|b| b.parts.clone()).collect();
    for b in &mut v {
        b.is_part = parts.contains(&b.name);
    }
    v
}

/// Element width of a top (its `E` parameter).
pub fn elem_of(top: &cdma_hdl::Top) -> Option<u32> {
    top.params
        .iter()
        .find(|(k, _)| k == "E")
        .map(|&(_, v)| v as u32)
}

/// Every block of the selected widths, the DMA tops (each for every element width) only if
/// wanted (generating them is slow), and `extra` tops (engines of config files).
pub fn all_blocks(elems: &[u32], want_dma: bool, extra: Vec<cdma_hdl::Top>) -> Vec<Block> {
    let mut tops: Vec<cdma_hdl::Top> = elems.iter().flat_map(|&e| cdma_hdl::tops(e)).collect();
    if want_dma {
        tops.extend(cdma_hdl::dma_tops());
    }
    tops.extend(extra);
    tops.iter()
        .flat_map(|t| blocks_of(t, elem_of(t).unwrap_or(0)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_module_names() {
        let v = "module a(x);\nendmodule\n  module a__dp (y);\nmodule b;\n// module c(\n";
        let m: Vec<String> = modules(v).into_iter().collect();
        assert_eq!(m, ["a", "a__dp", "b"]);
    }

    #[test]
    fn a_block_reads_its_own_modules_and_those_below_it() {
        let v = "`timescale 1ns/1ps\n\
                 module a(x);\n  a__p p(.x(x));\n  a__q q(.x(x));\nendmodule // a\n\
                 module a__p(x);\n  a__leaf l(.x(x));\nendmodule\n\
                 module a__q(x);\n  assign y = x; // not a__leafy\nendmodule\n\
                 module a__leaf(x);\nendmodule\n";
        let p = reachable(v, "a__p");
        assert!(p.starts_with("`timescale"), "{p}");
        assert!(
            p.contains("module a__p(") && p.contains("module a__leaf("),
            "{p}"
        );
        assert!(
            !p.contains("module a__q(") && !p.contains("module a("),
            "{p}"
        );
        assert_eq!(
            reachable(v, "a__q").matches("module ").count(),
            1,
            "a longer word is no mention"
        );
        assert_eq!(reachable(v, "a"), v, "the top reads everything");
        // A change in a sibling leaves a block's text alone; one below it does not.
        let sibling = v.replace("assign y = x;", "assign y = ~x;");
        assert_eq!(reachable(&sibling, "a__p"), p);
        let below = v.replace("module a__leaf(x);\n", "module a__leaf(x);\n  wire w;\n");
        assert_ne!(reachable(&below, "a__p"), p);
        assert_eq!(reachable(v, "zz"), v, "not a module: the whole file");
    }

    #[test]
    fn the_compressor_network_does_not_read_the_steer() {
        let top = cdma_hdl::tops(8)
            .into_iter()
            .find(|t| t.module == "cdma_zvc_compressor_e8")
            .expect("the 8-bit compressor");
        let net = reachable(&top.verilog, "cdma_zvc_compressor_e8__dp__net");
        assert!(net.contains("module cdma_zvc_compressor_e8__dp__net("));
        assert!(!net.contains("module cdma_zvc_compressor_e8__dp__steer("));
        assert!(!net.contains("module cdma_zvc_compressor_e8("));
        // The top reaches every module of its file.
        let all = reachable(&top.verilog, &top.module);
        assert_eq!(modules(&all), modules(&top.verilog));
    }

    #[test]
    fn every_zvc_top_has_its_listed_submodules() {
        for top in cdma_hdl::tops(8) {
            let names: Vec<String> = blocks_of(&top, 8).into_iter().map(|b| b.name).collect();
            let expect: Vec<String> = std::iter::once(top.module.clone())
                .chain(
                    SUBBLOCKS
                        .iter()
                        .filter(|(p, _, _)| p.starts_with("cdma_zvc_") && top.module.starts_with(p))
                        .map(|(_, s, _)| format!("{}__{s}", top.module)),
                )
                .collect();
            assert_eq!(
                names, expect,
                "a listed submodule is missing from the emitted Verilog"
            );
        }
    }

    #[test]
    fn an_engine_is_made_of_the_blocks_one_instance_level_below_it() {
        let top = cdma_hdl::dma_tops()
            .into_iter()
            .find(|t| t.module == "cdma_dma_dw128")
            .expect("the 128-bit engine");
        let blocks = blocks_of(&top, 0);
        let of = |n: &str| -> Vec<String> {
            blocks
                .iter()
                .find(|b| b.name == n)
                .expect("a block")
                .parts
                .clone()
        };
        let s = |v: &[&str]| {
            v.iter()
                .map(|x| format!("cdma_dma_dw128__{x}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(of("cdma_dma_dw128"), s(&["csr", "ctl", "rd", "wr", "dp"]));
        assert_eq!(
            of("cdma_dma_dw128__dp"),
            s(&["dp__scan", "dp__fifo", "dp__comp", "dp__zdec", "dp__crcp"])
        );
        assert_eq!(of("cdma_dma_dw128__ctl"), s(&["ctl__mcrc"]));
        assert!(of("cdma_dma_dw128__dp__zdec").is_empty());
        let parts: Vec<&str> = blocks
            .iter()
            .filter(|b| b.is_part)
            .map(|b| b.name.as_str())
            .collect();
        assert_eq!(parts.len(), 11, "every block but the engine: {parts:?}");
        // The ZVC blocks stay flat.
        for t in cdma_hdl::tops(8) {
            assert!(blocks_of(&t, 8).iter().all(|b| !b.is_part), "{}", t.module);
            assert!(
                blocks_of(&t, 8).iter().all(|b| b.parts.is_empty()),
                "{}",
                t.module
            );
        }
    }
}
