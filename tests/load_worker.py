"""Standard-library HTTP sender run in child processes by the concurrency tests (no Django here)."""

import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor


def post_json(url: str, key: str, body: dict) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def send_many(url: str, key: str, bodies: list[dict], threads: int) -> list[int]:
    """POST every body with ``threads`` requests in flight at once; return the status codes."""
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(lambda body: post_json(url, key, body), bodies))
