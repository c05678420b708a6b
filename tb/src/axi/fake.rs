//! A pure-Rust [`Dut`] with a given port list and no logic, for testing port bindings: the
//! test plays the design by writing its outputs with [`FakeDut::poke`] and reading the
//! testbench-driven inputs with [`FakeDut::peek`].

use cdma_sim::{Dir, Dut, PortInfo, SimError};
use std::path::Path;

/// A port of `width` bits.
pub(crate) fn port(name: &'static str, width: usize, dir: Dir) -> PortInfo {
    PortInfo {
        name,
        width,
        dir,
        doc: "",
    }
}

pub(crate) struct FakeDut {
    ports: &'static [PortInfo],
    vals: Vec<Vec<u32>>,
}

impl FakeDut {
    pub(crate) fn new(ports: Vec<PortInfo>) -> Self {
        let ports: &'static [PortInfo] = Box::leak(ports.into_boxed_slice());
        FakeDut {
            vals: ports.iter().map(|p| vec![0; p.words()]).collect(),
            ports,
        }
    }

    fn index(&self, name: &str) -> usize {
        self.port(name)
            .unwrap_or_else(|_| panic!("fake DUT has no port {name}"))
    }

    /// Sets any port (outputs included: the test is the design).
    pub(crate) fn poke(&mut self, name: &str, v: u64) {
        let i = self.index(name);
        let w = &mut self.vals[i];
        w[0] = v as u32;
        if w.len() > 1 {
            w[1] = (v >> 32) as u32;
        }
    }

    pub(crate) fn poke_words(&mut self, name: &str, words: &[u32]) {
        let i = self.index(name);
        self.vals[i].copy_from_slice(words);
    }

    pub(crate) fn peek(&self, name: &str) -> u64 {
        let w = &self.vals[self.index(name)];
        u64::from(w[0]) | w.get(1).map_or(0, |&x| u64::from(x) << 32)
    }

    pub(crate) fn peek_words(&self, name: &str) -> Vec<u32> {
        self.vals[self.index(name)].clone()
    }
}

impl Dut for FakeDut {
    fn module(&self) -> &'static str {
        "fake"
    }
    fn ports(&self) -> &'static [PortInfo] {
        self.ports
    }
    fn params(&self) -> &'static [(&'static str, u64)] {
        &[]
    }
    fn eval(&mut self) {}
    fn tick(&mut self) {}
    fn time(&self) -> u64 {
        0
    }
    fn trace(&mut self, _: &Path) -> Result<(), SimError> {
        Ok(())
    }
    fn trace_window(&mut self, _: u64, _: u64) -> Result<(), SimError> {
        Ok(())
    }
    fn close_trace(&mut self) -> Result<(), SimError> {
        Ok(())
    }
    fn set_words(&mut self, port: usize, words: &[u32]) -> Result<(), SimError> {
        let p = self.ports[port];
        // The same contract as the generated wrappers: inputs only, exact word count.
        if p.dir != Dir::In {
            return Err(SimError::NotAnInput {
                module: "fake",
                port: p.name,
            });
        }
        if words.len() != p.words() {
            return Err(SimError::WordCount {
                module: "fake",
                port: p.name,
                width: p.width,
                expected: p.words(),
                got: words.len(),
            });
        }
        self.vals[port].copy_from_slice(words);
        Ok(())
    }
    fn get_words(&self, port: usize, words: &mut [u32]) -> Result<(), SimError> {
        words.copy_from_slice(&self.vals[port]);
        Ok(())
    }
}
