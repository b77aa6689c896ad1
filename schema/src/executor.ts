import { Type } from '@sinclair/typebox';
import { Count, EpochMs, NonEmpty, StringEnum, def } from './helpers.js';
import { ToolError } from './error.js';

export const TIERS = ['observe', 'workspace', 'execute', 'network', 'privileged'] as const;

export const Tier = def('Tier', StringEnum(TIERS, {
  description:
    'Ordered permission tiers, lowest first. observe: reads only. workspace: writes inside writable roots. execute: runs commands. network: reaches other hosts. privileged: anything else, such as writes outside the roots. A session policy names the highest tier it allows.',
}));

export const PARAM_ROLES = ['PATH', 'SOURCE_PATH', 'EXEC_COMMAND', 'NETWORK_TARGET'] as const;

export const ParamRole = def('ParamRole', StringEnum(PARAM_ROLES, {
  description:
    'Semantic role of a tool parameter; policy gates dispatch on roles, never on tool names. PATH: the path a call acts on or mutates. SOURCE_PATH: a path only read from while acting on another target. EXEC_COMMAND: a command line to run. NETWORK_TARGET: a URL or host to reach.',
}));

export const ValidationIssue = def('ValidationIssue', Type.Object({
  path: Type.String({ description: 'JSON pointer of the offending parameter; empty for the whole input.' }),
  message: NonEmpty('What is wrong.'),
  keyword: Type.Optional(Type.String({ description: 'The JSON Schema keyword that failed, when schema validation found it.' })),
}, { additionalProperties: false, description: 'One reason a tool input was rejected before execution.' }));

export const ValidationResult = def('ValidationResult', Type.Object({
  valid: Type.Boolean({ description: 'True when the input may be executed.' }),
  issues: Type.Array(ValidationIssue, { description: 'Why the input is invalid; empty when valid.' }),
}, { additionalProperties: false, description: 'Result of pre-execution parameter validation: the params schema first, then the tool\'s own check.' }));

export const PolicyDecision = def('PolicyDecision', StringEnum(['allow', 'deny'] as const, {
  description: 'Outcome of a policy check.',
}));

export const PolicyCheck = def('PolicyCheck', Type.Object({
  gate: StringEnum(['tier', 'PATH', 'SOURCE_PATH', 'EXEC_COMMAND', 'NETWORK_TARGET'] as const, { title: 'PolicyGate', description: 'Which gate decided: the tier gate or a parameter-role gate.' }),
  param: Type.Optional(Type.String({ description: 'JSON pointer of the parameter that was checked, for role gates.' })),
  value: Type.Optional(Type.String({ description: 'The parameter value as given.' })),
  resolved: Type.Optional(Type.String({ description: 'The value after normalization: for paths, the ToolPath-resolved absolute path that execution will use.' })),
  decision: PolicyDecision,
  reason: NonEmpty('Why, in words a person can act on.'),
}, { additionalProperties: false, description: 'One gate\'s decision on one tool call.' }));

export const ToolCallAssessmentRecord = def('ToolCallAssessmentRecord', Type.Object({
  tool: NonEmpty('Registered tool name.'),
  tier: Tier,
  maxTier: Tier,
  decision: PolicyDecision,
  checks: Type.Array(PolicyCheck, { description: 'Every gate that ran, in order.' }),
  reasons: Type.Array(Type.String({ minLength: 1 }), { description: 'Reasons of the deny checks; empty when allowed.' }),
}, { additionalProperties: false, description: 'The policy assessment of one tool call, recorded before it runs.' }));

export const FileDigest = def('FileDigest', Type.Object({
  size: Count('File size in bytes (a symbolic link: the length of its target text).'),
  sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the content, hex (a symbolic link: of its target text). Absent exactly when `unhashed` says why.' })),
  unhashed: Type.Optional(StringEnum(['over_file_bound', 'over_walk_budget', 'deadline', 'unreadable', 'changed_while_read'] as const, {
    title: 'UnhashedReason',
    description: 'Why the content was not hashed, so that no sha256 is given: over_file_bound, the file is larger than the per-file hash bound; over_walk_budget, the walk had already hashed its most bytes; deadline, the call ran out of time; unreadable, it could not be opened or read; changed_while_read, it changed while it was hashed. A record whose digests lack sha256 says what stat said (size, mtime, inode, mode), not what the content is.',
  })),
}, { additionalProperties: false, description: 'Size and hash of a file at one moment.' }));

const ChangedText = (what: string) => Type.Union([Type.String(), Type.Null()], { description: what });

export const FileMutationRecord = def('FileMutationRecord', Type.Object({
  path: NonEmpty('Absolute, ToolPath-resolved path (for a rename: where the file is after the call).'),
  operation: StringEnum(['create', 'modify', 'delete', 'rename', 'unchanged'] as const, { title: 'FileOperation', description: 'What happened to the file. rename: the same file (the same inode) moved from `from` to `path`; its content may also have changed (compare before and after).' }),
  from: Type.Optional(NonEmpty('For a rename: the absolute path the file had before the call.')),
  type: Type.Optional(StringEnum(['file', 'symlink'] as const, { title: 'FileEntryType', description: 'What the path holds; absent means a regular file. For a symlink, the digests describe its target text and `target` gives that text.' })),
  before: Type.Union([FileDigest, Type.Null()], { description: 'The file before the call; null when it did not exist.' }),
  after: Type.Union([FileDigest, Type.Null()], { description: 'The file after the call; null when it does not exist.' }),
  mode: Type.Optional(Type.Object({
    before: ChangedText('Permission bits before the call as four octal digits (setuid, setgid and sticky first, e.g. 4755); null when the file did not exist.'),
    after: ChangedText('Permission bits after the call as four octal digits; null when the file does not exist.'),
  }, { title: 'FileModeChange', additionalProperties: false, description: 'The permission bits, given when they are known and not the same before and after (a chmod, a setuid bit, a file created or deleted).' })),
  target: Type.Optional(Type.Object({
    before: ChangedText('Where the link pointed before the call; null when it did not exist.'),
    after: ChangedText('Where the link points after the call; null when it does not exist.'),
  }, { title: 'LinkTargetChange', additionalProperties: false, description: 'For a symlink: its target text before and after (it is not followed).' })),
}, { additionalProperties: false, description: 'A file side effect of a tool call: a FileAffectingTool\'s declared paths, or what bash changed in the writable roots.' }));

export const ToolInvocationStatus = def('ToolInvocationStatus', StringEnum(
  ['started', 'running', 'succeeded', 'failed', 'denied'] as const,
  { description: 'Executor view of a call: denied calls never ran; failed includes timeouts and cancellations (see error.code).' },
));

export const ToolInvocationRecord = def('ToolInvocationRecord', Type.Object({
  partId: NonEmpty('Part id of the call.'),
  sessionId: NonEmpty('Session the call belongs to.'),
  tool: NonEmpty('Registered tool name.'),
  status: ToolInvocationStatus,
  input: Type.Unknown({ description: 'Input as requested.' }),
  startedAt: EpochMs('When the call was requested, epoch ms.'),
  completedAt: Type.Optional(EpochMs('When it ended, epoch ms.')),
  elapsedMs: Type.Optional(Type.Number({ minimum: 0, description: 'Duration in milliseconds.' })),
  error: Type.Optional(ToolError),
  assessment: Type.Optional(ToolCallAssessmentRecord),
  mutations: Type.Array(FileMutationRecord, { description: 'File side effects, in order.' }),
}, { additionalProperties: false, description: 'History record of one executor call, projected from its events.' }));
