//! `cdma regress --junit FILE`: the run's cases as JUnit XML for a CI farm's test view (written
//! with `quick-junit`): a test suite for the ZVC blocks and one per DMA engine; a test case per
//! tensor × block × seed and per DMA case, a failure's text the mismatch.

use std::path::Path;

use cdma_tb::dma::DmaResult;
use cdma_tb::regress::CaseResult;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

fn case(name: String, classname: &str, failure: Option<&str>) -> TestCase {
    let status = match failure {
        None => TestCaseStatus::success(),
        Some(f) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let first = f.lines().next().unwrap_or(f);
            s.set_message(first).set_description(f);
            s
        }
    };
    let mut c = TestCase::new(name, status);
    c.set_classname(classname);
    c
}

/// The ZVC block runs: each result is a tensor and seed through both blocks; its failure
/// text names the block(s) that failed (`compressor: ...; decompressor: ...`), else both.
pub fn blocks_suite(results: &[CaseResult]) -> TestSuite {
    let mut suite = TestSuite::new("cdma regress: ZVC blocks");
    for r in results {
        for block in ["compressor", "decompressor"] {
            let failure = r.failure.as_deref().and_then(|f| {
                let mine: Vec<&str> = f
                    .split("; ")
                    .filter(|p| p.starts_with(&format!("{block}:")))
                    .collect();
                let named = f.contains("compressor:") || f.contains("decompressor:");
                match (mine.is_empty(), named) {
                    (false, _) => Some(mine.join("; ")),
                    (true, true) => None,
                    (true, false) => Some(f.to_string()),
                }
            });
            let name = format!("{} {block} seed {}", r.name, r.seed);
            suite.add_test_case(case(
                name,
                &format!("blocks.{}", r.group),
                failure.as_deref(),
            ));
        }
    }
    suite
}

/// One DMA engine's cases.
pub fn dma_suite(top: &str, results: &[DmaResult]) -> TestSuite {
    let mut suite = TestSuite::new(format!("cdma regress: {top}"));
    for r in results {
        suite.add_test_case(case(
            r.name.clone(),
            &format!("{top}.{}", r.group),
            r.failure.as_deref(),
        ));
    }
    suite
}

/// Writes `suites` to `path` as one JUnit report.
pub fn write(path: &Path, suites: Vec<TestSuite>) -> Result<(), String> {
    let mut report = Report::new("cdma regress");
    report.add_test_suites(suites);
    let xml = report.to_string().map_err(|e| e.to_string())?;
    std::fs::write(path, xml).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, failure: Option<&str>) -> CaseResult {
        CaseResult {
            name: name.into(),
            group: "relu".into(),
            seed: 1,
            comp: Default::default(),
            decomp: Default::default(),
            failure: failure.map(String::from),
        }
    }

    #[test]
    fn a_failure_is_the_failing_blocks_test_case_with_its_text() {
        let suite = blocks_suite(&[
            result("a", None),
            result(
                "b",
                Some("decompressor: output differs at byte 5 [seed 1: source x, sink y]"),
            ),
            result("c", Some("model rejected the tensor: odd length")),
        ]);
        let mut report = Report::new("t");
        report.add_test_suite(suite);
        let xml = report.to_string().unwrap();
        assert_eq!(xml.matches("<testcase ").count(), 6, "{xml}");
        assert_eq!(
            xml.matches("<failure").count(),
            3,
            "b's decompressor, c's both: {xml}"
        );
        assert!(xml.contains("output differs at byte 5"), "{xml}");
        assert!(xml.contains(r#"name="b decompressor seed 1""#), "{xml}");
        let b_comp = xml.split(r#"name="b compressor seed 1""#).nth(1).unwrap();
        let b_comp = b_comp.split("<testcase").next().unwrap();
        assert!(
            !b_comp.contains("<failure"),
            "b's compressor passed: {b_comp}"
        );
    }
}
