"""The Python codec driver (protocol: scripts/codec-driver.sh): reads one message per line as
hex (`-` alone: the empty message) and prints its canonical JSON, or the contract's error object, through the generated
package's schema-level entry point (`to_json`). scripts/drivers/python.sh generates the package
`driver_codecs` beside this file."""

from __future__ import annotations

import binascii
import sys

import driver_codecs
from driver_codecs._sable import DecodeError


def main() -> int:
    out = sys.stdout
    for number, line in enumerate(sys.stdin, 1):
        text = line.strip()
        if not text:
            continue
        try:
            message = b"" if text == "-" else binascii.unhexlify(text)
        except (binascii.Error, ValueError):
            print(f"python driver: line {number} is neither hex nor -", file=sys.stderr)
            return 2
        try:
            out.write(driver_codecs.to_json(message))
        except DecodeError as e:
            out.write(f'{{"error":{e.json()}}}')
        out.write("\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
