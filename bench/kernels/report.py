#!/usr/bin/env python3
"""Turns bench_kernels' JSON into the table of bench/README.md (between the kernels markers).

usage: report.py [--forced TARGET] README.md COMMAND ROUND.json...
Each ROUND.json is one run of bench_kernels (scripts/bench makes several, one after another).
Each row: one case at one thread count. Within a round, einops' median time is compared with the
reference pass on the same bytes (memcpy of the output for permutations and repeats, a read of the
input for reductions) measured seconds before it, and with LibTorch's and Eigen's median times
(above 1: einops is faster). The table gives the median of those per-round figures and the range
of *% ref.* over the rounds: a shared machine drifts between phases over minutes, which moves a
single run's figures more than most kernel changes do.
With --forced (a run with EINOPS_BENCH_SIMD set), the table goes between its own markers, so that
the kernels of an older instruction set are shown beside the best ones.
Benchmarks named with a fifth field (a group: "channels", "patchify", "pooling", "warm") are summed up in
groups of their own; their labels carry the input shape ("pattern [64,224,224,3] (max)").
"""
import argparse
import datetime
import json
import math
import platform
import re
import statistics
import subprocess

# The summary groups of the cases named with a group, in this order after the kinds' groups.
GROUPS = {"channels": "image channels", "patchify": "patchify", "pooling": "pooling windows",
          "warm": "warm calls (in L2)"}


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


