//! Binds the testbench traits to the Verilated tops of `cdma-sim` through its dynamic [`Dut`]
//! interface: ports are looked up by name once, so one adapter serves every element width and
//! a renamed or missing port fails at construction with the bridge's own message.

use crate::dut::{Clocked, CompressorPorts, DecompressorPorts};
use cdma_model::ElemWidth;
use cdma_sim::{new_dut, Dut};
use std::path::Path;

/// A Verilated top plus the port indices a driver needs.
struct Bound {
    dut: Box<dyn Dut>,
    rst: usize,
    elem_bits: u32,
}

impl Bound {
    fn new(module: &str, elem: ElemWidth) -> Result<Self, String> {
        let dut = new_dut(module).map_err(|e| e.to_string())?;
        let rst = dut.port("rst").map_err(|e| e.to_string())?;
        if dut.ports()[rst].width != 1 {
            return Err(format!("{module}.rst is not 1 bit"));
        }
        Ok(Bound {
            dut,
            rst,
            elem_bits: elem.bits(),
        })
    }

    fn port(&self, name: &str) -> Result<usize, String> {
        self.dut.port(name).map_err(|e| e.to_string())
    }

    /// A control port (handshake, count, flag): at most 32 bits, so [`Bound::set`] and
    /// [`Bound::get`] move it in one word.
    fn control(&self, name: &str) -> Result<usize, String> {
        let i = self.port(name)?;
        let width = self.dut.ports()[i].width;
        if width > 32 {
            return Err(format!(
                "{}.{name} is {width} bits, expected a control port of at most 32",
                self.dut.module()
            ));
        }
        Ok(i)
    }

    // Port indices and widths are checked at construction, so a failing set/get here is a
    // bridge bug, not a test outcome.
    // Control ports are at most 32 bits wide: one stack word, no allocation per cycle.
    fn set(&mut self, port: usize, v: u64) {
        let w = [u32::try_from(v).expect("control values fit in 32 bits")];
        self.dut
            .set_words(port, &w)
            .expect("port checked at construction");
    }
    fn set_words(&mut self, port: usize, w: &[u32]) {
        self.dut
            .set_words(port, w)
            .expect("port checked at construction");
    }
    fn get(&self, port: usize) -> u64 {
        let mut w = [0u32; 1];
        self.dut
            .get_words(port, &mut w)
            .expect("port checked at construction");
        u64::from(w[0])
    }
    fn get_words(&self, port: usize) -> Vec<u32> {
        let mut w = vec![0u32; self.dut.ports()[port].words()];
        self.dut
            .get_words(port, &mut w)
            .expect("port checked at construction");
        w
    }

    /// Synchronous reset: `rst` high for two cycles with the inputs idle (the caller has
    /// idled them), then low.
    fn reset(&mut self) {
        self.set(self.rst, 1);
        self.dut.tick();
        self.dut.tick();
        self.set(self.rst, 0);
        self.dut.eval();
    }

    fn trace(&mut self, path: &Path) -> Result<(), String> {
        self.dut.trace(path).map_err(|e| e.to_string())
    }

    fn trace_window(&mut self, from_cycle: u64, to_cycle: u64) -> Result<(), String> {
        self.dut
            .trace_window(from_cycle, to_cycle)
            .map_err(|e| e.to_string())
    }

    fn close_trace(&mut self) -> Result<(), String> {
        self.dut.close_trace().map_err(|e| e.to_string())
    }
}

/// A ZVC block's top: the [`Bound`] model and the two streams both blocks have (input
/// `in_data`/`in_last`/`in_valid`/`in_ready`, output `out_data`/`out_last`/`out_valid`/
/// `out_ready`); the adapters add their block's own ports.
struct StreamTop {
    b: Bound,
    in_data: usize,
    in_last: usize,
    in_valid: usize,
    in_ready: usize,
    out_data: usize,
    out_last: usize,
    out_valid: usize,
    out_ready: usize,
}

impl StreamTop {
    fn new(b: Bound) -> Result<Self, String> {
        Ok(StreamTop {
            in_data: b.port("in_data")?,
            in_last: b.control("in_last")?,
            in_valid: b.control("in_valid")?,
            in_ready: b.control("in_ready")?,
            out_data: b.port("out_data")?,
            out_last: b.control("out_last")?,
            out_valid: b.control("out_valid")?,
            out_ready: b.control("out_ready")?,
            b,
        })
    }

    /// Drives the input stream's data, last and valid.
    fn set_in(&mut self, data: &[u32], last: bool, valid: bool) {
        self.b.set_words(self.in_data, data);
        self.b.set(self.in_last, last.into());
        self.b.set(self.in_valid, valid.into());
    }

    fn set_out_ready(&mut self, ready: bool) {
        self.b.set(self.out_ready, ready.into());
    }

