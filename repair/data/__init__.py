"""Generated data tables (see scripts/)."""
