#!/usr/bin/env python3
"""Compiles every ```cpp block of README.md and docs/*.md, so that the documentation's code keeps
compiling as the library changes (ctest: docs_compile).

A block is a whole translation unit unless HTML comments on the lines just above its fence say
otherwise, one directive per comment:

  <!-- fragment -->                 statements: compiled as the body of a function, after the
  <!-- fragment: PARAMETERS -->     usual includes; PARAMETERS (a C++ parameter list) declare the
                                    names the fragment uses without making them (`const
                                    einops::Tensor<float>& x, std::int64_t T`). Its lines
                                    `#include ...`, `using namespace ...;` and `namespace a = b;`
                                    stay outside the function. Nothing else is added: a fragment
                                    that writes "t"_ax shows its `using namespace einops::literals;`.
  <!-- compile-error: REASON -->    the block must fail to compile, and the compiler's output must
                                    hold REASON (einops' reason in words).
  <!-- adapter: NAME, ... -->       the block needs an adapter (eigen, xtensor, opencv, dlpack,
                                    torch): compiled with its flags (the block shows its includes)
                                    when the build has it, else counted as not compiled.
  <!-- prelude: DECLARATION -->     a line of C++ placed before the block at namespace scope (a
                                    type a synopsis names without defining it); one per comment.

Only the compiler's front end runs (-fsyntax-only: constant evaluation, so a literal pattern's
checks, is part of it). Fragments needing the same adapters share one translation unit, each in a
namespace of its own, and `#line` directives make every diagnostic point at the Markdown file and
line. Translation units are compiled in parallel (--jobs).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

FENCE_OPEN = re.compile(r"^```cpp\s*$")
FENCE_CLOSE = re.compile(r"^```\s*$")
MARKER = re.compile(r"^<!--\s*(.*?)\s*-->\s*$")
HOISTED = re.compile(r"^(#include\s|using namespace\s[\w:]+\s*;|namespace\s+\w+\s*=\s*[\w:]+\s*;)")
ADAPTERS = ("eigen", "xtensor", "opencv", "dlpack", "torch")
# What every fragment may use without including it: the core API and the standard headers its
# examples use. An adapter's headers are the block's to show (the directive adds flags only).
CORE_INCLUDES = ("<einops/einops.hpp>", "<algorithm>", "<cstdint>", "<iostream>", "<map>", "<optional>",
                 "<span>", "<string>", "<vector>")
# Unused names are normal in an example (a result declared to show its type, a parameter that
# stands for the reader's data); every other warning is an error.
FRAGMENT_FLAGS = ("-Wno-unused-variable", "-Wno-unused-parameter", "-Wno-unused-but-set-variable")
# The lines in which GCC and Clang quote the source (" 176 | code", "     |   ^~~"): a stated
# reason must be in the diagnostics themselves, not in a quoted comment of the block.
QUOTED_SOURCE = re.compile(r"^\s*\d*\s*\|")


@dataclasses.dataclass
class Block:
    path: pathlib.Path
    first_line: int  # 1-based line of the block's first code line
    lines: list[str]
    fragment: bool = False
    parameters: str = ""
    error: str | None = None
    adapters: tuple[str, ...] = ()
    prelude: str = ""

    def where(self) -> str:
        return f"{self.path}:{self.first_line}"


def parse_directives(block: Block, markers: list[str]) -> None:
    for marker in markers:
        name, _, value = marker.partition(":")
        name, value = name.strip(), value.strip()
        if name == "fragment":
            block.fragment, block.parameters = True, value
        elif name == "compile-error":
            if not value:
                raise ValueError(f"{block.where()}: compile-error needs the reason the compiler must print")
            block.error = value
        elif name == "adapter":
            block.adapters = tuple(sorted(a.strip() for a in value.split(",")))
            unknown = [a for a in block.adapters if a not in ADAPTERS]
            if unknown:
                raise ValueError(f"{block.where()}: unknown adapter {unknown} (known: {', '.join(ADAPTERS)})")
        elif name == "prelude":
            block.prelude += value + "\n"
        else:
            raise ValueError(f"{block.where()}: unknown directive '<!-- {marker} -->'")


def read_blocks(path: pathlib.Path, shown: pathlib.Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if not FENCE_OPEN.match(lines[i]):
            i += 1
            continue
        markers = []
        j = i - 1
        while j >= 0 and MARKER.match(lines[j]):
            markers.insert(0, MARKER.match(lines[j]).group(1))
            j -= 1
        end = i + 1
        while end < len(lines) and not FENCE_CLOSE.match(lines[end]):
            end += 1
        if end == len(lines):
            raise ValueError(f"{shown}:{i + 1}: a ```cpp block without its closing fence")
        block = Block(shown, i + 2, lines[i + 1:end])
        parse_directives(block, markers)
        blocks.append(block)
        i = end + 1
    return blocks


def line_directive(line: int, path: pathlib.Path) -> str:
    return f'#line {line} "{path}"'


def fragment_source(block: Block, namespace: str) -> tuple[list[str], str]:
    """The includes a fragment asks for, and the fragment as a namespace holding one function."""
    includes, scope, body = [], [], []
    for offset, text in enumerate(block.lines):
        line = block.first_line + offset
        if HOISTED.match(text):
            if text.startswith("#include"):
                includes.append(text)
            else:
                scope += [line_directive(line, block.path), text]
            body.append("")
        else:
            body.append(text)
    source = [f"namespace {namespace} {{"]
    if block.prelude:
        source.append(block.prelude)
    source += scope
    source.append(f"void block({block.parameters}) {{")
    source.append(line_directive(block.first_line, block.path))
    source += body
    source += ["}", f"}}  // namespace {namespace}", ""]
    return includes, "\n".join(source)


def unit_source(blocks: list[Block]) -> str:
    """One translation unit: whole blocks are compiled alone, fragments share a unit."""
    head = ["// Generated by tests/docs/check_docs.py from the documentation's C++ blocks."]
    if len(blocks) == 1 and not blocks[0].fragment:
        block = blocks[0]
        head += [block.prelude] if block.prelude else []
        return "\n".join(head + [line_directive(block.first_line, block.path)] + block.lines) + "\n"
    head += [f"#include {header}" for header in CORE_INCLUDES]
    parts, seen = [], set(head)
    for index, block in enumerate(blocks):
        includes, source = fragment_source(block, f"doc_block_{index}")
        for include in includes:
            if include not in seen:
                seen.add(include)
                head.append(include)
        parts.append(source)
    return "\n".join(head + [""] + parts)


@dataclasses.dataclass
class Unit:
    name: str
    blocks: list[Block]
    adapters: tuple[str, ...]
    error: str | None


def plan_units(blocks: list[Block]) -> list[Unit]:
    """Fragments that must compile share a unit per adapter set; every other block is its own."""
    units, shared = [], {}
    for block in blocks:
        if block.fragment and block.error is None:
            shared.setdefault(block.adapters, []).append(block)
        else:
            units.append(Unit(f"block_{len(units)}", [block], block.adapters, block.error))
    for adapters, members in sorted(shared.items()):
        units.append(Unit("fragments_" + ("_".join(adapters) or "core"), members, adapters, None))
    return units


def compile_unit(unit: Unit, directory: pathlib.Path, compiler: list[str], flags: list[str],
                 adapter_flags: dict[str, list[str]]) -> tuple[bool, str]:
    source = directory / f"{unit.name}.cpp"
    source.write_text(unit_source(unit.blocks), encoding="utf-8")
    command = list(compiler) + flags + ["-fsyntax-only"]
    if any(block.fragment for block in unit.blocks):
        command += FRAGMENT_FLAGS
    for adapter in unit.adapters:
        command += adapter_flags[adapter]
    command.append(str(source))
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    output = result.stdout + result.stderr
    where = ", ".join(block.where() for block in unit.blocks)
    if unit.error is None:
        if result.returncode != 0:
            return False, f"FAILED to compile ({where}):\n{output}\ncommand: {shlex.join(command)}"
        return True, f"compiles: {where}"
    if result.returncode == 0:
        return False, f"COMPILED, but must fail with '{unit.error}' ({where})\ncommand: {shlex.join(command)}"
    diagnostics = "\n".join(line for line in output.splitlines() if not QUOTED_SOURCE.match(line))
    if unit.error not in diagnostics:
        return False, (f"FAILED without the stated reason '{unit.error}' ({where}):\n{output}\n"
                       f"command: {shlex.join(command)}")
    return True, f"fails as stated ('{unit.error}'): {where}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", type=pathlib.Path, required=True, help="the repository root")
    parser.add_argument("--compiler", required=True, help="the C++ compiler (and launcher words)")
    parser.add_argument("--flags", default="", help="flags for every unit (one shell-quoted string)")
    parser.add_argument("--adapter", action="append", default=[], metavar="NAME=FLAGS",
                        help="an adapter this build has, with the flags its blocks need")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work-dir", type=pathlib.Path, help="where the generated sources go (default: a temporary folder)")
    parser.add_argument("files", nargs="*", type=pathlib.Path,
                        help="Markdown files relative to --source-dir (default: README.md and docs/*.md)")
    args = parser.parse_args()

    root = args.source_dir.resolve()
    files = args.files or [pathlib.Path("README.md")] + sorted(
        p.relative_to(root) for p in (root / "docs").glob("*.md"))
    adapter_flags = {}
    for entry in args.adapter:
        name, _, flags = entry.partition("=")
        if name not in ADAPTERS:
            parser.error(f"unknown adapter {name}")
        adapter_flags[name] = shlex.split(flags)

    blocks = []
    for relative in files:
        blocks += read_blocks(root / relative, relative)
    runnable = [b for b in blocks if all(a in adapter_flags for a in b.adapters)]
    left_out = [b for b in blocks if b not in runnable]
    units = plan_units(runnable)

    flags = shlex.split(args.flags)
    compiler = shlex.split(args.compiler)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="einops_docs_") as scratch:
        directory = args.work_dir or pathlib.Path(scratch)
        directory.mkdir(parents=True, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            # The largest units first: the torch unit alone takes longer than the others together.
            ordered = sorted(units, key=lambda u: ("torch" not in u.adapters, -len(u.blocks)))
            results = pool.map(lambda u: compile_unit(u, directory, compiler, flags, adapter_flags), ordered)
            for ok, message in results:
                print(message)
                failures += 0 if ok else 1
    for block in left_out:
        missing = [a for a in block.adapters if a not in adapter_flags]
        print(f"not compiled (this build has no {', '.join(missing)} adapter): {block.where()}")
    print(f"{len(runnable)} of {len(blocks)} C++ blocks checked in {len(units)} translation units; "
          f"{failures} failed; {len(left_out)} need an adapter this build lacks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
