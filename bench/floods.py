"""One flood against a gateway on loopback, and another principal's calls measured during it.
In the session flood, the other principal also opens a session before the flood, leaves it idle,
and uses it once the flood is over (an error when the flood pushed it out).

Used by bench/floods.sh; not a test. Prints one JSON line: the victim's calls, errors, p50 and
p99 (ms), and what the flood did. Everything is bounded: the flood's connections or requests by
count, the whole run by time (every socket has a timeout, every thread stops at the deadline).

Usage: floods.py PORT FLOOD ATTACKER_TOKEN VICTIM_TOKEN SECONDS COUNT
FLOOD: none | slow-body | slow-body-auth | streams | sessions
"""
import http.client
import json
import socket
import sys
import threading
import time

port, flood, attacker, victim = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
seconds, count = float(sys.argv[5]), int(sys.argv[6])
deadline = time.monotonic() + seconds
stats = {"flood_requests": 0, "flood_refused": 0}
lock = threading.Lock()

CALL = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}'
INIT = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}'


def bump(key):
    with lock:
        stats[key] = stats.get(key, 0) + 1


def post(path, token, body, session=None, timeout=10):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "Authorization": "Bearer " + token}
    if session:
        headers["Mcp-Session-Id"] = session
    try:
        conn.request("POST", path, body, headers)
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("Mcp-Session-Id")
    finally:
        conn.close()


def slow_body(token):
    """Sends a POST head declaring 100,000 bytes, then a byte every 2 s; again when closed."""
    while time.monotonic() < deadline:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(("POST /mcp/bench/json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Authorization: Bearer %s\r\nContent-Length: 100000\r\n\r\n{" % token).encode())
            bump("flood_requests")
            while time.monotonic() < deadline:
                time.sleep(2)
                sock.sendall(b" ")
        except OSError:
            bump("flood_refused")
            time.sleep(0.2)
        finally:
            try:
                sock.close()
            except Exception:
                pass


def stream():
    """Holds a listen stream (GET) open; opens another when it ends or is refused."""
    while time.monotonic() < deadline:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(("GET /mcp/bench/listen HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                          "Authorization: Bearer %s\r\n\r\n" % attacker).encode())
            bump("flood_requests")
            head = sock.recv(64)
            if b" 200 " not in head:
                bump("flood_refused")
                sock.close()
                time.sleep(0.5)
                continue
            while time.monotonic() < deadline and sock.recv(4096):
                pass
            sock.close()
        except OSError:
            time.sleep(0.2)


def sessions():
    """initialize after initialize, on the victim's server."""
    while time.monotonic() < deadline:
        with lock:
            if stats["flood_requests"] >= count:
                return
            stats["flood_requests"] += 1
        try:
            status, _ = post("/mcp/bench/listen", attacker, INIT)
            if status != 200:
                bump("flood_refused")
        except OSError:
            bump("flood_refused")


latencies, errors = [], []


def victim_loop():
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            status, _ = post("/mcp/bench/json", victim, CALL)
            if status != 200:
                errors.append(status)
        except OSError:
            errors.append("timeout")
        with lock:
            latencies.append((time.monotonic() - start) * 1000)
        time.sleep(0.05)


session = None
if flood == "sessions":
    _, session = post("/mcp/bench/listen", victim, INIT)
threads = []
if flood in ("slow-body", "slow-body-auth"):
    token = attacker if flood == "slow-body-auth" else "not-a-token"
    threads = [threading.Thread(target=slow_body, args=(token,), daemon=True) for _ in range(count)]
elif flood == "streams":
    threads = [threading.Thread(target=stream, daemon=True) for _ in range(count)]
elif flood == "sessions":
    threads = [threading.Thread(target=sessions, daemon=True) for _ in range(8)]
for thread in threads:
    thread.start()
time.sleep(min(3, seconds / 4))
victims = [threading.Thread(target=victim_loop, daemon=True) for _ in range(2)]
for thread in victims:
    thread.start()
for thread in victims:
    thread.join(seconds + 15)
if session:
    # The other principal's session, idle during the flood: still there, or pushed out (404)?
    status, _ = post("/mcp/bench/listen", victim, CALL, session)
    stats["victim_session"] = status
    if status != 200:
        errors.append("session_%d" % status)
ordered = sorted(latencies)


def percentile(p):
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * p))], 1) if ordered else None


print(json.dumps({"flood": flood, "victim_calls": len(latencies), "victim_errors": len(errors),
                  "victim_error_kinds": sorted(set(map(str, errors))), "p50_ms": percentile(0.5),
                  "p99_ms": percentile(0.99), **stats}))
