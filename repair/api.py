"""The library interface: ``repair_text``, ``repair_bytes`` and ``Repairer``.

A ``Repairer`` holds the settings (and, once there is one, the model) so a
pipeline or a worker pays the set-up once; the two functions are shortcuts
that use a default one.  A ``Repairer`` pickles as its settings only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from repair import pipeline
from repair.families.base import Settings
from repair.partners import no_partners
from repair.pipeline import Job, Tools
from repair.types import Result


@dataclass
class Repairer:
    """Repairs texts with one set of settings; reuse it across documents."""

    min_confidence: float = 0.9
    placeholder: str = "〓"
    families: tuple[str, ...] | None = None
    # "default": the shipped model (if kenlm and the model are there); a path;
    # a CharLM; or None for the exact, model-free repairs only.
    model: object = "default"
    # Texts whose passages may witness what a gap held (other copies of the
    # classic, another edition, its base text for a commentary), or paths of
    # files or folders of them (read as ``load_references`` reads them).
    references: tuple = ()
    # A digitization's code → character table (GlyphTable or a TSV path).
    glyph_table: object = None
    # The references are copies of the same edition as the inputs: a character
    # they have and a document lacks is then a loss, not a variant reading,
    # and is written (repair.fill.deletions).
    same_edition: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_confidence <= 1.0:
            raise ValueError("min_confidence must be between 0 and 1")
        if len(self.placeholder) != 1:
            raise ValueError("placeholder must be a single character")
        if self.families is not None:
            from repair.families import families

            families(tuple(self.families))  # raises on unknown names
        self.references = load_references(self.references)
        self.settings = Settings(self.min_confidence, self.placeholder, tuple(self.families) if self.families else None)
        self.lm = _load_model(self.model)
        self._glyphs = None
        if self.glyph_table is not None:
            from repair.fill.glyphs import GlyphTable

            gt = self.glyph_table
            self._glyphs = gt if isinstance(gt, GlyphTable) else GlyphTable.load(gt)
        self._witnesses = None
        # In a batch, the other files each document is collated with (repair.partners).
        self._partners = None
        # The references alone, indexed completely: they also witness lost
        # characters at any boundary (the batch index holds only gap contexts).
        self._reference_index = None
        self._folded_references: tuple[str, ...] | None = None
        if self.references:
            from repair.fill.reference_witness import reference_witnesses

            self._witnesses = self._reference_index = reference_witnesses(self.references)

    @property
    def _tools(self) -> Tools:
        """What the stages use of this Repairer (read per document: a batch
        may adopt new witnesses between documents)."""
        return Tools(
            self.settings,
            self.lm,
            witnesses=self._witnesses,
            reference_index=self._reference_index,
            glyphs=self._glyphs,
            same_edition=self.same_edition,
            references=self.references,
            references_as_written=self._references_as_written,
            collations=self._collations,
            partners=self._partners or no_partners,
        )

    def repair_text(self, text: str) -> Result:
        if not isinstance(text, str):
            raise TypeError(f"repair_text takes str, not {type(text).__name__}; use repair_bytes for bytes")
        return self.run(text).result  # type: ignore[return-value]

    def repair_bytes(self, data: bytes) -> Result:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"repair_bytes takes bytes, not {type(data).__name__}")
        return self.run(bytes(data)).result  # type: ignore[return-value]

    def run(self, source: str | bytes) -> Job:
        """Take one text (or bytes) through the pipeline's stages; the job
        keeps what each stage made and how long it took."""
        return pipeline.run(Job(source, self._tools))

    def with_batch_witnesses(self, batch: Callable[[], Iterable[str]]) -> None:
        """Let the clean parts of a batch witness each other's gaps.

        ``batch`` returns the batch's texts each time it is called; it is
        called twice: once to collect the contexts of every gap, once to index
        only those contexts, so memory grows with the gaps, not the batch.
        The exactly repaired texts are kept on disk, and each document is
        collated with the few of them that share its passages (``repair.partners``;
        its gaps are credited to "text N", N its place in the batch).
        """
        from repair.partners import Kept

        exact = self.exact()
        keys: set[str] = set()
        for text in batch():
            keys |= exact_gap_keys(exact, text)
        index = self.new_batch_index(keys)
        kept = Kept()
        for n, text in enumerate(batch(), 1):
            clean = exact.repair_text(text).text
            index.add(clean)
            kept.add(f"text {n}", text, clean)
        self.adopt_batch_index(index)
        self._partners = kept.partners()

    def exact(self) -> Repairer:
        """The same settings without a model: the exact repairs only (witness texts are cleaned so)."""
        return Repairer(model=None, min_confidence=self.min_confidence, placeholder=self.placeholder)

    @staticmethod
    def new_batch_index(keys: set[str]):
        """An empty index of the batch's own texts, for exactly these gap contexts."""
        from repair.fill.witness import WitnessIndex

        index = WitnessIndex(only=keys)
        index.includes_documents = True
        return index

    def adopt_batch_index(self, index) -> None:
        """Use ``index`` as this Repairer's witnesses, keeping the references' evidence."""
        if self._witnesses is not None:
            index.include(self._witnesses)
        self._witnesses = index

    def repair_many(self, documents: Iterable[str | bytes]) -> Iterator[Result]:
        """Stream results for an iterable of documents (text or bytes)."""
        for doc in documents:
            yield self.repair_bytes(doc) if isinstance(doc, (bytes, bytearray)) else self.repair_text(doc)

    def _collations(self) -> tuple:
        """Each reference's collation index, built once (a reference of millions
        of characters takes seconds), on first use: only a document with gaps needs it."""
        if getattr(self, "_collation_indexes", None) is None:
            from repair.collate import reference_index

            self._collation_indexes = tuple(reference_index(t) for t in self.references)
        return self._collation_indexes

    def _references_as_written(self) -> tuple[str, ...]:
        """The references with their punctuation, folded as witness keys are
        (built on first use: only a lost character beside punctuation needs them)."""
        if self._folded_references is None:
            from repair.fill.witness import fold

            self._folded_references = tuple(fold(t) for t in self.references)
        return self._folded_references

    def __getstate__(self) -> dict:
        model = str(self.lm.path) if self.lm is not None else None
        return {
            "min_confidence": self.min_confidence,
            "placeholder": self.placeholder,
            "families": self.families,
            "model": model,
            "references": self.references,
            "glyph_table": self._glyphs,
            "same_edition": self.same_edition,
            # The witness index already holds the references and any batch
            # witnesses: a worker must see the same evidence as the parent.
            "witnesses": self._witnesses,
            "reference_index": self._reference_index,
            "partners": self._partners,
        }

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        witnesses = state.pop("witnesses", None)
        reference_index = state.pop("reference_index", None)
        partners = state.pop("partners", None)
        references = tuple(state.get("references", ()))
        if witnesses is not None:
            state["references"] = ()  # already in the witness index; not re-indexed per worker
        self.__init__(**state)  # type: ignore[misc]
        if witnesses is not None:
            self.references = references
            self._witnesses = witnesses
            self._reference_index = reference_index
        self._partners = partners


