import AASAMatching
import AASAModel

/// `DomainListParser.parse`'s state and its phases, line by line: a line is read (its length,
/// its encoding, its comment), then it is a `+`/`-` URL line of the domain above or a domain
/// line, whose domain is added or merged with its earlier line, with its tokens.
struct ListReader {
    typealias Parser = DomainListParser

    var targets: [DomainTarget] = []
    var log: ProblemLog
    private var positionOfDomain: [String: Int] = [:]
    /// The target that `+`/`-` lines belong to: the last domain line read.
    private var currentTarget: Int?
    /// The `+`/`-` URLs and app IDs each target has, for finding repeats at once.
    private var urlsOfTarget: [Int: Set<String>] = [:]
    private var appIDsOfTarget: [Int: Set<String>] = [:]

    init(fileName: String) {
        log = ProblemLog(fileName: fileName)
    }

    mutating func reserve(_ domainLines: Int) {
        targets.reserveCapacity(domainLines)
        positionOfDomain.reserveCapacity(domainLines)
    }

    mutating func problem(_ kind: Parser.ProblemKind, _ line: Int, _ text: String, _ message: String) {
        log.add(kind, line: line, text: text, message: message)
    }

    /// One line, without its line end.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) {
        guard bytes.count <= Parser.maximumLineBytes else {
            problem(.lineTooLong, number, "", "The line is longer than \(Parser.maximumLineBytes) bytes.")
            return
        }
        // The common line of a long list: a host name in normal form, and nothing else.
        if let plain = HostName.plainHost(bytes) {
            add(domain: plain, tokens: [plain], line: plain, number: number)
            return
        }
        guard let line = String(validating: bytes, as: UTF8.self) else {
            problem(
                .notUTF8, number, String(decoding: bytes.prefix(200), as: UTF8.self),
                "The line is not valid UTF-8.")
            return
        }
        let tokens = Self.tokens(of: line)
        guard let first = tokens.first else { return }
        if first == "+" || first == "-" {
            readURL(tokens, line: line, number: number)
            return
        }
        switch HostName.normalizePasted(first) {
        case .success(let pasted):
            if let note = pasted.note { problem(.pastedForm, number, line, note) }
            add(domain: pasted.host, tokens: tokens, line: line, number: number)
        case .failure(let error):
            currentTarget = nil
            problem(.hostName, number, line, "\"\(first)\" \(error.reason). The line is not audited.")
        }
    }

    /// The line's tokens, its comment left out: most lines are one domain and nothing else.
    static func tokens(of line: String) -> [String] {
        let uncommented = Parser.stripComment(line)
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard uncommented.utf8.contains(where: isBlank) else { return uncommented.isEmpty ? [] : [String(uncommented)] }
        return uncommented.utf8.split(whereSeparator: isBlank).map { String(Substring($0)) }
    }

    /// `+ URL` or `- URL`: a URL of the domain above that must open the app, or must not.
    private mutating func readURL(_ tokens: [String], line: String, number: Int) {
        let sign = tokens[0]
        guard let current = currentTarget else {
            problem(
                .urlWithoutDomain, number, line,
                "A '\(sign)' line must follow the domain it is about; the line is ignored.")
            return
        }
        guard tokens.count == 2 else {
            problem(.urlLine, number, line, "Write one URL after '\(sign)'; the line is ignored.")
            return
        }
        let domain = targets[current].domain
        switch MatchURL.parse(tokens[1]) {
        case .failure(let error):
            problem(.urlSyntax, number, line, "\"\(tokens[1])\" \(error.reason); the line is ignored.")
        case .success(let url) where HostName.normalize(url.host) != .success(domain):
            problem(
                .urlHost, number, line,
                "The URL's host \(url.host) is not \(domain), the domain above; the line is ignored.")
        case .success:
            guard urlsOfTarget[current, default: []].insert(sign + tokens[1]).inserted else { return }
            guard targets[current].expectations.count < Parser.maximumURLsPerDomain else {
                problem(
                    .tooManyURLs, number, line,
                    "\(domain) already has \(Parser.maximumURLsPerDomain) URLs to check; the line is ignored.")
                return
            }
            targets[current].expectations.append(
                URLExpectation(url: tokens[1], opensApp: sign == "+", inputLine: number))
        }
    }

    /// A domain line: a new target, or its earlier line's (a warning), with the line's tokens.
    private mutating func add(domain: String, tokens: [String], line: String, number: Int) {
        var lineProblems: [(Parser.ProblemKind, String)] = []
        let read = Parser.LineTokens(tokens.dropFirst()) { lineProblems.append(($0, $1)) }
        for (kind, message) in lineProblems { problem(kind, number, line, message) }
        if read.askedOnlyForRefused {
            currentTarget = nil
            return
        }
        let position: Int
        // One hash of the name for a new domain (the common case).
        if let existing = positionOfDomain.updateValue(targets.count, forKey: domain) {
            positionOfDomain[domain] = existing
            problem(
                .duplicateDomain, number, line,
                "\(domain) is already listed on line \(targets[existing].inputLine ?? 0); it is audited once, with the app IDs of both lines."
            )
            position = existing
        } else {
            position = targets.count
            targets.append(DomainTarget(domain: domain, expectedAppIDs: [], inputLine: number))
        }
        currentTarget = position
        merge(read, into: position, line: line, number: number)
    }

    /// A line's tokens into its target: `ios:none`, labels (the first value of a key kept),
    /// association kinds' tokens (merged as the kind merges, up to its limit) and app IDs, each
    /// up to its limit.
    private mutating func merge(_ read: Parser.LineTokens, into position: Int, line: String, number: Int) {
        if read.noAASA { targets[position].aasa = nil }
        for (key, value) in read.labels where targets[position].labels[key] == nil {
            guard targets[position].labels.count < DomainLabels.maximumPerDomain else {
                problem(
                    .label, number, line,
                    "label:\(key)=… \(DomainLabelError.tooMany.reason); the domain is audited without it.")
                continue
            }
            targets[position].labels[key] = value
        }
        for want in read.wants {
            var wants = AssociationWants()
            wants.insert(want)
            targets[position].wants.merge(wants)
        }
        for id in read.appIDs where appIDsOfTarget[position, default: []].insert(id).inserted {
            guard targets[position].expectedAppIDs.count < Parser.maximumAppIDsPerDomain else {
                problem(
                    .tooManyAppIDs, number, line,
                    "\(targets[position].domain) already has \(Parser.maximumAppIDsPerDomain) app IDs; \(id) is not added."
                )
                continue
            }
            targets[position].expectedAppIDs.append(id)
        }
    }
}
