"""Failure records: the write and read paths, their API and their markdown."""