def load_references(items: Iterable[str | os.PathLike[str]]) -> tuple[str, ...]:
    """Reference texts from texts and paths: a file is decoded (its encoding
    guessed) and cleaned of exact damage (no model needed); a folder gives
    its files, recursively, in name order, hidden ones left out."""
    from repair.collate_store import cached_text
    from repair.io import read_input

    texts: list[str] = []
    for item in items:
        if isinstance(item, str):
            texts.append(item)
            continue
        path = Path(item)
        files = (
            sorted(p for p in path.rglob("*") if p.is_file() and not any(x.startswith(".") for x in p.parts))
            if path.is_dir()
            else [path]
        )
        exact = Repairer(model=None) if files else None
        for f in files:
            texts.append(cached_text(read_input(f), lambda data, r=exact: r.repair_bytes(data).text))  # type: ignore[union-attr]
    return tuple(texts)


def exact_gap_keys(exact: Repairer, text: str) -> set[str]:
    """The witness keys of the gaps that ``exact`` (a model-free Repairer) leaves in ``text``.

    The contexts are read in the exactly repaired text, the one the batch
    indexes, so the edits' output offsets are the ones that apply.
    """
    return result_gap_keys(exact.repair_text(text))


def result_gap_keys(result: Result) -> set[str]:
    """The witness keys of the gaps a repair left, read in its output text."""
    from dataclasses import replace

    from repair.fill.lone_boxes import box_keys
    from repair.fill.ranker import gap_keys

    edits = [replace(e, start=e.out_start, end=e.out_end) for e in result.edits]
    # A lone 囗 is asked about too: other files may read it as another character.
    return gap_keys(result.text, edits) | box_keys(result.text, edits)


def _load_model(model: object):
    """The language model to rank with, or None (then only exact repairs are made)."""
    if model is None:
        return None
    try:
        from repair.lm.model import CharLM, default_model_path
    except ImportError:
        return None
    if isinstance(model, CharLM):
        return model
    if model == "default":
        path = default_model_path()
        try:
            return CharLM(path) if path.exists() else None
        except ImportError:
            return None  # kenlm is not installed: exact repairs only
    return CharLM(model)  # an explicit path must load


_DEFAULT: Repairer | None = None


def _default() -> Repairer:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Repairer()
    return _DEFAULT


def repair_text(text: str, *, model: object = None, **settings: object) -> Result:
    """Repair a string; returns the repaired text and every edit.

    ``model``: None for the default model, a path or a ``CharLM``.
    """
    if model is not None:
        settings["model"] = model
    repairer = Repairer(**settings) if settings else _default()  # type: ignore[arg-type]
    return repairer.repair_text(text)


def repair_bytes(data: bytes, *, model: object = None, **settings: object) -> Result:
    """Decode bytes of unknown encoding, then repair; ``Result.encoding`` says what was found."""
    if model is not None:
        settings["model"] = model
    repairer = Repairer(**settings) if settings else _default()  # type: ignore[arg-type]
    return repairer.repair_bytes(data)
