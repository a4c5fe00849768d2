"""The owner's side of Telegram: one dispatcher (``dispatcher``), one command table (``commands``), the
handlers (``conversations``, ``questions``, ``leads``, ``buttons``), and two transports feeding the
dispatcher (``polling``, ``webhook``); ``bot`` puts them together."""
