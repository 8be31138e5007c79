import Foundation

/// A real browser for tests of `serve`'s pages: Debian's Chromium, headless, driven through its
/// DevTools protocol over `--remote-debugging-pipe` by a short Python script (no driver, no
/// WebSocket library): it opens a page, types into the check form, presses its button, and
/// reads the verdict and the fixes from the page the browser shows.
public enum BrowserDriver {
    /// Chromium, if installed.
    public static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether it can run here. On CI (CI=true) it must: `Scripts/install-deps.sh` installs it.
    public static var isAvailable: Bool {
        (chromium != nil && ReportSchemaValidator.python != nil) || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    public static let unavailableMessage =
        "Chromium is not installed (apt-get install --no-install-recommends chromium): skipping the browser test"

    public struct Submitted: Decodable, Sendable {
        /// The query of the page the form led to.
        public var search: String
        /// The verdict badge's text.
        public var verdict: String
        /// The fixes shown.
        public var fix: String
    }

    /// Opens `url` (a page with the check form), submits `domain` as a person would, and reads
    /// the result.
    public static func submitCheckForm(url: String, domain: String) async throws -> Submitted {
        guard let chromium, let python = ReportSchemaValidator.python else {
            throw BrowserError(description: unavailableMessage)
        }
        let result = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", script, chromium, url, domain])
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw BrowserError(description: "the browser script failed: \(result.stdout)\(result.stderr)")
        }
        return try JSONDecoder().decode(Submitted.self, from: Data(line.utf8))
    }

