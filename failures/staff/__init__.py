"""Staff pages: the dashboard, the pattern reports and the patterns' admin
pages, which read all three apps."""
