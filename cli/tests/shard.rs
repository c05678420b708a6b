//! `cdma regress --shard K/N`: the cases of N shards are together exactly the cases of the
//! whole run, each once (listed with `--list`, which runs none); `--junit` writes a test case
//! per tensor x block x seed.

mod common;

use common::{cdma_ok, npy};

/// The cases `cdma regress --list` names with `extra` arguments.
fn listed(extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "regress",
        "--list",
        "--seeds",
        "2",
        "--dma-top",
        "cdma_dma_dw512",
        "--dma-bad-field-chains",
        "7",
        "--dma-damaged-frame-chains",
        "5",
        "--dma-interrupts",
        "3",
        "--dma-large-mib",
        "0",
        "--dma-throughput-kib",
        "16",
    ];
    args.extend_from_slice(extra);
    cdma_ok(&args).lines().map(String::from).collect()
}

#[test]
fn four_shards_run_exactly_the_cases_of_the_whole_run() {
    let all = listed(&[]);
    assert!(all.len() > 100, "blocks and DMA cases: {}", all.len());
    assert!(all.iter().any(|l| l.starts_with("blocks ")));
    assert!(all.iter().any(|l| l.starts_with("cdma_dma_dw512 ")));
    let mut union = Vec::new();
    for k in 1..=4 {
        let shard = listed(&["--shard", &format!("{k}/4")]);
        let n = all.len();
        assert!(
            shard.len() == n / 4 || shard.len() == n / 4 + 1,
            "shard {k}/4: {} of {n} cases",
            shard.len()
        );
        union.extend(shard);
    }
    assert_eq!(union.len(), all.len(), "each case in exactly one shard");
    let (mut u, mut a) = (union.clone(), all.clone());
    u.sort();
    a.sort();
    assert_eq!(u, a, "the shards' cases are the run's");
}

#[test]
fn junit_has_a_test_case_per_tensor_block_and_seed() {
    let dir = std::env::temp_dir().join(format!("cdma-cli-junit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data: Vec<u8> = (0..256u32)
        .flat_map(|i| if i % 3 == 0 { 0.0f32 } else { i as f32 }.to_le_bytes())
        .collect();
    npy(&dir.join("act.npy"), "<f4", false, &[256], &data);
    npy(&dir.join("act2.npy"), "<f4", false, &[128], &data[..512]);
    let xml = dir.join("out.xml");
    cdma_ok(&[
        "regress",
        "--input",
        dir.to_str().unwrap(),
        "--no-edge",
        "--no-dma",
        "--seeds",
        "2",
        "--junit",
        xml.to_str().unwrap(),
    ]);
    let xml = std::fs::read_to_string(&xml).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 2 * 2 * 2, "{xml}");
    assert!(xml.contains(r#"name="act compressor seed 0""#), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
    let _ = std::fs::remove_dir_all(&dir);
}
