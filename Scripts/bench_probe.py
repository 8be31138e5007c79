"""Baseline prober for Scripts/bench.sh: fetches both AASA locations of every domain with
aiohttp on uvloop, never following redirects, CONCURRENCY domains in flight, every name
resolved to 127.0.0.1 in-process. Prints the count of answers by status.

    bench_probe.py DOMAINS_FILE CA_FILE CONCURRENCY ADDRESS [pool]

Lean, as a competent prober is: one SSL context for every connection, no decompression (the
bodies are counted, not read), and the domain's second request sends `Connection: close`, so
that its connection is closed at once rather than parked in the pool (a domain is never asked
again). With `pool` (bench.sh's client aiohttp-uvloop-pool, the baseline of the figures before
2026-11-24): connections stay in aiohttp's keep-alive pool after the domain's last request, and
bodies are decompressed.
"""
import asyncio
import collections
import socket
import ssl
import sys

import aiohttp
import uvloop


class LoopbackResolver(aiohttp.abc.AbstractResolver):
    def __init__(self, address):
        self.address = address

    async def resolve(self, host, port=0, family=socket.AF_INET):
        # The dead hosts of SCENARIO=dead have loopback addresses of their own.
        address = "127.0.0.78" if host.startswith("silent-") else "127.0.0.79" if host.startswith("refused-") else self.address
        return [{"hostname": host, "host": address, "port": port, "family": socket.AF_INET, "proto": 0, "flags": 0}]

    async def close(self):
        pass


async def main(domains_file, ca_file, concurrency, address, pool):
    domains = [line.strip() for line in open(domains_file) if line.strip()]
    context = ssl.create_default_context(cafile=ca_file)
    connector = aiohttp.TCPConnector(limit=concurrency, ssl=context, resolver=LoopbackResolver(address), force_close=False)
    statuses = collections.Counter()
    queue = asyncio.Queue()
    for domain in domains:
        queue.put_nowait(domain)

    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=10), auto_decompress=pool
    ) as session:
        async def worker():
            while not queue.empty():
                domain = queue.get_nowait()
                for path in ("/.well-known/apple-app-site-association", "/apple-app-site-association"):
                    last = path == "/apple-app-site-association"
                    headers = {"Connection": "close"} if last and not pool else None
                    try:
                        async with session.get(f"https://{domain}{path}", allow_redirects=False, headers=headers) as response:
                            await response.read()
                            statuses[response.status] += 1
                    except Exception as error:  # a failed fetch is counted, not fatal
                        statuses[type(error).__name__] += 1

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    print(dict(statuses))


if __name__ == "__main__":
    uvloop.install()
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:] == ["pool"]))
