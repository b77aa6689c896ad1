// `toolnorm exec`: runs one built-in tool through the executor and prints the final part (and,
// with --events, the events that made it, ready for `toolnorm normalize --from events`).
import { lookup } from 'node:dns/promises';
import { constants as osConstants, homedir } from 'node:os';
import { resolve } from 'node:path';
import { MemoryEventStore } from '../../store/memory.js';
import { ToolExecutor, ExecutorRecordError } from '../../executor/executor.js';
import { ToolRegistry } from '../../executor/registry.js';
import { builtinTools } from '../../executor/builtins/index.js';
import { TIER_ORDER, isTier } from '../../executor/tiers.js';
import { NON_PUBLIC_CLASSES, type NonPublicClass } from '../../executor/gates/network.js';
import { LineWriter } from '../writer.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import { stdinIsPiped } from '../inputs.js';

/** Signals that cancel a running call; toolnorm then exits with 128 + the signal's number. */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const TOOL_NAMES = builtinTools().map((t) => t.name);

const USAGE = `Usage: toolnorm exec [options] TOOL 'JSON'|-

Runs one tool (${TOOL_NAMES.join(', ')}) under a session policy and prints the final
NormalizedToolPart as one JSON line on stdout. The JSON input may come on stdin instead: - or,
with no JSON argument, a piped stdin. Every step (policy assessment, start, streamed
output, file mutations, outcome) is recorded as a ToolEvent.

Options:
  --cwd DIR            session working directory (default: the current directory); relative
                       tool paths anchor here
  --root DIR           add a readable root (repeatable; default: --cwd)
  --write-root DIR     add a writable root (repeatable; default: --cwd); writable roots are readable
  --tier T             highest tier allowed: ${TIER_ORDER.join(' < ')} (default execute)
  --timeout MS         time limit of the call (default 120000)
  --events             print the call's ToolEvents on stdout (NDJSON, for
                       \`toolnorm normalize --from events\`) and the final part on stderr
  --session ID         session id of the events (default: a new one)
  --home DIR           what ~ expands to (default: $HOME)
  --allow-command R    command allow rule, a glob such as 'npm *' (repeatable)
  --deny-command R     command deny rule (repeatable)
  --allow-host H       network allow rule: host, *.domain or CIDR (repeatable); it narrows
                       and never widens: a matching name that resolves to a non-public
                       address still needs --allow-address-class
  --deny-host H        network deny rule (repeatable)
  --allow-address-class C
                       let addresses of class C through: ${NON_PUBLIC_CLASSES.join(', ')}
                       (repeatable or comma-separated)
  --allow-private      every class above except metadata (host names are resolved and every
                       address is checked)
  --allow-unsandboxed  run bash without a sandbox when bubblewrap is missing (default:
                       refuse); below the privileged tier bash runs inside bwrap
  --bwrap PATH         the bubblewrap binary (default: bwrap on PATH)
  --pass-env NAME      pass this variable of toolnorm's environment to bash (repeatable); a
                       command otherwise gets only PATH, LANG, LC_*, TERM, TZ and a HOME

Examples:
  toolnorm exec file_read '{"path":"README.md","limit":5}'
  toolnorm exec --tier observe file_write '{"path":"x.txt","content":"hi"}'     # denied, exit 3
  toolnorm exec --events bash '{"command":"npm test"}' | toolnorm normalize --from events --to acp

SIGINT, SIGTERM and SIGHUP end the command's process group, record the call as cancelled,
and exit 130, 143 and 129.

Exit: 0 when the call completed, 3 when the policy denied it, 1 when it failed, 2 on bad usage.`;