    public struct BrowserError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts Chromium on a pipe and defines `send` and `evaluate`; `sys.argv[1]` is Chromium.
    static let plumbing = #"""
        import json, os, subprocess, sys, time, tempfile, urllib.parse
        # Chromium's DevTools protocol over --remote-debugging-pipe: fd 3 is read by Chromium, fd 4
        # written by it; each message is JSON ended by a NUL byte.
        chromium = sys.argv[1]
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Out of the way of 3 and 4, which the child's copies must become.
        high_r, high_w = os.dup(to_chrome_r), os.dup(from_chrome_w)
        os.close(to_chrome_r); os.close(from_chrome_w)
        to_chrome_r, from_chrome_w = high_r, high_w
        profile = tempfile.mkdtemp()
        def child():
            os.dup2(to_chrome_r, 3); os.dup2(from_chrome_w, 4)
        # Flags a test adds (JSON in the environment): where names resolve, which key to trust.
        flags = json.loads(os.environ.get("AASA_TEST_CHROMIUM_FLAGS", "[]"))
        proc = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=" + profile, "--no-first-run"] + flags + ["about:blank"], close_fds=False,
            preexec_fn=child, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r); os.close(from_chrome_w)
        buffer = b""; next_id = 0
        def send(method, params=None, session=None):
            global next_id, buffer
            next_id += 1
            message = {"id": next_id, "method": method, "params": params or {}}
            if session: message["sessionId"] = session
            os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
            while True:
                while b"\0" not in buffer:
                    chunk = os.read(from_chrome_r, 65536)
                    if not chunk: raise SystemExit("chromium closed the pipe")
                    buffer += chunk
                raw, buffer = buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == next_id:
                    if "error" in reply: raise SystemExit(method + ": " + json.dumps(reply["error"]))
                    return reply["result"]
        def evaluate(session, expression):
            result = send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
            return result["result"].get("value")
        """#

    /// The check form's steps: `sys.argv[2]` the page, `sys.argv[3]` the domain typed.
    static let script =
        plumbing + #"""

            url, domain = sys.argv[2], sys.argv[3]
            try:
                target = send("Target.createTarget", {"url": url})["targetId"]
                session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
                deadline = time.time() + 90
                while evaluate(session, "document.readyState + ' ' + !!document.querySelector('form.check')") != "complete true":
                    if time.time() > deadline: raise SystemExit("the form did not load")
                    time.sleep(0.1)
                # A person types the domain and presses the button.
                evaluate(session, "document.getElementById('domain').value = " + json.dumps(domain) + "; document.querySelector('form.check button').click(); true")
                while True:
                    state = evaluate(session, "location.search + '|' + document.readyState + '|' + ((document.querySelector('section.domain .badge') || {}).textContent || '')")
                    search, ready, verdict = state.split("|", 2)
                    if search.startswith("?domain=" + urllib.parse.quote_plus(domain)) and ready == "complete" and verdict:
                        fix = evaluate(session, "Array.from(document.querySelectorAll('.fix')).map(e => e.textContent).join('\\n')")
                        print(json.dumps({"search": search, "verdict": verdict, "fix": fix}))
                        break
                    if time.time() > deadline: raise SystemExit("no verdict on the page: " + state)
                    time.sleep(0.1)
            finally:
                proc.kill(); proc.wait()
            """#

    /// Opens `url` in a window `width` CSS pixels wide (a phone's, with `mobile`), waits for it
    /// to load, and returns what `expression` (JavaScript, JSON-serializable) evaluates to, as
    /// JSON.
    public static func evaluate(url: String, width: Int, expression: String) async throws -> Data {
        guard let chromium, let python = ReportSchemaValidator.python else {
            throw BrowserError(description: unavailableMessage)
        }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: python), ["-c", pageScript, chromium, url, String(width), expression])
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw BrowserError(description: "the browser script failed: \(result.stdout)\(result.stderr)")
        }
        return Data(line.utf8)
    }

    /// Opens `page` (an https page of the caller's origin) in a Chromium whose every host name
    /// resolves to `127.0.0.1:port` and which trusts the server key `publicKeySHA256` (so the
    /// page has no certificate error, which WebAuthn requires), adds a virtual authenticator,
    /// and asks it to create a passkey for each RP ID: each one's outcome, `ok` or the error's
    /// name and message, as Chromium's WebAuthn (and its related-origins check) decides.
    public static func createPasskeys(page: String, rpIDs: [String], port: Int, publicKeySHA256: String)
        async throws -> [String: String]
    {
        let ids = String(decoding: try JSONEncoder().encode(rpIDs), as: UTF8.self)
        let line = try await runOnLoopbackNames(
            passkeyScript, [page, ids], port: port, publicKeySHA256: publicKeySHA256)
        return try JSONDecoder().decode([String: String].self, from: line)
    }

    /// Runs `script` (after `plumbing`) with `arguments`, in a Chromium whose every host name
    /// resolves to `127.0.0.1:port` and which trusts the server key `publicKeySHA256`: the last
    /// line it printed.
    static func runOnLoopbackNames(_ script: String, _ arguments: [String], port: Int, publicKeySHA256: String)
        async throws -> Data
    {
        guard let chromium, let python = ReportSchemaValidator.python else {
            throw BrowserError(description: unavailableMessage)
        }
        let flags = [
            "--host-resolver-rules=MAP * 127.0.0.1:\(port)", "--ignore-certificate-errors-spki-list=\(publicKeySHA256)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["AASA_TEST_CHROMIUM_FLAGS"] = String(decoding: try JSONEncoder().encode(flags), as: UTF8.self)
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: python), ["-c", script, chromium] + arguments, environment: environment)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last else {
            throw BrowserError(description: "the browser script failed: \(result.stdout)\(result.stderr)")
        }
        return Data(line.utf8)
    }

    /// Opens each page (https pages of the caller's origin, each linking a manifest) in a Chromium
    /// whose every host name resolves to `127.0.0.1:port` and which trusts `publicKeySHA256`, and
    /// returns, by page, what DevTools' `Page.getAppManifest` says of its manifest: `id` and
    /// `scopeExtensions` (`origin`, `hasOriginWildcard`), as JSON.
    public static func appManifests(pages: [String], port: Int, publicKeySHA256: String) async throws -> Data {
        let list = String(decoding: try JSONEncoder().encode(pages), as: UTF8.self)
        return try await runOnLoopbackNames(manifestScript, [list], port: port, publicKeySHA256: publicKeySHA256)
    }

    static let manifestScript =
        plumbing + #"""

            pages = json.loads(sys.argv[2])
            try:
                target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
                session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
                send("Page.enable", {}, session)
                answers = {}
                for page in pages:
                    send("Page.navigate", {"url": page}, session)
                    deadline = time.time() + 90
                    while evaluate(session, "location.href + ' ' + document.readyState") != page + " complete":
                        if time.time() > deadline: raise SystemExit("the page did not load: " + page)
                        time.sleep(0.1)
                    manifest = send("Page.getAppManifest", {}, session).get("manifest", {})
                    answers[page] = {"id": manifest.get("id"), "scopeExtensions": manifest.get("scopeExtensions", [])}
                print(json.dumps(answers))
            finally:
                proc.kill(); proc.wait()
            """#

    static let passkeyScript =
        plumbing + #"""

            page, rp_ids = sys.argv[2], json.loads(sys.argv[3])
            try:
                target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
                session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
                send("WebAuthn.enable", {}, session)
                send("WebAuthn.addVirtualAuthenticator", {"options": {"protocol": "ctap2", "transport": "internal",
                    "hasResidentKey": True, "hasUserVerification": True, "isUserVerified": True,
                    "automaticPresenceSimulation": True}}, session)
                send("Page.navigate", {"url": page}, session)
                deadline = time.time() + 90
                while evaluate(session, "location.href + ' ' + document.readyState") != page + " complete":
                    if time.time() > deadline: raise SystemExit("the page did not load")
                    time.sleep(0.1)
                if evaluate(session, "window.isSecureContext") is not True: raise SystemExit("the page is not secure")
                outcomes = {}
                for rp_id in rp_ids:
                    create = """(async () => { try { await navigator.credentials.create({publicKey: {
                        rp: {id: %s, name: "test"}, user: {id: new Uint8Array([1, 2, 3]), name: "u", displayName: "u"},
                        challenge: new Uint8Array(16), pubKeyCredParams: [{type: "public-key", alg: -7}], timeout: 20000}});
                        return "ok"; } catch (e) { return e.name + ": " + e.message; } })()""" % json.dumps(rp_id)
                    reply = send("Runtime.evaluate", {"expression": create, "awaitPromise": True, "returnByValue": True}, session)
                    outcomes[rp_id] = reply["result"].get("value")
                print(json.dumps(outcomes))
            finally:
                proc.kill(); proc.wait()
            """#

    static let pageScript =
        plumbing + #"""

            url, width, expression = sys.argv[2], int(sys.argv[3]), sys.argv[4]
            try:
                target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
                session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
                send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True}, session)
                send("Page.navigate", {"url": url}, session)
                deadline = time.time() + 90
                while evaluate(session, "location.href + ' ' + document.readyState") != url + " complete":
                    if time.time() > deadline: raise SystemExit("the page did not load")
                    time.sleep(0.1)
                print(json.dumps(evaluate(session, expression)))
            finally:
                proc.kill(); proc.wait()
            """#
}
