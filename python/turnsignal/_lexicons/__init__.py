"""The evaluators' word lists and lexicon constants, rendered from
``data/lexicons.toml`` by ``scripts/generate_tables.py`` (one module per
evaluator). The Rust core is rendered from the same file, so the two
implementations can never hold different lists."""
