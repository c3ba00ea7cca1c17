"""Sends `idemlab serve` thousands of bad requests over raw sockets, and clients that stall.

usage: bad_clients.py PORT COUNT SEED
Each bad request gets its answer's status, or "closed" when the server closed the connection
without one. Prints one line per (kind, answer) with its count, then checks: every answer is
a documented 4xx (problem+json where idemlab wrote it), and the server stays responsive while
50 clients stall mid-request. Exits 1 on the first broken rule, naming the request.
"""
import json
import random
import socket
import sys
import time
from collections import Counter

# docs/serve.md lists these; 505 is the answer HTTP itself gives a version it does not speak
# (RFC 9112), libmicrohttpd's own.
DOCUMENTED = {400, 404, 405, 409, 413, 415, 422, 431, 505}
HOST = "127.0.0.1"


def exchange(port, data, timeout=30):
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server may close before it read everything: fine, it answered
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except ConnectionResetError:
            pass
    return b"".join(chunks)


def status_of(answer):
    if not answer:
        return "closed"
    line = answer.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) > 1 and line[1].isdigit() else "garbled"


def post(body, content_type="application/json", key=None, path="/transfers", extra=b""):
    head = f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: {content_type}\r\n"
    if key is not None:
        head += f"Idempotency-Key: {key}\r\n"
    data = body.encode() if isinstance(body, str) else body
    return head.encode() + extra + f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data


def amounts(rng):
    fixed = ["-1", "0", "0.00", "1.001", "1e3", "99999999999999999999", "NaN", "", " 1", "1,5",
             "0x10", "1.", ".5", "+1", "--1", "1.0.0", "९", "١"]
    return fixed + [rng.choice(["-", ""]) + str(rng.randint(0, 10**30)) + "." + "9" * rng.randint(3, 9)
                    for _ in range(20)]


def bad_transfers(rng):
    """Bodies that parse as HTTP but not as a transfer: each must write nothing."""
    out = []
    for amount in amounts(rng):
        out.append(("amount", post(json.dumps({"from": "alice", "to": "bob", "amount": amount}))))
        out.append(("amount-form", post(f"from=alice&to=bob&amount={amount}",
                                         "application/x-www-form-urlencoded")))
    for body in ["{", "[]", "null", "1", '"x"', '{"from":1,"to":"bob","amount":"1"}',
                 '{"from":"alice","to":"bob"}', '{"from":"alice","to":"bob","amount":"1","x":1}',
                 '{"from":"alice","from":"carol","to":"bob","amount":"1"}',
                 '{"from":"alice","to":"nobody","amount":"1.00"}',
                 '{"from":"alice","to":"alice","amount":"1.00"}',
                 "\xff\xfe", "%zz=1", "a=%"]:
        out.append(("body", post(body)))
        out.append(("body-form", post(body, "application/x-www-form-urlencoded")))
    for key in ['"' + "k" * 65 + '"', "12", "?1", ":aGk=:", "(a b)", '"a";p=1', '"unterminated',
                '"bad\\q"', "", "a b", '"\x7f"']:
        out.append(("key", post('{"from":"alice","to":"bob","amount":"1.00"}', key=key)))
    for content_type in ["text/plain", "", "application/xml", "multipart/form-data; boundary=x"]:
        out.append(("media", post('{"from":"alice","to":"bob","amount":"1.00"}', content_type)))
    for method in ["GET", "PUT", "DELETE", "PATCH", "BREW", "OPTIONS"]:
        out.append(("method", f"{method} /transfers HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode()))
    out.append(("path", post("{}", path="/")))
    for path in ["/nothing-here", "/transfer", "/transfers/", "/accounts/", "/accounts/nobody", "/../etc/passwd",
                 "/pay?guard=other", "/tokens?count=0", "/tokens?count=x", "/problems/none",
                 "/transfers/%00", "/" + "a" * 2000]:
        out.append(("path", f"GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode()))
        out.append(("path", post("{}", path=path)))
    out.append(("too-large", post("x" * 70000)))
    out.append(("pay", post("form=f0&from=alice&to=bob&amount=1", "application/x-www-form-urlencoded", path="/pay")))
    return out


def bad_http(rng):
    """Requests that are not valid HTTP/1.1."""
    fixed = [b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"\x00\x01\x02\r\n\r\n",
             b"GET /accounts/alice HTTP/1.1\r\n\r\n",  # no Host
             b"POST /transfers HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n",
             b"POST /transfers HTTP/1.1\r\nHost: t\r\nContent-Length: -5\r\n\r\n",
             b"POST /transfers HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
             b"POST /transfers HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc",
             b"GET /accounts/alice HTTP/1.1\r\nHost: t\r\nX: " + b"a" * 40000 + b"\r\n\r\n",
             b"GET /accounts/alice HTTP/1.1\r\nHost: t\r\n" + b"X: y\r\n" * 5000 + b"\r\n",
             b"GET /accounts/alice HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n",
             b"GET /accounts/alice\r\n\r\n", b"\r\n\r\n\r\n", b" / HTTP/1.1\r\n\r\n"]
    out = [("http", data) for data in fixed]
    for _ in range(300):  # random bytes, and valid requests with bytes flipped
        if rng.random() < 0.5:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 400)))
        else:
            # a transfer with two defects (an unknown payee, a negative amount), so no flip of a
            # few bytes makes it one that moves money
            data = bytearray(post('{"from":"alice","to":"zz-nobody","amount":"-1.00"}'))
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            data = bytes(data)
        out.append(("random", data))
    return out


def check_answer(kind, data, answer):
    status = status_of(answer)
    if status == "closed":
        return status  # checked by the caller: only malformed HTTP may be closed unanswered
    if status == "garbled" or status not in DOCUMENTED:
        sys.exit(f"{kind}: answered {status} to {data[:120]!r}:\n{answer[:400]!r}")
    head, _, body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):  # the first answer only: a mangled request may be read as two
        if line.lower().startswith(b"content-length:"):
            body = body[:int(line.split(b":")[1])]
    if b"application/problem+json" in head.lower():
        problem = json.loads(body)
        if not problem["type"].startswith("/problems/") or problem["status"] != status:
            sys.exit(f"{kind}: a problem that does not match its status: {answer[:400]!r}")
    return status


def stalled_clients(port, count=50):
    """Clients that send half a request and stop: the server must still answer others, and
    close each stalled connection at its timeout."""
    stalled = []
    for _ in range(count):
        sock = socket.create_connection((HOST, port), timeout=60)
        sock.sendall(b"POST /transfers HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n{\"from")
        stalled.append(sock)
    answer = exchange(port, b"GET /accounts/alice HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
    if status_of(answer) != 200:
        sys.exit(f"with {count} stalled clients, GET /accounts/alice answered {answer[:200]!r}")
    for sock in stalled:  # the server closes them (recv returns) well before our 60 s
        try:
            sock.recv(65536)
        except socket.timeout:
            sys.exit("a stalled client was never closed")
        except ConnectionResetError:
            pass
        sock.close()
    return count


def main(port, count, seed):
    rng = random.Random(seed)
    cases = bad_transfers(rng) + bad_http(rng)
    seen = Counter()
    for n in range(count):
        kind, data = cases[n % len(cases)]
        answer = check_answer(kind, data, exchange(port, data))
        if answer == "closed" and kind not in ("http", "random"):
            sys.exit(f"{kind}: closed unanswered: {data[:200]!r}")
        seen[(kind, answer)] += 1
    print(f"stalled: {stalled_clients(port)} clients, each closed at its timeout")
    for (kind, answer), times in sorted(seen.items(), key=str):
        print(f"{kind} {answer}: {times}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
