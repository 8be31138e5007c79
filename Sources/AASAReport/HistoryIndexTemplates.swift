import AASAModel

/// The history page's (`index.html`) Mustache templates: escaping tags only, the report's own
/// escaping, the run report's styles. Self-contained: no external script, font or style.
enum HistoryIndexTemplates {
    static let head = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        \#(HTMLTemplates.documentStart)
        svg.chart { width:100%; height:auto; background:var(--card); border:1px solid var(--line); border-radius:8px; }
        svg.chart .pass { fill:var(--pass); } svg.chart .warn { fill:var(--warn); } svg.chart .fail { fill:var(--fail); } svg.chart .unchecked { fill:var(--line); }
        svg.chart text { fill:var(--muted); font-size:11px; } svg.chart line { stroke:var(--line); }
        svg.chart a:hover rect { opacity:.75; }
        .legend span { margin-right:14px; } .legend i { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:4px; }
        table.domains { width:100%; border-collapse:collapse; background:var(--card); border:1px solid var(--line); border-radius:8px; }
        table.domains th { position:sticky; top:0; background:var(--card); text-align:left; font-size:12px; color:var(--muted); padding:6px 8px; border-bottom:1px solid var(--line); }
        table.domains td { padding:3px 8px; border-bottom:1px solid var(--line); vertical-align:baseline; font-size:13px; }
        table.domains td.name { white-space:nowrap; }
        table.domains td.name a { color:inherit; text-decoration:none; font-weight:600; word-break:break-all; } table.domains td.name a:hover { text-decoration:underline; }
        table.domains .flap { color:var(--warn); font-weight:600; } table.domains .stale { color:var(--warn); }
        table.domains .acked { font-size:11px; color:var(--muted); }
        /* A phone (390 px): each domain a block of its cells, labelled, nothing cut or scrolled. */
        @media (max-width: 600px) {
          table.domains thead { display:none; }
          table.domains, table.domains tbody, table.domains tr { display:block; }
          table.domains tr { border-bottom:1px solid var(--line); padding:4px 8px; }
          table.domains td { display:inline-block; border:0; padding:1px 8px 1px 0; max-width:100%; }
          table.domains td:empty { display:none; }
          table.domains td.name { white-space:normal; }
          table.domains td[data-label]::before { content:attr(data-label) ": "; color:var(--muted); font-size:12px; }
          table.domains .acked { margin-left:4px; }
        }
        details.runs { margin:12px 0; }
        </style>
        </head>
        <body>
        <header>
        <h1>\#(AssociationKinds.auditedTitle): history</h1>
        <p class="meta">{{runCount}} complete run{{^oneRun}}s{{/oneRun}} kept, {{first}} to {{latest}} UTC · newest run: <a href="{{latestReport}}">report</a> · {{tool}} · history schema {{schemaVersion}}</p>
        {{#newestNotChecked}}<p class="warn-note"><b>Not checked:</b> {{.}}</p>{{/newestNotChecked}}
        <div class="tiles">
        <div class="tile"><b>{{domains}}</b>domains now</div>
        <div class="tile pass"><b>{{pass}}</b>pass</div>
        <div class="tile warn"><b>{{warn}}</b>warn</div>
        <div class="tile fail"><b>{{fail}}</b>fail</div>
        <div class="tile"><b>{{flapping}}</b>flapping ({{flapRule}})</div>
        <div class="tile"><b>{{stale}}</b>CDN copy stale</div>
        </div>
        <h2>Pass, warn and fail per run</h2>
        <p class="legend muted"><span><i style="background:var(--pass)"></i>pass</span><span><i style="background:var(--warn)"></i>warn</span><span><i style="background:var(--fail)"></i>fail</span><span><i style="background:var(--line)"></i>not checked (this machine)</span>each bar is a run (click one for its report){{#someUncharted}}, the newest {{chartedRuns}} of {{runCount}}{{/someUncharted}}; on top the domains not passing, on a scale of their own</p>
        <svg class="chart" viewBox="0 0 {{chart.width}} {{chart.height}}" role="img" aria-label="Domains by verdict per run">
        {{#chart.panels}}
        <text x="{{chart.left}}" y="{{top}}" dy="-8">{{title}}</text>
        <line x1="{{chart.left}}" y1="{{bottom}}" x2="{{chart.right}}" y2="{{bottom}}"/>
        <text x="{{chart.labelX}}" y="{{top}}" text-anchor="end" dominant-baseline="hanging">{{maximum}}</text>
        <text x="{{chart.labelX}}" y="{{bottom}}" text-anchor="end">0</text>
        {{#bars}}<a href="{{report}}"><title>{{label}}</title>{{#segments}}<rect class="{{verdict}}" x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}"/>{{/segments}}</a>
        {{/bars}}
        {{/chart.panels}}
        {{#chart.ticks}}<text x="{{x}}" y="{{y}}" text-anchor="{{anchor}}">{{label}}</text>
        {{/chart.ticks}}</svg>
        <details class="runs"><summary>{{^someUnlisted}}Every kept run ({{runCount}}){{/someUnlisted}}{{#someUnlisted}}The newest {{listedRuns}} of {{runCount}} kept runs{{/someUnlisted}}</summary>
        <table class="plain scroll"><tr><th>run (UTC)</th><th>pass</th><th>warn</th><th>fail</th><th></th></tr>
        {{#runs}}<tr><td>{{started}}{{#notChecked}}<br><span class="muted" title="{{.}}">not checked properly: counts for nothing</span>{{/notChecked}}</td><td>{{pass}}</td><td>{{warn}}</td><td>{{fail}}</td><td><a href="{{report}}">report</a></td></tr>
        {{/runs}}</table>{{#someUnlisted}}<p class="muted">{{unlistedRuns}} older runs are not listed here: their folders are under \#(OptionName.out), their lines in history.json, and <code>aasa-audit history</code> reads them.</p>{{/someUnlisted}}</details>
        </header>
        <main>
        <h2>Domains in the newest run</h2>
        {{#rowsCapped}}<p class="muted">{{rows}} of the newest run's {{domains}} domains are listed: more than {{maximumRows}} in all, so only those not passing, flapping or with a stale CDN copy, up to {{maximumRows}}. <a href="{{latestReport}}">The run's report</a> lists every domain.</p>{{/rowsCapped}}
        <div class="controls" id="controls">
        <label><input type="radio" name="verdict" value="all"{{^hasProblems}} checked{{/hasProblems}}> all</label>
        <label><input type="radio" name="verdict" value="fail"{{#hasFailures}} checked{{/hasFailures}}> fail</label>
        <label><input type="radio" name="verdict" value="warn"{{#warnFirst}} checked{{/warnFirst}}> warn</label>
        <label><input type="radio" name="verdict" value="pass"> pass</label>
        <label><input type="radio" name="verdict" value="flapping"> flapping</label>
        <label><input type="radio" name="verdict" value="stale"> CDN stale</label>
        <input type="search" id="search" placeholder="filter by domain or code" aria-label="filter by domain or finding code">
        </div>
        <div class="scroll"><table class="domains"><thead><tr><th data-sort="rank" title="sort">verdict</th><th data-sort="domain" title="sort">domain</th><th>codes</th><th data-sort="since" title="sort by how many runs">since</th><th data-sort="changes" title="sort">verdict changes, last {{flapWindow}} runs</th><th>CDN copy stale for</th><th>last passed</th></tr></thead>
        <tbody>

        """#

    /// One domain. Passing rows with nothing to say stay short: 10,000 of them must load fast.
    static let row = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        <tr id="{{domain}}" data-verdict="{{verdict}}" data-codes="{{allCodes}}" data-domain="{{domain}}" data-rank="{{rank}}" data-since="{{sinceRuns}}" data-changes="{{changeCount}}"{{#flapping}} data-flapping="1"{{/flapping}}{{#staleFor}} data-stale="1"{{/staleFor}}{{#acknowledged}} data-acknowledged="1"{{/acknowledged}}><td><span class="badge {{verdict}}">{{verdict}}</span>{{#acknowledged}} <span class="acked" title="Acknowledged {{.}}">acknowledged</span>{{/acknowledged}}</td><td class="name"><a href="{{report}}#{{domain}}">{{domain}}</a></td><td>{{#codes}}<code>{{.}}</code> {{/codes}}</td><td data-label="since">{{since}}</td><td data-label="changes"{{#flapping}} class="flap"{{/flapping}}>{{changes}}</td><td class="stale" data-label="CDN copy stale for">{{staleFor}}</td><td data-label="last passed">{{lastPassed}}</td></tr>

        """#

    static let tail = #"""
        {{% CONTENT_TYPE: HTMLEscaping }}
        </tbody></table></div>
        </main>
        <footer class="muted">Generated by {{tool}} from history.json after the run of {{latest}} UTC. "Since": the first run of the current verdict's streak ("≥" when the streak reaches the oldest kept run). Flapping: the verdict changed at least {{flapChanges}} times over the last {{flapWindow}} runs. CDN copy stale: how long the runs' findings have said Apple's CDN serves a file that differs from the origin's (cdn.stale).</footer>
        \#(HTMLTemplates.filterScript)
        </body>
        </html>

        """#
}
