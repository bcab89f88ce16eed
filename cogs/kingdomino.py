"""``/kingdomino pick`` and ``/kingdomino place``: typed moves with autocomplete of legal ones.

Clicking works too (the turn message carries the same moves as buttons and menus).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game import MAX_VALUE, legal_choices, play


class KingdominoCog(commands.GroupCog, group_name="kingdomino",
                    group_description="Kingdomino moves"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="pick", description="Put your king on a domino of the next line")
    @app_commands.describe(domino="A domino still free in the next line")
    async def pick(self, interaction: discord.Interaction,
                   domino: app_commands.Range[str, 1, MAX_VALUE]) -> None:
        code = domino if domino.startswith("pick ") else f"pick {domino}"
        await play(interaction, code)

    @pick.autocomplete("domino")
    async def pick_autocomplete(self, interaction: discord.Interaction, current: str):
        return await legal_choices(interaction, current, ("pick",))

    @app_commands.command(name="place", description="Lay your domino in your kingdom")
    @app_commands.describe(placement="Two cells, e.g. C3 D3 (first gets the domino's left half)")
    async def place(self, interaction: discord.Interaction,
                    placement: app_commands.Range[str, 1, MAX_VALUE]) -> None:
        text = placement.strip()
        code = text if text.split()[:1] in (["place"], ["discard"]) else f"place {text.upper()}"
        await play(interaction, code)

    @place.autocomplete("placement")
    async def place_autocomplete(self, interaction: discord.Interaction, current: str):
        return await legal_choices(interaction, current, ("place", "discard"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KingdominoCog(bot))
