"""The emulated Pi, driven from the host: boot it, run commands in it, read its LED strip.

The guest is a QEMU `virt` machine with a Cortex-A72 (the Pi 4's core) running the
image `build-image.sh` makes. It is a Pi to the software on it through its device
tree: QEMU's own tree for the machine, dumped and given a Pi 4's `model` and
`system/linux,revision`, exactly where a Pi's firmware puts them. Its devices:

- the disk, attached `snapshot=on` (every boot starts from the clean image);
- a 9p share, read-only, carrying the project's source in;
- a virtio-serial port for the test's agent (`guest/agent.py`);
- a USB serial adapter (QEMU's FTDI FT232 emulation) whose output the host records
  in a file: the Adalight strip, a `/dev/ttyUSB0` to the guest like a real one;
- user-mode networking, so `install.sh` reaches Debian's archive and PyPI.

Under TCG (software emulation) nothing needs /dev/kvm; KVM is used only on an aarch64
host whose /dev/kvm is a real KVM (PVM-backed /dev/kvm hangs stock kernels).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

#: The board the guest presents: a Raspberry Pi 4 Model B rev 1.4, 4 GB (revision code c03114).
MODEL = "Raspberry Pi 4 Model B Rev 1.4"
REVISION = 0xC03114


class GuestError(RuntimeError):
    """The guest did not boot, or a command in it failed or timed out."""


@dataclass(frozen=True, slots=True)
class Result:
    rc: int
    out: str
    err: str

    def __str__(self) -> str:
        return f"rc={self.rc}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


def accel_args() -> list[str]:
    """KVM only where it really works (an aarch64 host, not PVM); otherwise TCG."""
    kvm = Path("/dev/kvm")
    if (
        os.uname().machine == "aarch64"
        and kvm.exists()
        and os.access(kvm, os.R_OK | os.W_OK)
        and not Path("/sys/module/kvm_pvm").exists()
    ):
        return ["-accel", "kvm", "-cpu", "host"]
    return ["-accel", "tcg,thread=multi", "-cpu", "cortex-a72"]


def pi_device_tree(dts: str, *, model: str = MODEL, revision: int = REVISION) -> str:
    """QEMU's tree for the machine, given the Pi's identity at the root, as a Pi has it."""
    root = re.search(r"^/ \{\n", dts, re.M)
    end = dts.rstrip().rfind("};")
    if root is None or end < root.end():
        raise GuestError("no root node in QEMU's device tree")
    serial = 0x10000000DEADBEEF
    dts = re.sub(r'^\tmodel = "[^"]*";\n', "", dts, count=1, flags=re.M)  # "linux,dummy-virt"
    # virt's own GPIO controller (a PL061 for its power key) would take gpiochip0, the
    # header's number on a Pi 4; the guest powers off through PSCI without it.
    dts = re.sub(r"^\t(gpio-keys|pl061@[0-9a-f]+) \{\n.*?^\t\};\n", "", dts, flags=re.M | re.S)
    root = re.search(r"^/ \{\n", dts, re.M)
    end = dts.rstrip().rfind("};")
    assert root is not None
    properties = f'\tmodel = "{model}";\n\tserial-number = "{serial:016x}";\n'
    node = (
        "\n\tsystem {\n"  # subnodes follow the properties
        f"\t\tlinux,revision = <0x{revision:08x}>;\n"
        f"\t\tlinux,serial = <0x{serial >> 32:08x} 0x{serial & 0xFFFFFFFF:08x}>;\n"
        "\t};\n"
    )
    return dts[: root.end()] + properties + dts[root.end() : end] + node + dts[end:]


class Guest:
    """One boot of the emulated Pi; `sh()` runs a command in it as root."""

    def __init__(
        self, image: Path, work: Path, share: Path, *, memory_mb: int = 1536, cpus: int = 2
    ) -> None:
        self.image = image
        self.work = work
        self.share = share
        self.memory_mb = memory_mb
        self.cpus = cpus
        self.console = work / "console.log"
        self.strip_path = work / "strip.bin"
        self.agent_path = work / "agent.sock"
        self.proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._buf = b""
        self._next_id = 0
        self.boot_s: float | None = None

    # -- QEMU ------------------------------------------------------------------------
    def _machine_args(self) -> list[str]:
        img = self.image
        return [
            "qemu-system-aarch64",
            "-M",
            "virt",
            *accel_args(),
            "-smp",
            str(self.cpus),
            "-m",
            str(self.memory_mb),
            "-nographic",
            "-nodefaults",
            "-no-reboot",
            "-kernel",
            str(img / "vmlinuz"),
            "-initrd",
            str(img / "initrd.img"),
            "-append",
            "root=/dev/vda rw console=ttyAMA0 panic=-1 systemd.show_status=1",
            "-drive",
            f"file={img / 'rootfs.img'},if=none,id=disk,format=raw,snapshot=on",
            "-device",
            "virtio-blk-pci,drive=disk",
            "-netdev",
            "user,id=net",
            "-device",
            "virtio-net-pci,netdev=net",
            "-device",
            "virtio-rng-pci",
            "-device",
            "virtio-serial-pci",
            "-chardev",
            f"socket,id=agent,path={self.agent_path},server=on,wait=off",
            "-device",
            "virtserialport,chardev=agent,name=org.tavola.agent",
            "-device",
            "qemu-xhci",
            "-chardev",
            f"file,id=strip,path={self.strip_path}",
            "-device",
            "usb-serial,chardev=strip",
            "-fsdev",
            f"local,id=share,path={self.share},security_model=none,readonly=on",
            "-device",
            "virtio-9p-pci,fsdev=share,mount_tag=share",
        ]

    def _board_dtb(self) -> Path:
        """QEMU's device tree for exactly these machine options, made a Pi 4's."""
        dtc = shutil.which("dtc")
        if dtc is None:
            raise GuestError("dtc is missing: tests/system/host-deps.sh installs it")
        virt = self.work / "virt.dtb"
        args = self._machine_args()
        args[2] = "virt,dumpdtb=" + str(virt)
        subprocess.run(args, check=True, capture_output=True, timeout=60)
        dts = subprocess.run(
            [dtc, "-q", "-I", "dtb", "-O", "dts", str(virt)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        board = self.work / "board.dtb"
        subprocess.run(
            [dtc, "-q", "-I", "dts", "-O", "dtb", "-o", str(board), "-"],
            input=pi_device_tree(dts),
            check=True,
            text=True,
            capture_output=True,
        )
        return board

    def boot(self, timeout: float = 900) -> None:
        self.work.mkdir(parents=True, exist_ok=True)
        dtb = self._board_dtb()
        for p in (self.strip_path, self.agent_path, self.console):  # dumpdtb made some
            p.unlink(missing_ok=True)
        args = [*self._machine_args(), "-dtb", str(dtb), "-serial", f"file:{self.console}"]
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        deadline = t0 + timeout
        while not self.agent_path.exists():
            self._check_alive()
            if time.monotonic() > deadline:
                raise GuestError("QEMU did not create the agent socket")
            time.sleep(0.1)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.connect(str(self.agent_path))
        # The first command waits for the agent to start, late in the boot.
        while True:
            try:
                self.sh("true", timeout=max(1.0, min(30.0, deadline - time.monotonic())))
                break
            except TimeoutError:
                self._check_alive()
                if time.monotonic() > deadline:
                    raise GuestError(
                        f"the guest's agent did not answer in {timeout:.0f} s; "
                        f"console:\n{self.console_tail()}"
                    ) from None
        # Booted: systemd has finished starting (the simulated header included).
        state = self.sh(
            "systemctl is-system-running --wait", timeout=max(1.0, deadline - time.monotonic())
        ).out.strip()
        self.boot_s = time.monotonic() - t0
        if state not in ("running", "degraded"):
            raise GuestError(f"the guest's systemd is {state!r}")

    def _check_alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            out = self.proc.stdout.read().decode(errors="replace") if self.proc.stdout else ""
            raise GuestError(
                f"QEMU exited with {self.proc.returncode}: {out}\nconsole:\n{self.console_tail()}"
            )

    def console_tail(self, lines: int = 40) -> str:
        try:
            text = self.console.read_text(errors="replace")
        except OSError:
            return "(no console output)"
        return "\n".join(text.splitlines()[-lines:])

    def shutdown(self, timeout: float = 120) -> None:
        """Power off cleanly (the journal is flushed); kill QEMU if it does not stop."""
        if self.proc is None:
            return
        if self.proc.poll() is None and self._sock is not None:
            with contextlib.suppress(OSError):
                self._send({"id": -1, "sh": "systemctl --no-block poweroff", "timeout": 10})
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    # -- the agent -------------------------------------------------------------------
    def _send(self, request: dict) -> None:
        assert self._sock is not None
        self._sock.sendall((json.dumps(request) + "\n").encode())

    def sh(
        self, command: str, *, timeout: float = 120, check: bool = False, input: str = ""
    ) -> Result:
        """Run `command` with bash in the guest, as root; TimeoutError if no answer in time."""
        if self._sock is None:
            raise GuestError("the guest is not running")
        self._next_id += 1
        rid = self._next_id
        self._send({"id": rid, "sh": command, "timeout": timeout, "input": input})
        deadline = time.monotonic() + timeout + 10
        while True:
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer from the guest to {command!r}")
                self._sock.settimeout(left)
                try:
                    chunk = self._sock.recv(1 << 20)
                except TimeoutError:
                    raise TimeoutError(f"no answer from the guest to {command!r}") from None
                if not chunk:
                    raise GuestError(f"the guest's agent hung up; console:\n{self.console_tail()}")
                self._buf += chunk
            line, self._buf = self._buf.split(b"\n", 1)
            reply = json.loads(line)
            if reply.get("id") != rid:
                continue  # the answer to an earlier command that timed out
            result = Result(reply["rc"], reply["out"], reply["err"])
            if check and result.rc != 0:
                raise GuestError(f"{command!r} failed: {result}")
            return result

    # -- the strip -------------------------------------------------------------------
    def strip_bytes(self) -> bytes:
        """Everything the guest has sent to its USB serial adapter so far."""
        try:
            return self.strip_path.read_bytes()
        except FileNotFoundError:
            return b""
