#!/usr/bin/python3
"""The system test's agent in the guest: runs the host's shell commands as root.

One JSON object a line each way over a virtio-serial port (no network, no ssh
keys): `{"id": 1, "sh": "systemctl is-active tavola", "timeout": 60}` in,
`{"id": 1, "rc": 0, "out": "active\\n", "err": ""}` out. Commands run one at a
time, in order. Test-only: it is part of the test image, never of Tavola.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def run(request: dict) -> dict:
    reply: dict = {"id": request.get("id")}
    try:
        proc = subprocess.run(
            ["/bin/bash", "-c", request["sh"]],
            capture_output=True,
            timeout=float(request.get("timeout", 120)),
            input=request.get("input", "").encode(),
            check=False,
        )
        reply.update(
            rc=proc.returncode,
            out=proc.stdout.decode("utf-8", "replace"),
            err=proc.stderr.decode("utf-8", "replace"),
        )
    except subprocess.TimeoutExpired as e:
        reply.update(
            rc=124,
            out=(e.stdout or b"").decode("utf-8", "replace"),
            err=f"agent: timed out after {e.timeout} s",
        )
    except (KeyError, TypeError, ValueError) as e:
        reply.update(rc=2, out="", err=f"agent: bad request: {e}")
    return reply


def main(port: str) -> None:
    with open(port, "r+b", buffering=0) as dev:
        pending = b""
        while True:
            chunk = dev.read(65536)
            if not chunk:  # the host end is not connected: wait for it
                time.sleep(0.2)
                continue
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                try:
                    request = json.loads(line)
                except ValueError:
                    continue  # noise from before the host connected
                out = (json.dumps(run(request)) + "\n").encode()
                view = memoryview(out)
                while view:
                    view = view[os.write(dev.fileno(), view) :]


if __name__ == "__main__":
    main(sys.argv[1])
