import AASAModel
import Foundation
import Testing

@testable import AASAAudit

/// Files several domains name, fetched once per run: only answers that came back are kept, for
/// a while, and no more than a bound.
@Suite struct SharedFetchesTests {
    static func answer(_ url: String, status: Int?, error: TransferErrorKind? = nil) -> FetchedLocation {
        var record = FetchRecord(location: .webApp, url: url)
        record.status = status
        record.error = error.map { TransferError(kind: $0, curlCode: 28, message: "timed out") }
        return FetchedLocation(record: record)
    }

    @Test func answersThatCameBackAreKeptForAWhile() {
        let shared = SharedFetches()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let url = "https://app.example.com/manifest.json"
        shared.keep(Self.answer(url, status: nil, error: .timeout), for: url, now: start)
        #expect(shared.answer(for: url, now: start) == nil, "a failure may be the asking domain's spent time")
        shared.keep(Self.answer(url, status: 404), for: url, now: start)
        #expect(shared.answer(for: url, now: start)?.record.status == 404)
        #expect(shared.answer(for: url, now: start.addingTimeInterval(SharedFetches.lifetime - 1)) != nil)
        #expect(shared.answer(for: url, now: start.addingTimeInterval(SharedFetches.lifetime)) == nil)
    }

    @Test func theOldestGoesPastTheBound() {
        let shared = SharedFetches()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let urls = (0...SharedFetches.capacity).map { "https://app\($0).example.com/manifest.json" }
        for url in urls { shared.keep(Self.answer(url, status: 200), for: url, now: now) }
        #expect(shared.answer(for: urls[0], now: now) == nil)
        #expect(shared.answer(for: urls[1], now: now) != nil && shared.answer(for: urls.last!, now: now) != nil)
    }
}
