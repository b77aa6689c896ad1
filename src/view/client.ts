// The viewer's in-page script, inlined into the HTML (plain ES2020, no library, no request).
// Every string from the session reaches the DOM through textContent or setAttribute, never as
// markup, so tool output cannot inject script. Kept as a string (not a typed module) because the
// project compiles without DOM types; the browser tests run it.
//
// Layout: a tree (role=tree) of part elements; each holds its row and a group of its children, so
// nesting is real DOM nesting. Past VIRTUAL_AT rows only a window of rows around the viewport is
// built (rows have a fixed height); ancestors of the window's first rows are kept as row-less
// groups so that nesting still holds inside the window.
import { ROW_HEIGHT_PX } from './style.js';

/** Rows up to which every row is in the DOM; beyond it the list is virtualized. */
export const VIRTUAL_AT = 1500;
/** Rows built above and below the viewport when virtualized. */
export const OVERSCAN_ROWS = 30;

export const KIND_ICONS: Record<string, string> = {
  bash: '$_', file_read: 'RD', file_edit: 'ED', file_write: 'WR', web_search: 'WS', browser: 'WB',
  subagent: 'AG', mcp: 'MCP', question: '?', todo: 'TD', unknown: '··',
};

export const KIND_LABELS: Record<string, string> = {
  bash: 'shell', file_read: 'read', file_edit: 'edit', file_write: 'write', web_search: 'web search', browser: 'browser',
  subagent: 'subagent', mcp: 'MCP', question: 'question', todo: 'todo', unknown: 'unknown',
};

