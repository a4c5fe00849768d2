"""Each reply checked before the visitor reads it (``checker``): nothing invented (``specifics``), no claim the
records do not back (``claims``), no framework talk (``voice``), no answer about the owner the notes do not
hold (``about_owner``), no debris of a template (``debris``), and a question the reply could not answer
passed on (``question_net``)."""
