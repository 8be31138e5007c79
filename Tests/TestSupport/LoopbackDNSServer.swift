import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
    import Glibc
#endif

/// A DNS server on 127.0.0.1 (UDP, a port the system picks) that answers every question with
/// the answer code its script gives for the name asked, and no records: NXDOMAIN, SERVFAIL,
/// REFUSED, NOERROR without data; or nothing at all (nil), as a resolver that times out.
///
/// The serving thread owns the socket and closes it when it ends: a descriptor closed while a
/// thread still reads it would, once the number is reused, take another socket's bytes.
public final class LoopbackDNSServer: Sendable {
    public let port: Int
    private let descriptor: Int32
    private let stopping = NIOLockedValueBox(false)

    /// - Parameter script: the RCODE for a name (lower case, without the final dot),
    ///   `withAnAddress` to answer with an address, or nil to leave the question unanswered.
    public init(script: @escaping @Sendable (String) -> Int?) throws {
        TestLayer.enteringLive("a loopback DNS server")
        let made = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard made >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(made, $0, length) == 0 && getsockname(made, $0, &length) == 0
            }
        }
        guard bound else {
            close(made)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        (descriptor, port) = (made, Int(UInt16(bigEndian: address.sin_port)))
        let serving = made
        let stopping = stopping
        Thread.detachNewThread {
            defer { close(serving) }
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                var peer = sockaddr_storage()
                var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let count = withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(serving, &buffer, buffer.count, 0, $0, &peerLength)
                    }
                }
                guard !stopping.withLockedValue({ $0 }) else { return }
                guard count >= 0 else { continue }
                guard count > 12, let (name, end) = Self.question(buffer[..<count]), let rcode = script(name) else {
                    continue
                }
                // The question back, flagged as a response (QR, RD and RA set) with the code;
                // `withAnAddress` adds one A record (192.0.2.1) pointing at the question's name.
                var answer = Array(buffer[..<end])
                answer[2] = 0x81
                answer[3] = 0x80 | UInt8(rcode == Self.withAnAddress ? 0 : rcode & 0x0F)
                (answer[6], answer[7], answer[8], answer[9], answer[10], answer[11]) = (0, 0, 0, 0, 0, 0)
                if rcode == Self.withAnAddress {
                    answer[7] = 1
                    answer += [0xC0, 0x0C, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 1]
                }
                _ = withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(serving, answer, answer.count, 0, $0, peerLength)
                    }
                }
            }
        }
    }

    /// What a script returns for a name that exists: NOERROR with one A record.
    public static let withAnAddress = -1

    /// `IPv4:PORT`, as `FetcherConfiguration.diagnosisNameServer` takes it.
    public var address: String { "127.0.0.1:\(port)" }

    /// The first question's name and where the question ends.
    static func question(_ packet: ArraySlice<UInt8>) -> (String, Int)? {
        var labels: [String] = []
        var index = packet.startIndex + 12
        while index < packet.endIndex {
            let length = Int(packet[index])
            if length == 0 { break }
            guard length < 64, index + 1 + length <= packet.endIndex else { return nil }
            labels.append(String(decoding: packet[(index + 1)...(index + length)], as: UTF8.self).lowercased())
            index += 1 + length
        }
        let end = index + 5  // the zero byte, QTYPE and QCLASS
        guard end <= packet.endIndex else { return nil }
        return (labels.joined(separator: "."), end)
    }

    /// Ends the serving thread, which closes the socket.
    public func shutdown() {
        let first = stopping.withLockedValue { stopping in
            defer { stopping = true }
            return !stopping
        }
        if first { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    deinit { shutdown() }

    /// An address where no DNS server listens: a resolver that does not answer.
    public static let nobody: String = {
        let port = try? LoopbackServer.unusedPort()
        return "127.0.0.1:\(port ?? 9)"
    }()
}
