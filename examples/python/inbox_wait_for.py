"""A `wait_for` backed by a toolnexus inbox's HTTP API, with the Python standard library only.

Each request an agent suspends on becomes a request in the inbox (POST /api/v1/requests with an
Idempotency-Key), answered by a person in the web inbox; `wait_for` long-polls
(GET /api/v1/requests/{id}?wait=30) until it is answered and returns the Answer. A restarted
process asks under the same key and gets its request back, answered or not, instead of asking
twice. Network failures and an inbox that is briefly away are retried with backoff.

    wait_for = inbox_wait_for("https://inbox.example.com", os.environ["TOOLNEXUS_TOKEN"])
    answer = await wait_for({"id": "deploy-812", "kind": "approval", "prompt": "Ship 812?"})

A request is a mapping or an object with the fields of the suspension contract (id, kind,
prompt, url, data, expires_at or expiresAt); the Answer is a dict {id, ok, data?, reason?}
unless `answer_type` makes it something else (e.g. the port's Answer class).

Run as a script it asks one approval and prints the answer:
    TOOLNEXUS_URL=http://localhost:3000 TOOLNEXUS_TOKEN=tnx_... python3 inbox_wait_for.py "Ship 812?"
"""

import asyncio
import hashlib
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

_FIELDS = ("id", "kind", "prompt", "url", "data")
_PERMANENT = {400, 401, 403, 404, 422}


class InboxError(Exception):
    """The inbox refused the request for good (bad input, a revoked token, ...)."""


def _field(request, name):
    if isinstance(request, dict):
        return request.get(name)
    return getattr(request, name, None)


def _expires_at(request):
    return _field(request, "expires_at") or _field(request, "expiresAt")


def idempotency_key(request, scope=""):
    """The same question from the same job is the same request; the deadline is left out."""
    what = {"scope": scope, **{name: _field(request, name) for name in _FIELDS}}
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "toolnexus-py-" + hashlib.sha256(text.encode()).hexdigest()


def _call(base_url, token, method, path, body=None, headers=None, timeout=90):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base_url.rstrip("/") + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + token)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        if error.code in _PERMANENT:
            raise InboxError(f"{error.code} {text}") from None
        raise ConnectionError(f"{error.code} {text}") from None


def inbox_wait_for(base_url, token, scope="", audience=None, poll_seconds=30, answer_type=dict):
    """Returns `async wait_for(request) -> Answer` for the inbox at `base_url`."""

    def body_of(request):
        body = {"kind": _field(request, "kind"), "prompt": _field(request, "prompt")}
        for name in ("url", "data"):
            if _field(request, name) is not None:
                body[name] = _field(request, name)
        if _expires_at(request):
            body["expiresAt"] = _expires_at(request)
        if audience:
            body["audience"] = audience
        return body

    def wait_blocking(request):
        key = idempotency_key(request, scope)
        delay = 0.5
        made = None
        while True:
            try:
                if made is None:
                    made = _call(base_url, token, "POST", "/api/v1/requests", body_of(request), {"Idempotency-Key": key})
                current = made if made["status"] != "open" else _call(
                    base_url, token, "GET", f"/api/v1/requests/{made['id']}?wait={poll_seconds}"
                )
                if current["status"] != "open":
                    answer = dict(current["answer"])
                    answer["id"] = _field(request, "id") or answer["id"]
                    return answer_type(**answer) if answer_type is not dict else answer
                delay = 0.5
            except (ConnectionError, OSError) as error:
                print(f"inbox unreachable ({error}); retrying in {delay:.1f}s", file=sys.stderr)
                time.sleep(delay * random.uniform(0.5, 1))
                delay = min(delay * 2, 15)

    async def wait_for(request):
        return await asyncio.to_thread(wait_blocking, request)

    return wait_for


if __name__ == "__main__":
    prompt = sys.argv[1] if len(sys.argv) > 1 else "Approve this?"
    wait_for = inbox_wait_for(os.environ["TOOLNEXUS_URL"], os.environ["TOOLNEXUS_TOKEN"])
    result = asyncio.run(wait_for({"id": os.environ.get("REQUEST_ID", prompt), "kind": "approval", "prompt": prompt}))
    print(json.dumps(result, sort_keys=True))
