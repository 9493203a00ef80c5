"""Loopback ports for private servers.

`free_port()` asks the kernel for an unused port on 127.0.0.1. Between this call and the server's
own bind another process can take the port, so the servers check `port_is_free` again and retry
on another port when their bind fails (see mariadb.MariaDB and ferretdb.FerretDB)."""

from __future__ import annotations

import socket

HOST = "127.0.0.1"


def free_port(host: str = HOST) -> int:
    """A port nobody listens on at this moment (the kernel's choice, so it is outside the ranges
    people usually configure)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_is_free(port: int, host: str = HOST) -> bool:
    """True if nothing is bound to host:port (we can bind it ourselves)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


def accepts(port: int, host: str = HOST, timeout: float = 0.2) -> bool:
    """True if something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False
