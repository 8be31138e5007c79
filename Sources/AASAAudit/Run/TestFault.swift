import Foundation

/// A planted fault, for the crash tests of debug builds only: `AASA_AUDIT_TEST_FAULT=DOMAIN`
/// makes a run's audit of DOMAIN trap in its own work, after its fetches: a real fault on the
/// thread that runs it, as a crash in a check or a C library would be. Release builds have none.
enum TestFault {
    #if DEBUG
        static let domain = ProcessInfo.processInfo.environment["AASA_AUDIT_TEST_FAULT"]
    #endif

    @inline(__always)
    static func strike(_ audited: String) {
        #if DEBUG
            if let domain, audited == domain { fatalError("AASA_AUDIT_TEST_FAULT: a planted fault auditing \(domain)") }
        #endif
    }
}
