//! VCD to FST conversion: a VCD file parsed by the `vcd` crate, its scopes, signals, times and
//! value changes replayed through GTKWave's FST writer ([`crate::fst_writer`]).
//!
//! This is how the bridge writes FST: every model is verilated for VCD only (one trace
//! format per model; both would double the C++ build), and an FST trace is the model's VCD
//! converted on close.

use std::collections::HashMap;
use std::ffi::c_int;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use vcd::{Command, IdCode, ScopeType, TimescaleUnit, Value, VarType};

use crate::fst_writer::{FstWriter, Handle, ST_VCD_MODULE, VT_VCD_REAL, VT_VCD_WIRE};
use crate::SimError;

/// A declared signal: its FST handle and width, and whether its values are reals.
#[derive(Clone, Copy)]
struct Signal {
    handle: Handle,
    bits: u32,
    real: bool,
}

/// Convert the VCD file `vcd` into the FST file `fst` (created or truncated): the same
/// hierarchy, signal names (`name [msb:lsb]`, as GTKWave's vcd2fst names them), timescale,
/// time steps and value changes. Signals a VCD declares under one identifier code are one FST
/// signal with aliases.
pub fn vcd_to_fst(vcd: &Path, fst: &Path) -> Result<(), SimError> {
    let err = |reason: String| SimError::Convert {
        vcd: vcd.display().to_string(),
        fst: fst.display().to_string(),
        reason,
    };
    let file = File::open(vcd).map_err(|e| err(format!("cannot read the VCD: {e}")))?;
    let mut w = FstWriter::create(fst).map_err(err)?;
    let mut signals: HashMap<IdCode, Signal> = HashMap::new();
    // One character per bit, reused for every change.
    let mut bits: Vec<u8> = Vec::new();
    let mut parser = vcd::Parser::new(BufReader::new(file));
    while let Some(cmd) = parser.next() {
        let line = parser.line();
        let cmd = cmd.map_err(|e| err(format!("line {line}: {e}")))?;
        let at = |what: String| err(format!("line {line}: {what}"));
        match cmd {
            Command::Timescale(n, unit) => {
                w.set_timescale(timescale_exponent(n, unit).map_err(at)?)
            }
            Command::ScopeDef(t, name) => w.scope(scope_type(t), &name).map_err(at)?,
            Command::Upscope => w.upscope(),
            Command::VarDef(t, size, code, reference, index) => {
                if t == VarType::String {
                    return Err(at(format!("string signal {reference} is not supported")));
                }
                let name = match index {
                    Some(i) => format!("{reference} {i}"),
                    None => reference,
                };
                let alias = signals.get(&code).map_or(0, |s| s.handle);
                let handle = w.var(var_type(t), size, &name, alias).map_err(at)?;
                signals.entry(code).or_insert(Signal {
                    handle,
                    bits: size,
                    real: t == VarType::Real,
                });
            }
            Command::Timestamp(t) => w.time(t),
            Command::ChangeScalar(code, v) => {
                let s = signal(&signals, code).map_err(at)?;
                pad_into(&mut bits, &[v], s.bits);
                w.value(s.handle, &bits);
            }
            Command::ChangeVector(code, v) => {
                let s = signal(&signals, code).map_err(at)?;
                let v: Vec<Value> = v.into();
                pad_into(&mut bits, &v, s.bits);
                w.value(s.handle, &bits);
            }
            Command::ChangeReal(code, x) => {
                let s = signal(&signals, code).map_err(at)?;
                if !s.real {
                    return Err(at(format!("a real value for the non-real signal {code}")));
                }
                w.real(s.handle, x);
            }
            Command::ChangeString(code, _) => {
                return Err(at(format!("string value of {code} is not supported")));
            }
            // Header text, $dumpvars/$dumpon/... brackets: nothing to carry over.
            _ => {}
        }
    }
    // Dropping the writer finishes the file.
    drop(w);
    Ok(())
}

