"""Two classes of values that split one fault into many patterns: letter-only random ids and
RFC 1123 / 2822 dates. Pure tests of the pattern engine, no database.

A labelled set in both directions: ids made only of letters that must become ``<*>``, and
tokens that look like them (English words, CamelCase exception names, enum values, HTTP
header names, environment variables, SQL and snake_case names) that must stay literal.
"""

import random
import string

import pytest

from failures.patterns import WILDCARD, group_messages, template_of
from failures.patterns.letters import is_random_id

# Letter-only ids in the shapes providers print (base62 after an id prefix, or bare tokens).
# Drawn at random once; none was left out for failing.
LETTER_IDS = """
    req_ipbNClShVPwYforduMlJRUBT req_dKbLqtAmlhLHUXKdSuNvqlzt call_XPGjrrQSlBdvIcAqGsHAzQlt
    call_KxzLbtKMJIHBWRHBffCwgBXz msg_dmGpzagDmkbIywlvwOmCceIi
    chatcmpl-YXPVmPSgdmAhjLDchFTHiLsRVEEUe
    cus_PTwYhZMqhblGwO sess_evgkOSMBSrlcemwRhnIq batch_FelbrWgLENnzwhVHlcpyNcnn
    file-WFOydWSTADqpohreQKklPudb run_FkMrcFSbrXXanOZCQoCIBiwv thread_qSaSyMOglZNJPxrGqmqrHkwY
    evt_GFSFiImFzvWeyQPHmTkfdyvp pi_dHHjmJxMaHuXXbhGRdZOegKe sub_lqGtuAKNHVJvuR
    YUdoZGPuRsappdhu tbuhgCvlkEsAzwiz tpIoNxcDrGInfipWtJiC dqpjhJEuZkGyeRvnyiQL
    DBOIdzRDZQCxnsSafhjDWX fnKEYOrOibWkLYtIpLSmYvVz CJTlXzQCJZBqXnYpoPHrRsKc
    MpNJpwDZZxhLVowAxiVicJMGtPXg iZRGTozigxGPVqaakCZvkEkGMkTgqxhE klTfSGQqRCICuSYKuolVOdNhxeaHIAOv
    BXUgoZAqcKvNJrjU uzGgbSwIekCaCQyBex NbEynshNJYksPhcDmuzl DpkebhmqAWPYFOrtMQwUrxtf
    JEojmByjeZXrWxVaZZDHNGEmbnjUtcbFhJwohOow
""".split()

