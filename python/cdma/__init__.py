"""cdma's codecs on NumPy arrays: the frames the cdma DMA engine writes and reads
(docs/FORMAT.md), bit for bit as the golden model makes them.

    >>> import numpy as np, cdma
    >>> a = np.maximum(np.random.default_rng(0).standard_normal(4096, np.float32), 0)
    >>> frame = cdma.compress(a)                 # bytes: a version 4 ZVC frame with CRC32C
    >>> b = cdma.decompress(frame)               # float32 again, from the frame's header
    >>> bool((a.view(np.uint32) == b.view(np.uint32)).all())
    True
    >>> round(cdma.ratio(a), 2) > 1
    True

Arrays of float32, float16, ml_dtypes' bfloat16, float8_e4m3fn and float8_e5m2 give typed
frames (ZVC-X uses the sign, exponent and mantissa); int8/uint8, int16/uint16 and
int32/uint32 give untyped frames of their width, which decompress as unsigned integers unless
``dtype=`` says otherwise (a frame records the width, not the signedness). Arrays are read in
C order without a copy when they are C-contiguous and little-endian; the work runs with the
GIL released.
"""

import html

import ml_dtypes
import numpy as np

from . import _cdma
from ._cdma import FrameError

__all__ = ["compress", "decompress", "ratio", "analyze", "Rows", "FrameError", "CODECS"]

#: Frame codecs: ``zvc`` (the paper's, what the DMA engine writes) and ``zvcx`` (float-aware).
CODECS = tuple(_cdma.CODECS)

# NumPy dtype -> cdma element type (docs/FORMAT.md "Element types").
_TYPE_OF = {
    np.dtype(np.float32): "f32",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(np.float16): "f16",
    np.dtype(ml_dtypes.float8_e4m3fn): "e4m3",
    np.dtype(ml_dtypes.float8_e5m2): "e5m2",
    np.dtype(np.int8): "raw8",
    np.dtype(np.uint8): "raw8",
    np.dtype(np.int16): "raw16",
    np.dtype(np.uint16): "raw16",
    np.dtype(np.int32): "raw32",
    np.dtype(np.uint32): "raw32",
}
# cdma element type -> the NumPy dtype decompress gives.
_DTYPE_OF = {
    "f32": np.dtype(np.float32),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f16": np.dtype(np.float16),
    "e4m3": np.dtype(ml_dtypes.float8_e4m3fn),
    "e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "raw8": np.dtype(np.uint8),
    "raw16": np.dtype("<u2"),
    "raw32": np.dtype("<u4"),
}


def _elements(array):
    """The array's bytes as a 1-D uint8 view (a copy only when it is not C-contiguous or not
    little-endian) and its cdma element type."""
    a = np.asarray(array)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    ty = _TYPE_OF.get(a.dtype)
    if ty is None:
        names = ", ".join(sorted({str(d) for d in _TYPE_OF}))
        raise TypeError(f"cdma: arrays of {a.dtype} are not supported (one of {names})")
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8), ty


def compress(array, codec="zvc", *, chunk_log2=_cdma.CHUNK_LOG2_DEFAULT, crc=True):
    """The cdma frame of ``array`` (its elements in C order) as bytes.

    ``codec``: ``"zvc"`` or ``"zvcx"``; ``chunk_log2``: chunks of 2**N bytes (7..24);
    ``crc=False`` writes a version 2/3 frame without CRC32C checks, as the engine does today.
    """
    data, ty = _elements(array)
    return _cdma.compress(data, ty, codec, chunk_log2, crc)


def decompress(frame, dtype=None):
    """The 1-D array a frame holds (bytes, bytearray, memoryview or a uint8 array), its dtype
    from the frame's element type; ``dtype`` views the elements as another type of the same
    width (e.g. ``np.int8`` for a raw8 frame). Raises FrameError for a damaged frame."""
    raw = np.frombuffer(frame, dtype=np.uint8) if not isinstance(frame, np.ndarray) else frame
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise TypeError(f"cdma: a frame is bytes or a 1-D uint8 array, not {raw.dtype}{raw.shape}")
    data, ty = _cdma.decompress(np.ascontiguousarray(raw))
    out = np.dtype(dtype) if dtype is not None else _DTYPE_OF[ty]
    if out.itemsize != _DTYPE_OF[ty].itemsize:
        raise ValueError(f"cdma: the frame holds {ty} elements, {out} is {out.itemsize} bytes wide")
    return data.view(out)


def ratio(array, codec="zvc", **options):
    """Uncompressed bytes / frame bytes of ``array`` (``compress``'s options)."""
    a = np.asarray(array)
    return a.nbytes / len(compress(a, codec, **options))


class Rows(list):
    """Rows of ``analyze``: a list of dicts that prints as a table (and shows as one in a
    notebook); ``pandas.DataFrame(rows)`` takes it as is."""

    COLUMNS = ("name", "dtype", "elements", "sparsity", "zvc", "zvcx", "zlib6", "zstd3", "frame")

    def _cells(self):
        def cell(v):
            return f"{v:.3f}" if isinstance(v, float) else str(v)

        return [[cell(r[c]) for c in self.COLUMNS] for r in self]

    def __str__(self):
        rows = [list(self.COLUMNS)] + self._cells()
        widths = [max(len(r[i]) for r in rows) for i in range(len(self.COLUMNS))]
        lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
        return "\n".join(lines)

    def _repr_html_(self):
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.COLUMNS)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in self._cells())
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def analyze(tensors):
    """One row per ``name -> array`` of the mapping, measured as ``cdma analyze`` measures:
    ``name``, ``dtype``, ``shape``, ``elements``, ``zeros`` (all-zero bit patterns),
    ``sparsity``, ``bytes``, then for each codec of the comparison (``zvc``, ``rl``, ``zlib6``,
    ``lz4``, ``zstd3``, ``zvcx``) and ``frame`` (the chunked ZVC frame) its ratio, under the
    codec's name, and its size, under ``<codec>_bytes``. Every size is decoded back and
    compared before it is reported."""
    rows = Rows()
    for name, array in tensors.items():
        a = np.asarray(array)
        data, ty = _elements(a)
        m = _cdma.measure(data, ty)
        row = {
            "name": name,
            "dtype": str(a.dtype),
            "shape": tuple(a.shape),
            "elements": m["elements"],
            "zeros": m["zeros"],
            "sparsity": m["zeros"] / max(m["elements"], 1),
            "bytes": data.nbytes,
        }
        sizes = dict(m["sizes"], frame=m["frame"])
        for codec, size in sizes.items():
            row[codec] = data.nbytes / max(size, 1)
        for codec, size in sizes.items():
            row[f"{codec}_bytes"] = size
        rows.append(row)
    return rows
