"""A v2 agent that makes the bridge's process handling hard, for test_bridge_lifetime.

``lifetime_agent.py MODE PIDFILE``: it starts a grandchild (``sleep``-like,
ignoring SIGTERM, SIGINT and SIGHUP, holding the agent's stdout) and writes
its own pid and the grandchild's to PIDFILE (one line, space-separated), then:

* ``exit-at-init``: exits (status 3) on ``initialize`` without answering;
* ``exit-mid-turn``: answers ``initialize``, ``session/new`` and accepts
  ``session/prompt``, says ``exiting`` and exits (status 3) in the turn;
* ``stubborn``: answers ``initialize``, then ignores its input's end,
  SIGTERM, SIGINT and SIGHUP, and sleeps.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

_GRANDCHILD = (
    "import signal, time\n"
    "for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "time.sleep(300)\n"
)


def send(message: object) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode, pidfile = sys.argv[1], sys.argv[2]
    child = subprocess.Popen([sys.executable, "-c", _GRANDCHILD])  # inherits our stdout
    with open(pidfile + ".tmp", "w") as f:
        f.write(f"{os.getpid()} {child.pid}\n")
    os.replace(pidfile + ".tmp", pidfile)
    if mode == "stubborn":
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)
    for line in sys.stdin:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method == "initialize":
            if mode == "exit-at-init":
                os._exit(3)
            send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "result": {"protocolVersion": 2, "info": {"name": "lifetime", "version": "1"}},
                }
            )
        elif method == "session/new":
            send({"jsonrpc": "2.0", "id": request_id, "result": {"sessionId": "s1"}})
        elif method == "session/prompt":
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})
            update = {
                "sessionUpdate": "agent_message_chunk",
                "messageId": "m1",
                "content": {"type": "text", "text": "exiting"},
            }
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "session/update",
                    "params": {"sessionId": "s1", "update": update},
                }
            )
            if mode == "exit-mid-turn":
                os._exit(3)
    while mode == "stubborn":  # input ended: sleep on regardless
        time.sleep(60)


if __name__ == "__main__":
    main()
