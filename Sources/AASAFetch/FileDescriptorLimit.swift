import Foundation

/// The process's limit on open files, which bounds the connections in flight: each domain in
/// flight holds a socket to its origin and, while Apple's CDN is checked, one to the CDN. The
/// soft limit is often 1,024 (systemd's default for services), below what `--concurrency 1000`
/// needs; the hard limit is usually far higher and may be raised to without privileges.
public enum FileDescriptorLimit {
    /// Descriptors a fetcher needs for `concurrency` domains in flight: two sockets each, and
    /// room for the reports, the spools and the curl loops' own.
    public static func needed(forConcurrency concurrency: Int) -> Int {
        2 * concurrency + 64
    }

    /// Raises the soft limit to `count` where it is lower (never above the hard limit). Returns
    /// the soft limit now in force.
    @discardableResult
    public static func raise(toAtLeast count: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return count }
        let wanted = rlim_t(count)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }
}
