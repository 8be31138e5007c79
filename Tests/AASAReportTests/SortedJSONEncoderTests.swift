import AASAModel
import Foundation
import Testing

@testable import AASAReport

/// The records are written by `SortedJSONEncoder`; dashboards and diffs rely on them being the
/// bytes Foundation's encoder (`JSONReport.makeEncoder()`) wrote before. Each test compares the two.
@Suite struct SortedJSONEncoderTests {
    func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = String(decoding: try SortedJSONEncoder.encode(value), as: UTF8.self)
        // JSONEncoder's bytes, but for the Unicode line ends it leaves raw (issue 46, item 9).
        let foundation = String(decoding: try JSONReport.makeEncoder().encode(value), as: UTF8.self)
            .replacingOccurrences(of: "\u{2028}", with: #"\u2028"#)
            .replacingOccurrences(of: "\u{2029}", with: #"\u2029"#)
            .replacingOccurrences(of: "\u{85}", with: #"\u0085"#)
        #expect(ours == foundation, sourceLocation: sourceLocation)
    }

    @Test func everyFieldOfARecordIsWrittenAsJSONEncoderWritesIt() throws {
        try expectSameBytes(Samples.domain())
        try expectSameBytes(Samples.minimalDomain())
        var expiring = Samples.domain("expiring.example")
        expiring.certificateExpires = Date(timeIntervalSince1970: 1_800_000_000.75)
        expiring.fetches[0].certificateExpires = Date(timeIntervalSince1970: 1_800_000_000)
        try expectSameBytes(expiring)
        #expect(String(decoding: JSONReport.encodeRecord(expiring), as: UTF8.self).contains("2027-01-15T08:00:00Z"))
    }

    @Test func hostileTextIsEscapedAlike() throws {
        // Every control character, quotes, backslashes, slashes, markup, and text beyond ASCII.
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let text = controls + "\"\\/</script><b>é\u{2028}\u{2029}\u{85}\u{FEFF}😀\u{7F}\u{C2}\u{A0}\u{2027}\u{20AC}"
        try expectSameBytes(Samples.domain("hostile.example", text: text))
        try expectSameBytes([text: text])
        // A record is one line by every reader's count: no Unicode line end written raw, and it
        // reads back as the text it was.
        let record = try SortedJSONEncoder.encode([text: text])
        let line = String(decoding: record, as: UTF8.self)
        #expect(!line.unicodeScalars.contains { [0x0A, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) })
        #expect(try JSONDecoder().decode([String: String].self, from: record) == [text: text])
    }

    @Test func numbersAreWrittenAlike() throws {
        let values: [Double] = [
            0, -0.0, 8, 12.5, 0.1, 1e-05, 1.5e-07, 123_456_789_012.5, 1e21, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude,
        ]
        try expectSameBytes(values)
        var report = Samples.minimalDomain()
        report.fetches[0].timings = FetchTimings(
            dnsMs: 0.001, connectMs: 1e-06, tlsMs: 9.75, firstByteMs: 100, totalMs: 1e20)
        try expectSameBytes(report)
        try expectSameBytes([Int.min, 0, Int.max])
        try expectSameBytes([Float(0.1), 2.5, 3, -1e-7])
        #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder.encode(["x": Double.infinity]) }
    }

    @Test func keysSortByTheirBytesAndEveryContainerIsWritten() throws {
        // Upper case before `_` before lower case, digits by character, not by number.
        try expectSameBytes(["b": 1, "a10": 2, "a9": 3, "B": 4, "aB": 5, "ab": 6, "_x": 7, "Z": 8, "a-b": 9, "é": 10])
        try expectSameBytes(Containers())
        try expectSameBytes([String?.none, "x"])
        try expectSameBytes([[String: [Int]]]())
        try expectSameBytes(["empty": [String: Int](), "list": [:]])
    }

    /// A type that uses every kind of container an `Encoder` hands out.
    struct Containers: Encodable {
        enum Key: String, CodingKey { case z, nested, list, parent, inner, none, data, url }
        enum Inner: String, CodingKey { case b, a }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("last", forKey: .z)
            try container.encodeNil(forKey: .none)
            try container.encode(Data([0, 1, 2, 250]), forKey: .data)
            try container.encode(URL(string: "https://example.com/a?b=c")!, forKey: .url)
            var nested = container.nestedContainer(keyedBy: Inner.self, forKey: .nested)
            try nested.encode(true, forKey: .b)
            try nested.encode(Int8(-3), forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(UInt16(7))
            try list.encodeNil()
            try list.encode(Float(0.5))
            var deeper = list.nestedContainer(keyedBy: Inner.self)
            try deeper.encode("x", forKey: .a)
            var inner = list.nestedUnkeyedContainer()
            try inner.encode(false)
            try Date(timeIntervalSince1970: 0).encode(to: list.superEncoder())
            try "from the parent".encode(to: container.superEncoder(forKey: .parent))
            // A second keyed container on the same encoder adds to the same object, as
            // DomainReport does with its association records.
            var again = encoder.container(keyedBy: Inner.self)
            try again.encode(1, forKey: .a)
        }
    }
}
