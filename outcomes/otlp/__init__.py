"""OTLP/HTTP trace ingestion: spans of instrumented agents become outcomes and failures.

``decoding`` turns a request body into the official message classes, ``mapping`` turns spans
into the outcomes POST /outcomes/bulk takes, ``services`` records them through the same ledger
service, ``views`` answers as the OTLP/HTTP specification says.
"""
