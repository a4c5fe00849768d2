"""The line for a reply, as its door sees it (replica/web/line.py): one message a session, a share per
address, a bound in all, decided as a message joins; a reply's stream only while its session has one in
the line; every stream a client's connection. On a hand clock: no test waits for a ticket to expire."""

from __future__ import annotations

from replica.web.line import Line, Refusal, Ticket
from replica.web.line_guard import answered_events
from tests.fixtures.clock import HandClock

HOLD = 120.0


def line(per_address: int = 3, total: int = 10, streams: int | None = 4, clock: HandClock | None = None) -> Line:
    return Line(per_address, total, HOLD, per_address_streams=streams, clock=clock or HandClock())


def test_a_session_has_one_message_in_the_line_and_may_send_the_next_once_its_reply_is_written():
    door = line()
    first = door.join("s1", "203.0.113.7")
    assert isinstance(first, Ticket)
    assert [door.join("s1", "203.0.113.7") for _ in range(2000)] == [Refusal.ONE_AT_A_TIME] * 2000
    assert len(door) == 1  # a flood of one session keeps nothing
    door.joined(first, "event-1")
    door.replied(first.number)
    assert isinstance(door.join("s1", "203.0.113.7"), Ticket)
    assert door.has_work("s1")  # the first reply has not reached the session's stream yet


def test_an_address_has_its_share_and_the_line_its_bound_whatever_the_sessions():
    door = line(per_address=3, total=5)
    mine = [door.join(f"s{n}", "203.0.113.7") for n in range(5)]
    assert [isinstance(t, Ticket) for t in mine] == [True, True, True, False, False]
    assert mine[3] is Refusal.ADDRESS_BUSY and door.room_for("203.0.113.7") is Refusal.ADDRESS_BUSY
    assert door.room_for("198.51.100.1") is None
    others = [door.join(f"o{n}", f"198.51.100.{n}") for n in range(3)]
    assert others[2] is Refusal.LINE_FULL and door.room_for("192.0.2.1") is Refusal.LINE_FULL
    door.replied(mine[0].number)
    assert door.room_for("192.0.2.1") is None and isinstance(door.join("s9", "203.0.113.7"), Ticket)


def test_a_reply_leaves_the_line_when_its_stream_carried_it_or_the_stream_ended_first():
    door = line()
    ticket = door.join("s1", "203.0.113.7")
    door.joined(ticket, "e1")
    assert door.has_event("e1") and door.has_work("s1")
    door.answered("e1")
    assert not door.has_event("e1") and not door.has_work("s1") and len(door) == 0
    again = door.join("s1", "203.0.113.7")
    door.joined(again, "e2")
    door.session_left("s1")  # the client went: Gradio dropped the session's events
    assert not door.has_work("s1") and len(door) == 0
    assert isinstance(door.join("s1", "203.0.113.7"), Ticket)


def test_a_join_that_names_no_session_is_its_events_own_session():
    door = line()
    ticket = door.join("", "203.0.113.7")  # /call/chat with no session_hash
    assert isinstance(door.join("", "203.0.113.7"), Ticket)  # another such join is another session
    door.joined(ticket, "e7")
    assert door.has_work("e7") and door.has_event("e7")
    door.answered("e7")
    assert not door.has_work("e7")


def test_a_ticket_never_listened_for_is_forgotten_after_the_hold_and_one_listened_for_is_kept():
    clock = HandClock()
    door = line(clock=clock)
    idle = door.join("idle", "203.0.113.7")
    streamed = door.join("streamed", "198.51.100.1")
    door.joined(idle, "e1")
    door.joined(streamed, "e2")
    assert door.open_stream("data", "streamed", "198.51.100.1") is None
    clock.advance(HOLD - 1)
    assert door.has_work("idle")
    clock.advance(2)
    assert not door.has_work("idle") and door.has_work("streamed")  # a slow reply's stream is never cut
    assert isinstance(door.join("idle", "203.0.113.7"), Ticket)


def test_streams_one_of_each_kind_a_session_and_a_share_per_address():
    door = line(streams=3)
    assert door.open_stream("heartbeat", "s1", "203.0.113.7") is None
    assert door.open_stream("heartbeat", "s1", "203.0.113.7") is Refusal.STREAM_OPEN
    assert door.open_stream("data", "s1", "203.0.113.7") is None
    assert door.open_stream("heartbeat", "s2", "203.0.113.7") is None
    assert door.open_stream("heartbeat", "s3", "203.0.113.7") is Refusal.TOO_MANY_STREAMS
    assert door.open_stream("heartbeat", "s3", "198.51.100.1") is None  # another address has its own share
    door.close_stream("heartbeat", "s2", "203.0.113.7")
    assert door.streams("203.0.113.7") == 2 and door.open_stream("heartbeat", "s4", "203.0.113.7") is None


def test_a_reply_leaves_the_line_on_its_completion_not_on_words_that_name_it():
    words = b'data: {"msg":"process_generating","event_id":"e1","output":{"data":["process_completed"]}}\n\n'
    done = b'data: {"msg":"process_completed","event_id":"e1","success":true}\n\n'
    assert answered_events(words, "data", "s1") == [] and answered_events(done, "data", "s1") == ["e1"]
    assert answered_events(b'event: complete\ndata: ["Hi"]\n\n', "call", "e2") == ["e2"]
    assert answered_events(b'event: generating\ndata: ["event: complete"]\n\n', "call", "e2") == []
