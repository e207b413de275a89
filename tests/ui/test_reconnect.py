"""A browser that reconnects to another server process gets controls numbered apart from
the ones still on its screen (companion.ui.reconnect.ids_apart_from_other_processes)."""

from __future__ import annotations

import os

import flet as ft

from companion.ui.reconnect import CONTROL_IDS_FROM, CONTROL_IDS_SPREAD, ids_apart_from_other_processes


def first_id_in_a_forked_process() -> int:
    """The id of the first control a forked child makes after numbering apart, as a club worker does."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        ids_apart_from_other_processes()
        os.write(write, str(ft.Text()._i).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        first = int(pipe.read())
    os.waitpid(pid, 0)
    return first


def test_two_processes_forked_from_one_server_number_their_controls_apart():
    first, second = first_id_in_a_forked_process(), first_id_in_a_forked_process()
    assert first != second  # a worker started again counts differently from the one that died
    for start in (first, second):
        assert CONTROL_IDS_FROM <= start < CONTROL_IDS_FROM + CONTROL_IDS_SPREAD < 2**31
