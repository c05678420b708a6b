//! The C header for software that drives the engine, generated from the tables of this crate.
//!
//! [`c_header`] renders register offsets and bit fields, the descriptor as a struct with
//! compile-time layout checks, op and element-width codes, error codes and the frame header.
//! Every number comes from the spec's tables; the tests in `spec/tests/c_header.rs` compile the
//! header with `cc` (and `c++`) and run a program that prints the layout back.

use crate::field::{BitField, Field};
use crate::{csr, desc, error, frame};
use std::fmt::Write;

/// CSR bit tables with the macro group their fields are named under (`<P>_<GROUP>_<FIELD>_*`).
/// The IRQ bits apply to IRQ_STATUS and IRQ_ENABLE.
const CSR_BIT_GROUPS: [(&str, &[BitField]); 4] = [
    ("CTRL", &csr::CTRL_BITS),
    ("STATUS", &csr::STATUS_BITS),
    ("IRQ", &csr::IRQ_BITS),
    ("HWCFG", &csr::HWCFG_BITS),
];

/// Operation codes of the descriptor's control word, by name.
const OPS: [(&str, u64); 3] = [
    ("COPY", desc::OP_COPY),
    ("COMPRESS", desc::OP_COMPRESS),
    ("DECOMPRESS", desc::OP_DECOMPRESS),
];

/// Column where macro values start.
const VALUE_COLUMN: usize = 44;

/// Returns the C header (C11 or C++11) for the engine, every identifier prefixed.
///
/// `guard_prefix` (e.g. `"CDMA"`) names the include guard (`CDMA_H`), prefixes every macro
/// (`CDMA_CSR_HWCFG`) and, lower-cased, every type and function (`struct cdma_desc`,
/// `cdma_err_name`), so headers of two engines generated with different prefixes can be
/// included in one translation unit.
///
/// # Panics
///
/// If `guard_prefix` is not a C identifier (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn c_header(guard_prefix: &str) -> String {
    let valid = guard_prefix
        .chars()
        .enumerate()
        .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
    assert!(
        valid && !guard_prefix.is_empty(),
        "C header prefix {guard_prefix:?} is not a C identifier"
    );
    let mut g = Gen {
        p: guard_prefix.to_ascii_uppercase(),
        l: guard_prefix.to_ascii_lowercase(),
        s: String::new(),
    };
    g.preamble();
    g.csrs();
    g.descriptor();
    g.errors();
    g.frame();
    let p = g.p.clone();
    g.line(&format!(
        "\n#ifdef __cplusplus\n}} /* extern \"C\" */\n#endif\n\n#endif /* {p}_H */"
    ));
    g.s
}

/// Makes `text` safe inside a C comment: ASCII only, no comment delimiters, no trigraphs.
fn comment_text(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        match c {
            '×' => s.push('x'),
            '→' => s.push_str("->"),
            '‖' => s.push_str("||"),
            c if c.is_ascii() && (c == ' ' || !c.is_ascii_control()) => s.push(c),
            c => s.push_str(&format!("U+{:04X}", c as u32)),
        }
    }
    s.replace("*/", "* /")
        .replace("/*", "/ *")
        .replace("??", "? ?")
}

/// The C type of a byte field: a fixed-width integer when it is naturally aligned, else bytes.
fn c_type(f: &Field) -> (&'static str, String) {
    let ty = match f.size {
        1 => "uint8_t",
        2 => "uint16_t",
        4 => "uint32_t",
        8 => "uint64_t",
        _ => "",
    };
    if !ty.is_empty() && f.offset.is_multiple_of(f.size) {
        (ty, String::new())
    } else {
        ("uint8_t", format!("[{}]", f.size))
    }
}

/// The header under construction.
struct Gen {
    /// Macro prefix (upper case).
    p: String,
    /// Type and function prefix (lower case).
    l: String,
    /// Text so far.
    s: String,
}

impl Gen {
    fn line(&mut self, text: &str) {
        self.s.push_str(text);
        self.s.push('\n');
    }

    fn comment(&mut self, text: &str) {
        self.line(&format!("/* {} */", comment_text(text)));
    }

    fn section(&mut self, title: &str) {
        self.line("");
        self.line(&format!("/* ---- {} ---- */", comment_text(title)));
        self.line("");
    }

    /// `#define <P>_<name> <value>`, with a trailing comment when `comment` is not empty.
    fn define(&mut self, name: &str, value: &str, comment: &str) {
        let head = format!("#define {}_{}", self.p, name);
        let mut l = format!("{head:<w$} {value}", w = VALUE_COLUMN - 1);
        if !comment.is_empty() {
            let _ = write!(l, " /* {} */", comment_text(comment));
        }
        self.line(&l);
    }

    /// `#define <P>_<name> <value>u`.
    fn num(&mut self, name: &str, value: impl std::fmt::Display, comment: &str) {
        self.define(name, &format!("{value}u"), comment);
    }

    /// A struct member declaration `decl` with `comment` aligned after it.
    fn member(&mut self, decl: &str, comment: &str) {
        let c = comment_text(comment);
        self.line(&format!("    {decl:<w$} /* {c} */", w = VALUE_COLUMN - 5));
    }

