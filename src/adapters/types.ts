// The contract between the normalize pipeline and a provider adapter. An adapter is stateful per
// input (it correlates ids across lines), emits ToolEvents and Diagnostics to a sink, and never
// throws on provider input.
import type { Diagnostic, Provider, ToolEvent } from '../contract/index.js';

export interface InputPosition {
  /** 1-based line number within the current file. */
  line: number;
  /** Byte offset of the line within the current file. */
  offset: number;
  /** The input name as the user gave it (never resolved to an absolute machine path). */
  file?: string;
}

export interface AdapterSink {
  event(event: ToolEvent): void;
  diagnostic(diagnostic: Diagnostic): void;
  /**
   * The current line is not this adapter's format (e.g. a Codex line given to the Claude adapter),
   * and it was skipped without a diagnostic of its own. The pipeline accounts for such lines: one
   * diagnostic per file says how many there were, so a wrong `--from` is never silent.
   */
  unrecognized?(pos: InputPosition): void;
}

export interface AdapterOptions {
  /** Session id to use when the input carries none. */
  sessionId?: string;
  /** Time (epoch ms) for events whose input line carries none. Injected so output is deterministic. */
  clock?: () => number;
  /** Working directory for relative titles when the input does not say. */
  cwd?: string;
  /** Known MCP server names, used to split tool names such as `<server>_<tool>`. */
  mcpServers?: readonly string[];
}

export interface Adapter {
  /** One input line without its line terminator. Must not throw. */
  line(text: string, pos: InputPosition): void;
  /**
   * One already-parsed input value (a provider SDK object), read exactly as `line` would read its
   * JSON text. Must not throw. Adapters without it are fed `JSON.stringify(value)` (see feedValue).
   */
  value?(value: unknown, pos: InputPosition): void;
  /** A new input file starts (multi-file inputs, e.g. a transcript plus subagent files). */
  beginFile?(file: string): void;
  endFile?(file: string): void;
  /** End of all input: flush anything buffered and close what can be closed. */
  end(): void;
}

export type AdapterId = 'claude' | 'codex' | 'opencode' | 'acp' | 'events';

export interface AdapterDefinition {
  id: AdapterId;
  /** The provider stamped on events (the `events` input keeps each event's own). */
  provider: Provider;
  description: string;
  /**
   * How sure (0..1) the adapter is that an input is its format, from the first non-empty lines
   * (at most 20) and the file name. `--from auto` picks the highest score.
   */
  sniff(sample: { lines: readonly string[]; file?: string }): number;
  create(sink: AdapterSink, options: AdapterOptions): Adapter;
  /**
   * The adapter's events already keep to the contract, so the streaming pipeline does not check
   * each one again (it does with `validate: 'all'`, `--validate all`). toolnorm's own adapters set
   * it: the golden, fuzz and property suites hold them to the contract (each runs with every event
   * checked), and the `events` adapter checks every line it reads. An adapter without it (yours)
   * crosses a trust boundary, and every event it emits is checked. What is printed is checked at
   * the output's edge either way (docs/contract.md#where-the-contract-is-checked).
   */
  eventsChecked?: boolean;
}

