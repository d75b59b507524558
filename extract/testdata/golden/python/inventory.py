#!/usr/bin/env python3
"""Inventory management: items, stores and a small CLI.

The module exercises the shapes fileinfo must understand.
"""
from __future__ import annotations

import os, sys as system
import collections.abc as cabc
from dataclasses import dataclass, field
from typing import (
    Generic,
    TypeVar,
    overload,
)
from . import helpers
from .models import Item as ItemModel, Price
from ..shared.util import *

T = TypeVar("T")
log = helpers.get_logger(__name__)


# A decorator that counts calls.
def counted(fn):
    """Wrap fn so that each call is counted."""
    calls = 0

    def wrapper(*args, **kwargs):
        nonlocal calls
        calls += 1
        return fn(*args, **kwargs)

    return wrapper


@dataclass(frozen=True)
class Item:
    '''One thing on a shelf.'''

    name: str
    price: int = 0
    tags: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.name.title()


class Store(Generic[T], cabc.Mapping):
    """Holds items by name.

    Safe for a single thread only.
    """

    class Error(Exception):
        """Raised for unknown items."""

    def __init__(self, items=None):
        super().__init__()
        self._items: dict[str, T] = dict(items or {})

    @overload
    def get(self, name: str) -> T: ...

    @overload
    def get(self, name: str, default: T) -> T: ...

    def get(self, name, default=None):
        # Look the item up, falling back to default.
        try:
            return self._items[name]
        except KeyError:
            if default is None:
                raise self.Error(name)
            return default

    @classmethod
    def from_env(cls) -> "Store[str]":
        return cls({k: v for k, v in os.environ.items() if k.startswith("ITEM_")})

    @staticmethod
    def _normalise(name):
        return name.strip().lower()

    @counted
    def __getitem__(self, name):
        return self.get(self._normalise(name))

    def __iter__(self):
        return iter(sorted(self._items, key=lambda k: self._normalise(k)))

    def __len__(self):
        return len(self._items)

    async def refresh(self, source):
        async with source.connect() as conn:
            rows = await conn.fetch_all()
        self._items.update((r.name, r) for r in map(ItemModel.from_row, rows))


def total(items, *, discount=lambda p: p):
    """Sum the prices of items after discount."""
    return sum(discount(Price(i.price)).cents for i in items)


def main(argv=system.argv):
    store = Store.from_env()
    for name in argv[1:]:
        print(f"{name}: {store[name]!r}")
    match argv:
        case [_, "--total", *rest]:
            print(total(store[n] for n in rest))
        case _:
            pass
    return 0


if __name__ == "__main__":
    system.exit(main())
