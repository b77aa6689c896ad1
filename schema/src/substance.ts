// What a call did, in one shape for every provider (docs/contract.md#substance): the command it
// ran, what it searched, the plan it wrote and the approval it waited for. Adapters fill these
// once; every output (ACP, AI SDK, AG-UI, the viewer) reads them and never the provider's input.
import { Type } from '@sinclair/typebox';
import { Count, EpochMs, NonEmpty, StringEnum, def } from './helpers.js';

export const CommandRun = def('CommandRun', Type.Object({
  command: NonEmpty('The command line as it ran, e.g. `cat README.md`. An argv array is joined with shell quoting; a `bash -lc SCRIPT` wrapper is unwrapped to SCRIPT.'),
  cwd: Type.Optional(NonEmpty('Working directory it ran in, when known.')),
  exitCode: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'Exit status; null when it was killed before exiting; absent while running or when the provider does not say.' })),
  description: Type.Optional(NonEmpty('What the model said the command is for (Claude and OpenCode `description`), when it said. The title is the command; this is shown beside it.')),
  background: Type.Optional(Type.Boolean({ description: 'True when the command was started in the background (its output comes later, or never).' })),
}, { additionalProperties: false, description: 'The command a bash call ran: `metadata.command`. Its terminal output stays in `output` (or in `error` when it failed).' }));

export const SearchInfo = def('SearchInfo', Type.Object({
  query: Type.Optional(NonEmpty('A web or semantic search query.')),
  pattern: Type.Optional(NonEmpty('A glob or regular expression the call matched paths or lines against.')),
  path: Type.Optional(NonEmpty('Where it searched: a directory (absolute when the cwd is known) or a URL.')),
  paths: Type.Optional(Type.Array(NonEmpty('A path the search touched or matched.'), { description: 'Paths the search touched (matches first, absolute when the cwd is known), at most 100.' })),
  matches: Type.Optional(Count('How many paths or lines matched, when the result says (it may exceed the paths listed).')),
}, { additionalProperties: false, description: 'What a search call looked for and where: `metadata.search`.' }));

export const FileRead = def('FileRead', Type.Object({
  path: NonEmpty('The file read: absolute when the cwd is known, else as the provider wrote it.'),
  line: Type.Optional(Type.Integer({ minimum: 1, description: 'First line read, when the call read from a line on (1-based).' })),
  limit: Type.Optional(Count('How many lines it read at most, when it said.')),
}, { additionalProperties: false, description: 'The file a read call read: `metadata.read`. Outputs point at it (ACP `locations`) without reading the call\'s input.' }));

export const PlanEntryStatus = def('PlanEntryStatus', StringEnum(['pending', 'in_progress', 'completed', 'cancelled'] as const, {
  description: 'Where a plan entry stands. cancelled: the provider dropped it (OpenCode); ACP, which has no such status, shows it as completed.',
}));

export const PlanEntryPriority = def('PlanEntryPriority', StringEnum(['high', 'medium', 'low'] as const, {
  description: 'How much a plan entry matters, when the provider says (OpenCode todowrite, older Claude TodoWrite).',
}));

export const PlanEntry = def('PlanEntry', Type.Object({
  content: NonEmpty('What is to be done, as the model wrote it.'),
  status: PlanEntryStatus,
  priority: Type.Optional(PlanEntryPriority),
  id: Type.Optional(NonEmpty('The provider\'s id for the entry (Claude Task* tools, OpenCode todos), when it has one.')),
  activeForm: Type.Optional(NonEmpty('The entry in the present tense, for showing while it is in progress (Claude).')),
}, { additionalProperties: false, description: 'One entry of a plan.' }));

export const ToolPlan = def('ToolPlan', Type.Object({
  entries: Type.Array(PlanEntry, { description: 'The whole plan after the call, in the provider\'s order.' }),
  explanation: Type.Optional(Type.String({ description: 'Why the plan changed, when the model said (Codex update_plan).' })),
  partial: Type.Optional(Type.Boolean({ description: 'True when the call changed only some entries (Claude TaskCreate / TaskUpdate) and `entries` holds just those.' })),
}, { additionalProperties: false, description: 'The todo list or plan a todo call wrote: `metadata.plan`.' }));

export const ApprovalState = def('ApprovalState', StringEnum(['pending', 'approved', 'denied', 'expired'] as const, {
  description: 'Where an approval stands. pending: the call waits for an answer. approved / denied: answered. expired: it was never answered (the turn or session ended, or the request was withdrawn).',
}));

export const ApprovalOption = def('ApprovalOption', Type.Object({
  id: NonEmpty('The option\'s id, as the answer names it.'),
  name: Type.Optional(Type.String({ description: 'What the option says to the person.' })),
  kind: Type.Optional(Type.String({ description: 'What choosing it means, e.g. ACP `allow_once`, `allow_always`, `reject_once`, `reject_always`.' })),
}, { additionalProperties: false, description: 'One answer a permission request offered.' }));

export const ToolApproval = def('ToolApproval', Type.Object({
  state: ApprovalState,
  source: NonEmpty('Who asked or answered: `user` (a person, through the agent\'s prompt), `policy` (a rule or an approval mode decided alone), `hook` (a hook script), `executor` (toolnorm\'s own policy), or the provider\'s own word when none of those fits.'),
  reason: Type.Optional(Type.String({ description: 'Why it was asked or decided, in the provider\'s words.' })),
  at: Type.Optional(EpochMs('When the state was reached (the request, or the answer).')),
  requestedAt: Type.Optional(EpochMs('When the approval was asked for, once it is answered.')),
  options: Type.Optional(Type.Array(ApprovalOption, { description: 'The answers offered, when the request listed them (ACP).' })),
  optionId: Type.Optional(NonEmpty('The option chosen, when the answer named one.')),
  detail: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The provider\'s other approval fields (a blocked path, a hook name, a message), kept as given.' })),
}, { additionalProperties: false, description: 'An approval a call waited for, and its answer: `metadata.approval`. A denied approval is followed by the part\'s `error` with code `denied`.' }));
