import AASAModel
import DomainList
import FuzzDriver
import PublicSuffix

/// The host-name path, C libraries included (libidn2, inet_aton, libpsl): text as domains.txt,
/// `check` and serve's `domain=` take it, then as a webauthn origin. Checks that what is accepted
/// is a host name in normal form, accepted again unchanged, and that its registrable domain is a
/// suffix of it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostNames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .success(let pasted) = HostName.normalizePasted(text) {
        let host = pasted.host
        precondition(!host.utf8.contains(0) && host.utf8.count <= HostName.maximumLength)
        precondition(HostName.normalize(host) == .success(host))
        if let domain = RegistrableDomain.of(host) {
            precondition(host == domain || host.hasSuffix("." + domain))
        }
    }
    if let origin = WebOrigin(text) {
        _ = RegistrableDomain.label(of: origin.host)
    }
    return 0
}

@_cdecl("FuzzHostNames_main")
public func fuzzHostNamesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzz_run(argc, argv) { data, size in fuzzHostNames(data!, size) }
}
