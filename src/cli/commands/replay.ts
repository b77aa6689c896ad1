// `toolnorm replay`: rebuilds one session from an event store through the same replayer the
// library uses (ToolRepository), and prints it as parts, events, ACP frames or UI parts: its final
// parts go through the same stream encoder `normalize` prints with (src/outputs/pipeline.ts).
import { acpVersionOption } from './acp-version.js';
import { ToolRepository } from '../../events/repository.js';
import { followSession } from '../../store/follow.js';
import type { EventStore } from '../../store/types.js';
import { LineWriter } from '../writer.js';
import { diagnosticsOf, projectParts } from '../../events/projector.js';
import { describeStoreUrl, openStore } from '../../store/open.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import { ENCODED_FORMAT_NAMES, ENCODER_OPTIONS, ENCODER_USAGE, isEncodedFormat, loadEncoder } from '../encoders.js';
import { encodeFinalParts } from '../../pipeline/encoder.js';
import { encoderFor } from '../../outputs/pipeline.js';
import { outputFailure, safeWrite } from '../output-errors.js';
import { storeError } from '../../store/errors.js';
import { watchInterrupts } from '../interrupts.js';

const FORMATS = ['parts', 'events', 'acp', 'ui', ...ENCODED_FORMAT_NAMES] as const;
type Format = (typeof FORMATS)[number];

const USAGE = `Usage: toolnorm replay [--store URL] --session ID [--to ${FORMATS.join('|')}] [options]

Rebuilds a session from an event store and prints NDJSON on stdout: its parts in first-seen
order (--to parts, the default), its stored events with their seq (--to events), ACP
session/update notifications (--to acp: a tool_call and its outcome per part), legacy UI parts
(--to ui), or the ecosystem formats (--to ai-sdk | ai-sdk-stream | ag-ui | otel; docs/outputs.md). Diagnostics of the replay (e.g. events for unknown parts) go to stderr as JSON lines.

Options:
  --store URL         sqlite:PATH or postgres://… (default sqlite:.toolnorm/events.db)
  --session ID        the session to rebuild (\`toolnorm sessions\` lists them)
  --to T              output: ${FORMATS.join(' | ')} (default parts)
  --to-seq N          stop at this seq: the session as it was then
  --from-seq N        with --to events: first seq to print (default 1)
  --follow            with --to events: keep printing events as they are appended, until a signal
  --output full|compressed   show compressed summaries where they exist (default full)
  --ui-states legacy|canonical   UI state names (default legacy)
  --acp-version 1|2   --to acp protocol version (default 1; 2 is the ACP v2 draft)
${ENCODER_USAGE}
  --quiet             do not print diagnostics
The store is opened read-only: a read-only file or directory is fine.
Exit: 0, 1 when the store cannot be read or has no such session (the message names the store and
the cause), or output cannot be written, 2 on bad usage, 141 when the reader of stdout goes away;
130, 143 or 129 after SIGINT, SIGTERM or SIGHUP (what was read is printed first; --follow ends
cleanly; a second signal exits at once).`;

function seqOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export const replayCommand: Command = {
  name: 'replay',
  summary: 'rebuild a stored session and print it as parts, events, ACP frames or UI parts',
  usage: USAGE,
  async run(io) {
    const parsed = parseCommandArgs({
      args: io.argv,
      allowPositionals: false,
      options: {
        store: { type: 'string' },
        session: { type: 'string' },
        to: { type: 'string', default: 'parts' },
        'to-seq': { type: 'string' },
        'from-seq': { type: 'string' },
        follow: { type: 'boolean', default: false },
        output: { type: 'string', default: 'full' },
        'ui-states': { type: 'string', default: 'legacy' },
        'acp-version': { type: 'string', default: '1' },
        quiet: { type: 'boolean', default: false },
        ...ENCODER_OPTIONS,
      },
    });
    const v = parsed.values;
    const to = v.to as Format;
    if (!FORMATS.includes(to)) throw new UsageError(`unknown --to "${v.to}"; expected ${FORMATS.join(', ')}`);
    if (!v.session) throw new UsageError('--session is required (`toolnorm sessions` lists the stored sessions)');
    if (v.output !== 'full' && v.output !== 'compressed') throw new UsageError('--output must be full or compressed');
    if (v['ui-states'] !== 'legacy' && v['ui-states'] !== 'canonical') throw new UsageError('--ui-states must be legacy or canonical');
    const acpVersion = acpVersionOption(v['acp-version']);
    const encoder = isEncodedFormat(to) ? await loadEncoder(to, v) : undefined;
    const toSeq = seqOption('to-seq', v['to-seq']);
    const fromSeq = seqOption('from-seq', v['from-seq']);
    if ((v.follow || fromSeq !== undefined) && to !== 'events') throw new UsageError('--follow and --from-seq apply to --to events only');

    const label = describeStoreUrl(v.store);
    let store: EventStore;
    try {
      // Never created by a reader: a mistyped path is an error, not an empty store.
      store = await openStore(v.store, { cwd: io.cwd, create: false, readOnly: true });
    } catch (e) {
      io.stderr.write(`toolnorm replay: cannot open ${storeError(label, e).message}\n`);
      return 1;
    }
    const out = new LineWriter(io.stdout);
    const err = new LineWriter(io.stderr, 0, 'stderr');
    const sessionId = v.session;
    // A stop signal ends the replay after the event being printed; what was read is written out.
    const interrupts = watchInterrupts();
    const stop = interrupts.signal;
    try {
      const head = await store.head(sessionId);
      if (head === 0 && !v.follow) {
        io.stderr.write(`toolnorm replay: no session ${sessionId} in ${label} (\`toolnorm sessions --store …\` lists them)\n`);
        return 1;
      }
      if (to === 'events') {
        await printEvents(store, sessionId, out, { fromSeq, toSeq, follow: v.follow, signal: stop });
      } else {
        const repo = new ToolRepository(store);
        // Only read here, then dropped: the replay's in-place state needs no persistent copy.
        const state = await repo.replayer.replay(sessionId, { toSeq, keepScratch: true });
        const output = v.output as 'full' | 'compressed';
        const parts = projectParts(state.state, { output });
        const factory = encoderFor(to, { output, uiStates: v['ui-states'] as 'legacy' | 'canonical', acpVersion, ...(encoder ? { encoder } : {}) });
        encodeFinalParts(factory, [[sessionId, parts]], { output: (r) => out.json(r), diagnostic: (d) => { if (!v.quiet) err.json(d); } });
        if (!v.quiet) for (const d of diagnosticsOf(state.state)) err.json(d);
      }
      await out.close();
      await err.close();
      return interrupts.exitCode(0);
    } catch (e) {
      const failed = outputFailure(e, 'replay', io.stderr);
      if (failed !== undefined) return failed;
      await out.flush(true).catch(() => {});
      safeWrite(io.stderr, `toolnorm replay: ${storeError(label, e).message}\n`);
      return 1;
    } finally {
      interrupts.dispose();
      await store.close();
    }
  },
};

async function printEvents(store: EventStore, sessionId: string, out: LineWriter, o: { fromSeq?: number; toSeq?: number; follow: boolean; signal: AbortSignal }): Promise<void> {
  if (!o.follow) {
    for await (const e of store.read(sessionId, { fromSeq: o.fromSeq, toSeq: o.toSeq })) {
      out.json(e);
      await out.flush();
      if (o.signal.aborted) break;
    }
    return;
  }
  // Until interrupted: each event is written as it comes, and a stop signal ends the follow cleanly.
  for await (const e of followSession(store, sessionId, { fromSeq: o.fromSeq, untilSeq: o.toSeq, signal: o.signal })) {
    out.json(e);
    await out.flush(true);
  }
}
