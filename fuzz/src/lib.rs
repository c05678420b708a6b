//! Mutation fuzzing of the golden model's frame decoder (issue 15).
//!
//! A campaign takes well-formed frames (the *seeds*: real or synthetic data compressed by the
//! model, [`seeds`]), damages one at a time the way storage and links do — bit flips,
//! overwritten bytes, truncation, extension, header and index damage, payload splices
//! ([`mutate`]) — and decodes it. Each case is classified ([`Class`]):
//!
//! * **detected**: the decoder returns an error;
//! * **benign**: it returns exactly the original data (the damage did not matter);
//! * **silent**: it returns other data without an error — a silent corruption;
//! * **panic**: the decoder panicked;
//! * **hang**: it did not return within the watchdog's time.
//!
//! Everything is deterministic from the campaign's seed: case `i` is drawn from its own
//! generator seeded by `(seed, i)`, so any case can be replayed alone ([`campaign::case`]).
//! Cases of the classes a campaign treats as failures are shrunk ([`minimize`]) and can be
//! saved as files that the regression tests replay ([`cases`]).
//!
//! [`chains`] does the same for the golden DMA model: random descriptor chains with bad fields,
//! each checked to end, not panic and write only what docs/DESCRIPTORS.md allows.

pub mod campaign;
pub mod cases;
pub mod chains;
pub mod minimize;
pub mod mutate;
pub mod seeds;

pub use campaign::{run, Campaign, Outcome, Report};
pub use mutate::Mutation;
pub use seeds::SeedFrame;

/// What a damaged frame did to the decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The decoder refused the frame with an error.
    Detected,
    /// The decoder returned the original data.
    Benign,
    /// The decoder returned other data without an error.
    Silent,
    /// The decoder panicked.
    Panic,
    /// The decoder did not return within the watchdog's limit.
    Hang,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 5] = [
        Class::Detected,
        Class::Benign,
        Class::Silent,
        Class::Panic,
        Class::Hang,
    ];

    /// Lower-case name (report columns, saved case file names).
    pub fn name(self) -> &'static str {
        match self {
            Class::Detected => "detected",
            Class::Benign => "benign",
            Class::Silent => "silent",
            Class::Panic => "panic",
            Class::Hang => "hang",
        }
    }

    /// The class called `name`, if any.
    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// A frame decoder under test: the golden model's [`cdma_model::decompress`], or in the
/// tests a deliberately broken one. Returns the data or the error's text.
pub trait Decoder: Sync {
    /// Decodes `frame`.
    fn decode(&self, frame: &[u8]) -> Result<Vec<u8>, String>;
}

/// The golden model's decoder.
pub struct ModelDecoder;

impl Decoder for ModelDecoder {
    fn decode(&self, frame: &[u8]) -> Result<Vec<u8>, String> {
        cdma_model::decompress(frame).map_err(|e| e.to_string())
    }
}

impl<F: Fn(&[u8]) -> Result<Vec<u8>, String> + Sync> Decoder for F {
    fn decode(&self, frame: &[u8]) -> Result<Vec<u8>, String> {
        self(frame)
    }
}

/// Classifies one decode of a damaged frame against the `original` data (panics are caught
/// here; hangs are the campaign watchdog's business).
pub fn classify(decoder: &dyn Decoder, frame: &[u8], original: &[u8]) -> Class {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| decoder.decode(frame))) {
        Err(_) => Class::Panic,
        Ok(Err(_)) => Class::Detected,
        Ok(Ok(d)) if d == original => Class::Benign,
        Ok(Ok(_)) => Class::Silent,
    }
}
