"""The pattern store's jobs: mining, the incremental pattern job, curation,
triage and the jobs' watermarks."""
