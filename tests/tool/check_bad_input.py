"""Bad input to the einops tool: each class must give exit status 2, one line on stderr naming
the file and the problem, no crash, and no output file (an existing one stays as it was).

Classes: a missing file, a directory, a malformed file, truncated files, unsupported dtypes,
headers that lie about their size, unwritable outputs, pictures that do not fit a PNG, and
fuzzed headers (seeded random mutations of valid files).

usage: check_bad_input.py TOOL
"""
import os
import random
import struct
import sys
import tempfile

import numpy as np

from tool_harness import leftovers, run_batch, run_tool

SENTINEL = b"existing output, must survive a failed run"


def npy_bytes(array, version=(1, 0)):
    import io
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, version=version)
    return buffer.getvalue()


def with_header(dictionary, data=b"", version=1):
    """A .npy file with a hand-written header dictionary (padded as numpy pads it)."""
    text = dictionary.encode("latin1")
    prefix = 10 if version == 1 else 12
    total = (prefix + len(text) + 1 + 63) // 64 * 64
    text += b" " * (total - prefix - len(text) - 1) + b"\n"
    length = struct.pack("<H" if version == 1 else "<I", len(text))
    return b"\x93NUMPY" + bytes([version, 0]) + length + text + data


class Checks:
    def __init__(self, tool, folder):
        self.tool, self.folder = tool, folder
        self.passed, self.failures = 0, []

    def bad(self, label, args, names, out, fragment=None):
        """Runs the tool expecting a one-line file error naming `names`; `out` must not change."""
        code, stdout, err = run_tool(self.tool, args)
        lines = err.strip("\n").split("\n")
        problems = []
        if code != 2:
            problems.append(f"exit {code}")
        if len(lines) != 1 or not lines[0].startswith("einops: "):
            problems.append(f"stderr is not one 'einops: ' line: {err!r}")
        if names not in err:
            problems.append(f"stderr does not name {names!r}: {err!r}")
        if fragment and fragment not in err:
            problems.append(f"stderr does not say {fragment!r}: {err!r}")
        if out and os.path.exists(out) and open(out, "rb").read() != SENTINEL:
            problems.append("the existing output was changed")
        if leftovers(self.folder):
            problems.append(f"temporary files left: {leftovers(self.folder)}")
        if problems:
            self.failures.append(f"{label}: " + "; ".join(problems))
        else:
            self.passed += 1
        return code

    def file_case(self, label, content, fragment=None):
        src = os.path.join(self.folder, "bad.npy")
        out = os.path.join(self.folder, "out.npy")
        with open(src, "wb") as f:
            f.write(content)
        with open(out, "wb") as f:
            f.write(SENTINEL)
        self.bad(label, ["rearrange", "... -> ...", src, "-o", out], src, out, fragment)


