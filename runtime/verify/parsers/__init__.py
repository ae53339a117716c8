"""Parsers behind the evidence view: prose (sentences with context), tables (pipe, CSV,
fixed-width, "Key: value"), JSON leaves. Each returns character spans; view.py turns them into
byte spans of the record."""
