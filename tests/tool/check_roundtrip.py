"""Round trips through the einops tool for every dtype, memory order, byte order and .npy version.

numpy writes each input (format 1.0, 2.0 and 3.0; little- and big-endian; C and Fortran order);
the tool rearranges it (identity and a transpose) and writes the result; numpy reads it back and
compares values and dtype. Casts (--dtype) are checked against numpy's astype.

usage: check_roundtrip.py TOOL
"""
import os
import sys
import tempfile

import numpy as np

from tool_harness import leftovers, run_batch, run_tool

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]


def sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.startswith("float"):
        return (rng.standard_normal(size=shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def write(path, array, version):
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, version=version)


def header_of(path):
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        return np.lib.format._read_array_header(f, version)  # (shape, fortran_order, dtype)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def expect(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)


def main():
    tool = sys.argv[1]
    checks = Checks()
    with tempfile.TemporaryDirectory() as folder:
        # Every input file first, then one batch of tool commands, then the checks.
        commands, verifiers = [], []

        def command(args, verify):
            commands.append(args)
            verifiers.append(verify)

        def output_check(label, out, expected_dtype, expected, fortran=None):
            def verify(code, err):
                checks.expect(code == 0, f"{label}: exit {code} {err.strip()}")
                if code != 0:
                    return
                result = np.load(out)
                checks.expect(result.dtype == np.dtype(expected_dtype), f"{label}: dtype {result.dtype}")
                checks.expect(result.shape == expected.shape and np.array_equal(result, expected, equal_nan=True),
                              f"{label}: values differ")
                if fortran is not None:
                    checks.expect(header_of(out)[1] == fortran, f"{label}: fortran_order is not {fortran}")
            return verify

        n = 0
        for dtype in DTYPES:
            for order in ("C", "F"):
                for byteorder in ("<", ">"):
                    for version in ((1, 0), (2, 0), (3, 0)):
                        n += 1
                        base = sample(dtype, (3, 4, 5), n)
                        array = np.asarray(base, dtype=np.dtype(dtype).newbyteorder(byteorder), order=order)
                        src = os.path.join(folder, f"in{n}.npy")
                        write(src, array, version)
                        label = f"{dtype} {order} {byteorder} v{version[0]}"
                        # The identity is a view of the input's layout: Fortran order is written as it is.
                        identity_fortran = order == "F"
                        out = os.path.join(folder, f"out{n}a.npy")
                        command(["rearrange", "a b c -> a b c", src, "-o", out],
                                output_check(label + " identity", out, dtype, base, identity_fortran))
                        out = os.path.join(folder, f"out{n}b.npy")
                        command(["rearrange", "a b c -> c (a b)", src, "-o", out],
                                output_check(label + " transpose", out, dtype, base.transpose(2, 0, 1).reshape(5, 12)))
        # Scalars, empty arrays, numpy's result dtype of a reduction, and casts.
        for i, shape in enumerate(((), (0,), (2, 0, 3))):
            src, out = os.path.join(folder, f"shape{i}.npy"), os.path.join(folder, f"shape{i}-out.npy")
            write(src, np.zeros(shape, dtype="int16"), (1, 0))
            command(["rearrange", "... -> ...", src, "-o", out],
                    output_check(f"shape {shape}", out, "int16", np.zeros(shape, dtype="int16")))
        values = sample("int8", (4, 6), 99)
        src = os.path.join(folder, "int8.npy")
        write(src, values, (1, 0))
        out = os.path.join(folder, "sum.npy")
        command(["reduce", "a b -> a", src, "-r", "sum", "-o", out],
                output_check("sum of int8", out, "int64", values.sum(axis=1)))
        out = os.path.join(folder, "sum-input.npy")
        command(["reduce", "a b -> a", src, "-r", "sum", "--dtype", "input", "-o", out],
                output_check("--dtype input", out, "int8", values.sum(axis=1).astype(np.int8)))
        floats = sample("float64", (5, 7), 7)
        src = os.path.join(folder, "floats.npy")
        write(src, floats, (1, 0))
        for target in ("float16", "float32", "int32", "uint8", "bool"):
            expected = floats.T
            if target in ("int32", "uint8"):  # the tool saturates; numpy's out-of-range casts are undefined
                info = np.iinfo(target)
                expected = np.clip(np.trunc(expected), info.min, info.max)
            out = os.path.join(folder, f"cast-{target}.npy")
            command(["rearrange", "a b -> b a", src, "--dtype", target, "-o", out],
                    output_check(f"--dtype {target}", out, target, expected.astype(target)))

        for verify, (code, _, err) in zip(verifiers, run_batch(tool, commands, folder)):
            verify(code, err)
        # A few of the same commands as separate processes: the exit status a shell sees.
        for i in range(0, len(commands), 97):
            code, _, err = run_tool(tool, commands[i])
            verifiers[i](code, err)
        checks.expect(not leftovers(folder), f"temporary files left behind: {leftovers(folder)}")
    for failure in checks.failures[:30]:
        print("FAIL", failure)
    print(f"{checks.passed} passed, {len(checks.failures)} failed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