/// The declared signal of identifier code `code`.
fn signal(signals: &HashMap<IdCode, Signal>, code: IdCode) -> Result<Signal, String> {
    signals
        .get(&code)
        .copied()
        .ok_or_else(|| format!("value change of undeclared signal {code}"))
}

/// `value` as `width` characters, most significant first: a VCD may leave out leading bits,
/// which are 0 when the first given bit is 0 or 1, else copies of it (x, z); a value longer
/// than the signal keeps its low bits.
fn pad_into(out: &mut Vec<u8>, value: &[Value], width: u32) {
    let width = width as usize;
    let ch = |v: &Value| match v {
        Value::V0 => b'0',
        Value::V1 => b'1',
        Value::X => b'x',
        Value::Z => b'z',
    };
    out.clear();
    let fill = match value.first() {
        Some(Value::X) => b'x',
        Some(Value::Z) => b'z',
        _ => b'0',
    };
    out.resize(width.saturating_sub(value.len()), fill);
    let skip = value.len().saturating_sub(width);
    out.extend(value[skip..].iter().map(ch));
}

/// FST's timescale, a power of ten of seconds, of the VCD's `$timescale n unit` (n is 1, 10
/// or 100).
fn timescale_exponent(n: u32, unit: TimescaleUnit) -> Result<i32, String> {
    let unit_exp = match unit {
        TimescaleUnit::S => 0,
        TimescaleUnit::MS => -3,
        TimescaleUnit::US => -6,
        TimescaleUnit::NS => -9,
        TimescaleUnit::PS => -12,
        TimescaleUnit::FS => -15,
    };
    let n_exp = match n {
        1 => 0,
        10 => 1,
        100 => 2,
        _ => return Err(format!("timescale {n} {unit} is not 1, 10 or 100 units")),
    };
    Ok(unit_exp + n_exp)
}

/// `enum fstScopeType` of a VCD scope type (FST_ST_VCD_*, in the VCD's order).
fn scope_type(t: ScopeType) -> c_int {
    match t {
        ScopeType::Module => ST_VCD_MODULE,
        ScopeType::Task => 1,
        ScopeType::Function => 2,
        ScopeType::Begin => 3,
        ScopeType::Fork => 4,
        // The `vcd` crate may learn more scope types; a module is the neutral choice.
        _ => ST_VCD_MODULE,
    }
}

/// `enum fstVarType` of a VCD variable type (FST_VT_VCD_*, fstapi.h).
fn var_type(t: VarType) -> c_int {
    match t {
        VarType::Event => 0,
        VarType::Integer => 1,
        VarType::Parameter => 2,
        VarType::Real => VT_VCD_REAL,
        VarType::Reg => 5,
        VarType::Supply0 => 6,
        VarType::Supply1 => 7,
        VarType::Time => 8,
        VarType::Tri => 9,
        VarType::TriAnd => 10,
        VarType::TriOr => 11,
        VarType::TriReg => 12,
        VarType::Tri0 => 13,
        VarType::Tri1 => 14,
        VarType::WAnd => 15,
        VarType::Wire => VT_VCD_WIRE,
        VarType::WOr => 17,
        // Types the `vcd` crate may add later: a wire carries any bit vector.
        _ => VT_VCD_WIRE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_vectors_extend_like_vcd_says() {
        let mut out = Vec::new();
        pad_into(&mut out, &[Value::V1, Value::V0], 4);
        assert_eq!(out, b"0010");
        pad_into(&mut out, &[Value::X, Value::V1], 4);
        assert_eq!(out, b"xxx1");
        pad_into(&mut out, &[Value::Z], 3);
        assert_eq!(out, b"zzz");
        pad_into(&mut out, &[Value::V1, Value::V0, Value::V1], 2);
        assert_eq!(out, b"01");
    }

    #[test]
    fn timescales_are_powers_of_ten_of_seconds() {
        assert_eq!(timescale_exponent(1, TimescaleUnit::PS), Ok(-12));
        assert_eq!(timescale_exponent(100, TimescaleUnit::NS), Ok(-7));
        assert!(timescale_exponent(3, TimescaleUnit::NS).is_err());
    }
}
