//! The one error type of the testbenches: a hang, a broken protocol (stream, AXI, AXI-Lite),
//! a mismatch with the golden model, or an unexpected decompressor error.

use std::fmt;

/// Why a run failed.
#[derive(Clone, Debug, PartialEq)]
pub enum TbError {
    /// The block did not finish within the cycle limit.
    Hang {
        /// The limit that was reached.
        cycles: u64,
        /// What the driver was waiting for.
        waiting_for: String,
    },
    /// The stream protocol was broken (valid dropped, data changed while stalled, bad count …).
    Protocol(String),
    /// The output differs from the golden model.
    Mismatch {
        /// Which stream.
        what: &'static str,
        /// First differing byte offset.
        offset: usize,
        /// Expected byte (None: expected output ends here).
        expected: Option<u8>,
        /// Byte produced (None: output ended here).
        got: Option<u8>,
    },
    /// The decompressor raised `error` on a well-formed payload.
    UnexpectedError,
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Hang {
                cycles,
                waiting_for,
            } => write!(
                f,
                "hang: no completion after {cycles} cycles (waiting for {waiting_for})"
            ),
            TbError::Protocol(s) => write!(f, "stream protocol violation: {s}"),
            TbError::Mismatch {
                what,
                offset,
                expected,
                got,
            } => write!(
                f,
                "{what} mismatch at byte {offset}: expected {}, got {}",
                show(*expected),
                show(*got)
            ),
            TbError::UnexpectedError => {
                write!(f, "decompressor raised `error` on a well-formed payload")
            }
        }
    }
}

fn show(b: Option<u8>) -> String {
    b.map_or("end of stream".to_string(), |b| format!("0x{b:02x}"))
}

impl std::error::Error for TbError {}
