"""Releases: what each release, model and prompt version of the agents ran and met (the job,
``services``), and the API that lists them with their health (``views``)."""
