"""A generated cdma engine against a third-party AXI model (cocotbext-axi), on Icarus Verilog.

The engine's emitted Verilog (an IP package of `cdma gen`) runs with `AxiRam` on its AXI4
master port, with seeded pause generators on all five channels, and `AxiLiteMaster` on its
CSRs. Every register offset, descriptor field and code comes from the package's
`<module>_spec.json`, never from this file. Per element width the engine runs (HWCFG), one
chain COPYs and COMPRESSes a tensor (ZVC, and ZVC-X on an engine with it); the frame it wrote is
decoded by the golden model (`cdma decompress`) and compared with the tensor; a second chain
DECOMPRESSes each frame back. Around every region the engine may write, the memory holds a
guard pattern: after each chain the whole memory image must equal what the test placed plus
what the engine was allowed to write. Icarus is a 4-state simulator: an X or Z on any AXI
signal the engine drives while its valid is high fails the test.

Environment (set by run.py): CDMA_SPEC_JSON, CDMA_BIN (the `cdma` binary), CDMA_DATA_DIR (raw
tensors `*.<dtype>.bin` to take data from, optional), CDMA_SEED.
"""

import json
import logging
import os
import random
import subprocess
import tempfile

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

MEM_SIZE = 1 << 20
GUARD = 0xA5
# Cycle limit of one chain: a hang fails instead of running forever.
CHAIN_CYCLES = 400_000


class Spec:
    """The tables of `<module>_spec.json`."""

    def __init__(self, path):
        with open(path) as f:
            self.j = json.load(f)

    def csr(self, name):
        return self.j["csr"][name]["addr"]

    def bits(self, table, name):
        b = table[name]
        return b["lsb"], b["width"]

    def get(self, table, name, word):
        lsb, width = self.bits(table, name)
        return (word >> lsb) & ((1 << width) - 1)

    def set(self, table, name, word, value):
        lsb, width = self.bits(table, name)
        mask = ((1 << width) - 1) << lsb
        assert value < (1 << width), f"{name}: {value} does not fit {width} bits"
        return (word & ~mask) | (value << lsb)

    def error_name(self, code):
        for name, e in self.j["errors"].items():
            if e["code"] == code:
                return name
        return f"code {code}"

    def control(self, op, elem_bits, chunk_log2=0, elem_type=None, codec=None):
        d = self.j["descriptor"]
        cb = d["control_bits"]
        w = self.set(cb, "op", 0, d["ops"][op])
        w = self.set(cb, "elem", w, d["elem_codes"][str(elem_bits)])
        w = self.set(cb, "chunk_log2", w, chunk_log2)
        if elem_type is not None:
            w = self.set(cb, "type", w, d["elem_types"][elem_type])
        if codec is not None:
            w = self.set(cb, "codec", w, d["codecs"][codec])
        return w

    def descriptor(self, **values):
        d = self.j["descriptor"]
        buf = bytearray(d["len"])
        for name, v in values.items():
            f = d["fields"][name]
            buf[f["offset"] : f["offset"] + f["size"]] = v.to_bytes(f["size"], "little")
        return bytes(buf)

    def field(self, name):
        f = self.j["descriptor"]["fields"][name]
        return f["offset"], f["size"]


def pauses(rng, busy):
    """A pause generator: each cycle paused with probability `busy`."""
    while True:
        yield rng.random() < busy


