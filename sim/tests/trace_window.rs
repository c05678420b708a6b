//! Trace windows and FST traces: a windowed VCD holds only the window's time steps (and is
//! complete once the run passes the window), and a windowed FST trace, read back by an
//! independent reader (`fst-reader`), has the same signals and values as a whole-run VCD
//! (parsed by the `vcd` crate) inside the window.

use cdma_sim::CdmaSimWidths;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cdma-sim-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `cycles` cycles of the width self-test top with inputs that change every cycle (some
/// signals, like `cycles` and the registered `q*`, change with them).
fn run(d: &mut CdmaSimWidths, cycles: u64) {
    for c in 0..cycles {
        let x = c.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (c >> 3);
        d.set_d7(x & 0x7f);
        d.set_d32(x >> 20 & 0xffff_ffff);
        d.set_d65(&[x as u32, (x >> 32) as u32, (c & 1) as u32]);
        d.set_d1(c % 3 == 0);
        d.tick();
    }
}

/// Each signal's full name (`scope.scope.name [msb:lsb]`) and width, and its values over
/// time, of a VCD: `values[name][t]` is the value (all bits, MSB first) set at time `t`.
struct Waves {
    widths: BTreeMap<String, u32>,
    values: BTreeMap<String, BTreeMap<u64, String>>,
    times: Vec<u64>,
}

impl Waves {
    /// The value of `name` at time `t` (the last change at or before it).
    fn at(&self, name: &str, t: u64) -> Option<&String> {
        self.values
            .get(name)?
            .range(..=t)
            .next_back()
            .map(|(_, v)| v)
    }
}

fn padded(v: &str, width: u32) -> String {
    format!("{v:0>w$}", w = width as usize)
}

fn read_vcd(path: &Path) -> Waves {
    use vcd::Command;
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut scopes: Vec<String> = Vec::new();
    let mut names: HashMap<vcd::IdCode, Vec<String>> = HashMap::new();
    let mut w = Waves {
        widths: BTreeMap::new(),
        values: BTreeMap::new(),
        times: Vec::new(),
    };
    let mut t = 0;
    let set = |w: &mut Waves, names: &HashMap<vcd::IdCode, Vec<String>>, t, code, v: String| {
        for n in &names[&code] {
            let v = padded(&v, w.widths[n]);
            w.values.entry(n.clone()).or_default().insert(t, v);
        }
    };
    for cmd in vcd::Parser::new(f) {
        match cmd.unwrap() {
            Command::ScopeDef(_, s) => scopes.push(s),
            Command::Upscope => {
                scopes.pop();
            }
            Command::VarDef(_, size, code, r, index) => {
                let mut n = format!("{}.{r}", scopes.join("."));
                if let Some(i) = index {
                    n = format!("{n} {i}");
                }
                w.widths.insert(n.clone(), size);
                names.entry(code).or_default().push(n);
            }
            Command::Timestamp(x) => {
                t = x;
                w.times.push(x);
            }
            Command::ChangeScalar(c, v) => set(&mut w, &names, t, c, v.to_string()),
            Command::ChangeVector(c, v) => set(&mut w, &names, t, c, v.to_string()),
            _ => {}
        }
    }
    w
}

fn read_fst(path: &Path) -> Waves {
    use fst_reader::{FstFilter, FstHierarchyEntry, FstReader, FstSignalValue};
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut r = FstReader::open_and_read_time_table(f).unwrap();
    let mut scopes: Vec<String> = Vec::new();
    let mut names: HashMap<usize, Vec<String>> = HashMap::new();
    let mut w = Waves {
        widths: BTreeMap::new(),
        values: BTreeMap::new(),
        times: r.get_time_table().unwrap().to_vec(),
    };
    r.read_hierarchy(|e| match e {
        FstHierarchyEntry::Scope { name, .. } => scopes.push(name),
        FstHierarchyEntry::UpScope => {
            scopes.pop();
        }
        FstHierarchyEntry::Var {
            name,
            length,
            handle,
            ..
        } => {
            let n = format!("{}.{name}", scopes.join("."));
            w.widths.insert(n.clone(), length);
            names.entry(handle.get_index()).or_default().push(n);
        }
        _ => {}
    })
    .unwrap();
    r.read_signals(&FstFilter::all(), |t, h, v| {
        let FstSignalValue::String(v) = v else {
            panic!("a real value in a trace of bit vectors")
        };
        for n in &names[&h.get_index()] {
            let v = String::from_utf8(v.to_vec()).unwrap();
            w.values.entry(n.clone()).or_default().insert(t, v);
        }
        Ok::<(), ()>(())
    })
    .unwrap();
    w
}

#[test]
fn windowed_fst_matches_the_whole_vcd_inside_the_window() {
    let (from, to) = (40, 90);
    let (vcd_path, fst_path) = (tmp("whole.vcd"), tmp("window.fst"));
    let mut whole = CdmaSimWidths::new();
    whole.trace(&vcd_path).unwrap();
    run(&mut whole, 150);
    whole.close_trace().unwrap();
    let mut windowed = CdmaSimWidths::new();
    windowed.trace_window(from, to).unwrap();
    windowed.trace(&fst_path).unwrap();
    run(&mut windowed, 150);
    windowed.close_trace().unwrap();
    assert!(
        !Path::new(&format!("{}.tmp.vcd", fst_path.display())).exists(),
        "the temporary VCD is left behind"
    );

    let vcd = read_vcd(&vcd_path);
    let fst = read_fst(&fst_path);
    assert_eq!(fst.widths, vcd.widths, "signal names or widths differ");
    assert!(fst
        .widths
        .keys()
        .any(|n| n == "TOP.cdma_sim_widths.d65 [64:0]"));
    let (t0, t1) = (2 * from, 2 * to + 1);
    assert_eq!(
        fst.times.first(),
        Some(&t0),
        "the FST does not start at the window"
    );
    assert_eq!(
        fst.times.last(),
        Some(&t1),
        "the FST does not end at the window"
    );
    for (name, changes) in &fst.values {
        let outside: Vec<_> = changes.keys().filter(|&&t| t < t0 || t > t1).collect();
        assert!(
            outside.is_empty(),
            "{name} changes outside the window at {outside:?}"
        );
    }
    let mut changed = BTreeSet::new();
    for t in t0..=t1 {
        for name in vcd.widths.keys() {
            assert_eq!(fst.at(name, t), vcd.at(name, t), "{name} at time {t}");
            if t > t0 && vcd.values[name].contains_key(&t) {
                changed.insert(name.as_str());
            }
        }
    }
    // The comparison means something only if values change inside the window.
    assert!(
        changed.contains("TOP.cdma_sim_widths.d65 [64:0]"),
        "{changed:?}"
    );
    assert!(
        changed.contains("TOP.cdma_sim_widths.cycles [31:0]"),
        "{changed:?}"
    );
    std::fs::remove_file(&vcd_path).unwrap();
    std::fs::remove_file(&fst_path).unwrap();
}

#[test]
fn windowed_vcd_holds_only_the_window_and_is_closed_after_it() {
    let (full_path, win_path) = (tmp("full.vcd"), tmp("win.vcd"));
    let mut full = CdmaSimWidths::new();
    full.trace(&full_path).unwrap();
    run(&mut full, 400);
    full.close_trace().unwrap();
    let mut win = CdmaSimWidths::new();
    win.trace(&win_path).unwrap();
    win.trace_window(100, 119).unwrap();
    run(&mut win, 400);
    // Not closed by us: the model closed (flushed) it when the run passed the window.
    let text = std::fs::read_to_string(&win_path).unwrap();
    let steps: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(steps, (200..240).collect::<Vec<_>>());
    // The first step holds every signal, so the file stands alone.
    let w = read_vcd(&win_path);
    for name in w.widths.keys() {
        assert!(
            w.at(name, 200).is_some(),
            "{name} has no value at the window's start"
        );
    }
    let (full_len, win_len) = (
        std::fs::metadata(&full_path).unwrap().len(),
        std::fs::metadata(&win_path).unwrap().len(),
    );
    assert!(
        win_len * 5 < full_len,
        "window {win_len} B, whole run {full_len} B"
    );
    win.close_trace().unwrap();
    assert_eq!(std::fs::read_to_string(&win_path).unwrap(), text);
    std::fs::remove_file(&full_path).unwrap();
    std::fs::remove_file(&win_path).unwrap();
}

#[test]
fn backwards_window_is_an_error() {
    let mut d = CdmaSimWidths::new();
    let e = d.trace_window(5, 4).unwrap_err();
    assert_eq!(
        e.to_string(),
        "trace window: from cycle 5 is after to cycle 4"
    );
}
