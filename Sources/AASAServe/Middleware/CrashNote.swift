import AASAAudit

/// Every request is noted while it is answered: if the process crashes, its standard error (the
/// journal, under systemd) names the requests in hand, the one that crashed it among them
/// (`CrashNotes`; issue 54).
struct CrashNote: ServeMiddleware {
    func respond(to request: RoutedRequest, next: ServeNext) async throws(HTTPError) -> ServeResponse {
        let asked = request.request
        return try await CrashNotes.noting("\(asked.method) \(AccessLog.loggable(asked.target)) from \(asked.client)") {
            () async throws(HTTPError) -> ServeResponse in
            try await next(request)
        }
    }
}
