//! `cdma._cdma`: the golden model's frames and the analysis codecs for the `cdma` Python
//! package (python/cdma/__init__.py maps NumPy dtypes to element types and shapes the results).
//!
//! Every function takes its tensor as a 1-D contiguous `uint8` NumPy array (a view of the
//! caller's array: no copy) and releases the GIL while it compresses, decodes or measures, so
//! other Python threads run meanwhile.

use cdma_analysis::analyze::measure_bytes;
use cdma_analysis::codecs::Codec as Measured;
use cdma_model::layout::{Header, CHUNK_LOG2_DEFAULT};
use cdma_model::{Codec, ElemType, FormatError, FrameOptions};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

create_exception!(
    cdma,
    FrameError,
    PyValueError,
    "A frame that is not a valid cdma frame (docs/FORMAT.md), or data the codec refuses."
);

fn frame_error(e: FormatError) -> PyErr {
    FrameError::new_err(e.to_string())
}

/// The element type named `name` (`f32`, `bf16`, `f16`, `e4m3`, `e5m2`, `raw8`, `raw16`,
/// `raw32`).
fn elem_type(name: &str) -> PyResult<ElemType> {
    ElemType::parse(name).map_err(PyValueError::new_err)
}

/// The frame codec named `name` (`zvc`, `zvcx`).
fn codec(name: &str) -> PyResult<Codec> {
    Codec::parse(name).map_err(PyValueError::new_err)
}

/// Compresses `data` (elements of `elem_type`) into a cdma frame (docs/FORMAT.md): version 4
/// with CRC32C checks unless `crc` is false.
#[pyfunction]
#[pyo3(signature = (data, elem_type, codec = "zvc", chunk_log2 = CHUNK_LOG2_DEFAULT, crc = true))]
fn compress<'py>(
    py: Python<'py>,
    data: PyReadonlyArray1<'py, u8>,
    elem_type: &str,
    codec: &str,
    chunk_log2: u8,
    crc: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let opts = FrameOptions {
        codec: self::codec(codec)?,
        elem_type: self::elem_type(elem_type)?,
        chunk_log2,
        crc,
    };
    let bytes = data.as_slice()?;
    let frame = py
        .detach(|| cdma_model::compress_frame(bytes, &opts))
        .map_err(frame_error)?;
    Ok(PyBytes::new(py, &frame))
}

/// Decodes a frame (version 2, 3 or 4; a version 4 frame's CRCs are checked): its bytes as a
/// `uint8` array (handed over without a copy) and the name of its element type.
#[pyfunction]
fn decompress<'py>(
    py: Python<'py>,
    frame: PyReadonlyArray1<'py, u8>,
) -> PyResult<(Bound<'py, PyArray1<u8>>, String)> {
    let bytes = frame.as_slice()?;
    let header = Header::parse(bytes).map_err(frame_error)?;
    let data = py
        .detach(|| cdma_model::decompress(bytes))
        .map_err(frame_error)?;
    Ok((PyArray1::from_vec(py, data), header.elem_type.name()))
}

/// Measures `data` (elements of `elem_type`) as `cdma analyze` does (`measure_bytes`):
/// `elements`, `zeros`
/// (all-zero bit patterns), `sizes` (bytes per analysis codec: `zvc`, `rl`, `zlib6`, `lz4`,
/// `zstd3`, `zvcx`, each decoded back and compared first) and `frame` (bytes of the chunked
/// ZVC frame, version 2).
#[pyfunction]
fn measure<'py>(
    py: Python<'py>,
    data: PyReadonlyArray1<'py, u8>,
    elem_type: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let ty = self::elem_type(elem_type)?;
    let bytes = data.as_slice()?;
    let width = ty.width().bytes();
    if bytes.len() % width != 0 {
        return Err(PyValueError::new_err(format!(
            "{} bytes are not a whole number of {width}-byte elements",
            bytes.len()
        )));
    }
    let m = py
        .detach(|| measure_bytes(bytes, ty))
        .map_err(PyValueError::new_err)?;
    let by_codec = PyDict::new(py);
    for c in Measured::ALL {
        by_codec.set_item(c.key(), m.sizes[c.index()])?;
    }
    let out = PyDict::new(py);
    out.set_item("elements", bytes.len() / width)?;
    out.set_item("zeros", m.zeros)?;
    out.set_item("sizes", by_codec)?;
    out.set_item("frame", m.chunked)?;
    Ok(out)
}

/// The extension module: `compress`, `decompress`, `measure`, `FrameError` and the names of
/// the element types and codecs.
#[pymodule]
fn _cdma(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(compress, m)?)?;
    m.add_function(wrap_pyfunction!(decompress, m)?)?;
    m.add_function(wrap_pyfunction!(measure, m)?)?;
    m.add("FrameError", m.py().get_type::<FrameError>())?;
    let types: Vec<String> = ElemType::ALL.iter().map(|t| t.name()).collect();
    m.add("ELEM_TYPES", types)?;
    let codecs: Vec<&str> = Codec::ALL.iter().map(|c| c.name()).collect();
    m.add("CODECS", codecs)?;
    m.add("CHUNK_LOG2_DEFAULT", CHUNK_LOG2_DEFAULT)?;
    Ok(())
}
