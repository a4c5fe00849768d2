"""``python app.py [command]``: serve the page, or run one of the owner's commands and exit."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Callable

from replica.cli.export import EXPORTS, STATS_DAYS, export
from replica.cli.telegram_setup import WAIT_SECONDS, telegram_setup
from replica.logs import setup_logging, url_secrets
from replica.settings import DEFAULT_PORT, ConfigError, Settings, load_settings
from replica.stats.period import MAX_DAYS
from replica.storage.store import StoreError

# Imported only once a command needs them (the model's SDK, Apprise, Gradio take seconds), so that
# --help answers at once: replica.cli.doctor, replica.cli.evaluate, replica.alerts.apprise_channel, replica.wiring.

log = logging.getLogger("replica")


def port_is_free(host: str, port: int) -> bool:
    """True when the page could listen on ``host:port`` now (checked as Gradio checks it)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def reset_records(settings: Settings, yes: bool) -> int:
    """``python app.py reset``: after the owner says so (or with ``--yes``), delete every record and
    learned answer: the example's trial data gone, for the owner's own start. Returns the exit code."""
    from replica.wiring import open_store

    where = "PostgreSQL (DATABASE_URL)" if settings.storage.database_url else str(settings.storage.database_path)
    if not yes:
        sys.stdout.write(
            f"This deletes every lead, question, learned answer, conversation and pending alert in {where}.\n"
            "Type reset to go on: "
        )
        sys.stdout.flush()
        if sys.stdin.readline().strip().lower() != "reset":
            sys.stdout.write("Nothing was deleted.\n")
            return 1
    store = open_store(settings)
    try:
        store.clear_records()
    finally:
        store.close()
    sys.stdout.write(f"Every record and learned answer in {where} was deleted.\n")
    return 0


def command_line() -> argparse.ArgumentParser:
    """``python app.py``'s arguments: no command serves the page; each command runs once and exits."""
    parser = argparse.ArgumentParser(
        prog="python app.py",
        description=f"Replica: your AI stand-in on the web. With no command, python app.py serves the page, on "
        f"http://127.0.0.1:{DEFAULT_PORT} unless GRADIO_SERVER_NAME, GRADIO_SERVER_PORT or PORT say otherwise. "
        "Each command below runs once and exits, without serving the page.",
        epilog="Settings come from the environment and .env (docs/configuration.md).",
    )
    commands = parser.add_subparsers(dest="command", title="commands")
    export_command = commands.add_parser(
        "export", help="print stored records (CSV; conversations as JSON Lines) and exit; the server is not started"
    )
    export_command.add_argument("what", choices=sorted(EXPORTS))
    export_command.add_argument(
        "--days",
        type=int,
        default=STATS_DAYS,
        choices=range(1, MAX_DAYS + 1),
        metavar="N",
        help=f"export stats: the last N days, today included ({STATS_DAYS}; at most {MAX_DAYS})",
    )
    setup = commands.add_parser("telegram-setup", help="find your Telegram chat id and send a test message")
    setup.add_argument("--write", action="store_true", help="add or update TELEGRAM_CHAT_ID in .env")
    setup.add_argument("--delete-webhook", action="store_true", help="remove a webhook that blocks polling")
    setup.add_argument("--wait", type=float, default=WAIT_SECONDS, help="seconds to wait for your message (180)")
    doctor = commands.add_parser("doctor", help="check every setting against the real services")
    doctor.add_argument(
        "--ping",
        action="store_true",
        help="send a real test message to your Telegram chat and to each ALERT_URLS channel (ntfy, Discord, e-mail, …)",
    )
    reset = commands.add_parser(
        "reset",
        help="delete every record and learned answer, for a fresh start (asks first); the server is not started",
    )
    reset.add_argument("--yes", action="store_true", help="do not ask")
    evaluate = commands.add_parser("eval", help="score the configured model on visitor scripts before going live")
    evaluate.add_argument("--pairs", type=Path, help="your own question/answer pairs to check (see docs/models.md)")
    evaluate.add_argument(
        "--transcripts", type=Path, help="where to write the transcripts (DATA_DIR/eval-transcripts.md)"
    )
    return parser


def main(argv: list[str] | None = None, gpu_placeholder: Callable[[], None] | None = None) -> int:
    """Serve the app; or run one of the owner's commands (``export``, ``telegram-setup``, ``doctor``, ``eval``)
    and exit. ``gpu_placeholder`` is ``app.py``'s ``@spaces.GPU`` function, where there is one."""
    parser = command_line()
    args = parser.parse_args(argv)
    from replica.alerts.apprise_channel import parse_channels, secrets_of

    try:
        settings = load_settings(os.environ)
    except ConfigError as exc:
        parser.exit(2, f"Configuration error: {exc}\n")
    alert_secrets = [piece for url in settings.alerts.alert_urls for piece in secrets_of(url)]
    url_pieces = [*url_secrets(settings.model.openai_base_url), *url_secrets(settings.storage.database_url)]
    setup_logging([settings.model.openai_api_key, settings.telegram.telegram_bot_token, *url_pieces, *alert_secrets])
    if args.command == "telegram-setup":
        return telegram_setup(settings, sys.stdout, args.write, args.delete_webhook, args.wait)
    if args.command == "doctor":
        from replica.cli.doctor import run_doctor
        from replica.cli.evaluate import check_voice

        return run_doctor(settings, sys.stdout, ping=args.ping, voice=check_voice)
    if args.command == "eval":
        from replica.cli.evaluate import run_eval

        return run_eval(settings, sys.stdout, args.pairs, args.transcripts)
    port = settings.serving.listen_port
    variable = settings.serving.port_variable
    source = f" (from {variable})" if settings.serving.server_port or settings.serving.port else ""
    busy = f"Port {port}{source} is already in use: stop what is using it, or set {variable} to a free port.\n"
    if args.command is None and not port_is_free(settings.serving.listen_name, port):
        parser.exit(2, busy)
    try:
        if args.command == "reset":
            return reset_records(settings, args.yes)
        if args.command == "export":
            from replica.wiring import open_store

            store = open_store(settings)
            try:
                channels = {channel.key: channel.label for channel in parse_channels(settings.alerts.alert_urls)[0]}
                export(store, args.what, sys.stdout, channels, days=args.days)
            finally:
                store.close()
            return 0
        from replica.wiring import create_app

        app = create_app(settings, gpu_placeholder=gpu_placeholder)
    except StoreError as exc:
        parser.exit(2, f"Storage error: {exc}\n")
    except ConfigError as exc:  # found while building (a fork's tool that is no tool, a name offered twice)
        parser.exit(2, f"Configuration error: {exc}\n")
    model = (
        f"model {settings.model.openai_model}" if settings.model.model_configured else "no model (written answers only)"
    )
    log.info("Serving %s's replica with %s", app.settings.owner.owner_name, model)
    try:
        app.serve(server_name=settings.serving.listen_name, server_port=port)
    except OSError:  # taken after the check above, before Gradio's own bind: the same one line
        app.close()
        parser.exit(2, busy)
    return 0
