import AASAJSON
import Testing

@Suite struct JSONParserTests {
    /// A repeated key keeps its first place and its last value (what Apple's parser does), and
    /// is remembered for the duplicate-key finding.
    @Test func keepsMemberOrderRepeatedKeysAndNumberText() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": [true, false, null], "b": 2.50e3, "s": "x", "b": 7}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "s"])
        #expect(object["b"] == .number("7"))
        #expect(object.members[0].value == .number("7"))
        #expect(object.duplicateKeys == ["b"])
        #expect(object["a"] == .array([.bool(true), .bool(false), .null]))
        #expect(object["s"]?.stringValue == "x")
    }

    @Test(arguments: [
        (#""a\"b\\c\/d\n\t""#, "a\"b\\c/d\n\t"),
        (#""\u00e9\u20AC""#, "é€"),
        (#""\ud83d\ude00""#, "😀"),
        ("\"caf\u{E9}\"", "café"),
    ])
    func decodesStrings(source: String, expected: String) throws {
        #expect(try JSONParser.parse(source) == .string(expected))
    }

    @Test(arguments: [
        // (document, line, column, words the reason must contain)
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("[1, 2,\n]", 2, 1, "trailing comma"),
        ("{\n  // comment\n  \"a\": 1\n}", 2, 3, "'/'"),
        ("{\"a\": \u{201C}x\u{201D}}", 1, 7, "U+201C"),
        ("\u{FEFF}{}", 1, 1, "U+FEFF"),
        ("---\nlayout: null\n---\n{}", 1, 2, "'-'"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("{\"a\": tru}", 1, 7, "expected a value"),
        ("{\"a\": 01}", 1, 8, "leading zero"),
        ("{\"a\": \"x\ny\"}", 1, 9, "control character"),
        ("{} {}", 1, 4, "after the end"),
        ("", 1, 1, "empty"),
        ("   \n ", 2, 2, "only white space"),
        ("{\"a\": \"\\x\"}", 1, 8, "invalid escape"),
        ("{\"a\": \"\\ud800\"}", 1, 14, "unpaired surrogate"),
        ("[1", 1, 3, "end of input"),
    ])
    func reportsWhereAndWhy(source: String, line: Int, column: Int, reason: String) {
        #expect {
            try JSONParser.parse(source)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.reason.contains(reason)
        }
    }

    @Test func rejectsInvalidUTF8InsideAString() {
        let bytes: [UInt8] = Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        do {
            _ = try JSONParser.parse(bytes)
        } catch {
            #expect(error.reason.contains("invalid UTF-8"))
            #expect(error.offset == 7)
        }
    }

    @Test func boundsNestingWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONParser.parse(deep)
            Issue.record("100,000 levels of nesting were accepted")
        } catch {
            #expect(error.reason.contains("nesting deeper than \(JSONParser.defaultMaxDepth)"))
            #expect(error.offset == JSONParser.defaultMaxDepth)
        }
        let allowed =
            String(repeating: "[", count: JSONParser.defaultMaxDepth)
            + String(repeating: "]", count: JSONParser.defaultMaxDepth)
        #expect(throws: Never.self) { try JSONParser.parse(allowed) }
    }

    @Test func columnsCountCharactersNotBytes() {
        do {
            _ = try JSONParser.parse("{\"é€😀\": x}")
        } catch {
            #expect(error.line == 1)
            #expect(error.column == 9)
        }
    }

    @Test func prettyPrintingRoundTrips() throws {
        let source =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12346.a.b"],"components":[{"/":"/x/*","comment":"say \"hi\"\n"}]}],"apps":[]},"n":-1.5E+3,"e":{},"l":[]}"#
        let value = try JSONParser.parse(source)
        let pretty = value.prettyPrinted()
        #expect(try JSONParser.parse(pretty) == value)
        #expect(pretty.contains("\n    \"details\": [\n"))
        #expect(pretty.contains(#""comment": "say \"hi\"\n""#))
        #expect(pretty.contains("\"e\": {}"))
    }
}

/// `JSONLocator.Index` answers as `JSONLocator.locate` does, element by element.
@Suite struct JSONLocatorIndexTests {
    @Test func theIndexFindsWhatTheWholeWalkFinds() {
        let text = """
              [ {"a": 1, "é": ["x", {"b": "ü"}]},
            "two", [1, [2, 3]],
              {"a": {"a": 5}}, {"a": 1, "a": 2} ]
            """
        let bytes = Array(text.utf8)
        let index = JSONLocator.Index(bytes)
        let paths: [[JSONLocator.Step]] = [
            [.index(0)], [.index(0), .key("a")], [.index(0), .key("é"), .index(1), .key("b")], [.index(1)],
            [.index(2), .index(1), .index(1)], [.index(3), .key("a"), .key("a")], [.index(4), .key("a")],
            [.index(5)], [.index(0), .key("missing")], [.key("a")], [],
        ]
        for path in paths {
            #expect(index.locate(path) == JSONLocator.locate(path, in: bytes), "\(path)")
        }
        #expect(index.locate([.index(3), .key("a"), .key("a")])?.line == 3)
    }
}
