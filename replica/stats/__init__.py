"""The owner's figures: a period counted per day (:mod:`.period`), drawn (:mod:`.picture`) and put in
words (:mod:`.caption`), for ``/stats``, the weekly digest and ``export stats``."""
