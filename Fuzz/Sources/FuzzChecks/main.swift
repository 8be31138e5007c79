import AASAChecks
import AASAModel
import FuzzDriver

/// Bytes to findings: the whole pipeline a served file goes through (size, JSON syntax,
/// validation of every key, rule compilation), with and without --min-ios.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChecks(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = FileLint.lint(bytes, size: bytes.count)
    precondition(result.verdict == Verdict(findings: result.findings))
    precondition(result.findings.allSatisfy { $0.location == .file })
    _ = FileLint.lint(bytes, size: bytes.count, options: ValidationOptions(minimumIOS: IOSVersion("12")))
    return 0
}

@_cdecl("FuzzChecks_main")
public func fuzzChecksMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzz_run(argc, argv) { data, size in fuzzChecks(data!, size) }
}
