import AASAChecks
import AASAModel
import Foundation

/// The outputs' records of the domains an interrupted run did not reach. Every domain of the
/// input appears in the reports, and an interruption early in a run of a million domains
/// leaves nearly all of them: through the outputs' encoders and templates that took 48 s after
/// the signal. Their records differ only in the domain's name, input line and position, so each
/// output renders one record with placeholders (once per list of expected app IDs) and each
/// domain's record is that one with the placeholders replaced: about a microsecond a domain.
/// A name that an output might spell otherwise (anything but lower-case letters, digits, dots
/// and hyphens, or a punycode label) goes through the outputs as any domain does.
struct NotAuditedRecords {
    static let placeholderDomain = "not-audited-placeholder.aasa-audit.invalid"
    static let placeholderLine = 987_654_321
    static let placeholderIndex = 876_543_219
    /// Distinct lists of expected app IDs kept; others go through the outputs.
    static let maximumShapes = 256

    private enum Slot { case domain, line, index }

    /// One output's record, cut at its placeholders.
    private struct Cut {
        var pieces: [Data]
        /// What goes after each piece but the last.
        var slots: [Slot]
    }

    private struct Shape: Hashable {
        var appIDs: [String]
        var hasLine: Bool
    }

    let outputs: [any RunOutput]
    private var cuts: [Shape: [Cut?]] = [:]

    init(outputs: [any RunOutput]) {
        self.outputs = outputs
    }

    /// Each output's record of `target`, not audited, at `index` of the input.
    mutating func render(_ target: DomainTarget, index: Int) -> [Data?] {
        let shape = Shape(appIDs: target.expectedAppIDs, hasLine: target.inputLine != nil)
        guard Self.isPlain(target.domain), cuts[shape] != nil || cuts.count < Self.maximumShapes else {
            return slowRender(target, index: index)
        }
        let cut = cuts[shape] ?? makeCuts(shape)
        cuts[shape] = cut
        let domain = Data(target.domain.utf8)
        let line = Data(String(target.inputLine ?? 0).utf8)
        let position = Data(String(index).utf8)
        return cut.map { cut in
            cut.map { cut in
                var record = Data()
                for (number, piece) in cut.pieces.enumerated() {
                    record.append(piece)
                    guard number < cut.slots.count else { break }
                    switch cut.slots[number] {
                    case .domain: record.append(domain)
                    case .line: record.append(line)
                    case .index: record.append(position)
                    }
                }
                return record
            }
        }
    }

    /// What every output renders for the domain, the usual way.
    func slowRender(_ target: DomainTarget, index: Int) -> [Data?] {
        let domain = AuditedDomain(index: index, report: DomainChecks.notAudited(target), served: [])
        return outputs.map { $0.render(domain) }
    }

    private func makeCuts(_ shape: Shape) -> [Cut?] {
        let placeholder = DomainTarget(
            domain: Self.placeholderDomain, expectedAppIDs: shape.appIDs,
            inputLine: shape.hasLine ? Self.placeholderLine : nil)
        return slowRender(placeholder, index: Self.placeholderIndex).map { $0.map(Self.cut) }
    }

    private static func cut(_ record: Data) -> Cut {
        let marks: [(Data, Slot)] = [
            (Data(placeholderDomain.utf8), .domain), (Data(String(placeholderLine).utf8), .line),
            (Data(String(placeholderIndex).utf8), .index),
        ]
        var cut = Cut(pieces: [], slots: [])
        var rest = record[...]
        while true {
            let next = marks.compactMap { mark, slot in rest.firstRange(of: mark).map { ($0, slot) } }.min {
                $0.0.lowerBound < $1.0.lowerBound
            }
            guard let (range, slot) = next else { break }
            cut.pieces.append(Data(rest[..<range.lowerBound]))
            cut.slots.append(slot)
            rest = rest[range.upperBound...]
        }
        cut.pieces.append(Data(rest))
        return cut
    }

    /// A normalised host name that no output escapes or spells another way.
    static func isPlain(_ domain: String) -> Bool {
        !domain.isEmpty && !domain.hasPrefix("xn--") && !domain.contains(".xn--")
            && domain.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            }
    }
}
