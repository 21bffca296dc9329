"""Labelled error messages for checking how failures are grouped.

SAME holds groups of four messages that are one fault printed four times, with
only the per-occurrence details (ids, hosts, paths, values, times) changing.
APART holds pairs of similar-looking messages that are different faults and
must not be grouped together.
"""

SAME = [
    # ------------------------------------------------------------------ psycopg
    {
        "library": "psycopg",
        "fault": "unique constraint violation on insert",
        "messages": [
            'duplicate key value violates unique constraint "orders_pkey"\nDETAIL:  Key (id)=(41) already exists.',
            'duplicate key value violates unique constraint "users_email_key"\nDETAIL:  Key (email)=(maria.k@example.org) already exists.',
            'duplicate key value violates unique constraint "invoices_number_key"\nDETAIL:  Key (number)=(INV-2024-00318) already exists.',
            'duplicate key value violates unique constraint "orders_pkey"\nDETAIL:  Key (id)=(90211) already exists.',
        ],
    },
    {
        "library": "psycopg",
        "fault": "foreign key violation: referenced parent row missing",
        "messages": [
            'insert or update on table "order_items" violates foreign key constraint "order_items_order_id_fkey"\nDETAIL:  Key (order_id)=(5512) is not present in table "orders".',
            'insert or update on table "order_items" violates foreign key constraint "order_items_order_id_fkey"\nDETAIL:  Key (order_id)=(88140) is not present in table "orders".',
            'insert or update on table "payments" violates foreign key constraint "payments_invoice_id_fkey"\nDETAIL:  Key (invoice_id)=(3f1e2d4c-9a8b-4c7d-8e6f-5a4b3c2d1e0f) is not present in table "invoices".',
            'insert or update on table "comments" violates foreign key constraint "comments_author_id_fkey"\nDETAIL:  Key (author_id)=(7) is not present in table "users".',
        ],
    },
    {
        "library": "psycopg",
        "fault": "database server refuses TCP connection",
        "messages": [
            'connection failed: connection to server at "10.0.3.7", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
            'connection failed: connection to server at "10.0.3.12", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
            'connection failed: connection to server at "172.18.0.4", port 6432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
            'connection failed: connection to server at "192.168.49.2", port 15432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
        ],
    },
    {
        "library": "psycopg",
        "fault": "password authentication failed",
        "messages": [
            'connection failed: connection to server at "db-primary.internal" (10.0.3.7), port 5432 failed: FATAL:  password authentication failed for user "app_rw"',
            'connection failed: connection to server at "db-replica-2.internal" (10.0.3.19), port 5432 failed: FATAL:  password authentication failed for user "report_ro"',
            'connection failed: connection to server at "localhost" (127.0.0.1), port 5432 failed: FATAL:  password authentication failed for user "postgres"',
            'connection failed: connection to server at "pg.staging.example.net" (172.31.44.8), port 6432 failed: FATAL:  password authentication failed for user "migrator"',
        ],
    },
    {
        "library": "psycopg",
        "fault": "table missing (migration not applied)",
        "messages": [
            'relation "billing_events" does not exist\nLINE 1: SELECT * FROM billing_events WHERE id = 7\n                      ^',
            'relation "audit_log" does not exist\nLINE 1: SELECT * FROM audit_log WHERE id = 120394\n                      ^',
            'relation "customer_notes" does not exist\nLINE 1: SELECT * FROM customer_notes WHERE id = 55\n                      ^',
            'relation "billing_events" does not exist\nLINE 1: SELECT * FROM billing_events WHERE id = 88213\n                      ^',
        ],
    },
    {
        "library": "psycopg",
        "fault": "deadlock between two transactions",
        "messages": [
            'deadlock detected\nDETAIL:  Process 48213 waits for ShareLock on transaction 9120331; blocked by process 48207.\nProcess 48207 waits for ShareLock on transaction 9120329; blocked by process 48213.\nHINT:  See server log for query details.\nCONTEXT:  while updating tuple (1021,14) in relation "accounts"',
            'deadlock detected\nDETAIL:  Process 5120 waits for ShareLock on transaction 774102; blocked by process 5133.\nProcess 5133 waits for ShareLock on transaction 774099; blocked by process 5120.\nHINT:  See server log for query details.\nCONTEXT:  while updating tuple (88,3) in relation "accounts"',
            'deadlock detected\nDETAIL:  Process 301877 waits for ShareLock on transaction 55012873; blocked by process 301902.\nProcess 301902 waits for ShareLock on transaction 55012870; blocked by process 301877.\nHINT:  See server log for query details.\nCONTEXT:  while updating tuple (40211,7) in relation "inventory"',
            'deadlock detected\nDETAIL:  Process 912 waits for ShareLock on transaction 18830; blocked by process 907.\nProcess 907 waits for ShareLock on transaction 18828; blocked by process 912.\nHINT:  See server log for query details.\nCONTEXT:  while updating tuple (3,41) in relation "ledger_entries"',
        ],
    },
    {
        "library": "psycopg",
        "fault": "NULL inserted into NOT NULL column",
        "messages": [
            'null value in column "customer_id" of relation "orders" violates not-null constraint\nDETAIL:  Failing row contains (88412, null, 2024-03-02 10:14:55.12+00, pending).',
            'null value in column "customer_id" of relation "orders" violates not-null constraint\nDETAIL:  Failing row contains (88413, null, 2024-03-02 10:15:01.877+00, pending).',
            'null value in column "customer_id" of relation "orders" violates not-null constraint\nDETAIL:  Failing row contains (90007, null, 2024-03-05 23:59:59.5+00, draft).',
            'null value in column "customer_id" of relation "orders" violates not-null constraint\nDETAIL:  Failing row contains (102, null, 2024-01-17 08:00:12.004+00, pending).',
        ],
    },
    {
        "library": "psycopg",
        "fault": "server connection limit reached",
        "messages": [
            'connection failed: connection to server at "10.0.3.7", port 5432 failed: FATAL:  sorry, too many clients already',
            'connection failed: connection to server at "10.0.3.8", port 5432 failed: FATAL:  sorry, too many clients already',
            'connection failed: connection to server at "db-primary.internal" (10.0.3.7), port 5432 failed: FATAL:  sorry, too many clients already',
            'connection failed: connection to server at "172.20.1.15", port 6543 failed: FATAL:  sorry, too many clients already',
        ],
    },
    {
        "library": "psycopg",
        "fault": "non-UUID string passed where uuid expected",
        "messages": [
            'invalid input syntax for type uuid: "abc123"',
            'invalid input syntax for type uuid: "undefined"',
            'invalid input syntax for type uuid: "3f1e2d4c-9a8b-4c7d-8e6f"',
            'invalid input syntax for type uuid: "42"',
        ],
    },
    # -------------------------------------------------------------- mysqlclient
    {
        "library": "mysqlclient",
        "fault": "duplicate entry for unique key",
        "messages": [
            "(1062, \"Duplicate entry 'alice@example.com' for key 'users.email'\")",
            "(1062, \"Duplicate entry 'b.nguyen@example.net' for key 'users.email'\")",
            "(1062, \"Duplicate entry 'SKU-88214' for key 'products.sku'\")",
            "(1062, \"Duplicate entry '4411-2' for key 'cart_items.PRIMARY'\")",
        ],
    },
    {
        "library": "mysqlclient",
        "fault": "MySQL server refuses connection",
        "messages": [
            "(2003, \"Can't connect to MySQL server on '10.0.4.12:3306' (111)\")",
            "(2003, \"Can't connect to MySQL server on 'mysql-primary.db.svc:3306' (111)\")",
            "(2003, \"Can't connect to MySQL server on '127.0.0.1:3307' (111)\")",
            "(2003, \"Can't connect to MySQL server on '172.31.9.240:3306' (111)\")",
        ],
    },
    {
        "library": "mysqlclient",
        "fault": "access denied with wrong password",
        "messages": [
            "(1045, \"Access denied for user 'report_ro'@'10.0.5.21' (using password: YES)\")",
            "(1045, \"Access denied for user 'app'@'172.17.0.3' (using password: YES)\")",
            "(1045, \"Access denied for user 'etl_loader'@'10.0.5.88' (using password: YES)\")",
            "(1045, \"Access denied for user 'app'@'localhost' (using password: YES)\")",
        ],
    },
    {
        "library": "mysqlclient",
        "fault": "table does not exist",
        "messages": [
            "(1146, \"Table 'shop.order_archive' doesn't exist\")",
            "(1146, \"Table 'shop_staging.order_archive' doesn't exist\")",
            "(1146, \"Table 'analytics.daily_rollup_2024_03' doesn't exist\")",
            "(1146, \"Table 'crm.contact_tags' doesn't exist\")",
        ],
    },
    # --------------------------------------------------------------- sqlalchemy
    {
        "library": "sqlalchemy",
        "fault": "unique violation wrapped by SQLAlchemy IntegrityError",
        "messages": [
            "(psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key (email)=(ana@example.com) already exists.\n\n[SQL: INSERT INTO users (email, name) VALUES (%(email)s, %(name)s) RETURNING users.id]\n[parameters: {'email': 'ana@example.com', 'name': 'Ana'}]\n(Background on this error at: https://sqlalche.me/e/20/gkpj)",
            "(psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key (email)=(t.okafor@example.org) already exists.\n\n[SQL: INSERT INTO users (email, name) VALUES (%(email)s, %(name)s) RETURNING users.id]\n[parameters: {'email': 't.okafor@example.org', 'name': 'Tobi Okafor'}]\n(Background on this error at: https://sqlalche.me/e/20/gkpj)",
            "(psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key (email)=(qa+1709374495@example.com) already exists.\n\n[SQL: INSERT INTO users (email, name) VALUES (%(email)s, %(name)s) RETURNING users.id]\n[parameters: {'email': 'qa+1709374495@example.com', 'name': 'QA Bot'}]\n(Background on this error at: https://sqlalche.me/e/20/gkpj)",
            "(psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key (email)=(lee@example.net) already exists.\n\n[SQL: INSERT INTO users (email, name) VALUES (%(email)s, %(name)s) RETURNING users.id]\n[parameters: {'email': 'lee@example.net', 'name': 'J. Lee'}]\n(Background on this error at: https://sqlalche.me/e/20/gkpj)",
        ],
    },
    {
        "library": "sqlalchemy",
        "fault": "connection pool exhausted",
        "messages": [
            "QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00 (Background on this error at: https://sqlalche.me/e/20/3o7r)",
            "QueuePool limit of size 20 overflow 0 reached, connection timed out, timeout 10.00 (Background on this error at: https://sqlalche.me/e/20/3o7r)",
            "QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00 (Background on this error at: https://sqlalche.me/e/14/3o7r)",
            "QueuePool limit of size 10 overflow 5 reached, connection timed out, timeout 60.00 (Background on this error at: https://sqlalche.me/e/20/3o7r)",
        ],
    },
    {
        "library": "sqlalchemy",
        "fault": "lazy load on detached instance",
        "messages": [
            "Instance <User at 0x7f3b2c1d4e50> is not bound to a Session; attribute refresh operation cannot proceed (Background on this error at: https://sqlalche.me/e/20/bhk3)",
            "Instance <User at 0x7f0a11e2c9d0> is not bound to a Session; attribute refresh operation cannot proceed (Background on this error at: https://sqlalche.me/e/20/bhk3)",
            "Instance <User at 0x7fd4c8a01b80> is not bound to a Session; attribute refresh operation cannot proceed (Background on this error at: https://sqlalche.me/e/20/bhk3)",
            "Instance <User at 0x1048f3e50> is not bound to a Session; attribute refresh operation cannot proceed (Background on this error at: https://sqlalche.me/e/20/bhk3)",
        ],
    },
    {
        "library": "sqlalchemy",
        "fault": "SQLite database locked by concurrent writer",
        "messages": [
            "(sqlite3.OperationalError) database is locked\n[SQL: UPDATE jobs SET status=? WHERE jobs.id = ?]\n[parameters: ('running', 4411)]\n(Background on this error at: https://sqlalche.me/e/20/e3q8)",
            "(sqlite3.OperationalError) database is locked\n[SQL: UPDATE jobs SET status=? WHERE jobs.id = ?]\n[parameters: ('done', 4409)]\n(Background on this error at: https://sqlalche.me/e/20/e3q8)",
            "(sqlite3.OperationalError) database is locked\n[SQL: UPDATE jobs SET status=? WHERE jobs.id = ?]\n[parameters: ('failed', 17)]\n(Background on this error at: https://sqlalche.me/e/20/e3q8)",
            "(sqlite3.OperationalError) database is locked\n[SQL: UPDATE jobs SET status=? WHERE jobs.id = ?]\n[parameters: ('running', 120933)]\n(Background on this error at: https://sqlalche.me/e/20/e3q8)",
        ],
    },
    # ------------------------------------------------------------------- django
    {
        "library": "django",
        "fault": "request Host header not in ALLOWED_HOSTS",
        "messages": [
            "Invalid HTTP_HOST header: '203.0.113.45:8000'. You may need to add '203.0.113.45' to ALLOWED_HOSTS.",
            "Invalid HTTP_HOST header: '198.51.100.7'. You may need to add '198.51.100.7' to ALLOWED_HOSTS.",
            "Invalid HTTP_HOST header: 'ec2-54-210-33-18.compute-1.amazonaws.com'. You may need to add 'ec2-54-210-33-18.compute-1.amazonaws.com' to ALLOWED_HOSTS.",
            "Invalid HTTP_HOST header: '10.0.8.14:8000'. You may need to add '10.0.8.14' to ALLOWED_HOSTS.",
        ],
    },
    {
        "library": "django",
        "fault": "reverse() given a slug that does not match the URL pattern",
        "messages": [
            "Reverse for 'post-detail' with keyword arguments '{'slug': 'summer sale'}' not found. 1 pattern(s) tried: ['blog/(?P<slug>[-a-zA-Z0-9_]+)/\\\\Z']",
            "Reverse for 'post-detail' with keyword arguments '{'slug': 'v1.2-release-notes'}' not found. 1 pattern(s) tried: ['blog/(?P<slug>[-a-zA-Z0-9_]+)/\\\\Z']",
            "Reverse for 'post-detail' with keyword arguments '{'slug': 'caf\u00e9-opening'}' not found. 1 pattern(s) tried: ['blog/(?P<slug>[-a-zA-Z0-9_]+)/\\\\Z']",
            "Reverse for 'post-detail' with keyword arguments '{'slug': 'q&a-2024'}' not found. 1 pattern(s) tried: ['blog/(?P<slug>[-a-zA-Z0-9_]+)/\\\\Z']",
        ],
    },
    {
        "library": "django",
        "fault": "CSRF cookie not set on POST",
        "messages": [
            "Forbidden (CSRF cookie not set.): /api/orders/41/cancel/",
            "Forbidden (CSRF cookie not set.): /api/orders/90211/cancel/",
            "Forbidden (CSRF cookie not set.): /api/orders/7/cancel/",
            "Forbidden (CSRF cookie not set.): /api/orders/1288/cancel/",
        ],
    },
    {
        "library": "django",
        "fault": "invalid UUID submitted to a UUIDField",
        "messages": [
            "['\u201cabc123\u201d is not a valid UUID.']",
            "['\u201cundefined\u201d is not a valid UUID.']",
            "['\u201c3f1e2d4c-9a8b-4c7d\u201d is not a valid UUID.']",
            "['\u201cnull\u201d is not a valid UUID.']",
        ],
    },
    {
        "library": "django",
        "fault": "unhandled exception in order detail view (500)",
        "messages": [
            'Internal Server Error: /api/orders/8812/\nTraceback (most recent call last):\n  File "/srv/app/orders/views.py", line 57, in retrieve\n    total = order.total / order.item_count\nZeroDivisionError: division by zero',
            'Internal Server Error: /api/orders/41/\nTraceback (most recent call last):\n  File "/srv/app/orders/views.py", line 57, in retrieve\n    total = order.total / order.item_count\nZeroDivisionError: division by zero',
            'Internal Server Error: /api/orders/120045/\nTraceback (most recent call last):\n  File "/srv/app/orders/views.py", line 57, in retrieve\n    total = order.total / order.item_count\nZeroDivisionError: division by zero',
            'Internal Server Error: /api/orders/3/\nTraceback (most recent call last):\n  File "/srv/app/orders/views.py", line 57, in retrieve\n    total = order.total / order.item_count\nZeroDivisionError: division by zero',
        ],
    },
    {
        "library": "django",
        "fault": "path traversal attempt in uploaded file name",
        "messages": [
            "Detected path traversal attempt in '/srv/media/uploads/../../etc/passwd'",
            "Detected path traversal attempt in '/srv/media/uploads/../settings.py'",
            "Detected path traversal attempt in '/var/www/media/avatars/../../../root/.ssh/id_rsa'",
            "Detected path traversal attempt in '/srv/media/uploads/2024/03/../../../../proc/self/environ'",
        ],
    },
    # ----------------------------------------------------------------- requests
    {
        "library": "requests",
        "fault": "HTTP connection refused by remote service",
        "messages": [
            "HTTPSConnectionPool(host='api.example.com', port=443): Max retries exceeded with url: /v1/items?page=2 (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3b2c1d4e50>: Failed to establish a new connection: [Errno 111] Connection refused'))",
            "HTTPSConnectionPool(host='api.example.com', port=443): Max retries exceeded with url: /v1/items?page=17&sort=-created (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f0a11e2c9d0>: Failed to establish a new connection: [Errno 111] Connection refused'))",
            "HTTPConnectionPool(host='10.0.6.31', port=8080): Max retries exceeded with url: /internal/health (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7fd4c8a01b80>: Failed to establish a new connection: [Errno 111] Connection refused'))",
            "HTTPSConnectionPool(host='inventory.svc.example.net', port=8443): Max retries exceeded with url: /stock/SKU-88214 (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f9e2a3b4c10>: Failed to establish a new connection: [Errno 111] Connection refused'))",
        ],
    },
    {
        "library": "requests",
        "fault": "read timeout waiting for response",
        "messages": [
            "HTTPSConnectionPool(host='api.example.com', port=443): Read timed out. (read timeout=10)",
            "HTTPSConnectionPool(host='reports.example.org', port=443): Read timed out. (read timeout=30)",
            "HTTPConnectionPool(host='10.0.6.31', port=8080): Read timed out. (read timeout=5.0)",
            "HTTPSConnectionPool(host='api.example.com', port=443): Read timed out. (read timeout=60)",
        ],
    },
    {
        "library": "requests",
        "fault": "user resource not found (404)",
        "messages": [
            "404 Client Error: Not Found for url: https://api.example.com/v1/users/8812",
            "404 Client Error: Not Found for url: https://api.example.com/v1/users/41",
            "404 Client Error: Not Found for url: https://api.example.com/v1/users/a7c3e9f0-12b4-4d5e-9f8a-7b6c5d4e3f21",
            "404 Client Error: Not Found for url: https://api.example.com/v1/users/100234?expand=orgs",
        ],
    },
    {
        "library": "requests",
        "fault": "DNS name resolution failed",
        "messages": [
            "HTTPSConnectionPool(host='payments.internal', port=443): Max retries exceeded with url: /charge (Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f3b2c1d4e50>: Failed to resolve 'payments.internal' ([Errno -2] Name or service not known)\"))",
            "HTTPSConnectionPool(host='api.exmaple.com', port=443): Max retries exceeded with url: /v1/items?page=1 (Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f11d0c4a2e0>: Failed to resolve 'api.exmaple.com' ([Errno -2] Name or service not known)\"))",
            "HTTPConnectionPool(host='search-svc', port=9200): Max retries exceeded with url: /_cluster/health (Caused by NameResolutionError(\"<urllib3.connection.HTTPConnection object at 0x7fa8e1b0c7d0>: Failed to resolve 'search-svc' ([Errno -2] Name or service not known)\"))",
            "HTTPSConnectionPool(host='hooks.partner-example.io', port=443): Max retries exceeded with url: /notify/8812 (Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f5c2d3e4f60>: Failed to resolve 'hooks.partner-example.io' ([Errno -2] Name or service not known)\"))",
        ],
    },
    {
        "library": "requests",
        "fault": "TLS certificate verification failed (self-signed chain)",
        "messages": [
            "HTTPSConnectionPool(host='legacy.example.net', port=443): Max retries exceeded with url: / (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)')))",
            "HTTPSConnectionPool(host='git.corp.example.com', port=443): Max retries exceeded with url: /api/v4/projects?per_page=100 (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)')))",
            "HTTPSConnectionPool(host='10.0.2.40', port=8443): Max retries exceeded with url: /metrics (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1000)')))",
            "HTTPSConnectionPool(host='legacy.example.net', port=443): Max retries exceeded with url: /soap/OrderService?wsdl (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)')))",
        ],
    },
    {
        "library": "requests",
        "fault": "connect timeout (host unreachable / firewalled)",
        "messages": [
            "HTTPSConnectionPool(host='10.2.0.5', port=443): Max retries exceeded with url: /health (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f3b2c1d4e50>, 'Connection to 10.2.0.5 timed out. (connect timeout=5)'))",
            "HTTPSConnectionPool(host='api.partner-example.io', port=443): Max retries exceeded with url: /v2/quotes?currency=EUR (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f88a0b1c2d0>, 'Connection to api.partner-example.io timed out. (connect timeout=10)'))",
            "HTTPConnectionPool(host='172.31.7.19', port=8080): Max retries exceeded with url: /status (Caused by ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x7fe0c4d5e6f0>, 'Connection to 172.31.7.19 timed out. (connect timeout=3)'))",
            "HTTPSConnectionPool(host='10.2.0.6', port=443): Max retries exceeded with url: /health (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f2a9b8c7d60>, 'Connection to 10.2.0.6 timed out. (connect timeout=5)'))",
        ],
    },
    # ----------------------------------------------------------------- botocore
    {
        "library": "botocore",
        "fault": "IAM role lacks dynamodb:GetItem permission",
        "messages": [
            "An error occurred (AccessDeniedException) when calling the GetItem operation: User: arn:aws:sts::123456789012:assumed-role/orders-api-prod/i-0a1b2c3d4e5f67890 is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Orders because no identity-based policy allows the dynamodb:GetItem action",
            "An error occurred (AccessDeniedException) when calling the GetItem operation: User: arn:aws:sts::123456789012:assumed-role/orders-api-prod/i-0fedcba9876543210 is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Orders because no identity-based policy allows the dynamodb:GetItem action",
            "An error occurred (AccessDeniedException) when calling the GetItem operation: User: arn:aws:sts::210987654321:assumed-role/orders-api-staging/botocore-session-1709374495 is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:eu-west-1:210987654321:table/Orders because no identity-based policy allows the dynamodb:GetItem action",
            "An error occurred (AccessDeniedException) when calling the GetItem operation: User: arn:aws:sts::123456789012:assumed-role/orders-api-prod/1f2e3d4c5b6a7980 is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Orders because no identity-based policy allows the dynamodb:GetItem action",
        ],
    },
    {
        "library": "botocore",
        "fault": "cannot reach AWS endpoint (network/VPC endpoint)",
        "messages": [
            'Could not connect to the endpoint URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/orders-queue"',
            'Could not connect to the endpoint URL: "https://sqs.us-east-1.amazonaws.com/210987654321/email-outbox"',
            'Could not connect to the endpoint URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/orders-queue-dlq"',
            'Could not connect to the endpoint URL: "https://sqs.ap-southeast-2.amazonaws.com/123456789012/thumbnails"',
        ],
    },
    {
        "library": "botocore",
        "fault": "DynamoDB item missing partition key attribute",
        "messages": [
            "An error occurred (ValidationException) when calling the PutItem operation: One or more parameter values were invalid: Missing the key pk in the item",
            "An error occurred (ValidationException) when calling the PutItem operation: One or more parameter values were invalid: Missing the key order_id in the item",
            "An error occurred (ValidationException) when calling the PutItem operation: One or more parameter values were invalid: Missing the key userId in the item",
            "An error occurred (ValidationException) when calling the PutItem operation: One or more parameter values were invalid: Missing the key tenant_id in the item",
        ],
    },
    {
        "library": "botocore",
        "fault": "Lambda function not deployed in target account/region",
        "messages": [
            "An error occurred (ResourceNotFoundException) when calling the Invoke operation: Function not found: arn:aws:lambda:us-east-1:123456789012:function:resize-images",
            "An error occurred (ResourceNotFoundException) when calling the Invoke operation: Function not found: arn:aws:lambda:eu-central-1:123456789012:function:resize-images",
            "An error occurred (ResourceNotFoundException) when calling the Invoke operation: Function not found: arn:aws:lambda:us-east-1:210987654321:function:resize-images:live",
            "An error occurred (ResourceNotFoundException) when calling the Invoke operation: Function not found: arn:aws:lambda:us-west-2:123456789012:function:resize-images-staging",
        ],
    },
    {
        "library": "botocore",
        "fault": "read timeout talking to S3",
        "messages": [
            'Read timeout on endpoint URL: "https://acme-exports.s3.us-east-1.amazonaws.com/reports/2024/03/02/daily.parquet"',
            'Read timeout on endpoint URL: "https://acme-exports.s3.us-east-1.amazonaws.com/reports/2024/03/05/daily.parquet?partNumber=3&uploadId=VXBsb2FkSWQtMTIzNDU"',
            'Read timeout on endpoint URL: "https://media-uploads-prod.s3.eu-west-1.amazonaws.com/avatars/8812.png"',
            'Read timeout on endpoint URL: "https://acme-backups.s3.us-east-2.amazonaws.com/pg/base-20240302T0100Z.tar.gz"',
        ],
    },
    # ---------------------------------------------------------------- boto3 s3
    {
        "library": "boto3 s3",
        "fault": "upload denied by bucket/IAM policy",
        "messages": [
            "Failed to upload /tmp/export-2024-03-02.csv to reports-prod/exports/2024/03/02/export.csv: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied",
            "Failed to upload /tmp/export-2024-03-05.csv to reports-prod/exports/2024/03/05/export.csv: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied",
            "Failed to upload /var/tmp/tmpk2x9a1/invoice-88412.pdf to acme-invoices/2024/03/invoice-88412.pdf: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied",
            "Failed to upload /srv/app/media/avatars/u41.png to media-uploads-prod/avatars/u41.png: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied",
        ],
    },
    {
        "library": "boto3 s3",
        "fault": "presigned URL used after expiry",
        "messages": [
            '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><X-Amz-Expires>3600</X-Amz-Expires><Expires>2024-03-02T11:14:55Z</Expires><ServerTime>2024-03-02T12:01:07Z</ServerTime><RequestId>8FJ2K7QX3M9TB1RD</RequestId><HostId>r7Yq2c9mXv3L0a1s8dKp5Z+Wn4Hb6Tg2Jf1Ue0Oi9Qy=</HostId></Error>',
            '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><X-Amz-Expires>900</X-Amz-Expires><Expires>2024-03-04T08:15:00Z</Expires><ServerTime>2024-03-04T09:42:31Z</ServerTime><RequestId>Q1W2E3R4T5Y6U7I8</RequestId><HostId>a9Bc8De7Fg6Hi5Jk4Lm3No2Pq1Rs0Tu9Vw8Xy7Za6Bc=</HostId></Error>',
            '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><X-Amz-Expires>3600</X-Amz-Expires><Expires>2024-02-28T23:59:59Z</Expires><ServerTime>2024-03-01T07:12:44Z</ServerTime><RequestId>ZP0K3N8V2C4X6B1M</RequestId><HostId>Kx2Lm9Pq7Rs5Tu3Vw1Xy0Za8Bc6De4Fg2Hi0Jk8Lm6N=</HostId></Error>',
            '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message><X-Amz-Expires>604800</X-Amz-Expires><Expires>2024-03-09T10:00:00Z</Expires><ServerTime>2024-03-11T16:20:05Z</ServerTime><RequestId>7HD0S2FJ4KL6QW8E</RequestId><HostId>Ui4Yt7Re2Wq9Po1Lk3Jh5Gf8Ds0Az6Xc2Vb4Nm7Ql9O=</HostId></Error>',
        ],
    },
    {
        "library": "aws cli",
        "fault": "object key missing when copying from S3",
        "messages": [
            'fatal error: An error occurred (404) when calling the HeadObject operation: Key "exports/2024/03/02/daily.csv" does not exist',
            'fatal error: An error occurred (404) when calling the HeadObject operation: Key "exports/2024/03/03/daily.csv" does not exist',
            'fatal error: An error occurred (404) when calling the HeadObject operation: Key "builds/web/8f3c2a1e/app.tar.gz" does not exist',
            'fatal error: An error occurred (404) when calling the HeadObject operation: Key "models/ranker/v17/weights.bin" does not exist',
        ],
    },
    # ------------------------------------------------------------------- openai
    {
        "library": "openai",
        "fault": "tokens-per-minute rate limit hit",
        "messages": [
            "Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-Xk29LmQp7RtZ4vBn8cWd on tokens per min (TPM): Limit 30000, Used 28512, Requested 2214. Please try again in 1.452s. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
            "Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-Xk29LmQp7RtZ4vBn8cWd on tokens per min (TPM): Limit 30000, Used 29950, Requested 812. Please try again in 1.524s. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
            "Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-Xk29LmQp7RtZ4vBn8cWd on tokens per min (TPM): Limit 30000, Used 21044, Requested 10120. Please try again in 2.328s. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
            "Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-Xk29LmQp7RtZ4vBn8cWd on tokens per min (TPM): Limit 30000, Used 30000, Requested 4471. Please try again in 8.942s. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
        ],
    },
    {
        "library": "openai",
        "fault": "prompt exceeds model context window",
        "messages": [
            "Error code: 400 - {'error': {'message': \"This model's maximum context length is 128000 tokens. However, your messages resulted in 131442 tokens. Please reduce the length of the messages.\", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}",
            "Error code: 400 - {'error': {'message': \"This model's maximum context length is 128000 tokens. However, your messages resulted in 128017 tokens. Please reduce the length of the messages.\", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}",
            "Error code: 400 - {'error': {'message': \"This model's maximum context length is 128000 tokens. However, your messages resulted in 204811 tokens. Please reduce the length of the messages.\", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}",
            "Error code: 400 - {'error': {'message': \"This model's maximum context length is 128000 tokens. However, your messages resulted in 140093 tokens. Please reduce the length of the messages.\", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}",
        ],
    },
    {
        "library": "openai",
        "fault": "invalid or revoked API key",
        "messages": [
            "Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-proj-********************************************************************************************************************************************************Ab1Z. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}}",
            "Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-proj-********************************************************************************************************************************************************x9Qe. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}}",
            "Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-****************************************7kLm. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}}",
            "Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-proj-********************************************************************************************************************************************************T0pW. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_api_key'}}",
        ],
    },
    # ---------------------------------------------------------------- anthropic
    {
        "library": "anthropic",
        "fault": "API overloaded (529)",
        "messages": [
            "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}, 'request_id': 'req_011CTYz3mA7bQp9sLk2WfN4e'}",
            "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}, 'request_id': 'req_011CTZ8hR2xVn5cJd1QeKs7u'}",
            "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}, 'request_id': 'req_011CTa4Pq9LmW3yUb6TfGh2r'}",
            "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}, 'request_id': 'req_011CTbN7kE1sXo8Dz4VcMj5a'}",
        ],
    },
    {
        "library": "anthropic",
        "fault": "input-tokens-per-minute rate limit",
        "messages": [
            "Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'This request would exceed the rate limit for your organization (4a1c2e3f-5b6d-4e8f-9a0b-1c2d3e4f5a6b) of 40,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.'}, 'request_id': 'req_011CTc2Wd8pLx4Nq7Hs1Ra9k'}",
            "Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'This request would exceed the rate limit for your organization (4a1c2e3f-5b6d-4e8f-9a0b-1c2d3e4f5a6b) of 40,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.'}, 'request_id': 'req_011CTc9Fv3bYt6Kr2Mn8Zu1e'}",
            "Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'This request would exceed the rate limit for your organization (9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b) of 40,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.'}, 'request_id': 'req_011CTd1Aq5gHs9Xe3Lp7Wc4n'}",
            "Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'This request would exceed the rate limit for your organization (4a1c2e3f-5b6d-4e8f-9a0b-1c2d3e4f5a6b) of 40,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.'}, 'request_id': 'req_011CTdUy6Rk2Vb8Jm4Qs0Tf3'}",
        ],
    },
    {
        "library": "anthropic",
        "fault": "prompt longer than context window",
        "messages": [
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'prompt is too long: 214332 tokens > 200000 maximum'}, 'request_id': 'req_011CTe3Kp8Ws1Qy5Dn2Xv7Lb'}",
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'prompt is too long: 200118 tokens > 200000 maximum'}, 'request_id': 'req_011CTeH9Zt4Mc6Ra1Uo3Jf8s'}",
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'prompt is too long: 388901 tokens > 200000 maximum'}, 'request_id': 'req_011CTf7Nb2Ec9Yw4Gi6Pq1Kx'}",
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'prompt is too long: 251004 tokens > 200000 maximum'}, 'request_id': 'req_011CTfXr5Lj3Ad8Vh0Sn2Bm7'}",
        ],
    },
    {
        "library": "anthropic",
        "fault": "max_tokens above the model's output limit",
        "messages": [
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'max_tokens: 16000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20241022'}, 'request_id': 'req_011CTgA4Qe7Wr1Ty9Ui3Op5a'}",
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'max_tokens: 8193 > 8192, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20241022'}, 'request_id': 'req_011CTgZ2Sd6Fg8Hj0Kl4Zx1c'}",
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'max_tokens: 32000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20241022'}, 'request_id': 'req_011CThM8Vb3Nm5Qw7Er2Ty9u'}",
            "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'max_tokens: 10000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20241022'}, 'request_id': 'req_011CTi1Io6Pa4Sd9Fg2Hj7Kl'}",
        ],
    },
    # --------------------------------------------------------------- kubernetes
    {
        "library": "kubernetes",
        "fault": "pod no longer exists (replaced by rollout)",
        "messages": [
            'Error from server (NotFound): pods "web-7d9f8b6c5-x2k4p" not found',
            'Error from server (NotFound): pods "web-7d9f8b6c5-q8m2z" not found',
            'Error from server (NotFound): pods "web-5c4b7f9d8-h7wrt" not found',
            'Error from server (NotFound): pods "web-6b8d9c7f4-lk29s" not found',
        ],
    },
    {
        "library": "kubernetes",
        "fault": "service account lacks RBAC to list pods",
        "messages": [
            'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ci:deployer" cannot list resource "pods" in API group "" in the namespace "payments"',
            'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ci:deployer" cannot list resource "pods" in API group "" in the namespace "checkout"',
            'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ci-staging:deployer" cannot list resource "pods" in API group "" in the namespace "payments-staging"',
            'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ci:deployer" cannot list resource "pods" in API group "" in the namespace "search"',
        ],
    },
    {
        "library": "kubernetes",
        "fault": "image tag not present in registry",
        "messages": [
            'Failed to pull image "registry.example.com/web:1.4.2": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/web:1.4.2": failed to resolve reference "registry.example.com/web:1.4.2": registry.example.com/web:1.4.2: not found',
            'Failed to pull image "registry.example.com/web:8f3c2a1e": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/web:8f3c2a1e": failed to resolve reference "registry.example.com/web:8f3c2a1e": registry.example.com/web:8f3c2a1e: not found',
            'Failed to pull image "registry.example.com/worker:2024.03.02-1": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/worker:2024.03.02-1": failed to resolve reference "registry.example.com/worker:2024.03.02-1": registry.example.com/worker:2024.03.02-1: not found',
            'Failed to pull image "registry.example.com/web:1.5.0-rc.3": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/web:1.5.0-rc.3": failed to resolve reference "registry.example.com/web:1.5.0-rc.3": registry.example.com/web:1.5.0-rc.3: not found',
        ],
    },
    {
        "library": "kubernetes",
        "fault": "container crash-looping",
        "messages": [
            "Back-off restarting failed container api in pod api-6f7c9d8b5-4kq2m_payments(3e1f9a2b-7c4d-4e5f-8a6b-9c0d1e2f3a4b)",
            "Back-off restarting failed container api in pod api-6f7c9d8b5-zx8lp_payments(a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d)",
            "Back-off restarting failed container api in pod api-84d5c6b7f9-r2t9w_payments(5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f)",
            "Back-off restarting failed container api in pod api-6f7c9d8b5-mn3vb_payments-staging(c9d8e7f6-a5b4-4c3d-9e2f-1a0b9c8d7e6f)",
        ],
    },
    {
        "library": "kubernetes",
        "fault": "container killed for exceeding memory limit",
        "messages": [
            "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Sat, 02 Mar 2024 10:14:55 +0000\n      Finished:     Sat, 02 Mar 2024 10:19:12 +0000",
            "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Sat, 02 Mar 2024 11:02:31 +0000\n      Finished:     Sat, 02 Mar 2024 11:03:07 +0000",
            "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Mon, 04 Mar 2024 22:47:10 +0000\n      Finished:     Tue, 05 Mar 2024 01:15:58 +0000",
            "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Fri, 08 Mar 2024 06:00:02 +0000\n      Finished:     Fri, 08 Mar 2024 06:00:49 +0000",
        ],
    },
    {
        "library": "kubernetes",
        "fault": "pod unschedulable: insufficient memory",
        "messages": [
            "0/12 nodes are available: 12 Insufficient memory. preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod.",
            "0/9 nodes are available: 9 Insufficient memory. preemption: 0/9 nodes are available: 9 No preemption victims found for incoming pod.",
            "0/15 nodes are available: 15 Insufficient memory. preemption: 0/15 nodes are available: 15 No preemption victims found for incoming pod.",
            "0/6 nodes are available: 6 Insufficient memory. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.",
        ],
    },
    {
        "library": "kubernetes",
        "fault": "API server unreachable from kubectl",
        "messages": [
            "Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout",
            "Unable to connect to the server: dial tcp 172.20.0.10:443: i/o timeout",
            "Unable to connect to the server: dial tcp 34.118.227.91:443: i/o timeout",
            "Unable to connect to the server: dial tcp 10.100.0.1:443: i/o timeout",
        ],
    },
    # ------------------------------------------------------------------- docker
    {
        "library": "docker",
        "fault": "container name already in use",
        "messages": [
            'docker: Error response from daemon: Conflict. The container name "/web" is already in use by container "3f4e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f". You have to remove (or rename) that container to be able to reuse that name.',
            'docker: Error response from daemon: Conflict. The container name "/web" is already in use by container "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90". You have to remove (or rename) that container to be able to reuse that name.',
            'docker: Error response from daemon: Conflict. The container name "/pg-test-41" is already in use by container "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0". You have to remove (or rename) that container to be able to reuse that name.',
            'docker: Error response from daemon: Conflict. The container name "/ci-runner-88" is already in use by container "0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c". You have to remove (or rename) that container to be able to reuse that name.',
        ],
    },
    {
        "library": "docker",
        "fault": "host port already allocated",
        "messages": [
            "docker: Error response from daemon: driver failed programming external connectivity on endpoint web (8b1f0c2e9d3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c): Bind for 0.0.0.0:8080 failed: port is already allocated.",
            "docker: Error response from daemon: driver failed programming external connectivity on endpoint web (2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d): Bind for 0.0.0.0:8080 failed: port is already allocated.",
            "docker: Error response from daemon: driver failed programming external connectivity on endpoint pg-test-41 (f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f): Bind for 0.0.0.0:5432 failed: port is already allocated.",
            "docker: Error response from daemon: driver failed programming external connectivity on endpoint redis (7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b): Bind for 127.0.0.1:6379 failed: port is already allocated.",
        ],
    },
    {
        "library": "docker",
        "fault": "CI image tag was never pushed",
        "messages": [
            "Error response from daemon: manifest for registry.example.com/web:8f3c2a1e not found: manifest unknown: manifest unknown",
            "Error response from daemon: manifest for registry.example.com/web:b71d09c4 not found: manifest unknown: manifest unknown",
            "Error response from daemon: manifest for registry.example.com/web:pr-1842 not found: manifest unknown: manifest unknown",
            "Error response from daemon: manifest for registry.example.com/web:5e2a7f13 not found: manifest unknown: manifest unknown",
        ],
    },
    {
        "library": "docker",
        "fault": "Docker daemon not running / socket unreachable",
        "messages": [
            "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
            "Cannot connect to the Docker daemon at unix:///run/user/1000/docker.sock. Is the docker daemon running?",
            "Cannot connect to the Docker daemon at tcp://10.0.0.5:2375. Is the docker daemon running?",
            "Cannot connect to the Docker daemon at unix:///Users/ana/.docker/run/docker.sock. Is the docker daemon running?",
        ],
    },
    {
        "library": "docker",
        "fault": "container id no longer exists",
        "messages": [
            "Error response from daemon: No such container: 3f4e5a6b7c8d",
            "Error response from daemon: No such container: a1b2c3d4e5f6",
            "Error response from daemon: No such container: 9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",
            "Error response from daemon: No such container: 0d1c2b3a4f5e",
        ],
    },
    {
        "library": "docker",
        "fault": "Docker Hub anonymous pull rate limit",
        "messages": [
            'Error response from daemon: Head "https://registry-1.docker.io/v2/library/node/manifests/20-alpine": toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
            'Error response from daemon: Head "https://registry-1.docker.io/v2/library/postgres/manifests/16": toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
            'Error response from daemon: Head "https://registry-1.docker.io/v2/library/python/manifests/3.12-slim": toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
            'Error response from daemon: Head "https://registry-1.docker.io/v2/bitnami/redis/manifests/7.2.4": toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
        ],
    },
    # ---------------------------------------------------------------------- git
    {
        "library": "git",
        "fault": "merge conflict in a source file",
        "messages": [
            "Auto-merging src/app/models.py\nCONFLICT (content): Merge conflict in src/app/models.py\nAutomatic merge failed; fix conflicts and then commit the result.",
            "Auto-merging src/app/views.py\nCONFLICT (content): Merge conflict in src/app/views.py\nAutomatic merge failed; fix conflicts and then commit the result.",
            "Auto-merging package-lock.json\nCONFLICT (content): Merge conflict in package-lock.json\nAutomatic merge failed; fix conflicts and then commit the result.",
            "Auto-merging docs/changelog.md\nCONFLICT (content): Merge conflict in docs/changelog.md\nAutomatic merge failed; fix conflicts and then commit the result.",
        ],
    },
    {
        "library": "git",
        "fault": "push rejected: remote has newer commits",
        "messages": [
            "To github.com:acme/widgets.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:acme/widgets.git'",
            "To github.com:acme/billing.git\n ! [rejected]        release/2024.03 -> release/2024.03 (fetch first)\nerror: failed to push some refs to 'github.com:acme/billing.git'",
            "To https://gitlab.example.com/platform/infra.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'https://gitlab.example.com/platform/infra.git'",
            "To github.com:acme/widgets.git\n ! [rejected]        feature/login-rate-limit -> feature/login-rate-limit (fetch first)\nerror: failed to push some refs to 'github.com:acme/widgets.git'",
        ],
    },
    {
        "library": "git",
        "fault": "checkout of a branch that does not exist locally or remotely",
        "messages": [
            "error: pathspec 'feature/login' did not match any file(s) known to git",
            "error: pathspec 'fix/JIRA-4411-null-email' did not match any file(s) known to git",
            "error: pathspec 'release/2024.03' did not match any file(s) known to git",
            "error: pathspec 'dependabot/npm_and_yarn/axios-1.6.7' did not match any file(s) known to git",
        ],
    },
    {
        "library": "git",
        "fault": "remote host name cannot be resolved",
        "messages": [
            "fatal: unable to access 'https://git.example.com/team/repo.git/': Could not resolve host: git.example.com",
            "fatal: unable to access 'https://gitlab.corp.example.net/platform/infra.git/': Could not resolve host: gitlab.corp.example.net",
            "fatal: unable to access 'https://github.com/acme/widgets.git/': Could not resolve host: github.com",
            "fatal: unable to access 'https://git.example.com/data/pipelines.git/': Could not resolve host: git.example.com",
        ],
    },
    {
        "library": "git",
        "fault": "SSH key not accepted by git host",
        "messages": [
            "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.",
            "git@gitlab.example.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.",
            "git@bitbucket.org: Permission denied (publickey).\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.",
            "git@10.0.1.44: Permission denied (publickey).\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.",
        ],
    },
    {
        "library": "git",
        "fault": "uncommitted local changes block checkout",
        "messages": [
            "error: Your local changes to the following files would be overwritten by checkout:\n\tsrc/settings.py\nPlease commit your changes or stash them before you switch branches.\nAborting",
            "error: Your local changes to the following files would be overwritten by checkout:\n\tpackage.json\n\tyarn.lock\nPlease commit your changes or stash them before you switch branches.\nAborting",
            "error: Your local changes to the following files would be overwritten by checkout:\n\tterraform/prod/main.tf\nPlease commit your changes or stash them before you switch branches.\nAborting",
            "error: Your local changes to the following files would be overwritten by checkout:\n\tREADME.md\n\tsrc/app/urls.py\n\tsrc/app/views.py\nPlease commit your changes or stash them before you switch branches.\nAborting",
        ],
    },
    # ---------------------------------------------------------------------- npm
    {
        "library": "npm",
        "fault": "private scoped package not found (registry auth/scope not configured)",
        "messages": [
            "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fui-kit - Not found\nnpm ERR! 404 \nnpm ERR! 404  '@acme/ui-kit@^2.3.0' is not in this registry.",
            "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2feslint-config - Not found\nnpm ERR! 404 \nnpm ERR! 404  '@acme/eslint-config@1.0.4' is not in this registry.",
            "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fapi-client - Not found\nnpm ERR! 404 \nnpm ERR! 404  '@acme/api-client@^0.18.2' is not in this registry.",
            "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fui-kit - Not found\nnpm ERR! 404 \nnpm ERR! 404  '@acme/ui-kit@2.4.1' is not in this registry.",
        ],
    },
    {
        "library": "npm",
        "fault": "global install without permission to /usr/local",
        "messages": [
            "npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /usr/local/lib/node_modules/typescript\nnpm ERR! errno -13\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/typescript'",
            "npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /usr/local/lib/node_modules/pnpm\nnpm ERR! errno -13\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/pnpm'",
            "npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /usr/local/lib/node_modules/@angular\nnpm ERR! errno -13\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/@angular'",
            "npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /usr/local/lib/node_modules/serve\nnpm ERR! errno -13\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/serve'",
        ],
    },
    {
        "library": "npm",
        "fault": "peer dependency conflict on react",
        "messages": [
            'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! \nnpm ERR! While resolving: web-app@1.4.0\nnpm ERR! Found: react@18.2.0\nnpm ERR! node_modules/react\nnpm ERR!   react@"^18.2.0" from the root project',
            'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! \nnpm ERR! While resolving: web-app@1.4.1\nnpm ERR! Found: react@18.2.0\nnpm ERR! node_modules/react\nnpm ERR!   react@"^18.2.0" from the root project',
            'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! \nnpm ERR! While resolving: admin-dashboard@0.9.12\nnpm ERR! Found: react@18.3.1\nnpm ERR! node_modules/react\nnpm ERR!   react@"^18.3.1" from the root project',
            'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! \nnpm ERR! While resolving: web-app@1.5.0-beta.2\nnpm ERR! Found: react@18.2.0\nnpm ERR! node_modules/react\nnpm ERR!   react@"18.2.0" from the root project',
        ],
    },
    {
        "library": "npm",
        "fault": "requested version of a package does not exist",
        "messages": [
            "npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for lodash@5.0.1.\nnpm ERR! notarget In most cases you or one of your dependencies are requesting\nnpm ERR! notarget a package version that doesn't exist.",
            "npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for axios@^2.0.0.\nnpm ERR! notarget In most cases you or one of your dependencies are requesting\nnpm ERR! notarget a package version that doesn't exist.",
            "npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for @types/node@22.99.0.\nnpm ERR! notarget In most cases you or one of your dependencies are requesting\nnpm ERR! notarget a package version that doesn't exist.",
            "npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for express@4.19.9.\nnpm ERR! notarget In most cases you or one of your dependencies are requesting\nnpm ERR! notarget a package version that doesn't exist.",
        ],
    },
    # ---------------------------------------------------------------------- pip
    {
        "library": "pip",
        "fault": "pinned version not available for this platform/index",
        "messages": [
            "ERROR: Could not find a version that satisfies the requirement torch==2.9.1 (from versions: 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2, 2.2.0)\nERROR: No matching distribution found for torch==2.9.1",
            "ERROR: Could not find a version that satisfies the requirement numpy==2.4.0 (from versions: 1.24.0, 1.24.1, 1.24.2, 1.24.3, 1.24.4)\nERROR: No matching distribution found for numpy==2.4.0",
            "ERROR: Could not find a version that satisfies the requirement django==6.1 (from versions: 4.2, 4.2.1, 4.2.2, 5.0, 5.0.1, 5.0.2, 5.0.3)\nERROR: No matching distribution found for django==6.1",
            "ERROR: Could not find a version that satisfies the requirement pandas==3.1.0 (from versions: 2.0.0, 2.0.1, 2.0.2, 2.0.3, 2.1.0, 2.1.1, 2.1.2, 2.1.3, 2.1.4, 2.2.0, 2.2.1)\nERROR: No matching distribution found for pandas==3.1.0",
        ],
    },
    {
        "library": "pip",
        "fault": "install into system site-packages without permission",
        "messages": [
            "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/six.py'\nConsider using the `--user` option or check the permissions.",
            "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/local/lib/python3.11/site-packages/requests'\nConsider using the `--user` option or check the permissions.",
            "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/local/lib/python3.12/dist-packages/urllib3-2.2.1.dist-info'\nConsider using the `--user` option or check the permissions.",
            "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/opt/conda/lib/python3.10/site-packages/yaml/__init__.py'\nConsider using the `--user` option or check the permissions.",
        ],
    },
    {
        "library": "pip",
        "fault": "unsatisfiable dependency pins",
        "messages": [
            "ERROR: Cannot install flask==2.0.3 and werkzeug==3.0.1 because these package versions have conflicting dependencies.",
            "ERROR: Cannot install flask==2.2.5 and werkzeug==3.0.1 because these package versions have conflicting dependencies.",
            "ERROR: Cannot install flask==2.0.3 and werkzeug==3.0.2 because these package versions have conflicting dependencies.",
            "ERROR: Cannot install flask==2.1.0 and werkzeug==3.0.3 because these package versions have conflicting dependencies.",
        ],
    },
    # ----------------------------------------------------------------- redis-py
    {
        "library": "redis-py",
        "fault": "Redis server refuses connection",
        "messages": [
            "Error 111 connecting to 10.0.3.9:6379. Connection refused.",
            "Error 111 connecting to localhost:6379. Connection refused.",
            "Error 111 connecting to redis-master.cache.svc.cluster.local:6379. Connection refused.",
            "Error 111 connecting to 172.18.0.5:6380. Connection refused.",
        ],
    },
    {
        "library": "redis-py",
        "fault": "Redis host name does not resolve",
        "messages": [
            "Error -2 connecting to redis-master.cache.svc:6379. Name or service not known.",
            "Error -2 connecting to redis:6379. Name or service not known.",
            "Error -2 connecting to sessions-redis.prod.internal:6379. Name or service not known.",
            "Error -2 connecting to redis-master.cache-staging.svc:6380. Name or service not known.",
        ],
    },
    {
        "library": "redis-py",
        "fault": "cluster slot moved (client not cluster-aware)",
        "messages": [
            "MOVED 3999 10.0.7.12:6381",
            "MOVED 12182 10.0.7.14:6379",
            "MOVED 866 10.0.7.11:6380",
            "MOVED 15495 10.0.7.13:6379",
        ],
    },
    # ------------------------------------------------------------------- celery
    {
        "library": "celery",
        "fault": "worker received a task name it has not registered",
        "messages": [
            "Received unregistered task of type 'billing.tasks.charge_customer'.\nThe message has been ignored and discarded.\n\nDid you remember to import the module containing this task?\nOr maybe you're using relative imports?\n\nPlease see\nhttps://docs.celeryq.dev/en/latest/internals/protocol.html\nfor more information.\n\nThe full contents of the message body was:\nb'[[4411], {}, {\"callbacks\": null, \"errbacks\": null, \"chain\": null, \"chord\": null}]' (81b)\n\nThe full contents of the message headers:\n{'lang': 'py', 'task': 'billing.tasks.charge_customer', 'id': '3f1e2d4c-9a8b-4c7d-8e6f-5a4b3c2d1e0f'}",
            "Received unregistered task of type 'billing.tasks.charge_customer'.\nThe message has been ignored and discarded.\n\nDid you remember to import the module containing this task?\nOr maybe you're using relative imports?\n\nPlease see\nhttps://docs.celeryq.dev/en/latest/internals/protocol.html\nfor more information.\n\nThe full contents of the message body was:\nb'[[90211], {}, {\"callbacks\": null, \"errbacks\": null, \"chain\": null, \"chord\": null}]' (82b)\n\nThe full contents of the message headers:\n{'lang': 'py', 'task': 'billing.tasks.charge_customer', 'id': 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d'}",
            "Received unregistered task of type 'billing.tasks.charge_customer'.\nThe message has been ignored and discarded.\n\nDid you remember to import the module containing this task?\nOr maybe you're using relative imports?\n\nPlease see\nhttps://docs.celeryq.dev/en/latest/internals/protocol.html\nfor more information.\n\nThe full contents of the message body was:\nb'[[7], {}, {\"callbacks\": null, \"errbacks\": null, \"chain\": null, \"chord\": null}]' (78b)\n\nThe full contents of the message headers:\n{'lang': 'py', 'task': 'billing.tasks.charge_customer', 'id': '5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f'}",
            "Received unregistered task of type 'billing.tasks.charge_customer'.\nThe message has been ignored and discarded.\n\nDid you remember to import the module containing this task?\nOr maybe you're using relative imports?\n\nPlease see\nhttps://docs.celeryq.dev/en/latest/internals/protocol.html\nfor more information.\n\nThe full contents of the message body was:\nb'[[1288], {}, {\"callbacks\": null, \"errbacks\": null, \"chain\": null, \"chord\": null}]' (81b)\n\nThe full contents of the message headers:\n{'lang': 'py', 'task': 'billing.tasks.charge_customer', 'id': 'c9d8e7f6-a5b4-4c3d-9e2f-1a0b9c8d7e6f'}",
        ],
    },
    {
        "library": "celery",
        "fault": "task exceeded hard time limit",
        "messages": [
            "Hard time limit (300s) exceeded for reports.tasks.build_report[7c9e6679-7425-40de-944b-e07fc1f90ae7]",
            "Hard time limit (300s) exceeded for reports.tasks.build_report[16fd2706-8baf-433b-82eb-8c7fada847da]",
            "Hard time limit (300s) exceeded for reports.tasks.build_report[886313e1-3b8a-4372-9b90-0c9aee199e5d]",
            "Hard time limit (300s) exceeded for reports.tasks.build_report[e4eaaaf2-d142-41b2-8d47-5cd4b2f1b9a6]",
        ],
    },
    {
        "library": "celery",
        "fault": "worker process killed (SIGKILL) mid-task",
        "messages": [
            "Task handler raised error: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: 1843.')",
            "Task handler raised error: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: 1877.')",
            "Task handler raised error: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: 22.')",
            "Task handler raised error: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: 40519.')",
        ],
    },
    {
        "library": "celery",
        "fault": "broker (RabbitMQ) unreachable",
        "messages": [
            "consumer: Cannot connect to amqp://guest:**@10.0.2.4:5672//: [Errno 111] Connection refused.\nTrying again in 2.00 seconds... (1/100)",
            "consumer: Cannot connect to amqp://guest:**@10.0.2.4:5672//: [Errno 111] Connection refused.\nTrying again in 4.00 seconds... (2/100)",
            "consumer: Cannot connect to amqp://celery:**@rabbitmq.queue.svc:5672/prod: [Errno 111] Connection refused.\nTrying again in 6.00 seconds... (3/100)",
            "consumer: Cannot connect to amqp://celery:**@172.18.0.7:5672//: [Errno 111] Connection refused.\nTrying again in 32.00 seconds... (16/100)",
        ],
    },
    # --------------------------------------------------------------------- node
    {
        "library": "node",
        "fault": "database port refuses connection",
        "messages": [
            "Error: connect ECONNREFUSED 10.0.3.7:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
            "Error: connect ECONNREFUSED 10.0.3.12:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
            "Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)",
            "Error: connect ECONNREFUSED 172.18.0.4:6432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
        ],
    },
    {
        "library": "node",
        "fault": "DNS lookup failed for upstream host",
        "messages": [
            "Error: getaddrinfo ENOTFOUND api.internal.example.com",
            "Error: getaddrinfo ENOTFOUND payments-svc",
            "Error: getaddrinfo ENOTFOUND hooks.partner-example.io",
            "Error: getaddrinfo ENOTFOUND redis-master.cache.svc.cluster.local",
        ],
    },
    {
        "library": "node",
        "fault": "missing per-tenant config file",
        "messages": [
            "Error: ENOENT: no such file or directory, open '/srv/app/config/tenants/acme.json'",
            "Error: ENOENT: no such file or directory, open '/srv/app/config/tenants/globex.json'",
            "Error: ENOENT: no such file or directory, open '/srv/app/config/tenants/initech-eu.json'",
            "Error: ENOENT: no such file or directory, open '/srv/app/config/tenants/umbrella.json'",
        ],
    },
    {
        "library": "node",
        "fault": "reading id of undefined order in route handler",
        "messages": [
            "TypeError: Cannot read properties of undefined (reading 'id')\n    at getOrder (/srv/app/src/routes/orders.js:42:27)\n    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)",
            "TypeError: Cannot read properties of undefined (reading 'id')\n    at getOrder (/srv/app/src/routes/orders.js:42:27)\n    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)\n    at next (/srv/app/node_modules/express/lib/router/route.js:149:13)",
            "TypeError: Cannot read properties of undefined (reading 'id')\n    at getOrder (/home/runner/work/shop/shop/src/routes/orders.js:42:27)\n    at Layer.handle [as handle_request] (/home/runner/work/shop/shop/node_modules/express/lib/router/layer.js:95:5)",
            "TypeError: Cannot read properties of undefined (reading 'id')\n    at getOrder (/app/src/routes/orders.js:42:27)\n    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)",
        ],
    },
    {
        "library": "node",
        "fault": "port already in use on startup",
        "messages": [
            "Error: listen EADDRINUSE: address already in use :::3000",
            "Error: listen EADDRINUSE: address already in use :::8080",
            "Error: listen EADDRINUSE: address already in use 0.0.0.0:3000",
            "Error: listen EADDRINUSE: address already in use 127.0.0.1:5173",
        ],
    },
    {
        "library": "node",
        "fault": "V8 heap out of memory",
        "messages": [
            "<--- Last few GCs --->\n\n[48213:0x5a1c2e0]    91234 ms: Mark-Compact 2041.3 (2083.1) -> 2039.8 (2083.6) MB, 1523.44 / 0.00 ms  (average mu = 0.112, current mu = 0.021) allocation failure; scavenge might not succeed\n\n\n<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
            "<--- Last few GCs --->\n\n[7:0x6b3f1a0]   412077 ms: Mark-Compact 4044.9 (4130.2) -> 4041.1 (4131.0) MB, 3011.72 / 0.00 ms  (average mu = 0.094, current mu = 0.008) allocation failure; scavenge might not succeed\n\n\n<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
            "<--- Last few GCs --->\n\n[1:0x7f2c4e0]    30518 ms: Mark-Compact 2043.0 (2081.7) -> 2040.5 (2082.2) MB, 988.10 / 0.00 ms  (average mu = 0.231, current mu = 0.044) allocation failure; scavenge might not succeed\n\n\n<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
            "<--- Last few GCs --->\n\n[30442:0x58e7d40]  1280911 ms: Mark-Compact 2045.6 (2084.9) -> 2044.2 (2085.1) MB, 1760.02 / 0.00 ms  (average mu = 0.150, current mu = 0.017) allocation failure; scavenge might not succeed\n\n\n<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
        ],
    },
    {
        "library": "node",
        "fault": "dependency not installed",
        "messages": [
            "Error: Cannot find module 'express'\nRequire stack:\n- /srv/app/src/index.js",
            "Error: Cannot find module 'express'\nRequire stack:\n- /app/src/index.js",
            "Error: Cannot find module 'express'\nRequire stack:\n- /home/runner/work/api/api/src/index.js",
            "Error: Cannot find module 'express'\nRequire stack:\n- /Users/ana/code/api/src/index.js",
        ],
    },
    # --------------------------------------------------------------------- java
    {
        "library": "java",
        "fault": "NullPointerException: order has no customer when notifying",
        "messages": [
            'Exception in thread "pool-3-thread-7" java.lang.NullPointerException: Cannot invoke "com.acme.orders.Customer.getEmail()" because "customer" is null\n\tat com.acme.orders.OrderService.notify(OrderService.java:118)\n\tat com.acme.orders.OrderService.lambda$submit$0(OrderService.java:64)\n\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
            'Exception in thread "pool-3-thread-2" java.lang.NullPointerException: Cannot invoke "com.acme.orders.Customer.getEmail()" because "customer" is null\n\tat com.acme.orders.OrderService.notify(OrderService.java:118)\n\tat com.acme.orders.OrderService.lambda$submit$0(OrderService.java:64)\n\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
            'Exception in thread "pool-1-thread-15" java.lang.NullPointerException: Cannot invoke "com.acme.orders.Customer.getEmail()" because "customer" is null\n\tat com.acme.orders.OrderService.notify(OrderService.java:118)\n\tat com.acme.orders.OrderService.lambda$submit$0(OrderService.java:64)\n\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)',
            'Exception in thread "pool-3-thread-11" java.lang.NullPointerException: Cannot invoke "com.acme.orders.Customer.getEmail()" because "customer" is null\n\tat com.acme.orders.OrderService.notify(OrderService.java:118)\n\tat com.acme.orders.OrderService.lambda$submit$0(OrderService.java:64)\n\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
        ],
    },
    {
        "library": "java",
        "fault": "HikariCP pool exhausted",
        "messages": [
            "java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30004ms (total=10, active=10, idle=0, waiting=3)",
            "java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30001ms (total=10, active=10, idle=0, waiting=17)",
            "java.sql.SQLTransientConnectionException: HikariPool-2 - Connection is not available, request timed out after 30012ms (total=10, active=10, idle=0, waiting=0)",
            "java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30007ms (total=20, active=20, idle=0, waiting=41)",
        ],
    },
    {
        "library": "java",
        "fault": "nightly import file missing",
        "messages": [
            "java.io.FileNotFoundException: /var/data/import/batch-20240302.csv (No such file or directory)",
            "java.io.FileNotFoundException: /var/data/import/batch-20240303.csv (No such file or directory)",
            "java.io.FileNotFoundException: /var/data/import/batch-20240311.csv (No such file or directory)",
            "java.io.FileNotFoundException: /mnt/share/import/batch-20240229.csv (No such file or directory)",
        ],
    },
    {
        "library": "java",
        "fault": "non-numeric string parsed as integer",
        "messages": [
            'java.lang.NumberFormatException: For input string: "12a"',
            'java.lang.NumberFormatException: For input string: "N/A"',
            'java.lang.NumberFormatException: For input string: "4 411"',
            'java.lang.NumberFormatException: For input string: "0x1F"',
        ],
    },
    {
        "library": "java",
        "fault": "PostgreSQL JDBC connection refused",
        "messages": [
            "org.postgresql.util.PSQLException: Connection to 10.0.3.7:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
            "org.postgresql.util.PSQLException: Connection to localhost:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
            "org.postgresql.util.PSQLException: Connection to db-primary.internal:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
            "org.postgresql.util.PSQLException: Connection to 172.18.0.4:6432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
        ],
    },
    {
        "library": "java",
        "fault": "JVM heap exhausted",
        "messages": [
            'Exception in thread "http-nio-8080-exec-14" java.lang.OutOfMemoryError: Java heap space',
            'Exception in thread "http-nio-8080-exec-3" java.lang.OutOfMemoryError: Java heap space',
            'Exception in thread "kafka-consumer-worker-2" java.lang.OutOfMemoryError: Java heap space',
            'Exception in thread "scheduling-1" java.lang.OutOfMemoryError: Java heap space',
        ],
    },
    # ------------------------------------------------------------ go net/http
    {
        "library": "go net/http",
        "fault": "Redis/TCP dependency refusing connections",
        "messages": [
            "dial tcp 10.0.3.7:6379: connect: connection refused",
            "dial tcp 10.0.3.9:6379: connect: connection refused",
            "dial tcp 127.0.0.1:6379: connect: connection refused",
            "dial tcp [::1]:6379: connect: connection refused",
        ],
    },
    {
        "library": "go net/http",
        "fault": "HTTP client timeout awaiting response headers",
        "messages": [
            'Get "https://api.example.com/v1/items?page=2": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
            'Get "https://api.example.com/v1/items?page=31&limit=100": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
            'Get "http://10.0.6.31:8080/internal/stock/SKU-88214": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
            'Get "https://api.example.com/v1/items?cursor=eyJpZCI6ODgxMn0": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
        ],
    },
    {
        "library": "go net/http",
        "fault": "service name does not resolve in cluster DNS",
        "messages": [
            'Post "http://billing.svc:8080/charge": dial tcp: lookup billing.svc on 10.96.0.10:53: no such host',
            'Post "http://billing.svc:8080/charge/8812/capture": dial tcp: lookup billing.svc on 10.96.0.10:53: no such host',
            'Post "http://billing.payments.svc:8080/refund": dial tcp: lookup billing.payments.svc on 172.20.0.10:53: no such host',
            'Get "http://inventory:9000/stock?sku=SKU-4411": dial tcp: lookup inventory on 127.0.0.11:53: no such host',
        ],
    },
    {
        "library": "go net/http",
        "fault": "client closed connection during TLS handshake (probe/scanner)",
        "messages": [
            "http: TLS handshake error from 10.0.8.14:51544: EOF",
            "http: TLS handshake error from 10.0.8.17:40122: EOF",
            "http: TLS handshake error from 203.0.113.45:61008: EOF",
            "http: TLS handshake error from [2001:db8::17]:33870: EOF",
        ],
    },
    {
        "library": "go net/http",
        "fault": "nil pointer dereference inside handler",
        "messages": [
            "http: panic serving 10.0.8.14:51544: runtime error: invalid memory address or nil pointer dereference\ngoroutine 1842 [running]:\nnet/http.(*conn).serve.func1()\n\t/usr/local/go/src/net/http/server.go:1868 +0xb0",
            "http: panic serving 10.0.8.22:37110: runtime error: invalid memory address or nil pointer dereference\ngoroutine 99 [running]:\nnet/http.(*conn).serve.func1()\n\t/usr/local/go/src/net/http/server.go:1868 +0xb0",
            "http: panic serving 127.0.0.1:60412: runtime error: invalid memory address or nil pointer dereference\ngoroutine 40233 [running]:\nnet/http.(*conn).serve.func1()\n\t/usr/local/go/src/net/http/server.go:1868 +0xb0",
            "http: panic serving 10.0.8.14:52001: runtime error: invalid memory address or nil pointer dereference\ngoroutine 7 [running]:\nnet/http.(*conn).serve.func1()\n\t/usr/local/go/src/net/http/server.go:1868 +0xb0",
        ],
    },
    {
        "library": "go net/http",
        "fault": "database closed idle connection (reset by peer)",
        "messages": [
            "read tcp 10.0.1.5:43122->10.0.3.7:5432: read: connection reset by peer",
            "read tcp 10.0.1.5:43988->10.0.3.7:5432: read: connection reset by peer",
            "read tcp 10.0.1.9:51200->10.0.3.7:5432: read: connection reset by peer",
            "read tcp 172.18.0.6:38814->172.18.0.4:5432: read: connection reset by peer",
        ],
    },
    # ------------------------------------------------------------------- stripe
    {
        "library": "stripe",
        "fault": "customer id from another account/mode (test vs live)",
        "messages": [
            "Request req_Ab12Cd34Ef56Gh: No such customer: 'cus_PqR7sT8uV9wX0y'",
            "Request req_Zy98Xw76Vu54Ts: No such customer: 'cus_NbM3kL2jH1gF0d'",
            "Request req_Qw12Er34Ty56Ui: No such customer: 'cus_Q8a7S6d5F4g3H2'",
            "Request req_Lk09Jh87Gf65Ds: No such customer: 'cus_OzX1cV2bN3mA4s'",
        ],
    },
    {
        "library": "stripe",
        "fault": "card declined (generic)",
        "messages": [
            "Request req_Mn34Bv56Cx78Za: Your card was declined.",
            "Request req_Po09Iu87Yt65Re: Your card was declined.",
            "Request req_As12Df34Gh56Jk: Your card was declined.",
            "Request req_Wq90Ep81Ro72Ti: Your card was declined.",
        ],
    },
    {
        "library": "stripe",
        "fault": "idempotency key reused with different parameters",
        "messages": [
            "Request req_Hy67Ju89Ki01Lo: Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'order-8812-charge' if you meant to execute a different request.",
            "Request req_Tg45Rf67Ed89Ws: Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'order-41-charge' if you meant to execute a different request.",
            "Request req_Bn23Mk45Lj67Hg: Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '3f1e2d4c-9a8b-4c7d-8e6f-5a4b3c2d1e0f' if you meant to execute a different request.",
            "Request req_Cv56Xz78As90Qw: Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'order-120045-charge' if you meant to execute a different request.",
        ],
    },
    {
        "library": "stripe",
        "fault": "confirming a PaymentIntent that already succeeded",
        "messages": [
            "Request req_Ui89Op01As23Df: You cannot confirm this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action.",
            "Request req_Gh45Jk67Lz89Xc: You cannot confirm this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action.",
            "Request req_Vb01Nm23Qw45Er: You cannot confirm this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action.",
            "Request req_Ty67Ui89Op01Pa: You cannot confirm this PaymentIntent because it has a status of succeeded. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action.",
        ],
    },
    # ------------------------------------------------------------------- twilio
    {
        "library": "twilio",
        "fault": "recipient number is not a valid phone number",
        "messages": [
            "HTTP 400 error: Unable to create record: The 'To' number +1555010 is not a valid phone number.",
            "HTTP 400 error: Unable to create record: The 'To' number 0612345 is not a valid phone number.",
            "HTTP 400 error: Unable to create record: The 'To' number +4401234 is not a valid phone number.",
            "HTTP 400 error: Unable to create record: The 'To' number 12345 is not a valid phone number.",
        ],
    },
    {
        "library": "twilio",
        "fault": "fetching a message SID that does not exist",
        "messages": [
            "HTTP 404 error: Unable to fetch record: The requested resource /2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages/SM1a2b3c4d5e6f708192a3b4c5d6e7f809.json was not found",
            "HTTP 404 error: Unable to fetch record: The requested resource /2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages/SMf0e1d2c3b4a5968778695a4b3c2d1e0f.json was not found",
            "HTTP 404 error: Unable to fetch record: The requested resource /2010-04-01/Accounts/ACfedcba9876543210fedcba9876543210/Messages/SM9a8b7c6d5e4f30211203f4e5d6c7b8a9.json was not found",
            "HTTP 404 error: Unable to fetch record: The requested resource /2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages/SM00112233445566778899aabbccddeeff.json was not found",
        ],
    },
    # --------------------------------------------------------------- playwright
    {
        "library": "playwright",
        "fault": "submit button stays disabled so click times out",
        "messages": [
            'TimeoutError: page.click: Timeout 30000ms exceeded.\nCall log:\n  - waiting for locator("#submit-order")\n  - locator resolved to <button disabled id="submit-order" class="btn btn-primary">Place order</button>\n  - attempting click action\n  - waiting for element to be visible, enabled and stable\n  - element is not enabled\n  - retrying click action, attempt #57',
            'TimeoutError: page.click: Timeout 30000ms exceeded.\nCall log:\n  - waiting for locator("#submit-order")\n  - locator resolved to <button disabled id="submit-order" class="btn btn-primary">Place order</button>\n  - attempting click action\n  - waiting for element to be visible, enabled and stable\n  - element is not enabled\n  - retrying click action, attempt #61',
            'TimeoutError: page.click: Timeout 10000ms exceeded.\nCall log:\n  - waiting for locator("#submit-order")\n  - locator resolved to <button disabled id="submit-order" class="btn btn-primary">Place order</button>\n  - attempting click action\n  - waiting for element to be visible, enabled and stable\n  - element is not enabled\n  - retrying click action, attempt #19',
            'TimeoutError: page.click: Timeout 15000ms exceeded.\nCall log:\n  - waiting for locator("#submit-order")\n  - locator resolved to <button disabled id="submit-order" class="btn btn-primary">Place order</button>\n  - attempting click action\n  - waiting for element to be visible, enabled and stable\n  - element is not enabled\n  - retrying click action, attempt #28',
        ],
    },
    {
        "library": "playwright",
        "fault": "dev server not running when test navigates",
        "messages": [
            'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/checkout?cart=8812\nCall log:\n  - navigating to "http://localhost:3000/checkout?cart=8812", waiting until "load"',
            'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/checkout?cart=41\nCall log:\n  - navigating to "http://localhost:3000/checkout?cart=41", waiting until "load"',
            'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:4173/login?next=%2Faccount\nCall log:\n  - navigating to "http://127.0.0.1:4173/login?next=%2Faccount", waiting until "load"',
            'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:8080/\nCall log:\n  - navigating to "http://localhost:8080/", waiting until "load"',
        ],
    },
    {
        "library": "playwright",
        "fault": "browser binaries not installed",
        "messages": [
            "Error: browserType.launch: Executable doesn't exist at /home/runner/.cache/ms-playwright/chromium-1105/chrome-linux/chrome\n\u2554\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2557\n\u2551 Looks like Playwright Test or Playwright was just installed or updated. \u2551\n\u2551 Please run the following command to download new browsers:              \u2551\n\u2551                                                                         \u2551\n\u2551     npx playwright install                                              \u2551",
            "Error: browserType.launch: Executable doesn't exist at /home/runner/.cache/ms-playwright/chromium-1112/chrome-linux/chrome\n\u2554\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2557\n\u2551 Looks like Playwright Test or Playwright was just installed or updated. \u2551\n\u2551 Please run the following command to download new browsers:              \u2551\n\u2551                                                                         \u2551\n\u2551     npx playwright install                                              \u2551",
            "Error: browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium-1105/chrome-linux/chrome\n\u2554\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2557\n\u2551 Looks like Playwright Test or Playwright was just installed or updated. \u2551\n\u2551 Please run the following command to download new browsers:              \u2551\n\u2551                                                                         \u2551\n\u2551     npx playwright install                                              \u2551",
            "Error: browserType.launch: Executable doesn't exist at /Users/ana/Library/Caches/ms-playwright/chromium-1097/chrome-mac/Chromium.app/Contents/MacOS/Chromium\n\u2554\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2550\u2557\n\u2551 Looks like Playwright Test or Playwright was just installed or updated. \u2551\n\u2551 Please run the following command to download new browsers:              \u2551\n\u2551                                                                         \u2551\n\u2551     npx playwright install                                              \u2551",
        ],
    },
    # ----------------------------------------------------------------- selenium
    {
        "library": "selenium",
        "fault": "login button selector not found",
        "messages": [
            'Message: no such element: Unable to locate element: {"method":"css selector","selector":"#login-button"}\n  (Session info: chrome=122.0.6261.94)\nStacktrace:\n#0 0x55d6c2f0b1a3 <unknown>\n#1 0x55d6c2bf9d21 <unknown>',
            'Message: no such element: Unable to locate element: {"method":"css selector","selector":"#login-button"}\n  (Session info: chrome=122.0.6261.111)\nStacktrace:\n#0 0x5612a8e4c3f3 <unknown>\n#1 0x5612a8b3a0c1 <unknown>',
            'Message: no such element: Unable to locate element: {"method":"css selector","selector":"#login-button"}\n  (Session info: chrome=123.0.6312.58)\nStacktrace:\n#0 0x563e1d7a9e83 <unknown>\n#1 0x563e1d497f51 <unknown>',
            'Message: no such element: Unable to locate element: {"method":"css selector","selector":"#login-button"}\n  (Session info: chrome=122.0.6261.94)\nStacktrace:\n#0 0x55b0f4e2a1a3 <unknown>\n#1 0x55b0f4b18d21 <unknown>',
        ],
    },
    {
        "library": "selenium",
        "fault": "cookie banner intercepts click",
        "messages": [
            'Message: element click intercepted: Element <button id="checkout" class="btn">Checkout</button> is not clickable at point (412, 618). Other element would receive the click: <div class="cookie-banner"></div>\n  (Session info: chrome=122.0.6261.94)',
            'Message: element click intercepted: Element <button id="checkout" class="btn">Checkout</button> is not clickable at point (640, 702). Other element would receive the click: <div class="cookie-banner"></div>\n  (Session info: chrome=122.0.6261.94)',
            'Message: element click intercepted: Element <button id="checkout" class="btn">Checkout</button> is not clickable at point (188, 540). Other element would receive the click: <div class="cookie-banner"></div>\n  (Session info: chrome=123.0.6312.58)',
            'Message: element click intercepted: Element <button id="checkout" class="btn">Checkout</button> is not clickable at point (412, 655). Other element would receive the click: <div class="cookie-banner"></div>\n  (Session info: chrome=122.0.6261.111)',
        ],
    },
    {
        "library": "selenium",
        "fault": "renderer hung (page load timeout)",
        "messages": [
            "Message: timeout: Timed out receiving message from renderer: 299.718\n  (Session info: chrome=122.0.6261.94)",
            "Message: timeout: Timed out receiving message from renderer: 299.502\n  (Session info: chrome=122.0.6261.94)",
            "Message: timeout: Timed out receiving message from renderer: 59.861\n  (Session info: chrome=123.0.6312.58)",
            "Message: timeout: Timed out receiving message from renderer: 119.930\n  (Session info: chrome=122.0.6261.111)",
        ],
    },
    # ----------------------------------------------------------------- pydantic
    {
        "library": "pydantic",
        "fault": "quantity field receives a non-integer string",
        "messages": [
            "1 validation error for OrderIn\nquantity\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='12a', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.6/v/int_parsing",
            "1 validation error for OrderIn\nquantity\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='two', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.6/v/int_parsing",
            "1 validation error for OrderIn\nquantity\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.7/v/int_parsing",
            "1 validation error for OrderIn\nquantity\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='1,000', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.5/v/int_parsing",
        ],
    },
    {
        "library": "pydantic",
        "fault": "required email field missing from payload",
        "messages": [
            "1 validation error for UserCreate\nemail\n  Field required [type=missing, input_value={'name': 'Ana', 'age': 31}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.6/v/missing",
            "1 validation error for UserCreate\nemail\n  Field required [type=missing, input_value={'name': 'Tobi Okafor'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.6/v/missing",
            "1 validation error for UserCreate\nemail\n  Field required [type=missing, input_value={'name': 'J. Lee', 'age': 44, 'phone': '+15550100'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.7/v/missing",
            "1 validation error for UserCreate\nemail\n  Field required [type=missing, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.6/v/missing",
        ],
    },
    {
        "library": "pydantic",
        "fault": "unexpected extra field in strict model",
        "messages": [
            "1 validation error for WebhookEvent\nretry_count\n  Extra inputs are not permitted [type=extra_forbidden, input_value=3, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.6/v/extra_forbidden",
            "1 validation error for WebhookEvent\nretry_count\n  Extra inputs are not permitted [type=extra_forbidden, input_value=0, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.6/v/extra_forbidden",
            "1 validation error for WebhookEvent\nretry_count\n  Extra inputs are not permitted [type=extra_forbidden, input_value=12, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.7/v/extra_forbidden",
            "1 validation error for WebhookEvent\nretry_count\n  Extra inputs are not permitted [type=extra_forbidden, input_value=1, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.6/v/extra_forbidden",
        ],
    },
    # --------------------------------------------------------------- jsonschema
    {
        "library": "jsonschema",
        "fault": "required property email missing",
        "messages": [
            "'email' is a required property\n\nFailed validating 'required' in schema:\n    {'properties': {'email': {'type': 'string'}, 'name': {'type': 'string'}},\n     'required': ['email', 'name'],\n     'type': 'object'}\n\nOn instance:\n    {'name': 'Ana'}",
            "'email' is a required property\n\nFailed validating 'required' in schema:\n    {'properties': {'email': {'type': 'string'}, 'name': {'type': 'string'}},\n     'required': ['email', 'name'],\n     'type': 'object'}\n\nOn instance:\n    {'name': 'Tobi Okafor'}",
            "'email' is a required property\n\nFailed validating 'required' in schema:\n    {'properties': {'email': {'type': 'string'}, 'name': {'type': 'string'}},\n     'required': ['email', 'name'],\n     'type': 'object'}\n\nOn instance:\n    {'mail': 'lee@example.net', 'name': 'J. Lee'}",
            "'email' is a required property\n\nFailed validating 'required' in schema:\n    {'properties': {'email': {'type': 'string'}, 'name': {'type': 'string'}},\n     'required': ['email', 'name'],\n     'type': 'object'}\n\nOn instance:\n    {'name': ''}",
        ],
    },
    {
        "library": "jsonschema",
        "fault": "quantity sent as string instead of integer",
        "messages": [
            "'12' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['quantity']:\n    {'type': 'integer'}\n\nOn instance['quantity']:\n    '12'",
            "'3' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['quantity']:\n    {'type': 'integer'}\n\nOn instance['quantity']:\n    '3'",
            "'100' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['quantity']:\n    {'type': 'integer'}\n\nOn instance['quantity']:\n    '100'",
            "'1' is not of type 'integer'\n\nFailed validating 'type' in schema['properties']['quantity']:\n    {'type': 'integer'}\n\nOn instance['quantity']:\n    '1'",
        ],
    },
    {
        "library": "jsonschema",
        "fault": "status value outside the allowed enum",
        "messages": [
            "'pending-review' is not one of ['draft', 'submitted', 'approved']",
            "'Approved' is not one of ['draft', 'submitted', 'approved']",
            "'archived' is not one of ['draft', 'submitted', 'approved']",
            "'' is not one of ['draft', 'submitted', 'approved']",
        ],
    },
    # --------------------------------------------------------------------- grpc
    {
        "library": "grpc",
        "fault": "gRPC backend unavailable (connection refused)",
        "messages": [
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.5.3:50051: Failed to connect to remote host: Connection refused"\n\tdebug_error_string = "UNKNOWN:failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.5.3:50051: Failed to connect to remote host: Connection refused {created_time:"2024-03-02T10:14:55.123456789+00:00", grpc_status:14}"\n>',
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.5.4:50051: Failed to connect to remote host: Connection refused"\n\tdebug_error_string = "UNKNOWN:failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.5.4:50051: Failed to connect to remote host: Connection refused {created_time:"2024-03-02T10:15:02.987654321+00:00", grpc_status:14}"\n>',
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:50052: Failed to connect to remote host: Connection refused"\n\tdebug_error_string = "UNKNOWN:failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:50052: Failed to connect to remote host: Connection refused {created_time:"2024-03-05T22:01:44.000118502+00:00", grpc_status:14}"\n>',
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:172.20.3.18:9090: Failed to connect to remote host: Connection refused"\n\tdebug_error_string = "UNKNOWN:failed to connect to all addresses; last error: UNKNOWN: ipv4:172.20.3.18:9090: Failed to connect to remote host: Connection refused {grpc_status:14, created_time:"2024-03-08T06:00:49.731200113+00:00"}"\n>',
        ],
    },
    {
        "library": "grpc",
        "fault": "RPC deadline exceeded",
        "messages": [
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = "Deadline Exceeded"\n\tdebug_error_string = "UNKNOWN:Deadline Exceeded {grpc_status:4, created_time:"2024-03-02T10:14:55.123456789+00:00"}"\n>',
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = "Deadline Exceeded"\n\tdebug_error_string = "UNKNOWN:Deadline Exceeded {grpc_status:4, created_time:"2024-03-02T10:16:31.550021874+00:00"}"\n>',
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = "Deadline Exceeded"\n\tdebug_error_string = "UNKNOWN:Deadline Exceeded {grpc_status:4, created_time:"2024-03-04T03:22:10.000981230+00:00"}"\n>',
            '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = "Deadline Exceeded"\n\tdebug_error_string = "UNKNOWN:Deadline Exceeded {created_time:"2024-03-09T18:45:00.414141414+00:00", grpc_status:4}"\n>',
        ],
    },
    {
        "library": "grpc",
        "fault": "order lookup by id returns NotFound",
        "messages": [
            "rpc error: code = NotFound desc = order 8812 not found",
            "rpc error: code = NotFound desc = order 41 not found",
            "rpc error: code = NotFound desc = order 120045 not found",
            "rpc error: code = NotFound desc = order 7 not found",
        ],
    },
    # ---------------------------------------------------------------- terraform
    {
        "library": "terraform",
        "fault": "state lock held by another run",
        "messages": [
            'Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  ID:        8c1e2f3a-4b5c-6d7e-8f9a-0b1c2d3e4f5a\n  Path:      acme-tf-state/prod/terraform.tfstate\n  Operation: OperationTypeApply\n  Who:       runner@ip-10-0-1-23\n  Version:   1.7.4\n  Created:   2024-03-02 10:14:55.123456789 +0000 UTC\n  Info:      \n\n\nTerraform acquires a state lock to protect the state from being written\nby multiple users at the same time. Please resolve the issue above and try\nagain. For most commands, you can disable locking with the "-lock=false"\nflag, but this is not recommended.',
            'Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  ID:        1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d\n  Path:      acme-tf-state/prod/terraform.tfstate\n  Operation: OperationTypePlan\n  Who:       ana@ana-laptop\n  Version:   1.7.4\n  Created:   2024-03-04 08:02:17.000918273 +0000 UTC\n  Info:      \n\n\nTerraform acquires a state lock to protect the state from being written\nby multiple users at the same time. Please resolve the issue above and try\nagain. For most commands, you can disable locking with the "-lock=false"\nflag, but this is not recommended.',
            'Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  ID:        f9e8d7c6-b5a4-9382-7160-5f4e3d2c1b0a\n  Path:      acme-tf-state/staging/terraform.tfstate\n  Operation: OperationTypeApply\n  Who:       runner@ip-10-0-1-57\n  Version:   1.6.6\n  Created:   2024-03-05 23:41:09.554433221 +0000 UTC\n  Info:      \n\n\nTerraform acquires a state lock to protect the state from being written\nby multiple users at the same time. Please resolve the issue above and try\nagain. For most commands, you can disable locking with the "-lock=false"\nflag, but this is not recommended.',
            'Error: Error acquiring the state lock\n\nError message: ConditionalCheckFailedException: The conditional request failed\nLock Info:\n  ID:        0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e\n  Path:      acme-tf-state/prod/terraform.tfstate\n  Operation: OperationTypeApply\n  Who:       runner@ip-10-0-1-23\n  Version:   1.7.5\n  Created:   2024-03-11 16:20:05.101010101 +0000 UTC\n  Info:      \n\n\nTerraform acquires a state lock to protect the state from being written\nby multiple users at the same time. Please resolve the issue above and try\nagain. For most commands, you can disable locking with the "-lock=false"\nflag, but this is not recommended.',
        ],
    },
    {
        "library": "terraform",
        "fault": "S3 bucket name already taken globally",
        "messages": [
            'Error: creating S3 Bucket (acme-logs-prod): operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: 8FJ2K7QX3M9TB1RD, HostID: r7Yq2c9mXv3L0a1s8dKp5Z+Wn4Hb6Tg2Jf1Ue0Oi9Qy=, BucketAlreadyExists: \n\n  with aws_s3_bucket.logs,\n  on s3.tf line 1, in resource "aws_s3_bucket" "logs":\n   1: resource "aws_s3_bucket" "logs" {',
            'Error: creating S3 Bucket (acme-logs-prod): operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: Q1W2E3R4T5Y6U7I8, HostID: a9Bc8De7Fg6Hi5Jk4Lm3No2Pq1Rs0Tu9Vw8Xy7Za6Bc=, BucketAlreadyExists: \n\n  with aws_s3_bucket.logs,\n  on s3.tf line 1, in resource "aws_s3_bucket" "logs":\n   1: resource "aws_s3_bucket" "logs" {',
            'Error: creating S3 Bucket (acme-assets-staging): operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: ZP0K3N8V2C4X6B1M, HostID: Kx2Lm9Pq7Rs5Tu3Vw1Xy0Za8Bc6De4Fg2Hi0Jk8Lm6N=, BucketAlreadyExists: \n\n  with aws_s3_bucket.assets,\n  on s3.tf line 14, in resource "aws_s3_bucket" "assets":\n  14: resource "aws_s3_bucket" "assets" {',
            'Error: creating S3 Bucket (data-exports): operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: 7HD0S2FJ4KL6QW8E, HostID: Ui4Yt7Re2Wq9Po1Lk3Jh5Gf8Ds0Az6Xc2Vb4Nm7Ql9O=, BucketAlreadyExists: \n\n  with aws_s3_bucket.exports,\n  on storage.tf line 3, in resource "aws_s3_bucket" "exports":\n   3: resource "aws_s3_bucket" "exports" {',
        ],
    },
    {
        "library": "terraform",
        "fault": "misspelled argument 'defualt' in variable block",
        "messages": [
            'Error: Unsupported argument\n\n  on variables.tf line 12, in variable "region":\n  12:   defualt = "us-east-1"\n\nAn argument named "defualt" is not expected here.',
            'Error: Unsupported argument\n\n  on variables.tf line 3, in variable "environment":\n   3:   defualt = "prod"\n\nAn argument named "defualt" is not expected here.',
            'Error: Unsupported argument\n\n  on modules/db/variables.tf line 27, in variable "instance_class":\n  27:   defualt = "db.t3.medium"\n\nAn argument named "defualt" is not expected here.',
            'Error: Unsupported argument\n\n  on variables.tf line 40, in variable "replicas":\n  40:   defualt = 3\n\nAn argument named "defualt" is not expected here.',
        ],
    },
    # ------------------------------------------------------------- kafka-python
    {
        "library": "kafka-python",
        "fault": "producer cannot fetch topic metadata in time",
        "messages": [
            "KafkaTimeoutError: Failed to update metadata after 60.0 secs.",
            "KafkaTimeoutError: Failed to update metadata after 30.0 secs.",
            "KafkaTimeoutError: Failed to update metadata after 10.0 secs.",
            "KafkaTimeoutError: Failed to update metadata after 120.0 secs.",
        ],
    },
    {
        "library": "kafka-python",
        "fault": "broker refuses connection",
        "messages": [
            "<BrokerConnection node_id=bootstrap-0 host=kafka-0.kafka:9092 <connecting> [IPv4 ('10.0.9.4', 9092)]>: Connect attempt returned error 111. Disconnecting.",
            "<BrokerConnection node_id=bootstrap-1 host=kafka-1.kafka:9092 <connecting> [IPv4 ('10.0.9.5', 9092)]>: Connect attempt returned error 111. Disconnecting.",
            "<BrokerConnection node_id=2 host=kafka-2.kafka.svc.cluster.local:9092 <connecting> [IPv4 ('10.0.9.6', 9092)]>: Connect attempt returned error 111. Disconnecting.",
            "<BrokerConnection node_id=bootstrap-0 host=localhost:29092 <connecting> [IPv4 ('127.0.0.1', 29092)]>: Connect attempt returned error 111. Disconnecting.",
        ],
    },
    {
        "library": "kafka-python",
        "fault": "message larger than max_request_size",
        "messages": [
            "MessageSizeTooLargeError: The message is 1583201 bytes when serialized which is larger than the maximum request size you have configured with the max_request_size configuration",
            "MessageSizeTooLargeError: The message is 1048700 bytes when serialized which is larger than the maximum request size you have configured with the max_request_size configuration",
            "MessageSizeTooLargeError: The message is 4210988 bytes when serialized which is larger than the maximum request size you have configured with the max_request_size configuration",
            "MessageSizeTooLargeError: The message is 2097233 bytes when serialized which is larger than the maximum request size you have configured with the max_request_size configuration",
        ],
    },
    # ------------------------------------------------------------ elasticsearch
    {
        "library": "elasticsearch",
        "fault": "daily index created twice (race)",
        "messages": [
            "BadRequestError(400, 'resource_already_exists_exception', 'index [orders-2024.03.02/AbCdEfGhIjKlMnOpQrStUv] already exists')",
            "BadRequestError(400, 'resource_already_exists_exception', 'index [orders-2024.03.03/Zx9Yw8Vu7Ts6Rq5Po4Nm3L] already exists')",
            "BadRequestError(400, 'resource_already_exists_exception', 'index [orders-2024.03.11/k2J3h4G5f6D7s8A9q0W1eR] already exists')",
            "BadRequestError(400, 'resource_already_exists_exception', 'index [orders-2024.02.29/Pq1Wo2Ei3Ru4Ty5Ua6Sd7F] already exists')",
        ],
    },
    {
        "library": "elasticsearch",
        "fault": "query against a daily index that has not been created",
        "messages": [
            "NotFoundError(404, 'index_not_found_exception', 'no such index [logs-2024.03.01]', logs-2024.03.01, index_or_alias)",
            "NotFoundError(404, 'index_not_found_exception', 'no such index [logs-2024.03.02]', logs-2024.03.02, index_or_alias)",
            "NotFoundError(404, 'index_not_found_exception', 'no such index [logs-2024.02.29]', logs-2024.02.29, index_or_alias)",
            "NotFoundError(404, 'index_not_found_exception', 'no such index [logs-2024.03.15]', logs-2024.03.15, index_or_alias)",
        ],
    },
    {
        "library": "elasticsearch",
        "fault": "optimistic concurrency conflict on document update",
        "messages": [
            "ConflictError(409, 'version_conflict_engine_exception', '[8812]: version conflict, required seqNo [1042], primary term [3]. current document has seqNo [1043] and primary term [3]')",
            "ConflictError(409, 'version_conflict_engine_exception', '[41]: version conflict, required seqNo [17], primary term [1]. current document has seqNo [19] and primary term [1]')",
            "ConflictError(409, 'version_conflict_engine_exception', '[a7c3e9f0-12b4-4d5e-9f8a-7b6c5d4e3f21]: version conflict, required seqNo [90211], primary term [5]. current document has seqNo [90212] and primary term [5]')",
            "ConflictError(409, 'version_conflict_engine_exception', '[120045]: version conflict, required seqNo [3], primary term [2]. current document has seqNo [4] and primary term [2]')",
        ],
    },
    {
        "library": "elasticsearch",
        "fault": "non-numeric value in float field",
        "messages": [
            "BadRequestError(400, 'document_parsing_exception', \"[1:42] failed to parse field [price] of type [float] in document with id '8812'. Preview of field's value: 'abc'\")",
            "BadRequestError(400, 'document_parsing_exception', \"[1:118] failed to parse field [price] of type [float] in document with id '41'. Preview of field's value: 'N/A'\")",
            "BadRequestError(400, 'document_parsing_exception', \"[1:57] failed to parse field [price] of type [float] in document with id 'a7c3e9f0'. Preview of field's value: '12,50'\")",
            "BadRequestError(400, 'document_parsing_exception', \"[3:9] failed to parse field [price] of type [float] in document with id '120045'. Preview of field's value: ''\")",
        ],
    },
    # ------------------------------------------------------------------ mongodb
    {
        "library": "mongodb",
        "fault": "duplicate key on unique email index",
        "messages": [
            "E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"ana@example.com\" }, full error: {'index': 0, 'code': 11000, 'errmsg': 'E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"ana@example.com\" }', 'keyPattern': {'email': 1}, 'keyValue': {'email': 'ana@example.com'}}",
            "E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"t.okafor@example.org\" }, full error: {'index': 0, 'code': 11000, 'errmsg': 'E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"t.okafor@example.org\" }', 'keyPattern': {'email': 1}, 'keyValue': {'email': 't.okafor@example.org'}}",
            "E11000 duplicate key error collection: shop_staging.users index: email_1 dup key: { email: \"qa+1709374495@example.com\" }, full error: {'index': 0, 'code': 11000, 'errmsg': 'E11000 duplicate key error collection: shop_staging.users index: email_1 dup key: { email: \"qa+1709374495@example.com\" }', 'keyPattern': {'email': 1}, 'keyValue': {'email': 'qa+1709374495@example.com'}}",
            "E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"lee@example.net\" }, full error: {'index': 0, 'code': 11000, 'errmsg': 'E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"lee@example.net\" }', 'keyPattern': {'email': 1}, 'keyValue': {'email': 'lee@example.net'}}",
        ],
    },
    {
        "library": "mongodb",
        "fault": "server selection timeout: connection refused",
        "messages": [
            "mongo-0.mongo.db.svc:27017: [Errno 111] Connection refused, Timeout: 30s, Topology Description: <TopologyDescription id: 65e2f0a1c3b4d5e6f7a8b9c0, topology_type: Unknown, servers: [<ServerDescription ('mongo-0.mongo.db.svc', 27017) server_type: Unknown, rtt: None, error=AutoReconnect('mongo-0.mongo.db.svc:27017: [Errno 111] Connection refused')>]>",
            "mongo-0.mongo.db.svc:27017: [Errno 111] Connection refused, Timeout: 30s, Topology Description: <TopologyDescription id: 65e30b7d9a1c2e4f6a8b0c1d, topology_type: Unknown, servers: [<ServerDescription ('mongo-0.mongo.db.svc', 27017) server_type: Unknown, rtt: None, error=AutoReconnect('mongo-0.mongo.db.svc:27017: [Errno 111] Connection refused')>]>",
            "localhost:27017: [Errno 111] Connection refused, Timeout: 30s, Topology Description: <TopologyDescription id: 65e4a2c8f1d3b5a7c9e0f2a4, topology_type: Unknown, servers: [<ServerDescription ('localhost', 27017) server_type: Unknown, rtt: None, error=AutoReconnect('localhost:27017: [Errno 111] Connection refused')>]>",
            "10.0.11.8:27018: [Errno 111] Connection refused, Timeout: 5.0s, Topology Description: <TopologyDescription id: 65eb1f0e2d3c4b5a69788796, topology_type: Unknown, servers: [<ServerDescription ('10.0.11.8', 27018) server_type: Unknown, rtt: None, error=AutoReconnect('10.0.11.8:27018: [Errno 111] Connection refused')>]>",
        ],
    },
    {
        "library": "mongodb",
        "fault": "query exceeded maxTimeMS",
        "messages": [
            "operation exceeded time limit, full error: {'ok': 0.0, 'errmsg': 'operation exceeded time limit', 'code': 50, 'codeName': 'MaxTimeMSExpired', '$clusterTime': {'clusterTime': Timestamp(1709374495, 3), 'signature': {'hash': b'\\x1a\\x9f\\x02\\xc4\\x11\\x8e\\x7b\\x30\\x55\\xe1\\x0d\\x92\\x6a\\xbf\\x44\\x08\\x3c\\xd7\\x21\\x9e', 'keyId': 7291038475619283969}}, 'operationTime': Timestamp(1709374495, 3)}",
            "operation exceeded time limit, full error: {'ok': 0.0, 'errmsg': 'operation exceeded time limit', 'code': 50, 'codeName': 'MaxTimeMSExpired', '$clusterTime': {'clusterTime': Timestamp(1709380012, 11), 'signature': {'hash': b'\\x8b\\x02\\x7f\\x19\\xaa\\x30\\x64\\xd2\\x0e\\x51\\xc9\\x3a\\xf7\\x12\\x88\\x46\\x05\\xbe\\x6d\\x73', 'keyId': 7291038475619283969}}, 'operationTime': Timestamp(1709380012, 9)}",
            "operation exceeded time limit, full error: {'ok': 0.0, 'errmsg': 'operation exceeded time limit', 'code': 50, 'codeName': 'MaxTimeMSExpired', '$clusterTime': {'clusterTime': Timestamp(1709591130, 1), 'signature': {'hash': b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00', 'keyId': 0}}, 'operationTime': Timestamp(1709591130, 1)}",
            "operation exceeded time limit, full error: {'ok': 0.0, 'errmsg': 'operation exceeded time limit', 'code': 50, 'codeName': 'MaxTimeMSExpired', '$clusterTime': {'clusterTime': Timestamp(1710174005, 27), 'signature': {'hash': b'\\xe4\\x5c\\x91\\x0b\\x3d\\x77\\xa2\\x18\\xcf\\x60\\x09\\xb3\\x5e\\x21\\xd4\\x8a\\x6f\\x13\\xc2\\x97', 'keyId': 7301120094482661377}}, 'operationTime': Timestamp(1710174005, 27)}",
        ],
    },
    # ------------------------------------------------------------------- gcloud
    {
        "library": "gcloud",
        "fault": "VM instance name already exists",
        "messages": [
            "ERROR: (gcloud.compute.instances.create) Could not fetch resource:\n - The resource 'projects/acme-prod/zones/us-central1-a/instances/web-3' already exists",
            "ERROR: (gcloud.compute.instances.create) Could not fetch resource:\n - The resource 'projects/acme-prod/zones/us-central1-b/instances/web-4' already exists",
            "ERROR: (gcloud.compute.instances.create) Could not fetch resource:\n - The resource 'projects/acme-staging/zones/europe-west1-d/instances/ci-runner-88' already exists",
            "ERROR: (gcloud.compute.instances.create) Could not fetch resource:\n - The resource 'projects/acme-prod/zones/us-central1-a/instances/batch-20240302-01' already exists",
        ],
    },
    {
        "library": "gcloud",
        "fault": "Cloud Storage object missing",
        "messages": [
            "404 GET https://storage.googleapis.com/download/storage/v1/b/acme-exports/o/reports%2F2024-03-02.csv?alt=media: No such object: acme-exports/reports/2024-03-02.csv",
            "404 GET https://storage.googleapis.com/download/storage/v1/b/acme-exports/o/reports%2F2024-03-03.csv?alt=media: No such object: acme-exports/reports/2024-03-03.csv",
            "404 GET https://storage.googleapis.com/download/storage/v1/b/acme-ml-artifacts/o/models%2Franker%2Fv17%2Fweights.bin?alt=media: No such object: acme-ml-artifacts/models/ranker/v17/weights.bin",
            "404 GET https://storage.googleapis.com/download/storage/v1/b/acme-exports/o/invoices%2F88412.pdf?alt=media: No such object: acme-exports/invoices/88412.pdf",
        ],
    },
    {
        "library": "gcloud",
        "fault": "Sheets API per-user read quota exceeded",
        "messages": [
            "429 Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456789012'.",
            "429 Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:210987654321'.",
            "429 Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:884422006611'.",
            "429 Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:998877665544'.",
        ],
    },
    # -------------------------------------------------------------------- azure
    {
        "library": "azure",
        "fault": "blob not found",
        "messages": [
            "The specified blob does not exist.\nRequestId:3f1e2d4c-301e-0042-1a2b-3c4d5e000000\nTime:2024-03-02T10:14:55.1234567Z\nErrorCode:BlobNotFound",
            "The specified blob does not exist.\nRequestId:a0b1c2d3-901e-0071-4f5e-6d7c8b000000\nTime:2024-03-02T10:16:02.9876543Z\nErrorCode:BlobNotFound",
            "The specified blob does not exist.\nRequestId:5f6e7d8c-c01e-0013-7a6b-5c4d3e000000\nTime:2024-03-05T23:41:09.5544332Z\nErrorCode:BlobNotFound",
            "The specified blob does not exist.\nRequestId:c9d8e7f6-201e-0088-2b3c-4d5e6f000000\nTime:2024-03-11T16:20:05.1010101Z\nErrorCode:BlobNotFound",
        ],
    },
    {
        "library": "azure",
        "fault": "resource group not found",
        "messages": [
            "(ResourceGroupNotFound) Resource group 'rg-staging-eu' could not be found.\nCode: ResourceGroupNotFound\nMessage: Resource group 'rg-staging-eu' could not be found.",
            "(ResourceGroupNotFound) Resource group 'rg-pr-1842' could not be found.\nCode: ResourceGroupNotFound\nMessage: Resource group 'rg-pr-1842' could not be found.",
            "(ResourceGroupNotFound) Resource group 'rg-pr-1877' could not be found.\nCode: ResourceGroupNotFound\nMessage: Resource group 'rg-pr-1877' could not be found.",
            "(ResourceGroupNotFound) Resource group 'rg-dev-ana' could not be found.\nCode: ResourceGroupNotFound\nMessage: Resource group 'rg-dev-ana' could not be found.",
        ],
    },
    {
        "library": "azure",
        "fault": "service principal lacks role on storage account",
        "messages": [
            "(AuthorizationFailed) The client 'c1f2e3d4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' with object id 'c1f2e3d4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' does not have authorization to perform action 'Microsoft.Storage/storageAccounts/listKeys/action' over scope '/subscriptions/11111111-2222-4333-8444-555555555555/resourceGroups/rg-prod/providers/Microsoft.Storage/storageAccounts/acmeprodlogs' or the scope is invalid. If access was recently granted, please refresh your credentials.\nCode: AuthorizationFailed",
            "(AuthorizationFailed) The client 'c1f2e3d4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' with object id 'c1f2e3d4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' does not have authorization to perform action 'Microsoft.Storage/storageAccounts/listKeys/action' over scope '/subscriptions/11111111-2222-4333-8444-555555555555/resourceGroups/rg-prod/providers/Microsoft.Storage/storageAccounts/acmeprodassets' or the scope is invalid. If access was recently granted, please refresh your credentials.\nCode: AuthorizationFailed",
            "(AuthorizationFailed) The client '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d' with object id '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d' does not have authorization to perform action 'Microsoft.Storage/storageAccounts/listKeys/action' over scope '/subscriptions/66666666-7777-4888-9999-000000000000/resourceGroups/rg-staging/providers/Microsoft.Storage/storageAccounts/acmestaginglogs' or the scope is invalid. If access was recently granted, please refresh your credentials.\nCode: AuthorizationFailed",
            "(AuthorizationFailed) The client 'c1f2e3d4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' with object id 'c1f2e3d4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' does not have authorization to perform action 'Microsoft.Storage/storageAccounts/listKeys/action' over scope '/subscriptions/11111111-2222-4333-8444-555555555555/resourceGroups/rg-data/providers/Microsoft.Storage/storageAccounts/acmedatalake01' or the scope is invalid. If access was recently granted, please refresh your credentials.\nCode: AuthorizationFailed",
        ],
    },
    # ------------------------------------------------------------------- python
    {
        "library": "python",
        "fault": "uploaded invoice file missing on disk",
        "messages": [
            "FileNotFoundError: [Errno 2] No such file or directory: '/srv/app/uploads/8812/invoice.pdf'",
            "FileNotFoundError: [Errno 2] No such file or directory: '/srv/app/uploads/41/invoice.pdf'",
            "FileNotFoundError: [Errno 2] No such file or directory: '/srv/app/uploads/120045/invoice.pdf'",
            "FileNotFoundError: [Errno 2] No such file or directory: '/srv/app/uploads/7/invoice.pdf'",
        ],
    },
    {
        "library": "python",
        "fault": "non-numeric string converted with int()",
        "messages": [
            "ValueError: invalid literal for int() with base 10: '12a'",
            "ValueError: invalid literal for int() with base 10: ''",
            "ValueError: invalid literal for int() with base 10: '3.5'",
            "ValueError: invalid literal for int() with base 10: 'None'",
        ],
    },
    {
        "library": "python",
        "fault": "Latin-1 file read as UTF-8",
        "messages": [
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 1042: invalid continuation byte",
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 17: invalid continuation byte",
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe4 in position 88213: invalid continuation byte",
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xf1 in position 300: invalid continuation byte",
        ],
    },
    {
        "library": "python",
        "fault": "disk full while writing temp file",
        "messages": [
            "OSError: [Errno 28] No space left on device: '/tmp/tmpa8f3k2_x/chunk-0042.parquet'",
            "OSError: [Errno 28] No space left on device: '/tmp/tmp9q1w2e3r/chunk-0007.parquet'",
            "OSError: [Errno 28] No space left on device: '/tmp/tmpz0x9c8v7/chunk-0311.parquet'",
            "OSError: [Errno 28] No space left on device: '/var/tmp/tmpk2x9a1b3/chunk-0000.parquet'",
        ],
    },
    {
        "library": "python",
        "fault": "log file not writable by worker user",
        "messages": [
            "PermissionError: [Errno 13] Permission denied: '/var/log/app/worker-3.log'",
            "PermissionError: [Errno 13] Permission denied: '/var/log/app/worker-1.log'",
            "PermissionError: [Errno 13] Permission denied: '/var/log/app/worker-12.log'",
            "PermissionError: [Errno 13] Permission denied: '/var/log/app/worker-0.log'",
        ],
    },
    {
        "library": "python",
        "fault": "empty response body parsed as JSON",
        "messages": [
            'Traceback (most recent call last):\n  File "/srv/app/sync/client.py", line 88, in fetch_page\n    return resp.json()\n  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads\n    return _default_decoder.decode(s)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
            'Traceback (most recent call last):\n  File "/srv/app/sync/client.py", line 88, in fetch_page\n    return resp.json()\n  File "/usr/local/lib/python3.12/json/__init__.py", line 346, in loads\n    return _default_decoder.decode(s)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
            'Traceback (most recent call last):\n  File "/home/ana/code/app/sync/client.py", line 88, in fetch_page\n    return resp.json()\n  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads\n    return _default_decoder.decode(s)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
            'Traceback (most recent call last):\n  File "/app/sync/client.py", line 88, in fetch_page\n    return resp.json()\n  File "/usr/local/lib/python3.11/json/__init__.py", line 346, in loads\n    return _default_decoder.decode(s)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
        ],
    },
    {
        "library": "python",
        "fault": "webhook payload missing customer_id key",
        "messages": [
            'Traceback (most recent call last):\n  File "/srv/app/hooks/handlers.py", line 31, in on_payment\n    customer_id = payload["customer_id"]\nKeyError: \'customer_id\'',
            'Traceback (most recent call last):\n  File "/srv/app/hooks/handlers.py", line 31, in on_payment\n    customer_id = payload["customer_id"]\nKeyError: \'customer_id\'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File "/srv/app/hooks/views.py", line 12, in receive\n    handle(event_id="evt_3OqK2fL8aB9cD0eF")',
            'Traceback (most recent call last):\n  File "/app/hooks/handlers.py", line 31, in on_payment\n    customer_id = payload["customer_id"]\nKeyError: \'customer_id\'',
            'Traceback (most recent call last):\n  File "/srv/releases/20240302-1014/hooks/handlers.py", line 31, in on_payment\n    customer_id = payload["customer_id"]\nKeyError: \'customer_id\'',
        ],
    },
    # -------------------------------------------------------------------- nginx
    {
        "library": "nginx",
        "fault": "upstream app server refusing connections (502)",
        "messages": [
            '2024/03/02 10:14:55 [error] 48213#48213: *1842 connect() failed (111: Connection refused) while connecting to upstream, client: 203.0.113.45, server: api.example.com, request: "GET /v1/orders/8812 HTTP/1.1", upstream: "http://10.0.3.21:8000/v1/orders/8812", host: "api.example.com"',
            '2024/03/02 10:14:56 [error] 48214#48214: *1851 connect() failed (111: Connection refused) while connecting to upstream, client: 198.51.100.7, server: api.example.com, request: "POST /v1/orders HTTP/1.1", upstream: "http://10.0.3.21:8000/v1/orders", host: "api.example.com"',
            '2024/03/05 23:41:09 [error] 7#7: *90211 connect() failed (111: Connection refused) while connecting to upstream, client: 10.0.8.14, server: api.example.com, request: "GET /v1/items?page=2 HTTP/2.0", upstream: "http://10.0.3.22:8000/v1/items?page=2", host: "api.example.com"',
            '2024/03/11 16:20:05 [error] 30442#30442: *3 connect() failed (111: Connection refused) while connecting to upstream, client: 203.0.113.99, server: api.example.com, request: "GET /healthz HTTP/1.1", upstream: "http://127.0.0.1:8000/healthz", host: "api.example.com"',
        ],
    },
    {
        "library": "nginx",
        "fault": "upstream too slow (504 read timeout)",
        "messages": [
            '2024/03/02 10:15:55 [error] 48213#48213: *1842 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 203.0.113.45, server: api.example.com, request: "GET /v1/reports/8812/export HTTP/1.1", upstream: "http://10.0.3.21:8000/v1/reports/8812/export", host: "api.example.com"',
            '2024/03/02 11:02:31 [error] 48215#48215: *2210 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 198.51.100.7, server: api.example.com, request: "GET /v1/reports/41/export HTTP/1.1", upstream: "http://10.0.3.22:8000/v1/reports/41/export", host: "api.example.com"',
            '2024/03/04 08:02:17 [error] 9#9: *77 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.8.14, server: api.example.com, request: "GET /v1/reports/120045/export?format=xlsx HTTP/2.0", upstream: "http://10.0.3.21:8000/v1/reports/120045/export?format=xlsx", host: "api.example.com"',
            '2024/03/09 18:45:00 [error] 30442#30442: *41 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 203.0.113.12, server: api.example.com, request: "GET /v1/reports/7/export HTTP/1.1", upstream: "http://127.0.0.1:8000/v1/reports/7/export", host: "api.example.com"',
        ],
    },
    {
        "library": "nginx",
        "fault": "upload larger than client_max_body_size (413)",
        "messages": [
            '2024/03/02 10:14:55 [error] 48213#48213: *1842 client intended to send too large body: 15728640 bytes, client: 203.0.113.45, server: api.example.com, request: "POST /v1/uploads HTTP/1.1", host: "api.example.com"',
            '2024/03/02 12:40:01 [error] 48216#48216: *3001 client intended to send too large body: 2097153 bytes, client: 198.51.100.7, server: api.example.com, request: "POST /v1/uploads HTTP/1.1", host: "api.example.com"',
            '2024/03/06 09:12:44 [error] 7#7: *512 client intended to send too large body: 104857600 bytes, client: 10.0.8.14, server: api.example.com, request: "POST /v1/uploads?folder=8812 HTTP/2.0", host: "api.example.com"',
            '2024/03/10 21:03:19 [error] 30442#30442: *8 client intended to send too large body: 5242881 bytes, client: 203.0.113.77, server: api.example.com, request: "POST /v1/uploads HTTP/1.1", host: "api.example.com"',
        ],
    },
    # ------------------------------------------------------------------ openssh
    {
        "library": "openssh",
        "fault": "SSH connect times out (firewall/security group)",
        "messages": [
            "ssh: connect to host 10.0.1.23 port 22: Connection timed out",
            "ssh: connect to host 10.0.1.57 port 22: Connection timed out",
            "ssh: connect to host bastion.example.com port 2222: Connection timed out",
            "ssh: connect to host 54.210.33.18 port 22: Connection timed out",
        ],
    },
    {
        "library": "openssh",
        "fault": "deploy key not authorized on target host",
        "messages": [
            "deploy@10.0.1.23: Permission denied (publickey).",
            "deploy@10.0.1.57: Permission denied (publickey).",
            "deploy@web-4.prod.internal: Permission denied (publickey).",
            "ubuntu@54.210.33.18: Permission denied (publickey).",
        ],
    },
    # --------------------------------------------------------------------- curl
    {
        "library": "curl",
        "fault": "connection refused",
        "messages": [
            "curl: (7) Failed to connect to api.example.com port 443 after 3021 ms: Connection refused",
            "curl: (7) Failed to connect to localhost port 8000 after 0 ms: Connection refused",
            "curl: (7) Failed to connect to 10.0.6.31 port 8080 after 2 ms: Connection refused",
            "curl: (7) Failed to connect to api.example.com port 443 after 118 ms: Connection refused",
        ],
    },
    {
        "library": "curl",
        "fault": "operation timed out with no data",
        "messages": [
            "curl: (28) Operation timed out after 30001 milliseconds with 0 bytes received",
            "curl: (28) Operation timed out after 10002 milliseconds with 0 bytes received",
            "curl: (28) Operation timed out after 30000 milliseconds with 0 bytes received",
            "curl: (28) Operation timed out after 5001 milliseconds with 0 bytes received",
        ],
    },
    {
        "library": "curl",
        "fault": "host name does not resolve",
        "messages": [
            "curl: (6) Could not resolve host: api.exmaple.com",
            "curl: (6) Could not resolve host: payments.internal",
            "curl: (6) Could not resolve host: hooks.partner-example.io",
            "curl: (6) Could not resolve host: search-svc",
        ],
    },
    # --------------------------------------------------------------------- rust
    {
        "library": "rust",
        "fault": "unwrap on connection error panics the worker",
        "messages": [
            "thread 'tokio-runtime-worker' panicked at src/handlers/orders.rs:88:41:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" }\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
            "thread 'main' panicked at src/handlers/orders.rs:88:41:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" }\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
            "thread 'actix-rt|system:0|arbiter:3' panicked at src/handlers/orders.rs:88:41:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" }\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
            "thread '<unnamed>' panicked at src/handlers/orders.rs:88:41:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" }\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        ],
    },
    # ----------------------------------------------------------------- gunicorn
    {
        "library": "gunicorn",
        "fault": "worker timeout (request took longer than --timeout)",
        "messages": [
            "[2024-03-02 10:14:55 +0000] [48207] [CRITICAL] WORKER TIMEOUT (pid:48213)",
            "[2024-03-02 10:20:31 +0000] [48207] [CRITICAL] WORKER TIMEOUT (pid:48290)",
            "[2024-03-05 23:41:09 +0000] [1] [CRITICAL] WORKER TIMEOUT (pid:7)",
            "[2024-03-11 16:20:05 +0100] [30431] [CRITICAL] WORKER TIMEOUT (pid:30442)",
        ],
    },
    {
        "library": "gunicorn",
        "fault": "bind address already in use",
        "messages": [
            "[2024-03-02 10:14:55 +0000] [48207] [ERROR] Connection in use: ('0.0.0.0', 8000)",
            "[2024-03-02 10:14:56 +0000] [48207] [ERROR] Connection in use: ('0.0.0.0', 8000)",
            "[2024-03-04 08:02:17 +0000] [1] [ERROR] Connection in use: ('127.0.0.1', 8001)",
            "[2024-03-09 18:45:00 +0000] [30431] [ERROR] Connection in use: ('0.0.0.0', 5000)",
        ],
    },
    # ------------------------------------------------------------- linux kernel
    {
        "library": "linux kernel",
        "fault": "kernel OOM killer killed the python worker",
        "messages": [
            "Out of memory: Killed process 48213 (python3) total-vm:8123456kB, anon-rss:7890123kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:15520kB oom_score_adj:0",
            "Out of memory: Killed process 48290 (python3) total-vm:8119004kB, anon-rss:7884410kB, file-rss:1204kB, shmem-rss:0kB, UID:1000 pgtables:15508kB oom_score_adj:0",
            "Out of memory: Killed process 7 (python3) total-vm:4201772kB, anon-rss:3990012kB, file-rss:88kB, shmem-rss:0kB, UID:0 pgtables:7980kB oom_score_adj:900",
            "Out of memory: Killed process 30442 (python3) total-vm:16310248kB, anon-rss:15702116kB, file-rss:512kB, shmem-rss:4kB, UID:1001 pgtables:31040kB oom_score_adj:0",
        ],
    },
    # --------------------------------------------------------------------- helm
    {
        "library": "helm",
        "fault": "resource exists outside the release (ownership metadata)",
        "messages": [
            'Error: INSTALLATION FAILED: rendered manifests contain a resource that already exists. Unable to continue with install: Service "api" in namespace "payments" exists and cannot be imported into the current release: invalid ownership metadata; annotation validation error: key "meta.helm.sh/release-name" must equal "api-v2": current value is "api"',
            'Error: INSTALLATION FAILED: rendered manifests contain a resource that already exists. Unable to continue with install: Service "api" in namespace "payments-staging" exists and cannot be imported into the current release: invalid ownership metadata; annotation validation error: key "meta.helm.sh/release-name" must equal "api-v2": current value is "api"',
            'Error: INSTALLATION FAILED: rendered manifests contain a resource that already exists. Unable to continue with install: Service "api" in namespace "pr-1842" exists and cannot be imported into the current release: invalid ownership metadata; annotation validation error: key "meta.helm.sh/release-name" must equal "api-pr-1842": current value is "api-pr-1841"',
            'Error: INSTALLATION FAILED: rendered manifests contain a resource that already exists. Unable to continue with install: Service "api" in namespace "checkout" exists and cannot be imported into the current release: invalid ownership metadata; annotation validation error: key "meta.helm.sh/release-name" must equal "api-v2": current value is "api"',
        ],
    },
    # -------------------------------------------------------------------- httpx
    {
        "library": "httpx",
        "fault": "upstream returns 502 Bad Gateway",
        "messages": [
            "Server error '502 Bad Gateway' for url 'https://api.example.com/v1/items?page=2'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/502",
            "Server error '502 Bad Gateway' for url 'https://api.example.com/v1/items?page=17&sort=-created'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/502",
            "Server error '502 Bad Gateway' for url 'https://api.example.com/v1/users/8812'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/502",
            "Server error '502 Bad Gateway' for url 'https://api.example.com/v1/items?cursor=eyJpZCI6ODgxMn0'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/502",
        ],
    },
    # ------------------------------------------------------------------ aiohttp
    {
        "library": "aiohttp",
        "fault": "cannot connect to upstream host",
        "messages": [
            "Cannot connect to host api.example.com:443 ssl:default [Connection refused]",
            "Cannot connect to host 10.0.6.31:8080 ssl:default [Connection refused]",
            "Cannot connect to host inventory.svc.example.net:8443 ssl:default [Connection refused]",
            "Cannot connect to host localhost:8000 ssl:default [Connection refused]",
        ],
    },
    {
        "library": "aiohttp",
        "fault": "upstream returns 503 Service Unavailable",
        "messages": [
            "503, message='Service Unavailable', url=URL('https://api.example.com/v1/items?page=2')",
            "503, message='Service Unavailable', url=URL('https://api.example.com/v1/items?page=9')",
            "503, message='Service Unavailable', url=URL('https://api.example.com/v1/users/8812/orders')",
            "503, message='Service Unavailable', url=URL('https://api.example.com/v1/items?page=1&updated_since=2024-03-02T10:14:55Z')",
        ],
    },
    # ------------------------------------------------------------------ webpack
    {
        "library": "webpack",
        "fault": "import path with wrong case/missing component",
        "messages": [
            "Module not found: Error: Can't resolve './components/Header' in '/home/runner/work/web/web/src'",
            "Module not found: Error: Can't resolve './components/Header' in '/app/src'",
            "Module not found: Error: Can't resolve './components/Header' in '/Users/ana/code/web/src'",
            "Module not found: Error: Can't resolve './components/Header' in '/builds/acme/web/src'",
        ],
    },
    # -------------------------------------------------------- postgres server
    {
        "library": "postgres server",
        "fault": "session killed by idle-in-transaction timeout",
        "messages": [
            "2024-03-02 10:14:55.123 UTC [48213] FATAL:  terminating connection due to idle-in-transaction timeout",
            "2024-03-02 10:19:02.881 UTC [48290] FATAL:  terminating connection due to idle-in-transaction timeout",
            "2024-03-05 23:41:09.554 UTC [7712] FATAL:  terminating connection due to idle-in-transaction timeout",
            "2024-03-11 16:20:05.101 UTC [301877] FATAL:  terminating connection due to idle-in-transaction timeout",
        ],
    },
]

