import { Type } from '@sinclair/typebox';
import { NonEmpty, OneOf, StringEnum, def } from './helpers.js';
import { ToolKind } from './kind.js';
import { ToolState } from './state.js';
import { ToolError } from './error.js';
import { ToolTiming } from './timing.js';
import { ToolMetadata } from './metadata.js';

// A strict subset of ACP v1 (`@agentclientprotocol/sdk` schema/v1) for the frames toolnorm emits.
// The official schema allows custom root fields and SDK clients silently strip or blank invalid
// values, so our own schema closes every object we emit and keeps extras under `_meta.toolnorm`.

export const ACP_TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;

export const AcpToolKind = def('AcpToolKind', StringEnum(ACP_TOOL_KINDS, { description: 'ACP v1 ToolKind: exactly the ten values of the official schema.' }));

export const AcpToolCallStatus = def('AcpToolCallStatus', StringEnum(['pending', 'in_progress', 'completed', 'failed'] as const, {
  description: 'ACP v1 ToolCallStatus. v1 has no cancelled: cancellations are failed, with the reason in _meta.toolnorm.error.',
}));

const MetaOpen = Type.Optional(Type.Object({}, { additionalProperties: true, description: 'ACP extension point.' }));

export const AcpContentBlock = def('AcpContentBlock', OneOf('type', [
  Type.Object({ type: Type.Literal('text', { description: 'Block type.' }), text: Type.String({ description: 'Text.' }), _meta: MetaOpen }, { additionalProperties: false, title: 'AcpTextContent', description: 'Text content.' }),
  Type.Object({
    type: Type.Literal('image', { description: 'Block type.' }),
    data: Type.String({ description: 'Base64 image data.' }),
    mimeType: NonEmpty('Media type.'),
    uri: Type.Optional(Type.String({ description: 'Where the image came from.' })),
    _meta: MetaOpen,
  }, { additionalProperties: false, title: 'AcpImageContent', description: 'Image content.' }),
  Type.Object({
    type: Type.Literal('resource_link', { description: 'Block type.' }),
    uri: NonEmpty('Resource URI.'),
    name: NonEmpty('Resource name.'),
    mimeType: Type.Optional(Type.String({ description: 'Media type.' })),
    size: Type.Optional(Type.Integer({ minimum: 0, description: 'Size in bytes.' })),
    _meta: MetaOpen,
  }, { additionalProperties: false, title: 'AcpResourceLink', description: 'A link to a resource.' }),
], { description: 'The ACP ContentBlock variants toolnorm emits inside tool call content.' }));

export const AcpToolCallContent = def('AcpToolCallContent', OneOf('type', [
  Type.Object({ type: Type.Literal('content', { description: 'Content type.' }), content: AcpContentBlock, _meta: MetaOpen }, { additionalProperties: false, title: 'AcpContent', description: 'A wrapped content block.' }),
  Type.Object({
    type: Type.Literal('diff', { description: 'Content type.' }),
    path: NonEmpty('Absolute path of the file.'),
    oldText: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Text before; null only for a true creation.' })),
    newText: Type.String({ description: 'Text after.' }),
    _meta: MetaOpen,
  }, { additionalProperties: false, title: 'AcpDiff', description: 'A file diff.' }),
  Type.Object({ type: Type.Literal('terminal', { description: 'Content type.' }), terminalId: NonEmpty('Terminal id.'), _meta: MetaOpen }, { additionalProperties: false, title: 'AcpTerminal', description: 'A terminal reference.' }),
], { description: 'ACP ToolCallContent. An update replaces the whole list.' }));

export const AcpToolCallLocation = def('AcpToolCallLocation', Type.Object({
  path: NonEmpty('Absolute file path.'),
  line: Type.Optional(Type.Integer({ minimum: 1, description: '1-based line.' })),
}, { additionalProperties: false, description: 'A file location the call touches, for follow-along.' }));

export const AcpToolnormMeta = def('AcpToolnormMeta', Type.Object({
  toolName: Type.Optional(NonEmpty('Canonical tool name (also in the root `name`, which older clients drop).')),
  kind: Type.Optional(ToolKind),
  state: Type.Optional(ToolState),
  title: Type.Optional(NonEmpty('Our title, kept so decoding is exact even if a client rewrites the ACP title.')),
  input: Type.Optional(Type.Unknown({ description: 'Part input when it differs from rawInput.' })),
  output: Type.Optional(Type.Unknown({ description: 'Part output when it differs from rawOutput (full output when content is compressed).' })),
  error: Type.Optional(Type.Object({
    message: Type.Optional(Type.String({ minLength: 1, description: 'As in ToolError; left out when it is the text `content` shows (`elided` then names `error.message`).' })),
    code: Type.Optional(Type.String({ minLength: 1, description: 'As in ToolError.' })),
    details: Type.Optional(Type.Unknown({ description: 'As in ToolError.' })),
  }, { additionalProperties: false, title: 'AcpToolError', description: 'The part\'s ToolError, its message possibly left out (see `elided`).' })),
  timing: Type.Optional(ToolTiming),
  metadata: Type.Optional(ToolMetadata),
  elided: Type.Optional(Type.Array(NonEmpty('A key path such as `text` or `structured.stdout`.'), { description: 'Keys of this frame\'s `rawOutput` left out because their value is the text the client already displays (the last text item of `content`, or `_meta.terminal_output.data` for terminal content); each was the first key of its object, and decoding puts it back there.' })),
  replaced: Type.Optional(Type.Array(Type.Union([Type.Literal('timing'), Type.Literal('metadata')]), { description: 'On an update, `timing` and `metadata` carry only their changed keys, merged into the previous value; the keys named here are sent whole instead and replace it.' })),
}, { additionalProperties: false, description: 'Everything ACP has no field for, under `_meta.toolnorm`. On updates only the changed keys are present, and `timing`/`metadata` only their changed sub-keys (see `replaced`).' }));

