#if Servers
import Foundation
import RewindCore
import RewindInspector
import RewindLog
import RewindRendering
import RewindUpload

/// The collector's sessions page (`GET /`) and its sign-in form, as HTML.
///
/// Every recorded string is text: cut to ``longest`` characters, its control and
/// direction-changing characters shown as `\u202e` (as the report and the terminal show
/// them), then escaped for HTML, quotes too, so that the same text is safe in an element and
/// in an attribute. The page runs one script, from the collector (`/assets/sessions.js`), and
/// its policy allows no other.
struct SessionsPage {
    /// Sessions a page lists.
    static let size = 50
    /// The characters a cell shows of a recorded string; the rest is `…`. A 1 MB name is
    /// 120 characters on the page, not a megabyte in every row.
    static let longest = 120

    /// The filters and place a request asks for, as its query gave them.
    struct Query: Equatable {
        var flow = ""
        var appVersion = ""
        var origin = ""
        var tags: [String] = []
        var since = ""
        var reportedOnly = false
        var after = ""
        /// Sessions a page of the API holds (`GET /v1/sessions?limit=`); the page's own is
        /// ``SessionsPage/size``.
        var limit = ""

        /// The most bytes a value may hold, and the most tags: a query is read, then
        /// echoed into the form, so both are bounded.
        static let longestValue = 256
        static let mostTags = 8

        /// The query of a request: unknown names are ignored, a value too long is refused.
        init(items: [(name: String, value: String)]) throws(SessionFilter.Invalid) {
            for (name, value) in items {
                guard value.utf8.count <= Self.longestValue else {
                    throw SessionFilter.Invalid(description: "the value of \(name.prefix(32)) is longer than \(Self.longestValue) bytes")
                }
                // No recorded string holds one, and PostgreSQL refuses it in text (a 500).
                guard !value.utf8.contains(0) else {
                    throw SessionFilter.Invalid(description: "the value of \(name.prefix(32)) holds a NUL byte")
                }
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                switch name {
                case "flow": flow = trimmed
                case "version": appVersion = trimmed
                case "origin": origin = trimmed
                case "tag" where !trimmed.isEmpty:
                    guard tags.count < Self.mostTags else { throw SessionFilter.Invalid(description: "at most \(Self.mostTags) tags") }
                    tags.append(trimmed)
                case "since": since = trimmed
                case "reported": reportedOnly = !trimmed.isEmpty
                case "after": after = trimmed
                case "limit": limit = trimmed
                default: continue
                }
            }
        }

        init() {}

        /// The filter the query names, read as `rewind sessions` reads its options.
        func filter(now: Date) throws(SessionFilter.Invalid) -> SessionFilter {
            var filter = SessionFilter(reportedOnly: reportedOnly)
            filter.flow = flow.isEmpty ? nil : flow
            filter.appVersion = appVersion.isEmpty ? nil : appVersion
            filter.origin = origin.isEmpty ? nil : origin
            if !since.isEmpty { filter.since = try SessionFilter.since(since, now: now) }
            for text in tags {
                let (key, value) = try SessionFilter.tag(text)
                filter.tags[key] = value
            }
            return filter
        }

        /// Where the page starts; nil for the newest.
        func cursor() throws(SessionFilter.Invalid) -> SessionPage.Cursor? {
            guard !after.isEmpty else { return nil }
            guard let cursor = SessionPage.Cursor(after) else {
                throw SessionFilter.Invalid(description: "the page's place (after) is not one this page links to: start from the newest")
            }
            return cursor
        }

        /// Why a query was refused, in one line: its names have no dashes (`invalid since
        /// "zz"`, not `--since`).
        static func problem(_ error: SessionFilter.Invalid) -> String {
            error.description.replacingOccurrences(of: "invalid --", with: "invalid ")
        }

        /// The API's page size, 1 to ``SessionPage/maximumSize``; nil when not asked.
        func pageSize() throws(SessionFilter.Invalid) -> Int? {
            guard !limit.isEmpty else { return nil }
            guard let size = Int(limit), (1...SessionPage.maximumSize).contains(size) else {
                throw SessionFilter.Invalid(description: "limit takes 1 to \(SessionPage.maximumSize) sessions, not \(limit.prefix(32))")
            }
            return size
        }

