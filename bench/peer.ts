// `npm run bench -- peer [--mb N] [--rounds N] [--input corpus|all-tools] [--terminal] [--floor] [--layers]`: toolnorm against the most used
// Claude→ACP converter, @agentclientprotocol/claude-agent-acp (exact-pinned devDependency), on the
// same generated Claude input as `npm run bench -- claude` (≥N MB, default 100; `--mb 1024` for 1 GB).
//
// Each measurement is its own process, and rounds alternate the two sides:
//   toolnorm  the whole CLI process, `node dist/src/cli/main.js normalize --from claude --to acp FILE`
//             with stdout to a file: start-up, module loading, reading, converting and writing all
//             count. A preloaded exit hook (bench/_report-usage.mjs) reports its CPU time and peak RSS.
//   peer      a child that has already imported the peer (not timed), then reads the same file line
//             by line, JSON.parses each line, hands it to the peer's own conversion functions the way
//             its agent loop does (acp-agent.js, `prompt`), and JSON.stringifies every notification it
//             returns (what its connection would send). Timed from the first read to the last write.
// How the peer is driven, from its agent loop:
//   - per session id (one state per session, as the agent keeps it per ACP session): toolUseCache {},
//     emittedToolCalls Set, toolCallFields ToolCallFieldTracker, taskState Map, streamedToolInputs
//     Map, and cwd from the session's init line;
//   - `stream_event` lines → streamEventToAcpNotifications(message, …);
//   - `assistant`/`user` lines → toAcpNotifications(message.message.content, role, …) with
//     parentToolUseId, toolUseResult (tool_use_result; transcripts call it toolUseResult) and
//     toolResultMeta, and `registerHooks: false` (offline there is no PostToolUse hook; with hooks on,
//     every tool would keep a 30 s timer waiting for one). Like the agent, text/thinking blocks of an
//     assistant message whose text already streamed as deltas are not converted again;
//   - client capabilities: none by default; `--terminal` announces `_meta.terminal_output`, and
//     toolnorm then runs with `--acp-terminal`, so both send terminal content.
//   floor     (--floor) the contract's share alone, in process like the peer: read the same lines and
//             JSON.parse each, validate every event toolnorm's adapter emits on this input and every
//             frame it sends (both collected by a toolnorm run before the rounds, parsed before the
//             clock starts), JSON.stringify every frame in its JSON-RPC envelope and write it to a
//             file. No adapter, reducer or encoder, and no start-up: what any converter that keeps
//             toolnorm's two boundary checks pays on this input, as a lower bound.
//   layers    (--layers) toolnorm's run cut at each stage, each cut a whole process like the CLI side
//             (bench/_layer.mjs): the CLI on an empty file (start-up alone), then read + JSON.parse,
//             + the Claude adapter, + contract checks and reducer, + the ACP encoder and frame
//             checks; the CLI side adds serializing and writing. Each is set against the time 1.0×
//             the peer's throughput leaves, in the same round: where the budget runs out.
// Bytes out count tool frames only (`tool_call` and `tool_call_update`), as the UTF-8 length of the
// `{sessionId, update}` params, without the JSON-RPC envelope, for both sides.
// Figures: medians over the rounds with [min–max]; throughput by wall clock and by CPU time
// (user + system of every thread, which other load on a shared machine moves less).
import { spawn, fork } from 'node:child_process';
import { createReadStream, mkdirSync, rmSync, openSync, closeSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { claudeInput, sourceArg } from './claude.js';
import { fmt, median } from './_measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(ROOT, 'bench', '.data', 'peer-out');
const TOOL_FRAME = /"sessionUpdate":"tool_call(?:_update)?"/;
/** Issue 34's goal: toolnorm's whole process at least as fast as the peer's in-process conversion. */
const GOAL = 1.0;
const ENVELOPE_HEAD = '{"jsonrpc":"2.0","method":"session/update","params":';

interface Result { side: 'toolnorm' | 'peer' | 'floor'; seconds: number; cpuSeconds: number; maxRssMb: number; toolFrames: number; toolBytes: number; allBytes: number; phases?: Record<string, number> }

type Obj = Record<string, unknown>;

/** Tool frames and their params bytes in an NDJSON file of ACP notifications. */
async function countToolFrames(file: string): Promise<{ toolFrames: number; toolBytes: number; allBytes: number }> {
  let toolFrames = 0;
  let toolBytes = 0;
  let allBytes = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    const bytes = Buffer.byteLength(line);
    allBytes += bytes;
    if (!TOOL_FRAME.test(line)) continue;
    toolFrames++;
    // The params alone: the envelope's head and its closing brace are not part of a frame.
    toolBytes += line.startsWith(ENVELOPE_HEAD) ? bytes - ENVELOPE_HEAD.length - 1 : bytes;
  }
  return { toolFrames, toolBytes, allBytes };
}