    fn in_ready(&self) -> bool {
        self.b.get(self.in_ready) != 0
    }

    fn out_valid(&self) -> bool {
        self.b.get(self.out_valid) != 0
    }

    fn out_data(&self) -> Vec<u32> {
        self.b.get_words(self.out_data)
    }

    fn out_last(&self) -> bool {
        self.b.get(self.out_last) != 0
    }
}

/// The Verilated `ZvcCompressor` of one element width.
pub struct CompressorDut {
    t: StreamTop,
    out_count: usize,
}

impl CompressorDut {
    /// Builds `cdma_zvc_compressor_e{E}`.
    pub fn new(elem: ElemWidth) -> Result<Self, String> {
        let b = Bound::new(&format!("cdma_zvc_compressor_e{}", elem.bits()), elem)?;
        let out_count = b.control("out_count")?;
        Ok(CompressorDut {
            t: StreamTop::new(b)?,
            out_count,
        })
    }
}

/// Both adapters clock, reset and trace the same way through their [`StreamTop`]; `reset`
/// idles the handshake inputs the adapter owns first.
macro_rules! clocked {
    ($t:ty) => {
        impl Clocked for $t {
            fn eval(&mut self) {
                self.t.b.dut.eval();
            }
            fn tick(&mut self) {
                self.t.b.dut.tick();
            }
            fn reset(&mut self) {
                self.t.b.set(self.t.in_valid, 0);
                self.t.b.set(self.t.out_ready, 0);
                self.t.b.reset();
            }
            fn trace(&mut self, path: &Path) -> Result<(), String> {
                self.t.b.trace(path)
            }
            fn trace_window(&mut self, from_cycle: u64, to_cycle: u64) -> Result<(), String> {
                self.t.b.trace_window(from_cycle, to_cycle)
            }
            fn close_trace(&mut self) -> Result<(), String> {
                self.t.b.close_trace()
            }
        }
    };
}

clocked!(CompressorDut);

/// The methods [`CompressorPorts`] and [`DecompressorPorts`] share, answered by the
/// [`StreamTop`] of either adapter.
macro_rules! stream_ports {
    () => {
        fn elem_bits(&self) -> u32 {
            self.t.b.elem_bits
        }
        fn set_out_ready(&mut self, ready: bool) {
            self.t.set_out_ready(ready);
        }
        fn in_ready(&self) -> bool {
            self.t.in_ready()
        }
        fn out_valid(&self) -> bool {
            self.t.out_valid()
        }
    };
}

impl CompressorPorts for CompressorDut {
    stream_ports!();
    fn set_in(&mut self, data: &[u32], last: bool, valid: bool) {
        self.t.set_in(data, last, valid);
    }
    fn out_beat(&self) -> (Vec<u32>, u32, bool) {
        let count = self.t.b.get(self.out_count) as u32;
        (self.t.out_data(), count, self.t.out_last())
    }
}

/// The Verilated `ZvcDecompressor` of one element width.
pub struct DecompressorDut {
    t: StreamTop,
    in_count: usize,
    error: usize,
}

impl DecompressorDut {
    /// Builds `cdma_zvc_decompressor_e{E}`.
    pub fn new(elem: ElemWidth) -> Result<Self, String> {
        let b = Bound::new(&format!("cdma_zvc_decompressor_e{}", elem.bits()), elem)?;
        let in_count = b.control("in_count")?;
        let error = b.control("error")?;
        Ok(DecompressorDut {
            t: StreamTop::new(b)?,
            in_count,
            error,
        })
    }
}

clocked!(DecompressorDut);

impl DecompressorPorts for DecompressorDut {
    stream_ports!();
    fn set_in(&mut self, data: &[u32], count: u32, last: bool, valid: bool) {
        // Input ports are plain stores until the next `eval`: their order does not matter.
        self.t.set_in(data, last, valid);
        self.t.b.set(self.in_count, count.into());
    }
    fn out_block(&self) -> (Vec<u32>, bool) {
        (self.t.out_data(), self.t.out_last())
    }
    fn error(&self) -> bool {
        self.t.b.get(self.error) != 0
    }
}

/// A boxed compressor for `elem`. Panics with the bridge's message if the top was not built
/// (a build problem, not a test outcome).
pub fn new_compressor(elem: ElemWidth) -> Box<dyn CompressorPorts> {
    Box::new(
        CompressorDut::new(elem).unwrap_or_else(|e| panic!("compressor e{}: {e}", elem.bits())),
    )
}

/// A boxed decompressor for `elem` (panics like [`new_compressor`]).
pub fn new_decompressor(elem: ElemWidth) -> Box<dyn DecompressorPorts> {
    Box::new(
        DecompressorDut::new(elem).unwrap_or_else(|e| panic!("decompressor e{}: {e}", elem.bits())),
    )
}
