"""A TCP proxy on 127.0.0.1 that can be cut and restored: a database server going away and coming back.

While cut, every open connection is closed and new ones are refused (the port is not listened on),
as when PostgreSQL is stopped; restored, it listens on the same port again.
"""

from __future__ import annotations

import socket
import threading


class TcpProxy:
    """Forwards ``127.0.0.1:port`` to ``target``; :meth:`cut` and :meth:`restore` it."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self.port = 0
        self.restore()

    def url_for(self, url: str) -> str:
        """``url`` (a postgresql:// address of the target) pointed at the proxy instead."""
        head, _, rest = url.partition("@")
        path = rest.split("/", 1)[1] if "/" in rest else ""
        return f"{head}@127.0.0.1:{self.port}/{path}"

    def restore(self) -> None:
        """Listen again (on the same port once one was chosen)."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Stop listening and close every connection, as a stopped server does."""
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, set()
        if listener:
            listener.close()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    close = cut

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    client.close()
                    server.close()
                    return
                self._sockets |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
