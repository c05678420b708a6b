//! The generated C header compiles as C11 and C++11, coexists with a second prefix, and a C
//! program built from it prints back exactly the spec's layout and values.

use cdma_spec::field::{BitField, Field};
use cdma_spec::{c_header, csr, desc, error, frame};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for one test's files.
fn work_dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_header")
        .join(test);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs a compiler; panics with its output when it fails, and with a clear message when the
/// program is missing (these tests need it; they do not skip).
fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("{what}: cannot run {cmd:?} ({e}); the C header tests need `cc` on PATH")
    });
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what} failed: {cmd:?}\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn have(prog: &str) -> bool {
    Command::new(prog).arg("--version").output().is_ok()
}

/// Compiles `file` as C11 (must work) and as C++11 when `c++` exists.
fn compile_c_and_cxx(dir: &Path, file: &str) {
    let mut c = Command::new("cc");
    c.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c"])
        .arg(dir.join(file))
        .arg("-o")
        .arg(dir.join(format!("{file}.o")))
        .arg("-I")
        .arg(dir);
    run(&mut c, "cc -std=c11");
    if !have("c++") {
        eprintln!("c++ not found: skipping the C++ compile of {file}");
        return;
    }
    let mut cxx = Command::new("c++");
    cxx.args(["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .args(["-fsyntax-only", "-x", "c++"])
        .arg(dir.join(file))
        .arg("-I")
        .arg(dir);
    run(&mut cxx, "c++ -std=c++11");
}

const ASSERT_MACRO: &str = "#ifdef __cplusplus\n#define SA(c) static_assert(c, #c)\n\
                            #else\n#define SA(c) _Static_assert(c, #c)\n#endif\n";

/// Static asserts that every macro of the header with prefix `p` equals the spec's value.
fn asserts(p: &str) -> String {
    let mut s = String::new();
    let mut sa = |cond: String| writeln!(s, "SA({cond});").unwrap();
    for r in csr::ALL {
        sa(format!("{p}_CSR_{} == {}u", r.name, r.addr));
    }
    sa(format!("{p}_CSR_ID_VALUE == {}u", csr::ID_VALUE));
    let groups: [(&str, &[BitField]); 7] = [
        ("CTRL", &csr::CTRL_BITS),
        ("STATUS", &csr::STATUS_BITS),
        ("IRQ", &csr::IRQ_BITS),
        ("HWCFG", &csr::HWCFG_BITS),
        ("DESC_CONTROL", &desc::CONTROL_BITS),
        ("DESC_STATUS", &desc::STATUS_BITS),
        ("INDEX", &frame::INDEX_FIELDS),
    ];
    for (g, bits) in groups {
        for f in bits {
            let n = format!("{p}_{g}_{}", f.name.to_uppercase());
            sa(format!("{n}_SHIFT == {}u", f.lsb));
            sa(format!("{n}_MASK == {}u", f.mask()));
            sa(format!(
                "{n}_GET({}u) == {}u",
                0xFFFF_FFFFu32,
                f.get(0xFFFF_FFFF)
            ));
            sa(format!("{n}_SET(0u, 1u) == {}u", f.set(0, 1)));
        }
    }
    let fields: [(&str, &[Field], &str); 2] = [
        ("DESC", &desc::DESC_FIELDS, "desc"),
        ("FRAME", &frame::HEADER_FIELDS, "frame_header"),
    ];
    for (g, fields, tag) in fields {
        for f in fields {
            let n = format!("{p}_{g}_{}", f.name.to_uppercase());
            sa(format!(
                "{n}_OFFSET == {}u && {n}_SIZE == {}u",
                f.offset, f.size
            ));
            let l = p.to_lowercase();
            sa(format!(
                "offsetof(struct {l}_{tag}, {}) == {}u",
                f.name, f.offset
            ));
            sa(format!(
                "sizeof(((struct {l}_{tag} *)0)->{}) == {}u",
                f.name, f.size
            ));
        }
    }
    sa(format!(
        "sizeof(struct {}_desc) == {}u",
        p.to_lowercase(),
        desc::DESC_LEN
    ));
    sa(format!("{p}_OP_DECOMPRESS == {}u", desc::OP_DECOMPRESS));
    for (code, bits) in desc::ELEM_CODES {
        sa(format!("{p}_ELEM_{bits} == {code}u"));
    }
    for e in error::ALL {
        sa(format!("{p}_ERR_{} == {}u", e.name, e.code));
    }
    let magic = u32::from_le_bytes(frame::MAGIC);
    sa(format!(
        "{p}_FRAME_MAGIC == {magic}u && {p}_FRAME_VERSION == {}u",
        frame::VERSION
    ));
    sa(format!("{p}_FRAME_HEADER_LEN == {}u", frame::HEADER_LEN));
    sa(format!("{p}_FRAME_META_LEN(3) == {}u", frame::meta_len(3)));
    s
}

/// A function using the struct and the macros of prefix `p`.
fn user(p: &str) -> String {
    let l = p.to_lowercase();
    format!(
        "uint32_t {l}_use(struct {l}_desc *d, uint32_t hwcfg);\n\
         uint32_t {l}_use(struct {l}_desc *d, uint32_t hwcfg)\n{{\n\
         \x20   struct {l}_hwcfg c = {l}_hwcfg_decode(hwcfg);\n\
         \x20   d->control = {p}_DESC_CONTROL_OP_SET(0u, {p}_OP_COMPRESS);\n\
         \x20   d->control = {p}_DESC_CONTROL_ELEM_SET(d->control, {p}_ELEM_16);\n\
         \x20   d->next = 0u;\n\
         \x20   return {p}_DESC_STATUS_ERROR_GET(d->status) + c.bus_bytes_log2\n\
         \x20       + (uint32_t)({l}_err_name({p}_ERR_ABORTED)[0] == 'A');\n}}\n"
    )
}

#[test]
fn header_compiles_as_c11_and_cxx11_with_the_spec_values() {
    let dir = work_dir("single");
    std::fs::write(dir.join("cdma.h"), c_header("CDMA")).unwrap();
    let src = format!(
        "#include \"cdma.h\"\n{ASSERT_MACRO}{}{}",
        asserts("CDMA"),
        user("CDMA")
    );
    std::fs::write(dir.join("use.c"), src).unwrap();
    compile_c_and_cxx(&dir, "use.c");
}

#[test]
fn two_prefixes_coexist_in_one_translation_unit() {
    let dir = work_dir("two");
    let mut src = String::from(ASSERT_MACRO);
    for p in ["CDMA", "CDMB"] {
        let h = c_header(p);
        for line in h.lines().filter(|l| l.starts_with("#define ")) {
            let name = &line["#define ".len()..];
            assert!(name.starts_with(&format!("{p}_")), "{p}: {line}");
        }
        std::fs::write(dir.join(format!("{}.h", p.to_lowercase())), h).unwrap();
        src = format!(
            "#include \"{}.h\"\n{src}{}{}",
            p.to_lowercase(),
            asserts(p),
            user(p)
        );
    }
    std::fs::write(dir.join("both.c"), src).unwrap();
    compile_c_and_cxx(&dir, "both.c");
}

#[test]
fn c_program_prints_the_spec_layout() {
    let dir = work_dir("run");
    std::fs::write(dir.join("cdma.h"), c_header("CDMA")).unwrap();
    let mut c = String::from("#include <stdio.h>\n#include <string.h>\n#include \"cdma.h\"\n");
    c.push_str("static void dump(const void *p, size_t n)\n{\n    const unsigned char *b = p;\n");
    c.push_str("    size_t i;\n    for (i = 0; i < n; i++) printf(\"%02x\", b[i]);\n");
    c.push_str("    printf(\"\\n\");\n}\n\nint main(void)\n{\n    struct cdma_desc d;\n");
    c.push_str("    struct cdma_frame_header h;\n    memset(&d, 0, sizeof d);\n");
    c.push_str("    memset(&h, 0, sizeof h);\n");
    let mut want = String::new();
    let mut desc_bytes = [0u8; desc::DESC_LEN];
    let mut head_bytes = [0u8; frame::HEADER_LEN];
    let fields: [(&str, &[Field], &str, &mut [u8]); 2] = [
        ("DESC", &desc::DESC_FIELDS, "d", &mut desc_bytes),
        ("FRAME", &frame::HEADER_FIELDS, "h", &mut head_bytes),
    ];
    for (g, fields, var, bytes) in fields {
        let ty = if var == "d" {
            "cdma_desc"
        } else {
            "cdma_frame_header"
        };
        writeln!(c, "    printf(\"{g} %zu\\n\", sizeof(struct {ty}));").unwrap();
        writeln!(want, "{g} {}", bytes.len()).unwrap();
        for (i, f) in fields.iter().enumerate() {
            let n = f.name;
            writeln!(
                c,
                "    printf(\"{g}.{n} %zu %zu %u\\n\", offsetof(struct {ty}, {n}), sizeof {var}.{n}, \
                 (unsigned)CDMA_{g}_{}_OFFSET);",
                n.to_uppercase()
            )
            .unwrap();
            writeln!(want, "{g}.{n} {} {} {}", f.offset, f.size, f.offset).unwrap();
            // A distinct value per field, stored through the struct member in C.
            let v = 0x0102_0304_0506_0708u64.wrapping_mul(i as u64 + 1);
            f.put(bytes, v);
            let keep = if f.size == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * f.size)) - 1
            };
            writeln!(c, "    {var}.{n} = {}u;", v & keep).unwrap();
        }
        writeln!(c, "    dump(&{var}, sizeof {var});").unwrap();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        writeln!(want, "{hex}").unwrap();
    }
    for r in csr::ALL {
        writeln!(
            c,
            "    printf(\"CSR_{n} %u\\n\", (unsigned)CDMA_CSR_{n});",
            n = r.name
        )
        .unwrap();
        writeln!(want, "CSR_{} {}", r.name, r.addr).unwrap();
    }
    let hw = csr::HWCFG_BITS
        .iter()
        .enumerate()
        .fold(0u64, |w, (i, f)| f.set(w, 3 + i as u64 * 5));
    writeln!(
        c,
        "    {{\n        struct cdma_hwcfg k = cdma_hwcfg_decode({hw}u);"
    )
    .unwrap();
    for f in csr::HWCFG_BITS {
        writeln!(
            c,
            "        printf(\"HWCFG.{n} %u\\n\", (unsigned)k.{n});",
            n = f.name
        )
        .unwrap();
        writeln!(want, "HWCFG.{} {}", f.name, f.get(hw)).unwrap();
    }
    c.push_str("    }\n");
    for e in error::ALL {
        writeln!(
            c,
            "    printf(\"ERR %u %s\\n\", (unsigned)CDMA_ERR_{n}, cdma_err_name(CDMA_ERR_{n}));",
            n = e.name
        )
        .unwrap();
        writeln!(want, "ERR {} {}", e.code, e.name).unwrap();
    }
    c.push_str("    printf(\"MAGIC %08x\\n\", (unsigned)CDMA_FRAME_MAGIC);\n    return 0;\n}\n");
    writeln!(want, "MAGIC {:08x}", u32::from_le_bytes(frame::MAGIC)).unwrap();
    std::fs::write(dir.join("layout.c"), c).unwrap();
    let exe = dir.join("layout");
    let mut cc = Command::new("cc");
    cc.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o"])
        .arg(&exe)
        .arg(dir.join("layout.c"))
        .arg("-I")
        .arg(&dir);
    run(&mut cc, "cc -o layout");
    let got = run(&mut Command::new(&exe), "running the layout program");
    assert_eq!(got, want, "the C program disagrees with the spec");
}

#[test]
#[should_panic(expected = "not a C identifier")]
fn prefix_must_be_an_identifier() {
    c_header("2dma");
}