        /// The query again, with `after` in place of its own (and the API's `limit`, when
        /// given): a link to `path`, with its `?…`.
        func link(after cursor: SessionPage.Cursor?, path: String = "/", limit: Int? = nil) -> String {
            var items: [(String, String)] = []
            for (name, value) in [("flow", flow), ("version", appVersion), ("origin", origin), ("since", since)] where !value.isEmpty {
                items.append((name, value))
            }
            items += tags.map { ("tag", $0) }
            if reportedOnly { items.append(("reported", "1")) }
            if let limit { items.append(("limit", String(limit))) }
            if let cursor { items.append(("after", cursor.description)) }
            // Every byte but the unreserved ones encoded: a value may hold `&`, `=` or `+`,
            // which URLComponents leaves as they are in a query.
            let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            let query = items.map { name, value in
                "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")"
            }.joined(separator: "&")
            return query.isEmpty ? path : path + "?" + query
        }
    }

    /// The page listing `page` for the query `query`, signed in as a read token of `app`;
    /// `problem` says why the query was refused (no rows then).
    static func html(page: SessionPage?, query: Query, app: String, problem: String? = nil) -> String {
        var html = head(title: "Sessions")
        html += """
            <header><h1>Sessions</h1><span class="who">read token of \(text(app))</span>
            <form method="post" action="/signout"><button id="sign-out" type="submit">Sign out</button></form></header>
            <form id="filters" method="get" action="/">
            <label>Flow <input name="flow" value="\(field(query.flow))"></label>
            <label>App version <input name="version" value="\(field(query.appVersion))"></label>
            <label>Origin <input name="origin" value="\(field(query.origin))" placeholder="device, ci, dev"></label>
            <label>Tag <input name="tag" value="\(field(query.tags.first ?? ""))" placeholder="key=value"></label>
            \(query.tags.dropFirst().map { "<input type=\"hidden\" name=\"tag\" value=\"\(field($0))\">" }.joined())
            <label>Since <input name="since" value="\(field(query.since))" placeholder="2d, 12h, 2026-11-25"></label>
            <label><input type="checkbox" name="reported" value="1"\(query.reportedOnly ? " checked" : "")> Reported only</label>
            <button id="apply" type="submit">Filter</button> <a href="/">Clear</a>
            </form>

            """
        if let problem { html += "<p id=\"problem\" role=\"alert\">\(text(problem, cut: false))</p>\n" }
        if let page {
            if page.sessions.isEmpty {
                html += "<p id=\"empty\">No sessions\(query.after.isEmpty ? "" : " older than these") match.</p>\n"
            } else {
                html += table(page.sessions)
            }
            html += "<nav>"
            if !query.after.isEmpty { html += "<a id=\"newest\" href=\"\(text(query.link(after: nil), cut: false))\">Newest</a> " }
            if let next = page.next { html += "<a id=\"older\" href=\"\(text(query.link(after: next), cut: false))\">Older sessions</a>" }
            html += "</nav>\n"
        }
        return html + "</body></html>\n"
    }

    /// The sign-in form; `problem` says why the last try failed.
    static func signIn(problem: String? = nil) -> String {
        var html = head(title: "Sign in")
        html += """
            <h1>Rewind sessions</h1>
            <p>Sign in with a read token of this collector (<code>rewind serve token create --read</code>).
            The page keeps a sign-in for 8 hours, or until an hour without use.</p>
            <form id="sign-in" method="post" action="/signin">
            <label>Read token <input type="password" name="token" autocomplete="off" required></label>
            <button type="submit">Sign in</button>
            </form>

            """
        if let problem { html += "<p id=\"problem\" role=\"alert\">\(text(problem, cut: false))</p>\n" }
        return html + "</body></html>\n"
    }

    private static func head(title: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(text(title)) · Rewind</title>
        <meta name="viewport" content="width=device-width">
        <style>\(style)</style><script src="/assets/sessions.js" defer></script></head><body>

        """
    }

    private static func table(_ sessions: [SessionSummary]) -> String {
        var html = """
            <table id="sessions"><thead><tr><th>Started (UTC)</th><th>App</th><th>Version</th><th>Build</th><th>Device</th>\
            <th>Flow</th><th>Name</th><th>Steps</th><th>Duration</th><th>Reported</th><th>Replay</th><th>Tags</th><th></th></tr></thead><tbody>

            """
        for session in sessions {
            guard let uuid = session.id else { continue }
            let id = uuid.uuidString
            let metadata = session.metadata
            let tags = (metadata?.tags ?? [:]).filter { !$0.key.hasPrefix("rewind.") }.sorted { $0.key < $1.key }
            let verdict = metadata.flatMap { ReplayVerdict(tags: $0.tags) }
            let cells = [
                cell(SessionsRenderer.timestamp(session.startedAt), "started"), cell(metadata?.app, "app"), cell(metadata?.appVersion, "version"),
                cell(metadata?.appBuild, "build"), cell(metadata?.device, "device"), cell(session.flow, "flow"),
                cell(session.name, "name"), "<td class=\"steps\">\(session.eventCount)</td>",
                cell(DurationText.describe((session.lastTime ?? session.startedAt).timeIntervalSince(session.startedAt)), "duration"),
                cell(session.report?.text, "reported"),
                verdict.map {
                    "<td class=\"verdict verdict-\($0.outcome.rawValue)\">\(text($0.text)) <span class=\"against\">build \(text($0.build))</span></td>"
                } ?? "<td class=\"verdict\"></td>",
                cell(tags.isEmpty ? nil : tags.map { "\($0.key)=\($0.value)" }.joined(separator: ", "), "tags"),
                """
                <td class="actions"><a class="open" href="\(WireRoute.report.path(uuid))">Open</a> \
                <button class="share" type="button" data-share="\(WireRoute.share.path(uuid))">Copy share link</button>\
                <input class="link" readonly hidden aria-label="Share link"></td>
                """,
            ]
            html += "<tr data-session=\"\(id)\">" + cells.joined() + "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private static func cell(_ value: String?, _ name: String) -> String {
        "<td class=\"\(name)\">\(text(value ?? ""))</td>"
    }

    /// A filter's value back in its field, whole (at most 256 bytes): escaped for the
    /// attribute, and otherwise as typed, so that the form sends the same filter again.
    private static func field(_ value: String) -> String {
        HTMLText.escaped(value)
    }

    /// `value` as text in an element or a quoted attribute: cut (unless `cut` is false), its
    /// invisible characters shown, `& < > " '` escaped.
    static func text(_ value: String, cut: Bool = true) -> String {
        var shown = value
        if cut, shown.count > longest { shown = String(shown.prefix(longest)) + "…" }
        return HTMLText.escaped(TerminalText.escaped(shown))
    }

    private static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:1em 1.5em;color:#1d1d1f;background:#fff}
        header{display:flex;gap:1em;align-items:baseline}header form{margin-left:auto}.who{color:#666}
        h1{font-size:1.4em;margin:.2em 0}#filters{display:flex;flex-wrap:wrap;gap:.5em 1em;margin:.8em 0;align-items:center}
        #filters input:not([type=checkbox]){width:9em}table{border-collapse:collapse;width:100%}
        th,td{text-align:left;padding:.3em .5em;border-bottom:1px solid #ddd;vertical-align:top}
        td{overflow-wrap:anywhere;min-width:4em}td.name,td.tags,td.reported{min-width:8em}td.device{min-width:6.5em}td.verdict{min-width:8em;overflow-wrap:normal}
        th,td.started,td.steps,td.duration,td.actions{white-space:nowrap;min-width:0;overflow-wrap:normal}
        td.actions a,td.actions button{display:block;margin-bottom:.2em}
        th{background:#f4f4f6;position:sticky;top:0}td.steps{text-align:right}
        .verdict-passed{color:#1a7f37}.verdict-diverged,.verdict-refused{color:#b42318;font-weight:600}.verdict-nondeterministic{color:#9a6700}
        .against{color:#666;font-weight:normal}#problem{color:#b42318}nav{margin:1em 0;display:flex;gap:1.5em}
        input.link{width:18em}
        @media (prefers-color-scheme:dark){body{background:#1d1d1f;color:#eee}th{background:#2c2c2e}td,th{border-color:#444}}
        """

    /// The page's one script: "Copy share link" asks the collector for a link (a POST from
    /// this page, which the collector checks is from its own origin), shows it in the row and
    /// copies it. It writes text only (`value`, `textContent`), never markup.
    static let script = """
        document.addEventListener('click', async (event) => {
          const button = event.target.closest('button.share');
          if (!button) return;
          const field = button.parentElement.querySelector('input.link');
          button.disabled = true;
          try {
            const response = await fetch(button.dataset.share,
              {method: 'POST', credentials: 'same-origin'});
            const answer = await response.json();
            if (!response.ok) throw new Error(answer.error ? answer.error.message : 'the collector refused');
            field.hidden = false;
            field.value = answer.link;
            field.select();
            try {
              await navigator.clipboard.writeText(answer.link);
              button.textContent = 'Copied';
            } catch (error) {
              button.textContent = 'Copy the link beside';
            }
          } catch (error) {
            button.textContent = 'No link: ' + error.message;
          } finally {
            button.disabled = false;
          }
        });

        """
}
#endif
