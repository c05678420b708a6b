//! SVG plots of an [`Analysis`] (plotters, SVG backend only: text is written as SVG `<text>`,
//! so no font library is needed to build or run).
//!
//! * `ratio_per_layer.<net>.<dtype>.svg`: compression ratio per layer, one bar per codec.
//! * `training.<net>.<dtype>.svg` (networks with training steps): sparsity per layer, ZVC
//!   ratio per layer, and whole-network ratio per codec, against the training step.

use crate::analyze::{Analysis, Group};
use crate::codecs::Codec;
use cdma_corpus::Dtype;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

const FONT: &str = "sans-serif";
const LEGEND_W: u32 = 150;

fn pe<E: std::fmt::Debug>(e: E) -> String {
    format!("plot: {e:?}")
}

/// One colour per codec (ZVC in the strongest one).
pub fn codec_color(c: Codec) -> RGBColor {
    match c {
        Codec::Zvc => RGBColor(0xD6, 0x27, 0x28),
        Codec::Rl => RGBColor(0xFF, 0x7F, 0x0E),
        Codec::Zlib => RGBColor(0x2C, 0xA0, 0x2C),
        Codec::Lz4 => RGBColor(0x1F, 0x77, 0xB4),
        Codec::Zstd => RGBColor(0x94, 0x67, 0xBD),
        Codec::ZvcX => RGBColor(0x8C, 0x1C, 0x13),
    }
}

/// Distinct colours for up to ten series (then they repeat).
fn series_color(i: usize) -> RGBColor {
    const C: [RGBColor; 10] = [
        RGBColor(0x1F, 0x77, 0xB4),
        RGBColor(0xFF, 0x7F, 0x0E),
        RGBColor(0x2C, 0xA0, 0x2C),
        RGBColor(0xD6, 0x27, 0x28),
        RGBColor(0x94, 0x67, 0xBD),
        RGBColor(0x8C, 0x56, 0x4B),
        RGBColor(0xE3, 0x77, 0xC2),
        RGBColor(0x7F, 0x7F, 0x7F),
        RGBColor(0xBC, 0xBD, 0x22),
        RGBColor(0x17, 0xBE, 0xCF),
    ];
    C[i % C.len()]
}

/// A legend drawn in its own area (beside the plot), so it never covers data.
fn legend(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    entries: &[(String, RGBColor)],
) -> Result<(), String> {
    let top = 40;
    area.draw(&Text::new(
        title.to_string(),
        (10, top),
        (FONT, 15).into_font().style(FontStyle::Bold),
    ))
    .map_err(pe)?;
    for (i, (name, color)) in entries.iter().enumerate() {
        let y = top + 24 + 22 * i as i32;
        area.draw(&Rectangle::new([(10, y), (26, y + 12)], color.filled()))
            .map_err(pe)?;
        area.draw(&Text::new(name.clone(), (34, y - 1), (FONT, 14)))
            .map_err(pe)?;
    }
    Ok(())
}

fn dtype_groups<'a>(groups: &'a [Group], net: &str, dtype: Dtype) -> Vec<&'a Group> {
    groups
        .iter()
        .filter(|g| g.net.as_deref() == Some(net) && g.dtype == Some(dtype))
        .collect()
}

fn nets(a: &Analysis) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in &a.tensors {
        if !v.contains(&r.net) {
            v.push(r.net.clone());
        }
    }
    v
}

