#!/usr/bin/env python3
"""Seed inputs for the fuzz targets, from the golden corpus (tests/conformance/corpus).

    make_seeds.py CORPUS.jsonl OUT_DIR [--limit N]

writes OUT_DIR/pattern/ (every distinct pattern of every operation), OUT_DIR/ops/ (rearrange,
reduce and repeat cases in fuzz_ops' input format, ops_input.hpp) and OUT_DIR/npy/ (small .npy
files of each supported dtype, both orders, versions 1 to 3). With --limit, at most N files per
target, spread evenly over the corpus (the checked-in seeds in tests/fuzz/seeds were made so).
Only the standard library: it runs on any python3.
"""
import argparse
import hashlib
import json
import os
import struct

OPERATIONS = {"rearrange": 0, "repeat": 1}
REDUCTIONS = ["min", "max", "sum", "mean", "prod", "any", "all", "rearrange", "repeat"]
DTYPE_BITS = {"float64": 1, "int64": 2, "bool": 3}  # int64 cases run as int32: same values


def encode_call(case):
    """The case in fuzz_ops' format, or None when its input does not fit (rank <= 6, lengths <= 7)."""
    shapes = case.get("shapes") or []
    if len(shapes) != 1 and not case.get("list_input"):
        return None
    if case.get("list_input"):
        shape = [len(shapes)] + list(shapes[0]) if shapes else []
    else:
        shape = list(shapes[0])
    if len(shape) > 6 or any(length > 7 for length in shape):
        return None
    op = case["op"]
    if op == "reduce":
        reduction = case.get("reduction")
        if reduction not in REDUCTIONS:
            return None
        operation = 2 + REDUCTIONS.index(reduction)
    else:
        operation = OPERATIONS[op]
    flags = DTYPE_BITS.get(case.get("dtype", "float64"), 0)
    if case.get("list_input"):
        flags |= 8
    text = case["pattern"]
    for name, length in (case.get("axes_lengths") or {}).items():
        text += "\n%s=%d" % (name, length)
    return bytes([operation, flags, len(shape)] + shape) + text.encode("utf-8")


def npy_file(descr, fortran, shape, version):
    dictionary = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False", "".join("%d, " % n for n in shape) if len(shape) != 1 else "%d," % shape[0])
    length_bytes = 2 if version == 1 else 4
    prefix = 6 + 2 + length_bytes
    total = (prefix + len(dictionary) + 1 + 63) // 64 * 64
    header = dictionary + " " * (total - prefix - len(dictionary) - 1) + "\n"
    size_field = struct.pack("<H" if version == 1 else "<I", len(header))
    element = int(descr[2:]) if descr[2:].isdigit() else 1
    count = 1
    for n in shape:
        count *= n
    data = bytes((i * 37 + 11) % 256 for i in range(count * element))
    return b"\x93NUMPY" + bytes([version, 0]) + size_field + header.encode("latin-1") + data


def npy_seeds():
    seeds = []
    for descr in ["<f8", "<f4", "<f2", "<i8", "<i4", "<i2", "|i1", "<u8", "<u4", "<u2", "|u1", "|b1", ">f8", ">i4"]:
        for fortran in (False, True):
            for shape in ([], [3], [2, 3], [2, 0, 4], [1, 2, 1, 2]):
                seeds.append(npy_file(descr, fortran, shape, 1))
    seeds.append(npy_file("<f8", False, [2, 2], 2))
    seeds.append(npy_file("<i4", True, [3, 1], 3))
    return seeds


def spread(items, limit):
    if limit is None or len(items) <= limit:
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


def write_all(directory, items):
    os.makedirs(directory, exist_ok=True)
    for item in items:
        name = hashlib.sha1(item).hexdigest()[:16]
        with open(os.path.join(directory, name), "wb") as f:
            f.write(item)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("out")
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    patterns, calls = {}, {}
    with open(args.corpus, encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            pattern = case.get("pattern")
            if isinstance(pattern, str):
                patterns.setdefault(pattern.encode("utf-8"), None)
            if case.get("op") in ("rearrange", "reduce", "repeat"):
                call = encode_call(case)
                if call is not None:
                    calls.setdefault(call, None)
    write_all(os.path.join(args.out, "pattern"), spread(list(patterns), args.limit))
    write_all(os.path.join(args.out, "ops"), spread(list(calls), args.limit))
    write_all(os.path.join(args.out, "npy"), spread(npy_seeds(), args.limit))
    print("seeds: %d patterns, %d calls, %d npy files" % (len(patterns), len(calls), len(npy_seeds())))


if __name__ == "__main__":
    main()
