# Set-up and test entry points; the README's two commands are `make setup` and `python -m pytest`.
PYTHON ?= python

.PHONY: setup test lint kenlm-tools

setup:
	$(PYTHON) -m pip install -e '.[test]'
	bash scripts/build_kenlm.sh

kenlm-tools:
	bash scripts/build_kenlm.sh

test:
	$(PYTHON) -m pytest

lint:
	ruff check repair tests scripts benchmarks
