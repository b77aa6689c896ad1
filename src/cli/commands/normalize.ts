import { join, resolve } from 'node:path';
import { ADAPTERS, ADAPTER_IDS, adapterById } from '../../adapters/registry.js';
import type { AdapterDefinition } from '../../adapters/types.js';
import { NormalizePipeline, type OutputFormat, type ValidateMode } from '../../outputs/pipeline.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../pipeline/lines.js';
import { outputFailure, safeWrite } from '../output-errors.js';
import { resolveInputs, type Input } from '../inputs.js';
import { runNormalize } from '../normalize-run.js';
import { watchInterrupts } from '../interrupts.js';
import { LineWriter } from '../writer.js';
import { progressBar } from '../progress.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import { acpVersionOption } from './acp-version.js';
import type { StoreSink } from '../../store/sink.js';
import { packageRoot } from '../package-root.js';
import { ENCODED_FORMAT_NAMES, ENCODER_OPTIONS, ENCODER_USAGE, isEncodedFormat, loadEncoder } from '../encoders.js';
import { bulkUnits, jobsOption, runBulk, type BulkUnit } from '../bulk.js';

const FORMATS: readonly OutputFormat[] = ['parts', 'events', 'acp', 'ui', ...ENCODED_FORMAT_NAMES];

/** The recorded session `toolnorm normalize` runs on when given no input. */
export const DEMO_INPUT = join(packageRoot(), 'fixtures/demo/claude-streamjson-all-tools.jsonl');

const USAGE = `Usage: toolnorm normalize [--from auto|${ADAPTER_IDS.join('|')}] [--to ${FORMATS.join('|')}] [options] [FILE...|-]

Reads provider recordings (files, directories or - for stdin) line by line and prints NDJSON on
stdout: final parts (--to parts, the default), ToolEvents, ACP session/update notifications,
legacy UI parts, AI SDK 6 tool parts or UI message chunks, AG-UI 1.0 events, or OTLP/JSON trace
requests (docs/outputs.md). Diagnostics go to stderr as JSON lines. With no FILE, stdin is read; only when
stdin is a terminal is a recorded Claude Code session shipped with toolnorm normalized instead
(a one-line note on stderr says so).

Options:
  --from F            input format (default auto: told for each file, and for stdin, from its
                      first lines, so one run can mix providers). In a directory, a file that is
                      no known format is skipped with one not_a_recording diagnostic
  --to T              output: ${FORMATS.join(' | ')} (default parts)
  --summary           end stderr with one JSON line: inputLines = eventLines + noToolDataLines +
                      diagnosticLines, then events, parts, byKind, byState, diagnostics,
                      malformedLines, invalidEvents
  --strict            exit 1 when there is any diagnostic (e.g. unrecognized_input: no line of a
                      file was the --from format)
  --session ID        session id for inputs that carry none
  --cwd DIR           session working directory for titles, when the input does not say
                      (OpenCode: else the directory of an export beside the recording)
  --mcp-server NAME   a known MCP server name (repeatable), to split <server>_<tool> names
                      (OpenCode: else the servers of an opencode.json(c) beside the recording)
  --clock none|zero|wall   time for lines without a timestamp: none (default: such events have no
                      \`at\` and their parts no invented timing), 0, or the wall clock
  --max-line-bytes N  skip longer lines unread, each with a line_too_large diagnostic (default
                      128MiB; suffixes KiB, MiB, GiB)
  --output full|compressed   full outputs (default), or compress big outputs with the default specs
                      (Claude Bash 30,000 bytes middle cut; Codex 10,000 tokens half/half) and show
                      the compressed text; the original stays in the events (--to events, --store)
  --ui-states legacy|canonical   UI state names (default legacy)
${ENCODER_USAGE}
  --acp-terminal      --to acp for a client that announced _meta.terminal_output: commands show
                      as display-only terminals, output in _meta.terminal_output (sent once)
  --acp-version 1|2   --to acp protocol version (default 1; 2 is the ACP v2 draft)
  --store URL         also append the events to a store: sqlite:PATH or postgres://…
  --jobs N            normalize each recording of a directory or many files as its own run (with
                      the folder named after it: its subagents), on N threads; the output is in
                      input order and the same for every N. Without --jobs every file goes
                      through one stream, where files of one session in several places meet. stdin, pipes and the encoded formats (${ENCODED_FORMAT_NAMES.join(', ')})
                      are read as one stream
  --validate boundary|all   check events against the contract where they cross a trust boundary
                      (default boundary: --from events lines and adapters not toolnorm's own),
                      or every event (all: toolnorm's own adapters too; about 10% slower). What
                      is printed is checked at the output's edge either way
  --quiet             print only errors on stderr: no diagnostics (they are still counted, and
                      --summary still prints), no progress bar, no demo note

Parts are printed once each, in their final state: a part is printed when it has been final for
a while (64 events), and parts still open at the end of input are printed last.
Live input (a pipe, a FIFO, a socket, a terminal; not a regular file): each record is written as
soon as the input waits for its next line, and --store commits at least every 250 ms, so a
follower (\`replay --follow\`, \`view --serve --follow\`) sees the session as it runs (docs/live.md).
SIGINT, SIGTERM or SIGHUP: the line being read is finished, what it produced is written (parts
still open with their last state), the store's pending batch is committed and --summary printed;
then exit 130, 143 or 129. A second signal exits at once.
Exit: 0; 1 when a named input is unreadable or no known format, an adapter made events that
break the contract (invalid_event: they were dropped, so the output is short of the input), the store fails, output cannot be
written (e.g. a full disk) or --strict finds diagnostics; 2 on bad usage; 141 when the reader of
stdout goes away (e.g. | head), quietly, as for SIGPIPE; 129, 130, 143 after a signal.`;

