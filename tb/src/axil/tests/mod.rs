//! Unit tests of the AXI4-Lite master against a Rust register file ([`regfile`]), directly and
//! through a fake DUT.

mod binding;
mod master;
mod regfile;
