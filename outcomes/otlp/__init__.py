"""OTLP/HTTP trace ingestion: spans of instrumented agents become outcomes and failures.

``decoding`` turns a request body into the official message classes, ``mapping`` (with
``attributes``) turns spans into the outcomes POST /outcomes/bulk takes, ``faults`` decides which
failed spans record a failure (one per fault of a trace), ``services`` records them through the
same ledger service and keeps the refusals, ``views`` answers as the OTLP/HTTP specification says.
"""
