// The Codex adapter: `codex exec --json` JSONL, app-server v2 JSON-RPC (bare or wrapped by a
// recorder, e.g. `{"dir","msg"}`) and session rollouts. Each line is routed to its form's parser
// (forms/); all three share one item table (items.ts), one tool table by function name (tools.ts)
// and one lifecycle tracker.
import { basename, extname } from 'node:path';
import type { AdapterDefinition } from '../types.js';
import { EventEmitterFor, parseObjectLine } from '../shared/emit.js';
import { AppServerForm } from './forms/app-server.js';
import { ExecForm } from './forms/exec.js';
import { carriesNoToolData, formOf, sniffLines } from './sniff.js';
import { CodexContext } from './observe.js';
import { RolloutForm } from './forms/rollout.js';

/** A stable session id for input that names none: derived from the file name, never random. */
export function fallbackSessionId(file: string | undefined): string {
  if (!file || file === '-') return 'codex-stdin';
  const name = basename(file, extname(file)).replace(/[^A-Za-z0-9._-]+/g, '-');
  return `codex-${name || 'input'}`;
}

export const codexAdapter: AdapterDefinition = {
  id: 'codex',
  provider: 'codex',
  description: 'Codex: `codex exec --json` JSONL, app-server v2 JSON-RPC (bare or {dir,msg}-wrapped) and session rollouts',
  eventsChecked: true,
  sniff: ({ lines }) => sniffLines(lines),
  create(sink, options) {
    const out = new EventEmitterFor(sink, 'codex');
    const c = new CodexContext(out, options);
    let file: string | undefined;
    const fallback = () => options.sessionId ?? fallbackSessionId(file);
    const cwd = () => options.cwd;
    const forms = () => ({ exec: new ExecForm(c, fallback, cwd), app: new AppServerForm(c, fallback, cwd), rollout: new RolloutForm(c, fallback, cwd) });
    let current = forms();
    return {
      beginFile(name) {
        // Ids, threads and pending calls are per recording; parts already emitted stay as they are.
        file = name;
        current = forms();
      },
      line(text, pos) {
        if (!text.trim() || carriesNoToolData(text)) return;
        const o = parseObjectLine(text, pos, out, 'a JSON value that is not an object');
        if (!o) return;
        const f = formOf(o);
        if (!f) {
          out.malformed(text, 'not a codex exec event, app-server JSON-RPC message or rollout line', pos);
          return;
        }
        if (f.form === 'exec') current.exec.line(o, text, pos);
        else if (f.form === 'rollout') current.rollout.line(o, text, pos);
        else current.app.line(f.rpc.msg, f.rpc.dir, pos);
      },
      end() {
        // Nothing is buffered. Calls still open stay open: the recording ended before they did.
      },
    };
  },
};
