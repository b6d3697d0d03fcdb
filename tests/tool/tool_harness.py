"""Shared helpers of the einops tool tests: running the tool and making corpus inputs."""
import os
import subprocess

import numpy as np


def run_tool(tool, args, cwd=None, timeout=120):
    """Runs the tool; returns (exit code, stdout, stderr) as text."""
    done = subprocess.run([tool, *args], cwd=cwd, capture_output=True, timeout=timeout)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def unescape(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def run_batch(tool, commands, folder):
    """Runs each argument list of `commands` through one `einops batch` process (no process
    start per command: fast under the sanitizers too). Returns [(exit code, stdout, stderr)]."""
    path = os.path.join(folder, "commands.%d.txt" % os.getpid())
    with open(path, "w", encoding="utf-8") as f:
        for args in commands:
            f.write("\t".join(escape(word) for word in args) + "\n")
    code, stdout, err = run_tool(tool, ["batch", path], timeout=600)
    os.remove(path)
    lines = stdout.split("\n")[:-1]
    if code != 0 or len(lines) != len(commands):
        raise RuntimeError(f"batch exit {code} with {len(lines)} of {len(commands)} answers: {err.strip()[:300]}")
    results = []
    for line in lines:
        status, out, error = line.split("\t")
        results.append((int(status), unescape(out), unescape(error)))
    return results


def corpus_input(shape, k, dtype):
    """Input k of a corpus case (tests/conformance/corpus/README.md): v = ((i*37 + 11 + 29*k) % 101) - 50."""
    count = int(np.prod(shape, dtype=np.int64))
    v = ((np.arange(count, dtype=np.int64) * 37 + 11 + 29 * k) % 101) - 50
    if dtype == "bool":
        return (v > 0).reshape(shape)
    return v.astype(dtype).reshape(shape)


def leftovers(folder):
    """Temporary files the tool left behind (it writes to '.NAME.tmp-XXXXXX' and renames)."""
    return [name for name in os.listdir(folder) if ".tmp-" in name]
