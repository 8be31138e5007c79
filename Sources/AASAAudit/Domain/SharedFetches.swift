import AASAFetch
import AASAModel
import Foundation
import Synchronization

/// Files several domains name, fetched once per run (a web app's manifest, which each of its
/// associated origins cross-checks): the first domain that asks fetches it within its own
/// deadline, and the others take its answer. Only an answer that came back is kept (a
/// failure may be the asking domain's spent time, so the next one asks again). Bounded in count
/// and kept `lifetime` seconds, so that a long-lived auditor (`serve`, `mcp`) asks again later.
final class SharedFetches: Sendable {
    /// Files kept at most; past it, the oldest goes.
    static let capacity = 64
    /// How long an answer is kept, in seconds: a nightly run's length, a team's page's minutes.
    static let lifetime: TimeInterval = 600

    private struct Entry {
        var answer: FetchedLocation
        var at: Date
    }

    private let entries = Mutex<[(url: String, entry: Entry)]>([])

    /// The kept answer for `url`, when it is younger than `lifetime` at `now`.
    func answer(for url: String, now: Date) -> FetchedLocation? {
        entries.withLock { entries in
            entries.removeAll { now.timeIntervalSince($0.entry.at) >= Self.lifetime }
            return entries.first { $0.url == url }?.entry.answer
        }
    }

    /// Keeps an answer that came back (a status, no transfer error).
    func keep(_ answer: FetchedLocation, for url: String, now: Date) {
        guard answer.record.error == nil, answer.record.status != nil else { return }
        entries.withLock { entries in
            entries.removeAll { $0.url == url }
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append((url, Entry(answer: answer, at: now)))
        }
    }
}

extension DeadlineFetch {
    /// `request`'s answer, fetched once per run: another domain's when one asked before.
    func once(_ request: FetchRequest) async -> FetchedLocation {
        guard let shared else { return await self(request) }
        if let kept = shared.answer(for: request.url, now: now()) { return kept }
        let answer = await self(request)
        shared.keep(answer, for: request.url, now: now())
        return answer
    }
}
