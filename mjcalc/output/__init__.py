"""What the front ends print: a result as JSON (record, jsonl) or a table (table, fit, table_lib), a ruleset's
items (rules_table), a waits report (waits). No scoring here."""