# Tokens that must stay literal: they name the fault, or are the wording of the message.
LOOK_ALIKES = """
    ConnectionRefusedError ConnectionResetError PermissionDenied ModuleNotFoundError
    UnicodeDecodeError JSONDecodeError ReadTimeoutError SSLCertVerificationError
    HTTPSConnectionPool XMLHttpRequest NullPointerException IllegalArgumentException
    ConcurrentModificationException ClassNotFoundException OutOfMemoryError StackOverflowError
    NoSuchBucket AccessDeniedException ThrottlingException ResourceNotFoundException
    ProvisionedThroughputExceededException InvalidSignatureException ExpiredTokenException
    RequestLimitExceeded KafkaTimeoutError OperationalError IntegrityError ObjectDoesNotExist
    MultipleObjectsReturned SynchronousOnlyOperation ForeignKeyViolation SerializationFailure
    InFailedSqlTransaction RateLimitError APIConnectionError AuthenticationError
    BadRequestError InternalServerError ContextWindowExceededError NSURLErrorDomain
    NSPOSIXErrorDomain kCFErrorDomainCFNetwork JavaScriptCore iPhoneSimulator
    getElementById addEventListener querySelectorAll componentDidMount setTimeout
    lpszFileName hWndParent dwAvgBytesPerSec CrashLoopBackOff ImagePullBackOff ErrImagePull
    CreateContainerConfigError OOMKilled ContainerCreating FailedScheduling NodeNotReady
    InvalidParameterValue DBInstanceNotFound PERMISSION_DENIED RESOURCE_EXHAUSTED
    DEADLINE_EXCEEDED ERR_CONNECTION_REFUSED ECONNRESET ETIMEDOUT X-RateLimit-Remaining
    Retry-After Content-Type X-Amzn-RequestId Access-Control-Allow-Origin WWW-Authenticate
    X-Forwarded-For anthropic-ratelimit-requests-remaining x-ms-client-request-id
    AWS_SECRET_ACCESS_KEY OPENAI_API_KEY DJANGO_SETTINGS_MODULE KUBERNETES_SERVICE_HOST
    PYTHONPATH LD_LIBRARY_PATH pg_stat_activity idx_users_email users_email_key
    statement_timeout max_connections information_schema read_url max_retries_exceeded
    tool_use tool_result overloaded_error rate_limit_error invalid_request_error
    context_length_exceeded Authentication unrecognized internationalization Unfortunately
    KafkaBackend SqlJinjaLexer VpcEndpointId IPvAnyNetwork MisbehavedRawIO
    InProgress NotStarted CANCELLED BackOff Evicted ErrImageNeverPull InvalidImageName
    InvalidClientTokenId SignatureDoesNotMatch UnrecognizedClientException ValidationException
    ConditionalCheckFailedException TransactionCanceledException FAILED_PRECONDITION
    AuthorizationFailed SubscriptionNotFound ResourceGroupNotFound UniqueViolation
    DeadlockDetected QueryCanceled LockNotAvailable ER_LOCK_DEADLOCK insufficient_quota
    model_not_found SQLIntegrityConstraintViolationException SocketTimeoutException
    UnknownHostException SSLHandshakeException EOFException CompletionException
    HttpClientErrorException MethodArgumentNotValidException DataIntegrityViolationException
    BeanCreationException NoSuchBeanDefinitionException UnsatisfiedDependencyException
    NullReferenceException InvalidOperationException TaskCanceledException HttpRequestException
    DbUpdateConcurrencyException TypeError ReferenceError ERR_MODULE_NOT_FOUND EADDRINUSE
    ENOTFOUND DeadlineExceeded ConnectionAborted WouldBlock UnexpectedEof NSCocoaErrorDomain
    kCFStreamErrorDomainSSL NSURLErrorCannotFindHost NSURLErrorTimedOut If-None-Match
    X-GitHub-Request-Id CF-RAY X-Request-ID x-goog-api-client Strict-Transport-Security
    X-XSS-Protection X-Content-Type-Options Sec-WebSocket-Accept GOOGLE_APPLICATION_CREDENTIALS
    HF_HUB_OFFLINE CUDA_VISIBLE_DEVICES PYTORCH_CUDA_ALLOC_CONF NODE_OPTIONS GraphQLError
    JWTExpiredSignatureError PKIXPathBuildingFailed SunCertPathBuilderException
    NoClassDefFoundError UnsupportedClassVersionError ExceptionInInitializerError
    PrismaClientKnownRequestError SequelizeConnectionRefusedError MongoServerSelectionError
    ECONNREFUSED ESOCKETTIMEDOUT PostgreSQL MySQLdb RabbitMQ wxPython
""".split()

# Wordings that carry such ids.
ID_MESSAGES = [
    "anthropic.InternalServerError: Error code: 529 - overloaded, request {}",
    "The following tool_call_ids did not have response messages: {}",
    "Request {} failed: upstream connect error or disconnect/reset before headers",
    "stripe.error.InvalidRequestError: No such object: {}",
    "session {} expired, please sign in again",
]


def _held(token: str, message: str) -> bool:
    return token in template_of(message).split()


def test_labelled_letter_ids_collapse_and_look_alikes_stay():
    caught = [i for i in LETTER_IDS if not _held(i, f"request {i} failed")]
    kept = [t for t in LOOK_ALIKES if _held(t, f"request {t} failed")]
    recall = len(caught) / len(LETTER_IDS)
    print(
        f"letter ids masked {len(caught)}/{len(LETTER_IDS)} (recall {recall:.2f}); "
        f"look-alikes kept {len(kept)}/{len(LOOK_ALIKES)}"
    )
    assert sorted(set(LOOK_ALIKES) - set(kept)) == []
    assert recall >= 0.9


@pytest.mark.parametrize("token", LOOK_ALIKES)
def test_look_alike_stays_literal_in_other_wordings(token):
    for message in (
        f"{token}: connection to the server was lost",
        f"raised {token}.",
        f"header ({token}) missing",
        f"got '{token}' then {token}!",
    ):
        assert template_of(message).count(token) == message.count(token), message


