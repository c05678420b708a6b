//! Unit tests of the bench and runner against a pure-Rust engine ([`fake_engine`]).

mod fake_engine;
mod runs;
