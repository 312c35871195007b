"""Starting the app from the options: the game they ask for, the autosave to offer.

The command line imports this module after choosing the language, as the app's key
names are catalogue messages read when its classes are made."""

from __future__ import annotations

from shiftago.interfaces.shared.autosave import Autosave
from shiftago.interfaces.shared.catalogues import _
from shiftago.interfaces.shared.newgame import PlaySetup
from shiftago.interfaces.tui.app import ShiftagoApp
from shiftago.interfaces.tui.match import Saved, open_match, unfinished


def prepare_app(setup: PlaySetup, autosave: Autosave | None = None) -> ShiftagoApp:
    """The app for ``setup`` (a :class:`SetupError` when the options make no game). A
    game from ``--load`` or ``--position`` moves the unfinished game aside first, as
    ``shiftago play`` does; otherwise the unfinished game is resumed, offered or
    replaced as ``--resume``/``--new`` say."""
    autosave = autosave if autosave is not None else Autosave()
    notices: list[str] = []
    offered: Saved | None = None
    if setup.load is not None or setup.position is not None:
        match = open_match(setup, autosave, None)
        if autosave.exists():
            kept = autosave.set_aside_by_date()
            notices.append(
                _("The unfinished game is kept in %(path)s (--load goes on with it).")
                % {"path": str(kept)}
            )
    else:
        saved = unfinished(autosave) if setup.resume is not False else None
        resumed = saved if setup.resume and saved else None
        match = open_match(
            setup,
            autosave,
            resumed.record if resumed else None,
            resumed.series if resumed else None,
        )
        if saved is not None and setup.resume is None:
            offered = saved
    app = ShiftagoApp(match, setup=setup, unfinished=offered)
    app.notices = notices
    return app


def run_tui(setup: PlaySetup) -> int:
    """``shiftago tui``: the app until the player leaves; the exit status."""
    app = prepare_app(setup)
    status = app.run()
    match = app.match
    autosave = match.autosave
    if autosave is not None and autosave.exists() and not match.game.is_over:
        print(_("The game is saved; shiftago tui and shiftago play offer to resume it."))
    return status or 0
