"""The exceptions of the `sable` package (raised by its engine, `sable._engine`)."""

from __future__ import annotations

from typing import Any, List, Optional


class SchemaError(ValueError):
    """A schema that does not compile (its diagnostics in `errors`), or a file that is neither
    SBE XML nor a valid `.sbeir` file."""

    def __init__(self, text: str, errors: List[str]) -> None:
        super().__init__(text)
        self.errors = errors


class DecodeError(ValueError):
    """A message that cannot be decoded, as `sable decode` reports it.

    `offset` is the byte offset of the first item that could not be read, from the start of
    the message (its header), as in every language's codecs (docs/codecs.md, "Errors"); `field`
    the item's path (`fields.fuelFigures[1]`); `kind` one of `truncated`, `unknownTemplate`,
    `schemaIdMismatch`, `blockLengthTooShort`, `countTooLarge` (and `trailingBytes` for a buffer
    longer than its message, `framing` for a framing or capture problem, whose `offset` is then
    None); `message` the sentence for people; `partial` what was decoded before the problem (a
    dict with an `error` key, as the CLI prints it), or None. `str(e)` is the CLI's line, with
    where the message was found in a file or capture when it came from one.
    """

    def __init__(
        self,
        text: str,
        offset: Optional[int],
        field: str,
        kind: str,
        message: str,
        partial: Optional[Any],
    ) -> None:
        super().__init__(text)
        self.offset = offset
        self.field = field
        self.kind = kind
        self.message = message
        self.partial = partial


class EncodeError(ValueError):
    """A message that cannot be encoded: `path` is the JSON path of the value at fault
    (`fields.fuelFigures[1].speed`), `reason` what is wrong with it."""

    def __init__(self, text: str, path: str, reason: str) -> None:
        super().__init__(text)
        self.path = path
        self.reason = reason
