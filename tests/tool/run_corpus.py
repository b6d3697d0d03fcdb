"""Runs the einops tool as a subprocess on every rearrange/reduce/repeat/pack/unpack/einsum case of
the golden corpus.

Inputs are written as .npy by numpy; outputs are read back by numpy and compared with the
corpus: shape, dtype and values (exact, or relative 1e-9 for mean, prod and einsum), or the
checksums of large results; pack's printed packed shapes too. Error cases must exit with status 1,
print einops' message and write no file. Where the library deliberately differs from einops
(docs/differences.md), the case's note says "quirk" and QUIRKS below says what to expect.

usage: run_corpus.py TOOL CORPUS [--jobs N]
"""
import argparse
import concurrent.futures
import json
import math
import os
import sys
import tempfile

import numpy as np

from tool_harness import corpus_input, escape, leftovers, run_tool, unescape

OPS = ("rearrange", "reduce", "repeat", "pack", "unpack", "einsum")

# (op, phrase of the case's note): the library raises an error where einops returned a result.
QUIRKS = [("unpack", "overlapping slices")]


def expects_error(case):
    note = case.get("note") or ""
    if "quirk" in note and any(op == case["op"] and phrase in note for op, phrase in QUIRKS):
        return True
    return bool(case["expect"].get("error"))


def location_problem(case, err):
    """An error about lengths keeps einops' sentence and says where it happened after it (the
    conformance runner checks the location's content; here, that the tool shows it)."""
    detail = case["expect"].get("einops_detail") or ""
    if case["op"] not in ("rearrange", "reduce", "repeat") or not expect_error_from_einops(case):
        return None
    for sentence, location in (("Shape mismatch, ", " (input dim "), ("Wrong shape: ", " (groups: ")):
        if detail.startswith(sentence) and detail + location not in err:
            return f"einops' sentence followed by '{location.strip()}' missing: {err.strip()[:300]}"
    return None


def expect_error_from_einops(case):
    return bool(case["expect"].get("error"))


def shapes_text(shapes):
    """Packed shapes as pack prints them and unpack reads them: [(2, 3), (), (4,)]."""
    def one(shape):
        return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"
    return "[" + ", ".join(one(shape) for shape in shapes) + "]"


def close(actual, expected, relative, absolute):
    if math.isnan(actual) or math.isnan(expected):
        return math.isnan(actual) and math.isnan(expected)
    return actual == expected or abs(actual - expected) <= max(relative * abs(expected), absolute)


def compare(result, expect, approximate):
    if list(result.shape) != expect["shape"]:
        return f"shape: expected {expect['shape']}, got {list(result.shape)}"
    if str(result.dtype) != expect["dtype"]:
        return f"dtype: expected {expect['dtype']}, got {result.dtype}"
    flat = result.reshape(-1)

    def elements(name, want):
        got = flat[: len(want)].tolist()
        for i, (a, e) in enumerate(zip(got, want)):
            if e is None:
                ok = isinstance(a, float) and math.isnan(a)
            elif isinstance(a, float) and approximate:
                ok = close(a, float(e), 1e-9, 1e-12)
            else:
                ok = a == e
            if not ok:
                return f"{name}[{i}]: expected {e}, got {a}"
        return None

    if "values" in expect:
        if len(expect["values"]) != flat.size:
            return f"values: expected {len(expect['values'])} elements, got {flat.size}"
        return elements("values", expect["values"])
    v = flat.astype(np.float64)
    weights = (np.arange(flat.size, dtype=np.int64) % 1009 + 1).astype(np.float64)
    for name, value in (("sum", v.sum()), ("sumsq", (v * v).sum()), ("wsum", (v * weights).sum())):
        if not close(float(value), float(expect[name]), 1e-9, 1e-6):
            return f"{name}: expected {expect[name]}, got {value}"
    return elements("first16", expect["first16"])


