"""gunicorn settings for the production layout:
``gunicorn -c config/gunicorn.conf.py config.wsgi``.

Only logging lives here; binding, workers and the rest stay on the command line, which overrides
this file. The access log names each request by its path without the query string: a query may
carry what an agent sent (an error message, a name with a key pasted into it), and logs are kept
and shipped where scrubbing never reaches them.
"""

# Access lines to standard output, beside the error log (gunicorn keeps none by default).
accesslog = "-"
# gunicorn's default layout with the path (%(U)s) in place of the request line (%(r)s, which holds
# the query string), and without the referer (%(f)s), another page's URL with its query; plus the
# request's time in seconds (%(L)s).
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)s "%(a)s"'
