//! Port lookup by name with direction and width checks, and the scalar port accessors, shared
//! by the AXI4 and AXI4-Lite bindings.

use cdma_sim::{Dir, Dut};

/// Width rule of a port for [`AxiPorts::bind`](super::AxiPorts::bind) and the AXI-Lite binding.
pub(crate) enum Width {
    /// Exactly this many bits.
    Exact(usize),
    /// 1 to this many bits.
    AtMost(usize),
}

/// Looks a port up by name and checks its direction and width.
pub(crate) fn find_port(
    dut: &dyn Dut,
    name: &str,
    dir: Dir,
    width: Width,
) -> Result<usize, String> {
    let i = dut.port(name).map_err(|e| e.to_string())?;
    let p = dut.ports()[i];
    if p.dir != dir {
        return Err(format!(
            "{}.{name} is an {}, expected an {}",
            dut.module(),
            if p.dir == Dir::In { "input" } else { "output" },
            if dir == Dir::In { "input" } else { "output" },
        ));
    }
    let ok = match width {
        Width::Exact(w) => p.width == w,
        Width::AtMost(w) => p.width <= w,
    };
    if !ok {
        let want = match width {
            Width::Exact(w) => format!("{w}"),
            Width::AtMost(w) => format!("at most {w}"),
        };
        return Err(format!(
            "{}.{name} is {} bits, expected {want}",
            dut.module(),
            p.width
        ));
    }
    Ok(i)
}

/// [`find_port`] for an optional port: absent is `None`, present but wrong is an error.
pub(crate) fn find_optional(
    dut: &dyn Dut,
    name: &str,
    dir: Dir,
    width: Width,
) -> Result<Option<usize>, String> {
    if dut.port(name).is_err() {
        return Ok(None);
    }
    find_port(dut, name, dir, width).map(Some)
}

// Ports are checked at bind (direction, width ≤ 64), so a failing access is a bridge bug.
pub(crate) fn set(dut: &mut dyn Dut, port: usize, v: u64) {
    dut.set_u64(port, v).expect("port checked at bind");
}

pub(crate) fn get(dut: &dyn Dut, port: usize) -> u64 {
    dut.get_u64(port).expect("port checked at bind")
}
