"""The rules engine: pure Python, no Flask, no database."""
