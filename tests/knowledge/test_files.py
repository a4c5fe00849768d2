"""Knowledge files: Markdown, text and PDF, nested folders included, an unreadable one skipped."""

from __future__ import annotations

from replica.knowledge.files import load_documents, render_knowledge


def minimal_pdf(text: str) -> bytes:
    """A one-page PDF with ``text`` in Helvetica, written by hand so the test needs no PDF writer."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_markdown_text_and_pdf_files_all_load_nested_folders_included(tmp_path):
    (tmp_path / "about.md").write_text("# About\nMarkdown fact: ORBIT-417")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "cv.txt").write_text("Text fact: Acme Corp 2021")
    (tmp_path / "notes" / "paper.pdf").write_bytes(minimal_pdf("PDF fact: Zebra-99"))
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    text = render_knowledge(load_documents(tmp_path))
    assert "ORBIT-417" in text and "Acme Corp 2021" in text and "Zebra-99" in text
    assert "### notes/cv.txt" in text and "image.png" not in text


def test_an_unreadable_file_is_skipped_and_named_in_the_log(tmp_path, caplog):
    (tmp_path / "broken.pdf").write_bytes(b"not a pdf at all")
    (tmp_path / "fine.md").write_text("still here")
    documents = load_documents(tmp_path)
    assert [d.name for d in documents] == ["fine.md"]
    assert "broken.pdf" in caplog.text


def test_missing_folder_gives_no_knowledge(tmp_path):
    assert load_documents(tmp_path / "nope") == []


def test_shipped_example_profile_is_loaded():
    from tests.fixtures.environment import ROOT

    documents = load_documents(ROOT / "knowledge")
    assert documents and any(doc.name.endswith(".md") for doc in documents)
