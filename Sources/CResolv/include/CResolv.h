// One DNS question asked of the resolver directly (glibc's libresolv), to tell why a name did
// not resolve: libcurl's resolver (getaddrinfo) says only that it did not.
#ifndef CRESOLV_H
#define CRESOLV_H

/// Asks for `name`'s A records, once, of this machine's resolver (/etc/resolv.conf), or of
/// `server` (an IPv4 address, at `port`) when it is not NULL, waiting at most `timeout_seconds`.
/// Returns 0 and sets `rcode` (the answer's RCODE: 0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN, 5 REFUSED,
/// ...) and `answers` (its answer count); -1 when no answer came (no server reachable, timeout,
/// a name that cannot be asked).
int cresolv_ask(const char *name, const char *server, int port, int timeout_seconds, int *rcode, int *answers);

#endif
