import AASAChecks
import AASAModel
import FuzzDriver
import SignedFiles

/// Bytes to a signed file's opening (OpenSSL's CMS parser and verifier through the shim), then
/// its content through the checks, as an audit does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignedFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let opened = SignedFile.open(bytes, host: "example.com", trust: nil) else { return 0 }
    precondition(opened.signature.opened == (opened.content != nil))
    precondition(!opened.signature.verified || opened.signature.problem == nil)
    let result = FileLint.lint(opened.content ?? bytes, size: bytes.count, signature: opened.signature)
    precondition(result.findings.contains { $0.code == .aasa(.fileSigned) })
    precondition(opened.signature.problem == nil || result.findings.contains { $0.code == .aasa(.signatureInvalid) })
    return 0
}

@_cdecl("FuzzSignedFiles_main")
public func fuzzSignedFilesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzz_run(argc, argv) { data, size in fuzzSignedFiles(data!, size) }
}