const CLIENT_BODY = String.raw`
var STATES = ['started', 'running', 'complete', 'error'];
var data;
try {
  data = JSON.parse(document.getElementById('tn-data').textContent);
} catch (e) {
  fatal('The embedded session data cannot be read: ' + e.message);
  return;
}
if (!data || data.version !== 1) { fatal('This page holds viewer data of an unknown version.'); return; }

var $ = function (id) { return document.getElementById(id); };
var scroller = $('tn-scroll'), spacer = $('tn-spacer'), tree = $('tn-tree'), details = $('tn-details');
var parts = [], byKey = new Map(), roots = [], rows = [], rowIndex = new Map();
var sessionProvider = new Map();
var hidden = { kind: new Set(), state: new Set(), provider: new Set() };
var query = '', errorsOnly = false;
var active = null, shown = null, rendered = new Map(), lastRange = '', win = { first: 0, last: 0, rows: -1 };
var matchCount = 0, diagnostics = [], diagnosticsOmitted = 0;

function fatal(message) {
  var p = document.createElement('p');
  p.className = 'tn-empty';
  p.setAttribute('role', 'alert');
  p.textContent = message;
  document.body.appendChild(p);
}
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function keyOf(session, id) { return session + '\u0000' + id; }
function providerOf(p) {
  var m = p.v.ui.metadata;
  return (m && typeof m.provider === 'string' && m.provider) || sessionProvider.get(p.v.session) || 'unknown';
}
// toolnorm writes epoch milliseconds; the contract also allows a date string.
function epoch(v) {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') { var n = Date.parse(v); return isNaN(n) ? undefined : n; }
  return undefined;
}
function timingOf(p) {
  var t = p.v.ui.timing || {};
  var start = epoch(t.startedAt), stop = epoch(t.completedAt);
  // An epoch of 0 is the zero clock's "the input gave no time": such a part is untimed.
  var timed = start !== undefined && start > 0;
  var end = timed && stop !== undefined && stop >= start ? stop : undefined;
  var ms;
  if (typeof t.elapsedMs === 'number' && (timed || t.elapsedMs > 0)) ms = t.elapsedMs;
  else if (end !== undefined) ms = end - start;
  return { timed: timed, start: timed ? start : undefined, end: end, ms: ms };
}
function fmtMs(ms) {
  if (ms === undefined) return '';
  if (ms < 1000) return Math.round(ms) + ' ms';
  if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  var m = Math.floor(ms / 60000);
  return m + ' min ' + Math.round((ms - m * 60000) / 1000) + ' s';
}
function fmtBytes(n) {
  if (n < 1024) return n + ' B';
  if (n < 1048576) return (n / 1024).toFixed(1) + ' KiB';
  return (n / 1048576).toFixed(1) + ' MiB';
}
function firstLine(s) {
  s = String(s);
  var i = s.indexOf('\n');
  return i < 0 ? s : s.slice(0, i) + ' …';
}

function upsert(vp) {
  var k = keyOf(vp.session, vp.ui.toolCallId);
  var p = byKey.get(k);
  if (p) p.v = vp;
  else {
    p = { k: k, n: parts.length, v: vp, children: [], parent: null, depth: 0, collapsed: false, t: null };
    parts.push(p);
    byKey.set(k, p);
  }
  p.t = timingOf(p);
  return p;
}

// A subagent's calls may live in another session (OpenCode runs a subagent in a child session):
// the subagent part names it in metadata.childSessionId, and the child's parts name the subagent
// in metadata.parentId. So a parent is looked up in the part's own session first, then as the
// subagent that spawned the part's session, then by id in any session (when only one part has
// it); a part of a child session without a parentId goes under the subagent that spawned it.
// Rebuilt from all parts on every change, so the order the two arrive in does not matter.
function relink() {
  roots = [];
  var i, p, m;
  var spawner = new Map(), byId = new Map();
  for (i = 0; i < parts.length; i++) {
    p = parts[i];
    p.children = []; p.parent = null;
    m = p.v.ui.metadata;
    if (m && typeof m.childSessionId === 'string' && m.childSessionId !== p.v.session && !spawner.has(m.childSessionId)) spawner.set(m.childSessionId, p);
    var id = p.v.ui.toolCallId;
    byId.set(id, byId.has(id) ? null : p);
  }
  for (i = 0; i < parts.length; i++) {
    p = parts[i];
    m = p.v.ui.metadata;
    var sp = spawner.get(p.v.session), par;
    if (m && typeof m.parentId === 'string') {
      par = byKey.get(keyOf(p.v.session, m.parentId));
      if (!par && sp && sp.v.ui.toolCallId === m.parentId) par = sp;
      if (!par) par = byId.get(m.parentId) || undefined;
    } else par = sp;
    if (par === p) par = undefined;
    // A parent chain that loops back (bad input) is cut where it closes: the last part of the
    // loop to be linked stays at the top level, so every part of it is still shown.
    for (var a = par, steps = 0; a && steps <= parts.length; a = a.parent, steps++) if (a === p) { par = undefined; break; }
    p.parent = par || null;
    (par ? par.children : roots).push(p);
  }
}

function matches(p) {
  var ui = p.v.ui;
  if (hidden.kind.has(ui.kind) || hidden.state.has(ui.state) || hidden.provider.has(providerOf(p))) return false;
  if (errorsOnly && ui.state !== 'error') return false;
  return !query || String(ui.title).toLowerCase().indexOf(query) >= 0;
}

function computeRows() {
  var filtering = query || errorsOnly || hidden.kind.size || hidden.state.size || hidden.provider.size;
  var need = null;
  matchCount = 0;
  for (var i = 0; i < parts.length; i++) {
    var p = parts[i];
    p.match = matches(p);
    if (p.match) matchCount++;
  }
  if (filtering) {
    // Ancestors of a match stay as context (data-match=false), so nesting still holds.
    need = new Set();
    for (i = 0; i < parts.length; i++) if (parts[i].match) for (var a = parts[i]; a && !need.has(a); a = a.parent) need.add(a);
  }
  rows = [];
  rowIndex = new Map();
  var stack = [];
  for (i = roots.length - 1; i >= 0; i--) stack.push([roots[i], 0]);
  while (stack.length) {
    var top = stack.pop(), q = top[0];
    if (need && !need.has(q)) continue;
    q.depth = top[1];
    rowIndex.set(q, rows.length);
    rows.push(q);
    if (!q.collapsed) for (var c = q.children.length - 1; c >= 0; c--) stack.push([q.children[c], top[1] + 1]);
  }
  if (active && !rowIndex.has(active)) active = rows[0] || null;
  if (!active) active = rows[0] || null;
}

// Time axis of the session: from the first timed start to the last timed end.
var span = { t0: 0, t1: 0, timed: 0, untimed: 0 };
function computeSpan() {
  var t0 = Infinity, t1 = -Infinity, timed = 0;
  for (var i = 0; i < parts.length; i++) {
    var t = parts[i].t;
    if (!t.timed) continue;
    timed++;
    if (t.start < t0) t0 = t.start;
    var e = t.end !== undefined ? t.end : t.start;
    if (e > t1) t1 = e;
  }
  span = timed ? { t0: t0, t1: t1, timed: timed, untimed: parts.length - timed } : { t0: 0, t1: 0, timed: 0, untimed: parts.length };
}

function laneOf(p) {
  var lane = el('span', 'tn-lane');
  var t = p.t, ui = p.v.ui;
  if (!t.timed) {
    lane.appendChild(el('span', 'tn-untimed', 'untimed'));
    return lane;
  }
  var width = span.t1 - span.t0;
  var open = t.end === undefined && (ui.state === 'started' || ui.state === 'running');
  var end = t.end !== undefined ? t.end : open ? span.t1 : t.start;
  var bar = el('span', 'tn-bar' + (ui.state === 'error' ? ' tn-bar-error' : '') + (open ? ' tn-bar-open' : ''));
  var left = width > 0 ? ((t.start - span.t0) / width) * 100 : 0;
  var w = width > 0 ? ((end - t.start) / width) * 100 : 0;
  bar.style.left = 'min(' + left.toFixed(3) + '%, calc(100% - 3px))';
  bar.style.width = w.toFixed(3) + '%';
  // No tooltip: a title on this empty element would become part of the row's accessible name.
  bar.setAttribute('data-from', String(t.start - span.t0));
  bar.setAttribute('data-to', String(end - span.t0));
  lane.appendChild(bar);
  return lane;
}

function rowOf(p) {
  var ui = p.v.ui;
  var row = el('div', 'tn-row');
  var toggle = el('span', 'tn-toggle', p.children.length ? (p.collapsed ? '▸' : '▾') : '');
  toggle.setAttribute('data-action', 'toggle');
  row.appendChild(toggle);
  var kind = el('span', 'tn-kind tn-kind-' + (KIND_ICONS[ui.kind] ? ui.kind : 'unknown'));
  kind.appendChild(el('span', 'tn-icon', KIND_ICONS[ui.kind] || '··'));
  kind.appendChild(el('span', 'tn-kind-label', KIND_LABELS[ui.kind] || ui.kind));
  row.appendChild(kind);
  var title = el('span', 'tn-title', ui.title);
  title.style.setProperty('--depth', String(p.depth));
  title.title = String(ui.title);
  row.appendChild(title);
  row.appendChild(el('span', 'tn-state tn-state-' + (STATES.indexOf(ui.state) >= 0 ? ui.state : 'started'), ui.state));
  var dur = el('span', 'tn-dur', p.t.ms !== undefined ? fmtMs(p.t.ms) : '—');
  if (p.t.ms !== undefined && !p.t.timed) dur.title = 'duration reported by the provider; no start time in the input';
  row.appendChild(dur);
  var err = el('span', 'tn-err');
  var ap = approvalOf(ui);
  // In the row only while it matters to the person: waiting, or never answered. An approved call
  // is a success and a denied one already reads as its denied error; the details say both.
  if (ap && (ap.state === 'pending' || ap.state === 'expired')) err.appendChild(el('span', 'tn-badge tn-approval-' + ap.state, APPROVAL_WORDS[ap.state]));
  if (p.v.error) {
    if (p.v.error.code) err.appendChild(el('b', '', p.v.error.code));
    err.appendChild(document.createTextNode((p.v.error.code ? ' ' : '') + firstLine(p.v.error.message)));
    err.title = String(p.v.error.message);
  }
  row.appendChild(err);
  row.appendChild(laneOf(p));
  return row;
}

// The part element carries the stable hooks and holds its row and its children's group; the
// row is the treeitem, so its accessible name is its own visible text, not its whole subtree.
function groupOf(p, withRow) {
  var ui = p.v.ui;
  var g = el('div', 'tn-part');
  g.setAttribute('role', 'none');
  g.setAttribute('data-part-id', ui.toolCallId);
  g.setAttribute('data-kind', ui.kind);
  g.setAttribute('data-state', ui.state);
  g.setAttribute('data-session', p.v.session);
  if (p.parent) {
    g.setAttribute('data-parent-id', p.parent.v.ui.toolCallId);
    if (p.parent.v.session !== p.v.session) g.setAttribute('data-parent-session', p.parent.v.session);
  }
  g.setAttribute('data-match', p.match ? 'true' : 'false');
  var ap = approvalOf(ui);
  if (ap) g.setAttribute('data-approval', ap.state);
  g._p = p;
  if (withRow) {
    var row = rowOf(p);
    row.setAttribute('role', 'treeitem');
    row.setAttribute('aria-level', String(p.depth + 1));
    row.setAttribute('aria-selected', p === shown ? 'true' : 'false');
    if (p.children.length) row.setAttribute('aria-expanded', p.collapsed ? 'false' : 'true');
    row.tabIndex = p === active ? 0 : -1;
    g.appendChild(row);
    rendered.set(p, row);
  } else g.setAttribute('data-ghost', 'true');
  return g;
}

function isAncestor(a, p) {
  for (var q = p.parent; q; q = q.parent) if (q === a) return true;
  return false;
}

function render(force) {
  var virtual = rows.length > VIRTUAL_AT;
  var first = 0, last = rows.length;
  if (virtual) {
    var top = scroller.scrollTop, h = scroller.clientHeight || 600;
    var seeFirst = Math.floor(top / ROW_H), seeLast = Math.ceil((top + h) / ROW_H);
    // While the viewport stays well inside the built window, nothing is rebuilt.
    var margin = Math.floor(OVERSCAN / 3);
    if (!force && win.rows === rows.length && seeFirst - margin >= win.first && seeLast + margin <= win.last) return;
    first = Math.max(0, seeFirst - OVERSCAN);
    last = Math.min(rows.length, seeLast + OVERSCAN);
  }
  var range = first + ':' + last + ':' + rows.length;
  if (!force && range === lastRange) return;
  lastRange = range;
  win = { first: first, last: last, rows: rows.length };
  var hadFocus = document.activeElement && document.activeElement.getAttribute && document.activeElement.getAttribute('role') === 'treeitem';
  spacer.style.height = virtual ? rows.length * ROW_H + 'px' : '';
  tree.style.top = virtual ? first * ROW_H + 'px' : '0px';
  rendered = new Map();
  var frag = document.createDocumentFragment();
  var stack = [];
  for (var i = first; i < last; i++) {
    var p = rows[i];
    while (stack.length && !isAncestor(stack[stack.length - 1].p, p)) stack.pop();
    var missing = [];
    for (var a = p.parent; a && !(stack.length && stack[stack.length - 1].p === a); a = a.parent) missing.push(a);
    for (var m = missing.length - 1; m >= 0; m--) push(missing[m], false);
    push(p, true);
  }
  function push(q, withRow) {
    var g = groupOf(q, withRow);
    (stack.length ? stack[stack.length - 1].box() : frag).appendChild(g);
    var box = null;
    stack.push({ p: q, box: function () { if (!box) { box = el('div', 'tn-children'); box.setAttribute('role', 'group'); g.appendChild(box); } return box; } });
  }
  tree.textContent = '';
  tree.appendChild(frag);
  if (!rows.length) tree.appendChild(el('div', 'tn-empty', parts.length ? 'No part matches the filters.' : 'No tool calls in this session.'));
  document.body.setAttribute('data-rows', String(rows.length));
  document.body.setAttribute('data-rendered', String(rendered.size));
  document.body.setAttribute('data-virtual', virtual ? 'true' : 'false');
  if (hadFocus && active && rendered.has(active)) rendered.get(active).focus({ preventScroll: true });
}

function refresh() {
  computeSpan();
  computeRows();
  renderHeader();
  renderFilters();
  renderCount();
  render(true);
  if (shown) showDetails(shown);
}

function renderCount() {
  $('tn-count').textContent = matchCount === parts.length ? parts.length + ' parts' : matchCount + ' of ' + parts.length + ' parts match';
  document.body.setAttribute('data-parts', String(parts.length));
  document.body.setAttribute('data-matches', String(matchCount));
}

function countBy(f) {
  var c = new Map();
  for (var i = 0; i < parts.length; i++) { var k = f(parts[i]); c.set(k, (c.get(k) || 0) + 1); }
  return c;
}
function fact(dl, name, value) {
  var d = el('div');
  d.appendChild(el('dt', '', name));
  d.appendChild(el('dd', '', value));
  dl.appendChild(d);
}
function joinCounts(c) {
  var out = [];
  c.forEach(function (n, k) { out.push(k + ' ' + n); });
  return out.join(' · ') || 'none';
}

function renderHeader() {
  var sessions = data.sessions.map(function (s) { return s.id; });
  $('tn-heading').textContent = 'toolnorm view: ' + data.source;
  document.title = 'toolnorm view: ' + data.source;
  var dl = $('tn-facts');
  dl.textContent = '';
  fact(dl, sessions.length === 1 ? 'Session' : 'Sessions', sessions.length <= 3 ? sessions.join(', ') || 'none' : sessions.slice(0, 3).join(', ') + ' and ' + (sessions.length - 3) + ' more');
  var providers = countBy(providerOf);
  fact(dl, providers.size === 1 ? 'Provider' : 'Providers', Array.from(providers.keys()).join(', ') || 'none');
  fact(dl, 'Parts', String(parts.length));
  fact(dl, 'By kind', joinCounts(countBy(function (p) { return p.v.ui.kind; })));
  fact(dl, 'By state', joinCounts(countBy(function (p) { return p.v.ui.state; })));
  var total = 0, withMs = 0;
  for (var i = 0; i < parts.length; i++) if (parts[i].t.ms !== undefined) { total += parts[i].t.ms; withMs++; }
  fact(dl, 'Total time', withMs ? fmtMs(total) + ' (sum of ' + withMs + ' durations)' : 'unknown');
  fact(dl, 'Wall time', span.timed ? fmtMs(span.t1 - span.t0) : 'unknown: the input has no timestamps');
  if (span.untimed) fact(dl, 'Untimed', span.untimed + ' parts (no start time in the input)');
  if (data.live) fact(dl, 'Live', liveStatus);
  var box = $('tn-diags');
  box.textContent = '';
  var n = diagnostics.length + diagnosticsOmitted;
  var det = el('details', 'tn-diags');
  det.appendChild(el('summary', '', 'Diagnostics: ' + n + (diagnosticsOmitted ? ' (' + diagnosticsOmitted + ' not included in this file)' : '')));
  var ol = el('ol');
  diagnostics.forEach(function (d) {
    var src = d.source ? [d.source.file, d.source.line !== undefined ? 'line ' + d.source.line : ''].filter(Boolean).join(' ') : '';
    ol.appendChild(el('li', d.severity === 'error' ? 'tn-diag-error' : '', d.severity + ' ' + d.code + (src ? ' (' + src + ')' : '') + ': ' + d.message + (d.partId ? ' [part ' + d.partId + ']' : '')));
  });
  det.appendChild(ol);
  box.appendChild(det);
  var axis = $('tn-axis');
  axis.textContent = '';
  if (span.timed) {
    var a0 = el('span', '', '0');
    a0.style.left = '2px';
    var a1 = el('span', '', '+' + fmtMs(span.t1 - span.t0));
    a1.style.right = '2px';
    axis.appendChild(a0);
    axis.appendChild(a1);
  } else axis.appendChild(el('span', '', 'timeline'));
}

var filterBuilt = '';
function renderFilters() {
  var kinds = Array.from(countBy(function (p) { return p.v.ui.kind; }).keys()).sort();
  var providers = Array.from(countBy(providerOf).keys()).sort();
  var sig = kinds.join(',') + '|' + providers.join(',');
  if (sig === filterBuilt) return;
  filterBuilt = sig;
  fill($('tn-filter-kind'), 'kind', kinds, function (k) { return KIND_LABELS[k] ? KIND_LABELS[k] + ' (' + k + ')' : k; });
  fill($('tn-filter-state'), 'state', STATES, function (s) { return s; });
  fill($('tn-filter-provider'), 'provider', providers, function (s) { return s; });
  function fill(fs, facet, values, label) {
    var legend = fs.querySelector('legend');
    fs.textContent = '';
    fs.appendChild(legend);
    values.forEach(function (v) {
      var l = el('label');
      var box = el('input');
      box.type = 'checkbox';
      box.checked = !hidden[facet].has(v);
      box.setAttribute('data-facet', facet);
      box.setAttribute('data-value', v);
      box.addEventListener('change', function () {
        if (box.checked) hidden[facet].delete(v); else hidden[facet].add(v);
        refilter();
      });
      l.appendChild(box);
      l.appendChild(document.createTextNode(' ' + label(v)));
      fs.appendChild(l);
    });
  }
}

function refilter() {
  computeRows();
  renderCount();
  render(true);
}

function pre(text) { return el('pre', '', text); }
function json(v) {
  try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); }
}
function section(box, name, node) {
  box.appendChild(el('h3', '', name));
  box.appendChild(node);
}
function textOf(output) {
  return output && typeof output === 'object' && typeof output.text === 'string' ? output.text : undefined;
}

// The substance of a call, read only from the contract's typed metadata (metadata.command,
// files, plan, approval), never from the provider's input: every provider shows the same way.
var APPROVAL_WORDS = { pending: 'waiting for approval', approved: 'approved', denied: 'denied', expired: 'approval expired' };
function meta(ui) { return ui.metadata && typeof ui.metadata === 'object' ? ui.metadata : {}; }
function approvalOf(ui) {
  var a = meta(ui).approval;
  return a && typeof a === 'object' && Object.prototype.hasOwnProperty.call(APPROVAL_WORDS, a.state) ? a : null;
}
function when(v) {
  var n = epoch(v);
  return n === undefined ? '' : new Date(n).toISOString();
}
function commandBox(c) {
  var box = el('div', 'tn-command');
  box.appendChild(el('pre', 'tn-cmd', c.command));
  var dl = el('dl', 'tn-facts');
  if (typeof c.description === 'string') fact(dl, 'Description', c.description);
  fact(dl, 'Exit code', c.exitCode === null ? 'none (killed before exiting)' : c.exitCode === undefined ? 'not known' : String(c.exitCode));
  if (typeof c.cwd === 'string') fact(dl, 'Cwd', c.cwd);
  if (c.background) fact(dl, 'Background', 'yes');
  box.appendChild(dl);
  return box;
}
function approvalBox(a) {
  var box = el('div', 'tn-approval');
  box.appendChild(el('p', 'tn-badge tn-approval-' + a.state, APPROVAL_WORDS[a.state]));
  var dl = el('dl', 'tn-facts');
  fact(dl, 'Asked or answered by', a.source);
  if (typeof a.reason === 'string') fact(dl, 'Reason', a.reason);
  if (a.requestedAt !== undefined) fact(dl, 'Requested', when(a.requestedAt));
  if (a.at !== undefined) fact(dl, a.state === 'pending' ? 'Requested' : 'Answered', when(a.at));
  if (typeof a.optionId === 'string') fact(dl, 'Chosen', a.optionId);
  box.appendChild(dl);
  if (Array.isArray(a.options) && a.options.length) {
    var ul = el('ul', 'tn-options');
    a.options.forEach(function (o) { ul.appendChild(el('li', o.id === a.optionId ? 'tn-chosen' : '', (o.name || o.id) + (o.kind ? ' (' + o.kind + ')' : '') + (o.id === a.optionId ? ': chosen' : ''))); });
    box.appendChild(ul);
  }
  return box;
}
function planBox(plan) {
  var box = el('div', 'tn-plan');
  if (typeof plan.explanation === 'string' && plan.explanation) box.appendChild(el('p', 'tn-note', plan.explanation));
  if (plan.partial) box.appendChild(el('p', 'tn-note', 'Only the entries this call changed.'));
  var ol = el('ol');
  (Array.isArray(plan.entries) ? plan.entries : []).forEach(function (e) {
    var li = el('li', 'tn-plan-entry');
    li.setAttribute('data-status', String(e.status));
    li.appendChild(el('span', 'tn-badge tn-plan-' + e.status, String(e.status).replace('_', ' ')));
    if (e.priority) li.appendChild(el('span', 'tn-badge tn-priority', e.priority + ' priority'));
    li.appendChild(document.createTextNode(' ' + e.content));
    ol.appendChild(li);
  });
  box.appendChild(ol);
  return box;
}
var MARKER = /^\[omitted by toolnorm: (\d+) bytes/;
function statsOf(f) {
  if (f.stats && typeof f.stats.added === 'number') return f.stats;
  if (typeof f.diff !== 'string' || MARKER.test(f.diff)) return null;
  var added = 0, removed = 0, hunk = false;
  f.diff.split('\n').forEach(function (l) {
    if (l.slice(0, 2) === '@@') hunk = true;
    else if (hunk && l[0] === '+') added++;
    else if (hunk && l[0] === '-') removed++;
  });
  return { added: added, removed: removed };
}
// One element per diff line, its kind as a class and a data attribute; the +/- mark stays in
// the text, so the kind is not told by colour alone.
function diffBox(diff) {
  // Long lines are not wrapped (a diff is read by column): the box may scroll sideways.
  var box = el('pre', 'tn-diff');
  var hunk = false;
  diff.replace(/\n$/, '').split('\n').forEach(function (l) {
    var kind;
    if (l.slice(0, 5) === 'diff ') { hunk = false; kind = 'meta'; }
    else if (l.slice(0, 2) === '@@') { hunk = true; kind = 'hunk'; }
    else if (!hunk) kind = 'meta';
    else if (l[0] === '+') kind = 'add';
    else if (l[0] === '-') kind = 'del';
    else if (l[0] === '\\') kind = 'note';
    else kind = 'ctx';
    var line = el('span', 'tn-diff-line tn-diff-' + kind, l);
    line.setAttribute('data-line', kind);
    box.appendChild(line);
  });
  return box;
}
function filesBox(files) {
  var box = el('div', 'tn-files');
  files.forEach(function (f) {
    var item = el('div', 'tn-file');
    item.setAttribute('data-path', String(f.path));
    item.setAttribute('data-operation', String(f.operation));
    var head = el('p', 'tn-file-head');
    head.appendChild(el('span', 'tn-badge tn-op tn-op-' + f.operation, f.operation));
    head.appendChild(document.createTextNode(' ' + (f.from ? f.from + ' → ' : '') + f.path));
    var st = statsOf(f);
    if (st) {
      head.appendChild(document.createTextNode(' '));
      head.appendChild(el('span', 'tn-added', '+' + st.added));
      head.appendChild(document.createTextNode(' '));
      head.appendChild(el('span', 'tn-removed', '-' + st.removed));
    }
    item.appendChild(head);
    var omitted = typeof f.diff === 'string' ? MARKER.exec(f.diff) : null;
    if (omitted) item.appendChild(el('p', 'tn-note tn-diff-omitted', 'The diff was left out under toolnorm\'s metadata budget (' + fmtBytes(Number(omitted[1])) + ', ' + omitted[1] + ' bytes).'));
    else if (typeof f.diff === 'string') item.appendChild(diffBox(f.diff));
    else item.appendChild(el('p', 'tn-note', 'No diff recorded.'));
    box.appendChild(item);
  });
  return box;
}

function showDetails(p) {
  var prev = shown;
  shown = p;
  var ui = p.v.ui;
  details.textContent = '';
  details.hidden = false;
  var close = el('button', '', 'Close details');
  close.type = 'button';
  close.addEventListener('click', hideDetails);
  details.appendChild(close);
  var h = el('h2', '', ui.title);
  h.id = 'tn-details-title';
  details.setAttribute('aria-labelledby', 'tn-details-title');
  details.appendChild(h);
  var dl = el('dl', 'tn-facts');
  fact(dl, 'Name', ui.toolName);
  fact(dl, 'Id', ui.toolCallId);
  fact(dl, 'Kind', ui.kind);
  fact(dl, 'State', ui.state);
  fact(dl, 'Duration', p.t.ms !== undefined ? fmtMs(p.t.ms) : p.t.timed ? 'no end' : 'untimed');
  fact(dl, 'Session', p.v.session);
  details.appendChild(dl);
  var md = meta(ui), ap = approvalOf(ui);
  if (ap) section(details, 'Approval', approvalBox(ap));
  if (md.command && typeof md.command.command === 'string') section(details, 'Command', commandBox(md.command));
  if (Array.isArray(md.files) && md.files.length) section(details, md.files.length === 1 ? 'File' : 'Files (' + md.files.length + ')', filesBox(md.files));
  if (md.plan && typeof md.plan === 'object') section(details, 'Plan', planBox(md.plan));
  if (p.v.error) section(details, 'Error', pre(json(p.v.error)));
  var c = p.v.compression;
  if (c) {
    var s = c.record.stats;
    var box = el('div', 'tn-output');
    box.appendChild(el('p', 'tn-note', 'Compressed by ' + s.specId + ' (' + s.strategy + '): kept ' + fmtBytes(s.keptBytes) + ' of ' + fmtBytes(s.originalBytes) + ', ' + s.keptLines + ' of ' + s.originalLines + ' lines; ' + s.omittedLines + ' lines omitted.'));
    box.appendChild(pre(textOf(c.output) !== undefined ? textOf(c.output) : json(c.output)));
    if (c.fullIncluded) {
      var btn = el('button', '', 'Show full output (' + fmtBytes(s.originalBytes) + ')');
      btn.type = 'button';
      btn.setAttribute('aria-expanded', 'false');
      btn.addEventListener('click', function () {
        btn.setAttribute('aria-expanded', 'true');
        btn.disabled = true;
        var full = el('div', 'tn-full-output');
        full.appendChild(el('h3', '', 'Full output'));
        full.appendChild(pre(textOf(ui.output) !== undefined ? textOf(ui.output) : json(ui.output)));
        box.appendChild(full);
      });
      box.appendChild(btn);
    } else {
      box.appendChild(el('p', 'tn-note', 'The full output is not in this file: sha256 ' + c.record.original.sha256 + (c.record.original.seq !== undefined ? ', stored at seq ' + c.record.original.seq : '') + '.'));
    }
    section(details, 'Output', box);
  } else if ('output' in ui) {
    var text = textOf(ui.output);
    if (text !== undefined) section(details, 'Output text', pre(text));
    section(details, 'Output', pre(json(ui.output)));
  }
  section(details, 'Input', pre(json(ui.input)));
  section(details, 'Timing', pre(ui.timing ? json(ui.timing) : 'none'));
  section(details, 'Metadata', pre(ui.metadata ? json(ui.metadata) : 'none'));
  // A box that scrolls (a long diff, big metadata) must be reachable by keyboard to be scrolled.
  Array.prototype.forEach.call(details.querySelectorAll('pre'), function (b) {
    if (b.scrollHeight > b.clientHeight || b.scrollWidth > b.clientWidth) b.tabIndex = 0;
  });
  if (prev !== p) {
    if (prev && rendered.has(prev)) rendered.get(prev).setAttribute('aria-selected', 'false');
    if (rendered.has(p)) rendered.get(p).setAttribute('aria-selected', 'true');
  }
}

function hideDetails() {
  if (shown && rendered.has(shown)) rendered.get(shown).setAttribute('aria-selected', 'false');
  shown = null;
  details.hidden = true;
  details.textContent = '';
  if (active) focusPart(active);
}

function focusPart(p) {
  if (!p) return;
  var prev = active;
  active = p;
  var i = rowIndex.get(p);
  if (i === undefined) return;
  var top = i * ROW_H, h = scroller.clientHeight;
  if (rows.length > VIRTUAL_AT) {
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (top + ROW_H > scroller.scrollTop + h) scroller.scrollTop = top + ROW_H - h;
    render(false);
  }
  if (prev && rendered.has(prev)) rendered.get(prev).tabIndex = -1;
  var g = rendered.get(p);
  if (!g) { render(true); g = rendered.get(p); }
  if (g) {
    g.tabIndex = 0;
    g.focus({ preventScroll: rows.length > VIRTUAL_AT });
    if (rows.length <= VIRTUAL_AT) g.scrollIntoView({ block: 'nearest' });
  }
}

function toggle(p, collapsed) {
  if (!p.children.length) return;
  p.collapsed = collapsed === undefined ? !p.collapsed : collapsed;
  computeRows();
  render(true);
  focusPart(p);
}

function partOf(node) {
  for (var n = node; n && n !== tree; n = n.parentNode) if (n._p && !n.hasAttribute('data-ghost')) return n._p;
  return null;
}

tree.addEventListener('click', function (ev) {
  var p = partOf(ev.target);
  if (!p) return;
  if (ev.target.getAttribute && ev.target.getAttribute('data-action') === 'toggle') { toggle(p); return; }
  focusPart(p);
  showDetails(p);
});

tree.addEventListener('keydown', function (ev) {
  var p = partOf(ev.target);
  if (!p) return;
  var i = rowIndex.get(p), page = Math.max(1, Math.floor(scroller.clientHeight / ROW_H) - 1), next = null;
  switch (ev.key) {
    case 'ArrowDown': next = rows[Math.min(rows.length - 1, i + 1)]; break;
    case 'ArrowUp': next = rows[Math.max(0, i - 1)]; break;
    case 'PageDown': next = rows[Math.min(rows.length - 1, i + page)]; break;
    case 'PageUp': next = rows[Math.max(0, i - page)]; break;
    case 'Home': next = rows[0]; break;
    case 'End': next = rows[rows.length - 1]; break;
    case 'ArrowRight':
      if (p.children.length && p.collapsed) toggle(p, false);
      else if (p.children.length) next = rows[i + 1];
      else { ev.preventDefault(); return; }
      break;
    case 'ArrowLeft':
      if (p.children.length && !p.collapsed) toggle(p, true);
      else if (p.parent && rowIndex.has(p.parent)) next = p.parent;
      else { ev.preventDefault(); return; }
      break;
    case 'Enter': case ' ': showDetails(p); break;
    case 'Escape': if (shown) hideDetails(); break;
    default: return;
  }
  ev.preventDefault();
  if (next) focusPart(next);
});

details.addEventListener('keydown', function (ev) {
  if (ev.key === 'Escape') { ev.preventDefault(); hideDetails(); }
});

document.addEventListener('keydown', function (ev) {
  var t = ev.target;
  var typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA');
  if (ev.key === '/' && !typing) { ev.preventDefault(); $('tn-search').focus(); }
});

var pending = false;
scroller.addEventListener('scroll', function () {
  if (rows.length <= VIRTUAL_AT || pending) return;
  pending = true;
  requestAnimationFrame(function () { pending = false; render(false); });
});
window.addEventListener('resize', function () { render(false); });

$('tn-search').addEventListener('input', function (ev) { query = ev.target.value.trim().toLowerCase(); refilter(); });
$('tn-errors-only').addEventListener('change', function (ev) { errorsOnly = ev.target.checked; refilter(); });
$('tn-collapse-all').addEventListener('click', function () { parts.forEach(function (p) { if (p.children.length) p.collapsed = true; }); refilter(); });
$('tn-expand-all').addEventListener('click', function () { parts.forEach(function (p) { p.collapsed = false; }); refilter(); });

data.sessions.forEach(function (s) { if (s.provider) sessionProvider.set(s.id, s.provider); });
data.parts.forEach(upsert);
diagnostics = data.diagnostics || [];
diagnosticsOmitted = data.diagnosticsOmitted || 0;
relink();
var liveStatus = data.live ? 'connecting' : '';
refresh();
document.body.setAttribute('data-ready', 'true');
// For bench/view.ts: time from navigation start to the first full render.
if (window.performance && performance.mark) performance.mark('toolnorm-view-ready');

function setLive(state, status) {
  liveStatus = status;
  document.body.setAttribute('data-live', state);
  renderHeader();
}
// The server drops a page that stops taking its messages (a frozen or stalled tab); the last
// message says by how much it fell behind. The page then stops rather than reconnect unasked,
// and says to reload.
function showDropped(msg) {
  var n = msg && typeof msg.behindBytes === 'number' ? msg.behindBytes : 0;
  var stall = msg && msg.limits && typeof msg.limits.stallMs === 'number' ? msg.limits.stallMs : 0;
  var why = 'it took nothing from the server for ' + fmtMs(stall);
  setLive('dropped', 'disconnected: fell behind by ' + n + ' bytes; reload');
  var box = $('tn-live-alert');
  box.textContent = '';
  box.appendChild(document.createTextNode('Disconnected: this page fell behind the session by ' + n + ' bytes (' + fmtBytes(n) + '; ' + why + '). Reload to catch up. '));
  var again = el('button', '', 'Reload');
  again.type = 'button';
  again.addEventListener('click', function () { location.reload(); });
  box.appendChild(again);
  box.hidden = false;
}

if (data.live) {
  var source = new EventSource('events');
  document.body.setAttribute('data-live', 'connecting');
  source.addEventListener('open', function () { setLive('following', 'following'); });
  source.addEventListener('error', function () {
    if (document.body.getAttribute('data-live') === 'dropped') return;
    // CLOSED: the server refused the stream (EventSource gives up); otherwise it retries itself.
    if (source.readyState === EventSource.CLOSED) setLive('closed', 'disconnected; reload');
    else setLive('retrying', 'disconnected, retrying');
  });
  source.addEventListener('dropped', function (ev) {
    source.close();
    var msg = null;
    try { msg = JSON.parse(ev.data); } catch (e) { msg = null; }
    showDropped(msg);
  });
  source.addEventListener('view', function (ev) {
    var msg = JSON.parse(ev.data);
    (msg.sessions || []).forEach(function (s) {
      if (!data.sessions.some(function (x) { return x.id === s.id; })) data.sessions.push(s);
      if (s.provider) sessionProvider.set(s.id, s.provider);
    });
    (msg.parts || []).forEach(upsert);
    if (msg.full) {
      diagnostics = msg.diagnostics || [];
      diagnosticsOmitted = msg.diagnosticsOmitted || 0;
    } else (msg.diagnostics || []).forEach(function (d) { diagnostics.push(d); });
    relink();
    refresh();
    document.body.setAttribute('data-live-seq', String(msg.seq || 0));
  });
}
`;

/** The page script: the constants above, then the body, in one strict-mode function scope. */
export function clientScript(): string {
  const constants = {
    ROW_H: ROW_HEIGHT_PX,
    VIRTUAL_AT,
    OVERSCAN: OVERSCAN_ROWS,
    KIND_ICONS,
    KIND_LABELS,
  };
  const decl = Object.entries(constants).map(([k, v]) => `var ${k} = ${JSON.stringify(v)};`).join('\n');
  return `(function () {\n'use strict';\n${decl}\n${CLIENT_BODY}\n})();`;
}