/// Bar chart: ratio per layer of `net` in `dtype`, one bar per codec.
pub fn ratio_per_layer(a: &Analysis, net: &str, dtype: Dtype, path: &Path) -> Result<bool, String> {
    let layers = dtype_groups(&a.by_layer, net, dtype);
    if layers.is_empty() {
        return Ok(false);
    }
    let n = layers.len();
    let width = (72 * n as u32 + 160 + LEGEND_W).max(900);
    let root = SVGBackend::new(path, (width, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(pe)?;
    let (plot_area, legend_area) = root.split_horizontally(width - LEGEND_W);
    let ymax = layers
        .iter()
        .flat_map(|g| Codec::ALL.map(|c| g.ratio(c)))
        .fold(1.0f64, f64::max)
        * 1.08;
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(
            format!("{net} ({dtype}): compression ratio per layer, by codec"),
            (FONT, 22),
        )
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..n as f64, 0f64..ymax)
        .map_err(pe)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_label_formatter(&|_| String::new())
        .max_light_lines(2)
        .y_label_formatter(&|y| format!("{y:.1}"))
        .x_desc("layer (over the corpus images / training steps)")
        .y_desc("ratio = uncompressed / compressed bytes")
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .draw()
        .map_err(pe)?;
    // A dashed-looking reference at ratio 1 (no gain).
    chart
        .draw_series(LineSeries::new(
            [(0.0, 1.0), (n as f64, 1.0)],
            BLACK.mix(0.5).stroke_width(1),
        ))
        .map_err(pe)?;
    let k = Codec::ALL.len() as f64;
    let bar = 0.8 / k;
    for c in Codec::ALL {
        let j = c.index() as f64;
        chart
            .draw_series(layers.iter().enumerate().map(|(i, g)| {
                let x0 = i as f64 + 0.1 + j * bar;
                Rectangle::new(
                    [(x0, 0.0), (x0 + bar * 0.92, g.ratio(c))],
                    codec_color(c).filled(),
                )
            }))
            .map_err(pe)?;
    }
    for (i, g) in layers.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
        let name = g.layer.clone().unwrap_or_default();
        let style =
            TextStyle::from((FONT, 14).into_font()).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            ));
        root.draw(&Text::new(name, (px, py + 6), style))
            .map_err(pe)?;
    }
    let entries: Vec<(String, RGBColor)> = Codec::ALL
        .iter()
        .map(|&c| (c.name().to_string(), codec_color(c)))
        .collect();
    legend(&legend_area, "codec", &entries)?;
    root.present().map_err(pe)?;
    Ok(true)
}

/// One panel of the training figure: `series` lines of y against step index.
fn step_panel(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    y_desc: &str,
    steps: &[u32],
    series: &[(String, RGBColor, Vec<f64>)],
    y_range: std::ops::Range<f64>,
    percent: bool,
) -> Result<(), String> {
    let (plot_area, legend_area) = area.split_horizontally(area.dim_in_pixel().0 - LEGEND_W);
    let n = steps.len();
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, (FONT, 19))
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(64)
        .build_cartesian_2d(-0.3f64..(n as f64 - 0.7), y_range)
        .map_err(pe)?;
    let ylab = |y: &f64| {
        if percent {
            format!("{:.0} %", 100.0 * y)
        } else {
            format!("{y:.1}")
        }
    };
    chart
        .configure_mesh()
        .x_labels(0)
        .x_label_formatter(&|_| String::new())
        .disable_x_mesh()
        .max_light_lines(2)
        .y_label_formatter(&ylab)
        .x_desc("training step (checkpoints; evenly spaced, not to scale)")
        .y_desc(y_desc)
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()
        .map_err(pe)?;
    for (name, color, ys) in series {
        let pts: Vec<(f64, f64)> = ys.iter().enumerate().map(|(i, &y)| (i as f64, y)).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(pe)?;
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(pe)?;
        let _ = name;
    }
    // Step labels at the checkpoints themselves (the mesh would pick round numbers instead).
    for (i, s) in steps.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64, chart.y_range().start));
        let style =
            TextStyle::from((FONT, 13).into_font()).pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Top,
            ));
        let root = area;
        let (ox, oy) = root.get_base_pixel();
        root.draw(&Text::new(s.to_string(), (px - ox, py - oy + 6), style))
            .map_err(pe)?;
    }
    let entries: Vec<(String, RGBColor)> = series.iter().map(|(n, c, _)| (n.clone(), *c)).collect();
    legend(
        &legend_area,
        if series.len() == Codec::ALL.len() {
            "codec"
        } else {
            "layer"
        },
        &entries,
    )
}

