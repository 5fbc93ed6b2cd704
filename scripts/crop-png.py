"""Crops the uniform rows off the bottom of an 8-bit, non-interlaced PNG (a Chromium screenshot) in place.

The blank tail is found without decoding the image: a row of one colour shows it under the None and
Sub filters, and a row equal to the one above filters to zeros under Up and Paeth. The rows kept keep
their filtered bytes, which refer only to rows above them.
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


def one_colour(row):
    """The one colour of a row that is one colour throughout, if its filter shows it (None, Sub)."""
    kind, pixels = row[0], row[1:]
    first = pixels[:bpp]
    if kind == 0 and pixels == first * width:
        return first
    if kind == 1 and pixels[bpp:].count(0) == len(pixels) - bpp:
        return first
    return None


def repeat(row):
    """Whether the row equals the row above it (Up or Paeth, every byte 0)."""
    return row[0] in (2, 4) and row[1:].count(0) == len(row) - 1


# Walk up from the bottom over the page's background: rows of one colour (the same one throughout) and
# rows repeating the row above; the cut is at the topmost background row seen.
background, top, r = None, height, height - 1
while r >= 0:
    row = raw[r * stride:(r + 1) * stride]
    if repeat(row):
        r -= 1
        continue
    c = one_colour(row)
    if c is None or (background is not None and c != background):
        break
    background, top, r = c, r, r - 1
if height - top < 40:
    print(f"crop-png: {path}: the page reaches the bottom of the window; it may be longer than the image", file=sys.stderr)
    sys.exit(0)
keep = min(height, top + 24)  # a margin below the last line of the page


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">II", width, keep) + header[8:])
out += b"".join(chunk(kind, body) for kind, body in chunks[1:] if kind not in (b"IDAT", b"IEND"))
out += chunk(b"IDAT", zlib.compress(raw[:keep * stride], 9)) + chunk(b"IEND", b"")
open(path, "wb").write(out)
