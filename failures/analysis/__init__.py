"""Analysis jobs: root causes, regressions and loops, and their pure rules."""