/// Three panels against the training step: sparsity per layer, ZVC ratio per layer,
/// whole-network ratio per codec.
pub fn training(a: &Analysis, net: &str, dtype: Dtype, path: &Path) -> Result<bool, String> {
    let totals = dtype_groups(&a.by_step, net, dtype);
    if totals.len() < 2 {
        return Ok(false);
    }
    let steps: Vec<u32> = totals.iter().filter_map(|g| g.step).collect();
    let per_layer = dtype_groups(&a.by_step_layer, net, dtype);
    let mut layers: Vec<String> = Vec::new();
    for g in &per_layer {
        let l = g.layer.clone().unwrap_or_default();
        if !layers.contains(&l) {
            layers.push(l);
        }
    }
    let value = |layer: &str, step: u32, f: &dyn Fn(&Group) -> f64| {
        per_layer
            .iter()
            .find(|g| g.layer.as_deref() == Some(layer) && g.step == Some(step))
            .map_or(f64::NAN, |g| f(g))
    };
    let sparsity: Vec<(String, RGBColor, Vec<f64>)> = layers
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let ys = steps
                .iter()
                .map(|&s| value(l, s, &|g| g.sparsity()))
                .collect();
            (l.clone(), series_color(i), ys)
        })
        .collect();
    let zvc: Vec<(String, RGBColor, Vec<f64>)> = layers
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let ys = steps
                .iter()
                .map(|&s| value(l, s, &|g| g.ratio(Codec::Zvc)))
                .collect();
            (l.clone(), series_color(i), ys)
        })
        .collect();
    let codecs: Vec<(String, RGBColor, Vec<f64>)> = Codec::ALL
        .iter()
        .map(|&c| {
            let ys = totals.iter().map(|g| g.ratio(c)).collect();
            (c.name().to_string(), codec_color(c), ys)
        })
        .collect();
    let ymax = |s: &[(String, RGBColor, Vec<f64>)]| {
        s.iter()
            .flat_map(|(_, _, v)| v.iter().copied())
            .filter(|v| v.is_finite())
            .fold(1.0f64, f64::max)
            * 1.1
    };
    let root = SVGBackend::new(path, (1100, 1350)).into_drawing_area();
    root.fill(&WHITE).map_err(pe)?;
    let root = root
        .titled(&format!("{net} ({dtype}) during training"), (FONT, 24))
        .map_err(pe)?;
    let panels = root.split_evenly((3, 1));
    step_panel(
        &panels[0],
        "sparsity (all-zero elements) per layer",
        "sparsity",
        &steps,
        &sparsity,
        0.0..1.0,
        true,
    )?;
    step_panel(
        &panels[1],
        "ZVC compression ratio per layer",
        "ZVC ratio (uncompressed / compressed)",
        &steps,
        &zvc,
        0.0..ymax(&zvc),
        false,
    )?;
    step_panel(
        &panels[2],
        "whole-network compression ratio per codec",
        "ratio (uncompressed / compressed)",
        &steps,
        &codecs,
        0.0..ymax(&codecs),
        false,
    )?;
    root.present().map_err(pe)?;
    Ok(true)
}

/// Writes every plot of `a` into `dir` (created if missing); returns the files written.
pub fn write_all(a: &Analysis, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for net in nets(a) {
        for dtype in Dtype::ALL {
            let p = dir.join(format!("ratio_per_layer.{net}.{dtype}.svg"));
            if ratio_per_layer(a, &net, dtype, &p)? {
                out.push(p);
            }
            let p = dir.join(format!("training.{net}.{dtype}.svg"));
            if training(a, &net, dtype, &p)? {
                out.push(p);
            }
        }
    }
    Ok(out)
}
