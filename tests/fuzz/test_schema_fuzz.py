"""Hostile-input fuzzing of every API operation, generated from the OpenAPI schema.

For each operation of /api/v1/schema, schemathesis sends its coverage cases (boundary values,
missing and wrong-typed fields, unexpected methods) and then Hypothesis-generated cases, valid and
invalid, with a write key, in process through the WSGI application. Every answer must be no server
error and must match the schema: a documented status, a documented content type, a body of the
documented shape and the documented headers. Generation is derandomized, so a run is repeatable.
"""

from collections import Counter

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.api.services import api_key_create
from config.wsgi import application

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
# Generated cases per operation and mode, on top of the coverage cases; with 15 operations a
# run sends over 5,000 requests in all. MIN_CASES keeps the run from shrinking unnoticed.
EXAMPLES = 140
MIN_CASES = 5000
MIN_CASES_PER_OPERATION = 50
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


class Fuzz:
    """Sends cases and keeps the first failure of each kind, so one run reports them all."""

    def __init__(self, headers: dict):
        self.headers = headers
        self.sent: Counter[str] = Counter()
        self.failures: dict[tuple, str] = {}

    def send(self, case) -> None:
        self.sent[case.operation.label] += 1
        try:
            case.call_and_validate(headers=self.headers, checks=CHECKS)
        except (AssertionError, BaseExceptionGroup) as exc:
            report = str(exc)
            # One entry per operation and kind of failure ("- ST101 Server error" lines).
            kind = (
                case.operation.label,
                *sorted(line for line in report.splitlines() if line.startswith("- ST")),
            )
            self.failures.setdefault(kind, report)

    def operation(self, schema, operation) -> None:
        coverage = schema.config.generation_for(operation=operation, phase="coverage")
        for case in schema.iter_coverage_cases(
            operation, generation_modes=MODES, generation_config=coverage
        ):
            self.send(case)
        for mode in MODES:

            @FUZZ_SETTINGS
            @given(case=operation.as_strategy(generation_mode=mode))
            def generated(case):
                self.send(case)

            try:
                generated()
            except Unsatisfiable:
                # An operation without parameters or body has no invalid input to generate.
                if mode is not GenerationMode.NEGATIVE:
                    raise


def test_every_operation_answers_within_its_schema(transactional_db, in_process):
    # transactional_db: writes commit as in production, so on-commit work and the idempotency
    # records' unique checks run for real.
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema?format=json", application)
    # Every case carries the write key; invalid keys are tested in tests/api/test_auth.py.
    schema.config.generation.update(deterministic=True, with_security_parameters=False)
    raw = api_key_create(name="fuzzer", scope="write").raw
    fuzz = Fuzz({"Authorization": f"Bearer {raw}"})
    operations = [result.ok() for result in schema.get_all_operations()]

    for operation in operations:
        fuzz.operation(schema, operation)

    total = sum(fuzz.sent.values())
    assert not fuzz.failures, (
        f"{len(fuzz.failures)} kinds of failure in {total} cases:\n\n"
        + "\n\n".join(fuzz.failures.values())
    )
    for operation in operations:
        # An operation without parameters or body has only a handful of distinct requests.
        floor = MIN_CASES_PER_OPERATION if any(operation.iter_parameters()) else 1
        assert fuzz.sent[operation.label] >= floor, (operation.label, fuzz.sent)
    assert total >= MIN_CASES, f"only {total} cases were generated"
    print(f"\n{total} cases over {len(operations)} operations")
