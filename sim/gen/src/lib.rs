//! The generator behind `cdma-sim`'s build script, our own Verilator bridge. A build script
//! cannot use its own crate's library, so the generator is this crate, a build-dependency of
//! `cdma-sim`, with unit tests on small inputs.
//!
//! For every top (the rust-hdl tops plus the bridge's width self-test top in `sim/verilog/`),
//! [`build`]
//! 1. writes the Verilog into `OUT_DIR`, runs `verilator --cc -O3 --trace` ([`verilator`]),
//! 2. reads the generated model header back and checks that Verilator's ports are exactly the
//!    port list rust-hdl gave us, names, directions and widths ([`ports`], [`names`]),
//! 3. generates an `extern "C"` shim (`shim_<module>.cpp`) from the port list ([`shim`]),
//! 4. compiles the Verilator runtime once, every model and every shim with `cc` at `-O2`
//!    (even in debug builds: an unoptimised model is ~10x slower and the tests stream whole
//!    tensors through it), into cached static libraries ([`compile`], [`cache`]),
//! 5. compiles GTKWave's FST writer (shipped with Verilator) once, for `cdma-sim`'s
//!    VCD-to-FST trace converter ([`fst`]),
//! 6. generates the safe Rust wrappers (`tops.rs`, included by `cdma-sim`'s `src/lib.rs`,
//!    [`wrapper`]).
//!
//! Nothing here is specific to one top: adding a top to `cdma_hdl::all_tops()` is all it takes.

#![warn(missing_docs)]

pub mod cache;
pub mod compile;
pub mod driver;
pub mod error;
pub mod fst;
pub mod makefile;
pub mod names;
pub mod ports;
pub mod shim;
pub mod top;
pub mod verilator;
pub mod wrapper;

pub use driver::build;
pub use top::{Dir, PortSpec, TopSpec};
