#!/usr/bin/env python3
"""A Hexfront bot in Python: it connects to a `hexfront serve` server, makes a game against the
server's computer player (or joins one), and plays random legal orders, picked from what the
server says the game takes now (`options`: order kinds with each field's allowed values), until
the game ends.

    pip install websockets==17.4
    python3 examples/bot.py ws://127.0.0.1:7878/ws --scenario st-vith-1944 --side us --against standard
    python3 examples/bot.py ws://127.0.0.1:7878/ws --join g-3e1ed6411ad8 --invite a81f03c2d4

It prints what happened and exits 0 when the game came to its end, 1 otherwise. The protocol is
in docs/online.md.
"""

import argparse
import asyncio
import json
import os
import random
import sys

import websockets

PROTOCOL = 3
VERSION = "0.1.0"
# Seconds without any message before the bot gives up.
SILENCE = 120


def pick_order(options, rng):
    """A random order from the server's description of what the game takes now."""
    weighted = []
    for k in options["kinds"]:
        kind = k["kind"]
        if kind == "move" and k["stacks"]:
            stack = rng.choice(k["stacks"])
            weighted.append((3, {"Move": {"units": stack["units"], "to": rng.choice(stack["to"])}}))
        elif kind == "attack" and k["attacks"]:
            attack = rng.choice(k["attacks"])
            order = {"attackers": attack["units"], "target": attack["target"]}
            # Options any attack may take (Rommel's tactics, a retreat taken as steps, the
            # exchange): at most one of each kind, e.g. {"Tactics":["Recce"]} or {"RetreatAsSteps":"Steps"}.
            taken = {}
            for option in k.get("options", []):
                kind_of = option if isinstance(option, str) else next(iter(option))
                if kind_of not in taken and rng.random() < 0.3:
                    taken[kind_of] = option
            if taken:
                order["options"] = list(taken.values())
            weighted.append((3, {"Attack": order}))
        elif kind == "defend" and k["options"]:
            weighted.append((1, {"Defend": rng.choice(k["options"])}))
        elif kind == "answer" and k["options"]:
            weighted.append((1, {"Answer": rng.choice(k["options"])}))
        elif kind == "retreat" and k["paths"]:
            weighted.append((1, {"Retreat": {"unit": k["unit"], "path": rng.choice(k["paths"])}}))
        elif kind == "advance":
            if k["moves"]:
                weighted.append((1, rng.choice(k["moves"])))
            if k["may_end"]:
                weighted.append((1, "EndAdvance"))
        elif kind == "end_phase":
            weighted.append((1, "EndPhase"))
        # Never "concede": a bot plays to the end.
    if not weighted:
        return None
    return rng.choices([o for _, o in weighted], weights=[w for w, _ in weighted])[0]


class Bot:
    def __init__(self, ws, rng):
        self.ws = ws
        self.rng = rng
        self.entries = 0
        self.orders = 0
        self.refused = 0
        self.refused_in_a_row = 0

    async def send(self, message):
        await self.ws.send(json.dumps(message))

    async def recv(self):
        return json.loads(await asyncio.wait_for(self.ws.recv(), SILENCE))

    async def request(self, message, answer_type):
        """Sends `message`, returns the first answer of `answer_type` (errors end the bot)."""
        await self.send(message)
        while True:
            m = await self.recv()
            if m["type"] == answer_type:
                return m
            if m["type"] == "error":
                sys.exit(f"the server said: {m['message']}")

    async def play(self, game):
        await self.send({"type": "watch", "game": game, "since": 0})
        asked_at = None  # the log length when we last asked what the game takes
        in_flight = False  # an order of ours not yet answered
        while True:
            if asked_at != self.entries and not in_flight:
                await self.send({"type": "options", "game": game})
                asked_at = self.entries
            m = await self.recv()
            kind = m["type"]
            if kind == "entry":
                self.entries = m["entry"]["index"] + 1
            elif kind == "options" and m["expect"] == self.entries and m["yours"] and not in_flight:
                order = pick_order(m["options"], self.rng)
                if self.refused_in_a_row >= 40:
                    sys.exit(f"stuck: {self.refused_in_a_row} orders refused in a row")
                if self.refused_in_a_row >= 20:
                    order = "EndPhase"
                if order is not None:
                    await self.send({"type": "order", "game": game, "expect": self.entries, "order": order})
                    self.orders += 1
                    in_flight = True
            elif kind == "accepted":
                in_flight = False
                self.refused_in_a_row = 0
            elif kind == "refused":
                # A random pick the rules refuse (the reason names the rule): ask again.
                in_flight = False
                self.refused += 1
                self.refused_in_a_row += 1
                asked_at = None
            elif kind == "ended":
                return m
            elif kind == "error":
                sys.exit(f"the server said: {m['message']}")


async def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("url", help="the server's WebSocket, e.g. ws://127.0.0.1:7878/ws")
    p.add_argument("--scenario", default="st-vith-1944")
    p.add_argument("--side", default="us", help="the side the bot plays (an id)")
    p.add_argument("--against", default="standard", help="the server's computer player's level")
    p.add_argument("--join", metavar="GAME", help="join this game instead of making one")
    p.add_argument("--invite", help="the invite code of the game to join")
    p.add_argument("--seed", type=int, default=1, help="the bot's own random choices")
    p.add_argument("--name", default="Python bot")
    args = p.parse_args()
    async with websockets.connect(args.url, max_size=None) as ws:
        bot = Bot(ws, random.Random(args.seed))
        await bot.request({"type": "hello", "protocol": PROTOCOL, "version": VERSION}, "welcome")
        await bot.request({"type": "register", "name": args.name}, "registered")
        contribution = os.urandom(32).hex()
        if args.join:
            joined = await bot.request(
                {"type": "join", "game": args.join, "invite": args.invite, "contribution": contribution}, "joined"
            )
            game = joined["game"]
        else:
            created = await bot.request(
                {
                    "type": "create",
                    "scenario": args.scenario,
                    "side": args.side,
                    "opponent": {"computer": args.against},
                    "contribution": contribution,
                },
                "created",
            )
            game = created["game"]
        print(f"game {game}: the bot plays {args.side}", flush=True)
        ended = await bot.play(game)
        print(
            f"game {game} over after {bot.entries} entries: winner {ended['winner']} ({ended['reason']}); "
            f"the bot gave {bot.orders} orders, {bot.refused} refused; secret {ended['secret']}"
        )


if __name__ == "__main__":
    asyncio.run(main())