interface Measured { seconds: number; cpuSeconds: number; maxRssMb: number }

/**
 * `node --import bench/_report-usage.mjs ARGS` as a whole process, stdout to `stdout` (a file
 * descriptor, or ignored): wall time from spawn to exit, and the CPU time and peak RSS it reports.
 */
function measured(name: string, args: string[], stdout: number | 'ignore'): Promise<Measured> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', join(ROOT, 'bench', '_report-usage.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', stdout, 'inherit', 'pipe'] });
    let report = '';
    proc.stdio[3]!.on('data', (d: Buffer) => { report += d.toString(); });
    proc.once('error', reject);
    proc.once('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`${name} exited with ${code}`));
      resolve({ seconds, ...(JSON.parse(report) as { cpuSeconds: number; maxRssMb: number }) });
    });
  });
}

async function runToolnorm(file: string, terminal: boolean, round: number): Promise<Result> {
  mkdirSync(OUT_DIR, { recursive: true });
  const outFile = join(OUT_DIR, `toolnorm-${round}.acp.jsonl`);
  const fd = openSync(outFile, 'w');
  let usage: Measured;
  try {
    usage = await measured('toolnorm', [join(ROOT, 'dist/src/cli/main.js'), 'normalize', '--from', 'claude', '--to', 'acp', '--quiet', ...(terminal ? ['--acp-terminal'] : []), file], fd);
  } finally {
    closeSync(fd);
  }
  const counts = await countToolFrames(outFile);
  rmSync(outFile, { force: true });
  return { side: 'toolnorm', ...usage, ...counts };
}

/** A child process of this file (`--peer-child` or `--floor-child`) that sends back one Result. */
function forkChild(args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), args, { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    proc.once('message', (m) => resolve(m as Result));
    proc.once('error', reject);
    proc.once('exit', (code) => { if (code) reject(new Error(`${args[0]} exited with ${code}`)); });
  });
}

const runPeer = (file: string, terminal: boolean) => forkChild(['--peer-child', file, terminal ? 'terminal' : 'plain']);

interface PeerSession {
  toolUseCache: Obj;
  emittedToolCalls: Set<string>;
  toolCallFields: unknown;
  taskState: Map<unknown, unknown>;
  streamedToolInputs: Map<unknown, unknown>;
  cwd?: string;
  /** parent_tool_use_id ('' for the top level) whose text streamed since its last assistant message. */
  streamedText: Set<string>;
}

