"""The competition platform's protocol (docs/platform.md): action lists,
messages, the importer of its message logs (``log``), the server, the client
and the DanZero encodings."""

from .actions import (ACTION_ARRAY_COLUMNS, PASS_ACTION, action_array, action_count,
                      action_list, action_plays, from_action, index_of, parse_action,
                      platform_rank, to_action)

__all__ = ["action_list", "action_array", "action_plays", "action_count", "from_action",
           "to_action", "parse_action", "index_of", "platform_rank", "PASS_ACTION",
           "ACTION_ARRAY_COLUMNS"]
