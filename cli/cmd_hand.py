"""``gd-analyze hand HAND_FILE`` (also plain ``gd-analyze HAND_FILE``): the
hand analysis (grouped cards, wilds, bombs, minimum plays)."""

from __future__ import annotations

import click

from . import output
from .options import command, emit_json, format_option, lang_option, read_source, width_option


@command("hand")
@click.argument("hand_file")
@format_option
@lang_option
@width_option
def hand_cmd(hand_file: str, fmt: str, lang: str, width: int) -> None:
    """Analyse a hand: grouped cards, wilds, bombs, minimum plays."""
    from guandan_fast.formats.hand import loads_hand
    from guandan_fast.analysis.summary import hand_summary

    hand = loads_hand(read_source(hand_file))
    data = hand_summary(hand.cards, hand.rules)
    if fmt == "json":
        emit_json(data)
    else:
        click.echo(output.hand_text(data, lang, width))
