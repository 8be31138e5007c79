import Foundation
import Testing

@testable import AASAAudit

/// The spool behind the reports: pieces appended in completion order come back in input order,
/// whether they are buffered, read together or larger than a read.
@Suite struct OrderedSpoolTests {
    @Test func piecesComeBackInInputOrder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 3_000
        let spool = try OrderedSpool(url: directory.appendingPathComponent("pieces"), capacity: count)
        defer { spool.remove() }
        func piece(_ index: Int) -> Data {
            // Mostly small; a few larger than a buffer or a read; index 11 never appended.
            let size = index % 997 == 5 ? (3 << 20) + index : index % 13 + 1
            return Data(repeating: UInt8(index % 251), count: size)
        }
        // Completion order: mostly in order, with some pieces late.
        let order = (0..<count).filter { $0 % 50 != 0 && $0 != 11 } + (0..<count).filter { $0 % 50 == 0 }.reversed()
        for index in order { try spool.append(piece(index), at: index) }
        var read: [Data] = []
        try spool.forEachInOrder { read.append($0) }
        let expected = (0..<count).filter { $0 != 11 }.map(piece)
        #expect(read.count == expected.count)
        #expect(read == expected)
    }
}
