/// The seam's list in `mcp`: the kinds `explain_url` decides URLs for besides the AASA, each in
/// its room (`Android/`, `Windows/`).
enum KindURLMatchers {
    static let all: [any KindURLMatcher] = [AndroidURLMatcher(), WindowsURLMatcher()]
}
