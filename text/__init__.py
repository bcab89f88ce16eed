"""Every word Stolik shows: the catalog (``text.catalog``) and its locale files.

It sits below ``render/``, ``session/`` and ``cogs/``, which all import it.
"""
