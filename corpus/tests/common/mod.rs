//! Shared by the corpus tests.

pub mod files;
