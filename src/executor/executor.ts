// ToolExecutor.execute(request): validate → assess → run under a deadline → record. Every step
// is an event appended to the store before the next one happens, and the terminal event is
// stored before execute() returns, whatever the tool did (Hard Invariant #5). The part handed
// back is the shared reducer's reduction of exactly those events.
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type {
  Diagnostic, FileChange, FileMutationRecord, NormalizedToolPart, ToolError, ToolEvent, ToolInvocationRecord, ToolInvocationStatus, ToolMetadata, ValidationResult,
} from '../contract/index.js';
import { usableTitle } from '../present/titles.js';
import type { ToolOutputCompressor } from '../compress/types.js';
import { diagnosticsOf, projectInvocation, projectPart } from '../events/projector.js';
import { reduceAll } from '../events/reducer.js';
import { ToolRepository } from '../events/repository.js';
import { emptySessionState } from '../events/state.js';
import { MemoryEventStore } from '../store/memory.js';
import type { EventStore, StoredEvent } from '../store/types.js';
import { assess, pathView, type Assessment } from './assess.js';
import { Call } from './call.js';
import { runWithDeadline, type Outcome } from './deadline.js';
import { fileDigest, mutationOf } from './digest.js';
import { formatPointer, parsePointer, select } from './pointer.js';
import { resolvePolicy, type PolicyInput, type SessionPolicy } from './policy.js';
import { SessionRecorder } from './recorder.js';
import type { ToolRegistry } from './registry.js';
import { VALID } from './schema.js';
import { isInside, realPrefix } from './tool-path.js';
import { executionResult, isFileAffecting, type ExecutionResult, type FileAffectingTool, type SessionView, type Tool, type ToolContext, type ToolResult } from './types.js';

export interface ToolExecutorOptions {
  registry: ToolRegistry;
  /** Where the events go (default: a new MemoryEventStore). */
  store?: EventStore;
  /** Default: `exec-<uuid>`. */
  sessionId?: string;
  /** The session working directory; must be absolute. Relative paths anchor here, never on process.cwd(). */
  cwd: string;
  /** What `~` expands to (default os.homedir()); must be absolute. */
  home?: string;
  policy?: PolicyInput;
  /** Event time, epoch ms (default Date.now). */
  clock?: () => number;
  newPartId?: () => string;
  /** Time limit of a call without a tighter one (default 120 000 ms). */
  defaultTimeoutMs?: number;
  /** How long an aborted tool gets to stop before the call is recorded anyway (default 3 000 ms). */
  abortGraceMs?: number;
  progressIntervalMs?: number;
  progressChunkChars?: number;
  /** Adds a derived `tool.output.compressed` event after a completed call when output is over budget. */
  compressor?: ToolOutputCompressor;
}

export interface ToolRequest {
  tool: string;
  input: unknown;
  partId?: string;
  /** Cancels the call (code `cancelled`). */
  signal?: AbortSignal;
  /** Time limit for this call (code `timeout`); the smallest of this, the tool's and the default wins. */
  timeoutMs?: number;
}

export type { ExecutionResult, ExecutionSuccess, ExecutionFailure } from './types.js';

/** The store refused an event, so the call's history would be incomplete. */
export class ExecutorRecordError extends Error {
  constructor(message: string, readonly partId: string, readonly ran: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExecutorRecordError';
  }
}

interface Session {
  readonly view: SessionView;
  readonly policy: SessionPolicy;
}

const DEFAULT_TIMEOUT_MS = 120_000;

