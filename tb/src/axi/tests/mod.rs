//! Unit tests of the AXI memory model: under traffic from a Rust master, rule by rule with
//! scripted signals, and bound to a fake DUT.

mod binding;
mod master;
mod protocol;
mod traffic;
