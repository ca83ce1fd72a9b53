"""``messages.encode``: every message the server sends is compact JSON that the standard library
reads back to the same data, whatever text it quotes (orjson writes it; text that is not valid
Unicode, such as a client's lone surrogate quoted in an error, is written escaped instead)."""

from __future__ import annotations

import json

from parlour.server.messages import encode


def test_a_message_reads_back_the_same() -> None:
    message = {"type": "update", "version": 3, "view": {"seats": ["Black", "White"], "out": [None, "gone"]},
               "legal": [{"text": "a1-b2", "parts": {"kind": "move"}}], "score": 2.5, "name": "Zoë ☃"}
    text = encode(message)
    assert json.loads(text) == message
    assert ", " not in text
    assert ": " not in text


def test_text_that_is_not_unicode_is_escaped_not_a_failure() -> None:
    text = encode({"type": "error", "message": "not a name: '\ud800'"})
    assert text.isascii()
    assert json.loads(text)["message"] == "not a name: '\ud800'"


def test_keys_that_are_numbers_become_text_as_json_has_them() -> None:
    assert json.loads(encode({"counts": {0: 1, 3: 2}})) == {"counts": {"0": 1, "3": 2}}
