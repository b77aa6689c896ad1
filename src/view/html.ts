// One self-contained HTML page: inline CSS, inline script, the session as inert JSON. A Content
// Security Policy allows only that one script (by hash) and no request at all (live pages: their
// own origin's event stream), so even markup slipped into the data could not load or run anything.
import { createHash } from 'node:crypto';
import { clientScript } from './client.js';
import { VIEW_CSS } from './style.js';
import type { ViewData } from './model.js';

/**
 * JSON that is safe inside a <script> element: `<`, `>` and `&` are written as \u escapes (so no
 * `</script>` or `<!--` can end or change the element) and so are U+2028/U+2029. Still JSON.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const SCRIPT = clientScript();
const SCRIPT_HASH = createHash('sha256').update(SCRIPT, 'utf8').digest('base64');

function csp(live: boolean): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${SCRIPT_HASH}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    `connect-src ${live ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The bytes of the page that do not depend on the session (for the size model in docs/viewer.md). */
export function pageOverheadBytes(): number {
  return Buffer.byteLength(renderViewHtml({ version: 1, source: '', sessions: [], parts: [], diagnostics: [], diagnosticsOmitted: 0 }));
}

export function renderViewHtml(data: ViewData): string {
  const live = data.live === true;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp(live)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="toolnorm view">
<link rel="icon" href="data:,">
<title>toolnorm view</title>
<style>${VIEW_CSS}</style>
</head>
<body>
<header class="tn-header">
<h1 id="tn-heading">toolnorm view</h1>
<dl class="tn-facts" id="tn-facts"></dl>
<div id="tn-diags"></div>
<p class="tn-alert" id="tn-live-alert" role="alert" hidden></p>
</header>
<div class="tn-toolbar" role="search" aria-label="Filters">
<label for="tn-search">Search titles</label> <input type="search" id="tn-search" placeholder="press / to search" autocomplete="off">
<label><input type="checkbox" id="tn-errors-only"> errors only</label>
<fieldset id="tn-filter-kind"><legend>Kind</legend></fieldset>
<fieldset id="tn-filter-state"><legend>State</legend></fieldset>
<fieldset id="tn-filter-provider"><legend>Provider</legend></fieldset>
<button type="button" id="tn-collapse-all">Collapse all</button>
<button type="button" id="tn-expand-all">Expand all</button>
<span class="tn-count" id="tn-count" role="status" aria-live="polite"></span>
</div>
<main class="tn-main">
<div class="tn-list-wrap">
<div class="tn-cols" aria-hidden="true"><span></span><span>Kind</span><span>Title</span><span>State</span><span>Duration</span><span>Error</span><span class="tn-axis" id="tn-axis"></span></div>
<div class="tn-scroll" id="tn-scroll">
<div class="tn-spacer" id="tn-spacer"><div class="tn-window" id="tn-tree" role="tree" aria-label="Tool calls"></div></div>
</div>
</div>
<aside class="tn-details" id="tn-details" hidden aria-label="Part details"></aside>
</main>
<noscript><p class="tn-empty">This viewer needs JavaScript; the session data is in the tn-data element of this file.</p></noscript>
<script type="application/json" id="tn-data">${scriptSafeJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
