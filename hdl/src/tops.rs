//! Every generated top, the one place that knows them all: the ZVC compressor and
//! decompressor per element width ([`tops`]), the DMA engine tops ([`dma_tops`]), the ZVC-X
//! tops ([`zvcx_tops`]) and [`all_tops`]; plus the ZVC tops' configuration (element widths,
//! lanes, count width).

use std::sync::OnceLock;

use crate::compressor::{ZvcCompressorE16, ZvcCompressorE32, ZvcCompressorE8, COMPRESSOR_PORTS};
use crate::decompressor::{
    ZvcDecompressorE16, ZvcDecompressorE32, ZvcDecompressorE8, DECOMPRESSOR_PORTS,
};
use crate::emit::{make_top_from, Top};
use crate::port_docs::PortDoc;
use cdma_spec::frame::BLOCK_ELEMS;
use rust_hdl::core::prelude::*;

/// Element widths (bits) the generator supports.
pub const ELEM_WIDTHS: [u32; 3] = [8, 16, 32];

/// Width of `out_count` / `in_count`.
pub const COUNT_BITS: u64 = 7;

/// Instance path, under a ZVC decompressor top, of its beat window (the block-end tables,
/// the beat queue and the block-to-block loop), emitted as module `<top>__win`.
pub const ZVC_LOOP_PATH: &str = "win";

/// Lanes of a packed beat for element width `elem_bits`: `P = 32 + 32/E`.
pub fn packed_lanes(elem_bits: u32) -> u64 {
    BLOCK_ELEMS as u64 + 32 / u64::from(elem_bits)
}

fn make_top<U: Block + Default>(module: &str, docs: &[PortDoc], elem_bits: u32) -> Top {
    let e = u64::from(elem_bits);
    make_top_from(
        U::default(),
        module,
        &format!("E = {elem_bits}"),
        docs,
        vec![
            ("E".into(), e),
            ("B".into(), BLOCK_ELEMS as u64),
            ("M".into(), 32 / e),
            ("P".into(), packed_lanes(elem_bits)),
            ("COUNT_BITS".into(), COUNT_BITS),
        ],
    )
}

/// The compressor and decompressor tops for element width `elem_bits` (8, 16 or 32).
///
/// # Panics
/// On any other element width (the generator only has those three configurations).
pub fn tops(elem_bits: u32) -> Vec<Top> {
    // Generation is slow in unoptimised builds (rust-hdl compiles a regex per indexed signal
    // reference), and tests and build scripts ask for the same tops repeatedly: keep one copy
    // per width for the life of the process.
    static CACHE: [OnceLock<Vec<Top>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let slot = match elem_bits {
        8 => 0,
        16 => 1,
        32 => 2,
        other => {
            panic!("cdma-hdl: unsupported element width {other} bits (supported: 8, 16, 32)")
        }
    };
    CACHE[slot].get_or_init(|| generate(elem_bits)).clone()
}

fn generate(elem_bits: u32) -> Vec<Top> {
    let c = format!("cdma_zvc_compressor_e{elem_bits}");
    let d = format!("cdma_zvc_decompressor_e{elem_bits}");
    match elem_bits {
        8 => vec![
            make_top::<ZvcCompressorE8>(&c, &COMPRESSOR_PORTS, 8),
            make_top::<ZvcDecompressorE8>(&d, &DECOMPRESSOR_PORTS, 8),
        ],
        16 => vec![
            make_top::<ZvcCompressorE16>(&c, &COMPRESSOR_PORTS, 16),
            make_top::<ZvcDecompressorE16>(&d, &DECOMPRESSOR_PORTS, 16),
        ],
        32 => vec![
            make_top::<ZvcCompressorE32>(&c, &COMPRESSOR_PORTS, 32),
            make_top::<ZvcDecompressorE32>(&d, &DECOMPRESSOR_PORTS, 32),
        ],
        other => unreachable!("element width {other} checked by tops()"),
    }
}

/// The DMA engine tops, each for every element width: `cdma_dma_top` (DW = 1024),
/// `cdma_dma_dw256`, `cdma_dma_dw512`, `cdma_dma_dw128` (generated once per process, like
/// [`tops`]).
pub fn dma_tops() -> Vec<Top> {
    static CACHE: OnceLock<Vec<Top>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            vec![
                crate::dma::dma_top(1024, "cdma_dma_top"),
                crate::dma::dma_top(256, "cdma_dma_dw256"),
                crate::dma::dma_top(512, "cdma_dma_dw512"),
                crate::dma::dma_top(128, "cdma_dma_dw128"),
            ]
        })
        .clone()
}

