import { Type } from '@sinclair/typebox';
import { Count, NonEmpty, def } from './helpers.js';
import { Provider } from './kind.js';
import { CompressionRecord } from './compression.js';
import { FileChange, ToolCallAssessmentRecord } from './executor.js';
import { CommandRun, FileRead, SearchInfo, ToolApproval, ToolPlan } from './substance.js';

export const TruncationNote = def('TruncationNote', Type.Object({
  path: Type.String({ description: 'JSON pointer, inside the part or event, of the value that was replaced.' }),
  originalBytes: Count('Serialized size of the value that was replaced.'),
  reason: Type.Optional(Type.String({ description: 'Why it was replaced, e.g. the metadata budget or base64 data moved out.' })),
}, { additionalProperties: false, description: 'Records a value that the metadata budget replaced by a size marker (spec rule 9).' }));

export const McpRef = def('McpRef', Type.Object({
  server: NonEmpty('MCP server name as configured.'),
  tool: NonEmpty('Tool name on that server.'),
}, { additionalProperties: false, description: 'The MCP server and tool behind a part.' }));

export const ToolMetadata = def('ToolMetadata', Type.Object({
  provider: Type.Optional(Provider),
  rawType: Type.Optional(Type.String({ description: 'The provider\'s raw item or tool type, e.g. `commandExecution`, `tool_use:Bash`.' })),
  mcp: Type.Optional(McpRef),
  parentId: Type.Optional(Type.String({ minLength: 1, description: 'Part id of the subagent call (Task, collab agent, task tool) this part ran under.' })),
  childSessionId: Type.Optional(Type.String({ minLength: 1, description: 'Session or thread id of the subagent a subagent part spawned.' })),
  task: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Subagent task detail from the provider (task id, status, progress, usage).' })),
  action: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Codex web-search action (`type`, `query`, `url`, `pattern`).' })),
  exitCode: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'Exit status of a command; null when it was killed before exiting.' })),
  cwd: Type.Optional(Type.String({ minLength: 1, description: 'Working directory of the session or call, when known; relative paths in the input are relative to it, and the ACP encoder uses it to make locations absolute.' })),
  truncated: Type.Optional(Type.Array(TruncationNote, { description: 'Values replaced under the metadata budget.' })),
  approval: Type.Optional(ToolApproval),
  files: Type.Optional(Type.Array(FileChange, { description: 'Files the call changed (or, denied or failed, would have changed), one entry per path, in order.' })),
  command: Type.Optional(CommandRun),
  search: Type.Optional(SearchInfo),
  read: Type.Optional(FileRead),
  plan: Type.Optional(ToolPlan),
  compression: Type.Optional(CompressionRecord),
  assessment: Type.Optional(ToolCallAssessmentRecord),
}, { additionalProperties: true, description: 'Provider detail the UI may use later. Well-known keys are declared; any other key is allowed.' }));
