import { ADAPTER_IDS, adapterById } from '../../adapters/registry.js';
import type { OutputFormat } from '../../outputs/pipeline.js';
import { ENCODED_FORMAT_NAMES, ENCODER_OPTIONS, ENCODER_USAGE, isEncodedFormat, loadEncoder } from '../encoders.js';
import { record, type RecordOutput } from '../../record/recorder.js';
import { DEFAULT_RECORDINGS_DIR, RECORDINGS_DIR } from '../../record/raw-file.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';

const FORMATS: readonly RecordOutput[] = ['parts', 'events', 'acp', 'ui', ...ENCODED_FORMAT_NAMES, 'none'];

const USAGE = `Usage: toolnorm record [--raw FILE] [--store URL] [--to ${FORMATS.join('|')}] [options] -- COMMAND [ARGS...]

Runs an agent CLI (e.g. \`codex exec --json …\`, \`claude -p … --output-format stream-json --verbose\`,
\`opencode run --format json …\`), keeps its stdout byte for byte in a raw file, and normalizes the
same stream live, as \`toolnorm normalize\` does (the provider is told from the stream), to stdout
and/or a store. stdin and stderr pass through to the agent; SIGINT, SIGTERM and SIGHUP are
forwarded to it. \`toolnorm normalize RAWFILE\` later gives the same parts (docs/record.md).

Options:
  --raw FILE          the raw recording (never overwritten: it must not exist). Default: a new file
                      ${RECORDINGS_DIR}/<UTC time>-<program>.jsonl beside a --store sqlite:PATH, else in
                      ${DEFAULT_RECORDINGS_DIR}/ of the working directory. Its name is printed on stderr
                      (unless --quiet)
  --store URL         also append the events to a store: sqlite:PATH or postgres://…, committed
                      within 250 ms of each call's events
  --to T              stdout: ${FORMATS.join(' | ')} (default parts; none prints nothing)
  --from F            input format (default auto: from the stream's first clear line)
  --session ID        session id for streams that carry none
  --cwd DIR           session working directory for titles (pass the same to a later normalize)
  --mcp-server NAME   a known MCP server name (repeatable)
  --ui-states legacy|canonical   UI state names (default legacy)
${ENCODER_USAGE}
  --acp-terminal      --to acp for a client that announced _meta.terminal_output
  --summary           end stderr with normalize's summary line
  --quiet             print only errors on stderr: no diagnostics, no note of the raw file

Exit: the agent's status (128 + n when a signal n ended it); when the agent succeeded, 1 if the
raw file, the store or the output failed or the stream is no known format, 141 when the reader of
stdout went away (the agent keeps running and the raw file keeps recording); 2 on bad usage;
127 when COMMAND is not found.`;

export const recordCommand: Command = {
  name: 'record',
  summary: 'run an agent CLI, keep its raw output byte for byte, and normalize it live to stdout and/or a store',
  usage: USAGE,
  async run(io) {
    const split = io.argv.indexOf('--');
    if (split < 0) throw new UsageError('put the agent command after --, e.g. toolnorm record -- codex exec --json "fix the test"');
    const [command, ...args] = io.argv.slice(split + 1);
    if (command === undefined) throw new UsageError('no COMMAND after --');
    const parsed = parseCommandArgs({
      args: io.argv.slice(0, split),
      allowPositionals: false,
      options: {
        raw: { type: 'string' },
        store: { type: 'string' },
        to: { type: 'string', default: 'parts' },
        from: { type: 'string', default: 'auto' },
        session: { type: 'string' },
        cwd: { type: 'string' },
        'mcp-server': { type: 'string', multiple: true },
        'ui-states': { type: 'string', default: 'legacy' },
        'acp-terminal': { type: 'boolean', default: false },
        summary: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        ...ENCODER_OPTIONS,
      },
    });
    const v = parsed.values;
    const to = v.to as RecordOutput;
    if (!FORMATS.includes(to)) throw new UsageError(`unknown --to "${v.to}"; expected ${FORMATS.join(', ')}`);
    if (v['ui-states'] !== 'legacy' && v['ui-states'] !== 'canonical') throw new UsageError('--ui-states must be legacy or canonical');
    if (v.raw === '') throw new UsageError('--raw needs a file name');
    const from = v.from === 'auto' ? undefined : adapterById(v.from!);
    if (v.from !== 'auto' && !from) throw new UsageError(`unknown --from "${v.from}"; expected auto or one of ${ADAPTER_IDS.join(', ')}`);
    const encoder = isEncodedFormat(to) ? await loadEncoder(to, v) : undefined;
    return record({
      command,
      args,
      ...(v.raw !== undefined ? { raw: v.raw } : {}),
      ...(v.store !== undefined ? { store: v.store } : {}),
      to: to as OutputFormat | 'none',
      ...(from ? { from } : {}),
      ...(v.session !== undefined ? { sessionId: v.session } : {}),
      ...(v.cwd !== undefined ? { cwd: v.cwd } : {}),
      ...(v['mcp-server'] ? { mcpServers: v['mcp-server'] } : {}),
      uiStates: v['ui-states'] as 'legacy' | 'canonical',
      acpTerminal: v['acp-terminal']!,
      ...(encoder ? { encoder } : {}),
      quiet: v.quiet!,
      summary: v.summary!,
    }, io);
  },
};
