"""gd-analyze plays: all plays, plays that beat a table play, hint order."""

from __future__ import annotations

import click

from guandan_fast.formats.hand import loads_hand
from guandan_fast.engine.moves import (as_table_play, hints_with_counts, listing_key,
                                      plays_with_counts)
from guandan_fast.model.cards import MAX_HOLDING
from guandan_fast.model.counts import to_counts
from guandan_fast.analysis.summary import play_dict

from . import output
from .options import command, emit_json, format_option, lang_option, read_source


@command("plays")
@click.argument("hand_file")
@click.option("--beat", "beat", metavar="CARDS",
              help='List what beats this table play, e.g. --beat "S5 D5".')
@click.option("--type", "beat_type", metavar="TYPE",
              help="Reading of an ambiguous --beat play (e.g. plate, tube; a record's words).")
@click.option("--rank", "beat_rank", metavar="RANK",
              help="Rank of the --beat reading (2..10, J, Q, K, A, B, R).")
@click.option("--hint", is_flag=True, help="Print the hint order (with --beat: when following).")
@format_option
@lang_option
def plays_cmd(hand_file, beat, beat_type, beat_rank, hint, fmt, lang):
    """List the plays of a hand, grouped by type."""
    from guandan_fast.formats.record import reading_words
    from guandan_fast.model.rules import read_play

    if beat is None and (beat_type or beat_rank):
        raise click.UsageError(f"{'--type' if beat_type else '--rank'} reads the --beat play: "
                               "give --beat CARDS too")
    hand = loads_hand(read_source(hand_file))
    rules = hand.rules
    table = None
    if beat is not None:
        # the table's cards come from the same double deck as the hand's
        typ, rank = reading_words(beat_type, beat_rank)     # as a record reads them
        table = as_table_play(read_play(beat, rules, type=typ, rank=rank), rules,
                              to_counts(hand.cards, max_cards=MAX_HOLDING))
    if hint:
        ranked = hints_with_counts(hand.cards, rules, table)
    else:
        ranked = sorted(plays_with_counts(hand.cards, rules, table),
                        key=lambda pa: listing_key(pa[0]))
    rows = [dict(play_dict(p), plays_left=after) for p, after in ranked]
    data = {"level": rules.level, "table": None if table is None else play_dict(table),
            "mode": "hint" if hint else "all", "count": len(rows), "plays": rows}
    if fmt == "json":
        emit_json(data)
    else:
        click.echo(output.plays_text(data, lang))
