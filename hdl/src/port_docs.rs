//! Port documentation read from the blocks' own Rust source: the `///` comments of a block's
//! `Signal<In, _>` / `Signal<Out, _>` fields are the one place its ports are documented. The
//! emitted manifest (`cdma gen`), the standalone blocks and the DMA port tables take their text
//! from here, so rustdoc and the generated documentation cannot drift apart.

use std::ops::Deref;
use std::sync::OnceLock;

/// One port's documentation: its name and its `///` text (lines joined with spaces).
pub type PortDoc = (&'static str, String);

/// The port documentation of one block, parsed on first use from its source file (given with
/// `include_str!`) and the name of its struct as written there (`"$name"` inside a
/// `macro_rules!` that declares one type per width).
pub struct PortDocs {
    source: &'static str,
    block: &'static str,
    parsed: OnceLock<Vec<PortDoc>>,
}

impl PortDocs {
    /// The ports of `pub struct <block>` in `source`.
    pub const fn new(source: &'static str, block: &'static str) -> PortDocs {
        PortDocs {
            source,
            block,
            parsed: OnceLock::new(),
        }
    }
}

impl Deref for PortDocs {
    type Target = [PortDoc];

    fn deref(&self) -> &[PortDoc] {
        self.parsed
            .get_or_init(|| port_docs(self.source, self.block))
    }
}

/// The ports of `pub struct <block>` in `source`, in declaration order (which is rust-hdl's
/// Verilog port order). Panics, naming the block and port, if the struct is missing, has no
/// port, or a port has no `///` comment: a block's ports are documented or it does not build
/// its documentation.
pub fn port_docs(source: &'static str, block: &str) -> Vec<PortDoc> {
    let lines: Vec<&'static str> = source.lines().collect();
    let is_start = |l: &str| {
        l.trim_start()
            .strip_prefix("pub struct ")
            .and_then(|r| r.strip_prefix(block))
            .is_some_and(|r| r.starts_with([' ', '<', '{']))
    };
    let start = lines
        .iter()
        .position(|l| is_start(l))
        .unwrap_or_else(|| panic!("port docs: no `pub struct {block}` in its source"));
    let indent = lines[start].len() - lines[start].trim_start().len();
    let mut docs = vec![];
    let mut text: Vec<&str> = vec![];
    for line in &lines[start + 1..] {
        let t = line.trim_start();
        if t.starts_with('}') && line.len() - t.len() == indent {
            break;
        }
        if let Some(d) = t.strip_prefix("///") {
            text.push(d.trim());
            continue;
        }
        let port = t
            .strip_prefix("pub ")
            .and_then(|r| r.split_once(": Signal<"));
        match port {
            Some((name, ty)) if ty.starts_with("In,") || ty.starts_with("Out,") => {
                assert!(
                    !text.is_empty(),
                    "port docs: port `{name}` of `{block}` has no `///` comment"
                );
                docs.push((name, text.join(" ")));
            }
            _ => {}
        }
        if !t.starts_with("#[") {
            text.clear();
        }
    }
    assert!(!docs.is_empty(), "port docs: `{block}` has no ports");
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"
        /// Not this one.
        pub struct BlockDp {
            /// Wrong block.
            pub x: Signal<In, Bit>,
        }
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Two lines
            /// of text.
            pub data: Signal<Out, Bits<$w>>,
            /// A sub-block is not a port.
            pub dp: BlockDp,
            /// A local signal is not a port.
            pub l: Signal<Local, Bit>,
            r: DFF<Bit>,
            /// Last.
            pub ready: Signal<In, Bit>,
        }
        pub struct Undocumented {
            pub a: Signal<In, Bit>,
        }
    "#;

    #[test]
    fn reads_the_ports_of_the_named_struct_only() {
        let p = PortDocs::new(SOURCE, "$name");
        let got: Vec<(&str, &str)> = p.iter().map(|(n, d)| (*n, d.as_str())).collect();
        assert_eq!(
            got,
            [
                ("clock", "Clock, rising edge."),
                ("data", "Two lines of text."),
                ("ready", "Last.")
            ]
        );
        assert_eq!(
            port_docs(SOURCE, "BlockDp"),
            [("x", "Wrong block.".to_owned())]
        );
    }

    #[test]
    #[should_panic(expected = "port `a` of `Undocumented` has no `///` comment")]
    fn an_undocumented_port_is_an_error() {
        port_docs(SOURCE, "Undocumented");
    }

    #[test]
    #[should_panic(expected = "no `pub struct Missing`")]
    fn a_missing_struct_is_an_error() {
        port_docs(SOURCE, "Missing");
    }
}