type JsonCheck = { ok: true; value: unknown } | { ok: false; reason: string };
function jsonData(value: unknown): JsonCheck {
  if (value === undefined) return { ok: true, value };
  try {
    const text = JSON.stringify(value);
    return text === undefined ? { ok: false, reason: `a ${typeof value} is not JSON data` } : { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message || err.name : String(err)) || 'the tool failed without a message';

export class ToolExecutor {
  readonly registry: ToolRegistry;
  readonly store: EventStore;
  readonly sessionId: string;
  private readonly recorder: SessionRecorder;
  private readonly clock: () => number;
  private readonly newPartId: () => string;
  private readonly ready: Promise<Session>;

  constructor(private readonly options: ToolExecutorOptions) {
    this.registry = options.registry;
    this.store = options.store ?? new MemoryEventStore();
    this.sessionId = options.sessionId ?? `exec-${randomUUID()}`;
    this.recorder = new SessionRecorder(this.store, this.sessionId);
    this.clock = options.clock ?? Date.now;
    this.newPartId = options.newPartId ?? (() => `call_${randomUUID()}`);
    const home = options.home ?? homedir();
    if (!isAbsolute(options.cwd)) throw new Error(`ToolExecutor: cwd must be absolute (relative paths anchor on it), got "${options.cwd}"`);
    if (!isAbsolute(home)) throw new Error(`ToolExecutor: home must be absolute, got "${home}"`);
    const sessionId = this.sessionId;
    this.ready = (async () => {
      const cwd = await realPrefix(options.cwd);
      return { view: { sessionId, cwd, home }, policy: await resolvePolicy(options.policy ?? {}, cwd) };
    })();
    // Surfaced on the first execute(); a constructor cannot report an async failure itself.
    this.ready.catch(() => {});
  }

  /** The session as the tools see it, and the resolved policy. */
  session(): Promise<Session> {
    return this.ready;
  }

  /** Parts, diagnostics and invocation records of this executor's store. */
  repository(): ToolRepository {
    return new ToolRepository(this.store);
  }

  async execute(request: ToolRequest): Promise<ExecutionResult> {
    const session = await this.ready;
    const partId = request.partId ?? this.newPartId();
    const call = new Call(this.sessionId, partId, this.clock, this.recorder, {
      progressIntervalMs: this.options.progressIntervalMs ?? 50,
      progressChunkChars: this.options.progressChunkChars ?? 16 * 1024,
    });
    const startedAt = this.clock();
    const metadata: ToolMetadata = { provider: 'executor', cwd: session.view.cwd };
    const elapsed = () => Math.max(0, this.clock() - startedAt);
    const name = request.tool && request.tool.trim() ? request.tool : 'unknown';
    const tool = this.registry.get(request.tool);
    const input = jsonData(request.input);
    const recordedInput = input.ok ? (input.value ?? {}) : { unserializable: input.reason };

    const failEarly = async (kind: Tool['kind'], title: string, error: ToolError): Promise<ExecutionResult> => {
      await this.recordOrThrow(call, [
        call.event('tool.started', { name, kind, title, input: recordedInput, metadata }),
        call.event('tool.failed', { error, elapsedMs: elapsed() }),
      ], false);
      return this.result(call, []);
    };

    if (!tool) {
      return failEarly('unknown', `Calling ${name}`, {
        message: `no tool named ${JSON.stringify(request.tool)} is registered (known: ${this.registry.names().join(', ') || 'none'})`,
        code: 'unknown_tool',
      });
    }

    // 1. Validate: the compiled params schema, then the tool's own check.
    let validation: ValidationResult = input.ok
      ? this.registry.validateParams(tool.name, input.value)
      : { valid: false, issues: [{ path: '', message: `the input is not JSON data: ${input.reason}` }] };
    if (validation.valid && tool.validate) {
      try {
        validation = await tool.validate(input.ok ? input.value : undefined, session.view);
      } catch (err) {
        return failEarly(tool.kind, `Calling ${tool.name}`, { message: `${tool.name}.validate() threw: ${message(err)}`, code: 'tool_error' });
      }
    }
    if (!validation.valid) {
      const issues = validation.issues.map((i) => i.message).join('; ');
      return failEarly(tool.kind, `Calling ${tool.name}`, { message: `invalid input for ${tool.name}: ${issues || 'rejected by the tool'}`, code: 'invalid_input', details: validation });
    }
    const params: unknown = input.ok ? input.value : undefined;

    // 2. Assess: tier and role gates; the paths it resolves are the ones the tool will use.
    const assessment = await assess(tool, params, session.view, session.policy);
    const view = pathView(session.view, assessment.paths);
    let title = `Calling ${tool.name}`;
    try {
      title = usableTitle(tool.title(params, view)) ?? title;
    } catch {
      // A title is cosmetic; the call is still recorded under the fallback.
    }
    const started = call.event('tool.started', { name: tool.name, kind: tool.kind, title, input: recordedInput, metadata: withPlannedChanges(withCommand(metadata, tool, params), tool, params, view) });
    const assessed = call.event('tool.policy.assessed', { assessment: assessment.record });
    if (assessment.record.decision === 'deny') {
      await this.recordOrThrow(call, [started, assessed, call.event('tool.failed', {
        error: { message: `Denied: ${assessment.record.reasons.join('; ')}`, code: 'denied', details: { reasons: assessment.record.reasons } },
        elapsedMs: elapsed(),
      })], false);
      return this.result(call, []);
    }

    // 3. Run. Nothing runs unless its start is stored.
    const before = await Promise.all(assessment.affected.map((p) => fileDigest(p, session.policy.files)));
    await this.recordOrThrow(call, [started, assessed, call.event('tool.progress', {})], false);
    const limitMs = this.limitOf(tool, params, request.timeoutMs);
    const reported: FileMutationRecord[] = [];
    let lateMutations = 0;
    let closed = false;
    const contextFor = (signal: AbortSignal): ToolContext => ({
      ...view,
      partId,
      signal,
      policy: session.policy,
      path(pointer: string) {
        const key = formatPointer(parsePointer(pointer));
        const p = assessment.paths[key];
        if (p === undefined) throw new Error(`no resolved path for ${key}: it is not a PATH or SOURCE_PATH param, or it was not given`);
        return p;
      },
      target(pointer: string) {
        const key = formatPointer(parsePointer(pointer));
        const t = assessment.targets[key];
        if (t === undefined) throw new Error(`no checked network target for ${key}: it is not a NETWORK_TARGET param, or it was not given`);
        return t;
      },
      progress: (u) => call.progress(u),
      mutated(records) {
        for (const r of records) {
          if (!session.policy.writeRoots.some((root) => isInside(r.path, root)) && !session.policy.files.unbounded) {
            throw new Error(`a mutation of ${r.path} was reported, which is inside no writable root`);
          }
        }
        if (closed) lateMutations += records.length;
        else reported.push(...records);
      },
    });
    const outcome = await runWithDeadline((signal) => tool.execute(params, contextFor(signal)), {
      limitMs,
      graceMs: this.options.abortGraceMs ?? 3_000,
      signal: request.signal,
    });

    // 4. Record side effects and the outcome.
    closed = true;
    let progressError: unknown;
    try {
      await call.close();
    } catch (err) {
      progressError = err;
    }
    const declared = new Set(assessment.affected);
    const mutations = [
      ...(await this.mutations(call, assessment, before, session.policy)),
      ...reported.filter((r) => !declared.has(r.path)).map((mutation) => call.event('tool.file.mutated', { mutation })),
    ];
    const terminal = this.terminal(call, outcome, limitMs, elapsed());
    await this.recordOrThrow(call, [...mutations, terminal], true);
    if (progressError) throw new ExecutorRecordError(`progress of call ${partId} could not be stored: ${message(progressError)}`, partId, true, { cause: progressError });
    const late: Diagnostic[] = lateMutations
      ? [{ severity: 'warning', code: 'late_mutation', message: `${lateMutations} file mutation(s) were reported after the call ended and are not in its events`, source: { provider: 'executor' }, partId }]
      : [];
    return this.result(call, [...late, ...(await this.compress(call, terminal))]);
  }

  private limitOf(tool: Tool, params: unknown, requested: number | undefined): number {
    const limits = [requested ?? this.options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS];
    try {
      const own = tool.timeoutMs?.(params);
      if (own !== undefined) limits.push(own);
    } catch {
      // An unreadable limit leaves the others in force.
    }
    const ok = limits.filter((n) => Number.isFinite(n) && n > 0);
    return ok.length ? Math.min(...ok) : DEFAULT_TIMEOUT_MS;
  }

  private async mutations(call: Call, assessment: Assessment, before: (Awaited<ReturnType<typeof fileDigest>>)[], policy: SessionPolicy): Promise<ToolEvent[]> {
    const after = await Promise.all(assessment.affected.map((p) => fileDigest(p, policy.files)));
    return assessment.affected.map((path, i) => call.event('tool.file.mutated', { mutation: mutationOf(path, before[i] ?? null, after[i] ?? null) }));
  }

  private terminal(call: Call, outcome: Outcome, limitMs: number, elapsedMs: number): ToolEvent {
    const failed = (error: ToolError, metadata?: ToolMetadata) => call.event('tool.failed', { error, elapsedMs, ...(metadata ? { metadata } : {}) });
    switch (outcome.kind) {
      case 'thrown':
        return failed({ message: message(outcome.error), code: 'tool_error', details: { thrown: outcome.error instanceof Error ? outcome.error.name : typeof outcome.error } });
      case 'aborted': {
        const stillRunning = outcome.stopped ? {} : { stillRunning: true, note: 'the tool did not stop within the grace period; later side effects are not recorded' };
        return outcome.cause === 'timeout'
          ? failed({ message: `timed out after ${limitMs} ms`, code: 'timeout', details: { limitMs, ...stillRunning } })
          : failed({ message: outcome.reason ? `cancelled: ${outcome.reason}` : 'cancelled', code: 'cancelled', details: { ...(outcome.reason ? { reason: outcome.reason } : {}), ...stillRunning } });
      }
      case 'result':
        return this.fromResult(call, outcome.result, elapsedMs);
    }
  }

  private fromResult(call: Call, result: ToolResult, elapsedMs: number): ToolEvent {
    const meta = jsonData(result?.metadata);
    const metadata = meta.ok && meta.value ? { metadata: meta.value as ToolMetadata } : {};
    if (!result || typeof result !== 'object' || typeof result.ok !== 'boolean') {
      return call.event('tool.failed', { error: { message: 'the tool returned something that is not a ToolResult', code: 'tool_error' }, elapsedMs });
    }
    if (!result.ok) {
      const error = jsonData(result.error);
      const e = (error.ok ? error.value : undefined) as ToolError | undefined;
      return call.event('tool.failed', {
        error: { message: e?.message || 'the tool failed without a message', code: e?.code || 'tool_error', ...(e?.details !== undefined ? { details: e.details } : {}) },
        elapsedMs,
        ...metadata,
      });
    }
    const output = jsonData(result.output);
    if (!output.ok) return call.event('tool.failed', { error: { message: `the tool's output is not JSON data: ${output.reason}`, code: 'invalid_output' }, elapsedMs, ...metadata });
    return call.event('tool.completed', { ...(output.value !== undefined ? { output: output.value } : {}), elapsedMs, ...metadata });
  }

  private async recordOrThrow(call: Call, events: ToolEvent[], ran: boolean): Promise<void> {
    try {
      await call.record(events);
    } catch (err) {
      const what = ran ? 'the call ran but its outcome could not be stored' : 'the call did not run because its start could not be stored';
      throw new ExecutorRecordError(`${what}: ${message(err)}`, call.partId, ran, { cause: err });
    }
  }

  private async compress(call: Call, terminal: ToolEvent): Promise<Diagnostic[]> {
    const compressor = this.options.compressor;
    if (!compressor || terminal.type !== 'tool.completed') return [];
    const stored = call.events();
    const completed = stored.find((e) => e.type === 'tool.completed');
    const record = reduceAll(stored, emptySessionState()).parts.get(call.partId);
    if (!record) return [];
    try {
      const derived = compressor.compressPart(projectPart(record), { sessionId: this.sessionId, provider: 'executor', seq: completed?.seq, at: this.clock() });
      if (derived) await call.record([derived]);
      return [];
    } catch (err) {
      return [{ severity: 'warning', code: 'compressor_error', message: `compressing the output of ${call.partId} failed: ${message(err)}; the full output is kept`, source: { provider: 'executor' }, partId: call.partId }];
    }
  }

  private result(call: Call, extra: Diagnostic[]): ExecutionResult {
    const events = call.events();
    const state = reduceAll(events, emptySessionState());
    const record = state.parts.get(call.partId)!;
    const invocation = projectInvocation(record);
    const late: Diagnostic[] = call.lateUpdates
      ? [{ severity: 'warning', code: 'late_progress', message: `${call.lateUpdates} progress update(s) arrived after the call ended and are not in its events`, source: { provider: 'executor' }, partId: call.partId }]
      : [];
    return executionResult(projectPart(record), invocation, events, [...diagnosticsOf(state), ...late, ...extra]);
  }
}

export { VALID };

/**
 * `metadata.command` from the parameter whose role is EXEC_COMMAND: known from the start, so a
 * denied command still says what it would have run. The tool's result adds the exit code.
 */
function withCommand(metadata: ToolMetadata, tool: Tool, params: unknown): ToolMetadata {
  const pointer = Object.entries(tool.paramRoles ?? {}).find(([, role]) => role === 'EXEC_COMMAND')?.[0];
  if (pointer === undefined) return metadata;
  const value = select(params, parsePointer(pointer))[0]?.value;
  if (typeof value !== 'string' || value.trim() === '') return metadata;
  return { ...metadata, command: { command: value, ...(metadata.cwd ? { cwd: metadata.cwd } : {}) } };
}

/** `metadata.files` a file tool says it means to change, from its input (see plannedChanges). */
function withPlannedChanges(metadata: ToolMetadata, tool: Tool, params: unknown, view: Parameters<FileAffectingTool['affectedPaths']>[1]): ToolMetadata {
  if (!isFileAffecting(tool) || !tool.plannedChanges) return metadata;
  let files: FileChange[];
  try {
    files = tool.plannedChanges(params, view);
  } catch {
    return metadata; // cosmetic, like a title: the call is still recorded without it
  }
  return files.length ? { ...metadata, files } : metadata;
}
