import SwiftASN1

/// Hostile variants of a real signed file, re-encoded with swift-asn1: shapes the openssl
/// command will not make but a hostile server can serve.
public enum SignedFileSurgery {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The same file with its SignedData's digestAlgorithms holding its first algorithm `times`
    /// times. The list is outside what the signature covers, so the file still verifies for a
    /// parser that tolerates the repeats.
    public static func repeatingDigestAlgorithm(in der: [UInt8], times: Int) throws -> [UInt8] {
        let root = try DER.parse(der)
        let top = try children(root)
        guard top.count == 2 else { throw Failure(description: "not a ContentInfo") }
        let explicit = try children(top[1])
        guard let signedData = explicit.first else { throw Failure(description: "no SignedData") }
        let parts = try children(signedData)
        guard parts.count >= 4, let algorithm = try children(parts[1]).first else {
            throw Failure(description: "no digestAlgorithms")
        }
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: root.identifier) { content in
            content.serialize(top[0])
            content.appendConstructedNode(identifier: top[1].identifier) { content in
                content.appendConstructedNode(identifier: signedData.identifier) { content in
                    content.serialize(parts[0])
                    content.appendConstructedNode(identifier: parts[1].identifier) { set in
                        for _ in 0..<times { set.serialize(algorithm) }
                    }
                    parts.dropFirst(2).forEach { content.serialize($0) }
                }
            }
        }
        return serializer.serializedBytes
    }

    private static func children(_ node: ASN1Node) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else { throw Failure(description: "a primitive node") }
        return Array(nodes)
    }
}
