import AASAModel

/// The HTML report's Mustache templates. Only `{{ }}` (escaping) tags are used, never
/// `{{{ }}}` or `{{& }}`: everything that came from a server or from the input is escaped.
/// Each template first selects the report's own escaping (see `HTMLEscaping`).
enum HTMLTemplates {
    /// The run report's styles, shared by the history page (`HistoryIndexTemplates`).
    static let styleSheet = #"""
        :root { --bg:#f6f7f9; --card:#fff; --text:#1d2330; --muted:#6b7385; --line:#e3e6ec;
          --pass:#1f8a4c; --pass-bg:#e3f5ea; --warn:#a86200; --warn-bg:#fff1d6; --fail:#c4282d; --fail-bg:#fde6e6;
          --info:#3b63b5; --info-bg:#e6edfb; --code:#f0f2f5; }
        @media (prefers-color-scheme: dark) { :root { --bg:#15181e; --card:#1e222a; --text:#e6e8ec; --muted:#9aa2b1; --line:#30353f;
          --pass:#5fd394; --pass-bg:#173325; --warn:#f3b453; --warn-bg:#3a2c12; --fail:#ff7b7f; --fail-bg:#3d1c1e;
          --info:#8fb0f5; --info-bg:#1c2740; --code:#262b34; } }
        * { box-sizing: border-box; }
        body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; background:var(--bg); color:var(--text); }
        header, main, footer { max-width:1200px; margin:0 auto; padding:16px 24px; }
        h1 { font-size:22px; margin:8px 0 4px; }
        h2 { font-size:16px; margin:20px 0 8px; }
        .meta { color:var(--muted); margin:0; }
        .incomplete { background:var(--fail-bg); color:var(--fail); padding:8px 12px; border-radius:8px; font-weight:600; }
        .tiles { display:grid; grid-template-columns:repeat(auto-fit,minmax(140px,1fr)); gap:12px; margin:16px 0; }
        .tile { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:12px 16px; }
        .tile b { display:block; font-size:26px; }
        .tile.pass b { color:var(--pass); } .tile.warn b { color:var(--warn); } .tile.fail b { color:var(--fail); }
        table.plain { border-collapse:collapse; background:var(--card); border:1px solid var(--line); border-radius:8px; }
        table.plain td, table.plain th { padding:4px 10px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
        code, pre { font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; font-size:12.5px; }
        code { background:var(--code); padding:1px 5px; border-radius:4px; }
        .controls { display:flex; flex-wrap:wrap; gap:8px; align-items:center; margin:8px 0 12px; }
        .controls label { background:var(--card); border:1px solid var(--line); border-radius:16px; padding:3px 12px; cursor:pointer; }
        .controls input[type=search] { padding:5px 10px; border:1px solid var(--line); border-radius:16px; background:var(--card); color:var(--text); min-width:240px; }
        section.domain { background:var(--card); border:1px solid var(--line); border-left:5px solid var(--line); border-radius:8px; padding:10px 14px; margin:8px 0; }
        section.domain.pass { border-left-color:var(--pass); } section.domain.warn { border-left-color:var(--warn); } section.domain.fail { border-left-color:var(--fail); }
        .row { display:flex; flex-wrap:wrap; gap:10px; align-items:baseline; }
        .name { font-weight:600; font-size:15px; word-break:break-all; }
        .badge { font-size:11px; font-weight:700; text-transform:uppercase; letter-spacing:.04em; padding:2px 8px; border-radius:10px; }
        .badge.pass { background:var(--pass-bg); color:var(--pass); } .badge.warn, .badge.warning { background:var(--warn-bg); color:var(--warn); }
        .badge.fail, .badge.error { background:var(--fail-bg); color:var(--fail); } .badge.info { background:var(--info-bg); color:var(--info); }
        .loc { color:var(--muted); font-size:12.5px; } .loc .good { color:var(--pass); } .loc .bad { color:var(--fail); } .loc .muted { color:var(--muted); }
        ul.findings { list-style:none; padding:0; margin:8px 0 0; }
        ul.findings li { display:grid; grid-template-columns:80px 170px 1fr; gap:8px; padding:3px 0; border-top:1px dashed var(--line); align-items:baseline; }
        ul.findings .where { color:var(--muted); font-size:12px; }
        details { margin-top:8px; } summary { cursor:pointer; color:var(--muted); }
        details.why { margin-top:2px; color:var(--muted); } details.why summary { font-size:12px; }
        section.compact { padding:2px 14px; margin:2px 0; border-radius:4px; } section.compact .name { font-size:14px; }
        a.name { color:inherit; text-decoration:none; } a.name:hover { text-decoration:underline; }
        mark { background:var(--fail-bg); color:var(--fail); outline:1px solid var(--fail); }
        dl.fetch { display:grid; grid-template-columns:140px 1fr; gap:2px 12px; margin:8px 0; font-size:12.5px; }
        dl.fetch dt { color:var(--muted); } dl.fetch dd { margin:0; word-break:break-all; }
        pre.file { background:var(--code); padding:10px; border-radius:6px; overflow:auto; max-height:480px; white-space:pre; }
        pre.fetch { margin:6px 0; font-size:12px; white-space:pre-wrap; word-break:break-all; }
        .muted { color:var(--muted); }
        .hidden { display:none; }
        .fix { margin-top:2px; } .fix b { color:var(--muted); font-weight:600; } .ack { margin-top:2px; } .ack b { color:var(--warn); font-weight:600; }
        ul.follows { list-style:none; margin:4px 0 0; padding:0 0 0 12px; border-left:2px solid var(--line); color:var(--muted); font-size:12.5px; }
        ul.follows li { display:block; border:0; padding:1px 0; }
        table.causes td.fix { color:var(--muted); }
        a.count { font-weight:700; }
        .sort { display:flex; flex-wrap:wrap; gap:6px; align-items:center; color:var(--muted); font-size:12.5px; }
        button.sort-key, th[data-sort] { cursor:pointer; }
        button.sort-key { background:var(--card); color:var(--text); border:1px solid var(--line); border-radius:12px; padding:2px 10px; font:inherit; }
        button.sort-key[aria-sort], th[aria-sort] { border-color:var(--text); }
        .scroll { overflow-x:auto; }
        @media (max-width: 600px) {
          header, main, footer { padding:10px 10px; }
          ul.findings li { grid-template-columns:1fr; gap:2px; }
          dl.fetch { grid-template-columns:1fr; }
          .controls input[type=search] { min-width:0; width:100%; }
          .tile b { font-size:20px; }
          /* The report's tables (changes, causes, input problems) as one block a row, each cell a
             line: nothing cut off, no column pushed off the screen (issue 56). */
          table.stack, table.stack tbody, table.stack tr, table.stack td { display:block; }
          table.stack tr:first-child { display:none; }
          table.stack tr { border-bottom:1px solid var(--line); padding:4px 0; }
          table.stack td { border:0; padding:1px 10px; overflow-wrap:anywhere; }
          table.stack code { overflow-wrap:anywhere; }
        }
        """#

    /// The filters of both pages: a radio group `verdict` and a search box, kept in the address's
    /// fragment (`#verdict=fail&q=text`) so that a link or a reload keeps them; any other
    /// fragment is a row's anchor, shown whatever the filter. A row is an element of `main` with
    /// `data-verdict`; a filter value other than a verdict keeps the rows with `data-VALUE="1"`
    /// (the history page's flapping and stale). The search matches a row's domain (its `id`)
    /// and its codes (`data-codes`), nothing else: not the fetch details or the served file.
    /// Sorting: any element with `data-sort="KEY"` sorts the rows by their `data-KEY` (numbers
    /// as numbers), again to reverse.
    static let filterScript = #"""
        <script>
        (function () {
          var rows = document.querySelectorAll("main [data-verdict]");
          var search = document.getElementById("search");
          function fromHash() {
            if (location.hash.indexOf("#verdict=") !== 0) return;
            var params = new URLSearchParams(location.hash.slice(1));
            var radio = document.querySelector("input[name=verdict][value='" + (params.get("verdict") || "all").replace(/[^a-z]/g, "") + "']");
            if (radio) radio.checked = true;
            search.value = params.get("q") || "";
          }
          function apply(save) {
            var verdict = document.querySelector("input[name=verdict]:checked").value;
            var query = search.value.trim().toLowerCase();
            var anchor = location.hash.indexOf("#verdict=") === 0 ? "" : decodeURIComponent(location.hash.slice(1));
            rows.forEach(function (row) {
              var kept = verdict === "all" || row.dataset.verdict === verdict || row.dataset[verdict] === "1";
              var text = (row.id + " " + (row.dataset.codes || "")).toLowerCase();
              var show = row.id === anchor || (kept && (query === "" || text.indexOf(query) !== -1));
              row.classList.toggle("hidden", !show);
            });
            if (save) history.replaceState(null, "", "#verdict=" + verdict + (query ? "&q=" + encodeURIComponent(query) : ""));
          }
          fromHash();
          apply(false);
          document.getElementById("controls").addEventListener("input", function () { apply(true); });
          window.addEventListener("hashchange", function () { fromHash(); apply(false); });
          document.querySelectorAll("[data-sort]").forEach(function (control) {
            control.addEventListener("click", function () {
              var key = control.dataset.sort;
              var down = control.getAttribute("aria-sort") === "ascending";
              document.querySelectorAll("[data-sort]").forEach(function (c) { c.removeAttribute("aria-sort"); });
              control.setAttribute("aria-sort", down ? "descending" : "ascending");
              var list = Array.prototype.slice.call(rows);
              function value(row) { var v = row.dataset[key] || ""; return /^-?[0-9.]+$/.test(v) ? parseFloat(v) : v.toLowerCase(); }
              list.sort(function (a, b) { var x = value(a), y = value(b); return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1); });
              list.forEach(function (row) { row.parentNode.appendChild(row); });
            });
          });
        })();
        </script>
        """#

    /// The start of both pages, up to the page's own styles: `{{title}}` and `{{tool}}` come
    /// from the page's view.
    static let documentStart = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="{{tool}}">
        <title>{{title}}</title>
        <style>
        \#(styleSheet)
        """#

    static let head = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        \#(documentStart)
        </style>
        </head>
        <body>
        <header>
        <h1>\#(AssociationKinds.auditedTitle) audit</h1>
        <p class="meta">{{startedAt}} – {{finishedAt}} UTC · {{duration}} · input {{inputFiles}} · concurrency {{concurrency}} · timeout {{timeout}} · {{tool}} · report schema {{schemaVersion}}</p>
        {{^complete}}<p class="incomplete">This run was interrupted: the report covers only the domains audited before it stopped.</p>{{/complete}}
        {{#unsound}}<p class="incomplete">Not checked properly: {{.}} The verdicts below are what this machine saw, not the sites'.</p>{{/unsound}}
        {{#partly}}<p class="incomplete">Partly checked: {{.}}</p>{{/partly}}
        <div class="tiles">
        <div class="tile"><b>{{domains}}</b>domains</div>
        <div class="tile pass"><b>{{pass}}</b>pass</div>
        <div class="tile warn"><b>{{warn}}</b>warn</div>
        <div class="tile fail"><b>{{fail}}</b>fail</div>
        <div class="tile"><b>{{errors}} / {{warnings}} / {{infos}}</b>findings: errors / warnings / notes</div>
        </div>
        {{#noChanges}}<p class="meta">No changes since the run of {{previousRun}} UTC.</p>{{/noChanges}}
        {{#hasChanges}}<h2>Changes since the run of {{previousRun}} UTC</h2>
        <table class="plain stack changes"><tr><th>domain</th><th>verdict</th><th>new findings</th><th>resolved</th></tr>
        {{#changes}}<tr><td>{{domain}}</td><td>{{#verdictFrom}}<span class="badge {{verdictFrom}}">{{verdictFrom}}</span> → <span class="badge {{verdictTo}}">{{verdictTo}}</span>{{/verdictFrom}}</td>
        <td>{{#acknowledgement}}<div>{{.}}</div>{{/acknowledgement}}{{#changedFiles}}<div>{{.}}</div>{{/changedFiles}}{{#newFindings}}<div><span class="badge {{severity}}">{{severity}}</span> <code>{{code}}</code> {{message}}</div>{{/newFindings}}</td>
        <td>{{#resolvedFindings}}<div><code>{{code}}</code> <span class="muted">({{location}})</span></div>{{/resolvedFindings}}</td></tr>
        {{/changes}}</table>
        {{#added}}<p>New domains: {{added}}</p>{{/added}}{{#removed}}<p>No longer audited: {{removed}}</p>{{/removed}}{{/hasChanges}}
        {{#hasCodes}}<h2>Causes</h2>
        <p class="meta">The domains with each cause (what follows from a cause is listed under it in the domain's row); a count shows those domains.</p>
        <div class="scroll"><table class="plain stack causes"><tr><th>code</th><th>domains</th><th class="fix">fix</th></tr>
        {{#codes}}<tr><td><code>{{code}}</code></td><td><a class="count" href="#verdict=all&amp;q={{code}}">{{count}}</a></td><td class="fix">{{fix}}</td></tr>
        {{/codes}}</table></div>
        {{#moreCodesCount}}<details><summary>{{moreCodesCount}} more causes</summary><div class="scroll"><table class="plain stack causes">
        {{#moreCodes}}<tr><td><code>{{code}}</code></td><td><a class="count" href="#verdict=all&amp;q={{code}}">{{count}}</a></td><td class="fix">{{fix}}</td></tr>
        {{/moreCodes}}</table></div></details>{{/moreCodesCount}}{{/hasCodes}}
        {{#hasProblems}}<h2>Input lines not audited as written</h2>
        <table class="plain stack problems"><tr><th>file</th><th>line</th><th>severity</th><th>problem</th><th>text</th></tr>
        {{#problems}}<tr><td>{{file}}</td><td>{{line}}</td><td><span class="badge {{severity}}">{{severity}}</span></td><td>{{message}}</td><td><code>{{text}}</code></td></tr>
        {{/problems}}</table>{{/hasProblems}}
        </header>
        <main>
        <h2>Domains</h2>
        <div class="controls" id="controls">
        <label><input type="radio" name="verdict" value="all"{{^hasFailures}} checked{{/hasFailures}}> all</label>
        <label><input type="radio" name="verdict" value="fail"{{#hasFailures}} checked{{/hasFailures}}> fail</label>
        <label><input type="radio" name="verdict" value="warn"> warn</label>
        <label><input type="radio" name="verdict" value="pass"> pass</label>
        <input type="search" id="search" placeholder="filter by domain or code" aria-label="filter by domain or finding code">
        </div>
        <div class="sort">sort by <button class="sort-key" data-sort="line">input order</button><button class="sort-key" data-sort="domain">domain</button><button class="sort-key" data-sort="rank">verdict</button><button class="sort-key" data-sort="causes">causes</button></div>

        """#

    /// A passing domain without findings: one line, no details (report.json has them all), so
    /// that a page of 10,000 domains stays light.
    static let passRow = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        <section class="domain pass compact" id="{{domain}}" data-verdict="pass" data-domain="{{domain}}" data-rank="0" data-causes="0" data-line="{{line}}"><div class="row"><span class="badge pass">pass</span><a class="name" href="#{{domain}}">{{domain}}</a>{{#locations}}<span class="loc">{{name}} <span class="{{tone}}">{{summary}}</span></span>{{/locations}}<span class="loc">{{inputLine}}</span></div></section>

        """#

    static let row = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        <section class="domain {{verdict}}" id="{{domain}}" data-verdict="{{verdict}}" data-codes="{{codes}}" data-domain="{{domain}}" data-rank="{{rank}}" data-causes="{{causes}}" data-line="{{line}}">
        <div class="row"><span class="badge {{verdict}}">{{verdict}}</span><a class="name" href="#{{domain}}">{{domain}}</a>
        {{#locations}}<span class="loc">{{name}} <span class="{{tone}}">{{summary}}</span></span>{{/locations}}
        <span class="loc">{{inputLine}}</span>{{#platform}}<span class="loc">on {{platform}}</span>{{/platform}}</div>
        {{#hasFindings}}<ul class="findings">
        {{#findings}}<li><span><span class="badge {{severity}}">{{severity}}</span>{{#overriddenFrom}}<br><span class="where" title="changed by \#(OptionName.severity)">was {{overriddenFrom}}</span>{{/overriddenFrom}}</span><code>{{code}}</code><span>{{message}} <span class="where">({{location}})</span>{{#acknowledged}}<div class="ack"><b>Acknowledged</b> {{.}}</div>{{/acknowledged}}{{#showsFix}}<div class="fix"><b>Fix:</b> {{fix}}</div>{{/showsFix}}{{#platformFix}}<div class="fix"><b>On {{platformName}}:</b> {{platformFix}}</div>{{/platformFix}}{{#hasConsequences}}<ul class="follows">{{#consequences}}<li>↳ follows: <code>{{code}}</code> {{message}} <span class="where">({{location}})</span></li>{{/consequences}}</ul>{{/hasConsequences}}<details class="why"><summary>why</summary>{{why}}</details></span></li>
        {{/findings}}</ul>{{/hasFindings}}
        <details><summary>Details: {{#hasServices}}app IDs, {{/hasServices}}fetches and served file</summary>
        {{#hasExpected}}<p>Expected app IDs: <code>{{expected}}</code></p>{{/hasExpected}}
        {{#associations}}<p>{{.}}</p>{{/associations}}
        {{#hasServices}}<dl class="fetch">{{#services}}<dt>{{service}}</dt><dd>{{appIDs}}</dd>{{/services}}</dl>{{/hasServices}}
        {{#locations}}<h3 class="muted">{{name}}</h3><pre class="fetch">{{details}}</pre>
        {{/locations}}
        {{#files}}<h3 class="muted">{{label}}</h3>
        {{#text}}<pre class="file">{{text}}</pre>{{/text}}
        {{#hasMarks}}<pre class="file">{{#marked}}{{#markTitle}}<mark title="{{markTitle}}">{{/markTitle}}{{text}}{{#markTitle}}</mark>{{/markTitle}}{{/marked}}</pre>{{/hasMarks}}
        {{#sameAsOwn}}<p class="muted">Identical to the file above (SHA-256 {{sha256}}).</p>{{/sameAsOwn}}
        {{#sameAsDomain}}<p class="muted">Identical to the file served by <a href="#{{sameAsDomain}}">{{sameAsDomain}}</a> (SHA-256 {{sha256}}).</p>{{/sameAsDomain}}
        {{/files}}
        </details>
        </section>

        """#

    static let tail = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        </main>
        <footer class="muted">Generated by {{tool}}. Devices and Apple's CDN read only /.well-known/apple-app-site-association; problems there are errors, problems of the root copy at most warnings.</footer>
        \#(filterScript)
        </body>
        </html>

        """#
}
