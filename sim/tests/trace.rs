//! VCD tracing writes the ports and one time step per clock phase.

use cdma_sim::{CdmaSimWidths, Dut, SimError};
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cdma-sim-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn vcd_has_ports_values_and_time_steps() {
    let path = tmp("widths.vcd");
    let mut d = CdmaSimWidths::new();
    d.trace(&path).unwrap();
    d.set_d7(0b101_0011);
    d.set_d65(&[0, 0, 1]);
    for _ in 0..3 {
        d.tick();
    }
    d.close_trace().unwrap();
    let vcd = std::fs::read_to_string(&path).unwrap();
    for port in [
        "clock", "rst", "d7", "q7", "d65", "d1056", "n1056", "cycles",
    ] {
        assert!(
            vcd.lines()
                .any(|l| l.trim_start().starts_with("$var")
                    && l.split_whitespace().nth(4) == Some(port)),
            "no $var for {port}"
        );
    }
    let steps: Vec<u64> = vcd
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(steps, (0..6).collect::<Vec<_>>(), "two steps per tick");
    assert!(vcd.contains("b1010011 "), "d7's value is not in the trace");
    // d65 = 1 << 64: a 65-bit vector with only its top bit set.
    assert!(vcd.contains(&format!("b1{} ", "0".repeat(64))));
    // Verilator writes every bit of a vector: cycles = 3 as 32 bits.
    assert!(
        vcd.contains(&format!("b{:032b} ", 3)),
        "cycles never reached 3"
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn trace_can_be_reopened_and_is_closed_on_drop() {
    let (p1, p2) = (tmp("first.vcd"), tmp("second.vcd"));
    {
        let mut d = CdmaSimWidths::new();
        d.tick();
        d.trace(&p1).unwrap();
        d.tick();
        d.trace(&p2).unwrap(); // closes p1
        d.tick();
        // Dropped with p2 open: Drop must flush and close it.
    }
    let a = std::fs::read_to_string(&p1).unwrap();
    let b = std::fs::read_to_string(&p2).unwrap();
    assert!(a.contains("#2") && a.contains("#3") && !a.contains("#4"));
    assert!(b.contains("#4") && b.contains("#5"));
    assert!(b.contains("$enddefinitions"));
    std::fs::remove_file(&p1).unwrap();
    std::fs::remove_file(&p2).unwrap();
}

#[test]
fn unwritable_trace_path_is_an_error() {
    let mut d = CdmaSimWidths::new();
    let err = d
        .trace(std::path::Path::new("/nonexistent-dir/x.vcd"))
        .unwrap_err();
    assert!(matches!(err, SimError::Trace { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent-dir/x.vcd"));
    // The model still works without a trace.
    d.tick();
    assert_eq!(Dut::time(&d), 2);
}

#[test]
fn low_phase_step_shows_inputs_changed_after_eval() {
    // tick() skips its own low-phase eval only while nothing changed since the testbench's
    // eval(); the trace's low-phase step must show logic settled on the latest inputs.
    let path = tmp("settle.vcd");
    let mut d = CdmaSimWidths::new();
    d.trace(&path).unwrap();
    d.set_d1056(&[7; 33]);
    d.eval();
    d.set_d1056(&[9; 33]);
    d.tick();
    d.close_trace().unwrap();
    let vcd = std::fs::read_to_string(&path).unwrap();
    let low = &vcd[vcd.find("#0").unwrap()..vcd.find("#1").unwrap()];
    let bits = |w: u32| format!("b{} ", format!("{w:032b}").repeat(33));
    assert!(low.contains(&bits(!9)), "n1056 at the low phase is not ~9");
    assert!(!low.contains(&bits(!7)), "n1056 at the low phase is stale");
    std::fs::remove_file(&path).unwrap();
}
