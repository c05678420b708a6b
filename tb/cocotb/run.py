"""Runs test_engine.py on the IP package of each given engine, on Icarus Verilog.

Usage: run.py CDMA_BIN OUT_DIR (--preset NAME | --config FILE)...

For each engine: `cdma gen` writes its IP package into OUT_DIR/<name>, Icarus builds the
package's Verilog, cocotb runs the test with the package's spec JSON. Exits 1 if any test
failed, printing one line per engine.
"""

import os
import sys

from cocotb.runner import get_runner, get_results

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def package(cdma, out, kind, value):
    """Generates the IP package; returns (module, its directory)."""
    name = value if kind == "--preset" else os.path.splitext(os.path.basename(value))[0]
    d = os.path.join(out, name)
    r = os.spawnv(os.P_WAIT, cdma, [cdma, "gen", kind, value, "--out", d])
    if r != 0:
        sys.exit(f"cocotb: cdma gen {kind} {value} failed")
    (module,) = [f[: -len("_spec.json")] for f in os.listdir(d) if f.endswith("_spec.json")]
    return module, d


def main(argv):
    if len(argv) < 4 or len(argv) % 2:
        sys.exit(__doc__)
    cdma, out = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    pairs = list(zip(argv[2::2], argv[3::2]))
    data = os.path.join(ROOT, "data", "activations")
    failed = []
    for kind, value in pairs:
        module, d = package(cdma, out, kind, value)
        runner = get_runner("icarus")
        build = os.path.join(d, "sim_build")
        runner.build(
            verilog_sources=[os.path.join(d, f"{module}.v")],
            hdl_toplevel=module,
            build_dir=build,
            timescale=("1ns", "1ps"),
            always=True,
        )
        env = {
            "CDMA_SPEC_JSON": os.path.join(d, f"{module}_spec.json"),
            "CDMA_BIN": cdma,
            "CDMA_SEED": os.environ.get("CDMA_SEED", "1"),
        }
        if os.path.exists(data):
            env["CDMA_DATA_DIR"] = data
        results = runner.test(
            hdl_toplevel=module,
            test_module="test_engine",
            test_dir=build,
            build_dir=build,
            results_xml=os.path.join(build, "results.xml"),
            extra_env=env,
        )
        n, fails = get_results(results)
        print(f"cocotb: {module} ({kind} {value}): {n - fails} passed, {fails} failed")
        if fails or n == 0:
            failed.append(module)
    if failed:
        sys.exit(f"cocotb: failed: {', '.join(failed)}")


if __name__ == "__main__":
    main(sys.argv[1:])
