"""Replica: run the owner's AI stand-in as a Gradio app (``python app.py``; ``python app.py --help`` for
the owner's commands)."""

import sys

from replica.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
