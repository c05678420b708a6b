//! The files of a trace (the VCD the model writes; for an FST trace, the FST it is converted
//! to on close) and the trace window's cycles as trace times.

use std::ffi::{c_int, CStr, CString};
use std::path::{Path, PathBuf};

use crate::vcd_to_fst::vcd_to_fst;
use crate::SimError;

/// An open trace of a generated wrapper.
#[derive(Debug)]
pub struct TraceTarget {
    /// The VCD the model writes.
    vcd: PathBuf,
    /// The FST the VCD becomes on close (the path the user gave), for an FST trace.
    fst: Option<PathBuf>,
}

impl TraceTarget {
    /// Opens a trace into `path` with `open` (the shim's `trace_open` on the VCD's path, as a C
    /// string). A name ending in `.fst` makes an FST trace: the model writes a VCD next to it
    /// (`<path>.tmp.vcd`), converted by [`TraceTarget::finish`].
    pub fn open(path: &Path, open: impl FnOnce(&CStr) -> c_int) -> Result<Self, SimError> {
        let is_fst = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("fst"));
        let target = if is_fst {
            // Prove the FST can be created now, not after a long run.
            std::fs::File::create(path).map_err(|e| trace_error(path, e.to_string()))?;
            let mut vcd = path.as_os_str().to_owned();
            vcd.push(".tmp.vcd");
            TraceTarget {
                vcd: vcd.into(),
                fst: Some(path.to_path_buf()),
            }
        } else {
            TraceTarget {
                vcd: path.to_path_buf(),
                fst: None,
            }
        };
        let c = trace_path(&target.vcd)?;
        trace_result(&target.vcd, open(&c))?;
        Ok(target)
    }

    /// After the model closed the VCD: for an FST trace, converts it and deletes it. A
    /// failed conversion keeps the VCD and says where it is.
    pub fn finish(self) -> Result<(), SimError> {
        let Some(fst) = self.fst else {
            return Ok(());
        };
        vcd_to_fst(&self.vcd, &fst)?;
        std::fs::remove_file(&self.vcd).map_err(|e| SimError::Convert {
            vcd: self.vcd.display().to_string(),
            fst: fst.display().to_string(),
            reason: format!("converted, but cannot delete the VCD: {e}"),
        })
    }
}

/// The trace times (half cycles, inclusive) of the cycles `from_cycle..=to_cycle`: cycle N
/// is the two time steps 2N (clock low) and 2N+1 (rising edge).
pub fn window_times(from_cycle: u64, to_cycle: u64) -> Result<(u64, u64), SimError> {
    if from_cycle > to_cycle {
        return Err(SimError::TraceWindow {
            from: from_cycle,
            to: to_cycle,
        });
    }
    Ok((
        from_cycle.saturating_mul(2),
        to_cycle.saturating_mul(2).saturating_add(1),
    ))
}

fn trace_error(path: &Path, reason: String) -> SimError {
    SimError::Trace {
        path: path.display().to_string(),
        reason,
    }
}

/// A trace path as a C string, after proving in Rust that the file can be created, so the
/// error is a clear message with the OS reason rather than a silent non-open in C++.
fn trace_path(path: &Path) -> Result<CString, SimError> {
    let err = |reason: String| trace_error(path, reason);
    std::fs::File::create(path).map_err(|e| err(e.to_string()))?;
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path
        .to_str()
        .ok_or_else(|| err("path is not valid UTF-8".into()))?
        .as_bytes()
        .to_vec();
    CString::new(bytes).map_err(|_| err("path contains a NUL byte".into()))
}

/// Map the shim's trace_open return code.
fn trace_result(path: &Path, rc: c_int) -> Result<(), SimError> {
    let reason = match rc {
        0 => return Ok(()),
        1 => "out of memory",
        _ => "Verilator could not open it",
    };
    Err(trace_error(path, reason.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_cycles_are_two_time_steps_each() {
        assert_eq!(window_times(0, 0), Ok((0, 1)));
        assert_eq!(window_times(10, 50), Ok((20, 101)));
        assert_eq!(window_times(3, u64::MAX), Ok((6, u64::MAX)));
        assert_eq!(
            window_times(5, 4),
            Err(SimError::TraceWindow { from: 5, to: 4 })
        );
    }
}
