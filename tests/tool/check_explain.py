"""`einops explain` output compared with reviewed golden text (explain_golden/NAME.txt).

Each case of explain_cases.json gives the arguments after `explain` and the exit status; the
golden file holds stdout (exit 0) or stderr (otherwise), byte for byte. After a deliberate change,
run with --update, review the diff of explain_golden/, and commit it.

usage: check_explain.py TOOL [--update]
"""
import json
import os
import sys

from tool_harness import run_tool

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    tool = sys.argv[1]
    update = "--update" in sys.argv[2:]
    with open(os.path.join(HERE, "explain_cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    passed, failures = 0, []
    for case in cases:
        code, out, err = run_tool(tool, ["explain", *case["args"]])
        text = out if case["exit"] == 0 else err
        golden = os.path.join(HERE, "explain_golden", case["name"] + ".txt")
        if update:
            with open(golden, "w", encoding="utf-8") as f:
                f.write(text)
        with open(golden, encoding="utf-8") as f:
            want = f.read()
        if code != case["exit"]:
            failures.append(f"{case['name']}: exit {code}, expected {case['exit']}: {err.strip()}")
        elif text != want:
            failures.append(f"{case['name']}: output differs from {golden}:\n{text}")
        else:
            passed += 1
    for failure in failures:
        print("FAIL", failure)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
