//! Writes synthetic ReLU-like fp32 activation tensors (raw little-endian `.f32.bin` files) for
//! benchmarking when the real corpus (data/activations) is not available.
//!
//! ```text
//! cargo run --release -p cdma-model --example gen_relu_like -- OUT_DIR
//! ```
//!
//! Each tensor is C×H×W. A channel's pre-activation is a smooth random field (Gaussian noise
//! on a grid 8× coarser than H×W, bilinearly upsampled, so zeros come in spatially correlated
//! patches as in real feature maps) plus a per-channel bias plus white noise; ReLU then
//! zeroes the negative part. The bias mean is chosen for ≈55 % zeros overall; non-zeros are
//! roughly half-normal. Fully deterministic (xorshift64 + Box–Muller), no dependencies.

use std::process::ExitCode;

use cdma_model::rng::XorShift64;

/// Standard normal (Box–Muller) from two uniforms of `rng`.
fn normal(rng: &mut XorShift64) -> f64 {
    let (u, v) = (rng.uniform(), rng.uniform());
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

fn tensor(rng: &mut XorShift64, c: usize, h: usize, w: usize) -> Vec<f32> {
    const COARSE: usize = 8;
    let (gh, gw) = (h / COARSE + 2, w / COARSE + 2);
    let mut out = Vec::with_capacity(c * h * w);
    for _ in 0..c {
        let bias = -0.1 + 0.5 * normal(rng);
        let scale = 0.5 + rng.uniform();
        let grid: Vec<f64> = (0..gh * gw).map(|_| normal(rng)).collect();
        for y in 0..h {
            for x in 0..w {
                let fy = y as f64 / COARSE as f64;
                let fx = x as f64 / COARSE as f64;
                let (y0, x0) = (fy as usize, fx as usize);
                let (ty, tx) = (fy - y0 as f64, fx - x0 as f64);
                let g = |yy: usize, xx: usize| grid[yy * gw + xx];
                let smooth = g(y0, x0) * (1.0 - ty) * (1.0 - tx)
                    + g(y0, x0 + 1) * (1.0 - ty) * tx
                    + g(y0 + 1, x0) * ty * (1.0 - tx)
                    + g(y0 + 1, x0 + 1) * ty * tx;
                let pre = smooth + bias + 0.35 * normal(rng);
                out.push((scale * pre).max(0.0) as f32);
            }
        }
    }
    out
}

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: gen_relu_like OUT_DIR");
        return ExitCode::FAILURE;
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {dir}: {e}");
        return ExitCode::FAILURE;
    }
    let mut rng = XorShift64::new(0x5EED_CDA5_0000_0001);
    // Shapes of typical CNN layers (channels, height, width).
    let shapes = [
        (64, 112, 112),
        (128, 56, 56),
        (256, 28, 28),
        (512, 14, 14),
        (256, 128, 128),
    ];
    for (c, h, w) in shapes {
        let t = tensor(&mut rng, c, h, w);
        let zeros = t.iter().filter(|&&v| v == 0.0).count() as f64 / t.len() as f64;
        let bytes: Vec<u8> = t.iter().flat_map(|v| v.to_le_bytes()).collect();
        let path = format!("{dir}/relu_like_{c}x{h}x{w}.f32.bin");
        if let Err(e) = std::fs::write(&path, &bytes) {
            eprintln!("error: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        println!(
            "{path}: {} bytes, {:.1} % zeros",
            bytes.len(),
            100.0 * zeros
        );
    }
    ExitCode::SUCCESS
}
