import AASAReport
import Synchronization

/// Which domain first served each distinct file (by SHA-256), so that the HTML report shows
/// a file once and points later domains serving the same bytes at it. Shared by the tasks
/// that render rows concurrently.
final class ServedFileRegistry: Sendable {
    private let firstServer = Mutex<[String: (domain: String, row: Int)]>([:])

    /// The display of `body` for the row of `domain`: its text the first time, a pointer after.
    func display(_ body: ServedBody, domain: String, row: Int) -> ServedFileDisplay {
        let earlier: (domain: String, row: Int)? = firstServer.withLock { firstServer in
            if let existing = firstServer[body.sha256] { return existing }
            firstServer[body.sha256] = (domain, row)
            return nil
        }
        if let earlier {
            return ServedFileDisplay(
                location: body.location, sha256: body.sha256, content: .sameAs(domain: earlier.domain, row: earlier.row)
            )
        }
        return ServedFileDisplay(location: body.location, sha256: body.sha256, content: .text(body.displayText))
    }
}
