"""`einops check PATTERN INPUT [name=len ...]`: exit 0 printing the named lengths as name=len
words when the input's shape fits the pattern; exit 1 with einops' message naming each failing
dimension when it does not; exit 2 for a usage or file error.

usage: check_shape_cli.py TOOL
"""
import os
import sys
import tempfile

import numpy as np

from tool_harness import run_tool


def main():
    tool = sys.argv[1]
    failures, ran = [], []
    with tempfile.TemporaryDirectory() as folder:
        video = os.path.join(folder, "video.npy")
        np.save(video, np.zeros((2, 5, 12, 4, 3), dtype=np.float32))

        def expect(args, code, stdout=None, fragments=()):
            ran.append(args)
            got_code, out, err = run_tool(tool, ["check", *args])
            problems = []
            if got_code != code:
                problems.append(f"exit {got_code}, expected {code}")
            if stdout is not None and out != stdout:
                problems.append(f"stdout {out!r}, expected {stdout!r}")
            for fragment in fragments:
                if fragment not in err:
                    problems.append(f"stderr lacks {fragment!r}")
            if problems:
                failures.append(f"{args}: " + "; ".join(problems) + f"\n{err}")

        # Holds: the named lengths, given and inferred, in pattern order.
        expect(["b t (h p) w c", video, "t=5", "p=3"], 0, "b=2 t=5 h=4 p=3 w=4 c=3\n")
        expect(["_ _ ... 3", video], 0, "")
        expect(["b ... c", "c=3", video], 0, "b=2 c=3\n")
        # Does not hold: each failing dimension, einops' sentence first.
        expect(["b t h w c", video, "t=7", "c=4"], 1, "", (
            'Error while processing check_shape pattern "b t h w c".',
            "Shape mismatch, 5 != 7 (input dim 1, group t)",
            "Shape mismatch, 3 != 4 (input dim 4, group c)"))
        expect(["b t (h p) w c", video, "p=5"], 1, "",
               ("Shape mismatch, can't divide axis of length 12 in chunks of 5 (input dim 2, group (h p))",))
        expect(["b t h w", video], 1, "",
               ("Wrong shape: expected 4 dims. Received 5-dim tensor. (groups: b, t, h, w)",))
        expect(["b t h w c", video, "q=2"], 1, "", ("Axis q is not used in transform (given q=2)",))
        expect(["b t (h w", video], 1, "", ("Imbalanced parentheses in expression",))
        # Usage and file errors.
        expect(["b t h w c"], 2)
        expect(["b t h w c", video, video], 2)
        expect(["b t h w c", os.path.join(folder, "missing.npy")], 2)

    for failure in failures:
        print("FAIL", failure)
    print(f"{len(ran) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
