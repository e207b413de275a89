"""Join and host codes: unguessable, and forgiving of how people read and type them."""

from __future__ import annotations

import pytest

from companion.share import codes


def test_a_new_code_has_the_asked_length_in_the_readable_alphabet():
    for length in (codes.JOIN_CODE_LENGTH, codes.HOST_CODE_LENGTH):
        code = codes.new_code(length)
        assert len(code) == length
        assert set(code) <= set(codes.ALPHABET)


def test_the_alphabet_leaves_out_letters_that_look_like_digits_or_each_other():
    assert len(codes.ALPHABET) == 32
    assert not set("ILOU") & set(codes.ALPHABET)


def test_codes_are_not_repeated():
    assert len({codes.new_code(codes.JOIN_CODE_LENGTH) for _ in range(200)}) == 200


@pytest.mark.parametrize(
    "typed",
    ["K7QM2XHD", "k7qm2xhd", "K7QM-2XHD", " k7qm 2xhd ", "K7QM-2XHD\n"],
)
def test_case_spaces_and_dashes_do_not_matter(typed):
    assert codes.matches(typed, "K7QM2XHD")


@pytest.mark.parametrize("typed, code", [("7O1L", "7011"), ("Io-lO", "1010"), ("o0", "00")])
def test_o_i_and_l_are_read_as_the_digits_they_look_like(typed, code):
    assert codes.matches(typed, code)


@pytest.mark.parametrize("typed", ["", "K7QM2XH", "K7QM2XHDD", "K7QM2XHE", "X7QM2XHD"])
def test_any_other_code_does_not_match(typed):
    assert not codes.matches(typed, "K7QM2XHD")


def test_a_join_code_is_shown_in_groups_of_four():
    assert codes.grouped("K7QM2XHD") == "K7QM-2XHD"
    assert codes.matches(codes.grouped("K7QM2XHD"), "K7QM2XHD")


def test_device_keys_are_long_and_distinct():
    keys = {codes.new_device_key() for _ in range(100)}
    assert len(keys) == 100
    assert all(len(k) >= 32 for k in keys)
