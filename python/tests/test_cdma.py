"""Tests of the cdma Python package (scripts/python runs them on the built wheel).

With CDMA set to a cdma binary, the package's frames and measures are also compared with the
command line's (`cdma compress`, `cdma analyze --json --input`) on the same .npy files.
"""

import doctest
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import ml_dtypes
import numpy as np

import cdma
from cdma import _cdma

FLOATS = [np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32]
rng = np.random.default_rng(16)


def relu(shape, dtype):
    """About 60 % zeros, the rest positive: ReLU-like activations."""
    x = rng.standard_normal(shape).astype(np.float32)
    x[x < 0.25] = 0
    return x.astype(dtype)


def every_pattern(n, dtype):
    """n elements of random bit patterns (NaNs, infinities, -0 included) and some zeros."""
    size = np.dtype(dtype).itemsize
    raw = rng.integers(0, 256, n * size, dtype=np.uint8)
    raw[rng.random(n * size) < 0.3] = 0
    return raw.view(dtype)


def same_bits(a, b):
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


class RoundTrip(unittest.TestCase):
    def test_every_float_dtype_and_codec(self):
        for dtype in FLOATS:
            for codec in cdma.CODECS:
                for crc in (True, False):
                    for a in (relu((3, 40, 7, 5), dtype), every_pattern(5000, dtype)):
                        with self.subTest(dtype=np.dtype(dtype).name, codec=codec, crc=crc):
                            back = cdma.decompress(cdma.compress(a, codec, crc=crc))
                            self.assertTrue(same_bits(a.reshape(-1), back))

    def test_integers_keep_their_width_and_take_their_sign_from_dtype(self):
        for dtype in INTS:
            a = every_pattern(777, dtype)
            frame = cdma.compress(a, "zvcx")
            with self.subTest(dtype=np.dtype(dtype).name):
                self.assertTrue(same_bits(a, cdma.decompress(frame, dtype=dtype)))
                unsigned = cdma.decompress(frame)
                self.assertEqual(unsigned.dtype.kind, "u")
                self.assertEqual(unsigned.itemsize, a.itemsize)

    def test_shapes_strides_and_byte_order(self):
        a = relu((6, 10, 12), np.float32)
        cases = {
            "0-d": np.float32(1.5),
            "empty": np.zeros((0, 4), np.float32),
            "odd length": relu(33, np.float16),
            "transposed": a.transpose(2, 0, 1),
            "strided": a[:, ::3, 1::2],
            "Fortran": np.asfortranarray(a),
            "big-endian": a.astype(">f4"),
        }
        for name, x in cases.items():
            with self.subTest(name):
                back = cdma.decompress(cdma.compress(x, "zvcx"))
                want = np.ascontiguousarray(x, dtype=x.dtype.newbyteorder("=")).reshape(-1)
                self.assertTrue(same_bits(want, back))

    def test_chunk_sizes(self):
        a = relu(20000, ml_dtypes.bfloat16)
        for log2 in (7, 12, 24):
            with self.subTest(chunk_log2=log2):
                self.assertTrue(same_bits(a, cdma.decompress(cdma.compress(a, chunk_log2=log2))))

    def test_decompress_takes_bytes_like_objects(self):
        a = relu(1000, np.float32)
        frame = cdma.compress(a)
        for f in (frame, bytearray(frame), memoryview(frame), np.frombuffer(frame, np.uint8)):
            self.assertTrue(same_bits(a, cdma.decompress(f)))


class ZeroCopy(unittest.TestCase):
    def test_a_contiguous_array_is_read_in_place(self):
        a = relu((4, 256), ml_dtypes.bfloat16)
        data, ty = cdma._elements(a)
        self.assertEqual(ty, "bf16")
        self.assertTrue(np.shares_memory(data, a))

    def test_decompress_hands_over_its_buffer_writable(self):
        back = cdma.decompress(cdma.compress(relu(100, np.float32)))
        self.assertTrue(back.flags.writeable and back.flags.owndata is False)


