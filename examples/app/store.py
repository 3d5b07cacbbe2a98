"""Persistence for the inventory: a SQLite table of items."""

import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass

SCHEMA_VERSION = 2


@dataclass(frozen=True)
class Row:
    """One stored item."""

    sku: str
    name: str
    quantity: int


class Store:
    """A SQLite-backed item store."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path)
        migrate(self.db)

    def save(
        self,
        sku: str,
        name: str,
        quantity: int,
    ) -> None:
        """Insert or replace one item."""
        self.db.execute("INSERT OR REPLACE INTO items VALUES (?, ?, ?)", (sku, name, quantity))

    def load(self, sku: str) -> Row | None:
        """The item with this SKU, or None."""
        found = self.db.execute("SELECT * FROM items WHERE sku = ?", (sku,)).fetchone()
        return Row(*found) if found else None

    @contextmanager
    def transaction(self):
        """Commit on success, roll back on error."""
        try:
            yield self
            self.db.commit()
        except Exception:
            self.db.rollback()
            raise


def migrate(db: sqlite3.Connection) -> None:
    """Bring the schema up to SCHEMA_VERSION."""
    db.execute("CREATE TABLE IF NOT EXISTS items (sku TEXT PRIMARY KEY, name TEXT, quantity INT)")
