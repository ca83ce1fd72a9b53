"""The ``parlour`` command: one sub-command per job, each owned by the module that does it."""

from __future__ import annotations

import importlib
import sys

# sub-command -> (module with a ``main(argv) -> int``, one-line summary)
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("parlour.server.serve", "run the game server for browsers and network play"),
    "cluster": ("parlour.server.cluster", "several servers, PostgreSQL and HAProxy on this machine"),
    "db": ("parlour.server.database", "the server's database: online backups, a move to PostgreSQL"),
    "maps": ("parlour.server.maps_command", "list, show and check maps (a server's library too)"),
    "play": ("parlour.tui.play", "play a game in the terminal against bots or friends"),
    "loa": ("parlour.tui.loa_program", "the CS61B Lines of Action text program"),
    "mille": ("parlour.tui.mille", "Mille Bornes against the computer, as the BSD program plays it"),
    "arena": ("parlour.bots.arena", "play bots against each other and report the score"),
    "ladder": ("parlour.bots.ladder", "rate every bot of a game at several budgets (resumable)"),
    "bench": ("parlour.bench", "measure rules and search speed"),
}


def usage() -> str:
    lines = ["usage: parlour COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<8}{summary}" for name, (_, summary) in COMMANDS.items()]
    lines += ["", "Run 'parlour COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    command = COMMANDS.get(args[0])
    if command is None:
        print(f"parlour: unknown command {args[0]!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(command[0])
    status: int = module.main(args[1:])
    return status


if __name__ == "__main__":
    sys.exit(main())
