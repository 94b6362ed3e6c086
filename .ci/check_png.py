#!/usr/bin/env python3
"""Fails unless the PNG exists, is a real window capture and is not blank: it must hold many
distinct colours (a drawn board), not one flat fill. With a second argument `WxH`, it must be
exactly that size (presentation mode's capture sizes). Standard library only."""
import struct, sys, zlib

def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit(f"{path}: unexpected PNG format (depth {depth}, colour type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows

path = sys.argv[1]
w, h, bpp, rows = read_png(path)
colours = set()
for y in range(0, h, 7):
    r = rows[y]
    for x in range(0, w, 7):
        colours.add(bytes(r[x * bpp:x * bpp + 3]))
print(f"{path}: {w}x{h}, {len(colours)} distinct colours in a 1/49 sample")
if len(sys.argv) > 2:
    want = tuple(int(n) for n in sys.argv[2].split("x"))
    if (w, h) != want:
        sys.exit(f"error: the capture is {w}x{h}, not {want[0]}x{want[1]}")
elif w < 800 or h < 600:
    sys.exit("error: the window is smaller than expected")
if len(colours) < 50:
    sys.exit("error: the screenshot is blank or nearly so")
