// The tool contract (core-tools spec: Tool, FileAffectingTool, ToolResult). Tools are plain
// objects: the registry holds instances, the executor never creates one, and a renamed copy
// (`{...tool, name}`) is an ordinary tool, which is how the "gates ignore names" test is built.
import type { CompleteToolPart, Diagnostic, ErrorToolPart, FileChange, FileMutationRecord, NormalizedToolPart, ParamRole, Tier, ToolError, ToolInvocationRecord, ToolKind, ToolMetadata, ValidationResult } from '../contract/index.js';
import type { StoredEvent } from '../store/types.js';
import type { ToolOutput } from '../present/output.js';
import type { SessionPolicy } from './policy.js';

/**
 * A params schema: plain JSON Schema (a TypeBox schema is one too, so callers may still pass
 * those). Compiled once, when the tool is registered.
 */
export type ParamsSchema = Readonly<Record<string, unknown>>;

/**
 * Which parameters carry a policy-relevant value, keyed by JSON pointer (`/path`, `/source`,
 * `/targets/*` for every element of an array). The policy gates read these roles and nothing
 * else about a tool.
 */
export type ParamRoles = Readonly<Record<string, ParamRole>>;

/** What every callback of a tool may know about the session. */
export interface SessionView {
  readonly sessionId: string;
  /** The session working directory: absolute, symlinks resolved. Relative paths anchor here. */
  readonly cwd: string;
  readonly home: string;
}

/** Context of `title` and `affectedPaths`: the session plus the resolved path params. */
export interface PathView extends SessionView {
  /**
   * ToolPath-resolved values of PATH and SOURCE_PATH params, keyed by concrete JSON pointer
   * (`/path`, `/targets/0`). Empty when the input was invalid.
   */
  readonly paths: Readonly<Record<string, string>>;
  /** A path for a title: relative to the cwd when inside it, else as the caller gave it. */
  display(pointer: string, given: string): string;
}

export type TitleContext = PathView;
export type ValidateContext = SessionView;

export interface ProgressUpdate {
  message?: string;
  /** Output fragment; the executor coalesces fragments into few `tool.progress` events. */
  outputDelta?: string;
  metadata?: ToolMetadata;
}

export interface ToolContext extends PathView {
  readonly partId: string;
  /** Aborted on timeout and on the caller's cancel; tools must stop their work when it fires. */
  readonly signal: AbortSignal;
  /**
   * The session policy. Built-in file tools open through `safe-fs` with `policy.files`, so a
   * link or a swapped directory cannot redirect them; `bash` reads its sandbox settings here.
   */
  readonly policy: SessionPolicy;
  /**
   * The checked host behind a NETWORK_TARGET pointer and, when names were resolved, the
   * addresses the gate approved: connect to one of those, never to a fresh lookup.
   */
  target(pointer: string): { readonly host: string; readonly addresses?: readonly string[] };
  /** The resolved path behind a PATH or SOURCE_PATH pointer; throws when there is none. */
  path(pointer: string): string;
  /** Streams progress into the call's events (never silently: every update is recorded). */
  progress(update: ProgressUpdate): void;
  /**
   * Reports files the call changed that no declared affected path covers (bash under the
   * sandbox reports what it found in the writable roots). Each becomes a `tool.file.mutated`
   * event before the call's outcome; a path inside no writable root is refused (throws).
   */
  mutated(records: readonly FileMutationRecord[]): void;
}

/** Sealed result: success with output, or failure with a ToolError. */
export type ToolResult =
  | { readonly ok: true; readonly output?: ToolOutput; readonly metadata?: ToolMetadata }
  | { readonly ok: false; readonly error: ToolError; readonly metadata?: ToolMetadata };

export const success = (output?: ToolOutput, metadata?: ToolMetadata): ToolResult =>
  ({ ok: true, ...(output !== undefined ? { output } : {}), ...(metadata ? { metadata } : {}) });

export const failure = (message: string, code: string, details?: unknown, metadata?: ToolMetadata): ToolResult =>
  ({ ok: false, error: { message, code, ...(details !== undefined ? { details } : {}) }, ...(metadata ? { metadata } : {}) });

export interface Tool<I = any> {
  readonly name: string;
  readonly kind: ToolKind;
  /** The lowest session tier that may run it (observe < workspace < execute < network < privileged). */
  readonly tier: Tier;
  readonly description: string;
  readonly params: ParamsSchema;
  readonly paramRoles?: ParamRoles;
  /** Action text for people, e.g. `Reading src/a.ts`. Only called on schema-valid input. */
  title(input: I, ctx: TitleContext): string;
  /** The tool's own pre-execution check, after the params schema passed. */
  validate?(input: I, ctx: ValidateContext): ValidationResult | Promise<ValidationResult>;
  /** A tighter time limit the input asks for (e.g. bash `timeout`); the smallest limit wins. */
  timeoutMs?(input: I): number | undefined;
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool that writes files declares which, so each gets a FileMutationRecord. */
export interface FileAffectingTool<I = any> extends Tool<I> {
  /** Paths the call may create, change or delete; relative ones are resolved with ToolPath. */
  affectedPaths(input: I, ctx: PathView): readonly string[];
  /**
   * What the call means to change, known from its input before it runs (`metadata.files` of its
   * start, so a denied or failed call still shows it); the result's own entry for a path refines it.
   */
  plannedChanges?(input: I, ctx: PathView): FileChange[];
}

export function isFileAffecting(tool: Tool): tool is FileAffectingTool {
  return typeof (tool as Partial<FileAffectingTool>).affectedPaths === 'function';
}

/** What the executor reports for one call, narrowed by `ok` or by `part.state`. */
export type ExecutionResult = ExecutionSuccess | ExecutionFailure;

interface ExecutionCommon {
  readonly invocation: ToolInvocationRecord;
  /** This call's events as stored (seq set), in order. */
  readonly events: StoredEvent[];
  /** Problems around the call that are not its outcome (e.g. a failing compressor). */
  readonly diagnostics: Diagnostic[];
}

/** The tool ran and succeeded: the part is complete (it has its output). */
export interface ExecutionSuccess extends ExecutionCommon {
  readonly ok: true;
  readonly part: CompleteToolPart;
  readonly status: 'succeeded';
}

/** The call was denied, failed, timed out or was cancelled: the part is an error (it has `error.code`). */
export interface ExecutionFailure extends ExecutionCommon {
  readonly ok: false;
  readonly part: ErrorToolPart;
  readonly status: 'failed' | 'denied';
}

/** @internal The result of a finished call; its part cannot still be started or running. */
export function executionResult(part: NormalizedToolPart, invocation: ToolInvocationRecord, events: StoredEvent[], diagnostics: Diagnostic[]): ExecutionResult {
  const status = invocation.status;
  if (part.state === 'complete' && status === 'succeeded') return { ok: true, part, status, invocation, events, diagnostics };
  if (part.state === 'error' && (status === 'failed' || status === 'denied')) return { ok: false, part, status, invocation, events, diagnostics };
  throw new Error(`the call ${part.id} ended with its part ${part.state} and its invocation ${status}`);
}
