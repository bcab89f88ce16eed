"""Localised slash-command names and descriptions from the one text catalog.

Keys: ``cmd.<qualified name>.name`` / ``.desc`` and ``cmd.<command>.<param>.name`` / ``.desc``.
English is the default written in the code, so only Polish and Ukrainian are looked up.
"""

from __future__ import annotations

import discord
from discord import app_commands

from text.catalog import catalog

_LOCALES = {discord.Locale.polish: "pl", discord.Locale.ukrainian: "uk"}


def key_for(string: app_commands.locale_str, context: app_commands.TranslationContext) -> str | None:
    location, data = context.location, context.data
    loc = app_commands.TranslationContextLocation
    if location in (loc.command_name, loc.group_name):
        return f"cmd.{data.qualified_name}.name"
    if location in (loc.command_description, loc.group_description):
        return f"cmd.{data.qualified_name}.desc"
    if location is loc.parameter_name:
        return f"cmd.{data.command.qualified_name}.{data.name}.name"
    if location is loc.parameter_description:
        return f"cmd.{data.command.qualified_name}.{data.name}.desc"
    if location is loc.choice_name:
        return string.extras.get("key")
    return None


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string, locale, context):
        lang = _LOCALES.get(locale)
        key = key_for(string, context)
        if lang is None or key is None:
            return None
        # only the language's own file: an English fallback would be no translation
        return catalog(lang).get(key)
