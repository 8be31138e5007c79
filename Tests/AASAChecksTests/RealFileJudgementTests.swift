import AASAModel
import Testing

@testable import AASAChecks

/// Shapes from real files (`../shared/corpus/wild3`) whose verdict by hand disagreed with the
/// tool's (issue 55, item 3): each judged as the platform's own client does.
struct RealFileJudgementTests {
    static let id = "ABCDE12346.com.example.app"

    static func aasa(_ components: String) -> [Finding] {
        let text = #"{"applinks":{"details":[{"appIDs":["\#(id)"],"components":[\#(components)]}]}}"#
        return FileLint.lint(Array(text.utf8), size: text.utf8.count).findings
    }

    /// iOS takes the first rule that matches: after `/?*` (every path but /) an exclusion that
    /// cannot match / never applies; one that can (`/`) still decides the root.
    @Test func anExclusionAfterEveryPathButTheRootNeverApplies() {
        let after = Self.aasa(#"{"/":"/?*"},{"/":"/account/*","exclude":true}"#)
        let unreachable = after.filter { $0.code == .aasa(.ruleUnreachable) }
        #expect(unreachable.count == 1 && unreachable.first?.severity == .warning, "\(after)")
        #expect(unreachable.first?.message.contains("components[1]") == true)
        #expect(Self.aasa(#"{"/":"/?*"},{"/":"/","exclude":true}"#).allSatisfy { $0.code != .aasa(.ruleUnreachable) })
        #expect(
            Self.aasa(#"{"/":"/account/*","exclude":true},{"/":"/?*"}"#).allSatisfy {
                $0.code != .aasa(.ruleUnreachable)
            })
        // A plain rule after it sends its URLs to the same apps: a note.
        let plain = Self.aasa(#"{"/":"/?*"},{"/":"/shop/*"}"#).filter { $0.code == .aasa(.ruleUnreachable) }
        #expect(plain.map(\.severity) == [.info])
    }

    /// An empty `"appclips": {}` stub: iOS ignores it, the file works: a note, a pass.
    @Test func anEmptyServiceStubIsANoteNotAFailure() {
        let text = #"{"applinks":{"details":[{"appIDs":["\#(Self.id)"],"components":[{"/":"/a/*"}]}]},"appclips":{}}"#
        let result = FileLint.lint(Array(text.utf8), size: text.utf8.count)
        #expect(result.verdict == .pass, "\(result.findings)")
        #expect(result.findings.map(\.code) == [.aasa(.serviceInvalid)] && result.findings.first?.severity == .info)
        // A section that is there but wrong still fails.
        let wrong = #"{"applinks":{"details":[]},"appclips":{"apps":"x"}}"#
        #expect(FileLint.lint(Array(wrong.utf8), size: wrong.utf8.count).verdict == .fail)
    }

    /// A Windows entry that excludes every path opens nothing; a pattern without a leading /
    /// never matches a path.
    @Test func windowsPatternsThatCannotDoWhatTheySay() {
        func findings(_ text: String) -> [Finding] {
            WindowsChecks.assessContent(Array(text.utf8), expected: [], at: .windows).findings
        }
        let all = findings(#"[{"packageFamilyName":"MyApp_9jmtgj1pbbz6e","paths":["*"],"excludePaths":["/*"]}]"#)
        #expect(all.map(\.code) == [.windows(.excludesAll)], "\(all)")
        let unanchored = findings(
            #"[{"packageFamilyName":"MyApp_9jmtgj1pbbz6e","paths":["shop/*","/a"],"excludePaths":["account/*","*.pdf"]}]"#
        )
        #expect(unanchored.map(\.code) == [.windows(.pathUnanchored), .windows(.pathUnanchored)], "\(unanchored)")
        #expect(unanchored.first?.message.contains("excludes nothing") == true)
        let fine = findings(
            #"[{"packageFamilyName":"MyApp_9jmtgj1pbbz6e","paths":["*"],"excludePaths":["/account/*","?x"]}]"#)
        #expect(fine.isEmpty, "\(fine)")
    }

    /// A webauthn file whose every entry is skipped allows no origin: a failure, not a warning.
    @Test func aWebAuthnFileWithNoUsableOriginFails() {
        let none = Array(#"{"origins":["http://localhost:3000","https://com","shop.example.com"]}"#.utf8)
        let result = WebAuthnChecks.assessContent(none, expected: [], at: .file)
        #expect(result.findings.contains { $0.code == .webAuthn(.noOrigin) && $0.severity == .error })
        let one = Array(#"{"origins":["http://localhost:3000","https://shop.example.com"]}"#.utf8)
        #expect(
            !WebAuthnChecks.assessContent(one, expected: [], at: .file).findings.contains {
                $0.code == .webAuthn(.noOrigin)
            })
    }
}
