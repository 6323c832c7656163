"""Run a command with socket() limited to some address families, as RestrictAddressFamilies=.

systemd compiles `RestrictAddressFamilies=` into a seccomp filter: socket() with any
other family fails with EAFNOSUPPORT. This installs the same rule (a classic BPF
seccomp program, through prctl) and then executes the command, so a test can see
whether a program works with the families a unit allows, on this machine's kernel:

    python tests/systemd/families.py AF_UNIX,AF_INET -- python -c "..."

What it cannot show: systemd's own filter and the rest of the sandbox (the emulated Pi
in tests/system runs the real unit for that). x86_64 and aarch64 only.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import socket
import struct
import sys

# classic BPF and seccomp constants (linux/filter.h, linux/seccomp.h, linux/audit.h)
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
#: machine -> (AUDIT_ARCH_*, the socket() system call's number)
ARCHES = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}


def _stmt(code: int, k: int) -> bytes:
    return struct.pack("HBBI", code, 0, 0, k)


def _jeq(k: int, true: int, false: int = 0) -> bytes:
    return struct.pack("HBBI", JEQ_K, true, false, k)


def program(families: list[int]) -> bytes:
    """socket(family, ...) with a family not in `families`: EAFNOSUPPORT; all else runs."""
    arch, nr = ARCHES[platform.machine()]
    prog = [
        _stmt(LD_W_ABS, 4),  # seccomp_data.arch
        _jeq(arch, 1),
        _stmt(RET_K, RET_ALLOW),
        _stmt(LD_W_ABS, 0),  # seccomp_data.nr
        _jeq(nr, 1),
        _stmt(RET_K, RET_ALLOW),
        _stmt(LD_W_ABS, 16),  # seccomp_data.args[0], its low word: the family
    ]
    for i, family in enumerate(families):
        prog.append(_jeq(family, len(families) - i))  # to the last ALLOW
    prog += [_stmt(RET_K, RET_ERRNO | errno.EAFNOSUPPORT), _stmt(RET_K, RET_ALLOW)]
    return b"".join(prog)


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def restrict(families: list[int]) -> None:
    code = program(families)
    buf = ctypes.create_string_buffer(code, len(code))
    fprog = _Fprog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def main(argv: list[str]) -> None:
    names, sep, *command = argv
    assert sep == "--" and command, "usage: families.py AF_X,AF_Y -- command ..."
    restrict([getattr(socket, n) for n in names.split(",")])
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
