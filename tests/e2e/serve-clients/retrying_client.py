"""Sends transfers to `idemlab serve` through requests with urllib3's Retry allowing POST, as a
service's HTTP client retries after a lost answer.

usage: retrying_client.py BASE_URL COUNT KEY_PREFIX|-
Sends COUNT transfers of 1.00 from alice to bob, each once from the caller's view; urllib3
retries each up to 10 times when the connection closes with no answer. With KEY_PREFIX each
carries Idempotency-Key KEY_PREFIX-N; with '-' none. Prints the statuses it ends with.
"""
import sys

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


def session():
    # allowed_methods=None: retry every method, POST too (urllib3's default leaves POST out).
    retry = Retry(total=10, connect=10, read=10, allowed_methods=None, backoff_factor=0)
    client = requests.Session()
    client.mount("http://", HTTPAdapter(max_retries=retry))
    return client


def main(base, count, prefix):
    client = session()
    statuses = []
    for n in range(1, count + 1):
        headers = {} if prefix == "-" else {"Idempotency-Key": f'"{prefix}-{n}"'}
        answer = client.post(f"{base}/transfers", headers=headers, timeout=60,
                             json={"from": "alice", "to": "bob", "amount": "1.00"})
        statuses.append(str(answer.status_code))
    print(" ".join(statuses))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