/** Bytes of JSON input read from stdin at most: a tool's input is small, a runaway pipe is not. */
const STDIN_JSON_MAX = 64 * 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > STDIN_JSON_MAX) throw new UsageError(`the JSON input on stdin is over ${STDIN_JSON_MAX / 1024 / 1024} MiB`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const execCommand: Command = {
  name: 'exec',
  summary: 'run a built-in tool (bash, file_read, file_write, file_edit, file_copy, web_fetch) under a policy, as a normalized part',
  usage: USAGE,
  async run(io) {
    const parsed = parseCommandArgs({
      args: io.argv,
      allowPositionals: true,
      options: {
        cwd: { type: 'string' },
        root: { type: 'string', multiple: true },
        'write-root': { type: 'string', multiple: true },
        tier: { type: 'string', default: 'execute' },
        timeout: { type: 'string' },
        events: { type: 'boolean', default: false },
        session: { type: 'string' },
        home: { type: 'string' },
        'allow-command': { type: 'string', multiple: true },
        'deny-command': { type: 'string', multiple: true },
        'allow-host': { type: 'string', multiple: true },
        'deny-host': { type: 'string', multiple: true },
        'allow-address-class': { type: 'string', multiple: true },
        'allow-private': { type: 'boolean', default: false },
        'allow-unsandboxed': { type: 'boolean', default: false },
        bwrap: { type: 'string' },
        'pass-env': { type: 'string', multiple: true },
      },
    });
    const v = parsed.values;
    const [toolName, jsonArg, ...extra] = parsed.positionals;
    if (toolName === undefined) throw new UsageError(`missing TOOL (one of ${TOOL_NAMES.join(', ')})`);
    // The JSON from stdin: named by -, or piped in with no JSON argument (`jq … | toolnorm exec bash`).
    const fromStdin = jsonArg === '-' || (jsonArg === undefined && TOOL_NAMES.includes(toolName) && stdinIsPiped(io.stdin));
    const piped = fromStdin ? await readAll(io.stdin) : undefined;
    if (piped !== undefined && !piped.trim()) throw new UsageError(`missing the JSON input of ${toolName}: stdin was empty`);
    const json = piped ?? jsonArg;
    if (json === undefined) throw new UsageError(`missing the JSON input of ${toolName}, e.g. '{"path":"README.md"}'`);
    if (extra.length) throw new UsageError(`unexpected arguments after the JSON input: ${extra.join(' ')}`);
    if (!TOOL_NAMES.includes(toolName)) throw new UsageError(`unknown tool "${toolName}"; expected one of ${TOOL_NAMES.join(', ')}`);
    if (!isTier(v.tier)) throw new UsageError(`unknown --tier "${v.tier}"; expected one of ${TIER_ORDER.join(', ')}`);
    const addressClasses = (v['allow-address-class'] ?? []).flatMap((c) => c.split(',')).map((c) => c.trim());
    const badClass = addressClasses.find((c) => !(NON_PUBLIC_CLASSES as readonly string[]).includes(c));
    if (badClass !== undefined) throw new UsageError(`unknown --allow-address-class "${badClass}"; expected one of ${NON_PUBLIC_CLASSES.join(', ')}`);
    let timeoutMs: number | undefined;
    if (v.timeout !== undefined) {
      timeoutMs = Number(v.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout must be a positive whole number of milliseconds, got "${v.timeout}"`);
    }
    for (const name of v['pass-env'] ?? []) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--pass-env "${name}" is not an environment variable name (letters, digits and _, not starting with a digit)`);
    }
    let input: unknown;
    try {
      input = JSON.parse(json);
    } catch (err) {
      throw new UsageError(`the input of ${toolName} is not JSON: ${(err as Error).message}`);
    }

    const cwd = resolve(io.cwd, v.cwd ?? '.');
    const home = resolve(io.cwd, v.home ?? io.env.HOME ?? homedir());
    const abs = (dirs: string[] | undefined) => dirs?.map((d) => resolve(io.cwd, d));
    const executor = new ToolExecutor({
      registry: new ToolRegistry(builtinTools()),
      store: new MemoryEventStore(),
      ...(v.session ? { sessionId: v.session } : {}),
      cwd,
      home,
      policy: {
        maxTier: v.tier,
        readRoots: abs(v.root),
        writeRoots: abs(v['write-root']),
        sandbox: { whenUnavailable: v['allow-unsandboxed'] ? 'unsandboxed' : 'refuse', ...(v.bwrap ? { bwrap: resolve(io.cwd, v.bwrap) } : {}), env: v['pass-env'] ?? [] },
        commands: { allow: v['allow-command'] ?? [], deny: v['deny-command'] ?? [] },
        // Names are resolved, and every address judged: a name pointing at 127.0.0.1 is caught, and
        // web_fetch connects to an address that was checked.
        network: {
          allowHosts: v['allow-host'] ?? [], denyHosts: v['deny-host'] ?? [], allowPrivate: v['allow-private'],
          allowAddressClasses: addressClasses as NonPublicClass[],
          resolveHost: async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
        },
      },
    });

    const out = new LineWriter(io.stdout);
    const err = new LineWriter(io.stderr, 0);
    // SIGINT, SIGTERM and SIGHUP cancel the call instead of killing toolnorm mid-record: the
    // command's whole process group is ended (at every tier, privileged included), the call is
    // recorded as `cancelled`, and toolnorm exits as a shell would for that signal (128 + its
    // number). Later signals during the bounded wind-down are absorbed, not fatal.
    const cancel = new AbortController();
    let caught: NodeJS.Signals | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (caught) return;
      caught = signal;
      cancel.abort(new Error(`interrupted by ${signal}`));
    };
    for (const s of CANCEL_SIGNALS) process.on(s, onSignal);
    const exitCode = (code: number) => (caught ? 128 + osConstants.signals[caught] : code);
    try {
      const result = await executor.execute({ tool: toolName, input, signal: cancel.signal, ...(timeoutMs ? { timeoutMs } : {}) });
      if (v.events) {
        for (const e of result.events) out.json(e);
        err.json(result.part);
      } else {
        out.json(result.part);
      }
      for (const d of result.diagnostics) err.json(d);
      await out.flush(true);
      await err.flush(true);
      if (result.part.state === 'complete') return exitCode(0);
      if (result.part.state === 'error') {
        io.stderr.write(`toolnorm exec: ${result.part.error.message.split('\n', 1)[0]}\n`);
        return exitCode(result.part.error.code === 'denied' ? 3 : 1);
      }
      return exitCode(1);
    } catch (e) {
      await out.flush(true);
      await err.flush(true);
      const why = e instanceof ExecutorRecordError ? e.message : `the executor failed: ${(e as Error).message}`;
      io.stderr.write(`toolnorm exec: ${why}\n`);
      return exitCode(1);
    } finally {
      for (const s of CANCEL_SIGNALS) process.removeListener(s, onSignal);
    }
  },
};