function fixedAdapter(from: string): AdapterDefinition | undefined {
  if (from === 'auto') return undefined;
  const a = adapterById(from);
  if (!a) throw new UsageError(`unknown --from "${from}"; expected auto or one of ${ADAPTER_IDS.join(', ')}`);
  return a;
}

const SIZE = /^(\d+)\s*(k|ki|kib|m|mi|mib|g|gi|gib)?$/i;
const UNIT: Record<string, number> = { '': 1, k: 1024, ki: 1024, kib: 1024, m: 1024 ** 2, mi: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gi: 1024 ** 3, gib: 1024 ** 3 };

function byteSize(flag: string, text: string): number {
  const m = SIZE.exec(text.trim());
  const n = m ? Number(m[1]) * UNIT[(m[2] ?? '').toLowerCase()]! : NaN;
  // V8 cannot hold a string of more than ~512 Mi characters: a longer line could never be read.
  if (!Number.isSafeInteger(n) || n < 1 || n > 512 * 1024 ** 2) throw new UsageError(`--${flag} must be a size from 1 byte to 512MiB (e.g. 1048576, 64MiB), got "${text}"`);
  return n;
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
        clock: { type: 'string', default: 'none' },
        output: { type: 'string', default: 'full' },
        'ui-states': { type: 'string', default: 'legacy' },
        'acp-terminal': { type: 'boolean', default: false },
        'acp-version': { type: 'string', default: '1' },
        store: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        validate: { type: 'string', default: 'boundary' },
        jobs: { type: 'string' },
        'max-line-bytes': { type: 'string' },
        ...ENCODER_OPTIONS,
      },
    });
    const v = parsed.values;
    const to = v.to as OutputFormat;
    if (!FORMATS.includes(to)) throw new UsageError(`unknown --to "${v.to}"; expected ${FORMATS.join(', ')}`);
    if (v.clock !== 'none' && v.clock !== 'zero' && v.clock !== 'wall') throw new UsageError('--clock must be none, zero or wall');
    if (v.output !== 'full' && v.output !== 'compressed') throw new UsageError('--output must be full or compressed');
    if (v['ui-states'] !== 'legacy' && v['ui-states'] !== 'canonical') throw new UsageError('--ui-states must be legacy or canonical');
    if (v.validate !== 'boundary' && v.validate !== 'all') throw new UsageError(`--validate must be boundary or all, got "${v.validate}"`);
    const acpVersion = acpVersionOption(v['acp-version']);
    const jobs = jobsOption(v.jobs);
    // Set when this run is one unit of a bulk run (bulk.ts): its files, its summary, its store turn.
    const unit = (io as { unit?: BulkUnit }).unit;

    const encoder = isEncodedFormat(to) ? await loadEncoder(to, v) : undefined;

    const fixed = fixedAdapter(v.from!);
    const maxLineBytes = v['max-line-bytes'] === undefined ? DEFAULT_MAX_LINE_BYTES : byteSize('max-line-bytes', v['max-line-bytes']);

    // No FILE: stdin when something is piped in; the demo only for a person at a terminal.
    const demo = !parsed.positionals.length && (io.stdin as { isTTY?: boolean }).isTTY === true;
    const positionals = parsed.positionals.length ? parsed.positionals : demo ? [DEMO_INPUT] : ['-'];
    // The demo's output looks like a real run's: a person must not take it for their own session.
    if (demo && !v.quiet) io.stderr.write('toolnorm normalize: demo: no FILE and stdin is a terminal, so this is a recorded Claude Code session shipped with toolnorm (name a FILE or pipe a recording in)\n');
    let inputs: Input[];
    try {
      inputs = unit?.inputs ?? resolveInputs(positionals, io.cwd, io.stdin);
    } catch (err) {
      io.stderr.write(`toolnorm normalize: ${(err as Error).message}\n`);
      return 1;
    }
    if (inputs.length === 0) {
      io.stderr.write('toolnorm normalize: no input files found\n');
      return 1;
    }

    const out = new LineWriter(io.stdout);
    const err = new LineWriter(io.stderr, 0, 'stderr');
    let store: StoreSink | undefined;
    if (v.store) {
      try {
        // Loaded only when asked for, like the compressor below: a plain run does not pay for them.
        const { openStoreSink } = await import('../../store/sink.js');
        store = await openStoreSink(v.store, io.cwd, { eventsChecked: v.validate === 'all' });
        if (unit?.store) store = unit.store(store);
      } catch (e) {
        io.stderr.write(`toolnorm normalize: cannot open ${(e as Error).message}\n`);
        return 1;
      }
    }
    // Many files: each unit runs this command again with its own files (bulk.ts); the store was
    // opened above only to report a bad one once.
    // Only when asked (`--jobs`): without it, every file goes through one stream, where files of
    // one session (a session exported in two forms, subagent transcripts beside their parent in
    // older Claude layouts) still meet; per-recording runs cannot know about each other.
    const units = unit || isEncodedFormat(to) || v.jobs === undefined ? undefined : bulkUnits(inputs, io.cwd);
    if (units) {
      await store?.close();
      return runBulk({ io, units, jobs, summary: v.summary!, strict: v.strict!, quiet: v.quiet! });
    }
    const compressor = v.output === 'compressed' ? new (await import('../../compress/index.js')).DeclarativeCompressor() : undefined;
    let neighboursRead = false;
    const opencodeNeighbours = async (): Promise<{ cwd?: string; mcpServers?: string[] }> => {
      if (v['mcp-server'] && v.cwd) return {};
      const { readNeighbours } = await import('../../adapters/opencode/neighbours.js');
      const n = readNeighbours(inputs.filter((i) => i.name !== '-').map((i) => resolve(io.cwd, i.name)));
      return { ...(v.cwd === undefined && n.cwd ? { cwd: n.cwd } : {}), ...(!v['mcp-server'] && n.mcpServers.length ? { mcpServers: n.mcpServers } : {}) };
    };
    // Under --from opencode the adapter is made with the pipeline, so its neighbours come first.
    const fixedNeighbours = fixed?.id === 'opencode' ? ((neighboursRead = true), await opencodeNeighbours()) : {};
    const pipeline = new NormalizePipeline(fixed ?? ADAPTERS[0]!, {
      to,
      sessionId: v.session,
      cwd: v.cwd,
      mcpServers: v['mcp-server'],
      ...fixedNeighbours,
      // Only an explicit --clock supplies times the input does not carry.
      ...(v.clock === 'wall' ? { clock: Date.now } : v.clock === 'zero' ? { clock: () => 0 } : {}),
      output: v.output as 'full' | 'compressed',
      uiStates: v['ui-states'] as 'legacy' | 'canonical',
      acpTerminal: v['acp-terminal'],
      acpVersion,
      validate: v.validate as ValidateMode,
      ...(compressor ? { compressor } : {}),
      ...(encoder ? { encoder } : {}),
    }, {
      output: (r) => out.json(r),
      diagnostic: (d) => { if (!v.quiet) err.json(d); },
      event: store ? (e) => store!.add(e) : undefined,
    });
    const total = inputs.reduce((n, i) => n + (i.size ?? 0), 0);
    // --quiet leaves only errors on stderr: no diagnostics, no progress bar, no notes.
    const bar = v.quiet || unit ? undefined : progressBar(io.stderr, total);
    const interrupts = watchInterrupts();
    try {
      const run = await runNormalize({
        inputs,
        pipeline,
        out,
        err,
        stderr: io.stderr,
        command: 'normalize',
        store,
        fixed,
        maxLineBytes,
        signal: unit?.signal ?? interrupts.signal,
        ...(bar ? { onBytes: (n: number) => bar.add(n) } : {}),
        // OpenCode run JSON names neither its MCP servers nor its directory: the config and
        // exports beside the recordings do. The options, when given, win. Read once, before the
        // OpenCode adapter is made (it takes its options when created).
        beforeAdapter: async (adapter) => {
          if (adapter.id === 'opencode' && !neighboursRead) {
            neighboursRead = true;
            pipeline.configureAdapter('opencode', await opencodeNeighbours());
          }
        },
      });
      bar?.done();
      if (unit) unit.summary = run.summary;
      else if (v.summary) io.stderr.write(`${JSON.stringify(run.summary)}\n`);
      if (run.stopped || interrupts.received) return interrupts.exitCode(1);
      // Dropped invalid events mean parts missing from the output: a run that lost them did not do its job.
      if (run.failedInput || run.summary.invalidEvents > 0) return 1;
      return v.strict && run.summary.diagnostics > 0 ? 1 : 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const failed = outputFailure(e, 'normalize', io.stderr);
      if (failed !== undefined) return failed;
      await out.flush(true).catch(() => {});
      await err.flush(true).catch(() => {});
      safeWrite(io.stderr, `toolnorm normalize: ${(e as Error).message}\n`);
      return 1;
    } finally {
      interrupts.dispose();
      try {
        await store?.close();
      } catch (e) {
        safeWrite(io.stderr, `toolnorm normalize: ${(e as Error).message}\n`);
      }
    }
  },
};