/// The ZVC-X tops, one datapath for every element type at one 32-element block per cycle:
/// the block compressor `cdma_zvcx_compressor` and decompressor `cdma_zvcx_decompressor`
/// (generated once per process, like [`tops`]).
pub fn zvcx_tops() -> Vec<Top> {
    static CACHE: OnceLock<Vec<Top>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            vec![
                make_top_from(
                    crate::zvcx::ZvcxCompressor::default(),
                    "cdma_zvcx_compressor",
                    "ZVC-X, every element type",
                    &crate::zvcx::ZVCX_COMPRESSOR_PORTS,
                    vec![("B".into(), BLOCK_ELEMS as u64)],
                ),
                make_top_from(
                    crate::zvcx::ZvcxDecompressor::default(),
                    "cdma_zvcx_decompressor",
                    "ZVC-X, every element type",
                    &crate::zvcx::decoder::DECOMPRESSOR_PORTS,
                    vec![("B".into(), BLOCK_ELEMS as u64)],
                ),
            ]
        })
        .clone()
}

/// The element width of a ZVC top (`cdma_zvc_…_e{E}`), `None` for any other top.
pub fn zvc_elem_bits(t: &Top) -> Option<u32> {
    if !t.module.starts_with("cdma_zvc_") {
        return None;
    }
    t.params
        .iter()
        .find(|(k, _)| k == "E")
        .map(|&(_, v)| v as u32)
}

