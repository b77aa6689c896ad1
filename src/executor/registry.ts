// ToolRegistry: tools are registered once, looked up by name, and never created by the executor.
// Registration is where a tool is checked (name, kind, tier, roles, schema) so that a bad tool
// fails loudly at startup, not halfway through a call.
import type { ParamRole, ToolKind, ValidationResult } from '../contract/index.js';
import { createAjv, compileParams, schemaAt, validateWith, type CompiledParams } from './schema.js';
import { parsePointer } from './pointer.js';
import { isTier } from './tiers.js';
import { isFileAffecting, type Tool } from './types.js';

const ROLES: Readonly<Record<ParamRole, true>> = { PATH: true, SOURCE_PATH: true, EXEC_COMMAND: true, NETWORK_TARGET: true };

export class ToolRegistrationError extends Error {
  constructor(readonly tool: string, detail: string) {
    super(`cannot register tool ${JSON.stringify(tool)}: ${detail}`);
    this.name = 'ToolRegistrationError';
  }
}

interface Entry {
  readonly tool: Tool;
  readonly validate: CompiledParams;
}

const KINDS: Readonly<Record<ToolKind, true>> = {
  web_search: true, browser: true, file_read: true, file_write: true, file_edit: true, bash: true,
  subagent: true, mcp: true, question: true, todo: true, unknown: true,
};
const WRITING_KINDS: ReadonlySet<ToolKind> = new Set(['file_write', 'file_edit']);
const kindIsKnown = (kind: unknown) => typeof kind === 'string' && Object.prototype.hasOwnProperty.call(KINDS, kind);

export class ToolRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly ajv = createAjv();

  constructor(tools: Iterable<Tool> = []) {
    for (const t of tools) this.register(t);
  }

  register(tool: Tool): this {
    const name = typeof tool?.name === 'string' ? tool.name : String(tool?.name);
    const fail = (detail: string): never => { throw new ToolRegistrationError(name, detail); };
    if (!name.trim() || /\s/.test(name)) fail('a tool name must be non-empty and contain no whitespace');
    if (this.entries.has(name)) fail('a tool with this name is already registered');
    if (!kindIsKnown(tool.kind)) fail(`unknown kind ${JSON.stringify(tool.kind)}`);
    if (!isTier(tool.tier)) fail(`unknown tier ${JSON.stringify(tool.tier)}`);
    if (typeof tool.title !== 'function' || typeof tool.execute !== 'function') fail('a tool needs title() and execute()');
    if (isFileAffecting(tool) && tool.tier === 'observe') fail('a FileAffectingTool writes files, so its tier cannot be observe');
    // Hard Invariant #5: a tool of a writing kind must say which files it touches, or its
    // writes would never become FileMutationRecords.
    if (WRITING_KINDS.has(tool.kind) && !isFileAffecting(tool)) fail(`a ${tool.kind} tool writes files, so it must be a FileAffectingTool (declare affectedPaths) to have its writes recorded`);
    for (const [pointer, role] of Object.entries(tool.paramRoles ?? {})) {
      if (!Object.prototype.hasOwnProperty.call(ROLES, role)) fail(`param ${pointer} has unknown role ${JSON.stringify(role)}`);
      let segments: string[] = [];
      try { segments = parsePointer(pointer); } catch (e) { fail((e as Error).message); }
      if (schemaAt(tool.params, segments) === undefined) fail(`param ${pointer} (role ${role}) is not declared in the params schema`);
    }
    let validate: CompiledParams | undefined;
    try {
      validate = compileParams(this.ajv, tool.params);
    } catch (e) {
      fail(`its params schema does not compile: ${(e as Error).message}`);
    }
    this.entries.set(name, { tool, validate: validate! });
    return this;
  }

  get(name: string): Tool | undefined {
    return this.entries.get(name)?.tool;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Registered tools in registration order. */
  list(): Tool[] {
    return [...this.entries.values()].map((e) => e.tool);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Checks an input against the tool's compiled params schema (not the tool's own validate()). */
  validateParams(name: string, input: unknown): ValidationResult {
    const entry = this.entries.get(name);
    if (!entry) return { valid: false, issues: [{ path: '', message: `no tool named ${JSON.stringify(name)} is registered` }] };
    return validateWith(entry.validate, input);
  }
}
