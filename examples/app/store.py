"""Persistence for the inventory."""

import sqlite3

SCHEMA_VERSION = 2


class Store:
    """A SQLite-backed item store."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)

    def save(self, sku, name, quantity):
        self.db.execute("INSERT OR REPLACE INTO items VALUES (?, ?, ?)", (sku, name, quantity))

    def load(self, sku):
        return self.db.execute("SELECT * FROM items WHERE sku = ?", (sku,)).fetchone()


def migrate(db):
    """Bring the schema up to SCHEMA_VERSION."""
    db.execute("CREATE TABLE IF NOT EXISTS items (sku TEXT PRIMARY KEY, name TEXT, quantity INT)")
