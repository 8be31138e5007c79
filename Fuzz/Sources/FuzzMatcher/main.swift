import AASAJSON
import AASAMatching
import FuzzDriver

/// The matcher: the first line is a URL (or a path on fuzz.example), the rest a file. Checks
/// what must hold whatever the input: no crash, an app result names apps, the rule that
/// decides is one of the file's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMatcher(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    var url = String(decoding: bytes[..<newline], as: UTF8.self)
    if !url.contains("://") { url = "https://fuzz.example/" + url }
    let fileBytes = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []
    guard case .object(let file)? = try? JSONParser.parse(fileBytes) else { return 0 }
    let matcher = Matcher(file: file, domain: "fuzz.example")
    guard case .success(let decision) = matcher.decide(url) else { return 0 }
    switch decision.outcome {
    case .app: precondition(!decision.appIDs.isEmpty && decision.rule != nil)
    case .excluded: precondition(decision.appIDs.isEmpty && decision.rule?.exclude == true)
    case .none, .undecided: precondition(decision.appIDs.isEmpty && decision.rule == nil)
    }
    return 0
}

@_cdecl("FuzzMatcher_main")
public func fuzzMatcherMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzz_run(argc, argv) { data, size in fuzzMatcher(data!, size) }
}
