//! Users' tensor files written by the tests (shared with the CLI's tests, which include this
//! file by path): .npy files in NumPy's format 1.0 layout, .safetensors files by the
//! `safetensors` crate.

#![allow(dead_code)] // each test file uses the helpers it needs

use std::path::Path;

/// An .npy file (format 1.0) of `descr` and `shape` holding `data`, in Fortran order if
/// `fortran`.
pub fn npy(path: &Path, descr: &str, fortran: bool, shape: &[usize], data: &[u8]) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let order = if fortran { "True" } else { "False" };
    let mut h = format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}");
    // Magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64.
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut f = b"\x93NUMPY\x01\x00".to_vec();
    f.extend_from_slice(&(h.len() as u16).to_le_bytes());
    f.extend_from_slice(h.as_bytes());
    f.extend_from_slice(data);
    std::fs::write(path, f).unwrap();
}

/// A .safetensors file of `tensors`: (name, dtype, shape, data) each.
pub fn safetensors_file(path: &Path, tensors: &[(&str, safetensors::Dtype, &[usize], &[u8])]) {
    let views = tensors.iter().map(|&(name, dtype, shape, data)| {
        let view = safetensors::tensor::TensorView::new(dtype, shape.to_vec(), data).unwrap();
        (name, view)
    });
    std::fs::write(path, safetensors::serialize(views, &None).unwrap()).unwrap();
}