APART = [
    {
        "library": "psycopg",
        "a": 'duplicate key value violates unique constraint "order_items_pkey"\nDETAIL:  Key (id)=(5512) already exists.',
        "b": 'insert or update on table "order_items" violates foreign key constraint "order_items_order_id_fkey"\nDETAIL:  Key (order_id)=(5512) is not present in table "orders".',
        "why": "unique violation means the row already exists (idempotency/sequence problem); foreign-key violation means the parent order is missing (ordering/referential problem)",
    },
    {
        "library": "psycopg",
        "a": 'relation "billing_events" does not exist\nLINE 1: SELECT * FROM billing_events WHERE id = 7\n                      ^',
        "b": 'column "archived_at" of relation "billing_events" does not exist\nLINE 1: UPDATE billing_events SET archived_at = now() WHERE id = 7\n                                  ^',
        "why": "a missing table means the whole migration was not applied; a missing column on an existing table is a different, later migration or a code/schema mismatch",
    },
    {
        "library": "psycopg",
        "a": 'connection failed: connection to server at "db-primary.internal" (10.0.3.7), port 5432 failed: FATAL:  password authentication failed for user "app_rw"',
        "b": 'connection failed: connection to server at "db-primary.internal" (10.0.3.7), port 5432 failed: FATAL:  database "app_rw" does not exist',
        "why": "wrong credentials need a secret fix; a missing database needs the database created or the DSN's database name corrected",
    },
    {
        "library": "psycopg",
        "a": 'null value in column "customer_id" of relation "orders" violates not-null constraint\nDETAIL:  Failing row contains (88412, null, 2024-03-02 10:14:55.12+00, pending).',
        "b": 'new row for relation "orders" violates check constraint "orders_total_check"\nDETAIL:  Failing row contains (88412, 7, 2024-03-02 10:14:55.12+00, pending).',
        "why": "a missing customer id is a different bug from a total that fails a CHECK rule (e.g. negative amount)",
    },
    {
        "library": "psycopg",
        "a": 'connection failed: connection to server at "10.0.3.7", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
        "b": 'connection failed: connection to server at "10.0.3.7", port 5432 failed: timeout expired',
        "why": "refused means the host answered but nothing listens on the port; a timeout means packets are dropped (firewall, routing, host down)",
    },
    {
        "library": "botocore",
        "a": "An error occurred (NoSuchKey) when calling the GetObject operation: The specified key does not exist.",
        "b": "An error occurred (NoSuchBucket) when calling the GetObject operation: The specified bucket does not exist",
        "why": "a missing object is a data problem; a missing bucket is a configuration/environment problem",
    },
    {
        "library": "botocore",
        "a": "An error occurred (ExpiredTokenException) when calling the GetItem operation: The security token included in the request is expired",
        "b": "An error occurred (UnrecognizedClientException) when calling the GetItem operation: The security token included in the request is invalid.",
        "why": "an expired token needs credential refresh; an invalid token means wrong or malformed credentials",
    },
    {
        "library": "boto3 s3",
        "a": "Failed to upload /tmp/export-2024-03-02.csv to reports-prod/exports/2024/03/02/export.csv: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied",
        "b": "Failed to upload /tmp/export-2024-03-02.csv to reports-prod/exports/2024/03/02/export.csv: An error occurred (NoSuchBucket) when calling the PutObject operation: The specified bucket does not exist",
        "why": "access denied needs an IAM/bucket policy change; a missing bucket needs the bucket created or the name fixed",
    },
    {
        "library": "requests",
        "a": "HTTPSConnectionPool(host='api.example.com', port=443): Read timed out. (read timeout=10)",
        "b": "HTTPSConnectionPool(host='api.example.com', port=443): Max retries exceeded with url: /v1/items (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f3b2c1d4e50>, 'Connection to api.example.com timed out. (connect timeout=10)'))",
        "why": "a read timeout means the server accepted the request but is slow; a connect timeout means the server is unreachable",
    },
    {
        "library": "requests",
        "a": "401 Client Error: Unauthorized for url: https://api.example.com/v1/admin/users",
        "b": "403 Client Error: Forbidden for url: https://api.example.com/v1/admin/users",
        "why": "401 means missing/invalid credentials; 403 means valid credentials without permission",
    },
    {
        "library": "requests",
        "a": "500 Server Error: Internal Server Error for url: https://api.example.com/v1/orders/8812",
        "b": "502 Server Error: Bad Gateway for url: https://api.example.com/v1/orders/8812",
        "why": "500 is a bug in the application; 502 is the proxy failing to reach the application",
    },
    {
        "library": "node",
        "a": "Error: ENOENT: no such file or directory, open '/srv/app/config/production.json'",
        "b": "Error: EACCES: permission denied, open '/srv/app/config/production.json'",
        "why": "a missing file needs deployment fixed; a permission error needs file ownership/mode fixed",
    },
    {
        "library": "node",
        "a": "Error: connect ECONNREFUSED 10.0.3.7:5432",
        "b": "Error: connect ETIMEDOUT 10.0.3.7:5432",
        "why": "refused means nothing listens on the port; timed out means the host is unreachable or firewalled",
    },
    {
        "library": "node",
        "a": "TypeError: Cannot read properties of undefined (reading 'id')\n    at getOrder (/srv/app/src/routes/orders.js:42:27)",
        "b": "TypeError: Cannot read properties of undefined (reading 'id')\n    at renderInvoice (/srv/app/src/views/invoice.js:118:30)",
        "why": "same TypeError text but raised by two different pieces of code with different missing objects",
    },
    {
        "library": "kubernetes",
        "a": "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Sat, 02 Mar 2024 10:14:55 +0000\n      Finished:     Sat, 02 Mar 2024 10:19:12 +0000",
        "b": "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n      Started:      Sat, 02 Mar 2024 10:14:55 +0000\n      Finished:     Sat, 02 Mar 2024 10:19:12 +0000",
        "why": "OOMKilled needs more memory or a leak fix; exit code 1 is an application error visible in the container logs",
    },
    {
        "library": "kubernetes",
        "a": 'Error from server (NotFound): pods "web-7d9f8b6c5-x2k4p" not found',
        "b": 'Error from server (Forbidden): pods "web-7d9f8b6c5-x2k4p" is forbidden: User "system:serviceaccount:ci:deployer" cannot get resource "pods" in API group "" in the namespace "default"',
        "why": "a missing pod is a stale name; forbidden is an RBAC problem",
    },
    {
        "library": "kubernetes",
        "a": 'Failed to pull image "registry.example.com/web:1.4.2": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/web:1.4.2": failed to resolve reference "registry.example.com/web:1.4.2": registry.example.com/web:1.4.2: not found',
        "b": 'Failed to pull image "registry.example.com/web:1.4.2": rpc error: code = Unknown desc = failed to pull and unpack image "registry.example.com/web:1.4.2": failed to resolve reference "registry.example.com/web:1.4.2": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized',
        "why": "a missing tag needs the image pushed; a 401 needs imagePullSecrets configured",
    },
    {
        "library": "kubernetes",
        "a": "0/12 nodes are available: 12 Insufficient memory. preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod.",
        "b": "0/12 nodes are available: 12 Insufficient cpu. preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod.",
        "why": "memory and CPU shortages are fixed by different request changes or different node pools",
    },
    {
        "library": "docker",
        "a": "Error response from daemon: No such container: web",
        "b": "Error response from daemon: No such image: web:latest",
        "why": "a missing container needs it started/created; a missing image needs it built or pulled",
    },
    {
        "library": "docker",
        "a": "Error response from daemon: manifest for registry.example.com/web:8f3c2a1e not found: manifest unknown: manifest unknown",
        "b": 'Error response from daemon: Head "https://registry.example.com/v2/web/manifests/8f3c2a1e": unauthorized: authentication required',
        "why": "an unpushed tag versus missing registry login",
    },
    {
        "library": "git",
        "a": "fatal: repository 'https://github.com/acme/widgets.git/' not found",
        "b": "fatal: unable to access 'https://github.com/acme/widgets.git/': The requested URL returned error: 403",
        "why": "a wrong repository URL (or no visibility) versus a token that is recognised but lacks write/read permission",
    },
    {
        "library": "git",
        "a": "To github.com:acme/widgets.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:acme/widgets.git'",
        "b": "To github.com:acme/widgets.git\n ! [remote rejected] main -> main (protected branch hook declined)\nerror: failed to push some refs to 'github.com:acme/widgets.git'",
        "why": "fetch-first needs a pull/rebase; a protected-branch rejection needs a pull request or permission change",
    },
    {
        "library": "npm",
        "a": "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/@acme%2fui-kit - Not found\nnpm ERR! 404 \nnpm ERR! 404  '@acme/ui-kit@^2.3.0' is not in this registry.",
        "b": "npm ERR! code E401\nnpm ERR! 401 Unauthorized - GET https://npm.pkg.github.com/@acme%2fui-kit - authentication token not provided",
        "why": "the package is looked up in the wrong registry versus the right registry without a token",
    },
    {
        "library": "pip",
        "a": "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '/usr/local/lib/python3.11/site-packages/requests'\nConsider using the `--user` option or check the permissions.",
        "b": "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device: '/usr/local/lib/python3.11/site-packages/requests'",
        "why": "permissions versus a full disk",
    },
    {
        "library": "redis-py",
        "a": "Error 111 connecting to redis-master.cache.svc:6379. Connection refused.",
        "b": "Error -2 connecting to redis-master.cache.svc:6379. Name or service not known.",
        "why": "Redis is down versus the host name does not resolve (DNS/service name)",
    },
    {
        "library": "redis-py",
        "a": "Timeout reading from socket",
        "b": "Timeout connecting to server",
        "why": "a slow command/blocked server versus an unreachable server",
    },
    {
        "library": "celery",
        "a": "Soft time limit (300s) exceeded for reports.tasks.build_report[7c9e6679-7425-40de-944b-e07fc1f90ae7]",
        "b": "Hard time limit (300s) exceeded for reports.tasks.build_report[7c9e6679-7425-40de-944b-e07fc1f90ae7]",
        "why": "a soft limit raises inside the task so it can clean up; a hard limit kills the worker process",
    },
    {
        "library": "gunicorn",
        "a": "[2024-03-02 10:14:55 +0000] [48207] [CRITICAL] WORKER TIMEOUT (pid:48213)",
        "b": "[2024-03-02 10:14:55 +0000] [48207] [ERROR] Worker (pid:48213) was sent SIGKILL! Perhaps out of memory?",
        "why": "a slow request versus a worker killed for memory",
    },
    {
        "library": "stripe",
        "a": "Request req_Mn34Bv56Cx78Za: Your card was declined.",
        "b": "Request req_Mn34Bv56Cx78Za: Your card has insufficient funds.",
        "why": "a generic decline versus insufficient funds; they get different customer messaging and retry handling",
    },
    {
        "library": "stripe",
        "a": "Request req_Ab12Cd34Ef56Gh: No such customer: 'cus_PqR7sT8uV9wX0y'",
        "b": "Request req_Ab12Cd34Ef56Gh: No such PaymentMethod: 'pm_1OqK2fL8aB9cD0eF'",
        "why": "different missing objects with different causes (customer from another mode vs detached payment method)",
    },
    {
        "library": "openai",
        "a": "Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-Xk29LmQp7RtZ4vBn8cWd on tokens per min (TPM): Limit 30000, Used 28512, Requested 2214. Please try again in 1.452s. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
        "b": "Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', 'type': 'insufficient_quota', 'param': None, 'code': 'insufficient_quota'}}",
        "why": "a transient rate limit resolved by backoff versus an exhausted billing quota that needs payment",
    },
    {
        "library": "anthropic",
        "a": "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}, 'request_id': 'req_011CTYz3mA7bQp9sLk2WfN4e'}",
        "b": "Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'Number of request tokens has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.'}, 'request_id': 'req_011CTYz3mA7bQp9sLk2WfN4e'}",
        "why": "provider-side overload versus the caller's own rate limit",
    },
    {
        "library": "django",
        "a": "Forbidden (CSRF cookie not set.): /api/orders/41/cancel/",
        "b": "Forbidden (CSRF token missing.): /api/orders/41/cancel/",
        "why": "the cookie never reached the client (domain/secure settings) versus the form/request not sending the token",
    },
    {
        "library": "python",
        "a": "FileNotFoundError: [Errno 2] No such file or directory: '/srv/app/uploads/8812/invoice.pdf'",
        "b": "PermissionError: [Errno 13] Permission denied: '/srv/app/uploads/8812/invoice.pdf'",
        "why": "a missing file versus a file the process may not read",
    },
    {
        "library": "python",
        "a": "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        "b": "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "why": "an empty/non-JSON body versus malformed JSON (single quotes, Python repr)",
    },
    {
        "library": "nginx",
        "a": '2024/03/02 10:14:55 [error] 48213#48213: *1842 connect() failed (111: Connection refused) while connecting to upstream, client: 203.0.113.45, server: api.example.com, request: "GET /v1/orders/8812 HTTP/1.1", upstream: "http://10.0.3.21:8000/v1/orders/8812", host: "api.example.com"',
        "b": '2024/03/02 10:14:55 [error] 48213#48213: *1842 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 203.0.113.45, server: api.example.com, request: "GET /v1/orders/8812 HTTP/1.1", upstream: "http://10.0.3.21:8000/v1/orders/8812", host: "api.example.com"',
        "why": "the app is not listening versus the app is too slow",
    },
    {
        "library": "openssh",
        "a": "ssh: connect to host 10.0.1.23 port 22: Connection timed out",
        "b": "ssh: connect to host 10.0.1.23 port 22: Connection refused",
        "why": "a firewall/security group drops packets versus sshd not running",
    },
    {
        "library": "curl",
        "a": "curl: (6) Could not resolve host: api.example.com",
        "b": "curl: (7) Failed to connect to api.example.com port 443 after 3021 ms: Connection refused",
        "why": "DNS failure versus a reachable host with nothing listening",
    },
    {
        "library": "java",
        "a": 'Exception in thread "http-nio-8080-exec-14" java.lang.OutOfMemoryError: Java heap space',
        "b": 'Exception in thread "http-nio-8080-exec-14" java.lang.OutOfMemoryError: Metaspace',
        "why": "heap exhaustion (data/leak) versus class metadata exhaustion (classloader leak, MaxMetaspaceSize)",
    },
    {
        "library": "java",
        "a": "java.io.FileNotFoundException: /var/data/import/batch-20240302.csv (No such file or directory)",
        "b": "java.io.FileNotFoundException: /var/data/import/batch-20240302.csv (Permission denied)",
        "why": "same exception class but a missing file versus a permission problem",
    },
    {
        "library": "go net/http",
        "a": "dial tcp 10.0.3.7:6379: connect: connection refused",
        "b": "dial tcp 10.0.3.7:6379: i/o timeout",
        "why": "service down versus network path blocked",
    },
    {
        "library": "go net/http",
        "a": 'Get "https://api.example.com/v1/items?page=2": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
        "b": 'Get "https://api.example.com/v1/items?page=2": context canceled',
        "why": "the upstream was too slow versus the caller cancelled the request (client disconnect/shutdown)",
    },
    {
        "library": "grpc",
        "a": '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.5.3:50051: Failed to connect to remote host: Connection refused"\n>',
        "b": '<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = "Deadline Exceeded"\n>',
        "why": "the backend is down versus the backend is slow",
    },
    {
        "library": "elasticsearch",
        "a": "NotFoundError(404, 'index_not_found_exception', 'no such index [orders-2024.03.02]', orders-2024.03.02, index_or_alias)",
        "b": "BadRequestError(400, 'resource_already_exists_exception', 'index [orders-2024.03.02/AbCdEfGhIjKlMnOpQrStUv] already exists')",
        "why": "an index that was never created versus a duplicate create",
    },
    {
        "library": "mongodb",
        "a": "mongo-0.mongo.db.svc:27017: [Errno 111] Connection refused, Timeout: 30s, Topology Description: <TopologyDescription id: 65e2f0a1c3b4d5e6f7a8b9c0, topology_type: Unknown, servers: [<ServerDescription ('mongo-0.mongo.db.svc', 27017) server_type: Unknown, rtt: None, error=AutoReconnect('mongo-0.mongo.db.svc:27017: [Errno 111] Connection refused')>]>",
        "b": "mongo-0.mongo.db.svc:27017: timed out, Timeout: 30s, Topology Description: <TopologyDescription id: 65e2f0a1c3b4d5e6f7a8b9c0, topology_type: Unknown, servers: [<ServerDescription ('mongo-0.mongo.db.svc', 27017) server_type: Unknown, rtt: None, error=NetworkTimeout('mongo-0.mongo.db.svc:27017: timed out')>]>",
        "why": "mongod not listening versus the network path dropping packets",
    },
    {
        "library": "mysqlclient",
        "a": "(2003, \"Can't connect to MySQL server on '10.0.4.12:3306' (111)\")",
        "b": "(2003, \"Can't connect to MySQL server on '10.0.4.12:3306' (110)\")",
        "why": "errno 111 is connection refused (server down); errno 110 is connection timed out (network/firewall)",
    },
    {
        "library": "mysqlclient",
        "a": "(1045, \"Access denied for user 'app'@'172.17.0.3' (using password: YES)\")",
        "b": "(1045, \"Access denied for user 'app'@'172.17.0.3' (using password: NO)\")",
        "why": "a wrong password versus the password not being passed at all (missing env var)",
    },
    {
        "library": "sqlalchemy",
        "a": "(psycopg2.OperationalError) server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request.\n\n(Background on this error at: https://sqlalche.me/e/20/e3q8)",
        "b": '(psycopg2.OperationalError) connection to server at "10.0.3.7", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n\n(Background on this error at: https://sqlalche.me/e/20/e3q8)',
        "why": "a stale pooled connection (needs pool_pre_ping) versus the database being down",
    },
    {
        "library": "pydantic",
        "a": "1 validation error for OrderIn\nquantity\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='12a', input_type=str]",
        "b": "1 validation error for OrderIn\nquantity\n  Field required [type=missing, input_value={'sku': 'SKU-88214'}, input_type=dict]",
        "why": "a bad value for the field versus the field not being sent",
    },
    {
        "library": "jsonschema",
        "a": "'quantity' is a required property",
        "b": "'12' is not of type 'integer'",
        "why": "a missing property versus a property of the wrong type",
    },
    {
        "library": "azure",
        "a": "The specified blob does not exist.\nRequestId:3f1e2d4c-301e-0042-1a2b-3c4d5e000000\nTime:2024-03-02T10:14:55.1234567Z\nErrorCode:BlobNotFound",
        "b": "The specified container does not exist.\nRequestId:3f1e2d4c-301e-0042-1a2b-3c4d5e000000\nTime:2024-03-02T10:14:55.1234567Z\nErrorCode:ContainerNotFound",
        "why": "a missing blob is a data problem; a missing container is a provisioning/config problem",
    },
    {
        "library": "gcloud",
        "a": "404 GET https://storage.googleapis.com/download/storage/v1/b/acme-exports/o/reports%2F2024-03-02.csv?alt=media: No such object: acme-exports/reports/2024-03-02.csv",
        "b": "403 GET https://storage.googleapis.com/download/storage/v1/b/acme-exports/o/reports%2F2024-03-02.csv?alt=media: reports-job@acme-prod.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object. Permission 'storage.objects.get' denied on resource (or it may not exist).",
        "why": "a missing object versus a service account without read permission",
    },
    {
        "library": "playwright",
        "a": 'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/checkout\nCall log:\n  - navigating to "http://localhost:3000/checkout", waiting until "load"',
        "b": 'Error: page.goto: net::ERR_NAME_NOT_RESOLVED at http://web:3000/checkout\nCall log:\n  - navigating to "http://web:3000/checkout", waiting until "load"',
        "why": "the dev server is not running versus the host name is wrong for this environment",
    },
    {
        "library": "selenium",
        "a": 'Message: no such element: Unable to locate element: {"method":"css selector","selector":"#login-button"}\n  (Session info: chrome=122.0.6261.94)',
        "b": "Message: stale element reference: stale element not found\n  (Session info: chrome=122.0.6261.94)",
        "why": "the selector matches nothing versus the element was found but the DOM re-rendered",
    },
    {
        "library": "twilio",
        "a": "HTTP 400 error: Unable to create record: The 'To' number +15555550123 is not a valid phone number.",
        "b": "HTTP 400 error: Unable to create record: Attempt to send to unsubscribed recipient",
        "why": "a malformed number versus a recipient who opted out",
    },
    {
        "library": "terraform",
        "a": 'Error: Unsupported argument\n\n  on variables.tf line 12, in variable "region":\n  12:   defualt = "us-east-1"\n\nAn argument named "defualt" is not expected here.',
        "b": 'Error: Missing required argument\n\n  on main.tf line 12, in resource "aws_instance" "web":\n  12: resource "aws_instance" "web" {\n\nThe argument "ami" is required, but no definition was found.',
        "why": "an unknown argument to remove/rename versus a required argument to add",
    },
    {
        "library": "kafka-python",
        "a": "KafkaTimeoutError: Failed to update metadata after 60.0 secs.",
        "b": "KafkaTimeoutError: Batch for TopicPartition(topic='orders', partition=3) containing 41 record(s) expired: 30 seconds have passed since batch creation plus linger time",
        "why": "metadata cannot be fetched (brokers/topic unreachable) versus produced batches expiring (broker slow or partition leader unavailable)",
    },
]
