"""Verified contacts: a visitor proves an address is theirs with a code mailed to it (issue 42).

``codes``: making, hashing and reading codes; ``mail``: the e-mail service (an Apprise URL) a mail goes
out through; ``mailer``: the worker that sends the code mails (and the owner's answers the owner chose to
mail) from the store; ``verifier``: what a conversation does (offer a code for a lead's address, read a
typed code before any model sees it) and what tells the owner an address was confirmed.
"""

from replica.contacts.mail import MailService
from replica.contacts.mailer import CodeMailer
from replica.contacts.verifier import Verifier

__all__ = ["CodeMailer", "MailService", "Verifier"]
