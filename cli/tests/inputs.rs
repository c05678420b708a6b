//! `cdma compress` and `cdma sim` on a user's .npy / .safetensors file: the file's element
//! type types the run, the data round-trips bit for bit, and a file of several tensors is
//! refused with their names.

mod common;

use common::{cdma, cdma_ok, npy, safetensors_file, text};

#[test]
fn compress_and_sim_take_npy_and_safetensors_files() {
    let corpus = cdma_corpus::Corpus::open_default().unwrap();
    let dir = std::env::temp_dir().join(format!("cdma-cli-inputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let e = corpus.find("fmnist.step0050.conv2_1.relu.bf16").unwrap();
    let bf16 = corpus.read(e).unwrap();
    let act = dir.join("act.bf16.npy");
    npy(&act, "<V2", false, &e.shape, &bf16);
    let frame = dir.join("act.cdma");
    let out = cdma_ok(&[
        "compress",
        "--codec",
        "zvcx",
        act.to_str().unwrap(),
        frame.to_str().unwrap(),
    ]);
    assert!(
        out.contains("bf16"),
        "the file's type types the frame: {out}"
    );
    let back = dir.join("act.out");
    cdma_ok(&[
        "decompress",
        frame.to_str().unwrap(),
        back.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&back).unwrap(), bf16, "bit for bit");
    let out = cdma_ok(&[
        "sim",
        "--block",
        "compressor",
        "--input",
        act.to_str().unwrap(),
    ]);
    assert!(
        out.contains("e16: bit-exact"),
        "16-bit elements from the file: {out}"
    );
    let out = cdma(&[
        "sim",
        "--block",
        "compressor",
        "--elem",
        "32",
        "--input",
        act.to_str().unwrap(),
    ]);
    assert!(
        !out.status.success() && text(&out).contains("holds bf16"),
        "{}",
        text(&out)
    );

    let st = dir.join("two.safetensors");
    safetensors_file(
        &st,
        &[
            ("a", safetensors::Dtype::BF16, &[4], &[0; 8]),
            ("b", safetensors::Dtype::BF16, &[4], &[0; 8]),
        ],
    );
    let out = cdma(&["compress", st.to_str().unwrap(), frame.to_str().unwrap()]);
    assert!(
        !out.status.success() && text(&out).contains("two/a, two/b"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
