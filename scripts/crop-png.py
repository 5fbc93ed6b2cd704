"""Crops the uniform rows off the bottom of an 8-bit, non-interlaced PNG (a Chromium screenshot) in place.

A row that repeats the row above filters to zeros after its first pixel (Sub, Up, Average, Paeth), or
is one colour throughout (None), so the blank tail is found without decoding the image; the rows kept
keep their filtered bytes, which refer only to rows above them.
"""
import struct
import sys
import zlib

path = sys.argv[1]
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
chunks, pos = [], 8
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    chunks.append((kind, data[pos + 8:pos + 8 + length]))
    pos += 12 + length
header = chunks[0][1]
width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
if depth != 8 or interlace or channels is None:
    sys.exit(0)  # not a shape this crops; leave the image as it is
bpp = channels
stride = 1 + width * bpp
raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))


def blank(row):
    kind, pixels = row[0], row[1:]
    if kind == 0:
        return pixels == pixels[:bpp] * width
    return pixels[bpp:].count(0) == len(pixels) - bpp


keep = height
while keep > 1 and blank(raw[(keep - 1) * stride:keep * stride]):
    keep -= 1
keep = min(height, keep + 24)  # a margin below the last line of the page
if keep == height:
    sys.exit(0)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">II", width, keep) + header[8:])
out += b"".join(chunk(kind, body) for kind, body in chunks[1:] if kind not in (b"IDAT", b"IEND"))
out += chunk(b"IDAT", zlib.compress(raw[:keep * stride], 9)) + chunk(b"IEND", b"")
open(path, "wb").write(out)
