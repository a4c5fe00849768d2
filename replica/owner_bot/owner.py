"""Who may use the owner's bot: the owner, in the owner's chat, and no one else there.

Telegram tells the chat an update comes from and, apart, the user who sent it (``from``). In a private
chat the two are one: the chat id is the owner's user id, and nothing needs setting. In a group
(``TELEGRAM_CHAT_ID`` negative) anyone in it could press an alert's button or reply to one, so only the
user ``TELEGRAM_OWNER_ID`` names is the owner there; without it, no one is (the log says so at start).
A message a member posts as the group itself (an anonymous admin) is no one's.
"""

from __future__ import annotations

from dataclasses import dataclass

from replica.telegram.updates import User

# What a press from someone else in the owner's chat is answered with; it does nothing.
NOT_THE_OWNER = "Only the owner can press this button."
NO_OWNER_SET = "In a group, the buttons work for the owner only: set TELEGRAM_OWNER_ID to your Telegram user id."
# What a command typed by someone else in the owner's group is answered with; it does nothing.
COMMANDS_FOR_THE_OWNER = "Only the owner can use this bot's commands."


@dataclass(frozen=True)
class Owner:
    """The owner's chat (``TELEGRAM_CHAT_ID``) and, for a group, their own user id (``TELEGRAM_OWNER_ID``)."""

    chat_id: str
    user_id: str | None = None

    @property
    def private(self) -> bool:
        """Whether the owner's chat is a private chat with the bot (a positive id: the owner's own)."""
        return self.chat_id.isdigit()

    @property
    def known(self) -> bool:
        """Whether the owner can be told from the others in their chat."""
        return bool(self.user_id) or self.private

    def in_chat(self, chat_id: int | None) -> bool:
        """Whether ``chat_id`` (a message's chat, ``None`` where Telegram gave none) is the owner's chat."""
        return chat_id is not None and str(chat_id) == self.chat_id

    def sent(self, sender: User | None) -> bool:
        """Whether ``sender`` (who sent a message or pressed a button, ``None`` for no user) is the owner."""
        owner = self.user_id or (self.chat_id if self.private else None)
        if owner is None or sender is None or sender.is_bot:
            return False
        return str(sender.id) == owner
