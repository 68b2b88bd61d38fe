"""The host's notice settings: the relay's password from a file or the environment, never
the file itself nor the command line; the push hosts and the private networks allowed."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from table.host.notices import PASSWORD_VARIABLE, SettingsError, load
from table.serve import parse_args

SMTP = '[smtp]\nhost = "smtp.example.org"\nsender = "games@example.org"\nuser = "games"\n'


def test_the_password_comes_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "smtp-password"
    secret.write_text("hunter2\n")
    settings = tmp_path / "notices.toml"
    settings.write_text(
        SMTP + f'password_file = "{secret}"\n[push]\nhosts = ["ntfy.sh", "127.0.0.1:8080"]\n'
        'private = ["127.0.0.1/32"]\n[come_back]\nssh = "ssh -p 2222 games.example.org"\n'
    )
    loaded = load(settings, environ={})
    assert loaded.relay is not None
    assert (loaded.relay.port, loaded.relay.security, loaded.relay.password) == (
        587, "starttls", "hunter2",
    )  # fmt: skip
    assert loaded.allow.hosts == {"ntfy.sh", "127.0.0.1:8080"}
    assert loaded.allow.private == (ipaddress.ip_network("127.0.0.1/32"),)
    assert loaded.come_back.ssh == "ssh -p 2222 games.example.org"


def test_or_from_the_environment_and_never_from_the_file(tmp_path: Path) -> None:
    settings = tmp_path / "notices.toml"
    settings.write_text(SMTP)
    assert load(settings, environ={PASSWORD_VARIABLE: "s3cret"}).relay.password == "s3cret"  # type: ignore[union-attr]
    with pytest.raises(SettingsError, match="needs password_file or MYKERINOS_SMTP_PASSWORD"):
        load(settings, environ={})
    settings.write_text(SMTP + 'password = "in the file"\n')
    with pytest.raises(SettingsError, match="holds no password"):
        load(settings, environ={})


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[smtp]\nhost = "h"\nsender = "a@b.org"\nsecurity = "ssl"\n', "starttls, tls or none"),
        ('[smtp]\nhost = "h"\n', "needs host and sender"),
        ('[push]\nprivate = ["not a network"]\n', "private"),
        ("[elsewhere]\n", "unknown section"),
        ("not toml = = =", "notices.toml"),
    ],
)
def test_a_wrong_setting_is_said_in_words(tmp_path: Path, text: str, words: str) -> None:
    settings = tmp_path / "notices.toml"
    settings.write_text(text)
    with pytest.raises(SettingsError, match=words):
        load(settings, environ={})


def test_no_option_takes_a_password() -> None:
    with pytest.raises(SystemExit):
        parse_args(["--smtp-password", "x"])
    assert parse_args(["--notices", "n.toml"]).notices == "n.toml"
