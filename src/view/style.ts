// The viewer's stylesheet, inlined into the page (no external font or file: the page makes no
// request). Row height is fixed (--row-h) because the virtualized list positions rows by index.
export const ROW_HEIGHT_PX = 28;

export const VIEW_CSS: string = `
:root {
  --row-h: ${ROW_HEIGHT_PX}px;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --hover: #f3f6f9; --sel: #dbeafe;
  --complete: #116329; --error: #b42318; --running: #0b62c4; --started: #6e5a00;
  --bar: #5b8def; --bar-open: #8fb0f5;
  font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; font-size: 13px;
  color: var(--fg); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; display: flex; flex-direction: column; height: 100vh; overflow: hidden; }
header.tn-header { padding: 8px 12px; border-bottom: 1px solid var(--line); }
header.tn-header h1 { font-size: 15px; margin: 0 0 4px 0; }
.tn-facts { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 0; }
.tn-facts div { display: flex; gap: 4px; }
.tn-facts dt { color: var(--muted); }
.tn-facts dd { margin: 0; }
.tn-diags summary { cursor: pointer; }
.tn-diags ol { max-height: 160px; overflow: auto; margin: 4px 0; padding-left: 22px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
.tn-diag-error { color: var(--error); }
.tn-alert { margin: 6px 0 0; padding: 6px 10px; border: 1px solid var(--error); border-radius: 4px; color: var(--error); background: #fff5f5; font-weight: 600; }
.tn-alert[hidden] { display: none; }
.tn-toolbar { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; padding: 6px 12px; border-bottom: 1px solid var(--line); background: #f6f8fa; }
.tn-toolbar fieldset { border: 1px solid var(--line); border-radius: 4px; padding: 2px 6px; margin: 0; display: flex; flex-wrap: wrap; gap: 2px 8px; }
.tn-toolbar legend { font-size: 11px; color: var(--muted); padding: 0 3px; }
.tn-toolbar label { white-space: nowrap; }
.tn-toolbar input[type=search] { width: 16em; }
.tn-count { color: var(--muted); }
.tn-main { flex: 1; display: flex; min-height: 0; }
.tn-list-wrap { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.tn-cols, .tn-row { display: grid; grid-template-columns: 16px 100px minmax(150px, 1.3fr) 84px 62px minmax(70px, 0.8fr) minmax(120px, 28%); align-items: center; column-gap: 6px; padding: 0 8px; }
.tn-cols { height: 24px; border-bottom: 1px solid var(--line); color: var(--muted); font-size: 11px; text-transform: uppercase; letter-spacing: .03em; }
.tn-axis { position: relative; height: 100%; }
.tn-axis span { position: absolute; top: 5px; font-size: 10px; text-transform: none; white-space: nowrap; }
.tn-scroll { flex: 1; overflow: auto; position: relative; outline-offset: -2px; }
.tn-spacer { position: relative; }
.tn-window { position: absolute; left: 0; right: 0; top: 0; }
.tn-part, .tn-children { margin: 0; padding: 0; }
.tn-row { height: var(--row-h); border-bottom: 1px solid #eef1f4; cursor: default; white-space: nowrap; contain: layout style; }
.tn-row:hover { background: var(--hover); }
.tn-row[aria-selected=true] { background: var(--sel); }
.tn-row:focus { outline: 2px solid var(--running); outline-offset: -2px; }
.tn-part[data-match=false] > .tn-row { opacity: .55; }
.tn-toggle { color: var(--muted); text-align: center; cursor: pointer; user-select: none; }
.tn-kind { display: flex; align-items: center; gap: 5px; overflow: hidden; }
.tn-icon { display: inline-block; min-width: 26px; padding: 1px 3px; border-radius: 3px; font: 600 10px/14px ui-monospace, "DejaVu Sans Mono", monospace; text-align: center; color: #fff; background: #57606a; }
.tn-kind-label { overflow: hidden; text-overflow: ellipsis; color: var(--muted); font-size: 12px; }
.tn-title { overflow: hidden; text-overflow: ellipsis; padding-left: calc(var(--depth, 0) * 16px); }
.tn-state { display: flex; align-items: center; gap: 5px; font-size: 12px; }
.tn-state::before { content: ""; width: 9px; height: 9px; border-radius: 50%; background: currentColor; flex: none; }
.tn-state-complete { color: var(--complete); }
.tn-state-error { color: var(--error); font-weight: 600; }
.tn-state-running { color: var(--running); }
.tn-state-started { color: var(--started); }
.tn-dur { text-align: right; font-variant-numeric: tabular-nums; }
.tn-err { overflow: hidden; text-overflow: ellipsis; color: var(--error); font-size: 12px; }
.tn-err b { font-weight: 600; }
.tn-lane { position: relative; height: 100%; border-left: 1px solid #eef1f4; }
.tn-bar { position: absolute; top: 8px; height: 12px; min-width: 3px; border-radius: 2px; background: var(--bar); }
.tn-bar-error { background: var(--error); }
.tn-bar-open { background: repeating-linear-gradient(45deg, var(--bar-open) 0 4px, #c9d8fb 4px 8px); }
.tn-untimed { position: absolute; top: 6px; left: 2px; font-size: 11px; font-style: italic; color: var(--muted); border: 1px dashed var(--line); border-radius: 3px; padding: 0 4px; line-height: 14px; }
.tn-empty { padding: 16px; color: var(--muted); }
aside.tn-details { width: 36%; max-width: 640px; min-width: 280px; border-left: 1px solid var(--line); overflow: auto; padding: 8px 12px; }
aside.tn-details[hidden] { display: none; }
.tn-details h2 { font-size: 14px; margin: 4px 0 8px; word-break: break-word; }
.tn-details h3 { font-size: 12px; margin: 10px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
.tn-details pre { margin: 0; padding: 6px 8px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; max-height: 40vh; overflow: auto; }
.tn-note { color: var(--muted); margin: 4px 0; }
.tn-kind-bash .tn-icon { background: #24292f; } .tn-kind-file_read .tn-icon { background: #0969da; }
.tn-kind-file_edit .tn-icon { background: #8250df; } .tn-kind-file_write .tn-icon { background: #6639ba; }
.tn-kind-web_search .tn-icon { background: #1b7c83; } .tn-kind-browser .tn-icon { background: #116329; }
.tn-kind-subagent .tn-icon { background: #9a6700; } .tn-kind-mcp .tn-icon { background: #bc4c00; }
.tn-kind-question .tn-icon { background: #bf3989; } .tn-kind-todo .tn-icon { background: #4d2d8f; }
.tn-kind-unknown .tn-icon { background: #6e7781; }
/* Substance: approval badges, the command, the plan and file diffs (colours pass AA on white). */
.tn-badge { display: inline-block; padding: 0 5px; margin-right: 4px; border-radius: 3px; border: 1px solid currentColor; font-size: 11px; line-height: 15px; font-weight: 600; white-space: nowrap; }
.tn-approval-pending { color: #7a4b00; background: #fff4d6; }
.tn-approval-approved { color: var(--complete); }
.tn-approval-denied { color: var(--error); }
.tn-approval-expired { color: var(--muted); }
.tn-details p.tn-badge { margin: 0 0 4px; }
.tn-details pre.tn-cmd { font-weight: 600; }
.tn-plan ol { margin: 0; padding-left: 22px; }
.tn-plan-entry { margin: 2px 0; }
.tn-plan-completed { color: var(--complete); } .tn-plan-in_progress { color: var(--running); }
.tn-plan-pending { color: var(--started); } .tn-plan-cancelled { color: var(--muted); }
.tn-priority { color: var(--muted); font-weight: 400; }
.tn-file { margin: 0 0 8px; }
.tn-file-head { margin: 2px 0; word-break: break-all; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
.tn-added { color: var(--complete); font-weight: 600; } .tn-removed { color: var(--error); font-weight: 600; }
.tn-details pre.tn-diff { padding: 4px 0; white-space: pre; overflow: auto; }
.tn-diff-line { display: block; padding: 0 8px; min-height: 1.4em; }
.tn-diff-add { background: #dafbe1; color: #0a3d1a; } .tn-diff-del { background: #ffebe9; color: #6e0f0a; }
.tn-diff-hunk { background: #ddf4ff; color: #0a3069; } .tn-diff-meta { color: var(--muted); font-weight: 600; }
.tn-diff-note { color: var(--muted); font-style: italic; }
button { font: inherit; }
.tn-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
