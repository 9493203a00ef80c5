"""Redaction: no password survives in dicts, JSON text, notebook-like structures or logs."""

import json

import pytest

from engbench.run.servers.redact import MASK, redact, redact_uri, secrets_from_env

PW = "Sup3r-s3cret!"


@pytest.mark.parametrize("uri, expected", [
    ("mongodb://bob:Sup3r@db1:27017,db2:27017/bench?authSource=admin",
     "mongodb://bob:***@db1:27017,db2:27017/bench?authSource=admin"),
    ("mongodb+srv://bob:Sup3r@cluster0.example.net/?retryWrites=true",
     "mongodb+srv://bob:***@cluster0.example.net/?retryWrites=true"),
    ("mysql://root:Sup3r@127.0.0.1:3306/bench", "mysql://root:***@127.0.0.1:3306/bench"),
    ("mariadb://u:p%40ss@h/x", "mariadb://u:***@h/x"),
    ("mongodb://u:p@ss@host/x", "mongodb://u:***@host/x"),          # unencoded '@' in the password
    ("mongodb://token@host/", "mongodb://***@host/"),                # bare userinfo may be a credential
    ("mongodb://127.0.0.1:27017/", "mongodb://127.0.0.1:27017/"),   # nothing to hide
    ("mysql://h/db?user=a&password=Sup3r&ssl=1", "mysql://h/db?user=a&password=***&ssl=1"),
])
def test_redact_uri(uri, expected):
    assert redact_uri(uri) == expected


def test_uri_inside_text_and_plain_emails_untouched():
    text = "connecting to mongodb://bob:Sup3r@h:1/db, then mail alice@example.com"
    out = redact_uri(text)
    assert "Sup3r" not in out
    assert "alice@example.com" in out
    assert "mongodb://bob:***@h:1/db," in out


def test_dict_with_uri_and_password(monkeypatch):
    monkeypatch.setenv("ENGBENCH_MYSQL_PASSWORD", PW)
    monkeypatch.setenv("ENGBENCH_MONGO_URI", "mongodb://bench:m0ng0-pw%21@h/")
    manifest = {
        "server": {"uri": "mongodb://bench:m0ng0-pw%21@h/", "mysql": {"password": PW, "port": 3306}},
        "command_line": ["engbench", "run", "--set", f"mysql.password={PW}"],
        "error": f"Access denied for user 'root' (using password: {PW})",
        "n": 3, "ok": True, "none": None, ("tuple", PW): [1.5],
    }
    out = redact(manifest)
    text = json.dumps({str(k): v for k, v in out.items()})
    for secret in (PW, "m0ng0-pw%21", "m0ng0-pw!"):
        assert secret not in text
    assert out["server"]["mysql"]["port"] == 3306 and out["n"] == 3 and out["ok"] is True and out["none"] is None
    assert out["server"]["uri"] == f"mongodb://bench:{MASK}@h/"
    assert manifest["server"]["mysql"]["password"] == PW  # input not modified


def test_json_text():
    doc = json.dumps({"uri": "mysql://root:hunter22@127.0.0.1:3306/", "pw": "hunter22"}, indent=2)
    out = redact(doc, ["hunter22"], from_env=False)
    assert "hunter22" not in out
    assert json.loads(out)["uri"] == "mysql://root:***@127.0.0.1:3306/"


def test_notebook_like_structure(monkeypatch):
    monkeypatch.setenv("ENGBENCH_MONGO_URI", "mongodb+srv://nb:NbPass99@cluster.example.net/bench")
    nb = {"cells": [
        {"cell_type": "code", "source": ["uri = os.environ['ENGBENCH_MONGO_URI']\n", "print(uri)\n"],
         "outputs": [{"output_type": "stream", "name": "stdout",
                      "text": ["mongodb+srv://nb:NbPass99@cluster.example.net/bench\n"]},
                     {"output_type": "execute_result",
                      "data": {"text/plain": ["{'password': 'NbPass99'}"],
                               "text/html": ["<td>NbPass99</td>"]}},
                     {"output_type": "error", "ename": "OperationFailure",
                      "traceback": ["auth failed for mongodb+srv://nb:NbPass99@cluster.example.net"]}]}],
        "metadata": {"papermill": {"parameters": {"uri": "mongodb+srv://nb:NbPass99@cluster.example.net/bench"}}},
        "nbformat": 4}
    out = redact(nb)
    assert "NbPass99" not in json.dumps(out)
    assert out["nbformat"] == 4
    assert out["cells"][0]["outputs"][0]["text"] == ["mongodb+srv://nb:***@cluster.example.net/bench\n"]


def test_bytes_and_short_secrets():
    assert redact(b"pw=abc123 here", ["abc123"], from_env=False) == b"pw=*** here"
    # 1-2 character "secrets" are ignored rather than shredding the text
    assert redact("a b c", ["a"], from_env=False) == "a b c"


def test_secrets_from_env():
    env = {"ENGBENCH_MYSQL_PASSWORD": "mysqlpw", "ENGBENCH_MONGO_URI": "mongodb://u:p%40ss@h/"}
    assert set(secrets_from_env(env)) == {"mysqlpw", "p%40ss", "p@ss"}
    assert secrets_from_env({}) == []
    assert secrets_from_env({"ENGBENCH_MONGO_URI": "mongodb://h:27017/"}) == []


def test_a_manifest_is_written_with_uri_passwords_and_paths_hidden_and_nothing_else(tmp_path, monkeypatch):
    """rundir.write_manifest is the one door of the manifest: a URI's password (by its form) and this
    machine's paths become `***` and placeholders; a value equal to the password (`vda`, a device
    name) is kept. Failed on 7bcc2703: the manifest was written as given."""
    from engbench import paths
    from engbench.run import rundir
    monkeypatch.setenv("ENGBENCH_WORK_DIR", str(tmp_path / "work"))
    run_dir = tmp_path / "raw" / "20260101T000000Z_iibench_null_h"
    run_dir.mkdir(parents=True)
    rundir.write_manifest(run_dir, {
        "status": "running", "error": "could not reach mongodb://u:vda@h:1/",
        "command_line": [f"{paths.REPO}/.venv/bin/engbench", "--set", "mongodb.uri=mongodb://u:vda@h:1/?x=1"],
        "data_dir": str(tmp_path / "work" / run_dir.name), "device": "vda", "elsewhere": f"{paths.REPO}2/x"})
    m = rundir.read_manifest(run_dir)
    assert m["command_line"] == ["<repo>/.venv/bin/engbench", "--set", "mongodb.uri=mongodb://u:***@h:1/?x=1"]
    assert m["error"] == "could not reach mongodb://u:***@h:1/" and m["device"] == "vda"
    assert m["data_dir"] == f"<work>/{run_dir.name}" and m["elsewhere"] == f"{paths.REPO}2/x"
    assert str(tmp_path) not in (run_dir / "manifest.json").read_text()
    assert sorted(p.name for p in run_dir.iterdir()) == ["manifest.json"]
