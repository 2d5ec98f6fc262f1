"""Typed stubs of `sable._engine`, the Rust engine (crates/sable-python/src/lib.rs)."""

import os
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

_Path = Union[str, "os.PathLike[str]"]

class Schema:
    """A message schema, compiled: decodes and encodes messages by it."""

    @staticmethod
    def load(path: _Path) -> "Schema":
        """Loads SBE XML (compiled; XIncludes resolved from its directory) or a `.sbeir` file.
        Raises SchemaError when it does not compile, OSError when it cannot be read."""
    @staticmethod
    def from_xml(text: str) -> "Schema":
        """Compiles SBE XML text."""
    @staticmethod
    def from_sbeir(data: bytes) -> "Schema":
        """Reads the bytes of a `.sbeir` file."""
    @property
    def id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def package(self) -> str: ...
    @property
    def messages(self) -> List[Tuple[int, str]]:
        """Each message's template id and name, in schema order."""
    def decode(self, data: bytes, readable: bool = False) -> Dict[str, Any]:
        """Decodes the message at the start of `data` to canonical JSON's values
        (`{"message": ..., "header": {...}, "fields": {...}}`, docs/json.md); with `readable`,
        `"NAME.readable"` keys beside decimals and timestamps. Raises DecodeError (with the
        contract's byte offset, field and kind) when it does not decode or leaves bytes over."""
    def encode(self, message: Union[Dict[str, Any], str]) -> bytes:
        """Encodes canonical JSON's values (a dict, or JSON text). Raises EncodeError."""
    def iter_messages(
        self,
        path: _Path,
        framing: str = "raw",
        pcap: bool = False,
        port: Optional[int] = None,
        templates: Optional[List[int]] = None,
        readable: bool = False,
    ) -> "MessageIterator":
        """The messages of a file or capture with `sable decode`'s framings, each a dict as
        the CLI prints it (`offset`, from captures `timestamp`, `packetOffset`, `flow`, with
        mdp3 `sequenceNumber`, `sendingTime`; then `message`, `header`, `fields`, and `error`
        for one that fails to decode)."""
    def iter_buffer(
        self,
        data: bytes,
        framing: str = "raw",
        pcap: bool = False,
        port: Optional[int] = None,
        templates: Optional[List[int]] = None,
        readable: bool = False,
    ) -> "MessageIterator":
        """`iter_messages` of bytes in memory."""
    def read_streams(
        self,
        path: _Path,
        framing: str = "raw",
        pcap: bool = False,
        port: Optional[int] = None,
        templates: Optional[List[int]] = None,
        strict: bool = True,
    ) -> Tuple[List["ArrowStream"], List[str]]:
        """One Arrow stream per template found, and the problems met (see sable.read_tables)."""
    def read_batches(
        self,
        path: _Path,
        framing: str = "raw",
        pcap: bool = False,
        port: Optional[int] = None,
        templates: Optional[List[int]] = None,
        strict: bool = True,
    ) -> "BatchReader":
        """The file or capture decoded as it is read: each table's batches as they fill up."""
    def buffer_streams(
        self,
        data: bytes,
        framing: str = "raw",
        pcap: bool = False,
        port: Optional[int] = None,
        templates: Optional[List[int]] = None,
        strict: bool = True,
    ) -> Tuple[List["ArrowStream"], List[str]]:
        """`read_streams` of bytes in memory."""

class MessageIterator(Iterator[Dict[str, Any]]):
    def __iter__(self) -> "MessageIterator": ...
    def __next__(self) -> Dict[str, Any]: ...
    @property
    def problems(self) -> List[str]:
        """Framing and capture problems, in the words of `sable decode`."""

class ArrowStream:
    """One table's batches through the Arrow PyCapsule interface (consumed once)."""

    @property
    def name(self) -> str: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

class BatchReader(Iterator[Tuple[str, ArrowStream]]):
    """`(name, stream)` pairs, each stream of one batch of the table of the message `name`."""

    def __iter__(self) -> "BatchReader": ...
    def __next__(self) -> Tuple[str, ArrowStream]: ...
    @property
    def problems(self) -> List[str]:
        """Problems met so far (a lenient read), in the words of `sable decode`."""
