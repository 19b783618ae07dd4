"""Game records: the notation, its reader, canonical writer, validator and per-seat views.

The notation is specified in ``docs/notation.rst``; its grammar is
``grammar/record.lark``.

>>> from mariage import load_rules
>>> from mariage.arena.bots import make_bot
>>> from mariage.notation import check_record, parse_record, record_match, write_record
>>> rules = load_rules("marianna")
>>> record = record_match(rules, seed=1, bots=[make_bot("greedy", i) for i in range(4)])
>>> text = write_record(record)
>>> parse_record(text) == record
True
>>> check_record(parse_record(text)).errors
[]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazynames import lazy_names

if TYPE_CHECKING:  # what the names are, for type checkers; at run time, imported on first use
    from .batch import FileSummary, input_files, open_input, validate_file, validate_stream
    from .errors import CODES, NotationError, RecordError
    from .fast import fast_valid
    from .model import Act, Comment, Deal, DealPart, Hand, Note, Record, Result, Tag, TrickMark
    from .reader import parse_record, parse_records, read_records, split_records
    from .recorder import Recorder, record_match
    from .replay import Checked, check_record, check_text, validate
    from .views import view
    from .writer import write_atomically, write_record, write_records

#: public name -> the module of this package that defines it: imported on first use, so
#: that a command (``mariage validate``) imports only the modules it runs
_LAZY = {
    **dict.fromkeys(("FileSummary", "input_files", "open_input", "validate_file",
                     "validate_stream"), "batch"),
    **dict.fromkeys(("CODES", "NotationError", "RecordError"), "errors"),
    "fast_valid": "fast",
    **dict.fromkeys(("Act", "Comment", "Deal", "DealPart", "Hand", "Note", "Record", "Result",
                     "Tag", "TrickMark"), "model"),
    **dict.fromkeys(("parse_record", "parse_records", "read_records", "split_records"),
                    "reader"),
    **dict.fromkeys(("Recorder", "record_match"), "recorder"),
    **dict.fromkeys(("Checked", "check_record", "check_text", "validate"), "replay"),
    "view": "views",
    **dict.fromkeys(("write_atomically", "write_record", "write_records"), "writer"),
}

__all__ = [
    "CODES",
    "Act",
    "Checked",
    "Comment",
    "Deal",
    "DealPart",
    "FileSummary",
    "Hand",
    "NotationError",
    "Note",
    "Record",
    "RecordError",
    "Recorder",
    "Result",
    "Tag",
    "TrickMark",
    "check_record",
    "check_text",
    "fast_valid",
    "input_files",
    "open_input",
    "parse_record",
    "parse_records",
    "read_records",
    "record_match",
    "split_records",
    "validate",
    "validate_file",
    "validate_stream",
    "view",
    "write_atomically",
    "write_record",
    "write_records",
]


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