class Bench:
    def __init__(self, dut, spec, seed):
        self.dut = dut
        self.spec = spec
        self.rng = random.Random(seed)
        cocotb.start_soon(Clock(dut.clock, 10, units="ns").start())
        # The AXI models log every burst; the test says what it checked.
        for port in ("m_axi", "s_axil"):
            logging.getLogger(f"cocotb.{dut._name}.{port}").setLevel(logging.WARNING)
        self.ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clock, dut.rst, size=MEM_SIZE)
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clock, dut.rst)
        for ch in (self.ram.write_if.aw_channel, self.ram.write_if.w_channel,
                   self.ram.write_if.b_channel, self.ram.read_if.ar_channel,
                   self.ram.read_if.r_channel):
            ch.set_pause_generator(pauses(random.Random(self.rng.random()), 0.3))
        self.image = bytearray([GUARD]) * MEM_SIZE
        self.ram.write(0, bytes(self.image))
        self.next_free = 0x1000
        cocotb.start_soon(self.watch_x())

    async def watch_x(self):
        """Fails on X/Z in any AXI payload the engine drives while its valid is high."""
        d = self.dut
        checks = [
            (d.m_axi_awvalid, [d.m_axi_awaddr, d.m_axi_awlen, d.m_axi_awsize, d.m_axi_awburst]),
            (d.m_axi_wvalid, [d.m_axi_wdata, d.m_axi_wstrb, d.m_axi_wlast]),
            (d.m_axi_arvalid, [d.m_axi_araddr, d.m_axi_arlen, d.m_axi_arsize, d.m_axi_arburst]),
            (d.s_axil_rvalid, [d.s_axil_rdata, d.s_axil_rresp]),
            (d.s_axil_bvalid, [d.s_axil_bresp]),
        ]
        while True:
            await RisingEdge(d.clock)
            if not d.rst.value.is_resolvable or d.rst.value:
                continue
            for valid, payload in checks:
                assert valid.value.is_resolvable, f"{valid._name} is {valid.value}"
                if valid.value:
                    for s in payload:
                        assert s.value.is_resolvable, f"{s._name} = {s.value} while valid"

    async def reset(self):
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clock, 8)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clock, 2)

    async def csr_read(self, name):
        return await self.axil.read_dword(self.spec.csr(name))

    async def csr_write(self, name, value):
        await self.axil.write_dword(self.spec.csr(name), value)

    def alloc(self, size, align):
        a = (self.next_free + align - 1) // align * align
        self.next_free = a + size + align  # a guard gap after every region
        assert self.next_free < MEM_SIZE, "test memory exhausted"
        return a

    def place(self, addr, data):
        self.image[addr : addr + len(data)] = data
        self.ram.write(addr, bytes(data))

    async def run_chain(self, descs, allowed):
        """Places `descs` (addr, bytes) as a chain, runs it, checks the memory image: only
        `allowed` ranges and the descriptors' status words may change. Returns the status
        words and bytes_written of each descriptor."""
        for (addr, d) in descs:
            self.place(addr, d)
        so, _ = self.spec.field("status")
        allowed = list(allowed) + [(a + so, a + so + 8) for a, _ in descs]
        before = await self.csr_read("DESC_DONE")
        head = descs[0][0]
        await self.csr_write("HEAD_LO", head & 0xFFFFFFFF)
        await self.csr_write("HEAD_HI", head >> 32)
        ctrl = self.spec.set(self.spec.j["csr_bits"]["CTRL"], "enable", 0, 1)
        await self.csr_write("CTRL", ctrl)
        await self.csr_write("DOORBELL", 1)
        waited = 0
        sb = self.spec.j["csr_bits"]["STATUS"]
        while True:
            await ClockCycles(self.dut.clock, 64)
            waited += 64
            done = (await self.csr_read("DESC_DONE") - before) & 0xFFFFFFFF
            busy = self.spec.get(sb, "busy", await self.csr_read("STATUS"))
            if done >= len(descs) and not busy:
                break
            assert waited < CHAIN_CYCLES, f"chain not done after {waited} cycles ({done} done)"
        mem = self.ram.read(0, MEM_SIZE)
        for (lo, hi) in allowed:
            self.image[lo:hi] = mem[lo:hi]
        if mem != self.image:
            first = next(i for i in range(MEM_SIZE) if mem[i] != self.image[i])
            raise AssertionError(f"byte {first:#x} written outside every allowed region")
        out = []
        for (addr, _) in descs:
            st = int.from_bytes(mem[addr + so : addr + so + 4], "little")
            bw = int.from_bytes(mem[addr + so + 4 : addr + so + 8], "little")
            out.append((st, bw))
        return out

    def expect_ok(self, label, status):
        st, _ = status
        sb = self.spec.j["descriptor"]["status_bits"]
        assert self.spec.get(sb, "done", st) == 1, f"{label}: done not set ({st:#x})"
        code = self.spec.get(sb, "error", st)
        assert code == 0, f"{label}: {self.spec.error_name(code)}"


