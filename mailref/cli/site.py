"""`mailref site build`: the published pages rebuilt now."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mailref import config as config_mod
from mailref.engine.context import Refused

if TYPE_CHECKING:
    from mailref.referee import Referee


def cmd_site_build(referee: Referee, args: argparse.Namespace, who: str) -> int:
    from mailref import site

    cfg = config_mod.load(args.config)
    if cfg.site is None:
        raise Refused("no_site_table", config=cfg.path)
    try:
        written = site.rebuild(referee.store, cfg.site, args.slug, referee.clock())
    except OSError as e:
        from mailref.site.trouble import why

        raise Refused("site_unwritable", dir=cfg.site.dir, why=why(e, cfg.site.dir)) from None
    if args.slug and not written:
        raise Refused("no_game", slug=args.slug)
    for slug in written:
        print(f"{slug}: {cfg.site.dir / slug / 'index.html'}")
    print(f"site: {cfg.site.dir / 'index.html'}")
    return 0
