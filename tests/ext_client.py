"""A tiny platform client of our own, for the external-team match tests:
``python tests/ext_client.py URL MODE`` connects to URL and answers every
``act`` by MODE (it shares no code with the project, only ``websockets``):

- ``first``: the first entry of ``actionList`` (``{"actIndex": 0}``);
- ``invalid``: first an index out of range, then 0 (the server logs the
  invalid answer and takes the next);
- ``garbage``: three answers that are not JSON to every act (the server
  gives up after its ``max_bad_answers`` in a row);
- ``crash``: the first entry until its 5th act, then exits with status 3;
- ``silent``: never answers;
- ``linger``: the first entry, and after the connection closes it writes its
  process id to the file ``LINGER_FILE`` (the third argument) and sleeps
  (the harness must end it).

Every other mode exits when the server closes the connection (status 0).
"""

import asyncio
import json
import os
import sys
import time

import websockets


async def main(url: str, mode: str, pid_file: str = "") -> int:
    acts = 0
    async with websockets.connect(url, max_size=2 ** 22, open_timeout=10) as ws:
        try:
            async for text in ws:
                msg = json.loads(text)
                if "actionList" not in msg:
                    continue
                acts += 1
                if mode == "silent":
                    continue
                if mode == "crash" and acts == 5:
                    return 3
                if mode == "garbage":
                    for _ in range(3):
                        await ws.send("not json")
                    continue
                if mode == "invalid":
                    await ws.send(json.dumps({"actIndex": len(msg["actionList"]) + 7}))
                await ws.send(json.dumps({"actIndex": 0}))
        except websockets.ConnectionClosed:
            pass
    if mode == "linger":
        with open(pid_file, "a") as f:
            f.write(f"{os.getpid()}\n")
        time.sleep(1000)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:4])))
