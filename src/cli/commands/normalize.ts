import { join } from 'node:path';
import { ADAPTER_IDS, adapterById, detectAdapter } from '../../adapters/registry.js';
import type { AdapterDefinition } from '../../adapters/types.js';
import { NormalizePipeline, type OutputFormat } from '../../pipeline/normalize.js';
import { readLines, type Line } from '../../pipeline/lines.js';
import { resolveInputs, type Input } from '../inputs.js';
import { LineWriter } from '../writer.js';
import { progressBar } from '../progress.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import type { StoreSink } from '../store-sink.js';
import { packageRoot } from '../package-root.js';

const FORMATS: readonly OutputFormat[] = ['parts', 'events', 'acp', 'ui'];

/** The recorded session `toolnorm normalize` runs on when given no input. */
export const DEMO_INPUT = join(packageRoot(), 'fixtures/demo/claude-streamjson-all-tools.jsonl');

const USAGE = `Usage: toolnorm normalize [--from auto|${ADAPTER_IDS.join('|')}] [--to ${FORMATS.join('|')}] [options] FILE...|-

Reads provider recordings (files, directories or - for stdin) line by line and prints NDJSON on
stdout: final parts (--to parts, the default), ToolEvents, ACP session/update notifications, or
legacy UI parts. Diagnostics go to stderr as JSON lines. With no FILE, a recorded Claude Code
session shipped with toolnorm is normalized.

Options:
  --from F            input format (default auto: detected from the first lines)
  --to T              output: parts | events | acp | ui (default parts)
  --summary           end stderr with {inputLines, events, parts, byKind, byState, diagnostics, malformedLines}
  --strict            exit 1 when there is any diagnostic
  --session ID        session id for inputs that carry none
  --cwd DIR           session working directory for titles, when the input does not say
  --mcp-server NAME   a known MCP server name (repeatable), to split <server>_<tool> names
  --clock zero|wall   time for lines without a timestamp: 0 (deterministic, default) or now
  --output full|compressed   full outputs (default), or compress big outputs with the default specs
                      (Claude Bash 30,000 bytes middle cut; Codex 10,000 tokens half/half) and show
                      the compressed text; the original stays in the events (--to events, --store)
  --ui-states legacy|canonical   UI state names (default legacy)
  --acp-terminal      --to acp for a client that announced _meta.terminal_output: commands show
                      as display-only terminals, output in _meta.terminal_output (sent once)
  --store URL         also append the events to a store: sqlite:PATH or postgres://…
  --quiet             do not print diagnostics (they are still counted)

Parts are printed once each, in their final state: a part is printed when it has been final for
a while (64 events), and parts still open at the end of input are printed last.
Exit: 0, or 1 when input is unreadable or --strict finds diagnostics, 2 on bad usage.`;

function pickAdapter(from: string, firstLines: string[], file: string | undefined): AdapterDefinition {
  if (from !== 'auto') {
    const a = adapterById(from);
    if (!a) throw new UsageError(`unknown --from "${from}"; expected auto or one of ${ADAPTER_IDS.join(', ')}`);
    return a;
  }
  const found = detectAdapter({ lines: firstLines, file });
  if (!found) throw new Error(`cannot tell the input format of ${file ?? 'the input'}; pass --from ${ADAPTER_IDS.join('|')}`);
  return found.adapter;
}

