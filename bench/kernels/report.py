#!/usr/bin/env python3
"""Turns bench_kernels' JSON into the table of bench/README.md (between the kernels markers).

usage: report.py RESULTS.json README.md COMMAND [FORCED_SIMD_TARGET]
Each row: one case at one thread count; einops' median time as GB/s (input + output bytes),
as % of the reference pass on the same bytes in the same run (memcpy of the output for
permutations and repeats, a read of the input for reductions), and the ratios of LibTorch's and
Eigen's median times to einops' (above 1: einops is faster).
With FORCED_SIMD_TARGET (a run with EINOPS_BENCH_SIMD set), the table goes between its own
markers, so that the kernels of an older instruction set are shown beside the best ones.
"""
import datetime
import json
import math
import platform
import re
import subprocess
import sys


def markers(forced):
    section = f"kernels-{forced.lower()}" if forced else "kernels"
    return f"<!-- {section}:begin -->", f"<!-- {section}:end -->"


def machine():
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = re.search(r"Model name:\s*(.*)", lscpu).group(1).strip()
        cpus = re.search(r"^CPU\(s\):\s*(\d+)", lscpu, re.M).group(1)
        flags = re.search(r"Flags:\s*(.*)", lscpu).group(1).split()
        isa = "AVX-512" if "avx512f" in flags else ("AVX2" if "avx2" in flags else "SSE4")
        return f"{model}, {cpus} CPUs, {isa}, Linux {platform.release()}"
    except Exception:  # noqa: BLE001 - best effort description
        return platform.platform()


def main():
    results, readme, command = sys.argv[1], sys.argv[2], sys.argv[3]
    forced = sys.argv[4] if len(sys.argv) > 4 else ""
    BEGIN, END = markers(forced)
    data = json.load(open(results))
    times, counters, order = {}, {}, {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name", "median") != "median" or b.get("error_occurred"):
            continue
        name = b["run_name"].split("/")[0]
        impl, label, dtype, threads = name.split("|")
        key = (label, dtype, int(threads))
        # Rows in registration order (family_index), whatever order the repetitions ran in.
        order[key] = min(order.get(key, math.inf), b.get("family_index", len(order)))
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        times.setdefault(key, {})[impl] = b["real_time"] * scale
        if impl == "einops":
            counters[key] = b
    rows, groups = [], {}
    for key in sorted(times, key=lambda k: order[k]):
        t = times[key]
        if "einops" not in t or "reference" not in t:
            continue
        label, dtype, threads = key
        traffic = counters[key]["traffic_bytes"]
        gbs = traffic / t["einops"] / 1e9
        pct = 100.0 * t["reference"] / t["einops"]
        torch = t["torch"] / t["einops"] if "torch" in t else None
        eigen = t["eigen"] / t["einops"] if "eigen" in t else None
        # Reduction labels end in "(sum)" etc.; a permutation's pattern may hold groups too.
        reduced = re.search(r"\((sum|mean|max|min|prod|any|all)\)$", label)
        kind = "reduce" if reduced else ("repeat" if label in ("b c -> b c h w", "h w -> (h 2) (w 2)") else "permute")
        groups.setdefault((kind, dtype == "float32"), []).append((pct, torch, eigen))
        rows.append((label, dtype, threads, gbs, pct, torch, eigen))

    def geo(values):
        values = [v for v in values if v]
        return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None

    # LibTorch and Eigen columns only when the run measured them (a filter may leave them out).
    baselines = any(r[5] or r[6] for r in rows)
    fmt = lambda r: f"{r:.2f}x" if r else "n/a"
    ratios = lambda torch, eigen: f" {fmt(torch)} | {fmt(eigen)} |" if baselines else ""
    case_rows = [f"| `{label}` | {dtype} | {threads} | {gbs:.1f} | {pct:.0f}% |{ratios(torch, eigen)}"
                 for label, dtype, threads, gbs, pct, torch, eigen in rows]
    summary = []
    for (kind, f32), entries in sorted(groups.items()):
        pcts = [e[0] for e in entries]
        torch, eigen = geo([e[1] for e in entries]), geo([e[2] for e in entries])
        what = f"{kind}, {'float32' if f32 else 'other dtypes'}"
        summary.append(f"| {what} | {len(entries)} | {min(pcts):.0f}% | {geo(pcts):.0f}% |{ratios(torch, eigen)}")

    alloc_rows = []
    for key in sorted(times, key=lambda k: order[k]):
        t = times[key]
        if "einops-alloc" not in t:
            continue
        label, dtype, threads = key
        ms = lambda impl: f"{t[impl] * 1e3:.2f}" if impl in t else "n/a"
        alloc_rows.append(f"| `{label}` | {threads} | {ms('einops')} | {ms('einops-alloc')} | "
                          f"{ms('einops-alloc-nocache')} | {ms('torch')} | {ms('torch-alloc')} |")

    context = data.get("context", {})
    target = context.get("einops_simd_target", "?")
    title = (f"## Kernels compiled for {target}, on the same machine" if forced
             else "## Kernels: permute, reduce, repeat (`scripts/bench`)")
    text = [BEGIN, title, "",
            f"Measured {datetime.date.today().isoformat()} on {machine()}, "
            f"{context.get('num_cpus', '?')} CPUs reported by Google Benchmark; einops kernels for {target}; "
            f"command: `{command}` (Release, median of 5 repetitions; outputs preallocated).", "",
            "GB/s counts input plus output bytes. *% ref.* is einops' speed relative to the reference "
            "pass over the same bytes, run in the same process: `memcpy` of the output for "
            "permutations and repeats, a plain read of the input for reductions (both split over "
            "the same threads)." + (
                " *x LibTorch* / *x Eigen*: their time divided by einops' time "
                "(`out.copy_(x.permute(...))`, `at::sum_out`/`amax_out`/`mean_out`, "
                "`out.copy_(x.expand(...))`; Eigen Tensor `shuffle`, `sum`/`maximum`/`mean`, `broadcast`)."
                if baselines else ""), "",
            "| case | dtype | threads | GB/s | % ref. |" + (" x LibTorch | x Eigen |" if baselines else ""),
            "|---|---|---|---|---|" + ("---|---|" if baselines else ""), *case_rows, "",
            "| group | rows | min % ref. | geo. mean % ref. |" + (" geo. mean x LibTorch | geo. mean x Eigen |" if baselines else ""),
            "|---|---|---|---|" + ("---|---|" if baselines else ""), *summary]
    if alloc_rows:
        text += [
            "",
            "Allocating forms (milliseconds per call, float32): einops into a preallocated output, "
            "`y = contiguous(rearrange(x, ...))` (a permutation alone returns a view) with the buffer cache "
            "(the default) and without it, LibTorch "
            "`out.copy_(x.permute(...))` and `x.permute(...).contiguous()`.", "",
            "| case | threads | einops into | einops allocating | allocating, no cache | LibTorch copy_ | "
            "LibTorch contiguous() |",
            "|---|---|---|---|---|---|---|", *alloc_rows]
    text.append(END)
    block = "\n".join(text)
    try:
        current = open(readme).read()
    except FileNotFoundError:
        current = "# Benchmarks\n\n"
    if BEGIN in current and END in current:
        current = current[: current.index(BEGIN)] + block + current[current.index(END) + len(END):]
    else:
        current = current.rstrip("\n") + "\n\n" + block + "\n"
    open(readme, "w").write(current)
    print(block)


if __name__ == "__main__":
    main()
