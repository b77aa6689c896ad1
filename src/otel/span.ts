// One NormalizedToolPart → one OpenTelemetry GenAI `execute_tool` span, as plain data. Both the
// OTLP/JSON writer and the Tracer adapter start from this, so they cannot disagree.
import { outputText } from '../acp/content.js';
import type { NormalizedToolPart, ToolKind } from '../contract/index.js';

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

export interface OtelOptions {
  /**
   * Also record `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` (default false): the
   * GenAI conventions make both opt-in, as they may hold sensitive data.
   */
  captureContent?: boolean;
}

/** OTLP status codes: UNSET and ERROR (a tool span is never marked OK). */
export const STATUS_UNSET = 0;
export const STATUS_ERROR = 2;

export interface ToolSpan {
  name: string;
  /** Epoch milliseconds, from the part's `timing`. */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  status: { code: typeof STATUS_UNSET } | { code: typeof STATUS_ERROR; message: string };
}

/** Why a part gets no span: the recording does not say when it ran. */
export type UntimedReason = 'no_start_time' | 'open' | 'no_end_time' | 'end_before_start';

export const UNTIMED_TEXT: Record<UntimedReason, string> = {
  no_start_time: 'has no recorded start time',
  open: 'was still open at the end of the input, so it has no end time',
  no_end_time: 'has no recorded end time',
  end_before_start: 'ends before it starts',
};

/**
 * `gen_ai.tool.type`: `extension` for tools that reach another system for the agent (MCP servers,
 * the web), `function` for the rest, which run where the agent runs.
 */
export const GEN_AI_TOOL_TYPES: Record<ToolKind, 'function' | 'extension'> = {
  web_search: 'extension',
  browser: 'extension',
  mcp: 'extension',
  file_read: 'function',
  file_write: 'function',
  file_edit: 'function',
  bash: 'function',
  subagent: 'function',
  question: 'function',
  todo: 'function',
  unknown: 'function',
};

/**
 * A time the recording gives, in epoch ms; undefined otherwise. 0 is what toolnorm's default
 * deterministic clock writes for a line that carries no time, so it counts as no time.
 */
export function epochMs(t: number | string | undefined): number | undefined {
  const ms = typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : Number.NaN;
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

function json(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v ?? null);
}

export function toolSpanOf(part: NormalizedToolPart, sessionId: string, options: OtelOptions = {}): ToolSpan | UntimedReason {
  const startMs = epochMs(part.timing?.startedAt);
  if (startMs === undefined) return 'no_start_time';
  if (part.state !== 'complete' && part.state !== 'error') return 'open';
  const endMs = epochMs(part.timing?.completedAt);
  if (endMs === undefined) return 'no_end_time';
  if (endMs < startMs) return 'end_before_start';
  const attributes: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': part.name,
    'gen_ai.tool.call.id': part.id,
    'gen_ai.tool.type': GEN_AI_TOOL_TYPES[part.kind],
    'gen_ai.conversation.id': sessionId,
    'toolnorm.tool.kind': part.kind,
    'toolnorm.tool.title': part.title,
    'toolnorm.tool.state': part.state,
  };
  const m = part.metadata;
  if (typeof m?.provider === 'string') attributes['toolnorm.provider'] = m.provider;
  if (m?.mcp) {
    attributes['toolnorm.mcp.server'] = m.mcp.server;
    attributes['toolnorm.mcp.tool'] = m.mcp.tool;
  }
  // The typed command first (docs/contract.md#substance); the older top-level exitCode else.
  const exitCode = m?.command?.exitCode !== undefined ? m.command.exitCode : m?.exitCode;
  if (typeof exitCode === 'number') attributes['process.exit.code'] = exitCode;
  if (m?.approval) attributes['toolnorm.approval.state'] = m.approval.state;
  if (options.captureContent) {
    attributes['gen_ai.tool.call.arguments'] = json(part.input);
    if (part.state === 'complete' && part.output !== undefined) attributes['gen_ai.tool.call.result'] = outputText(part.output) ?? json(part.output);
  }
  if (part.state === 'error') {
    // The conventions' fallback when no error class is known.
    attributes['error.type'] = part.error.code ?? '_OTHER';
    return { name: `execute_tool ${part.name}`, startMs, endMs, attributes, status: { code: STATUS_ERROR, message: part.error.message } };
  }
  return { name: `execute_tool ${part.name}`, startMs, endMs, attributes, status: { code: STATUS_UNSET } };
}

/**
 * `gen_ai.provider.name` of each toolnorm provider whose models come from one vendor, in the GenAI
 * conventions' well-known values. OpenCode runs any vendor's models, so its sessions take the
 * model's provider where the recording names one (OPENCODE_PROVIDERS); ACP agents and toolnorm's
 * own executor name none, and get no such attribute.
 */
export const GEN_AI_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  claude: 'anthropic',
  codex: 'openai',
};

/** OpenCode `providerID`s → the conventions' well-known values; any other id is written as given. */
export const OPENCODE_PROVIDERS: Readonly<Record<string, string>> = {
  anthropic: 'anthropic',
  openai: 'openai',
  azure: 'azure.ai.openai',
  'amazon-bedrock': 'aws.bedrock',
  google: 'gcp.gemini',
  'google-vertex': 'gcp.vertex_ai',
  'google-vertex-anthropic': 'gcp.vertex_ai',
  mistral: 'mistral_ai',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x_ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
};

/** The model provider a subagent call names for its child session (OpenCode `metadata.task.model.providerID`). */
export function modelProviderOf(part: NormalizedToolPart): string | undefined {
  const model = (part.metadata?.task as { model?: { providerID?: unknown } } | undefined)?.model;
  return typeof model?.providerID === 'string' && model.providerID ? model.providerID : undefined;
}

/** `gen_ai.provider.name` of a session: its agent's vendor, else the model provider named for it, else none. */
export function genAiProviderName(provider: string | undefined, modelProvider?: string): string | undefined {
  if (provider !== undefined && GEN_AI_PROVIDER_NAMES[provider]) return GEN_AI_PROVIDER_NAMES[provider];
  if (modelProvider !== undefined) return OPENCODE_PROVIDERS[modelProvider.toLowerCase()] ?? modelProvider;
  return undefined;
}

/** The span of a whole session (GenAI `invoke_agent`): from its first tool span's start to its last one's end. */
export function sessionSpanOf(sessionId: string, provider: string | undefined, startMs: number, endMs: number, modelProvider?: string): ToolSpan {
  const attributes: Attributes = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': sessionId };
  const providerName = genAiProviderName(provider, modelProvider);
  if (providerName !== undefined) attributes['gen_ai.provider.name'] = providerName;
  if (provider) {
    attributes['gen_ai.agent.name'] = provider;
    attributes['toolnorm.provider'] = provider;
  }
  return { name: provider ? `invoke_agent ${provider}` : 'invoke_agent', startMs, endMs, attributes, status: { code: STATUS_UNSET } };
}
