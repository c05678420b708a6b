//! Test support: checks a block's emitted Verilog against its rust-hdl simulation, cycle by
//! cycle. The custom Verilog bodies (`crate::prims`, `ChunkFifo`, `HeaderPack`) and
//! rust-hdl's translation of the `#[hdl_gen]` code are otherwise only linted.
//!
//! A test runs a scenario inside [`recording`]: the run loop calls [`record`] once per
//! cycle after the combinational logic settled (before the rising edge), which samples every
//! top-level port. [`check`] then writes the block's Verilog, the input and expected output
//! vectors and a SystemVerilog testbench that holds `rst` for two cycles (like
//! `testutil::reset_block!`), replays the inputs and compares every output (`!==`) before
//! each rising edge; it builds the testbench with `verilator --binary` (uninitialised state
//! zero, as in rust-hdl's simulator) and fails on any mismatch.

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::Command;

use rust_hdl::core::prelude::*;

use crate::emit::StandaloneBlock;

/// One port: name, width, input?
type PortInfo = (String, usize, bool);

/// Sampled ports of a run: the port list (clock excluded) and, per cycle, the inputs' and
/// outputs' bits (MSB first, ports concatenated in list order).
#[derive(Default)]
pub struct Trace {
    ports: Vec<PortInfo>,
    rows: Vec<(String, String)>,
}

thread_local! {
    static TRACE: RefCell<Option<Trace>> = const { RefCell::new(None) };
}

#[derive(Default)]
struct PortProbe {
    depth: usize,
    ports: Vec<(PortInfo, String)>,
}

fn bits_of(v: VCDValue) -> String {
    let one = |x: String| match x.as_str() {
        "V0" => '0',
        "V1" => '1',
        _ => 'x',
    };
    match v {
        VCDValue::Single(x) => one(format!("{x:?}")).to_string(),
        VCDValue::Vector(xs) => xs.iter().map(|x| one(format!("{x:?}"))).collect(),
        _ => panic!("unsupported port type"),
    }
}

impl Probe for PortProbe {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if self.depth != 1 || name == "clock" {
            return;
        }
        let input = match signal.kind() {
            AtomKind::InputParameter => true,
            AtomKind::OutputParameter | AtomKind::OutputPassthrough => false,
            _ => return,
        };
        let bits = bits_of(signal.vcd());
        assert_eq!(bits.len(), signal.bits(), "{name}");
        self.ports
            .push(((name.to_owned(), signal.bits(), input), bits));
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
}

/// Samples every port of `uut` if this thread is [`recording`] (else does nothing).
pub fn record<B: Block>(uut: &B) {
    TRACE.with(|t| {
        let mut t = t.borrow_mut();
        let Some(trace) = t.as_mut() else { return };
        let mut probe = PortProbe::default();
        uut.accept("top", &mut probe);
        let ports: Vec<PortInfo> = probe.ports.iter().map(|p| p.0.clone()).collect();
        if trace.ports.is_empty() {
            trace.ports = ports;
        } else {
            assert_eq!(trace.ports, ports, "one block per recording");
        }
        let cat = |input: bool| {
            probe
                .ports
                .iter()
                .filter(|p| p.0 .2 == input)
                .map(|p| p.1.as_str())
                .collect::<String>()
        };
        trace.rows.push((cat(true), cat(false)));
    });
}

/// Runs `f` with per-cycle sampling on and returns what [`record`] sampled.
pub fn recording(f: impl FnOnce()) -> Trace {
    TRACE.with(|t| *t.borrow_mut() = Some(Trace::default()));
    f();
    TRACE.with(|t| t.borrow_mut().take().expect("recording"))
}

/// Replays `trace` on `block`'s Verilog under Verilator and panics on any output mismatch.
pub fn check(block: &StandaloneBlock, trace: &Trace) {
    assert!(!trace.rows.is_empty(), "nothing recorded");
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "cdma-hdl-vcheck-{}-{}",
        block.module,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create check dir");
    let w = |f: &str, s: &str| std::fs::write(dir.join(f), s).expect("write check file");
    w("dut.v", &block.verilog);
    let mem = |pick: fn(&(String, String)) -> &String| {
        trace
            .rows
            .iter()
            .map(|r| format!("{}\n", pick(r)))
            .collect::<String>()
    };
    w("in.mem", &mem(|r| &r.0));
    w("out.mem", &mem(|r| &r.1));
    let (ins, outs): (Vec<&PortInfo>, Vec<&PortInfo>) = trace.ports.iter().partition(|p| p.2);
    let width = |ps: &[&PortInfo]| ps.iter().map(|p| p.1).sum::<usize>();
    let cat = |ps: &[&PortInfo]| {
        ps.iter()
            .map(|p| p.0.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut tb = String::from("`timescale 1ns/1ps\nmodule tb;\n  reg clock = 1'b0;\n");
    for p in &ins {
        tb += &format!("  reg [{}:0] {};\n", p.1 - 1, p.0);
    }
    for p in &outs {
        tb += &format!("  wire [{}:0] {};\n", p.1 - 1, p.0);
    }
    let conns = std::iter::once("clock".to_owned())
        .chain(trace.ports.iter().map(|p| p.0.clone()))
        .map(|n| format!(".{n}({n})"))
        .collect::<Vec<_>>()
        .join(", ");
    let (wi, wo, n) = (width(&ins), width(&outs), trace.rows.len());
    tb += &format!(
        "  {m} dut({conns});
  reg [{wi1}:0] vin [0:{n1}];
  reg [{wo1}:0] vout [0:{n1}];
  integer i;
  integer errors;
  initial begin
    errors = 0;
    $readmemb(\"in.mem\", vin);
    $readmemb(\"out.mem\", vout);
    {{{ins}}} = {wi}'d0;
    rst = 1'b1;
    repeat (2) begin #5 clock = 1'b1; #5 clock = 1'b0; end
    for (i = 0; i < {n}; i = i + 1) begin
      {{{ins}}} = vin[i];
      #1;
      if ({{{outs}}} !== vout[i]) begin
        $display(\"MISMATCH cycle %0d\\n got  %b\\n want %b\", i, {{{outs}}}, vout[i]);
        errors = errors + 1;
        if (errors > 3) $finish;
      end
      #4 clock = 1'b1;
      #5 clock = 1'b0;
    end
    if (errors == 0) $display(\"PASS %0d cycles\", {n});
    $finish;
  end
endmodule
",
        m = block.module,
        wi1 = wi - 1,
        wo1 = wo - 1,
        n1 = n - 1,
        ins = cat(&ins),
        outs = cat(&outs),
    );
    w("tb.sv", &tb);
    let build = Command::new("verilator")
        .current_dir(&dir)
        .args([
            "--binary",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "--x-initial",
            "0",
            "--x-assign",
            "0",
            "-CFLAGS",
            "-O0",
            "--top-module",
            "tb",
            "-o",
            "tb",
            "tb.sv",
            "dut.v",
        ])
        .output()
        .expect("run verilator (apt-get install -y verilator)");
    assert!(
        build.status.success(),
        "verilator build failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let run = Command::new(dir.join("obj_dir/tb"))
        .current_dir(&dir)
        .output()
        .expect("run testbench");
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        text.contains(&format!("PASS {n} cycles")),
        "{}: Verilog differs from the rust-hdl simulation:\n{text}",
        block.module
    );
    let _ = std::fs::remove_dir_all(&dir);
}
