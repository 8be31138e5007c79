import AASAModel

/// Fetches URLs concurrently over one libcurl multi handle, never following redirects, every
/// transfer bounded in time and in bytes. Call `shutdown()` when done.
public final class Fetcher: Sendable {
    public let configuration: FetcherConfiguration
    private let loop: CurlMultiLoop

    public init(configuration: FetcherConfiguration) throws(FetcherError) {
        self.configuration = configuration
        loop = try CurlMultiLoop(configuration: configuration)
    }

    /// Fetches one URL. Never throws: a failed transfer is described in the record. A
    /// cancelled task gets a record whose error kind is `cancelled`.
    public func fetch(_ request: FetchRequest) async -> FetchedLocation {
        let transfer = loop.makeTransfer(request)
        if Task.isCancelled { return transfer.cancelledResult() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                loop.submit(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
    }

    /// Stops the loop thread; fetches still in flight end as cancelled.
    public func shutdown() {
        loop.shutdown()
    }
}
