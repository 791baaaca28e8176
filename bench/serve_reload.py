#!/usr/bin/env python3
"""serve_reload.py: how long folio serve takes from saving a post to the
reload event an open tab receives.

Usage: serve_reload.py --folio ./folio --site DIR [--runs 9] [--future] [--timings]

Starts `folio serve` on a free loopback port (building into a temporary
folder; the site is not written to), opens the event stream as a tab does,
then --runs times: appends a line to one post (open, write, close: a save),
and times until `event: reload` arrives. Prints each run, then the median,
min and max, and the server's own rebuild times. The post is restored at the
end. Standard library only.
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def open_stream(port, deadline):
    """A connection reading /__folio/events, after its first event."""
    while True:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    sock.sendall(b"GET /__folio/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    sock.settimeout(None)
    return sock


def wait_event(sock, name, timeout):
    """Reads until an `event: name` line; returns the time it arrived."""
    sock.settimeout(timeout)
    buf = b""
    want = b"event: " + name.encode()
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("the event stream closed")
        buf += chunk
        if want in buf:
            return time.monotonic()
        buf = buf[-256:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folio", default="./folio")
    ap.add_argument("--site", required=True)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--future", action="store_true")
    ap.add_argument("--post", help="the post to edit (default: the 500th by name)")
    ap.add_argument("--timings", action="store_true", help="print the server's FOLIO_TIMINGS of each patch")
    args = ap.parse_args()

    posts = sorted(f for f in os.listdir(os.path.join(args.site, "content", "posts")) if f.endswith(".md"))
    post = args.post or os.path.join(args.site, "content", "posts", posts[min(499, len(posts) - 1)])
    original = open(post, "rb").read()
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="folio-bench-serve-")
    env = dict(os.environ, TMPDIR=tmp)
    if args.timings:
        env["FOLIO_TIMINGS"] = "1"
    cmd = [args.folio, "serve", args.site, "--port", str(port)] + (["--future"] if args.future else [])
    log = open(os.path.join(tmp, "serve.log"), "w+")
    t = time.monotonic()
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log)
    times = []
    try:
        sock = open_stream(port, time.monotonic() + 600)
        wait_event(sock, "hello", 600)
        print(f"first build and stream open: {time.monotonic() - t:.1f} s")
        for i in range(args.runs):
            time.sleep(1.0)
            t0 = time.monotonic()
            with open(post, "ab") as f:
                f.write(b"\nA line saved by serve_reload.py, run %d.\n" % i)
            t1 = wait_event(sock, "reload", 60)
            times.append((t1 - t0) * 1000)
            print(f"run {i + 1}: saved to reload event in {times[-1]:.1f} ms")
        sock.close()
    finally:
        with open(post, "wb") as f:
            f.write(original)
        log.flush()
        log.seek(0)
        logged = log.readlines()
        rebuilds = [line.strip() for line in logged if "rebuilt in" in line]
        patches = [line.strip() for line in logged if "timings (ms): patch" in line or "search index" in line]
        if times:
            print(f"saved to reload: median {statistics.median(times):.1f} ms, "
                  f"min {min(times):.1f} ms, max {max(times):.1f} ms ({len(times)} runs)")
        for line in rebuilds[:3]:
            print("server:", line)
        for line in patches if args.timings else []:
            print("server:", line)
        sys.stdout.flush()
        server.terminate()
        # it removes its output folder: 15,000 files at 10k posts, minutes
        # for 150,000 on a slow disk
        server.wait(timeout=3600)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if len(times) == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
