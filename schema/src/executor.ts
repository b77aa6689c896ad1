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

export const FileOperation = def('FileOperation', StringEnum(['create', 'modify', 'delete', 'rename', 'unchanged'] as const, { description: 'What happened to the file. rename: the same file moved from `from` to `path` (for the executor: the same inode); its content may also have changed. unchanged: only the executor writes it, for a declared path the call left as it was.' }));

export const FileEntryType = def('FileEntryType', StringEnum(['file', 'symlink'] as const, { description: 'What the path holds; absent means a regular file. For a symlink, the digests describe its target text and `target` gives that text.' }));

export const FileModeChange = def('FileModeChange', Type.Object({
  before: ChangedText('Permission bits before the call as four octal digits (setuid, setgid and sticky first, e.g. 4755); null when the file did not exist.'),
  after: ChangedText('Permission bits after the call as four octal digits; null when the file does not exist.'),
}, { additionalProperties: false, description: 'The permission bits, given when they are known and not the same before and after (a chmod, a setuid bit, a file created or deleted).' }));

export const LinkTargetChange = def('LinkTargetChange', Type.Object({
  before: ChangedText('Where the link pointed before the call; null when it did not exist.'),
  after: ChangedText('Where the link points after the call; null when it does not exist.'),
}, { additionalProperties: false, description: 'For a symlink: its target text before and after (it is not followed).' }));

/**
 * The fields a file change has wherever it is known from: the executor's own record (which also
 * knows the digests) and `metadata.files` of any part (which may know a diff instead). One list,
 * so the two can never disagree on a name.
 */
const fileChangeFields = {
  path: NonEmpty('Absolute path (for a rename: where the file is after the call). From the executor: ToolPath-resolved. From a provider: made absolute against the call\'s cwd; kept as the provider wrote it only when no cwd is known.'),
  operation: FileOperation,
  from: Type.Optional(NonEmpty('For a rename: the path the file had before the call.')),
  type: Type.Optional(FileEntryType),
  mode: Type.Optional(FileModeChange),
  target: Type.Optional(LinkTargetChange),
};

const Digest = (what: string) => Type.Union([FileDigest, Type.Null()], { description: what });

export const FileMutationRecord = def('FileMutationRecord', Type.Object({
  ...fileChangeFields,
  before: Digest('The file before the call; null when it did not exist.'),
  after: Digest('The file after the call; null when it does not exist.'),
}, { additionalProperties: false, description: 'A file side effect of a tool call: a FileAffectingTool\'s declared paths, or what bash changed in the writable roots. Every FileMutationRecord is also a FileChange.' }));

export const FileChange = def('FileChange', Type.Object({
  ...fileChangeFields,
  before: Type.Optional(Digest('The file before the call, when it was measured (the executor); null when it did not exist.')),
  after: Type.Optional(Digest('The file after the call, when it was measured; null when it does not exist.')),
  diff: Type.Optional(Type.String({ description: 'Unified diff of the change (`--- a/PATH`, `+++ b/PATH`, `@@` hunks; /dev/null for a side that does not exist), when the text before and after, or a patch, is known. Under the metadata budget a long diff becomes a size marker string, listed in `metadata.truncated`.' })),
  oldText: Type.Optional(ChangedText('The text before (the whole file, or for an edit the replaced snippet), when known; null for a file that did not exist. Under the metadata budget the diff goes first (it can be rebuilt from the two texts), then the longer text.')),
  newText: Type.Optional(ChangedText('The text after (the whole file, or the new snippet), when known; null for a deleted file.')),
  stats: Type.Optional(Type.Object({
    added: Count('Lines added.'),
    removed: Count('Lines removed.'),
  }, { title: 'LineStats', additionalProperties: false, description: 'Lines added and removed, counted from the diff.' })),
}, { additionalProperties: false, description: 'One file a call changed (or, for a denied or failed call, would have changed): `metadata.files`. Every output that shows a diff or a location reads it from here.' }));

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