@pytest.mark.parametrize("wording", ID_MESSAGES)
def test_one_fault_with_letter_ids_is_one_pattern(wording):
    messages = [wording.format(i) for i in LETTER_IDS if is_random_id(i)]
    patterns = {fp for fp, _ in group_messages(messages)}
    assert len(patterns) == 1, {template_of(m) for m in messages}
    assert WILDCARD in template_of(messages[0])


def test_id_prefixes_and_punctuation_around_the_id():
    assert template_of("tool result missing for call_XPGjrrQSlBdvIcAqGsHAzQlt.") == (
        "tool result missing for <*>."
    )
    assert template_of("(req_dKbLqtAmlhLHUXKdSuNvqlzt) overloaded") == "(<*>) overloaded"
    # A dotted name, a path or a word with digits is another rule's business.
    assert template_of("openai.RateLimitError: slow down") == "openai.RateLimitError: slow down"


def test_random_base62_letter_ids_are_mostly_caught():
    """Recall on fresh random ids: letters only, as base62 ids are one time in 70 or so."""
    rng = random.Random(2026)
    letters = string.ascii_letters

    def draw(n):
        return "".join(rng.choice(letters) for _ in range(n))

    bare = sum(is_random_id(draw(24)) for _ in range(2000)) / 2000
    prefixed = sum(is_random_id("req_" + draw(24)) for _ in range(2000)) / 2000
    print(f"random 24-letter ids caught: bare {bare:.3f}, after a prefix {prefixed:.3f}")
    assert bare >= 0.88 and prefixed >= 0.95


# --- RFC 1123 / 2822 dates ----------------------------------------------------------------------

DATES = [
    "Mon, 09 Nov 2026 07:01:22 GMT",
    "Tue, 10 Nov 2026 23:59:59 GMT",
    "Wed, 11 Nov 2026 00:00:01 GMT",
    "Sat, 5 Dec 2026 07:01:22 GMT",
    "Sun, 03 Jan 2027 12:00:00 GMT",
]
OFFSET_DATES = [
    "Wed, 12 Nov 2026 07:01:22 +0000",
    "Thu, 13 Nov 2026 08:15:00 -0500",
    "Fri, 1 May 2026 10:00:00 +0200",
    "12 Nov 2026 07:01:22 +0000",
    "Tue, 31 Mar 2026 07:01 PDT",
]

DATE_WORDINGS = [
    "Warning  Unhealthy  {}  kubelet  Readiness probe failed: HTTP probe failed",
    "Date: {}",
    "upstream answered 503 Service Unavailable (Date: {})",
    "Received: from mx.example.org by smtp; {}",
    "cookie expired at {}; sign in again",
]


@pytest.mark.parametrize("wording", DATE_WORDINGS)
def test_messages_differing_only_by_date_share_a_fingerprint(wording):
    messages = [wording.format(d) for d in DATES + OFFSET_DATES]
    templates = {template_of(m) for m in messages}
    assert len(templates) == 1, templates
    assert len({fp for fp, _ in group_messages(messages)}) == 1
    (template,) = templates
    for word in ("Mon", "Wed", "Sat", "Nov", "Dec", "GMT", "+0000"):
        assert word not in template.split(), template


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Date: Wed, 12 Nov 2026 07:01:22 GMT", "Date: <*>"),
        ("expires Wed, 12-Nov-26 07:01:22 GMT", "expires <*>"),
        ("set Wed, 12 Nov 2026", "set <*>"),
        (
            "at Wed Nov 12 2026 07:01:22 GMT+0000 (Coordinated Universal Time)",
            "at <*> (Coordinated Universal Time)",
        ),
        ("job ran at Nov 12, 2026 7:01:22 PM and failed", "job ran at <*> and failed"),
        ("retry at 7:01 AM", "retry at <*>"),
        # A log level or a word after the date is not a zone; a day and month alone are no date.
        ("Wed, 12 Nov 2026 07:01:22 INFO started", "<*> INFO started"),
        ("retried 3 Jan times", "retried <*> Jan times"),
        ("Nov 12 report: 3 errors", "Nov <*> report: <*> errors"),
    ],
)
def test_rfc_date_shapes(message, expected):
    assert template_of(message) == expected


def test_faults_around_a_date_stay_apart():
    messages = [
        f"{d} kubelet {probe} probe failed: connection refused"
        for d in DATES
        for probe in ("Readiness", "Liveness", "Startup")
    ]
    assert len({fp for fp, _ in group_messages(messages)}) == 3
