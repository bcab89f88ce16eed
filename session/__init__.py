"""Discord-free session layer: lifecycle, persistence, move picking, text and messages."""
