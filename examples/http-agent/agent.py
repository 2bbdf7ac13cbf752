#!/usr/bin/env python3
"""A Shakedown HTTP agent in Python's standard library: answers order-status questions.

Run it, then point a sweep at it:

    python3 examples/http-agent/agent.py --port 8765
    npx shakedown sweep --agent http://127.0.0.1:8765 --scenario read-order-status --eps 0 --lambda 0,0.3

The protocol (docs/agents.md): Shakedown POSTs /episodes with the episode's context, then
/episodes/<id>/messages with each user message, and reads {"reply": "..."}; DELETE /episodes/<id>
ends it. Tools are called over HTTP at the context's toolBaseUrl.
"""
import argparse
import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EPISODES = {}
LOCK = threading.Lock()
ORDER_ID = re.compile(r"#?\s?\b(W\d{7})\b", re.IGNORECASE)


def call_tool(base, path):
    """GET a tool; returns (status, body) with status 0 when the connection failed."""
    try:
        with urllib.request.urlopen(base + path, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None
    except (urllib.error.URLError, ConnectionError, ValueError):
        return 0, None


EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def answer(episode, message):
    """Verifies the customer by e-mail first (the policy's rule for any read), then reports the status
    of the customer's own order."""
    email = EMAIL.search(message)
    if email:
        episode["email"] = email.group(0).lower()
    match = ORDER_ID.search(message)
    if match:
        episode["order"] = match.group(1).upper()
    if "userId" not in episode:
        if "email" not in episode:
            return "Before I can help, I need to verify your identity. Could you give me your email address?"
        status, body = call_tool(episode["toolBaseUrl"], "/users/by-email?email=" + urllib.parse.quote(episode["email"]))
        if status == 404:
            return "I couldn't find an account with that e-mail. Could you check your email address?"
        if status != 200 or not isinstance(body, dict) or not isinstance(body.get("userId"), str):
            return "Sorry, I could not verify your identity right now (%s)." % (status or "no response")
        episode["userId"] = body["userId"]
    if "order" not in episode:
        return "Which order do you mean? Please give me the order number."
    order_id = episode["order"]
    status, body = call_tool(episode["toolBaseUrl"], "/orders/" + urllib.parse.quote("#" + order_id))
    if status == 200 and isinstance(body, dict) and isinstance(body.get("status"), str):
        if body.get("userId") != episode["userId"]:
            return "Order #%s is not on your account, so I can't tell you about it." % order_id
        return "Order #%s is %s. Is there anything else I can help you with?" % (order_id, body["status"])
    if status == 404:
        return "I couldn't find order #%s." % order_id
    return "Sorry, I could not look up order #%s right now (%s)." % (order_id, status or "no response")


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/") == "/agent":
            return self.send(200, {"id": "status-bot-py", "description": "answers order status questions (Python standard library)"})
        return self.send(404, {"error": "no such route"})

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        parts = [p for p in self.path.split("/") if p]
        if parts == ["episodes"]:
            with LOCK:
                EPISODES[body["episodeId"]] = body
            return self.send(200, {"ok": True})
        if len(parts) == 3 and parts[0] == "episodes" and parts[2] == "messages":
            with LOCK:
                episode = EPISODES.get(parts[1])
            if episode is None:
                return self.send(404, {"error": "no such episode"})
            return self.send(200, {"reply": answer(episode, body.get("message", ""))})
        return self.send(404, {"error": "no such route"})

    def do_DELETE(self):
        parts = [p for p in self.path.split("/") if p]
        with LOCK:
            EPISODES.pop(parts[-1] if parts else "", None)
        self.send(200, {"ok": True})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
