//! The documents contain the tables rendered from `cdma-spec`, verbatim, so they cannot drift
//! from the layouts the model (and the RTL generator) use.

use cdma_spec::field::{markdown_bits, markdown_fields};
use cdma_spec::{csr, desc, error, frame, zvcx};

fn check(doc: &str, name: &str, tables: &[(&str, String)]) {
    for (what, t) in tables {
        assert!(
            doc.contains(t.as_str()),
            "{name} does not contain the {what} table rendered from cdma-spec:\n{t}"
        );
    }
}

#[test]
fn format_md_contains_the_frame_tables() {
    check(
        include_str!("../../docs/FORMAT.md"),
        "docs/FORMAT.md",
        &[
            (
                "header",
                markdown_fields(&frame::HEADER_FIELDS_TYPED, false),
            ),
            ("index entry", markdown_bits(&frame::INDEX_FIELDS)),
            (
                "version 4 index entry",
                markdown_fields(&frame::INDEX_ENTRY_FIELDS_CRC, false),
            ),
            ("element type", zvcx::markdown_types()),
            ("ZVC-X mode", zvcx::markdown_modes()),
            ("ZVC-X exponent delta", zvcx::markdown_deltas()),
        ],
    );
}

#[test]
fn descriptors_md_contains_every_table() {
    let doc = include_str!("../../docs/DESCRIPTORS.md");
    check(
        doc,
        "docs/DESCRIPTORS.md",
        &[
            ("descriptor", markdown_fields(&desc::DESC_FIELDS, true)),
            ("control", markdown_bits(&desc::CONTROL_BITS)),
            ("status", markdown_bits(&desc::STATUS_BITS)),
            ("error code", error::markdown_table()),
            ("CSR map", csr::markdown_table()),
            ("CTRL", markdown_bits(&csr::CTRL_BITS)),
            ("STATUS", markdown_bits(&csr::STATUS_BITS)),
            ("IRQ", markdown_bits(&csr::IRQ_BITS)),
            ("HWCFG", markdown_bits(&csr::HWCFG_BITS)),
        ],
    );
    // The validation order names every error code but OK and ABORTED (timing, see "Abort").
    let order = &doc[doc.find("## Validation and execution order").unwrap()..];
    let order = &order[..order.find("### What memory holds").unwrap()];
    for e in error::ALL {
        if e.code != error::OK.code && e.code != error::ABORTED.code {
            assert!(order.contains(e.name), "validation order lacks {}", e.name);
        }
    }
}

#[test]
fn readme_contains_the_header_table() {
    check(
        include_str!("../../README.md"),
        "README.md",
        &[(
            "header",
            markdown_fields(&frame::HEADER_FIELDS_TYPED, false),
        )],
    );
}
