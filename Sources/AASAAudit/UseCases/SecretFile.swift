import Foundation

/// A secret kept in a file of its own (a webhook's URL, an API token) rather than on the command
/// line, where `ps` and `systemctl cat` show it to every user: systemd's `LoadCredential=`
/// hands such a file to a service (`%d/NAME`). The one reader of `--notify-url-file` and
/// `--token-file`.
public enum SecretFile {
    /// A secret file is small; a larger one is refused rather than read.
    public static let limit = 4096

    /// The file's one value: its first line that is neither blank nor a `#` comment, trimmed;
    /// nil when it has none (an empty file: the secret is not set). A second value is refused.
    public static func read(_ path: String, option: String) throws(FileReadError) -> String? {
        let bytes = try BoundedFileReader.read(path, prefix: limit + 1)
        guard !bytes.truncated, let text = String(validating: bytes.bytes, as: UTF8.self) else {
            throw FileReadError(path: path, reason: "\(option) takes a UTF-8 file of at most \(limit) bytes")
        }
        let values = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard values.count <= 1 else {
            throw FileReadError(path: path, reason: "\(option) takes a file of one value, and it has \(values.count)")
        }
        return values.first
    }
}
