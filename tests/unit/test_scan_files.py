"""How the validate job stores a scan's specs: the pre-processed spec that is the uploaded text
(with or without a final newline) is copied from the uploaded file, anything else written."""

from __future__ import annotations

from docsvc.server.storage import FileStore
from docsvc.server.tasks.scan import _save

TEXT = '{\n  "openapi": "3.1.0",\n  "info": {"title": "Caf\u00e9 \U0001f600"}\n}'


def test_the_uploaded_text_is_copied_and_anything_else_written(tmp_path):
    store = FileStore(tmp_path)
    source = store.save_upload("inputs", "spec", TEXT.encode("utf-8"))
    cases = {"same.json": TEXT, "newline.json": TEXT + "\n", "other.json": TEXT.replace("3.1.0", "3.0.3") + "\n"}
    for name, content in cases.items():
        relative, size = _save(store, 7, name, content, (source, TEXT))
        written = store.absolute(relative).read_bytes()
        assert written == content.encode("utf-8") and size == len(written)
    relative, _ = _save(store, 7, "none.json", TEXT + "\n", None)  # no exact text known: written
    assert store.absolute(relative).read_bytes() == (TEXT + "\n").encode("utf-8")
    assert store.absolute(source).read_bytes() == TEXT.encode("utf-8")  # the upload is left as it was
