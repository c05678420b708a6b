//! Users' own tensors (`cdma_corpus::open_inputs`): a folder of .npy, .safetensors and raw
//! files written here (the .npy headers by hand, in NumPy's format 1.0 layout; the
//! safetensors file by the `safetensors` crate), every tensor's bytes and counts checked,
//! and every file that cannot be read reported by name while the rest open.

use std::path::PathBuf;

use cdma_corpus::{open_inputs, BitStats, Dtype};

mod common;

use common::files::{npy, safetensors_file};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cdma-inputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `n` elements of `bytes` bytes each, every third one zero, the others distinct.
fn data(n: usize, bytes: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let v: u32 = if i % 3 == 0 {
                0
            } else {
                (i as u32).wrapping_mul(2_654_435_761) | 1
            };
            v.to_le_bytes()[..bytes].to_vec()
        })
        .collect()
}

#[test]
fn a_folder_of_npy_safetensors_and_raw_files_opens_without_a_manifest() {
    let d = scratch("folder");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    let f32s = data(24, 4);
    let bf16s = data(30, 2);
    let e4m3s = data(17, 1);
    let f16s = data(9, 2);
    npy(&d.join("conv1.npy"), "<f4", false, &[2, 3, 4], &f32s);
    npy(&d.join("sub/pool2.bf16.npy"), "<V2", false, &[5, 6], &bf16s);
    npy(
        &d.join("act.float8_e4m3fn.npy"),
        "|V1",
        false,
        &[17],
        &e4m3s,
    );
    npy(&d.join("half.npy"), "<f2", false, &[9], &f16s);
    // ml_dtypes saves float8_e5m2 arrays as "<f1", a type string NumPy never writes.
    npy(&d.join("e5.float8_e5m2.npy"), "<f1", false, &[17], &e4m3s);
    std::fs::write(d.join("raw.f16.bin"), &f16s).unwrap();
    // Quantized activations: NumPy's int8/uint8, and bytes a name types as an 8-bit float.
    npy(&d.join("q.npy"), "|i1", false, &[17], &e4m3s);
    npy(&d.join("qu.npy"), "|u1", false, &[17], &e4m3s);
    npy(&d.join("bytes.e4m3.npy"), "|u1", false, &[17], &e4m3s);
    std::fs::write(d.join("raw.i8.bin"), &e4m3s).unwrap();
    std::fs::write(d.join("README.txt"), "not a tensor").unwrap();
    safetensors_file(
        &d.join("net.safetensors"),
        &[
            ("relu1", safetensors::Dtype::F32, &[6, 4], &f32s),
            ("fc", safetensors::Dtype::BF16, &[30], &bf16s),
            ("q", safetensors::Dtype::I8, &[17], &e4m3s),
            ("qu", safetensors::Dtype::U8, &[17], &e4m3s),
        ],
    );

    let (corpus, errors) = open_inputs(std::slice::from_ref(&d), None);
    assert!(errors.is_empty(), "{errors:?}");
    let names: Vec<String> = corpus.entries().iter().map(|e| e.name()).collect();
    assert_eq!(
        names,
        [
            "act.float8_e4m3fn",
            "bytes.e4m3",
            "conv1",
            "e5.float8_e5m2",
            "half",
            "net/fc",
            "net/q",
            "net/qu",
            "net/relu1",
            "q",
            "qu",
            "raw.f16",
            "raw.i8",
            "sub/pool2.bf16"
        ]
    );
    let want: [(&str, Dtype, &[u8], &[usize]); 14] = [
        ("act.float8_e4m3fn", Dtype::E4m3, &e4m3s, &[17]),
        ("e5.float8_e5m2", Dtype::E5m2, &e4m3s, &[17]),
        ("conv1", Dtype::F32, &f32s, &[2, 3, 4]),
        ("half", Dtype::F16, &f16s, &[9]),
        ("net/fc", Dtype::Bf16, &bf16s, &[30]),
        ("net/relu1", Dtype::F32, &f32s, &[6, 4]),
        ("raw.f16", Dtype::F16, &f16s, &[9]),
        ("sub/pool2.bf16", Dtype::Bf16, &bf16s, &[5, 6]),
        ("q", Dtype::I8, &e4m3s, &[17]),
        ("qu", Dtype::U8, &e4m3s, &[17]),
        ("bytes.e4m3", Dtype::E4m3, &e4m3s, &[17]),
        ("raw.i8", Dtype::I8, &e4m3s, &[17]),
        ("net/q", Dtype::I8, &e4m3s, &[17]),
        ("net/qu", Dtype::U8, &e4m3s, &[17]),
    ];
    for (name, dtype, bytes, shape) in want {
        let e = corpus.find(name).unwrap();
        assert_eq!(e.dtype, dtype, "{name}");
        assert_eq!(e.shape, shape, "{name}");
        assert_eq!(corpus.read(e).unwrap(), bytes, "{name}: the tensor's bytes");
        let s = BitStats::of(dtype, bytes);
        assert_eq!(
            (e.elements, e.pos_zero, e.neg_zero, e.non_finite),
            (s.elements, s.pos_zero, s.neg_zero, s.non_finite),
            "{name}"
        );
        assert!(e.pos_zero > 0 && e.sparsity > 0.0, "{name}: zeros counted");
        if !dtype.is_float() {
            assert_eq!((e.neg_zero, e.non_finite), (0, 0), "{name}: integers");
        }
    }
    assert_eq!(corpus.find("net/relu1").unwrap().net, "net");
    assert_eq!(corpus.find("sub/pool2.bf16").unwrap().net, "sub");
    // A tensor changed after it was opened is caught, not read as it is now.
    npy(
        &d.join("conv1.npy"),
        "<f4",
        false,
        &[2, 3, 4],
        &data(24, 4).iter().map(|b| b ^ 1).collect::<Vec<_>>(),
    );
    let err = corpus.read(corpus.find("conv1").unwrap()).unwrap_err();
    assert!(err.to_string().contains("sha256"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn files_that_cannot_be_read_are_named_and_the_rest_open() {
    let d = scratch("errors");
    let f32s = data(8, 4);
    npy(&d.join("good.npy"), "<f4", false, &[8], &f32s);
    npy(&d.join("anon.npy"), "<V2", false, &[16], &data(16, 2));
    npy(&d.join("big.npy"), ">f4", false, &[8], &f32s);
    npy(&d.join("fortran.npy"), "<f4", true, &[2, 4], &f32s);
    npy(&d.join("f64.npy"), "<f8", false, &[4], &f32s);
    npy(&d.join("short.npy"), "<f4", false, &[9], &f32s);
    // 2^62 elements of 4 bytes: the byte count overflows, it must not wrap to a small one.
    npy(
        &d.join("huge.npy"),
        "<f4",
        false,
        &[1 << 31, 1 << 31],
        &f32s,
    );
    std::fs::write(d.join("untyped.bin"), &f32s).unwrap();
    std::fs::write(d.join("odd.f32.bin"), [0u8; 6]).unwrap();
    std::fs::write(d.join("junk.safetensors"), b"not json").unwrap();
    safetensors_file(
        &d.join("mixed.safetensors"),
        &[
            ("ok", safetensors::Dtype::F16, &[16], &data(16, 2)),
            ("ints", safetensors::Dtype::I32, &[8], &f32s),
        ],
    );

    let (corpus, errors) = open_inputs(std::slice::from_ref(&d), None);
    let names: Vec<String> = corpus.entries().iter().map(|e| e.name()).collect();
    assert_eq!(names, ["good", "mixed/ok"]);
    let said = |file: &str, words: &str| {
        let e = errors
            .iter()
            .find(|e| e.what.ends_with(file))
            .unwrap_or_else(|| panic!("no error for {file}: {errors:?}"));
        assert!(e.message.contains(words), "{file}: {}", e.message);
    };
    said("anon.npy", "--dtype");
    said("big.npy", "big-endian");
    said("fortran.npy", "Fortran");
    said("f64.npy", "not one cdma compresses");
    said("short.npy", "shorter");
    said("huge.npy", "shorter");
    said("untyped.bin", "--dtype");
    said("odd.f32.bin", "whole number");
    said("junk.safetensors", "not a .safetensors");
    said("mixed.safetensors:ints", "I32");
    assert_eq!(errors.len(), 10, "{errors:?}");

    // The caller's type names what a file does not say, and must agree with what it does.
    let (corpus, errors) = open_inputs(
        &[d.join("anon.npy"), d.join("untyped.bin")],
        Some(Dtype::Bf16),
    );
    assert_eq!(corpus.find("anon").unwrap().dtype, Dtype::Bf16);
    assert_eq!(corpus.find("untyped").unwrap().elements, 16);
    assert!(errors.is_empty(), "{errors:?}");
    let (_, errors) = open_inputs(&[d.join("good.npy")], Some(Dtype::Bf16));
    assert!(errors[0].message.contains("not bf16"), "{errors:?}");
    let _ = std::fs::remove_dir_all(&d);
}
