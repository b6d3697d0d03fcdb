"""PNG output and input of the einops tool, checked with an independent PNG codec written here on
top of zlib (not libpng, which the tool uses).

Output: known arrays (h w, h w 1, h w 2, h w 3, h w 4; uint8, bool, integers, float in [0, 1]) are
written by the tool as PNG, decoded here, and compared pixel by pixel. Input: PNGs encoded here
(gray, RGB, RGBA, palette, 16-bit) are read by the tool as h w c uint8 and compared.

usage: check_png.py TOOL
"""
import os
import struct
import sys
import tempfile
import zlib

import numpy as np

from tool_harness import run_tool

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # PNG colour type -> samples per pixel


def chunks(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    at = 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        crc = struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0]
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad CRC in {kind!r}")
        yield kind, body
        at += 12 + length


def decode_png(data):
    """Decodes a non-interlaced 8-bit PNG (colour types 0, 2, 4, 6) to an (h, w, c) uint8 array."""
    header, idat = None, b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or interlace != 0 or colour == 3:
        raise ValueError(f"unsupported PNG: depth {depth}, colour {colour}, interlace {interlace}")
    c = CHANNELS[colour]
    raw = zlib.decompress(idat)
    stride = width * c
    out = np.zeros((height, stride), dtype=np.int64)
    previous = np.zeros(stride, dtype=np.int64)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)], dtype=np.uint8).astype(np.int64)
        row = np.zeros(stride, dtype=np.int64)
        for x in range(stride):
            a = row[x - c] if x >= c else 0
            b = previous[x]
            cc = previous[x - c] if x >= c else 0
            if kind == 0:
                predictor = 0
            elif kind == 1:
                predictor = a
            elif kind == 2:
                predictor = b
            elif kind == 3:
                predictor = (a + b) // 2
            else:
                p = a + b - cc
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
            row[x] = (line[x] + predictor) & 0xFF
        out[y] = row
        previous = row
    return out.astype(np.uint8).reshape(height, width, c)


def encode_png(pixels, colour, depth=8, palette=None):
    """A PNG of `pixels` (h, w, samples) with filter 0 on every row."""
    height, width = pixels.shape[:2]

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    dtype = ">u2" if depth == 16 else "u1"
    rows = b"".join(b"\0" + pixels[y].astype(dtype).tobytes() for y in range(height))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))
    if palette is not None:
        data += chunk(b"PLTE", palette.astype("u1").tobytes())
    return data + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def main():
    tool = sys.argv[1]
    rng = np.random.default_rng(8)
    passed, failures = 0, []

    def expect(condition, what):
        nonlocal passed
        if condition:
            passed += 1
        else:
            failures.append(what)

    with tempfile.TemporaryDirectory() as folder:
        src, png, npy = (os.path.join(folder, name) for name in ("in.npy", "out.png", "out.npy"))
        bytes_ = rng.integers(0, 256, size=(5, 7, 4), dtype=np.uint8)
        unit = rng.random(size=(5, 7, 4))
        cases = [
            ("h w uint8", bytes_[:, :, 0], bytes_[:, :, :1]),
            ("h w 1 uint8", bytes_[:, :, :1], bytes_[:, :, :1]),
            ("h w 2 uint8", bytes_[:, :, :2], bytes_[:, :, :2]),
            ("h w 3 uint8", bytes_[:, :, :3], bytes_[:, :, :3]),
            ("h w 4 uint8", bytes_, bytes_),
            ("h w 3 float64", unit[:, :, :3], np.floor(unit[:, :, :3] * 255 + 0.5).astype(np.uint8)),
            ("h w float32", unit[:, :, 0].astype(np.float32),
             np.floor(unit[:, :, :1].astype(np.float32).astype(np.float64) * 255 + 0.5).astype(np.uint8)),
            ("h w bool", bytes_[:, :, 0] > 127, ((bytes_[:, :, :1] > 127) * 255).astype(np.uint8)),
            ("h w 3 int64", bytes_[:, :, :3].astype(np.int64), bytes_[:, :, :3]),
        ]
        for label, array, expected in cases:
            np.save(src, array)
            code, _, err = run_tool(tool, ["rearrange", "... -> ...", src, "-o", png])
            if code != 0:
                failures.append(f"{label}: exit {code}: {err.strip()}")
                continue
            decoded = decode_png(open(png, "rb").read())
            expect(decoded.shape == expected.shape and np.array_equal(decoded, expected),
                   f"{label}: decoded pixels differ")
        # The example: a batch as one picture.
        batch = rng.integers(0, 256, size=(8, 3, 5, 3), dtype=np.uint8)
        np.save(src, batch)
        code, _, err = run_tool(tool, ["rearrange", "(b1 b2) h w c -> (b1 h) (b2 w) c", src, "b1=2", "-o", png])
        grid = batch.reshape(2, 4, 3, 5, 3).transpose(0, 2, 1, 3, 4).reshape(6, 20, 3)
        expect(code == 0 and np.array_equal(decode_png(open(png, "rb").read()), grid), f"batch grid: {err.strip()}")

        # Input: PNGs made here are read as h w c uint8.
        inputs = [
            ("gray", encode_png(bytes_[:, :, :1], 0), bytes_[:, :, :1]),
            ("gray+alpha", encode_png(bytes_[:, :, :2], 4), bytes_[:, :, :2]),
            ("rgb", encode_png(bytes_[:, :, :3], 2), bytes_[:, :, :3]),
            ("rgba", encode_png(bytes_, 6), bytes_),
        ]
        palette = rng.integers(0, 256, size=(4, 3))
        indices = rng.integers(0, 4, size=(5, 7, 1))
        inputs.append(("palette", encode_png(indices, 3, palette=palette), palette[indices[:, :, 0]].astype(np.uint8)))
        for label, data, expected in inputs:
            path = os.path.join(folder, "in.png")
            with open(path, "wb") as f:
                f.write(data)
            code, _, err = run_tool(tool, ["rearrange", "h w c -> h w c", path, "-o", npy])
            got = np.load(npy) if code == 0 else None
            expect(code == 0 and got.dtype == np.uint8 and np.array_equal(got, expected),
                   f"read {label}: exit {code} {err.strip()}")
        # A corrupt PNG is a file error.
        path = os.path.join(folder, "bad.png")
        with open(path, "wb") as f:
            f.write(encode_png(bytes_[:, :, :3], 2)[:60])
        code, _, err = run_tool(tool, ["rearrange", "h w c -> h w c", path, "-o", npy])
        expect(code == 2 and path in err and err.count("\n") == 1, f"corrupt PNG: exit {code} {err!r}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