async function peerChild(file: string, terminal: boolean): Promise<void> {
  const peer = await import('@agentclientprotocol/claude-agent-acp');
  const { ToolCallFieldTracker } = (await import('@agentclientprotocol/claude-agent-acp/dist/tool-calls/field-tracker.js' as string)) as { ToolCallFieldTracker: new () => unknown };
  const toAcp = peer.toAcpNotifications as unknown as (...a: unknown[]) => { update: { sessionUpdate: string } }[];
  const fromStream = peer.streamEventToAcpNotifications as unknown as (...a: unknown[]) => { update: { sessionUpdate: string } }[];
  const clientCapabilities = terminal ? { _meta: { terminal_output: true } } : {};
  const client = { sessionUpdate: async () => {}, requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) };
  const logger = { log: () => {}, error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
  const sessions = new Map<string, PeerSession>();
  const sessionOf = (id: string): PeerSession => {
    let s = sessions.get(id);
    if (!s) {
      s = { toolUseCache: {}, emittedToolCalls: new Set(), toolCallFields: new ToolCallFieldTracker(), taskState: new Map(), streamedToolInputs: new Map(), streamedText: new Set() };
      sessions.set(id, s);
    }
    return s;
  };
  let toolFrames = 0;
  let toolBytes = 0;
  let allBytes = 0;
  const send = (notes: { update: { sessionUpdate: string } }[]) => {
    for (const n of notes) {
      const text = JSON.stringify(n);
      const bytes = Buffer.byteLength(text);
      allBytes += bytes;
      if (n.update.sessionUpdate === 'tool_call' || n.update.sessionUpdate === 'tool_call_update') { toolFrames++; toolBytes += bytes; }
    }
  };
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for await (const line of createInterface({ input: createReadStream(file, { highWaterMark: 1024 * 1024 }), crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    let m: Obj;
    try { m = JSON.parse(line) as Obj; } catch { continue; }
    const sessionId = String(m.session_id ?? m.sessionId ?? 'session');
    const s = sessionOf(sessionId);
    if (m.type === 'system' && typeof m.cwd === 'string') { s.cwd = m.cwd; continue; }
    if (typeof m.cwd === 'string' && !s.cwd) s.cwd = m.cwd;
    const parent = typeof m.parent_tool_use_id === 'string' ? m.parent_tool_use_id : null;
    if (m.type === 'stream_event') {
      const ev = m.event as Obj | undefined;
      const delta = ev?.delta as Obj | undefined;
      if (ev?.type === 'content_block_delta' && (delta?.type === 'text_delta' || delta?.type === 'thinking_delta')) s.streamedText.add(parent ?? '');
      send(fromStream(m, sessionId, s.toolUseCache, client, logger, { clientCapabilities, cwd: s.cwd, taskState: s.taskState, emittedToolCalls: s.emittedToolCalls, toolCallFields: s.toolCallFields, streamedToolInputs: s.streamedToolInputs }));
      continue;
    }
    if (m.type !== 'assistant' && m.type !== 'user') continue;
    const message = m.message as Obj | undefined;
    if (!message || (typeof message.content !== 'string' && !Array.isArray(message.content))) continue;
    let content = message.content as unknown[] | string;
    if (m.type === 'assistant' && Array.isArray(content) && s.streamedText.delete(parent ?? '')) {
      content = content.filter((b) => (b as Obj).type !== 'text' && (b as Obj).type !== 'thinking');
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    send(toAcp(content, role, sessionId, s.toolUseCache, client, logger, {
      registerHooks: false, clientCapabilities, parentToolUseId: parent, cwd: s.cwd, taskState: s.taskState,
      emittedToolCalls: s.emittedToolCalls, toolCallFields: s.toolCallFields, messageId: typeof message.id === 'string' ? message.id : undefined,
      toolUseResult: m.type === 'user' ? (m.tool_use_result ?? m.toolUseResult) : undefined,
      toolResultMeta: m.type === 'user' ? m.tool_result_meta : undefined,
    }));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const result: Result = { side: 'peer', seconds, cpuSeconds: (used.user + used.system) / 1e6, maxRssMb: process.resourceUsage().maxRSS / 1024, toolFrames, toolBytes, allBytes };
  process.send!(result);
}

/** toolnorm's own events and frames for `file`, written once beside the other bench data. */
async function collectForFloor(file: string): Promise<{ events: string; frames: string }> {
  mkdirSync(OUT_DIR, { recursive: true });
  const events = join(OUT_DIR, 'floor-events.jsonl');
  const frames = join(OUT_DIR, 'floor-frames.jsonl');
  for (const [to, out] of [['events', events], ['acp', frames]] as const) {
    const fd = openSync(out, 'w');
    await new Promise<void>((resolve, reject) => {
      const proc = spawn(process.execPath, [join(ROOT, 'dist/src/cli/main.js'), 'normalize', '--from', 'claude', '--to', to, '--quiet', file], { cwd: ROOT, stdio: ['ignore', fd, 'inherit'] });
      proc.once('error', reject);
      proc.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`toolnorm --to ${to} exited with ${code}`))));
    });
    closeSync(fd);
  }
  return { events, frames };
}

async function readJsonLines(file: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const line of createInterface({ input: createReadStream(file, { highWaterMark: 1024 * 1024 }), crlfDelay: Infinity })) if (line) out.push(JSON.parse(line));
  return out;
}

