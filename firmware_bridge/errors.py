"""Errors of the serial layer, each a built-in exception so callers can catch broadly."""

from __future__ import annotations


class BridgeError(OSError):
    """A serial peripheral that cannot be used; the message names the device and the fix."""


class DeviceNotFound(BridgeError, FileNotFoundError):
    """No device at the configured path or with the configured USB id (yet)."""


class ProtocolError(ValueError):
    """A frame that is intact but makes no sense (wrong body, unknown type, wrong version)."""


class LinkLost(BridgeError):
    """The device stopped answering although its port is still open: close and reopen it."""