/// All tops: [`tops`] for E = 8, 16, 32, the DMA engine tops ([`dma_tops`]), the ZVC-X tops
/// ([`zvcx_tops`]).
pub fn all_tops() -> Vec<Top> {
    let mut v: Vec<Top> = ELEM_WIDTHS.iter().flat_map(|&e| tops(e)).collect();
    v.extend(dma_tops());
    v.extend(zvcx_tops());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::Dir;

    #[test]
    fn rename_leaves_no_top_and_no_dollar_in_module_names() {
        for t in all_tops() {
            for line in t.verilog.lines() {
                let l = line.trim_start();
                if let Some(rest) = l.strip_prefix("module ") {
                    let name = rest.split('(').next().unwrap().trim();
                    assert!(name.starts_with(&t.module), "{name}");
                    assert!(!name.contains('$'), "{name}");
                }
            }
            assert!(
                !t.verilog
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                    .any(|w| w == "top" || w.starts_with("top$")),
                "{}: a `top` identifier survived",
                t.module
            );
        }
    }

    #[test]
    fn ports_match_the_architecture_widths() {
        for e in ELEM_WIDTHS {
            let p = packed_lanes(e) as usize;
            let e = e as usize;
            let ts = tops(e as u32);
            let width = |t: &Top, n: &str| t.ports.iter().find(|p| p.name == n).unwrap().width;
            assert_eq!(width(&ts[0], "in_data"), 32 * e);
            assert_eq!(width(&ts[0], "out_data"), p * e);
            assert_eq!(width(&ts[0], "out_count"), 7);
            assert_eq!(width(&ts[1], "in_data"), p * e);
            assert_eq!(width(&ts[1], "out_data"), 32 * e);
            assert_eq!(ts[0].ports[0].name, "clock");
            // The module header lists the ports in the same order as the probe.
            let header_names = |t: &Top| {
                let start = t.verilog.find(&format!("module {}(", t.module)).unwrap();
                let rest = &t.verilog[start..];
                let args = &rest[rest.find('(').unwrap() + 1..rest.find(')').unwrap()];
                args.split(',')
                    .map(|s| s.trim().to_owned())
                    .collect::<Vec<_>>()
            };
            for t in &ts {
                let names: Vec<String> = t.ports.iter().map(|p| p.name.clone()).collect();
                assert_eq!(header_names(t), names);
            }
        }
    }

    /// docs/ARCHITECTURE.md's port tables say the same as the generated tops: every port is
    /// listed with its direction and width, and nothing else is.
    #[test]
    fn architecture_port_tables_match_the_tops() {
        let doc = include_str!("../../docs/ARCHITECTURE.md");
        let section = |title: &str| {
            let start = doc
                .find(title)
                .unwrap_or_else(|| panic!("no section {title}"));
            let rest = &doc[start + title.len()..];
            rest[..rest.find("\n### ").unwrap_or(rest.len())].to_owned()
        };
        for e in ELEM_WIDTHS {
            let p = packed_lanes(e) as usize;
            let eval = |w: &str| match w {
                "1" => 1,
                "7" => 7,
                "32·E" => 32 * e as usize,
                "P·E" => p * e as usize,
                other => panic!("unknown width expression {other}"),
            };
            let ts = tops(e);
            for (top, title) in ts
                .iter()
                .zip(["### `ZvcCompressor`", "### `ZvcDecompressor`"])
            {
                let mut listed = vec![];
                for row in section(title).lines().filter(|l| l.starts_with("| `")) {
                    let cols: Vec<&str> = row.split('|').map(str::trim).collect();
                    let names: Vec<&str> = cols[1].split('`').skip(1).step_by(2).collect();
                    let dirs: Vec<&str> = cols[2].split('/').map(str::trim).collect();
                    for (i, name) in names.iter().enumerate() {
                        let dir = if dirs.len() == 1 { dirs[0] } else { dirs[i] };
                        listed.push((name.to_string(), dir.to_owned(), eval(cols[3])));
                    }
                }
                let actual: Vec<(String, String, usize)> = top
                    .ports
                    .iter()
                    .map(|p| {
                        let d = if p.dir == Dir::In { "in" } else { "out" };
                        (p.name.clone(), d.to_owned(), p.width)
                    })
                    .collect();
                let mut a = actual.clone();
                let mut l = listed.clone();
                a.sort();
                l.sort();
                assert_eq!(a, l, "{}: ARCHITECTURE.md port table differs", top.module);
            }
        }
    }

    /// docs/ARCHITECTURE.md's port table of the compressor lists exactly its ports, with their
    /// directions and widths.
    #[test]
    fn architecture_port_table_matches_the_zvcx_compressor() {
        let doc = include_str!("../../docs/ARCHITECTURE.md");
        let title = "### `ZvcxCompressor`";
        let start = doc.find(title).expect("section");
        let rest = &doc[start + title.len()..];
        let section = &rest[..rest.find("\n### ").unwrap_or(rest.len())];
        let mut listed = vec![];
        for row in section.lines().filter(|l| l.starts_with("| `")) {
            let cols: Vec<&str> = row.split('|').map(str::trim).collect();
            let names: Vec<&str> = cols[1].split('`').skip(1).step_by(2).collect();
            let dirs: Vec<&str> = cols[2].split('/').map(str::trim).collect();
            for (i, name) in names.iter().enumerate() {
                let dir = if dirs.len() == 1 { dirs[0] } else { dirs[i] };
                let width: usize = cols[3].parse().expect("numeric width");
                listed.push((name.to_string(), dir.to_owned(), width));
            }
        }
        let top = zvcx_tops().remove(0);
        let mut actual: Vec<(String, String, usize)> = top
            .ports
            .iter()
            .map(|p| {
                let d = if p.dir == Dir::In { "in" } else { "out" };
                (p.name.clone(), d.to_owned(), p.width)
            })
            .collect();
        actual.sort();
        listed.sort();
        assert_eq!(actual, listed);
    }

    #[test]
    #[should_panic(expected = "unsupported element width 12")]
    fn other_widths_are_refused() {
        tops(12);
    }
}