export const normalizeCommand: Command = {
  name: 'normalize',
  summary: 'turn Claude Code, Codex, OpenCode or ACP recordings into parts, events, ACP frames or UI parts',
  usage: USAGE,
  async run(io) {
    const parsed = parseCommandArgs({
      args: io.argv,
      allowPositionals: true,
      options: {
        from: { type: 'string', default: 'auto' },
        to: { type: 'string', default: 'parts' },
        summary: { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        session: { type: 'string' },
        cwd: { type: 'string' },
        'mcp-server': { type: 'string', multiple: true },
        clock: { type: 'string', default: 'zero' },
        output: { type: 'string', default: 'full' },
        'ui-states': { type: 'string', default: 'legacy' },
        'acp-terminal': { type: 'boolean', default: false },
        store: { type: 'string' },
        quiet: { type: 'boolean', default: false },
      },
    });
    const v = parsed.values;
    const to = v.to as OutputFormat;
    if (!FORMATS.includes(to)) throw new UsageError(`unknown --to "${v.to}"; expected ${FORMATS.join(', ')}`);
    if (v.clock !== 'zero' && v.clock !== 'wall') throw new UsageError('--clock must be zero or wall');
    if (v.output !== 'full' && v.output !== 'compressed') throw new UsageError('--output must be full or compressed');
    if (v['ui-states'] !== 'legacy' && v['ui-states'] !== 'canonical') throw new UsageError('--ui-states must be legacy or canonical');

    const positionals = parsed.positionals.length ? parsed.positionals : [DEMO_INPUT];
    let inputs: Input[];
    try {
      inputs = resolveInputs(positionals, io.cwd, io.stdin);
    } catch (err) {
      io.stderr.write(`toolnorm normalize: ${(err as Error).message}\n`);
      return 1;
    }
    if (inputs.length === 0) {
      io.stderr.write('toolnorm normalize: no input files found\n');
      return 1;
    }

    const out = new LineWriter(io.stdout);
    const err = new LineWriter(io.stderr, 0);
    let store: StoreSink | undefined;
    if (v.store) {
      try {
        // Loaded only when asked for, like the compressor below: a plain run does not pay for them.
        const { openStoreSink } = await import('../store-sink.js');
        store = await openStoreSink(v.store);
      } catch (e) {
        io.stderr.write(`toolnorm normalize: cannot open store ${v.store}: ${(e as Error).message}\n`);
        return 1;
      }
    }
    const compressor = v.output === 'compressed' ? new (await import('../../compress/index.js')).DeclarativeCompressor() : undefined;
    let pipeline: NormalizePipeline | undefined;
    const total = inputs.reduce((n, i) => n + (i.size ?? 0), 0);
    const bar = progressBar(io.stderr, total);
    let unreadable = false;
    try {
      for (const input of inputs) {
        let lines: AsyncGenerator<Line>;
        try {
          lines = readLines(input.open(), bar ? (n) => bar.add(n) : undefined);
        } catch (e) {
          io.stderr.write(`toolnorm normalize: cannot read ${input.name}: ${(e as Error).message}\n`);
          unreadable = true;
          continue;
        }
        const buffered: Line[] = [];
        if (!pipeline) {
          // Detection needs the first non-empty lines; they are replayed into the adapter after.
          // `break` inside for-await would close the generator and lose the rest of the file,
          // so the sample is pulled with next() and the generator stays open.
          const sample: string[] = [];
          while (sample.length < 20) {
            const r = await lines.next();
            if (r.done) break;
            buffered.push(r.value);
            if (r.value.text.trim()) sample.push(r.value.text);
          }
          const adapter = pickAdapter(v.from!, sample, input.name);
          pipeline = new NormalizePipeline(adapter, {
            to,
            sessionId: v.session,
            cwd: v.cwd,
            mcpServers: v['mcp-server'],
            clock: v.clock === 'wall' ? Date.now : () => 0,
            output: v.output as 'full' | 'compressed',
            uiStates: v['ui-states'] as 'legacy' | 'canonical',
            acpTerminal: v['acp-terminal'],
            ...(compressor ? { compressor } : {}),
          }, {
            output: (r) => out.json(r),
            diagnostic: (d) => { if (!v.quiet) err.json(d); },
            event: store ? (e) => store!.add(e) : undefined,
          });
        }
        const p = pipeline;
        const name = inputs.length > 1 || input.name !== '-' ? input.name : undefined;
        p.beginFile(input.name);
        const feed = async (l: Line) => {
          p.line(l.text, { line: l.line, offset: l.offset, ...(name !== undefined ? { file: name } : {}) });
          if (out.pending >= 64 * 1024) await out.flush();
          if (err.pending) await err.flush(true);
          if (store?.due()) await store.flush();
        };
        try {
          for (const l of buffered) await feed(l);
          for await (const l of lines) await feed(l);
        } catch (e) {
          io.stderr.write(`toolnorm normalize: cannot read ${input.name}: ${(e as Error).message}\n`);
          unreadable = true;
        }
        p.endFile(input.name);
      }
      const summary = pipeline!.end();
      await store?.flush();
      await out.flush(true);
      await err.flush(true);
      bar?.done();
      if (v.summary) io.stderr.write(`${JSON.stringify(summary)}\n`);
      if (unreadable) return 1;
      return v.strict && summary.diagnostics > 0 ? 1 : 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      await out.flush(true);
      await err.flush(true);
      io.stderr.write(`toolnorm normalize: ${(e as Error).message}\n`);
      return 1;
    } finally {
      await store?.close();
    }
  },
};
