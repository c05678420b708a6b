//! Module and port names become C symbols, file names, Rust types and Rust methods: the rules
//! they must follow and how they are converted.

use std::collections::BTreeMap;

use crate::top::TopSpec;

/// Methods every generated wrapper has; a port whose getter or setter would take one of these
/// names cannot be wrapped and is reported at build time instead of failing to compile later.
pub const RESERVED_METHODS: &[&str] = &[
    "new",
    "eval",
    "tick",
    "time",
    "trace",
    "trace_window",
    "close_trace",
    "module",
    "ports",
    "params",
    "port",
    "set_words",
    "get_words",
    "set_u64",
    "get_u64",
    "drop",
];

/// Rust keywords: a port named like one gets a raw-identifier getter (`r#type`).
pub const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield",
];

/// Module names become C symbols, file names and Rust type names: they must be plain
/// identifiers and distinct after conversion.
pub fn check_unique_names(tops: &[TopSpec]) -> Result<(), String> {
    let mut seen = BTreeMap::new();
    for t in tops {
        if !is_snake_ident(&t.module) {
            return Err(format!(
                "module name {:?} is not a lower-case identifier ([a-z_][a-z0-9_]*)",
                t.module
            ));
        }
        if let Some(other) = seen.insert(type_name(&t.module), t.module.clone()) {
            return Err(format!(
                "modules {other:?} and {:?} map to the same Rust type name",
                t.module
            ));
        }
    }
    Ok(())
}

/// `[a-z_][a-z0-9_]*` without `__`.
pub fn is_snake_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some('a'..='z' | '_'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
        && !s.contains("__")
}

/// `cdma_zvc_compressor_e32` → `CdmaZvcCompressorE32`.
pub fn type_name(module: &str) -> String {
    module
        .split('_')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut c = s.chars();
            let first = c.next().expect("split filtered empty parts");
            first.to_ascii_uppercase().to_string() + c.as_str()
        })
        .collect()
}

/// Rust identifier for a getter (raw identifier when the port is named like a keyword).
pub fn getter(name: &str) -> String {
    if RUST_KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::top::fixtures::top;

    #[test]
    fn type_names_are_camel_case() {
        assert_eq!(type_name("cdma_zvc_compressor_e32"), "CdmaZvcCompressorE32");
        assert_eq!(type_name("_x_y"), "XY");
        assert_eq!(type_name("top"), "Top");
    }

    #[test]
    fn snake_identifiers() {
        for ok in ["a", "cdma_dma_top", "_x", "d1056"] {
            assert!(is_snake_ident(ok), "{ok}");
        }
        for bad in ["", "1a", "Top", "a__b", "a-b", "é"] {
            assert!(!is_snake_ident(bad), "{bad}");
        }
    }

    #[test]
    fn keyword_ports_get_raw_getters() {
        assert_eq!(getter("type"), "r#type");
        assert_eq!(getter("data"), "data");
    }

    #[test]
    fn module_names_must_be_identifiers_and_distinct_types() {
        assert_eq!(check_unique_names(&[top("a_b"), top("c")]), Ok(()));
        let e = check_unique_names(&[top("Top")]).unwrap_err();
        assert!(e.contains("\"Top\" is not a lower-case identifier"), "{e}");
        let e = check_unique_names(&[top("a_b"), top("a_b_")]).unwrap_err();
        assert_eq!(
            e,
            "modules \"a_b\" and \"a_b_\" map to the same Rust type name"
        );
    }
}