def read_round(path):
    """One run's median times by (label, dtype, threads) and implementation, its einops entries
    (counters), the rows' registration order and groups, its context and its repetitions per
    benchmark."""
    data = json.load(open(path))
    times, counters, order, groups, repetitions = {}, {}, {}, {}, 0
    for b in data["benchmarks"]:
        repetitions = max(repetitions, b.get("repetitions", 0))
        if b.get("aggregate_name", "median") != "median" or b.get("error_occurred"):
            continue
        name = b["run_name"].split("/")[0]
        impl, label, dtype, threads, *group = name.split("|")
        key = (label, dtype, int(threads))
        if group:
            groups[key] = group[0]
        # Rows in registration order (family_index), whatever order the repetitions ran in.
        order[key] = min(order.get(key, math.inf), b.get("family_index", len(order)))
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        times.setdefault(key, {})[impl] = b["real_time"] * scale
        if impl == "einops":
            counters[key] = b
    return times, counters, order, groups, data.get("context", {}), repetitions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forced", default="", help="the SIMD target EINOPS_BENCH_SIMD forced")
    parser.add_argument("readme")
    parser.add_argument("command")
    parser.add_argument("rounds", nargs="+", help="bench_kernels JSON, one file per round")
    args = parser.parse_args()
    forced = args.forced
    BEGIN, END = markers(forced)
    rounds = [read_round(path) for path in args.rounds]
    order, counters, case_groups = {}, {}, {}
    for _, round_counters, round_order, round_groups, _, _ in rounds:
        order.update({k: min(v, order.get(k, math.inf)) for k, v in round_order.items()})
        counters.update(round_counters)
        case_groups.update(round_groups)
    context = rounds[-1][4]
    repetitions = max(r[5] for r in rounds)

    def per_round(key, other):
        """other's time over einops', in each round that measured both."""
        values = []
        for times, *_ in rounds:
            t = times.get(key, {})
            if "einops" in t and other in t:
                values.append(t[other] / t["einops"])
        return values

    def median(values):
        return statistics.median(values) if values else None

    def median_time(key, impl):
        return median([t[key][impl] for t, *_ in rounds if key in t and impl in t[key]])

    rows, groups = [], {}
    for key in sorted(order, key=lambda k: order[k]):
        pcts = [100.0 * r for r in per_round(key, "reference")]
        if not pcts:
            continue
        label, dtype, threads = key
        gbs = counters[key]["traffic_bytes"] / median_time(key, "einops") / 1e9
        pct = statistics.median(pcts)
        torch, eigen = median(per_round(key, "torch")), median(per_round(key, "eigen"))
        # Reduction labels end in "(sum)" etc.; a permutation's pattern may hold groups too.
        reduced = re.search(r"\((sum|mean|max|min|prod|any|all)\)$", label)
        kind = "reduce" if reduced else ("repeat" if label in ("b c -> b c h w", "h w -> (h 2) (w 2)") else "permute")
        if key in case_groups:
            kind = GROUPS.get(case_groups[key], case_groups[key])
        groups.setdefault((kind, dtype == "float32"), []).append((pct, torch, eigen))
        rows.append((label, dtype, threads, gbs, pct, torch, eigen, min(pcts), max(pcts)))

    def geo(values):
        values = [v for v in values if v]
        return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None

    # LibTorch and Eigen columns only when the run measured them (a filter may leave them out).
    baselines = any(r[5] or r[6] for r in rows)
    fmt = lambda r: f"{r:.2f}x" if r else "n/a"
    ratios = lambda torch, eigen: f" {fmt(torch)} | {fmt(eigen)} |" if baselines else ""

    def case(label):
        """`pattern (reduction)` and, for the grouped cases, the input shape after it."""
        shaped = re.fullmatch(r"(.*) \[([\d,]+)\]( \(\w+\))?", label)
        if not shaped:
            return f"`{label}`"
        pattern, shape, reduction = shaped.groups()
        return f"`{pattern}{reduction or ''}` [{shape.replace(',', ', ')}]"

    case_rows = [f"| {case(label)} | {dtype} | {threads} | {gbs:.1f} | {pct:.0f}% | {low:.0f}-{high:.0f}% |"
                 f"{ratios(torch, eigen)}" for label, dtype, threads, gbs, pct, torch, eigen, low, high in rows]
    summary = []
    # The kinds' groups sorted as always, then the named groups in the order of GROUPS.
    rank = {name: i for i, name in enumerate(GROUPS.values())}
    ordered = sorted(groups.items(), key=lambda g: (g[0][0] in rank, rank.get(g[0][0], 0), g[0]))
    for (kind, f32), entries in ordered:
        pcts = [e[0] for e in entries]
        torch, eigen = geo([e[1] for e in entries]), geo([e[2] for e in entries])
        what = f"{kind}, {'float32' if f32 else 'other dtypes'}"
        summary.append(f"| {what} | {len(entries)} | {min(pcts):.0f}% | {geo(pcts):.0f}% |{ratios(torch, eigen)}")

    alloc_rows = []
    for key in sorted(order, key=lambda k: order[k]):
        if median_time(key, "einops-alloc") is None:
            continue
        label, dtype, threads = key

        def ms(impl):
            seconds = median_time(key, impl)
            return f"{seconds * 1e3:.2f}" if seconds is not None else "n/a"
        alloc_rows.append(f"| `{label}` | {threads} | {ms('einops')} | {ms('einops-alloc')} | "
                          f"{ms('einops-alloc-nocache')} | {ms('torch')} | {ms('torch-alloc')} |")

    target = context.get("einops_simd_target", "?")
    title = (f"## Kernels compiled for {target}, on the same machine" if forced
             else "## Kernels: permute, reduce, repeat (`scripts/bench`)")
    text = [BEGIN, title, "",
            f"Measured {datetime.date.today().isoformat()} on {machine()}, "
            f"{context.get('num_cpus', '?')} CPUs reported by Google Benchmark; einops kernels for {target}; "
            f"command: `{args.command}` (Release; {len(rounds)} rounds of {repetitions} repetitions each, "
            "one after another; outputs preallocated).", "",
            "GB/s counts input plus output bytes. *% ref.* is einops' speed relative to the reference "
            "pass over the same bytes, run in the same process: `memcpy` of the output for "
            "permutations and repeats, a plain read of the input for reductions (both split over "
            "the same threads), measured seconds before einops in each round; the table gives the "
            "median over the rounds and, next to it, the range over the rounds. GB/s and the "
            "allocating forms' times are the medians of the rounds' median times." + (
                " *x LibTorch* / *x Eigen*: their time divided by einops' time "
                "(`out.copy_(x.permute(...))`, `at::sum_out`/`amax_out`/`mean_out`, "
                "`out.copy_(x.expand(...))`, and for the pooling windows `at::max_pool2d` (it has no out= "
                "form) and `at::avg_pool2d_out` on NCHW, or channels_last for NHWC inputs, their results "
                "checked equal to einops'; Eigen Tensor `shuffle`, `sum`/`maximum`/`mean` (over the window "
                "axes of a reshaped view for pooling), `broadcast`; n/a: not measured or not implemented "
                "for that dtype)."
                if baselines else ""), "",
            "| case | dtype | threads | GB/s | % ref. | range |" + (" x LibTorch | x Eigen |" if baselines else ""),
            "|---|---|---|---|---|---|" + ("---|---|" if baselines else ""), *case_rows, "",
            "| group | rows | min % ref. | geo. mean % ref. |" + (" geo. mean x LibTorch | geo. mean x Eigen |" if baselines else ""),
            "|---|---|---|---|" + ("---|---|" if baselines else ""), *summary]
    # The allocating forms are printed with the table but kept out of bench/README.md, which
    # states the kernels' figures (the allocator's share is in the printed report).
    alloc_text = []
    if alloc_rows:
        alloc_text = [
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
        current = open(args.readme).read()
    except FileNotFoundError:
        current = "# Benchmarks\n\n"
    if BEGIN in current and END in current:
        current = current[: current.index(BEGIN)] + block + current[current.index(END) + len(END):]
    else:
        current = current.rstrip("\n") + "\n\n" + block + "\n"
    open(args.readme, "w").write(current)
    print(block)
    if alloc_text:
        print("\n".join(alloc_text))


if __name__ == "__main__":
    main()
