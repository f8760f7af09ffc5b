"""Classify (spec §7): one module per evaluator, each a classifier built once
per policy group from the group's extraction and asked once per rule
(``lexical1``, ``lexical2``); the rows they share are ``rows``."""
