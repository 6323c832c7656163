"""Composition: the table app, per-game views and input, persistence, the CLI."""