def main():
    tool = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        checks = Checks(tool, folder)
        good = npy_bytes(np.arange(24, dtype="<f8").reshape(2, 3, 4))
        out = os.path.join(folder, "out.npy")
        with open(out, "wb") as f:
            f.write(SENTINEL)

        # A missing file and a directory.
        missing = os.path.join(folder, "missing.npy")
        checks.bad("missing file", ["rearrange", "a -> a", missing, "-o", out], missing, out, "No such file")
        checks.bad("directory", ["rearrange", "a -> a", folder, "-o", out], folder, out, "is a directory")
        missing_png = os.path.join(folder, "missing.png")
        checks.bad("missing png", ["rearrange", "a -> a", missing_png, "-o", out], missing_png, out, "No such file")

        # Malformed and truncated files.
        checks.file_case("empty file", b"", "empty file")
        checks.file_case("not npy", b"hello, world\n" * 10, "not a .npy file")
        checks.file_case("text png", b"not a picture", None)
        checks.file_case("truncated preamble", good[:7], "truncated")
        checks.file_case("truncated length field", good[:9], "truncated")
        checks.file_case("truncated header", good[:40], "truncated")
        checks.file_case("truncated data", good[:-1], "truncated")
        checks.file_case("no data", good[:128], "truncated")
        checks.file_case("version 4", good[:6] + b"\x04\x00" + good[8:], "version 4.0")
        checks.file_case("version 1.1", good[:6] + b"\x01\x01" + good[8:], "version 1.1")
        checks.file_case("not a dict", with_header("[1, 2, 3]"), "malformed header")
        checks.file_case("missing key", with_header("{'descr': '<f8', 'shape': (2,), }", b"\0" * 16), "required")
        checks.file_case("extra key", with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (), 'x': 1}",
                                                  b"\0" * 8), "unexpected key")
        checks.file_case("negative length", with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }"),
                         "negative")
        checks.file_case("shape not a tuple", with_header("{'descr': '<f8', 'fortran_order': False, 'shape': 3, }"),
                         "not a tuple")
        checks.file_case("fortran_order not bool",
                         with_header("{'descr': '<f8', 'fortran_order': 0, 'shape': (1,), }", b"\0" * 8), "fortran_order")
        checks.file_case("unterminated string", with_header("{'descr': '<f8, 'fortran_order': False}"), "malformed")
        checks.file_case("deep nesting", with_header("{'descr': " + "[" * 100 + "]" * 100 + "}"), "malformed")
        checks.file_case("huge integer", with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                                                     "9" * 40 + ",), }"), "too large")
        checks.file_case("too many elements", with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                                                          "4294967296, " * 4 + "), }"), "more elements")
        checks.file_case("too many dims", with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                                                      "1, " * 65 + "), }"), "dimensions")

        # Unsupported dtypes.
        for descr in ("<c16", "<U3", "|O", "|S4", "<M8[s]", "<f16", "|V8"):
            checks.file_case(f"dtype {descr}", with_header(
                "{'descr': '%s', 'fortran_order': False, 'shape': (1,), }" % descr, b"\0" * 32), "unsupported dtype")
        checks.file_case("structured dtype", npy_bytes(np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")])),
                         "structured")

        # Headers that lie about their size.
        lying_length = bytearray(good)
        lying_length[8:10] = struct.pack("<H", 60000)
        checks.file_case("header length beyond the file", bytes(lying_length), "header length field")
        short_length = bytearray(good)
        short_length[8:10] = struct.pack("<H", 30)
        checks.file_case("header length too short", bytes(short_length), "malformed header")
        long_length = bytearray(good)
        long_length[8:10] = struct.pack("<H", struct.unpack("<H", good[8:10])[0] + 16)
        checks.file_case("header length too long", bytes(long_length), None)
        v2_length = npy_bytes(np.zeros(3), version=(2, 0))
        v2_length = v2_length[:8] + struct.pack("<I", 0xFFFFFFF0) + v2_length[12:]
        checks.file_case("v2 length of 4 GiB", v2_length, "header length field")
        checks.file_case("shape larger than the data",
                         with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1000, 1000), }", b"\0" * 64),
                         "truncated")

        # Unwritable outputs: a folder that does not exist, a directory, a picture that cannot be one.
        src = os.path.join(folder, "good.npy")
        with open(src, "wb") as f:
            f.write(good)
        nowhere = os.path.join(folder, "no", "such", "folder", "out.npy")
        checks.bad("output in a missing folder", ["rearrange", "a b c -> c b a", src, "-o", nowhere], nowhere, None,
                   "cannot write")
        checks.bad("output is a directory", ["rearrange", "a b c -> c b a", src, "-o", folder], folder, None,
                   "is a directory")
        png_out = os.path.join(folder, "out.png")
        with open(png_out, "wb") as f:
            f.write(SENTINEL)
        checks.bad("png of 4 dims", ["rearrange", "a b c -> a b c 1", src, "-o", png_out], png_out, png_out, "PNG")
        checks.bad("png of 5 channels", ["repeat", "a b c -> a (b c) 5", src, "-o", png_out], png_out, png_out, "PNG")
        checks.bad("png out of range", ["rearrange", "a b c -> (a b) c", src, "-o", png_out], png_out, png_out,
                   "[0, 1]")

        # Fuzzed headers: random byte edits and cuts of valid files must fail cleanly or succeed.
        rng = random.Random(8)
        seeds = [npy_bytes((np.arange(12) % 3).astype(d).reshape(3, 4)) for d in ("<f8", ">i2", "|b1", "<f2")]
        seeds.append(npy_bytes(np.arange(6, dtype="<u4"), version=(3, 0)))
        fuzz_files, fuzz_commands = [], []
        for i in range(200):
            content = bytearray(rng.choice(seeds))
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(0, min(len(content), 140))
                content[at] = rng.randrange(256)
            if rng.random() < 0.3:
                content = content[: rng.randrange(len(content) + 1)]
            src_fuzz = os.path.join(folder, f"fuzz{i}.npy")
            with open(src_fuzz, "wb") as f:
                f.write(content)
            fuzz_files.append(src_fuzz)
            fuzz_commands.append(["rearrange", "... -> ...", src_fuzz, "-o", os.path.join(folder, f"fuzz{i}-out.npy")])
        # One process for all of them (fast under the sanitizers); a crash would end the batch.
        fuzz_failures, refused = 0, 0
        for i, (code, _, err) in enumerate(run_batch(tool, fuzz_commands, folder)):
            out_i = fuzz_commands[i][-1]
            ok = (code == 0 and os.path.exists(out_i)) or (
                code == 2 and err.count("\n") == 1 and fuzz_files[i] in err and not os.path.exists(out_i))
            refused += code == 2
            if not ok:
                fuzz_failures += 1
                if fuzz_failures <= 5:
                    checks.failures.append(f"fuzz {i}: exit {code}: {err[:300]!r}")
        if leftovers(folder):
            checks.failures.append(f"fuzz: temporary files left: {leftovers(folder)[:5]}")
        if fuzz_failures == 0 and refused > 0:
            checks.passed += 1
    for failure in checks.failures:
        print("FAIL", failure)
    print(f"{checks.passed} passed, {len(checks.failures)} failed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
