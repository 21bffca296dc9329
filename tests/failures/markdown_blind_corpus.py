"""Real-world agent text: error messages, paths, names, code and numbers as tools print them.

Every ASCII punctuation mark appears at the start, in the middle and at the end of some value;
there are newlines, tabs, long values and unicode. Written without reading the markdown
renderer under test; each entry is (name, field, value).
"""

CASES: list[tuple[str, str, str]] = [
    # ------------------------------------------------------------------
    # Python built-in exceptions
    # ------------------------------------------------------------------
    ("python_keyerror_user_id", "error", "KeyError: 'user_id'"),
    (
        "python_attributeerror_nonetype_get",
        "error",
        "AttributeError: 'NoneType' object has no attribute 'get'",
    ),
    ("python_modulenotfound_dotted", "error", "ModuleNotFoundError: No module named 'foo.bar'"),
    ("python_typeerror_not_subscriptable_bare", "error", "'NoneType' object is not subscriptable"),
    (
        "python_typeerror_missing_positional",
        "error",
        "TypeError: fetch_user() missing 1 required positional argument: 'user_id'",
    ),
    (
        "python_typeerror_unexpected_kwarg_init",
        "error",
        "TypeError: __init__() got an unexpected keyword argument 'timeout'",
    ),
    ("python_valueerror_unpack", "error", "ValueError: too many values to unpack (expected 2)"),
    (
        "python_valueerror_int_literal",
        "error",
        "ValueError: invalid literal for int() with base 10: '3.14'",
    ),
    ("python_indexerror_list", "error", "IndexError: list index out of range"),
    ("python_zerodivision", "error", "ZeroDivisionError: division by zero"),
    (
        "python_filenotfound_errno2",
        "error",
        "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/data/input.csv'",
    ),
    (
        "python_permissionerror_errno13",
        "error",
        "PermissionError: [Errno 13] Permission denied: '/var/log/app.log'",
    ),
    (
        "python_recursionerror",
        "error",
        "RecursionError: maximum recursion depth exceeded while calling a Python object",
    ),
    (
        "python_unicodedecodeerror_0xff",
        "error",
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
    ),
    (
        "python_unicodeencodeerror_ascii",
        "error",
        "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 3: ordinal not in range(128)",
    ),
    (
        "python_jsondecodeerror_expecting_value",
        "error",
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    ),
    (
        "python_jsondecodeerror_property_name",
        "error",
        "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    ),
    ("python_syntaxerror_paren_never_closed", "error", "SyntaxError: '(' was never closed"),
    ("python_syntaxerror_fstring", "error", "SyntaxError: f-string: expecting '}'"),
    ("python_indentationerror", "error", "IndentationError: unexpected indent"),
    (
        "python_importerror_circular",
        "error",
        "ImportError: cannot import name 'Session' from partially initialized module 'app.db' (most likely due to a circular import) (/app/app/db/__init__.py)",
    ),
    (
        "python_subprocess_called_process_error",
        "error",
        "subprocess.CalledProcessError: Command '['make', 'test']' returned non-zero exit status 2.",
    ),
    ("python_asyncio_loop_closed", "error", "RuntimeError: Event loop is closed"),
    (
        "python_asyncio_run_nested",
        "error",
        "RuntimeError: asyncio.run() cannot be called from a running event loop",
    ),
    (
        "python_dict_changed_size",
        "error",
        "RuntimeError: dictionary changed size during iteration",
    ),
    (
        "python_winerror_32_temp_file",
        "error",
        "PermissionError: [WinError 32] The process cannot access the file because it is being used by another process: 'C:\\Users\\runner\\AppData\\Local\\Temp\\x.tmp'",
    ),
    ("python_re_error_unbalanced", "error", "re.error: unbalanced parenthesis at position 7"),
    ("python_traceback_header_truncated", "error", "Traceback (most recent call last):"),
    (
        "python_traceback_full_filenotfound",
        "error",
        "Traceback (most recent call last):\n"
        '  File "/app/main.py", line 42, in <module>\n'
        "    main()\n"
        '  File "/app/main.py", line 37, in main\n'
        '    data = load(cfg["path"])\n'
        '  File "/app/loader.py", line 12, in load\n'
        "    with open(path) as fh:\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'data/users.json'",
    ),
    (
        "python_311_traceback_caret_markers",
        "error",
        '  File "/app/calc.py", line 8, in ratio\n'
        "    return total / count\n"
        "           ~~~~~~^~~~~~~\n"
        "ZeroDivisionError: division by zero",
    ),
    (
        "python_repl_keyboardinterrupt",
        "error",
        ">>> while True: pass\n"
        "...\n"
        "^CTraceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "KeyboardInterrupt",
    ),
    (
        "pytest_assertion_rewrite",
        "error",
        "AssertionError: assert 200 == 404\n +  where 200 = <Response [200]>.status_code",
    ),
    (
        "pytest_short_summary_line",
        "error",
        "FAILED tests/test_api.py::TestUsers::test_create[param-1] - KeyError: 'id'",
    ),
    (
        "pydantic_v1_validation_error",
        "error",
        "1 validation error for User\nemail\n  value is not a valid email address (type=value_error.email)",
    ),
    (
        "pydantic_v2_validation_error",
        "error",
        "1 validation error for User\n"
        "age\n"
        "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='abc', input_type=str]\n"
        "    For further information visit https://errors.pydantic.dev/2.5/v/int_parsing",
    ),
    (
        "pyyaml_scanner_mapping_values",
        "error",
        'yaml.scanner.ScannerError: mapping values are not allowed here\n  in "config.yaml", line 3, column 9',
    ),
    ("pyyaml_tab_character", "error", "found character '\\t' that cannot start any token"),
    (
        "jinja2_undefined_dict",
        "error",
        "jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'name'",
    ),
    (
        "jinja2_syntax_unexpected_brace",
        "error",
        "jinja2.exceptions.TemplateSyntaxError: unexpected '}'",
    ),
    (
        "pandas_parsererror_trailing_comma_row",
        "error",
        "pandas.errors.ParserError: Error tokenizing data. C error: Expected 3 fields in line 2, saw 4\n"
        "id,name,email\n"
        "1,Ada,ada@example.com,",
    ),
    (
        "pandas_keyerror_column",
        "error",
        "KeyError: \"None of [Index(['user_id', 'created_at'], dtype='object')] are in the [columns]\"",
    ),
    (
        "numpy_broadcast_shapes",
        "error",
        "ValueError: operands could not be broadcast together with shapes (3,4) (4,3) ",
    ),
    (
        "redis_py_connection_refused",
        "error",
        "redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection refused.",
    ),
    (
        "pymongo_server_selection_timeout",
        "error",
        "pymongo.errors.ServerSelectionTimeoutError: localhost:27017: [Errno 111] Connection refused, Timeout: 30s, Topology Description: <TopologyDescription topology_type: Unknown, servers: [<ServerDescription ('localhost', 27017) server_type: Unknown, rtt: None, error=AutoReconnect('localhost:27017: [Errno 111] Connection refused')>]>",
    ),
    ("sqlite3_database_locked", "error", "sqlite3.OperationalError: database is locked"),
    ("sqlite3_no_such_table", "error", "sqlite3.OperationalError: no such table: main.users"),
    # ------------------------------------------------------------------
    # SQLAlchemy / psycopg / PostgreSQL / MySQL / SQL Server
    # ------------------------------------------------------------------
    (
        "sqlalchemy_integrity_unique_violation",
        "error",
        '(psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint "users_email_key"\n'
        "DETAIL:  Key (email)=(alice@example.com) already exists.\n"
        "[SQL: INSERT INTO users (email, name) VALUES (%(email)s, %(name)s) RETURNING users.id]\n"
        "[parameters: {'email': 'alice@example.com', 'name': 'Alice'}]\n"
        "(Background on this error at: https://sqlalche.me/e/20/gkpj)",
    ),
    (
        "sqlalchemy_operational_connection_refused",
        "error",
        'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused\n'
        "\tIs the server running on that host and accepting TCP/IP connections?",
    ),
    (
        "sqlalchemy_no_result_found",
        "error",
        "sqlalchemy.exc.NoResultFound: No row was found when one was required",
    ),
    (
        "sqlalchemy_detached_instance",
        "error",
        "sqlalchemy.orm.exc.DetachedInstanceError: Parent instance <User at 0x7f3b2c1d0e50> is not bound to a Session; lazy load operation of attribute 'orders' cannot proceed (Background on this error at: https://sqlalche.me/e/20/bhk3)",
    ),
    (
        "psycopg3_undefined_table_with_caret",
        "error",
        'psycopg.errors.UndefinedTable: relation "public.orders" does not exist\n'
        "LINE 1: SELECT * FROM public.orders WHERE id = $1\n"
        "                      ^",
    ),
    (
        "asyncpg_undefined_column",
        "error",
        'asyncpg.exceptions.UndefinedColumnError: column "user_id" does not exist',
    ),
    (
        "postgres_unique_violation_bare",
        "error",
        'ERROR:  duplicate key value violates unique constraint "users_email_key"',
    ),
    (
        "postgres_syntax_error_near",
        "error",
        'ERROR:  syntax error at or near "FROM"\nLINE 1: SELECT id, FROM users;\n                   ^',
    ),
    ("postgres_fatal_database_missing", "error", 'FATAL:  database "analytics" does not exist'),
    (
        "postgres_deadlock_detected",
        "error",
        "ERROR:  deadlock detected\nDETAIL:  Process 4242 waits for ShareLock on transaction 9001; blocked by process 4243.",
    ),
    (
        "postgres_invalid_input_json",
        "error",
        "ERROR:  invalid input syntax for type json\nDETAIL:  Token \"'\" is invalid.\nCONTEXT:  JSON data, line 1: {'...",
    ),
    (
        "mysql_unknown_column",
        "error",
        "ERROR 1054 (42S22): Unknown column 'user_id' in 'field list'",
    ),
    ("mysql_table_doesnt_exist", "error", "ERROR 1146 (42S02): Table 'shop.orders' doesn't exist"),
    (
        "mysql_duplicate_entry",
        "error",
        "ERROR 1062 (23000): Duplicate entry 'alice@example.com' for key 'users.email'",
    ),
    (
        "laravel_sqlstate_backticks",
        "error",
        "SQLSTATE[42S02]: Base table or view not found: 1146 Table 'app.sessions' doesn't exist (SQL: select * from `sessions` where `id` = abc123 limit 1)",
    ),
    (
        "sqlserver_invalid_object",
        "error",
        "Msg 208, Level 16, State 1, Line 1\nInvalid object name 'dbo.Orders'.",
    ),
    # ------------------------------------------------------------------
    # Django
    # ------------------------------------------------------------------
    (
        "django_improperly_configured",
        "error",
        "django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call settings.configure() before accessing settings.",
    ),
    (
        "django_does_not_exist",
        "error",
        "users.models.User.DoesNotExist: User matching query does not exist.",
    ),
    (
        "django_noreversematch",
        "error",
        "django.urls.exceptions.NoReverseMatch: Reverse for 'detail' with arguments '('',)' not found. 1 pattern(s) tried: ['polls/(?P<question_id>[0-9]+)/\\Z']",
    ),
    (
        "django_template_does_not_exist",
        "error",
        "django.template.exceptions.TemplateDoesNotExist: registration/login.html",
    ),
    (
        "django_disallowed_host",
        "error",
        "Invalid HTTP_HOST header: 'api.example.com:8000'. You may need to add 'api.example.com' to ALLOWED_HOSTS.",
    ),
    # ------------------------------------------------------------------
    # requests / urllib3 / httpx / CORS / curl
    # ------------------------------------------------------------------
    (
        "requests_max_retries_new_connection",
        "error",
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.com', port=443): Max retries exceeded with url: /v1/x?y=1 (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3b2c1d0e50>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    ),
    (
        "requests_http_error_404_query",
        "error",
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://api.github.com/repos/acme/widgets/issues?state=open&per_page=100",
    ),
    (
        "requests_read_timeout",
        "error",
        "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='localhost', port=8000): Read timed out. (read timeout=10)",
    ),
    (
        "urllib3_ssl_verify_failed",
        "error",
        "urllib3.exceptions.SSLError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)",
    ),
    ("httpx_read_timeout", "error", "httpx.ReadTimeout: The read operation timed out"),
    (
        "httpx_status_error_422",
        "error",
        "httpx.HTTPStatusError: Client error '422 Unprocessable Entity' for url 'https://api.example.com/v2/items?limit=50&cursor=abc%3D%3D'\n"
        "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/422",
    ),
    (
        "browser_cors_blocked",
        "error",
        "Access to fetch at 'https://api.example.com/v1/me' from origin 'http://localhost:5173' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    ),
    ("browser_uncaught_in_promise", "error", "Uncaught (in promise) TypeError: Failed to fetch"),
    (
        "curl_7_connection_refused",
        "error",
        "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused",
    ),
    (
        "curl_60_self_signed",
        "error",
        "curl: (60) SSL certificate problem: self-signed certificate in certificate chain",
    ),
    ("curl_6_resolve_host", "error", "curl: (6) Could not resolve host: api.example.com"),
    (
        "nginx_502_html_crlf",
        "error",
        "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>",
    ),
    (
        "express_cannot_get_html",
        "error",
        "<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot GET /api/v1/users/%7Bid%7D</pre></body></html>",
    ),
    # ------------------------------------------------------------------
    # OpenAI / Anthropic SDKs
    # ------------------------------------------------------------------
    (
        "openai_rate_limit_tpm",
        "error",
        "openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-XXXX on tokens per min (TPM): Limit 30000, Used 29876, Requested 1200. Please try again in 2.152s. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
    ),
    (
        "openai_context_length_exceeded",
        "error",
        "openai.BadRequestError: Error code: 400 - {'error': {'message': \"This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.\", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}",
    ),
    ("openai_api_connection", "error", "openai.APIConnectionError: Connection error."),
    (
        "anthropic_rate_limit_429",
        "error",
        "Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'This request would exceed the rate limit for your organization of 50,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits.'}}",
    ),
    (
        "anthropic_overloaded_529",
        "error",
        "anthropic.InternalServerError: Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}",
    ),
    (
        "anthropic_tool_result_mismatch",
        "error",
        "anthropic.BadRequestError: Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'messages.1.content.0.tool_result: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01ABC. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'}}",
    ),
    # ------------------------------------------------------------------
    # Node.js / npm / yarn / pnpm / TypeScript / bundlers / React
    # ------------------------------------------------------------------
    (
        "node_cannot_read_properties_map",
        "error",
        "TypeError: Cannot read properties of undefined (reading 'map')",
    ),
    ("node_econnrefused_postgres", "error", "Error: connect ECONNREFUSED 127.0.0.1:5432"),
    ("node_econnrefused_ipv6", "error", "Error: connect ECONNREFUSED ::1:3000"),
    ("node_eaddrinuse", "error", "Error: listen EADDRINUSE: address already in use :::3000"),
    (
        "node_enoent_env_local",
        "error",
        "Error: ENOENT: no such file or directory, open '/home/runner/work/app/app/.env.local'",
    ),
    (
        "node_cannot_find_module_require_stack",
        "error",
        "Error: Cannot find module 'express'\nRequire stack:\n- /app/server.js\n- /app/index.js",
    ),
    (
        "node_err_require_esm",
        "error",
        "Error [ERR_REQUIRE_ESM]: require() of ES Module /app/node_modules/node-fetch/src/index.js from /app/lib/http.js not supported.",
    ),
    (
        "node_unhandled_rejection_warning",
        "error",
        "(node:12345) UnhandledPromiseRejectionWarning: Error: Request failed with status code 500",
    ),
    (
        "node_stack_map_not_function",
        "error",
        "TypeError: items.map is not a function\n"
        "    at renderList (/app/src/components/List.jsx:14:23)\n"
        "    at Object.<anonymous> (/app/src/index.js:8:1)\n"
        "    at Module._compile (node:internal/modules/cjs/loader:1256:14)",
    ),
    (
        "node_json_unexpected_token_lt",
        "error",
        "SyntaxError: Unexpected token < in JSON at position 0",
    ),
    (
        "node20_json_doctype_not_valid",
        "error",
        "SyntaxError: Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON",
    ),
    ("node_json_unexpected_end", "error", "SyntaxError: Unexpected end of JSON input"),
    (
        "node_heap_out_of_memory",
        "error",
        "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
    ),
    (
        "node_fetch_failed_cause",
        "error",
        "TypeError: fetch failed\n    [cause]: Error: getaddrinfo ENOTFOUND api.internal.example",
    ),
    (
        "js_regex_unterminated_group",
        "error",
        "SyntaxError: Invalid regular expression: /(?<year>\\d{4}/: Unterminated group",
    ),
    (
        "react_hydration_failed",
        "error",
        "Error: Hydration failed because the initial UI does not match what was rendered on the server.",
    ),
    (
        "react_unique_key_warning",
        "error",
        'Warning: Each child in a list should have a unique "key" prop.\n\nCheck the render method of `TodoList`. See https://reactjs.org/link/warning-keys for more information.',
    ),
    (
        "react_too_many_rerenders",
        "error",
        "Error: Too many re-renders. React limits the number of renders to prevent an infinite loop.",
    ),
    (
        "nextjs_module_not_found_alias",
        "error",
        "Module not found: Can't resolve '@/components/ui/button'",
    ),
    (
        "webpack_module_parse_failed",
        "error",
        "Module parse failed: Unexpected token (3:10)\nYou may need an appropriate loader to handle this file type.",
    ),
    (
        "vite_failed_to_resolve_import",
        "error",
        '[vite] Internal server error: Failed to resolve import "./utils" from "src/App.tsx". Does the file exist?',
    ),
    (
        "tsc_ts2339_with_location",
        "error",
        "src/api/client.ts(42,17): error TS2339: Property 'data' does not exist on type 'Response | undefined'.",
    ),
    ("tsc_ts1005_paren_expected", "error", "error TS1005: ')' expected."),
    (
        "tsc_ts2322_nullable",
        "error",
        "error TS2322: Type 'string | null' is not assignable to type 'string'.\n  Type 'null' is not assignable to type 'string'.",
    ),
    ("tsc_ts7006_implicit_any", "error", "Parameter 'e' implicitly has an 'any' type."),
    (
        "eslint_unused_var_report",
        "error",
        "/app/src/index.ts\n  12:7  error  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars\n\n\u2716 1 problem (1 error, 0 warnings)",
    ),
    (
        "jest_toequal_diff",
        "error",
        "expect(received).toEqual(expected) // deep equality\n\n"
        "- Expected  - 1\n"
        "+ Received  + 1\n\n"
        "  Object {\n"
        '-   "status": "ok",\n'
        '+   "status": "error",\n'
        "  }",
    ),
    (
        "npm_eresolve_peer",
        "error",
        "npm ERR! code ERESOLVE\n"
        "npm ERR! ERESOLVE unable to resolve dependency tree\n"
        "npm ERR! Found: react@18.2.0\n"
        "npm ERR! Could not resolve dependency:\n"
        'npm ERR! peer react@"^17.0.0" from react-beautiful-dnd@13.1.1',
    ),
    (
        "npm_404_scoped_encoded",
        "error",
        "npm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2finternal-utils - Not found",
    ),
    ("npm_missing_script", "error", 'npm ERR! Missing script: "start"'),
    (
        "yarn_esockettimedout",
        "error",
        'error An unexpected error occurred: "https://registry.yarnpkg.com/left-pad: ESOCKETTIMEDOUT".',
    ),
    (
        "pnpm_outdated_lockfile",
        "error",
        'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with package.json',
    ),
    # ------------------------------------------------------------------
    # Browser automation
    # ------------------------------------------------------------------
    (
        "playwright_click_timeout_call_log",
        "error",
        "page.click: Timeout 30000ms exceeded.\nCall log:\n  - waiting for locator('#submit-btn')",
    ),
    (
        "playwright_fill_timeout_inline",
        "error",
        "locator.fill: Timeout 30000ms exceeded. waiting for locator('input[name=\"email\"]')",
    ),
    (
        "playwright_strict_mode_violation",
        "error",
        "locator.click: Error: strict mode violation: getByRole('button', { name: 'Save' }) resolved to 2 elements:\n"
        "    1) <button class=\"btn btn-primary\">Save</button> aka getByRole('button', { name: 'Save' }).first()\n"
        "    2) <button data-testid=\"save-draft\">Save</button> aka getByTestId('save-draft')",
    ),
    (
        "playwright_goto_connection_refused",
        "error",
        "page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/login?next=%2Fdashboard",
    ),
    (
        "playwright_expect_to_have_text",
        "error",
        "Error: expect(locator).toHaveText(expected)\n\n"
        "Locator: locator('h1.title >> nth=0')\n"
        'Expected string: "Welcome, Ada!"\n'
        'Received string: "Welcome, !"',
    ),
    (
        "puppeteer_wait_for_selector",
        "error",
        'TimeoutError: Waiting for selector `div[data-test="row"]:nth-child(2) > a.link` failed: Waiting failed: 30000ms exceeded',
    ),
    (
        "selenium_no_such_element",
        "error",
        'selenium.common.exceptions.NoSuchElementException: Message: no such element: Unable to locate element: {"method":"css selector","selector":"[id="login"]"}',
    ),
    (
        "cypress_timed_out_retrying",
        "error",
        "CypressError: Timed out retrying after 4000ms: Expected to find element: `[data-cy=submit]`, but never found it.",
    ),
    # ------------------------------------------------------------------
    # Go
    # ------------------------------------------------------------------
    ("go_dial_tcp_ipv6_redis", "error", "dial tcp [::1]:6379: connect: connection refused"),
    (
        "go_panic_nil_pointer_method",
        "error",
        "panic: runtime error: invalid memory address or nil pointer dereference\n"
        "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x47b2c3]\n\n"
        "goroutine 1 [running]:\n"
        "main.(*T).Run(0x0)\n"
        "\t/app/main.go:23 +0x23\n"
        "main.main()\n"
        "\t/app/main.go:11 +0x1d\n"
        "exit status 2",
    ),
    (
        "go_panic_interface_conversion",
        "error",
        "panic: interface conversion: interface {} is nil, not *main.T",
    ),
    (
        "go_panic_index_out_of_range",
        "error",
        "panic: runtime error: index out of range [5] with length 3",
    ),
    ("go_all_goroutines_asleep", "error", "fatal error: all goroutines are asleep - deadlock!"),
    (
        "go_json_unmarshal_type",
        "error",
        "json: cannot unmarshal string into Go struct field Config.port of type int",
    ),
    ("go_strconv_atoi", "error", 'strconv.Atoi: parsing "12a": invalid syntax'),
    (
        "go_client_timeout_headers",
        "error",
        'Get "https://api.example.com/v1/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
    ),
    (
        "go_build_cannot_use",
        "error",
        "./handler.go:27:9: cannot use u (variable of type *User) as User value in return statement",
    ),
    (
        "go_mod_unknown_revision",
        "error",
        "go: github.com/acme/lib@v1.2.3: invalid version: unknown revision v1.2.3",
    ),
    ("go_regexp_missing_bracket", "error", "error parsing regexp: missing closing ]: `[a-z`"),
    (
        "go_test_fail_output",
        "error",
        "=== RUN   TestParse\n"
        '    parse_test.go:18: got "1.5e-3", want "0.0015"\n'
        "--- FAIL: TestParse (0.00s)\n"
        "FAIL\n"
        "FAIL\tgithub.com/acme/parser\t0.012s",
    ),
    # ------------------------------------------------------------------
    # Rust
    # ------------------------------------------------------------------
    (
        "rust_panic_unwrap_none_2024",
        "error",
        "thread 'main' panicked at src/main.rs:10:5:\n"
        "called `Option::unwrap()` on a `None` value\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    ),
    (
        "rust_panic_unwrap_err_old_style",
        "error",
        "thread 'tokio-runtime-worker' panicked at 'called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: \"No such file or directory\" }', src/config.rs:27:38",
    ),
    (
        "rust_e0502_borrow",
        "error",
        "error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable\n"
        " --> src/lib.rs:4:5\n"
        "  |\n"
        "3 |     let first = &v[0];\n"
        "  |                  - immutable borrow occurs here\n"
        "4 |     v.push(6);\n"
        "  |     ^^^^^^^^^ mutable borrow occurs here",
    ),
    (
        "rust_e0433_undeclared_crate",
        "error",
        "error[E0433]: failed to resolve: use of undeclared crate or module `serde_json`",
    ),
    (
        "cargo_could_not_compile",
        "error",
        'error: could not compile `my-crate` (bin "my-crate") due to 2 previous errors',
    ),
    # ------------------------------------------------------------------
    # JVM
    # ------------------------------------------------------------------
    (
        "java_helpful_npe_local1",
        "error",
        'java.lang.NullPointerException: Cannot invoke "String.length()" because "<local1>" is null',
    ),
    (
        "java_classnotfound_jdbc",
        "error",
        "java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver",
    ),
    ("java_oom_heap", "error", "java.lang.OutOfMemoryError: Java heap space"),
    (
        "java_gson_stack_trace",
        "error",
        'Exception in thread "main" java.lang.IllegalStateException: Expected BEGIN_OBJECT but was STRING at line 1 column 1 path $\n'
        "\tat com.google.gson.stream.JsonReader.beginObject(JsonReader.java:386)\n"
        "\tat com.acme.App.main(App.java:17)",
    ),
    (
        "kotlin_lateinit_uninitialized",
        "error",
        "kotlin.UninitializedPropertyAccessException: lateinit property adapter has not been initialized",
    ),
    (
        "spring_unsatisfied_dependency",
        "error",
        "org.springframework.beans.factory.UnsatisfiedDependencyException: Error creating bean with name 'userController': Unsatisfied dependency expressed through field 'userService'",
    ),
    (
        "spring_bean_creation_long",
        "error",
        "org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'entityManagerFactory' defined in class path resource [org/springframework/boot/autoconfigure/orm/jpa/HibernateJpaConfiguration.class]: Invocation of init method failed; nested exception is javax.persistence.PersistenceException: [PersistenceUnit: default] Unable to build Hibernate SessionFactory; nested exception is org.hibernate.exception.JDBCConnectionException: Unable to open JDBC Connection for DDL execution; nested exception is org.postgresql.util.PSQLException: Connection to localhost:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
    ),
    (
        "maven_failed_to_execute_goal",
        "error",
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project api: Compilation failure",
    ),
    (
        "gradle_build_failed",
        "error",
        "FAILURE: Build failed with an exception.\n\n"
        "* What went wrong:\n"
        "Execution failed for task ':app:compileDebugKotlin'.\n"
        "> Compilation error. See log for more details",
    ),
    # ------------------------------------------------------------------
    # .NET / PHP / Ruby / Elixir / Haskell / Swift / Perl / R
    # ------------------------------------------------------------------
    (
        "dotnet_null_reference_stack",
        "error",
        "System.NullReferenceException: Object reference not set to an instance of an object.\n"
        "   at Acme.Api.Controllers.OrdersController.Get(Int32 id) in C:\\src\\Acme.Api\\Controllers\\OrdersController.cs:line 42",
    ),
    (
        "csharp_cs1002_semicolon_expected",
        "error",
        "Program.cs(12,34): error CS1002: ; expected [C:\\src\\App\\App.csproj]",
    ),
    (
        "php_fatal_member_function_on_null",
        "error",
        "PHP Fatal error:  Uncaught Error: Call to a member function getId() on null in /var/www/html/src/Controller/UserController.php:57",
    ),
    (
        "ruby_nomethoderror_nilclass",
        "error",
        "NoMethodError: undefined method `name' for nil:NilClass",
    ),
    (
        "rails_pending_migration",
        "error",
        "ActiveRecord::PendingMigrationError: Migrations are pending. To resolve this issue, run:\n\n        bin/rails db:migrate RAILS_ENV=test",
    ),
    (
        "elixir_keyerror_map",
        "error",
        '** (KeyError) key :user_id not found in: %{name: "Ada", role: :admin}',
    ),
    ("haskell_prelude_head", "error", "*** Exception: Prelude.head: empty list"),
    (
        "swift_unwrap_nil",
        "error",
        "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
    ),
    (
        "perl_cant_locate_inc",
        "error",
        "Can't locate JSON/XS.pm in @INC (you may need to install the JSON::XS module) (@INC contains: /etc/perl /usr/local/lib/x86_64-linux-gnu/perl/5.36.0) at script.pl line 3.",
    ),
    (
        "r_no_package_curly_quotes",
        "error",
        "Error in library(ggplot2) : there is no package called \u2018ggplot2\u2019",
    ),
    # ------------------------------------------------------------------
    # C / C++ / make / linker
    # ------------------------------------------------------------------
    (
        "gcc_undeclared_first_use",
        "error",
        "main.c:5:5: error: 'x' undeclared (first use in this function)",
    ),
    (
        "gcc_expected_semicolon_before_brace",
        "error",
        "src/parser.c:88:21: error: expected ';' before '}' token",
    ),
    (
        "gpp_no_matching_push_back",
        "error",
        "main.cpp:12:17: error: no matching function for call to 'std::vector<int>::push_back(const char [4])'",
    ),
    (
        "ld_undefined_reference_sqrt",
        "error",
        "/usr/bin/ld: main.o: in function `main':\n"
        "main.c:(.text+0x1e): undefined reference to `sqrt'\n"
        "collect2: error: ld returned 1 exit status",
    ),
    ("segfault_core_dumped", "error", "Segmentation fault (core dumped)"),
    ("make_error_1", "error", "make: *** [Makefile:23: build/app.o] Error 1"),
    (
        "cmake_find_package",
        "error",
        'CMake Error at CMakeLists.txt:12 (find_package):\n  Could not find a package configuration file provided by "OpenSSL"',
    ),
    # ------------------------------------------------------------------
    # git
    # ------------------------------------------------------------------
    (
        "git_push_rejected_fetch_first",
        "error",
        "! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'https://github.com/acme/app.git'",
    ),
    (
        "git_merge_conflict",
        "error",
        "CONFLICT (content): Merge conflict in src/app.py\nAutomatic merge failed; fix conflicts and then commit the result.",
    ),
    (
        "git_not_a_repository",
        "error",
        "fatal: not a git repository (or any of the parent directories): .git",
    ),
    ("git_unrelated_histories", "error", "fatal: refusing to merge unrelated histories"),
    (
        "git_pathspec_hash_branch",
        "error",
        "error: pathspec 'feature/login-#42' did not match any file(s) known to git",
    ),
    (
        "git_index_lock_exists",
        "error",
        "fatal: Unable to create '/repo/.git/index.lock': File exists.",
    ),
    (
        "git_publickey_denied",
        "error",
        "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.",
    ),
    (
        "git_conflict_markers",
        "error",
        "<<<<<<< HEAD\n"
        "const port = 3000;\n"
        "=======\n"
        "const port = process.env.PORT ?? 8080;\n"
        ">>>>>>> feature/env-port",
    ),
    ("git_status_porcelain_untracked", "error", "?? src/new_file.py"),
    # ------------------------------------------------------------------
    # pip / apt / pacman
    # ------------------------------------------------------------------
    (
        "pip_no_matching_distribution",
        "error",
        "ERROR: Could not find a version that satisfies the requirement torch==2.9.9 (from versions: 2.0.0, 2.0.1, 2.1.0)\n"
        "ERROR: No matching distribution found for torch==2.9.9",
    ),
    (
        "pip_externally_managed",
        "error",
        "error: externally-managed-environment\n\n"
        "\u00d7 This environment is externally managed\n"
        "\u2570\u2500> To install Python packages system-wide, try apt install\n"
        "    python3-xyz, where xyz is the package you are trying to\n"
        "    install.",
    ),
    (
        "pip_resolver_conflict",
        "error",
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.\nboto3 1.28.0 requires botocore<1.32.0,>=1.31.0, but you have botocore 1.33.1 which is incompatible.",
    ),
    ("apt_unable_to_locate", "error", "E: Unable to locate package python3.12-venv"),
    (
        "pacman_sync_banner",
        "error",
        ":: Synchronizing package databases...\nerror: failed retrieving file 'core.db' from mirror.example.org : Connection timed out after 10000 milliseconds",
    ),
    # ------------------------------------------------------------------
    # docker / kubernetes / helm / terraform
    # ------------------------------------------------------------------
    (
        "docker_daemon_not_running",
        "error",
        "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
    ),
    (
        "docker_port_already_allocated",
        "error",
        "docker: Error response from daemon: driver failed programming external connectivity on endpoint web (3f2a9c): Bind for 0.0.0.0:8080 failed: port is already allocated.",
    ),
    (
        "docker_buildkit_failed_to_solve",
        "error",
        'failed to solve: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
    ),
    (
        "docker_manifest_unknown",
        "error",
        "Error response from daemon: manifest for acme/api:v1.2.3-rc.1 not found: manifest unknown: manifest unknown",
    ),
    (
        "docker_compose_undefined_service",
        "error",
        'service "web" depends on undefined service "db": invalid compose project',
    ),
    (
        "k8s_pod_not_found",
        "error",
        'Error from server (NotFound): pods "web-7d4b9c8f6-x2kq9" not found',
    ),
    (
        "k8s_get_pods_crashloop_row",
        "error",
        "web-7d4b9c8f6-x2kq9   0/1     CrashLoopBackOff   5 (32s ago)   4m12s",
    ),
    (
        "k8s_forbidden_serviceaccount",
        "error",
        'Error from server (Forbidden): deployments.apps is forbidden: User "system:serviceaccount:ci:deployer" cannot list resource "deployments" in API group "apps" in the namespace "prod"',
    ),
    (
        "k8s_image_pull_failed",
        "error",
        'Failed to pull image "ghcr.io/acme/api:latest": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/acme/api:latest"',
    ),
    (
        "helm_name_in_use",
        "error",
        "Error: INSTALLATION FAILED: cannot re-use a name that is still in use",
    ),
    (
        "terraform_undeclared_resource_box",
        "error",
        "\u2502 Error: Reference to undeclared resource\n"
        "\u2502 \n"
        '\u2502   on main.tf line 12, in resource "aws_instance" "web":\n'
        "\u2502   12:   subnet_id = aws_subnet.main.id\n"
        "\u2502 \n"
        '\u2502 A managed resource "aws_subnet" "main" has not been declared in the root module.\n'
        "\u2575",
    ),
    (
        "terraform_unsupported_argument",
        "error",
        'Error: Unsupported argument\n\n  on variables.tf line 3, in variable "tags":\n   3:   defualt = {}\n\nAn argument named "defualt" is not expected here.',
    ),
    (
        "terraform_state_lock",
        "error",
        "Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  Path:      tf-state/prod/terraform.tfstate\n  Operation: OperationTypeApply",
    ),
    # ------------------------------------------------------------------
    # AWS / GCP
    # ------------------------------------------------------------------
    (
        "boto3_no_such_bucket",
        "error",
        "botocore.errorfactory.NoSuchBucket: An error occurred (NoSuchBucket) when calling the GetObject operation: The specified bucket does not exist",
    ),
    (
        "aws_cli_access_denied",
        "error",
        "An error occurred (AccessDenied) when calling the PutObject operation: Access Denied",
    ),
    (
        "boto3_throttling_max_retries",
        "error",
        "botocore.exceptions.ClientError: An error occurred (ThrottlingException) when calling the InvokeModel operation (reached max retries: 4): Too many requests, please wait before trying again.",
    ),
    (
        "aws_cloudformation_no_updates",
        "error",
        "An error occurred (ValidationError) when calling the UpdateStack operation: No updates are to be performed.",
    ),
    (
        "gcp_permission_denied_storage",
        "error",
        "google.api_core.exceptions.PermissionDenied: 403 Permission 'storage.objects.get' denied on resource (or it may not exist).",
    ),
    (
        "gcp_not_found_encoded_object",
        "error",
        "google.api_core.exceptions.NotFound: 404 GET https://storage.googleapis.com/download/storage/v1/b/acme-data/o/exports%2F2024-01-01%2Fpart-0001.parquet?alt=media: No such object: acme-data/exports/2024-01-01/part-0001.parquet",
    ),
    (
        "gcloud_run_deploy_denied",
        "error",
        "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: The caller does not have permission",
    ),
    # ------------------------------------------------------------------
    # GraphQL / JSON bodies / validation libraries
    # ------------------------------------------------------------------
    (
        "graphql_cannot_query_field",
        "error",
        'Cannot query field "emial" on type "User". Did you mean "email"?',
    ),
    (
        "graphql_errors_json_body",
        "error",
        '{"errors":[{"message":"Variable \\"$id\\" of required type \\"ID!\\" was not provided.","locations":[{"line":1,"column":13}]}]}',
    ),
    ("graphql_syntax_expected_name", "error", 'Syntax Error: Expected Name, found "}".'),
    ("joi_must_be_valid_email", "error", '"email" must be a valid email'),
    (
        "fastapi_422_detail_json",
        "error",
        '{"detail":[{"loc":["body","items",0,"price"],"msg":"value is not a valid float","type":"type_error.float"}]}',
    ),
    # ------------------------------------------------------------------
    # Shells, Windows, SSH, DNS, CI
    # ------------------------------------------------------------------
    ("bash_permission_denied", "error", "bash: ./run.sh: Permission denied"),
    ("bash_command_not_found", "error", "bash: jq: command not found"),
    (
        "bash_syntax_error_paren",
        "error",
        "./deploy.sh: line 14: syntax error near unexpected token `)'",
    ),
    ("bash_test_missing_bracket", "error", "./check.sh: line 3: [: missing `]'"),
    ("bash_unbound_variable", "error", "./ci.sh: line 7: GITHUB_SHA: unbound variable"),
    ("bash_bad_substitution_indirect", "error", "./build.sh: line 2: ${!ref}: bad substitution"),
    ("sh_xtrace_output", "error", "+ npm run build\n+ echo 'done'\ndone"),
    ("dig_connection_timed_out", "error", ";; connection timed out; no servers could be reached"),
    (
        "powershell_term_not_recognized",
        "error",
        "The term 'npm' is not recognized as the name of a cmdlet, function, script file, or operable program.",
    ),
    (
        "cmd_exe_not_recognized_crlf",
        "error",
        "'python' is not recognized as an internal or external command,\r\noperable program or batch file.",
    ),
    (
        "ssh_continue_connecting_prompt",
        "error",
        "Are you sure you want to continue connecting (yes/no/[fingerprint])?",
    ),
    (
        "ssh_remote_host_changed_banner",
        "error",
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
        "@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n"
        "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
    ),
    ("github_actions_exit_137", "error", "Error: Process completed with exit code 137."),
    ("disk_usage_percent", "error", "No space left on device: /var is at 98%"),
    (
        "latex_undefined_control_sequence",
        "error",
        "! Undefined control sequence.\nl.42 \\includegraphics",
    ),
    ("latex_file_not_found", "error", "! LaTeX Error: File `tikz.sty' not found."),
    ("excel_div0", "error", "#DIV/0!"),
    ("excel_name_error", "error", "#NAME?"),
    ("bare_return_code_minus_one", "error", "-1"),
    # ------------------------------------------------------------------
    # Unicode error text
    # ------------------------------------------------------------------
    (
        "japanese_windows_path_error",
        "error",
        "\u30a8\u30e9\u30fc: \u30d5\u30a1\u30a4\u30eb\u304c\u898b\u3064\u304b\u308a\u307e\u305b\u3093: C:\\\u30e6\u30fc\u30b6\u30fc\\\u592a\u90ce\\\u6587\u66f8\\\u5831\u544a\u66f8.docx",
    ),
    (
        "chinese_db_timeout",
        "error",
        "\u9519\u8bef\uff1a\u65e0\u6cd5\u8fde\u63a5\u5230\u6570\u636e\u5e93\uff08\u8d85\u65f6 30 \u79d2\uff09",
    ),
    (
        "french_guillemets",
        "error",
        "Erreur\u00a0: le fichier \u00ab\u00a0donn\u00e9es.csv\u00a0\u00bb est introuvable.",
    ),
    (
        "german_low_quotes",
        "error",
        "Fehler: Zugriff verweigert f\u00fcr Benutzer \u201em\u00fcller\u201c",
    ),
    (
        "russian_date_format",
        "error",
        "\u041e\u0448\u0438\u0431\u043a\u0430: \u043d\u0435\u0432\u0435\u0440\u043d\u044b\u0439 \u0444\u043e\u0440\u043c\u0430\u0442 \u0434\u0430\u0442\u044b \u00ab2024-13-01\u00bb",
    ),
    (
        "arabic_rtl_timeout",
        "error",
        "\u062e\u0637\u0623: \u0627\u0646\u062a\u0647\u062a \u0645\u0647\u0644\u0629 \u0627\u0644\u0627\u062a\u0635\u0627\u0644 (ETIMEDOUT)",
    ),
    ("emoji_build_failed", "error", "Build failed \U0001f4a5 \u2014 see logs \U0001f50d"),
    (
        "combining_accent_and_zero_width",
        "error",
        "Invalid name 'Jose\u0301\u200bMari\u0301a': contains a zero-width space",
    ),
    # ------------------------------------------------------------------
    # error_type
    # ------------------------------------------------------------------
    ("etype_python_keyerror", "error_type", "KeyError"),
    ("etype_requests_connection_error", "error_type", "requests.exceptions.ConnectionError"),
    ("etype_psycopg2_unique_violation", "error_type", "psycopg2.errors.UniqueViolation"),
    ("etype_python_class_repr", "error_type", "<class 'KeyError'>"),
    ("etype_main_module_custom", "error_type", "__main__.CustomError"),
    ("etype_node_err_require_esm", "error_type", "Error [ERR_REQUIRE_ESM]"),
    ("etype_rust_error_code", "error_type", "error[E0502]"),
    ("etype_php_namespace_backslashes", "error_type", "Illuminate\\Database\\QueryException"),
    ("etype_cpp_bad_alloc", "error_type", "std::bad_alloc"),
    ("etype_ruby_errno", "error_type", "Errno::ENOENT"),
    ("etype_go_pointer_type", "error_type", "*main.T"),
    ("etype_go_pointer_url_error", "error_type", "*url.Error"),
    ("etype_java_npe", "error_type", "java.lang.NullPointerException"),
    ("etype_dotnet_generic", "error_type", "System.Collections.Generic.KeyNotFoundException"),
    ("etype_anthropic_private_module", "error_type", "anthropic._exceptions.OverloadedError"),
    ("etype_http_status", "error_type", "HTTP 429 (Too Many Requests)"),
    ("etype_k8s_reason", "error_type", "CrashLoopBackOff"),
    ("etype_signal", "error_type", "SIGSEGV"),
    ("etype_typescript_code", "error_type", "TS2339"),
    ("etype_java_generic", "error_type", "Result<T, E>"),
    ("etype_postgres_sqlstate", "error_type", "SQLSTATE[23505]"),
    (
        "etype_python_exception_group",
        "error_type",
        "ExceptionGroup('unhandled errors in a TaskGroup', [TimeoutError()])",
    ),
    # ------------------------------------------------------------------
    # recovery_hint
    # ------------------------------------------------------------------
    ("hint_retry_after_seconds", "recovery_hint", "Retry after 2.152s"),
    ("hint_npm_install_backticks", "recovery_hint", "Run `npm install` then retry"),
    (
        "hint_django_settings_env",
        "recovery_hint",
        "Set DJANGO_SETTINGS_MODULE=app.settings and re-run `python manage.py migrate`",
    ),
    (
        "hint_pg_isready",
        "recovery_hint",
        "Check that Postgres is listening on 127.0.0.1:5432 (pg_isready -h localhost -p 5432)",
    ),
    (
        "hint_node_max_old_space",
        "recovery_hint",
        "Increase the heap: NODE_OPTIONS=--max-old-space-size=4096",
    ),
    (
        "hint_git_pull_rebase",
        "recovery_hint",
        "Use `git pull --rebase origin main` before pushing",
    ),
    (
        "hint_rate_limit_reset_time",
        "recovery_hint",
        "Wait 60s; the rate limit resets at 12:00:00Z",
    ),
    ("hint_escape_pipe_in_tables", "recovery_hint", "Escape `|` as `\\|` inside table cells"),
    (
        "hint_mypy_type_ignore",
        "recovery_hint",
        "Add `# type: ignore[attr-defined]` to the import line",
    ),
    ("hint_rust_backtrace", "recovery_hint", "Re-run with RUST_BACKTRACE=1 cargo run"),
    ("hint_kubectl_rollout_undo", "recovery_hint", "kubectl rollout undo deployment/web -n prod"),
    ("hint_remove_index_lock", "recovery_hint", "rm -f .git/index.lock && git status"),
    ("hint_chmod_plus_x", "recovery_hint", "chmod +x ./run.sh"),
    ("hint_pip_extras_quoted", "recovery_hint", "pip install 'foo[bar]>=1.2,<2'"),
    ("hint_quote_find_glob", "recovery_hint", "Quote the glob: find . -name '*.log'"),
    (
        "hint_shell_default_expansion",
        "recovery_hint",
        "Use ${VAR:-default} so unset vars don't abort the script",
    ),
    ("hint_docs_fragment_url", "recovery_hint", "See https://docs.example.com/errors#E1001"),
    (
        "hint_base_url_trailing_slash",
        "recovery_hint",
        "Set BASE_URL to https://api.example.com/v1/",
    ),
    ("hint_masked_value", "recovery_hint", "***"),
    (
        "hint_markdown_heading_multiline",
        "recovery_hint",
        "# Retry\nRun again with `--verbose` and attach the log.",
    ),
    ("hint_not_available", "recovery_hint", "N/A"),
    ("hint_python_none_repr", "recovery_hint", "None"),
    ("hint_try_again_later", "recovery_hint", "Try again later."),
    ("hint_windows_set_path", "recovery_hint", "set PATH=%PATH%;C:\\Program Files\\nodejs\\"),
    ("hint_ssh_keygen_remove", "recovery_hint", "ssh-keygen -R [localhost]:2222"),
    ("hint_html_entity_lt", "recovery_hint", "Replace &lt;br&gt; with a real newline"),
    ("hint_percent_encoding", "recovery_hint", "URL-encode spaces as %20 and '#' as %23"),
    (
        "hint_unicode_arrow_steps",
        "recovery_hint",
        "Settings \u2192 Developer \u2192 Clear cache \u2714",
    ),
    # ------------------------------------------------------------------
    # file
    # ------------------------------------------------------------------
    ("file_dunder_init", "file", "__init__.py"),
    ("file_nested_dunder_init", "file", "src/app/__init__.py"),
    ("file_nextjs_dynamic_segment", "file", "src/[id]/page.tsx"),
    ("file_nextjs_route_group", "file", "app/(auth)/login/page.tsx"),
    ("file_nextjs_catch_all", "file", "app/[...slug]/page.tsx"),
    ("file_nextjs_optional_catch_all", "file", "app/[[...slug]]/page.tsx"),
    ("file_nextjs_intercepting_parallel", "file", "app/@modal/(.)photo/[id]/page.tsx"),
    ("file_nextjs_locale_group", "file", "src/app/[locale]/(marketing)/page.tsx"),
    ("file_pages_underscore_app", "file", "pages/_app.tsx"),
    ("file_sveltekit_plus_page", "file", "+page.svelte"),
    ("file_sveltekit_layout_server", "file", "src/routes/+layout.server.ts"),
    ("file_astro_slug", "file", "src/pages/blog/[slug].astro"),
    ("file_home_config_yaml", "file", "~/.config/app.yaml"),
    ("file_glob_log", "file", "*.log"),
    ("file_glob_recursive", "file", "dist/**/*.js"),
    ("file_scoped_node_module", "file", "node_modules/@scope/pkg/index.js"),
    ("file_docs_hash", "file", "docs/#intro.md"),
    ("file_ampersand", "file", "a&b.txt"),
    ("file_windows_temp", "file", "C:\\Users\\runner\\AppData\\Local\\Temp\\x.tmp"),
    ("file_windows_trailing_backslash", "file", "C:\\Users\\runner\\"),
    ("file_unc_share_with_space", "file", "\\\\fileserver\\share\\reports\\Q1 2024.xlsx"),
    ("file_windows_program_files_x86", "file", "C:/Program Files (x86)/App/app.exe"),
    ("file_windows_appdata_env", "file", "%APPDATA%\\npm\\node_modules"),
    ("file_recycle_bin", "file", "$RECYCLE.BIN/desktop.ini"),
    ("file_office_owner_lock", "file", "~$report.docx"),
    ("file_nginx_rotated_log", "file", "/var/log/nginx/access.log.1.gz"),
    ("file_github_workflow", "file", ".github/workflows/ci.yml"),
    ("file_env_local", "file", ".env.local"),
    ("file_css_module", "file", "src/components/Button.module.css"),
    ("file_pytest_node_id", "file", "tests/test_api.py::TestUsers::test_create[param-1]"),
    ("file_rspec_line", "file", "spec/models/user_spec.rb:42"),
    ("file_rust_line_col", "file", "src/main.rs:10:5"),
    ("file_accented_parens", "file", "My Documents/r\u00e9sum\u00e9 (final) v2.docx"),
    ("file_iso_timestamp_colons", "file", "data/2024-01-01T12:00:00Z.json"),
    ("file_editor_backup_tilde", "file", "config.py~"),
    ("file_emacs_autosave", "file", "#notes.md#"),
    ("file_emacs_lock", "file", ".#lockfile"),
    ("file_with_spaces", "file", "file with spaces.txt"),
    ("file_percent_encoded", "file", "file%20name.pdf"),
    ("file_brace_expansion", "file", "src/utils/{a,b}.ts"),
    ("file_template_placeholder", "file", "logs/app-{date}.log"),
    ("file_django_migration", "file", "db/migrations/0001_initial.py"),
    (
        "file_go_mod_cache_escaped",
        "file",
        "/home/runner/go/pkg/mod/github.com/!azure/azure-sdk-for-go@v68.0.0+incompatible/go.mod",
    ),
    ("file_pip_unquoted_version_spec", "file", "=1.2.0"),
    ("file_dash_rf", "file", "-rf"),
    ("file_sqlite_memory", "file", ":memory:"),
    ("file_path_traversal", "file", "../../../etc/hosts"),
    ("file_jekyll_config", "file", "_config.yml"),
    ("file_node_modules_dir", "file", "node_modules/"),
    ("file_cjk_name", "file", "\u6587\u6863/\u62a5\u544a-2024.md"),
    ("file_emoji_name", "file", "assets/\U0001f680-launch.png"),
    ("file_markdown_link_lookalike", "file", "docs/[guide](v2).md"),
    ("file_backtick_name", "file", "scripts/`whoami`.sh"),
    ("file_semicolon_name", "file", "uploads/photo;1.jpg"),
    ("file_question_mark_query", "file", "static/app.js?v=1.2.3"),
    # ------------------------------------------------------------------
    # agent
    # ------------------------------------------------------------------
    ("agent_deployer_numbered", "agent", "deployer-4"),
    ("agent_underscore_v2", "agent", "agent_v2"),
    ("agent_dotted_bot", "agent", "billing.bot"),
    ("agent_slash_hash", "agent", "ops/agent#3"),
    ("agent_npm_scope_style", "agent", "@team/agent"),
    ("agent_angle_placeholder", "agent", "<agent>"),
    ("agent_model_id_dated", "agent", "claude-3-5-sonnet-20241022"),
    ("agent_model_id_mini", "agent", "gpt-4o-mini"),
    ("agent_with_space", "agent", "Agent Smith"),
    ("agent_index_brackets", "agent", "agent[1]"),
    ("agent_colon_worker", "agent", "worker:7"),
    ("agent_parenthesized_env", "agent", "qa-bot (staging)"),
    ("agent_github_bot_suffix", "agent", "dependabot[bot]"),
    ("agent_github_actions_bot", "agent", "github-actions[bot]"),
    ("agent_dunder_main", "agent", "__main__"),
    ("agent_unfilled_format", "agent", "{agent_name}"),
    ("agent_unexpanded_env", "agent", "${AGENT_NAME}"),
    ("agent_logging_format", "agent", "%(name)s"),
    ("agent_pipe_name", "agent", "ci|nightly"),
    ("agent_tilde_suffix", "agent", "researcher~2"),
    ("agent_plus_combo", "agent", "planner+critic"),
    ("agent_apostrophe", "agent", "agent's helper"),
    ("agent_double_quoted", "agent", '"quoted" agent'),
    ("agent_js_undefined", "agent", "undefined"),
    ("agent_star_wildcard", "agent", "*"),
    ("agent_japanese", "agent", "\u30a8\u30fc\u30b8\u30a7\u30f3\u30c8-1"),
    ("agent_emoji", "agent", "agent-\U0001f680"),
    ("agent_hf_style_path", "agent", "meta-llama/Llama-3.1-70B-Instruct"),
    ("agent_bang_suffix", "agent", "bot!"),
    ("agent_markdown_bold", "agent", "**admin**"),
    ("agent_equals_kv", "agent", "role=reviewer"),
    ("agent_caret_version", "agent", "summarizer^2"),
    ("agent_backtick_wrapped", "agent", "`coder`"),
    # ------------------------------------------------------------------
    # task
    # ------------------------------------------------------------------
    ("task_snake_case", "task", "fetch_user_data"),
    ("task_dash_number", "task", "task-42"),
    ("task_hash_issue", "task", "#123"),
    ("task_ordered_list_lookalike", "task", "1. import"),
    ("task_bullet_lookalike", "task", "- cleanup"),
    ("task_blockquote_lookalike", "task", "> migrate"),
    ("task_bold_lookalike", "task", "**urgent**"),
    ("task_paren_numbered", "task", "3) deploy"),
    ("task_wip_brackets", "task", "[WIP] refactor auth"),
    ("task_todo_colon", "task", "TODO: fix flaky test"),
    ("task_jira_key", "task", "JIRA-1234"),
    ("task_conventional_commit_scope", "task", "feat(api): add /v2/users endpoint"),
    ("task_conventional_breaking", "task", "fix!: drop node 16"),
    ("task_dependabot_title", "task", "chore(deps): bump lodash from 4.17.20 to 4.17.21"),
    ("task_email_reply_subject", "task", 'Re: "login broken" on Safari'),
    ("task_unicode_arrow_range", "task", "ETL 2024-01-01 \u2192 2024-01-31"),
    ("task_glob_suffix", "task", "task_*"),
    ("task_retry_counter", "task", "run #7 (retry 2/3)"),
    ("task_backtick_command", "task", "`make test`"),
    ("task_shell_var", "task", "echo $PATH"),
    ("task_and_chain", "task", "build && deploy"),
    ("task_percent_rollout", "task", "50% rollout"),
    ("task_slash_command", "task", "/deploy prod"),
    ("task_at_here", "task", "@here deploy"),
    ("task_sql_injection_probe", "task", "'); DROP TABLE tasks; --"),
    ("task_close_paren_injection", "task", "); DROP TABLE tasks; --"),
    ("task_xss_probe", "task", "<script>alert(1)</script>"),
    ("task_ssti_probe", "task", "{{7*7}}"),
    ("task_tabs_inside", "task", "task\twith\ttabs"),
    ("task_chinese", "task", "\u4efb\u52a1-7"),
    ("task_emoji_release", "task", "\U0001f4e6 release v1.2.3"),
    ("task_accented", "task", "\u00dcn\u00efc\u00f6d\u00e9 task"),
    ("task_heading_lookalike", "task", "# Heading"),
    ("task_setext_underline", "task", "==="),
    ("task_thematic_break", "task", "---"),
    ("task_table_row", "task", "| a | b |"),
    ("task_strikethrough", "task", "~~strike~~"),
    ("task_link_lookalike", "task", "[link](http://x)"),
    ("task_image_lookalike", "task", "![img](x.png)"),
    ("task_html_bold", "task", "<b>bold</b>"),
    ("task_html_entity_amp", "task", "&amp;"),
    ("task_numeric_entity", "task", "&#42;"),
    ("task_underscored_emphasis", "task", "_underscored_"),
    ("task_dunder", "task", "__dunder__"),
    ("task_trailing_backslash", "task", "cleanup temp dir \\"),
    ("task_question_marks", "task", "??? unclear request"),
    (
        "task_long_llm_title",
        "task",
        "Investigate why the nightly ETL job (etl-nightly, cron `0 3 * * *`) intermittently fails with `psycopg.errors.SerializationFailure: could not serialize access due to concurrent update` when the backfill worker runs at the same time; compare isolation levels (READ COMMITTED vs. SERIALIZABLE), add a retry wrapper around `upsert_orders()` with jittered backoff (max 5 attempts), make the `orders_daily` materialized view refresh CONCURRENTLY, document the change in docs/runbooks/etl.md#retries, and confirm on staging that 3 consecutive runs finish under 20 min with <1% row drift vs. prod snapshot from 2024-03-01.",
    ),
    # ------------------------------------------------------------------
    # task_type
    # ------------------------------------------------------------------
    ("ttype_code", "task_type", "code"),
    ("ttype_research_slash", "task_type", "research/web"),
    ("ttype_etl_parens", "task_type", "ETL (batch)"),
    ("ttype_e2e_colon", "task_type", "e2e:playwright"),
    ("ttype_dotted", "task_type", "llm.summarize"),
    ("ttype_bug_fix", "task_type", "bug_fix"),
    ("ttype_generic_angle", "task_type", "api_call<GET>"),
    ("ttype_pipe", "task_type", "test|lint"),
    ("ttype_cpp", "task_type", "C++ build"),
    ("ttype_csharp", "task_type", "Ported to C#"),
    ("ttype_r_and_d", "task_type", "R&D"),
    ("ttype_q_and_a", "task_type", "Q&A"),
    ("ttype_numeronym", "task_type", "a11y"),
    ("ttype_placeholder_braces", "task_type", "{type}"),
    ("ttype_label_prefix", "task_type", "type: feature"),
    ("ttype_star_any", "task_type", "* (any)"),
    ("ttype_kebab", "task_type", "k8s-deploy"),
    # ------------------------------------------------------------------
    # approach (one-line descriptions)
    # ------------------------------------------------------------------
    (
        "approach_exponential_backoff",
        "approach",
        "Retried the request with exponential backoff (1s, 2s, 4s) and a 30s cap",
    ),
    (
        "approach_pytest_k_filter",
        "approach",
        "Ran `pytest -x -k 'not slow'` to isolate the failure",
    ),
    (
        "approach_multiplication_stars",
        "approach",
        "Replaced x = a * b * c with math.prod([a, b, c])",
    ),
    (
        "approach_index_assign",
        "approach",
        "Changed arr[i] = f(x) to arr.append(f(x)) since arr started empty",
    ),
    (
        "approach_code_fence_inline",
        "approach",
        "Wrapped the snippet in ```python fences so the reviewer could read it",
    ),
    ("approach_guard_clause_brace", "approach", "if (a < b && c > d) {"),
    (
        "approach_sql_like_wildcards",
        "approach",
        "Queried SELECT * FROM t WHERE name LIKE '%_x%' to find the odd rows",
    ),
    (
        "approach_semver_regex",
        "approach",
        "^\\d+\\.\\d+$ was used to validate the version before parsing",
    ),
    ("approach_jinja_template", "approach", "Rendered {{ user.name }} with a stub user"),
    (
        "approach_env_var_home",
        "approach",
        "${HOME} was expanded manually because the shell was non-interactive",
    ),
    (
        "approach_markdown_link_image",
        "approach",
        "Linked the doc as [link](http://x) and the diagram as ![img](x.png)",
    ),
    (
        "approach_html_entities",
        "approach",
        "Stripped <b>bold</b> tags and decoded &amp; and &#42;",
    ),
    (
        "approach_double_escaped_amp",
        "approach",
        "&amp; in the title was double-escaped to &amp;amp;",
    ),
    (
        "approach_heading_and_rule",
        "approach",
        "Inserted a # Heading line and a --- separator before the summary",
    ),
    ("approach_table_row_end", "approach", "Built the comparison table starting with | a | b |"),
    ("approach_strikethrough", "approach", "Marked the obsolete step as ~~strike~~"),
    ("approach_trailing_backslash", "approach", "Joined the lines with a trailing \\"),
    ("approach_underscores", "approach", "Renamed _underscored_ helpers to __dunder__ methods"),
    ("approach_scientific_signed", "approach", "Scaled by 1.5e-3, clamped between -1 and +42"),
    (
        "approach_thousands_separator",
        "approach",
        "Parsed 1,234.56 as a float after removing the comma",
    ),
    (
        "approach_percent_and_price",
        "approach",
        "Raised the rollout to 50% and set the price to $9.99",
    ),
    ("approach_semver_prerelease_build", "approach", "Bumped the package to v1.2.3-rc.1+build.5"),
    (
        "approach_hex_mask_color",
        "approach",
        "Masked flags with 0x1F and set the error color to #FF0000",
    ),
    ("approach_kubectl_stdin", "approach", "Piped the rendered manifest into kubectl apply -f -"),
    (
        "approach_git_reset_head_caret",
        "approach",
        "Undid the last commit with git reset --soft HEAD^",
    ),
    (
        "approach_semver_ranges",
        "approach",
        "Compared versions with ranges like ^1.2.0 || ~1.3.0 || >=2.0.0 <3.0.0",
    ),
    (
        "approach_curl_complex_url",
        "approach",
        "curl -sS 'https://api.example.com/search?q=a%20b&tags=x|y&sort=-date#results'",
    ),
    (
        "approach_url_all_specials",
        "approach",
        "Opened https://user@example.com/a!b/c*d/(e)/~f/g|h?i=j&k=%20l#m",
    ),
    ("approach_sad_face", "approach", "deploy failed again :("),
    ("approach_background_job", "approach", "Started the dev server with npm start &"),
    ("approach_literal_lt", "approach", "Replaced the HTML-escaped &lt; with a literal <"),
    ("approach_escape_bracket", "approach", "Escaped the literal ["),
    ("approach_base64_padding", "approach", "Encoded 'test' as base64: dGVzdA=="),
    ("approach_rewrote_cpp", "approach", "Rewrote the hot loop in C++"),
    ("approach_end_anchor", "approach", "Matched the whole line with ^\\d+$"),
    ("approach_vacuum_semicolon", "approach", "Ran VACUUM ANALYZE orders;"),
    (
        "approach_pip_at_url",
        "approach",
        "Installed pkg @ git+https://github.com/acme/pkg.git@v1.2.3#egg=pkg",
    ),
    ("approach_go_continuation_comma", "approach", ",omitempty was added to the json tag"),
    ("approach_ellipsis", "approach", "..."),
    ("approach_numbered_three_paren", "approach", "Step 3) restarted the worker"),
    ("approach_question_mark_end", "approach", "Is the DB migration idempotent?"),
    (
        "approach_quotes_mixed",
        "approach",
        "Set the header to \"Content-Type: application/json\" and 'Accept: */*'",
    ),
    (
        "approach_windows_path_inline",
        "approach",
        "Copied the build to C:\\inetpub\\wwwroot\\app and restarted IIS",
    ),
    (
        "approach_python_ternary_walrus",
        "approach",
        "Used if (n := len(items)) > 10: to avoid calling len() twice",
    ),
    (
        "approach_js_optional_chaining",
        "approach",
        "Used data?.items?.[0]?.id ?? null instead of nested ifs",
    ),
    (
        "approach_bash_redirect",
        "approach",
        "Ran ./build.sh > build.log 2>&1 and grepped for 'error:'",
    ),
    ("approach_tab_separated", "approach", "Exported rows as TSV: id\tname\temail"),
    (
        "approach_emoji_checkmarks",
        "approach",
        "Checked all 12 endpoints \u2705 except /health \u274c",
    ),
    (
        "approach_cjk_mixed",
        "approach",
        "\u6839\u636e\u65e5\u5fd7\u5b9a\u4f4d\u5230 config.yaml \u7b2c 3 \u884c\u7684\u7f29\u8fdb\u9519\u8bef",
    ),
    ("approach_email_end_at", "approach", "Searched the logs for anything sent to support@"),
    (
        "approach_long_one_line",
        "approach",
        'Reproduced the failure locally with `docker compose up -d db` and `pytest tests/api/test_users.py::test_create_user -x -vv`, saw the UniqueViolation on users_email_key, traced it to the fixture `make_user()` reusing alice@example.com across tests, switched the fixture to f"user-{uuid4().hex[:8]}@example.com", added an autouse fixture that runs `TRUNCATE users RESTART IDENTITY CASCADE;` between tests, re-ran the whole suite 3 times with -p no:randomly and then with --randomly-seed=12345 to confirm ordering no longer matters, and opened PR #418 titled "fix(tests): isolate user fixtures" (+42 \u22127).',
    ),
    # ------------------------------------------------------------------
    # resolution (lesson fix text)
    # ------------------------------------------------------------------
    (
        "res_requests_timeout",
        "resolution",
        "Pass `timeout=30` to `requests.get()`; the default is no timeout.",
    ),
    (
        "res_dict_get_optional",
        "resolution",
        "Use `d.get('user_id')` instead of `d['user_id']` when the key is optional.",
    ),
    ("res_pip_extras", "resolution", "Install with extras: `pip install 'foo[bar]>=1.2,<2'`"),
    (
        "res_node_options_heap",
        "resolution",
        "Set `NODE_OPTIONS=--max-old-space-size=4096` before `npm run build`.",
    ),
    (
        "res_numbered_steps",
        "resolution",
        "1. Stop the dev server\n2. Delete `.next/`\n3. Run `npm run dev` again",
    ),
    (
        "res_bullet_steps",
        "resolution",
        "- Pin `urllib3<2`\n- Re-lock with `pip-compile --upgrade-package urllib3`",
    ),
    (
        "res_escape_pipe_and_star",
        "resolution",
        "Escape `|` as `\\|` in table cells and `*` as `\\*` in prose.",
    ),
    (
        "res_bash_fence",
        "resolution",
        "Wrap commands in a fence:\n```bash\nchmod +x ./run.sh && ./run.sh\n```",
    ),
    ("res_fence_only", "resolution", '```python\nprint("hello")\n```'),
    (
        "res_four_backticks",
        "resolution",
        "Use four backticks (````) when the snippet itself contains ``` fences.",
    ),
    (
        "res_double_dash_filename",
        "resolution",
        "Put -- before file names that start with a dash: rm -- -rf",
    ),
    (
        "res_js_strict_equality",
        "resolution",
        "Replace == with === in JS comparisons (0 == '' is true).",
    ),
    (
        "res_path_join_dirname",
        "resolution",
        "Use path.join(__dirname, 'public'), not string concatenation.",
    ),
    (
        "res_go_err_check",
        "resolution",
        "In Go, check `err != nil` before dereferencing the returned *T.",
    ),
    (
        "res_python_none_guard",
        "resolution",
        "Handle the None case first:\n\n    if user is None:\n        return {}\n",
    ),
    (
        "res_raw_string_windows",
        "resolution",
        "Use raw strings for Windows paths: r'C:\\Users\\runner\\AppData'",
    ),
    (
        "res_retry_jitter_formula",
        "resolution",
        "Retry on 429/529 with jitter: sleep(min(60, 2**n) + random.random())",
    ),
    (
        "res_html_escape_rules",
        "resolution",
        "HTML-escape user text: < becomes &lt;, > becomes &gt;, & becomes &amp;",
    ),
    (
        "res_sql_placeholders",
        "resolution",
        "Never interpolate into SQL; use placeholders (%s for psycopg, ? for sqlite3, $1 for asyncpg).",
    ),
    (
        "res_cdata_split",
        "resolution",
        "]]> must be split as ]]]]><![CDATA[> inside a CDATA section",
    ),
    (
        "res_go_else_same_line",
        "resolution",
        "} else { must stay on the same line as the closing brace in Go",
    ),
    ("res_email_at_sign", "resolution", "Validate that the address contains exactly one @"),
    (
        "res_trailing_comma_truncated",
        "resolution",
        "Add a trailing comma after the last element: [1, 2, 3,",
    ),
    ("res_yaml_front_matter", "resolution", "---\ntitle: Post\ndate: 2024-01-01\n---"),
    ("res_setext_heading", "resolution", "Summary\n=======\nAll green after pinning numpy<2."),
    (
        "res_markdown_summary_block",
        "resolution",
        "## Summary\n- fixed **bug** in `parse()`\n- see [PR #42](https://github.com/acme/app/pull/42)\n> note: needs a deploy",
    ),
    (
        "res_gitignore_patterns",
        "resolution",
        "Add to .gitignore:\n*.log\n!important.log\n/build/\n**/__pycache__/",
    ),
    (
        "res_regex_escape",
        "resolution",
        "Escape dots in the pattern: ^v\\d+\\.\\d+\\.\\d+(-rc\\.\\d+)?$",
    ),
    (
        "res_crontab_line",
        "resolution",
        "*/5 * * * * /usr/local/bin/healthcheck.sh >> /var/log/hc.log 2>&1",
    ),
    (
        "res_makefile_tab",
        "resolution",
        "Makefile recipes need a real tab:\nbuild:\n\tgo build ./...",
    ),
    ("res_json_patch", "resolution", '[{"op": "replace", "path": "/spec/replicas", "value": 3}]'),
    (
        "res_excel_formula_injection",
        "resolution",
        "=SUM(A1:A3) in a CSV cell is evaluated by Excel; prefix with ' to keep it text",
    ),
    (
        "res_docker_compose_healthcheck",
        "resolution",
        "Add `depends_on: {db: {condition: service_healthy}}` to the web service",
    ),
    (
        "res_git_head_caret_escape_windows",
        "resolution",
        'On cmd.exe, write HEAD^^ (or "HEAD^") because ^ is the escape character',
    ),
    (
        "res_percent_literal_printf",
        "resolution",
        "In printf-style strings write 100%% to print 100%",
    ),
    (
        "res_at_decorator",
        "resolution",
        "@pytest.mark.parametrize('n', [0, -1, 1.5e-3]) covers the edge cases",
    ),
    ("res_question_nullish", "resolution", "?? keeps 0 and '' while || replaces them"),
    (
        "res_semicolon_asi",
        "resolution",
        ";[1, 2].forEach(run) needs the leading semicolon when the file omits them",
    ),
    ("res_colon_css_root", "resolution", ":root { --brand: #FF0000; } defines the theme colour"),
    (
        "res_caret_range_first",
        "resolution",
        "^1.2.3 allows 1.x updates; use ~1.2.3 for patch-only",
    ),
    ("res_backslash_continuation", "resolution", "docker run \\\n  -p 8080:80 \\\n  nginx:1.25"),
    ("res_pipe_tee_sudo", "resolution", "|& tee build.log keeps stderr too (bash 4+)"),
    (
        "res_ampersand_background",
        "resolution",
        "&& only runs the next step when the previous one succeeds",
    ),
    (
        "res_unicode_mixed",
        "resolution",
        "Normalize to NFC before comparing: 'Jos\u00e9' vs 'Jose\u0301' \u2014 see unicodedata.normalize()",
    ),
    (
        "res_long_markdown",
        "resolution",
        '**Root cause:** the worker read `settings.DATABASE_URL` at import time, before `.env` was loaded, so it fell back to `sqlite:///:memory:` and every job saw an empty schema.\n\n**Fix:**\n1. Load `.env` in `app/__init__.py` via `load_dotenv(override=False)`.\n2. Read the URL lazily in `get_engine()` (cached with `@lru_cache(maxsize=1)`).\n3. Add a startup check that fails fast with `RuntimeError("DATABASE_URL not set")`.\n\n| env | before | after |\n|-----|--------|-------|\n| dev | 0/12 \u2705 | 12/12 \u2705 |\n| ci  | flaky (~30%) | stable |\n\nSee docs/runbooks/db.md#startup and PR #512 (`fix(db): lazy engine`).',
    ),
]
