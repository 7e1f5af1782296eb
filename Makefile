# The README's two commands: `make setup` (a virtual environment in .venv with the project, KenLM's
# training tools, and where the machine allows it what the optional tests need) and `make test`.
PYTHON ?= python3
VENV ?= .venv
PYTEST_ARGS ?=

.PHONY: setup test lint kenlm-tools

setup:
	PYTHON='$(PYTHON)' VENV='$(VENV)' bash scripts/setup.sh

kenlm-tools:
	PYTHON='$(VENV)/bin/python' bash scripts/build_kenlm.sh

# pytest's exit code 5 (no tests collected) is a failure too.
test:
	@test -x '$(VENV)/bin/python' || { echo "no $(VENV): run make setup first"; exit 1; }
	@'$(VENV)/bin/python' -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

lint:
	ruff check repair tests scripts benchmarks
