import AASAModel
import AASAReport

/// A refused check on the page people use (`/check?domain=`): the form as they filled it, with
/// why, at the refusal's status and with its headers (`Retry-After`), whichever later step
/// refused it (its parameters, the token, the limits, the handler): a browser shown raw JSON for
/// a missing token learnt nothing (issue 56). Before it in the chain, the host refuses as it does
/// everywhere; the API's refusals stay JSON.
struct CheckPageRefusals: ServeMiddleware {
    let page: CheckPage
    let tool: ToolInfo

    func respond(to request: RoutedRequest, next: ServeNext) async throws(HTTPError) -> ServeResponse {
        guard case .checkPage(let query?) = request.routed else { return try await next(request) }
        do {
            return try await next(request)
        } catch {
            var content = CheckPage.Content(query)
            content.problem = error.reason
            return ServeResponse(
                status: error.status, type: "text/html; charset=utf-8", page.render(content, tool: tool),
                headers: error.headers)
        }
    }
}
