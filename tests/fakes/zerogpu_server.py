"""A stand-in for ZeroGPU's device API, which the real ``spaces`` package calls on ZeroGPU hardware
(``SPACES_ZERO_GPU=true``, ``SPACES_ZERO_DEVICE_API_URL``): ``POST /startup-report`` when the app launches
with ``@spaces.GPU`` functions, ``/schedule`` (and then ``/allow``, ``/release``) each time one is called.
It records every request, so a test sees whether the app reported at start-up and whether anything ran
on a GPU."""

from __future__ import annotations

from typing import Any

from tests.fakes.server import LocalServer, Response


class FakeZeroGPU(LocalServer):
    """Answers ``/startup-report`` with 200 and refuses every GPU request (403), recording each path."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        super().__init__()

    def handle(self, method: str, path: str, headers: dict[str, str], body: Any) -> Response:
        self.requests.append(path.split("?")[0])
        if path.startswith("/startup-report"):
            return Response(200, {})
        return Response(403, {"error": "no GPU for this test"})

    @property
    def gpu_requests(self) -> list[str]:
        """Every request but the start-up report: a GPU task scheduled, allowed or released."""
        return [path for path in self.requests if path != "/startup-report"]
