import Testing

@testable import AASAMCP

/// Standard input cut into messages, bounded: a line past the bound is reported by its length and
/// never held, whatever the reads' sizes; blank lines are no messages.
@Suite struct LineSplitterTests {
    @Test(arguments: [1, 3, 7, 64])
    func linesAreCutAtNewlinesWhateverTheReads(size: Int) {
        let input =
            Array("{\"a\":1}\n\n  \r\n{\"b\":2}\r\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 40)
            + [0x0A] + Array("{\"c\":3}\n".utf8)
        var splitter = LineSplitter(maximumBytes: 32)
        var lines: [LineSplitter.Line] = []
        var offset = 0
        while offset < input.count {
            lines += splitter.push(input[offset..<min(offset + size, input.count)])
            offset += size
        }
        #expect(
            lines == [
                .message(Array("{\"a\":1}".utf8)), .message(Array("{\"b\":2}".utf8)), .tooLong(40),
                .message(Array("{\"c\":3}".utf8)),
            ])
    }
}
