# Staff pages show one format of moment, with its time zone, and ISO dates (config/formats). A
# no-break space joins the time to its zone: a narrow column wraps after the date only.
DATETIME_FORMAT = "Y-m-d H:i\u00a0T"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
DATE_FORMAT = "Y-m-d"
SHORT_DATE_FORMAT = "Y-m-d"
TIME_FORMAT = "H:i"