class Errors(unittest.TestCase):
    def test_unsupported_dtype_names_it(self):
        with self.assertRaisesRegex(TypeError, "float64"):
            cdma.compress(np.zeros(8))

    def test_a_damaged_frame_is_a_frame_error(self):
        frame = bytearray(cdma.compress(relu(4096, np.float32)))
        frame[200] ^= 0x10
        with self.assertRaises(cdma.FrameError):
            cdma.decompress(frame)
        with self.assertRaises(cdma.FrameError):
            cdma.decompress(b"short")

    def test_bad_options(self):
        a = relu(100, np.float32)
        with self.assertRaisesRegex(ValueError, "codec"):
            cdma.compress(a, "lz77")
        with self.assertRaises(cdma.FrameError):
            cdma.compress(a, chunk_log2=3)
        with self.assertRaisesRegex(ValueError, "holds f32 elements, int16 is 2 bytes wide"):
            cdma.decompress(cdma.compress(a), dtype=np.int16)


class Measures(unittest.TestCase):
    def test_ratio_is_bytes_over_frame_bytes(self):
        a = relu((8, 512), np.float32)
        self.assertEqual(cdma.ratio(a, "zvcx"), a.nbytes / len(cdma.compress(a, "zvcx")))
        self.assertGreater(cdma.ratio(a), 1.5)

    def test_analyze_rows(self):
        tensors = {"conv": relu((2, 8, 9, 9), np.float32), "fc": relu((4, 100), ml_dtypes.float8_e4m3fn)}
        rows = cdma.analyze(tensors)
        self.assertEqual([r["name"] for r in rows], ["conv", "fc"])
        for r in rows:
            a = tensors[r["name"]]
            words = a.view({4: np.uint32, 1: np.uint8}[a.itemsize])
            self.assertEqual((r["elements"], r["zeros"], r["bytes"]), (a.size, int((words == 0).sum()), a.nbytes))
            self.assertEqual(r["shape"], a.shape)
            for codec in ("zvc", "rl", "zlib6", "lz4", "zstd3", "zvcx", "frame"):
                self.assertAlmostEqual(r[codec], a.nbytes / r[f"{codec}_bytes"])
        text = str(rows)
        self.assertIn("conv", text)
        self.assertIn("<table>", rows._repr_html_())

    def test_the_gil_is_released_while_compressing(self):
        # With a huge switch interval a thread only runs while another releases the GIL; the
        # counting thread gives it back at every step (sleep).
        data, ty = cdma._elements(relu(4 << 20, np.float32))
        count, stop = [0], threading.Event()

        def counter():
            while not stop.is_set():
                count[0] += 1
                time.sleep(1e-6)

        old = sys.getswitchinterval()
        sys.setswitchinterval(1000)
        t = threading.Thread(target=counter)
        try:
            t.start()
            threading.Event().wait(0.05)
            before = count[0]
            _cdma.compress(data, ty, "zvcx", 12, True)
            during = count[0] - before
        finally:
            stop.set()
            t.join()
            sys.setswitchinterval(old)
        self.assertGreater(during, 0, "no other thread ran during compress")


@unittest.skipUnless(os.environ.get("CDMA"), "CDMA (a cdma binary) not set")
class SameAsTheCommandLine(unittest.TestCase):
    def run_cdma(self, *args):
        return subprocess.run([os.environ["CDMA"], *map(str, args)], capture_output=True, text=True, check=True)

    def test_frames_and_measures_match_the_cli(self):
        tensors = {"a": relu((2, 16, 8, 8), np.float32), "b.bf16": relu((3, 300), ml_dtypes.bfloat16)}
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            for name, a in tensors.items():
                np.save(d / f"{name}.npy", a)
                for codec in cdma.CODECS:
                    out = d / f"{name}.{codec}.cdma"
                    self.run_cdma("compress", "--codec", codec, d / f"{name}.npy", out)
                    self.assertEqual(out.read_bytes(), cdma.compress(a, codec), f"{name} {codec}")
            cli = {t["name"]: t for t in json.loads(self.run_cdma("analyze", "--json", "--input", d).stdout)["tensors"]}
        for r in cdma.analyze(tensors):
            t = cli[r["name"]]
            self.assertEqual((t["elements"], t["zeros"], t["raw_bytes"]), (r["elements"], r["zeros"], r["bytes"]))
            for codec, size in t["sizes"].items():
                self.assertEqual(size, r[f"{codec}_bytes"], f"{r['name']} {codec}")
            self.assertEqual(t["chunked"]["bytes"], r["frame_bytes"])


def load_tests(loader, tests, ignore):
    # The module docstring's example is a test too.
    tests.addTests(doctest.DocTestSuite(cdma))
    return tests


if __name__ == "__main__":
    unittest.main()
