"""The optional parts of the package that a command needs.

The library, the engine, the arena and the terminal programs need only the package's
own dependencies; the web app's commands (``serve``, ``worker``, ``admin``,
``loadtest``) need the ``web`` extra too (pyproject.toml). Without it they say how to
install it instead of failing on an import deep inside the server.
"""

from __future__ import annotations

import importlib.util
from typing import Final

import click

from shiftago.interfaces.shared.catalogues import _

#: The ``web`` extra's distributions (pyproject.toml) and the module each one installs.
WEB_MODULES: Final = {
    "fastapi": "fastapi",
    "fastapi-offline": "fastapi_offline",
    "uvicorn": "uvicorn",
    "sqlalchemy": "sqlalchemy",
    "alembic": "alembic",
    "psycopg": "psycopg",
    "httpx": "httpx",
    "websockets": "websockets",
    "redis": "redis",
    "orjson": "orjson",
    "argon2-cffi": "argon2",
    "zxcvbn": "zxcvbn",
    "prometheus-client": "prometheus_client",
    "pyicu": "icu",
    "jinja2": "jinja2",
}


def require_web() -> None:
    """Stop the command with the words that install the web app's packages, where any
    of them is missing."""
    missing = [name for name, module in WEB_MODULES.items() if not _installed(module)]
    if missing:
        raise click.ClickException(
            _(
                "the web app needs packages that are not installed (%(missing)s): install "
                "them with pip install 'shiftago[web]' (in a checkout: pip install -e "
                "'.[web]', or run bash scripts/shiftago, which does)"
            )
            % {"missing": ", ".join(missing)}
        )


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package that cannot be imported, or a blocked import
        return False