def test_data(rng, n_bytes, dtype, elem_bytes):
    """ReLU-like data: a slice of a corpus tensor of `dtype` when CDMA_DATA_DIR has one, else
    synthetic; a length that is not a multiple of any bus width, so the last beat is
    partial."""
    d = os.environ.get("CDMA_DATA_DIR")
    files = sorted(f for f in os.listdir(d) if f.endswith(f".{dtype}.bin")) if d else []
    if files:
        with open(os.path.join(d, files[rng.randrange(len(files))]), "rb") as f:
            raw = f.read()
        at = rng.randrange(0, max(1, len(raw) - n_bytes)) // elem_bytes * elem_bytes
        data = bytearray(raw[at : at + n_bytes])
    else:
        data = bytearray(
            b"".join(
                (rng.getrandbits(8 * elem_bytes - 1) if rng.random() < 0.3 else 0)
                .to_bytes(elem_bytes, "little")
                for _ in range(n_bytes // elem_bytes)
            )
        )
    data = data[: len(data) // elem_bytes * elem_bytes]
    if len(data) % 16 == 0:
        data = data[:-elem_bytes]  # a partial last beat on every bus width
    return bytes(data)


def model_decode(frame):
    with tempfile.TemporaryDirectory() as t:
        fp, op = os.path.join(t, "f.cdma"), os.path.join(t, "f.out")
        with open(fp, "wb") as f:
            f.write(frame)
        r = subprocess.run([os.environ["CDMA_BIN"], "decompress", fp, op],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"the golden model refuses the engine's frame: {r.stderr}"
        with open(op, "rb") as f:
            return f.read()


async def heartbeat(dut, every=2000):
    """A log line every `every` cycles, so a slow simulation shows its progress."""
    n = 0
    while True:
        await ClockCycles(dut.clock, every)
        n += every
        dut._log.info(f"{n} cycles")


@cocotb.test()
async def copy_compress_decompress(dut):
    spec = Spec(os.environ["CDMA_SPEC_JSON"])
    b = Bench(dut, spec, int(os.environ.get("CDMA_SEED", "1")))
    await b.reset()
    hw = await b.csr_read("HWCFG")
    hb = spec.j["csr_bits"]["HWCFG"]
    bus_bytes = len(dut.m_axi_wdata) // 8
    elem_mask = spec.get(hb, "elem_mask", hw)
    has_zvcx = (spec.get(hb, "codec_mask", hw) >> spec.j["descriptor"]["codecs"]["ZVCX"]) & 1
    widths = [w for w, code in spec.j["descriptor"]["elem_codes"].items()
              if (elem_mask >> code) & 1]
    assert widths, f"HWCFG {hw:#x} names no element width"
    cocotb.start_soon(heartbeat(dut))
    rounds = int(os.environ.get("CDMA_COCOTB_ROUNDS", "3"))
    for r in range(rounds):
        for w in widths:
            await round_trip(b, int(w), bus_bytes, has_zvcx, f"round {r} E{w}")


FLOAT_OF_WIDTH = {32: "f32", 16: "bf16", 8: "e4m3"}


async def round_trip(b, w, bus_bytes, has_zvcx, label):
    """One tensor of `w`-bit elements: a chain that COPYs it and COMPRESSes it with each codec
    of the engine (random chunk size and length), each frame decoded by the golden model;
    then a chain that DECOMPRESSes every frame back."""
    spec = b.spec
    eb = w // 8
    dtype = FLOAT_OF_WIDTH[w]
    data = test_data(b.rng, b.rng.randrange(eb, 4000), dtype, eb)
    n = len(data)
    chunk_log2 = b.rng.randrange(7, 10)
    n_chunks = -(-n // (1 << chunk_log2))
    # The engine writes version 4 frames (CRC32C) unless a descriptor says no_crc.
    fr = spec.j["frame"]
    meta_len = fr["header_len"] + fr["index_entry_len_crc"] * n_chunks + fr["meta_crc_len"]
    src = b.alloc(n, bus_bytes)
    b.place(src, data)
    codecs = [("ZVC", None)] + ([("ZVCX", dtype)] if has_zvcx else [])
    # Chain 1: COPY, then a COMPRESS per codec.
    copy_dst = b.alloc(n, bus_bytes)
    descs, allowed, frames = [], [(copy_dst, copy_dst + n)], []
    addrs = [b.alloc(64, 64) for _ in range(1 + len(codecs))]
    nxt = addrs[1:] + [0]
    descs.append((addrs[0], spec.descriptor(
        control=spec.control("COPY", w), src_len=n, src_addr=src,
        dst_addr=copy_dst, dst_cap=n, next=nxt[0])))
    for i, (codec, ty) in enumerate(codecs):
        dst, meta = b.alloc(n, bus_bytes), b.alloc(meta_len, bus_bytes)
        allowed += [(dst, dst + n), (meta, meta + meta_len)]
        frames.append((codec, dst, meta))
        descs.append((addrs[i + 1], spec.descriptor(
            control=spec.control("COMPRESS", w, chunk_log2, ty, codec if ty else None),
            src_len=n, src_addr=src, dst_addr=dst, dst_cap=n, meta_addr=meta,
            next=nxt[i + 1])))
    st = await b.run_chain(descs, allowed)
    b.expect_ok(f"{label} COPY", st[0])
    assert b.ram.read(copy_dst, n) == data, f"{label} COPY: the copy differs"
    # Each frame, as the golden model reads it, holds the tensor.
    chain2, allowed2, outs = [], [], []
    addrs = [b.alloc(64, 64) for _ in frames]
    for i, ((codec, dst, meta), s) in enumerate(zip(frames, st[1:])):
        b.expect_ok(f"{label} COMPRESS {codec}", s)
        plen = s[1]
        frame = b.ram.read(meta, meta_len) + b.ram.read(dst, plen)
        assert frame[4] == 4, f"{label} {codec}: version {frame[4]}, not 4 (CRC32C)"
        assert model_decode(frame) == data, f"{label} {codec}: the frame decodes to other data"
        out = b.alloc(n, bus_bytes)
        allowed2.append((out, out + n))
        outs.append((codec, out))
        chain2.append((addrs[i], spec.descriptor(
            control=spec.control("DECOMPRESS", w), src_len=plen, src_addr=dst,
            dst_addr=out, dst_cap=n, meta_addr=meta,
            next=addrs[i + 1] if i + 1 < len(addrs) else 0)))
    # Chain 2: the frames back.
    st2 = await b.run_chain(chain2, allowed2)
    for (codec, out), s in zip(outs, st2):
        b.expect_ok(f"{label} DECOMPRESS {codec}", s)
        assert s[1] == n, f"{label} DECOMPRESS {codec}: {s[1]} bytes written, not {n}"
        assert b.ram.read(out, n) == data, f"{label} DECOMPRESS {codec}: data differs"
    b.dut._log.info(f"{label}: COPY, COMPRESS and DECOMPRESS of {n} bytes in chunks of "
                    f"{1 << chunk_log2} ({', '.join(c for c, _ in codecs)}) match the model")
