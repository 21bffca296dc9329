"""Synthetic error messages for the benchmarks: message shapes crossed with services and objects.

A pattern is one (shape, service, object) triple. Its literal words (the shape's wording, the
service and the object) survive ``template_of``; the values put in ``{n}``, ``{uuid}``... slots are
masked by it. So every fresh message of a triple maps to the same stored template and pattern,
which is what an agent's repeated failure looks like. No Django here, only the pattern engine.
"""

import random
import string
import uuid

# Literal words that name the failing dependency and the thing it worked on. Plain lower-case
# words without digits: the normaliser keeps those, so they tell patterns apart.
SERVICES = """
    twilio stripe github gitlab slack openai anthropic postgres redis mysql mongo elastic kafka
    rabbit celery sentry datadog pagerduty jira linear notion confluence salesforce hubspot zendesk
    shopify paypal braintree plaid segment mixpanel amplitude auth okta vault consul nomad docker
    kube helm terraform ansible jenkins circleci buildkite npm pypi cargo maven gradle bazel
    sendgrid mailgun mailchimp intercom airtable dropbox figma vercel netlify cloudflare fastly
""".split()
OBJECTS = """
    invoices users orders payments refunds customers accounts sessions tokens webhooks events
    messages threads channels issues commits branches builds deployments releases artifacts
    embeddings documents chunks prompts completions models datasets tables indexes migrations
    queues jobs schedules reports dashboards metrics alerts incidents tickets contacts leads
    subscriptions plans coupons
""".split()

# (error_type, shape). Slots in braces: {svc} and {obj} are the pattern's literal words, the rest
# are values filled per message (see VALUES). Wording follows the error families agents meet:
# timeouts, rate limits, connections, lookups, validation, tools, resources, tests, git.
SHAPES = [
    ("timeout", "{Svc} API timeout after {n} seconds while fetching {obj}"),
    ("timeout", "litellm.Timeout: {svc} request for {obj} exceeded {f}s (request_id={reqid})"),
    ("rate_limit", "HTTP 429 Too Many Requests from {svc} on {path}: retry after {n}s ({obj})"),
    ("rate_limit", "{svc} rate limit exceeded for {obj}: {n} requests in {m} seconds"),
    (
        "connection",
        "{svc} {obj} sync failed: upstream returned 503 Service Unavailable after {n} attempts",
    ),
    ("connection", "ssl handshake with {host} failed for {svc} {obj}: certificate verify failed"),
    ("connection", "connection reset by peer while streaming {obj} from {svc} after {n} bytes"),
    ("not_found", "{Svc}Error: {obj} not found (id={uuid})"),
    ("not_found", "{svc} returned 404 Not Found for {obj} {hexid}"),
    ("key_error", "KeyError: '{obj}_id' in {svc}_client.parse_{obj} at record {n}"),
    (
        "integrity",
        'duplicate key value violates unique constraint "{obj}_{svc}_key"\n'
        "DETAIL: Key (email)=({email}) already exists.",
    ),
    (
        "deadlock",
        "Deadlock detected while updating {obj} in {svc}: process {n} waits for "
        "ShareLock on transaction {m}",
    ),
    ("tool", "Tool call failed: function '{svc}_{obj}' is not defined in TOOLS.md (call {n})"),
    ("permission", "Permission denied writing {obj} export for {svc} to {file}"),
    ("memory", "OutOfMemory: {svc} worker killed while embedding {n} {obj} chunks"),
    ("memory", "Job {n} for {obj} on {svc} exceeded memory limit of {m} MB"),
    ("validation", "Model returned invalid JSON for {svc} {obj} schema at position {n}"),
    ("validation", "ValidationError: {svc} {obj} payload missing field 'status' (row {n})"),
    ("test", "AssertionError in test_{obj}_{svc}: expected {n} got {m}"),
    ("auth", "{svc} rejected credentials for {obj} scope: 401 Unauthorized (key ending {hexid})"),
    ("webhook", "{svc} webhook signature mismatch for {obj} event {reqid}"),
    ("git", "git push to {svc}/{obj} rejected: non-fast-forward (hint: {n} commits behind)"),
    (
        "exception",
        'Traceback (most recent call last):\n  File "{file}", line {n}, in sync_{obj}\n'
        '    raise ValueError("bad {svc} payload")\nValueError: bad {svc} payload at offset {m}',
    ),
    ("quota", "{svc} quota exhausted for {obj}: used {n} of {m} units this hour"),
]

_HEX = "0123456789abcdef"


def _hex(rng: random.Random, size: int) -> str:
    # Starts with a digit so the run always counts as an id, never as a word.
    return rng.choice("123456789") + "".join(rng.choices(_HEX, k=size - 1))


# Value slots and how to fill them; each draw is a fresh value.
VALUES = {
    "n": lambda r: str(r.randint(2, 99999)),
    "m": lambda r: str(r.randint(2, 99999)),
    "f": lambda r: f"{r.randint(1, 900)}.{r.randint(0, 9)}",
    "uuid": lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)),
    "hexid": lambda r: _hex(r, 12),
    "reqid": lambda r: "req_" + _hex(r, 12),
    "path": lambda r: f"/v{r.randint(1, 3)}/{r.choice(OBJECTS)}/{r.randint(1, 10**6)}",
    "host": lambda r: f"api-{r.randint(1, 99)}.{r.choice(SERVICES)}.example.com",
    "email": lambda r: "".join(r.choices(string.ascii_lowercase, k=8)) + "@example.com",
    "file": lambda r: f"/srv/app/{r.choice(OBJECTS)}/{_hex(r, 10)}.py",
}


def slots_of(shape: str) -> list[str]:
    """The value slots a shape uses, in order."""
    return [name for _, name, _, _ in string.Formatter().parse(shape) if name and name in VALUES]


class Message:
    """One pattern's message maker: literal words fixed, value slots filled fresh on each call."""

    __slots__ = ("error_type", "shape", "svc", "obj", "slots", "slug")

    def __init__(self, shape_index: int, svc: str, obj: str):
        self.error_type, self.shape = SHAPES[shape_index]
        self.svc, self.obj = svc, obj
        self.slots = slots_of(self.shape)
        self.slug = f"{svc}_{obj}_{self.error_type}_{shape_index}"

    def make(self, rng: random.Random) -> str:
        values = {name: VALUES[name](rng) for name in self.slots}
        return self.shape.format(svc=self.svc, Svc=self.svc.capitalize(), obj=self.obj, **values)


def all_makers() -> list[Message]:
    """Every (shape, service, object) triple, in a fixed order."""
    return [
        Message(i, svc, obj) for i in range(len(SHAPES)) for svc in SERVICES for obj in OBJECTS
    ]