    /// SHIFT, WIDTH, MASK, GET and SET macros of 32-bit word bit fields, named `<group>_<f>_*`.
    fn bits(&mut self, group: &str, fields: &[BitField]) {
        for f in fields {
            let n = format!("{group}_{}", f.name.to_ascii_uppercase());
            let (p, mask) = (self.p.clone(), f.mask());
            assert!(mask <= u32::MAX as u64, "{n} does not fit a 32-bit word");
            self.comment(&format!(
                "{group}.{} [{}]: {}",
                f.name,
                f.range(),
                f.description
            ));
            self.num(&format!("{n}_SHIFT"), f.lsb, "");
            self.num(&format!("{n}_WIDTH"), f.width, "");
            self.define(&format!("{n}_MASK"), &format!("0x{mask:08X}u"), "");
            self.define(
                &format!("{n}_GET(v)"),
                &format!("(((uint32_t)(v) & {p}_{n}_MASK) >> {p}_{n}_SHIFT)"),
                "",
            );
            self.define(
                &format!("{n}_SET(v, x)"),
                &format!(
                    "(((uint32_t)(v) & ~{p}_{n}_MASK) | (((uint32_t)(x) << {p}_{n}_SHIFT) & {p}_{n}_MASK))"
                ),
                "",
            );
        }
    }

    /// OFFSET and SIZE macros of byte fields, named `<group>_<f>_*`.
    fn offsets(&mut self, group: &str, fields: &[Field]) {
        for f in fields {
            let n = format!("{group}_{}", f.name.to_ascii_uppercase());
            self.define(
                &format!("{n}_OFFSET"),
                &format!("0x{:02X}u", f.offset),
                f.description,
            );
            self.num(&format!("{n}_SIZE"), f.size, "");
        }
    }

    /// `struct <l>_<tag>` with one member per field and static asserts on its layout.
    fn layout(&mut self, tag: &str, group: &str, fields: &[Field], len: usize) {
        let (p, l) = (self.p.clone(), self.l.clone());
        self.line(&format!("struct {l}_{tag} {{"));
        for f in fields {
            let (ty, arr) = c_type(f);
            let c = format!("0x{:02X}: {}", f.offset, f.description);
            self.member(&format!("{ty} {}{arr};", f.name), &c);
        }
        self.line("};");
        self.line("");
        self.line(&format!(
            "{p}_STATIC_ASSERT(sizeof(struct {l}_{tag}) == {len}u, \"struct {l}_{tag} is {len} bytes\");"
        ));
        for f in fields {
            let n = format!("{group}_{}", f.name.to_ascii_uppercase());
            self.line(&format!(
                "{p}_STATIC_ASSERT(offsetof(struct {l}_{tag}, {m}) == {p}_{n}_OFFSET, \"{m} at 0x{o:02X}\");",
                m = f.name,
                o = f.offset
            ));
        }
    }

    fn preamble(&mut self) {
        let (p, l) = (self.p.clone(), self.l.clone());
        let le = "defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
                  __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__";
        self.s.push_str(&format!(
            "/* {l}.h: registers, descriptor, error codes and frame header of a cdma DMA engine.
 *
 * Generated from cdma-spec by `cdma gen`; do not edit.
 *
 * Needs C11 (_Static_assert) or C++11. All multi-byte fields are little-endian;
 * the structs match memory on a little-endian CPU. Descriptors must be aligned
 * to {p}_DESC_ALIGN bytes. Every identifier is prefixed with {p}_ or {l}_.
 */
#ifndef {p}_H
#define {p}_H

#include <stddef.h>
#include <stdint.h>

#if {le}
#error \"{l}.h: the descriptor and frame structs assume a little-endian CPU\"
#endif

#ifdef __cplusplus
#define {p}_STATIC_ASSERT(c, m) static_assert(c, m)
extern \"C\" {{
#else
#define {p}_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif
"
        ));
    }

    fn csrs(&mut self) {
        self.section("CSR map: AXI4-Lite, 32-bit registers, byte offsets");
        for r in csr::ALL {
            let c = format!("{}: {}", r.access.name(), r.description);
            self.define(
                &format!("CSR_{}", r.name),
                &format!("0x{:03X}u", r.addr),
                &c,
            );
        }
        self.num("CSR_ADDR_BITS", csr::ADDR_BITS, "address bits decoded");
        self.define(
            "CSR_ID_VALUE",
            &format!("0x{:08X}u", csr::ID_VALUE),
            csr::ID.description,
        );
        self.num("CSR_VERSION_VALUE", csr::VERSION_VALUE, "VERSION");
        for (group, fields) in CSR_BIT_GROUPS {
            self.section(&format!("CSR bit fields: {group}"));
            self.bits(group, fields);
        }
        let (p, l) = (self.p.clone(), self.l.clone());
        self.line("");
        self.comment("HWCFG decoded");
        self.line(&format!("struct {l}_hwcfg {{"));
        for f in csr::HWCFG_BITS {
            self.member(&format!("uint32_t {};", f.name), f.description);
        }
        self.line("};");
        self.line("");
        self.line(&format!(
            "static inline struct {l}_hwcfg {l}_hwcfg_decode(uint32_t hwcfg)\n{{\n    struct {l}_hwcfg c;"
        ));
        for f in csr::HWCFG_BITS {
            let n = f.name.to_ascii_uppercase();
            self.line(&format!("    c.{} = {p}_HWCFG_{n}_GET(hwcfg);", f.name));
        }
        self.line("    return c;\n}");
    }

