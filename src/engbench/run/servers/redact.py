"""Redaction of secrets before anything is written where others can read it (manifests, logs,
processed tables, executed notebooks).

    redact(obj, secrets=None)   -> the same shape with every secret and every URI password replaced
    redact_uri(uri)             -> a URI with its userinfo password replaced: mongodb://u:***@h/
    secrets_from_env(env=None)  -> the secrets engbench knows of: ENGBENCH_MYSQL_PASSWORD and the
                                   password inside ENGBENCH_MONGO_URI (plus that URI's userinfo)

Rules:
- In a `scheme://user:password@host` URI (mongodb, mongodb+srv, mysql, mariadb, postgres, or any
  other scheme) the password becomes `***`; `scheme://user@host` keeps the user (not a secret);
  a URI whose userinfo is a bare token (`scheme://token@host`) loses it, since some services
  put the credential there.
- Every occurrence of a given secret (a literal string) is replaced by `***`, anywhere in a text,
  including inside keys of dicts. Secrets shorter than 3 characters are ignored: replacing
  "a" everywhere would destroy the text and say what the password is.
- Query-string passwords (`?password=...`, `&authPassword=...`, `pwd=`) are also replaced.
- Containers are walked recursively (dict, list, tuple, set); other values (numbers, None, bool)
  are returned unchanged; bytes are decoded as UTF-8 (errors replaced) and re-encoded.
Nothing is modified in place: a new object is returned.
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterable
from urllib.parse import unquote, urlsplit

MASK = "***"
ENV_MYSQL_PASSWORD = "ENGBENCH_MYSQL_PASSWORD"
ENV_MONGO_URI = "ENGBENCH_MONGO_URI"
_MIN_SECRET_LEN = 3

# scheme://userinfo@  — userinfo runs up to the LAST '@' before the host part ends (passwords may
# contain '@' when users forget to percent-encode them), never crossing whitespace, quotes, '/'
# after the '@', or the end of a JSON string.
_URI_USERINFO = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)"
    r"(?P<userinfo>[^\s/?#\"'<>`]*)@"
    r"(?=[^\s@\"'<>`]*?(?:[\s/?#\"'<>`]|$))"
)
_QUERY_PASSWORD = re.compile(
    r"(?P<key>(?:[?&;]|\b)(?:password|passwd|pwd|authPassword|auth_password)=)(?P<value>[^&\s\"'#]*)",
    re.IGNORECASE,
)


def _mask_userinfo(m: re.Match) -> str:
    userinfo = m.group("userinfo")
    if ":" in userinfo:
        user = userinfo.split(":", 1)[0]
        return f"{m.group('scheme')}{user}:{MASK}@"
    # scheme://token@host: could be a bare credential; the user name is not worth the risk
    return f"{m.group('scheme')}{MASK}@" if userinfo else m.group(0)


def redact_uri(uri: str) -> str:
    """`mongodb://user:pass@h1,h2/db?authSource=admin` → `mongodb://user:***@h1,h2/db?authSource=admin`.
    Works on any text holding URIs, not just a bare URI."""
    text = _URI_USERINFO.sub(_mask_userinfo, uri)
    return _QUERY_PASSWORD.sub(lambda m: m.group("key") + (MASK if m.group("value") else ""), text)


def uri_secrets(uri: str) -> list[str]:
    """The password (raw and percent-decoded) of a URI, for literal replacement elsewhere
    (e.g. a password echoed by a tool outside any URI)."""
    out = []
    m = _URI_USERINFO.search(uri or "")
    if m and m.group("userinfo"):
        ui = m.group("userinfo")
        pw = ui.split(":", 1)[1] if ":" in ui else ui
        out += [pw, unquote(pw)]
    else:
        try:
            parts = urlsplit(uri or "")
            if parts.password:
                out += [parts.password, unquote(parts.password)]
        except ValueError:
            pass
    for qm in _QUERY_PASSWORD.finditer(uri or ""):
        if qm.group("value"):
            out += [qm.group("value"), unquote(qm.group("value"))]
    return out


def secrets_from_env(env: dict | None = None) -> list[str]:
    """ENGBENCH_MYSQL_PASSWORD and the password of ENGBENCH_MONGO_URI (raw and percent-decoded),
    longest first, without duplicates or empty strings."""
    env = os.environ if env is None else env
    found: list[str] = []
    pw = env.get(ENV_MYSQL_PASSWORD)
    if pw:
        found.append(pw)
    found += uri_secrets(env.get(ENV_MONGO_URI, ""))
    return _normalize(found)


def _normalize(secrets: Iterable[str] | str | None) -> list[str]:
    if secrets is None:
        return []
    if isinstance(secrets, str):
        secrets = [secrets]
    uniq = {s for s in secrets if isinstance(s, str) and len(s) >= _MIN_SECRET_LEN}
    return sorted(uniq, key=lambda s: (-len(s), s))  # longest first: "abc123" before "abc"


def _redact_text(text: str, secrets: list[str]) -> str:
    text = redact_uri(text)
    for s in secrets:
        if s in text:
            text = text.replace(s, MASK)
    return text


def redact(obj: Any, secrets: Iterable[str] | str | None = None, *, from_env: bool = True) -> Any:
    """A copy of `obj` (text, bytes, or nested dict/list/tuple/set) with URI passwords, query-string
    passwords and every literal secret replaced by `***`. `secrets` adds to those found in the
    environment (`from_env=False` to use only the given ones)."""
    found = _normalize(list(_normalize(secrets)) + (secrets_from_env() if from_env else []))
    return _walk(obj, found)


def _walk(obj: Any, secrets: list[str]) -> Any:
    if isinstance(obj, str):
        return _redact_text(obj, secrets)
    if isinstance(obj, (bytes, bytearray)):
        return _redact_text(bytes(obj).decode("utf-8", "replace"), secrets).encode("utf-8")
    if isinstance(obj, dict):
        return {_walk(k, secrets): _walk(v, secrets) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_walk(v, secrets) for v in obj]
    if isinstance(obj, tuple):
        items = [_walk(v, secrets) for v in obj]
        return type(obj)(*items) if hasattr(obj, "_fields") else tuple(items)
    if isinstance(obj, (set, frozenset)):
        return type(obj)(_walk(v, secrets) for v in obj)
    return obj