async function floorChild(file: string, eventsFile: string, framesFile: string): Promise<void> {
  const contract = await import(pathToFileURL(join(ROOT, 'dist/src/contract/index.js')).href) as typeof import('../src/contract/index.js');
  const core = await import(pathToFileURL(join(ROOT, 'dist/src/index.js')).href) as typeof import('../src/index.js');
  const events = await readJsonLines(eventsFile);
  // The envelope is what toolnorm writes; the check is on the params, as in the pipeline.
  const frames = (await readJsonLines(framesFile)).map((f) => (f as { params: unknown }).params);
  const outFile = join(OUT_DIR, 'floor-out.jsonl');
  const fd = openSync(outFile, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = () => { writeSync(fd, pending.join('')); pending = []; pendingBytes = 0; };
  let toolFrames = 0;
  let toolBytes = 0;
  let allBytes = 0;
  let invalid = 0;
  // Main-thread GC pauses during the clock: the collected records stay in memory (2–3.5× the input),
  // which a streaming converter would not hold, so the report shows what collecting cost here.
  let gcMs = 0;
  const gcObserver = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcMs += e.duration; });
  gcObserver.observe({ entryTypes: ['gc'] });
  const phases: Record<string, number> = {};
  let mark = process.cpuUsage();
  const phase = (name: string) => { const u = process.cpuUsage(mark); phases[name] = (u.user + u.system) / 1e6; mark = process.cpuUsage(); };
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let keys = 0;
  // toolnorm's own line reader, the fastest here (readline costs about 0.7 s more per 100 MB).
  for await (const { text } of core.readLines(createReadStream(file, { highWaterMark: 1024 * 1024 }))) {
    if (!text.trim()) continue;
    try { keys += Object.keys(JSON.parse(text) as object).length; } catch { /* a malformed line costs its failed parse, as in toolnorm */ }
  }
  phase('read and JSON.parse');
  for (const e of events) if (contract.issuesOfToolEvent(e).length) invalid++;
  phase('event checks');
  for (const f of frames) if (contract.issuesOfAcpSessionUpdateParams(f).length) invalid++;
  phase('frame checks');
  for (const f of frames) {
    const params = JSON.stringify(f);
    const text = `${ENVELOPE_HEAD}${params}}\n`;
    // Counted once per frame, from the params alone: the envelope adds a fixed number of bytes.
    const bytes = Buffer.byteLength(params);
    allBytes += bytes + ENVELOPE_HEAD.length + 1;
    const kind = (f as { update: { sessionUpdate: string } }).update.sessionUpdate;
    if (kind === 'tool_call' || kind === 'tool_call_update') { toolFrames++; toolBytes += bytes; }
    pending.push(text);
    pendingBytes += text.length;
    if (pendingBytes >= 1 << 20) flush();
  }
  flush();
  closeSync(fd);
  phase('stringify and write');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  await new Promise((r) => setTimeout(r, 50));
  gcObserver.disconnect();
  phases['main-thread GC pauses (within the above)'] = gcMs / 1000;
  rmSync(outFile, { force: true });
  if (invalid || keys === 0) throw new Error(`floor: ${invalid} invalid records, ${keys} keys parsed`);
  process.send!({ side: 'floor', seconds, cpuSeconds: (used.user + used.system) / 1e6, maxRssMb: process.resourceUsage().maxRSS / 1024, toolFrames, toolBytes, allBytes, phases } satisfies Result);
}

const runFloor = (file: string, inputs: { events: string; frames: string }) => forkChild(['--floor-child', file, inputs.events, inputs.frames]);

/** The cuts of `--layers`, in order; each does what the one before does plus one stage. */
const LAYERS = [
  { id: 'start-up', label: 'start-up: the CLI on an empty file' },
  { id: 'parse', label: '+ read and JSON.parse every line' },
  { id: 'adapter', label: '+ the Claude adapter (events dropped)' },
  { id: 'events', label: '+ event checks and the reducer' },
  { id: 'acp', label: '+ the ACP encoder and frame checks' },
] as const;

type LayerResult = Measured;

function runLayer(layer: (typeof LAYERS)[number]['id'], file: string): Promise<LayerResult> {
  if (layer !== 'start-up') return measured(`layer ${layer}`, [join(ROOT, 'bench', '_layer.mjs'), layer, file], 'ignore');
  const empty = join(OUT_DIR, 'empty.jsonl');
  mkdirSync(OUT_DIR, { recursive: true });
  closeSync(openSync(empty, 'w'));
  return measured('layer start-up', [join(ROOT, 'dist/src/cli/main.js'), 'normalize', '--from', 'claude', '--to', 'acp', '--quiet', empty], 'ignore');
}

const range = (xs: number[], d = 2) => `${fmt(median(xs), d)} [${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)}]`;

