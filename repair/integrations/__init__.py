"""Adapters for data-processing frameworks (optional extras).

Nothing here is imported by ``repair`` itself: each adapter imports its
framework lazily, so ``import repair`` never needs them.  ``repair.integrations.ray``
repairs a column of a Ray Data dataset (``pip install -e .[ray]``).
"""
