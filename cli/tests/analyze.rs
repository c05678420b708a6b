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
