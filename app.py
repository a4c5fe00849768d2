"""Replica: run the owner's AI stand-in as a Gradio app (``python app.py``; ``python app.py --help`` for
the owner's commands)."""

import sys

if sys.version_info < (3, 10):  # the front matter asks Spaces for 3.12; the README names 3.10-3.13
    sys.exit(f"Replica needs Python 3.10 to 3.13; this is Python {sys.version.split()[0]}.")

spaces = None
if __name__ != "__main__" or len(sys.argv) == 1:  # serving: a command, or --help, has no page to place a GPU for
    try:  # preinstalled on Hugging Face Spaces (it imports Gradio); elsewhere absent, and nothing below changes
        import spaces
    except ImportError:
        pass

from replica.cli.main import main  # noqa: E402 (spaces comes first, before anything imports Gradio)

if spaces is not None:
    spaces.disable_gradio_auto_wrap()  # no visitor's event is ever made a GPU task

    # ZeroGPU hardware (what free Spaces run on) stops an app that registers no @spaces.GPU function.
    # The replica needs no GPU: this one is registered with Gradio and run by no page, client or route
    # (replica/web/zerogpu.py), so no GPU time is ever spent.
    @spaces.GPU(duration=1)
    def zerogpu_placeholder() -> None:
        """Does nothing; exists for ZeroGPU's start-up check."""

else:
    zerogpu_placeholder = None

if __name__ == "__main__":
    sys.exit(main(gpu_placeholder=zerogpu_placeholder))