    fn descriptor(&mut self) {
        self.section("Descriptor: 64 bytes in memory, chained through `next`");
        let len = format!("{}u", desc::DESC_LEN);
        self.define("DESC_LEN", &len, "descriptor size in bytes");
        self.define("DESC_ALIGN", &len, "required descriptor alignment in bytes");
        self.offsets("DESC", &desc::DESC_FIELDS);
        self.line("");
        self.layout("desc", "DESC", &desc::DESC_FIELDS, desc::DESC_LEN);
        self.section("Descriptor control word");
        self.bits("DESC_CONTROL", &desc::CONTROL_BITS);
        self.line("");
        self.comment(&format!(
            "Operation codes (control.op): {}",
            desc::CTRL_OP.description
        ));
        for (name, code) in OPS {
            self.num(&format!("OP_{name}"), code, "");
        }
        self.line("");
        self.comment(&format!(
            "Element width codes (control.elem): {}",
            desc::CTRL_ELEM.description
        ));
        for (code, bits) in desc::ELEM_CODES {
            self.define(
                &format!("ELEM_{bits}"),
                &format!("{code}u"),
                &format!("{bits}-bit elements"),
            );
        }
        self.section("Descriptor status word (written back by the engine)");
        self.bits("DESC_STATUS", &desc::STATUS_BITS);
    }

    fn errors(&mut self) {
        self.section("Error codes (descriptor status.error, CSR STATUS.err_code)");
        self.num("ERR_CODE_BITS", error::CODE_BITS, "width of an error code");
        for e in error::ALL {
            self.num(&format!("ERR_{}", e.name), e.code, e.description);
        }
        let (p, l) = (self.p.clone(), self.l.clone());
        self.line("");
        self.comment("The name of an error code, \"unknown\" for codes the spec does not define.");
        self.line(&format!(
            "static inline const char *{l}_err_name(uint32_t code)\n{{\n    switch (code) {{"
        ));
        for e in error::ALL {
            self.line(&format!(
                "    case {p}_ERR_{n}: return \"{n}\";",
                n = e.name
            ));
        }
        self.line("    default: return \"unknown\";\n    }\n}");
    }

    fn frame(&mut self) {
        self.section("Frame: header + chunk index at meta_addr, payload at dst_addr");
        let magic = u32::from_le_bytes(frame::MAGIC);
        let c = format!(
            "ASCII \"{}\" read as a little-endian word",
            String::from_utf8_lossy(&frame::MAGIC)
        );
        self.define("FRAME_MAGIC", &format!("0x{magic:08X}u"), &c);
        let consts: [(&str, usize, &str); 9] = [
            ("VERSION", frame::VERSION.into(), "format version"),
            ("CODEC_ZVC", frame::CODEC_ZVC.into(), "codec id of ZVC"),
            ("HEADER_LEN", frame::HEADER_LEN, "header bytes"),
            (
                "INDEX_ENTRY_LEN",
                frame::INDEX_ENTRY_LEN,
                "bytes per index entry",
            ),
            ("BLOCK_ELEMS", frame::BLOCK_ELEMS, "elements per ZVC block"),
            ("MASK_BYTES", frame::MASK_BYTES, "bytes of a ZVC block mask"),
            (
                "CHUNK_LOG2_MIN",
                frame::CHUNK_LOG2_MIN.into(),
                "smallest chunk_log2",
            ),
            (
                "CHUNK_LOG2_MAX",
                frame::CHUNK_LOG2_MAX.into(),
                "largest chunk_log2",
            ),
            (
                "CHUNK_LOG2_DEFAULT",
                frame::CHUNK_LOG2_DEFAULT.into(),
                "default chunk_log2",
            ),
        ];
        for (name, value, comment) in consts {
            self.num(&format!("FRAME_{name}"), value, comment);
        }
        let p = self.p.clone();
        self.define(
            "FRAME_META_LEN(n_chunks)",
            &format!("((uint64_t){p}_FRAME_HEADER_LEN + (uint64_t){p}_FRAME_INDEX_ENTRY_LEN * (uint64_t)(n_chunks))"),
            "bytes of header + index",
        );
        self.line("");
        self.offsets("FRAME", &frame::HEADER_FIELDS);
        self.line("");
        self.layout(
            "frame_header",
            "FRAME",
            &frame::HEADER_FIELDS,
            frame::HEADER_LEN,
        );
        self.section("Chunk index entry (32 bits, one per chunk, after the header)");
        self.bits("INDEX", &frame::INDEX_FIELDS);
    }
}