export async function run(args: string[]): Promise<void> {
  const mbArg = args.indexOf('--mb');
  const mb = mbArg >= 0 ? Number(args[mbArg + 1]) : 100;
  const roundsArg = args.indexOf('--rounds');
  const rounds = roundsArg >= 0 ? Math.max(1, Number(args[roundsArg + 1])) : 5;
  const terminal = args.includes('--terminal');
  const withFloor = args.includes('--floor');
  const withLayers = args.includes('--layers');
  const source = sourceArg(args);
  const { file, bytes } = await claudeInput(mb, source === 'all-tools', source);
  const inMb = bytes / 1e6;
  console.log(`input: ${fmt(inMb)} MB of Claude Code sessions (${source === 'all-tools' ? 'the all-tools capture repeated, a session per copy' : 'corpus copies'}) → ${file.slice(file.indexOf('bench/'))}; client ${terminal ? 'announces _meta.terminal_output (toolnorm --acp-terminal)' : 'announces no terminal support'}`);
  if ((withFloor || withLayers) && terminal) throw new Error('--floor and --layers measure the plain run; leave out --terminal');
  const floorInputs = withFloor ? await collectForFloor(file) : undefined;
  const tn: Result[] = [];
  const pr: Result[] = [];
  const fl: Result[] = [];
  const layers = new Map<string, LayerResult[]>(LAYERS.map((l) => [l.id, []]));
  for (let r = 0; r < rounds; r++) {
    // Alternate which side goes first, so neither always runs after the other's page-cache warm-up.
    const pair = r % 2 === 0 ? [() => runToolnorm(file, terminal, r), () => runPeer(file, terminal)] : [() => runPeer(file, terminal), () => runToolnorm(file, terminal, r)];
    if (floorInputs) pair.splice(r % 3, 0, () => runFloor(file, floorInputs));
    for (const f of pair) {
      const res = await f();
      (res.side === 'toolnorm' ? tn : res.side === 'peer' ? pr : fl).push(res);
    }
    if (withLayers) {
      // Rotated, so no cut always runs first (or right after the peer) in its round.
      for (let k = 0; k < LAYERS.length; k++) {
        const id = LAYERS[(k + r) % LAYERS.length]!.id;
        layers.get(id)!.push(await runLayer(id, file));
      }
    }
    const t = tn[tn.length - 1]!;
    const p = pr[pr.length - 1]!;
    const fr = fl[fl.length - 1];
    console.log(`round ${r + 1}: toolnorm ${fmt(t.seconds, 2)} s (${fmt(t.cpuSeconds, 2)} s CPU), peer ${fmt(p.seconds, 2)} s (${fmt(p.cpuSeconds, 2)} s CPU): ${fmt(p.seconds / t.seconds, 2)}× wall, ${fmt(p.cpuSeconds / t.cpuSeconds, 2)}× CPU${fr ? `; floor ${fmt(fr.seconds, 2)} s (${fmt(fr.cpuSeconds, 2)} s CPU)` : ''}`);
  }
  // The collected records are as large as the input again; they are made anew by every --floor run.
  if (floorInputs) for (const f of Object.values(floorInputs)) rmSync(f, { force: true });
  const wall = tn.map((t, i) => pr[i]!.seconds / t.seconds);
  const cpu = tn.map((t, i) => pr[i]!.cpuSeconds / t.cpuSeconds);
  const t0 = tn[0]!;
  const p0 = pr[0]!;
  console.log(`\nthroughput, MB/s (median [min–max] of ${rounds} rounds):`);
  console.log(`  toolnorm CLI process  ${range(tn.map((t) => inMb / t.seconds), 1)} wall, ${range(tn.map((t) => inMb / t.cpuSeconds), 1)} by CPU time`);
  console.log(`  peer, in process      ${range(pr.map((p) => inMb / p.seconds), 1)} wall, ${range(pr.map((p) => inMb / p.cpuSeconds), 1)} by CPU time`);
  console.log(`  ratio toolnorm/peer   ${range(wall)}× wall, ${range(cpu)}× CPU time (issue 34's goal ≥ 1.0×)`);
  console.log(`tool frames out (params bytes, no JSON-RPC envelope; identical every round):`);
  console.log(`  toolnorm  ${t0.toolFrames.toLocaleString('en-US')} frames, ${fmt(t0.toolBytes / 1e6)} MB = ${fmt(t0.toolBytes / bytes, 3)} B per input byte (all frames ${fmt(t0.allBytes / 1e6)} MB)`);
  console.log(`  peer      ${p0.toolFrames.toLocaleString('en-US')} frames, ${fmt(p0.toolBytes / 1e6)} MB = ${fmt(p0.toolBytes / bytes, 3)} B per input byte (all notifications ${fmt(p0.allBytes / 1e6)} MB)`);
  console.log(`  ratio     ${fmt(t0.toolBytes / p0.toolBytes, 3)}× the peer's tool-frame bytes (target ≤ 1×)`);
  console.log(`peak RSS, MB: toolnorm ${range(tn.map((t) => t.maxRssMb), 0)}, peer ${range(pr.map((p) => p.maxRssMb), 0)}`);
  if (fl.length) {
    const f0 = fl[0]!;
    if (f0.allBytes !== t0.allBytes || f0.toolBytes !== t0.toolBytes) throw new Error(`floor wrote ${f0.allBytes} frame bytes, toolnorm ${t0.allBytes}: the collected frames are not this run's`);
    console.log(`floor (parse + event and frame checks + stringify + write, in process; no adapter, reducer, encoder or start-up):`);
    console.log(`  ${range(fl.map((f) => inMb / f.seconds), 1)} MB/s wall, ${range(fl.map((f) => inMb / f.cpuSeconds), 1)} by CPU time; ${fmt(median(fl.map((f) => f.cpuSeconds)), 2)} s CPU`);
    for (const name of Object.keys(f0.phases ?? {})) console.log(`    ${name}: ${range(fl.map((f) => f.phases![name]!))} s CPU`);
    console.log(`    peak RSS ${range(fl.map((f) => f.maxRssMb), 0)} MB (the collected events and frames are held in memory)`);
    console.log(`  peer / floor, the most a converter keeping both checks could reach against the peer: ${range(fl.map((f, i) => pr[i]!.cpuSeconds / f.cpuSeconds))}× CPU time, ${range(fl.map((f, i) => pr[i]!.seconds / f.seconds))}× wall`);
    console.log(`  toolnorm's CPU time above the floor: ${range(fl.map((f, i) => tn[i]!.cpuSeconds - f.cpuSeconds))} s; the goal (1.0×) leaves ${range(fl.map((f, i) => pr[i]!.cpuSeconds / GOAL - f.cpuSeconds))} s for everything else`);
  }
  if (withLayers) {
    // The budget of each round: the time toolnorm's whole process may take to run at the peer's throughput (GOAL).
    const wallBudget = pr.map((p) => p.seconds / GOAL);
    const cpuBudget = pr.map((p) => p.cpuSeconds / GOAL);
    console.log(`layers (each a whole process; median [min–max] s; "over" counts the rounds where the cut alone already took longer than the goal (GOAL × the peer's throughput) allows):`);
    console.log(`  the goal (1.0× the peer's throughput) allows ${range(wallBudget)} s wall, ${range(cpuBudget)} s CPU`);
    const rows: [string, LayerResult[]][] = [...LAYERS.map((l) => [l.label, layers.get(l.id)!] as [string, LayerResult[]]), ['+ serialize and write the frames: the CLI', tn]];
    let prev: LayerResult[] | undefined;
    for (const [label, xs] of rows) {
      const over = (budget: number[], key: keyof LayerResult) => xs.filter((x, i) => x[key] > budget[i]!).length;
      const step = prev ? ` (+${fmt(median(xs.map((x) => x.seconds)) - median(prev.map((x) => x.seconds)), 2)} wall, +${fmt(median(xs.map((x) => x.cpuSeconds)) - median(prev.map((x) => x.cpuSeconds)), 2)} CPU)` : '';
      console.log(`  ${label.padEnd(44)} ${range(xs.map((x) => x.seconds))} wall, ${range(xs.map((x) => x.cpuSeconds))} CPU${step}; over: ${over(wallBudget, 'seconds')}/${xs.length} wall, ${over(cpuBudget, 'cpuSeconds')}/${xs.length} CPU`);
      prev = xs;
    }
  }
}

if (process.argv[2] === '--peer-child') {
  await peerChild(process.argv[3]!, process.argv[4] === 'terminal');
}
if (process.argv[2] === '--floor-child') {
  await floorChild(process.argv[3]!, process.argv[4]!, process.argv[5]!);
}