const AcpMeta = Type.Object({ toolnorm: Type.Optional(AcpToolnormMeta) }, { additionalProperties: true, title: 'AcpMeta', description: 'ACP `_meta`; toolnorm\'s data is under the `toolnorm` key.' });

const common = {
  toolCallId: NonEmpty('The part id.'),
  content: Type.Optional(Type.Array(AcpToolCallContent, { description: 'Replaces the content collection.' })),
  locations: Type.Optional(Type.Array(AcpToolCallLocation, { description: 'Replaces the locations collection.' })),
  rawInput: Type.Optional(Type.Unknown({ description: 'The part input.' })),
  rawOutput: Type.Optional(Type.Unknown({ description: 'The part output or error.' })),
};

export const AcpToolCall = def('AcpToolCall', Type.Object({
  sessionUpdate: Type.Literal('tool_call', { description: 'Update type.' }),
  ...common,
  title: NonEmpty('Never empty.'),
  name: NonEmpty('Programmatic tool name; always set.'),
  kind: AcpToolKind,
  status: AcpToolCallStatus,
  _meta: AcpMeta,
}, { additionalProperties: false, description: 'The first frame of a tool call.' }));

export const AcpToolCallUpdate = def('AcpToolCallUpdate', Type.Object({
  sessionUpdate: Type.Literal('tool_call_update', { description: 'Update type.' }),
  ...common,
  title: Type.Optional(NonEmpty('Replacement title.')),
  name: Type.Optional(NonEmpty('Replacement name.')),
  kind: Type.Optional(AcpToolKind),
  status: Type.Optional(AcpToolCallStatus),
  _meta: Type.Optional(AcpMeta),
}, { additionalProperties: false, description: 'A later frame carrying only what changed.' }));

export const AcpPlanEntry = def('AcpPlanEntry', Type.Object({
  content: Type.String({ description: 'What is to be done.' }),
  priority: StringEnum(['high', 'medium', 'low'] as const, { description: 'ACP requires one: the entry\'s own, else medium.' }),
  status: StringEnum(['pending', 'in_progress', 'completed'] as const, { description: 'ACP v1 PlanEntryStatus. v1 has no cancelled: a cancelled entry is completed, with `_meta.toolnorm.status` cancelled.' }),
  _meta: Type.Optional(Type.Object({
    toolnorm: Type.Object({
      status: Type.Optional(Type.Literal('cancelled', { description: 'The entry was cancelled (v1 shows it completed).' })),
      id: Type.Optional(NonEmpty('The provider\'s id for the entry.')),
    }, { additionalProperties: false, title: 'AcpPlanEntryToolnorm', description: 'What ACP v1 has no field for.' }),
  }, { additionalProperties: true, title: 'AcpPlanEntryMeta', description: 'ACP `_meta` of a plan entry.' })),
}, { additionalProperties: false, description: 'One ACP v1 PlanEntry.' }));

export const AcpPlan = def('AcpPlan', Type.Object({
  sessionUpdate: Type.Literal('plan', { description: 'Update type.' }),
  entries: Type.Array(AcpPlanEntry, { description: 'The whole plan: the client replaces its plan with it.' }),
  _meta: Type.Object({
    toolnorm: Type.Object({
      partId: NonEmpty('The todo call that wrote this plan.'),
      explanation: Type.Optional(Type.String({ description: 'Why the plan changed, when the model said.' })),
    }, { additionalProperties: false, title: 'AcpPlanToolnorm', description: 'What ACP v1 has no field for.' }),
  }, { additionalProperties: true, title: 'AcpPlanMeta', description: 'ACP `_meta` of a plan update.' }),
}, { additionalProperties: false, description: 'The session\'s plan, sent after a todo call that wrote `metadata.plan`.' }));

export const AcpSessionUpdateParams = def('AcpSessionUpdateParams', Type.Object({
  sessionId: NonEmpty('ACP session id.'),
  update: OneOf('sessionUpdate', [AcpToolCall, AcpToolCallUpdate, AcpPlan], { title: 'AcpSessionUpdate', description: 'A tool call update, or the plan a todo call wrote.' }),
  _meta: MetaOpen,
}, { additionalProperties: false, description: 'Params of an ACP v1 `session/update` notification as toolnorm emits it.' }));
