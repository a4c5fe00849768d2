"""The worker that mails visitors their codes, and the owner's answers the owner chose to mail, from the
store: each code row and each answer mail row is its own mail.

A mail is sent with a code made at that moment (only its keyed hash is stored, just before the send); a
try that fails is tried again later with a new one, since the first never reached anyone. A service
that fails never holds up a reply: the visitor's lead is kept whatever becomes of its mail, and the
failures are logged once a minute at most, with how many.
"""

from __future__ import annotations

import logging
from typing import Callable

from replica.contacts.codes import CodeKey, new_code
from replica.contacts.mail import MailService
from replica.contacts.mailboxes import mailbox
from replica.knowledge.prompts import PROMPTS_DIR, render_prompt
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.timings import Timings
from replica.runtime.workers import Worker
from replica.storage.answer_mails import AnswerMail, AnswerMails
from replica.storage.code_mails import Code, CodeCaps, Codes
from replica.storage.mail_queue import MailQueue

log = logging.getLogger(__name__)

CODE_MINUTES = 10  # how long a code works once mailed
CANNOT_MAIL = "no code could be mailed: {why}"  # why a lead is passed on unconfirmed, in the owner's words
TEMPLATE = "verify_email.md"


def code_mail(
    owner: str, code: str, minutes: int = CODE_MINUTES, per_day: int = CodeCaps.mailbox_mails_per_day
) -> tuple[str, str]:
    """The code mail's subject and text, from ``prompts/verify_email.md`` (its first line ``Subject: …``);
    ``per_day``: how many code mails one address may get in a day, which it says."""
    return _mail(TEMPLATE, owner=owner, code=code, minutes=str(minutes), per_day=str(per_day))


def answer_mail(owner: str, question: str, answer: str) -> tuple[str, str]:
    """The mail that carries the owner's answer to a visitor, from ``prompts/answer_email.md``."""
    return _mail("answer_email.md", owner=owner, question=question, answer=answer)


def _mail(template: str, **values: str) -> tuple[str, str]:
    subject, _, body = render_prompt(template, PROMPTS_DIR, **values).partition("\n")
    return subject.removeprefix("Subject:").strip(), body.strip() + "\n"


class CodeMailer(Worker):
    """Sends the code mails waiting in ``codes``, and the answer mails in ``answers``, through ``service``;
    :meth:`notify` wakes it; ``given_up`` is told of each code mail it gives up on (session, email, why)."""

    name = "code-mails"

    def __init__(
        self,
        codes: Codes,
        service: MailService,
        key: CodeKey,
        owner: str,
        answers: AnswerMails | None = None,
        max_attempts: int = 8,
        give_up_after: float = 24 * 3600.0,
        idle_poll: float = 30.0,
        base_delay: float = Timings.alert_retry_base,
        max_delay: float = 300.0,
        clock: Clock = REAL_CLOCK,
        given_up: Callable[[str, str, str], None] = lambda session, email, why: None,
    ):
        super().__init__(base_delay=base_delay, max_delay=max_delay, clock=clock)
        self.codes = codes
        self._given_up = given_up
        self.service = service
        self.key = key
        self.owner = owner
        self.answers = answers
        self.max_attempts = max_attempts
        self.give_up_after = give_up_after
        self.idle_poll = idle_poll
        self._failed_since_said = 0  # failures not yet logged
        self._said_at: float | None = None  # when the last failure line was logged (monotonic)

    def notify(self) -> None:
        """A code mail was queued: send it now rather than at the next poll."""
        self.wake()

    def step(self) -> float:
        due = self.codes.due()
        for code in due:
            if self.stopping:
                break
            self._send(code)
        answers = self.answers.due() if self.answers else []
        for mail in answers:
            if self.stopping:
                break
            self._send_answer(mail)
        if due or answers:
            return 0.0
        times = [self.codes.next_due(), self.answers.next_due() if self.answers else None]
        upcoming = min((t for t in times if t is not None), default=None)
        return self.idle_poll if upcoming is None else min(self.idle_poll, max(upcoming - self.clock.time(), 0.05))

    def _send_answer(self, mail: AnswerMail) -> None:
        if self.answers is not None and self.answers.claim(mail.id):
            self._mail(self.answers, mail.id, mail.attempts, mail.email, mail.subject, mail.body, "Answer")

    def _send(self, code: Code) -> None:
        """Mail one code (to the address as validated: see :mod:`replica.contacts.mailboxes`), or give up on it."""
        box = mailbox(code.email)
        if box.problem or self.clock.time() - code.created_at > self.give_up_after:
            reason = box.problem or "not sent in time"
            self.codes.give_up((code.id,), reason)
            self._given_up(code.session, code.email, CANNOT_MAIL.format(why=reason))
            return
        made = new_code()
        if self.codes.claim(code.id, self.key.digest(code.id, made)):  # else another instance holds it
            subject, body = code_mail(self.owner, made, per_day=self.codes.caps.mailbox_mails_per_day)
            problem = self._mail(self.codes, code.id, code.attempts, box.address, subject, body, "Code")
            if problem:
                self._given_up(code.session, code.email, CANNOT_MAIL.format(why=f"the mail service failed ({problem})"))

    def _mail(
        self, queue: MailQueue, mail_id: int, attempts: int, to: str, subject: str, body: str, what: str
    ) -> str | None:
        """Send one claimed mail of ``queue``; record that it went, or its failed try (given up past
        ``max_attempts``). Why it was given up on, or ``None``."""
        problem = self.service.send(to, subject, body)
        if problem is None:
            queue.mark_sent((mail_id,))
            log.info("%s mail %d sent through %s", what, mail_id, self.service.label)
            return None
        self._say_failure(problem)
        if attempts + 1 >= self.max_attempts:
            queue.give_up((mail_id,), problem)
            return problem
        queue.reschedule((mail_id,), self.clock.time() + self.backoff(attempts + 1), problem)
        return None

    def _say_failure(self, problem: str) -> None:
        """Log a failed mail at most once a minute, with how many failed since the last line."""
        self._failed_since_said += 1
        now = self.clock.monotonic()
        if self._said_at is not None and now - self._said_at < 60.0:
            return
        log.warning(
            "Code mails: %d failed through %s (%s); each is tried again with a new code",
            self._failed_since_said,
            self.service.label,
            problem,
        )
        self._said_at, self._failed_since_said = now, 0
