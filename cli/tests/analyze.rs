//! `cdma analyze` reports, as its chunked size, exactly the size of the file
//! `cdma compress --no-crc` writes for the same corpus tensor (the paper's engine's frame; both
//! run as the user runs them: the built binary), and `cdma decompress` gives the tensor back.

mod common;

use common::cdma_ok as cdma;
use std::path::PathBuf;

#[test]
fn analyze_chunked_size_equals_compress_output_size() {
    let corpus = cdma_corpus::Corpus::default_dir();
    let dir = std::env::temp_dir().join(format!("cdma-cli-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, elem) in [
        ("vgg16.coffee.conv4_2.relu.f32", "32"),
        ("fmnist.step0050.conv2_1.relu.bf16", "16"),
        ("vgg16.chelsea.pool5.maxpool.f16", "16"),
        ("vgg16.rocket.conv3_3.relu.e4m3", "8"),
    ] {
        let input: PathBuf = corpus.join(format!("{name}.bin"));
        let frame = dir.join(format!("{name}.cdma"));
        cdma(&[
            "compress",
            "--no-crc",
            "--elem",
            elem,
            input.to_str().unwrap(),
            frame.to_str().unwrap(),
        ]);
        let written = std::fs::metadata(&frame).unwrap().len();
        let back = dir.join(format!("{name}.out"));
        cdma(&[
            "decompress",
            frame.to_str().unwrap(),
            back.to_str().unwrap(),
        ]);
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&input).unwrap()
        );
        let json: serde_json::Value =
            serde_json::from_str(&cdma(&["analyze", "--json", "--filter", name])).unwrap();
        let tensors = json["tensors"].as_array().unwrap();
        assert_eq!(tensors.len(), 1, "{name}: filter should select one tensor");
        assert_eq!(tensors[0]["name"], name);
        assert_eq!(tensors[0]["chunked"]["bytes"], written, "{name}");
        let raw = std::fs::metadata(&input).unwrap().len() as f64;
        assert_eq!(
            tensors[0]["chunked"]["ratio"],
            raw / written as f64,
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cdma analyze --input` on a folder of a user's files (.npy of f32 and of NumPy's anonymous
/// bf16 records, a .safetensors of fp8) measures each tensor exactly as the corpus entry with
/// the same data, and names the file it cannot read while the rest go on.
#[test]
fn analyze_input_measures_users_files_as_the_corpus() {
    let corpus = cdma_corpus::Corpus::open_default().unwrap();
    let dir = std::env::temp_dir().join(format!("cdma-cli-input-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("net")).unwrap();
    let entry = |n: &str| corpus.find(n).unwrap().clone();
    let f32e = entry("vgg16.coffee.conv4_2.relu.f32");
    let bf16e = entry("fmnist.step0050.conv2_1.relu.bf16");
    let e4m3e = entry("vgg16.rocket.conv3_3.relu.e4m3");
    common::npy(
        &dir.join("net/conv4_2.npy"),
        "<f4",
        false,
        &f32e.shape,
        &corpus.read(&f32e).unwrap(),
    );
    common::npy(
        &dir.join("net/conv2_1.bf16.npy"),
        "<V2",
        false,
        &bf16e.shape,
        &corpus.read(&bf16e).unwrap(),
    );
    common::npy(&dir.join("net/anonymous.npy"), "<V2", false, &[4], &[0; 8]);
    let fp8 = corpus.read(&e4m3e).unwrap();
    common::safetensors_file(
        &dir.join("rocket.safetensors"),
        &[("conv3_3", safetensors::Dtype::F8_E4M3, &e4m3e.shape, &fp8)],
    );

    let out = common::cdma(&["analyze", "--json", "--input", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", common::text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("anonymous.npy") && stderr.contains("--dtype"),
        "the unreadable file is named: {stderr}"
    );
    let mine: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mine = mine["tensors"].as_array().unwrap().clone();
    let names: Vec<&str> = mine.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for (name, e) in [
        ("net/conv4_2", &f32e),
        ("net/conv2_1.bf16", &bf16e),
        ("rocket/conv3_3", &e4m3e),
    ] {
        let t = mine
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {names:?}"));
        let theirs: serde_json::Value =
            serde_json::from_str(&cdma(&["analyze", "--json", "--filter", &e.name()])).unwrap();
        let theirs = &theirs["tensors"][0];
        assert_eq!(theirs["name"], e.name().as_str());
        assert_eq!(t["dtype"], theirs["dtype"], "{name}");
        assert_eq!(t["chunked"], theirs["chunked"], "{name}");
        assert_eq!(t["sparsity"], theirs["sparsity"], "{name}");
        assert_eq!(t["sizes"], theirs["sizes"], "{name}: every codec");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