class Prepared:
    """One case made ready: its input files written, its command line, its output paths."""

    def __init__(self, case, folder, tag):
        self.case = case
        self.inputs = []
        for k, shape in enumerate(case["shapes"]):
            # einops' list input stacks the tensors; each is input k of the case.
            path = os.path.join(folder, f"{tag}-{k}.npy")
            np.save(path, corpus_input(shape, k, case["dtype"]))
            self.inputs.append(path)
        op = case["op"]
        self.out = os.path.join(folder, f"{tag}-out.npy")
        self.outputs = [self.out]
        args = [op]
        if op == "unpack":
            self.outputs = [os.path.join(folder, f"{tag}-out{i}.npy") for i in range(len(case["packed_shapes"]))]
            args += ["--shapes", shapes_text(case["packed_shapes"])]
            if self.outputs:
                args += ["-o", *self.outputs]
        else:
            args += ["-o", self.out]
        if case.get("list_input"):
            args.append("--stack")
        if op == "reduce":
            args += ["--reduction", case["reduction"]]
        # "--" ends the options: patterns such as "->" start with a dash.
        args += ["--", case["pattern"], *self.inputs]
        args += [f"{axis}={length}" for axis, length in (case.get("axes_lengths") or {}).items()]
        self.args = args

    def check(self, code, stdout, err, folder):
        """The problem with the tool's answer, or None; removes the case's files."""
        try:
            return self._check(code, stdout, err, folder)
        finally:
            for path in self.inputs + self.outputs:
                if os.path.exists(path):
                    os.remove(path)

    def _check(self, code, stdout, err, folder):
        case, op, expect = self.case, self.case["op"], self.case["expect"]
        if expects_error(case):
            if code != 1:
                return f"expected an einops error (exit 1), got exit {code}: {err.strip()[:200]}"
            if not err.startswith("einops: "):
                return f"error message does not start with 'einops: ': {err[:200]}"
            if any(os.path.exists(path) for path in self.outputs):
                return "an output file was left behind after an error"
            return location_problem(case, err)
        if code != 0:
            return f"exit {code}: {err.strip()[:300]}"
        approximate = op == "einsum" or (op == "reduce" and case["reduction"] in ("mean", "prod"))
        if op == "unpack":
            if len(expect["outputs"]) != len(self.outputs):
                return f"{len(self.outputs)} outputs, expected {len(expect['outputs'])}"
            for i, (path, want) in enumerate(zip(self.outputs, expect["outputs"])):
                problem = compare(np.load(path), want, approximate)
                if problem:
                    return f"output {i}: {problem}"
            return None
        if op == "pack":
            printed = [line for line in stdout.splitlines() if line.startswith("packed shapes: ")]
            if printed != ["packed shapes: " + shapes_text(expect["packed_shapes"])]:
                return f"printed {printed}, expected packed shapes {expect['packed_shapes']}"
        return compare(np.load(self.out), expect, approximate)


def run_case_batch(tool, cases, folder, tag):
    """Runs `cases` through one `einops batch` process; returns [(case, problem)]."""
    prepared = [Prepared(case, folder, f"{tag}-{i}") for i, case in enumerate(cases)]
    commands = os.path.join(folder, f"{tag}.commands")
    with open(commands, "w", encoding="utf-8") as f:
        for p in prepared:
            f.write("\t".join(escape(word) for word in p.args) + "\n")
    code, stdout, err = run_tool(tool, ["batch", commands], timeout=600)
    os.remove(commands)
    lines = stdout.split("\n")[:-1]
    if code != 0 or len(lines) != len(prepared):
        problem = f"batch exit {code} with {len(lines)} of {len(prepared)} answers: {err.strip()[:300]}"
        return [(p.case, p.check(-1, "", "", folder) and problem) for p in prepared]
    results = []
    for p, line in zip(prepared, lines):
        status, out, error = line.split("\t")
        results.append((p.case, p.check(int(status), unescape(out), unescape(error), folder)))
    return results


def run_alone(tool, case, folder, tag):
    """Runs one case as its own process (exit status and stderr as a user sees them)."""
    p = Prepared(case, folder, tag)
    code, stdout, err = run_tool(tool, p.args)
    problem = p.check(code, stdout, err, folder)
    return [(case, problem and "alone: " + problem)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("corpus")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--batch-size", type=int, default=150)
    parser.add_argument("--alone-every", type=int, default=50,
                        help="also run every Nth case as its own process")
    options = parser.parse_args()
    cases = []
    with open(options.corpus, encoding="utf-8") as corpus:
        for line in corpus:
            case = json.loads(line)
            if case["op"] in OPS:
                cases.append(case)
    if not cases:
        print("no cases of " + ", ".join(OPS) + " in the corpus")
        return 1
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        work = [lambda i=i: run_case_batch(options.tool, cases[i:i + options.batch_size], folder, f"b{i}")
                for i in range(0, len(cases), options.batch_size)]
        alone = cases[::options.alone_every]
        work += [lambda i=i, c=c: run_alone(options.tool, c, folder, f"a{i}") for i, c in enumerate(alone)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
            for results in pool.map(lambda job: guarded(job), work):
                failures += [(case["id"], case["pattern"], problem) for case, problem in results if problem]
        if leftovers(folder):
            failures.append(("-", "-", f"temporary files left behind: {leftovers(folder)[:5]}"))
    for case_id, pattern, problem in failures[:30]:
        print(f"FAIL {case_id} {pattern!r}: {problem}")
    total = len(cases) + len(alone)
    print(f"{len(cases)} cases in batches, {len(alone)} of them again as separate processes")
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


def guarded(job):
    try:
        return job()
    except Exception as error:  # a crash of the harness fails the run, with the reason
        return [({"id": "harness", "pattern": ""}, f"harness error: {error!r}")]


if __name__ == "__main__":
    sys.exit(main())
