"""The owner's face, served from the app's own address: their picture when it is a file, their initials
drawn when it is not (or cannot be read), nothing when it lives on another host."""

from __future__ import annotations

import io

from PIL import Image

from replica.web.face import initials_png, owner_face


def test_a_picture_file_is_served_as_it_is_under_its_own_type(tmp_path):
    picture = tmp_path / "avatar.JPEG"
    picture.write_bytes(b"\xff\xd8\xff jpeg bytes")
    face = owner_face(str(picture), "Ada Lovelace")
    assert (face.data, face.media_type, face.path) == (b"\xff\xd8\xff jpeg bytes", "image/jpeg", "/face.jpg")


def test_an_address_elsewhere_is_not_served_and_anything_else_is_the_initials(tmp_path):
    assert owner_face("https://example.org/me.png", "Ada") is None
    missing = owner_face(str(tmp_path / "gone.png"), "Ada Lovelace")
    drawn = owner_face(str(tmp_path / "face.svg"), "Ada Lovelace")
    for face in (missing, drawn):
        assert (face.media_type, face.path) == ("image/png", "/face.png")
        assert face.data == initials_png("Ada Lovelace")


def test_the_initials_are_a_square_png_in_a_colour_of_the_names_own():
    ada = Image.open(io.BytesIO(initials_png("Ada Lovelace", size=64)))
    assert (ada.format, ada.size) == ("PNG", (64, 64))
    grace = Image.open(io.BytesIO(initials_png("Grace Hopper", size=64)))
    assert ada.getpixel((2, 2)) != grace.getpixel((2, 2))  # the corner: the background
    assert initials_png("Ada Lovelace", size=64) == initials_png("Ada Lovelace", size=64)
