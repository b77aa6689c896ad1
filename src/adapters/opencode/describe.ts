// What one view of a tool part means: canonical name, kind, title and the metadata that comes
// from the tool itself (MCP identity, subagent link, what the model asked for). Pure: the same
// view, names and cwd always give the same description.
import type { ToolKind, ToolMetadata } from '../../contract/index.js';
import { mcpTitle } from '../shared/mcp.js';
import { kindFromName } from '../shared/kinds.js';
import { displayPath, usableTitle } from '../../present/titles.js';
import { invalidCall } from './errors.js';
import { obj, text, type Obj, type ToolPartView } from './part-view.js';
import { childSessionInOutput } from './sessions.js';
import { runningTitle, specTitle, type TitleContext } from './tools.js';
import type { ToolNames } from './tool-names.js';

export interface Description {
  name: string;
  kind: ToolKind;
  title: string;
  input: unknown;
  meta: ToolMetadata;
  /** The invalid tool: the call the model asked for and why it could not run. */
  invalid?: { tool?: string; error?: string; code: 'unknown_tool' | 'invalid_input' };
}

/** Metadata keys a later view may change; compared so only real changes are emitted. */
export const MUTABLE_META = ['rawType', 'mcp', 'childSessionId', 'task', 'requestedTool'] as const;

/** Paths in titles: relative to the session cwd when known. */
class PathView implements TitleContext {
  constructor(readonly cwd: string | undefined, private readonly hint: string | undefined) {}

  path(p: string): string {
    if (this.cwd) return displayPath(p, this.cwd);
    // Without a cwd (run JSON carries none), OpenCode's own title of a file tool is the
    // worktree-relative path: use it when the input path ends with it.
    return this.hint && p.endsWith(`/${this.hint}`) ? this.hint : p;
  }
}

/** `state.metadata.actionDescriptor`: the seed's preferred title, when a tool provides one. */
function actionDescriptor(metadata: Obj): string | undefined {
  const a = metadata.actionDescriptor;
  if (typeof a === 'string') return usableTitle(a);
  const o = obj(a);
  return o ? usableTitle(o.title) ?? usableTitle(o.text) ?? usableTitle(o.label) ?? usableTitle(o.description) : undefined;
}

/**
 * The `invalid` tool stands for a call OpenCode could not route: named after the tool the model
 * asked for, `unknown_tool` when no such tool exists, `invalid_input` when it exists but its
 * arguments could not be read.
 */
function describeInvalid(view: ToolPartView, names: ToolNames, ctx: TitleContext, descriptor: string | undefined): Description {
  const meta: ToolMetadata = { rawType: view.tool };
  const asked = invalidCall(view.input);
  if (asked.tool) meta.requestedTool = asked.tool;
  const requested = asked.tool ? names.identify(asked.tool) : undefined;
  const unavailable = (!requested?.spec && !requested?.mcp) || /unavailable tool/i.test(asked.error ?? '');
  const name = asked.tool ?? 'invalid';
  if (unavailable) {
    const title = descriptor ?? specTitle(names.identify('invalid').spec!, view.input, ctx);
    // The attempted name decides the kind: a tool of another version or agent (`list`, `patch`,
    // `question`) keeps its intent although it cannot run here.
    const kind = requested?.spec || requested?.mcp ? requested.kind : kindFromName(name);
    return { name, kind, title, input: view.input, meta, invalid: { ...asked, code: 'unknown_tool' } };
  }
  const title = descriptor ?? requested!.spec?.fallback ?? runningTitle(name);
  return { name, kind: requested!.kind, title, input: view.input, meta, invalid: { ...asked, code: 'invalid_input' } };
}

export function describe(view: ToolPartView, names: ToolNames, cwd: string | undefined): Description {
  const ctx = new PathView(cwd, usableTitle(view.title));
  const descriptor = actionDescriptor(view.metadata);
  if (view.tool === 'invalid') return describeInvalid(view, names, ctx, descriptor);
  const meta: ToolMetadata = { rawType: view.tool };
  const id = names.identify(view.tool);
  if (id.mcp) meta.mcp = id.mcp;
  let title: string;
  if (descriptor) title = descriptor;
  else if (id.mcp) title = mcpTitle(id.mcp.server, id.mcp.tool, view.input);
  else if (id.spec) title = specTitle(id.spec, view.input, ctx);
  else title = usableTitle(view.title) ?? runningTitle(id.name);
  if (view.tool === 'task') {
    const child = text(view.metadata.sessionId) ?? childSessionInOutput(view.output);
    if (child) meta.childSessionId = child;
    const input = obj(view.input) ?? {};
    const task: Obj = {};
    if (text(input.subagent_type)) task.agent = input.subagent_type;
    if (obj(view.metadata.model)) task.model = view.metadata.model;
    if (Object.keys(task).length) meta.task = task;
  }
  return { name: id.name, kind: id.kind, title, input: view.input, meta };
}
