/// What the fetcher got for one location: the record, and the body bytes it read
/// (at most the read cap) for the checks to look at.
public struct FetchedLocation: Sendable {
    public var record: FetchRecord
    public var body: [UInt8]

    public init(record: FetchRecord, body: [UInt8] = []) {
        self.record = record
        self.body = body
    }
}
