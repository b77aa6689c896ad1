import { Type, type TProperties } from '@sinclair/typebox';
import { Count, NonEmpty, OneOf, StringEnum, def } from './helpers.js';
import { Provider, ToolKind } from './kind.js';

export const TokenEstimator = def('TokenEstimator', StringEnum(['bytes4', 'exact'] as const, {
  description:
    'How tokens are estimated: `bytes4` is ceil(UTF-8 bytes / 4), as Codex does; `exact` counts o200k tokens with the optional gpt-tokenizer dependency.',
}));

export const CompressionBudget = def('CompressionBudget', Type.Object({
  maxTokens: Type.Optional(Type.Integer({ minimum: 1, description: 'Largest estimated token count of the kept text, marker included.' })),
  maxBytes: Type.Optional(Type.Integer({ minimum: 1, description: 'Largest UTF-8 byte length of the kept text, marker included.' })),
  maxLines: Type.Optional(Type.Integer({ minimum: 1, description: 'Largest line count of the kept text, marker included.' })),
}, { additionalProperties: false, minProperties: 1, description: 'Limits the compressed output must fit. Every limit given applies.' }));

const step = <T extends string, P extends TProperties = {}>(type: T, title: string, description: string, props?: P) =>
  Type.Object({ type: Type.Literal(type, { description: 'Step name.' }), ...(props ?? ({} as P)) }, { additionalProperties: false, title, description });

export const CompressionStep = def('CompressionStep', OneOf('type', [
  step('ansi_strip', 'AnsiStripStep', 'Remove ANSI escape sequences before measuring and cutting.'),
  step('collapse_repeats', 'CollapseRepeatsStep', 'Collapse runs of identical consecutive lines into one line followed by a `×N` count.', {
    minRun: Type.Optional(Type.Integer({ minimum: 2, description: 'Shortest run that is collapsed (default 3).' })),
  }),
  step('json_summary', 'JsonSummaryStep', 'When the text is JSON, keep its shape but cut long arrays and long strings.', {
    maxArrayItems: Type.Optional(Type.Integer({ minimum: 0, description: 'Array items kept before an omission note (default 20).' })),
    maxStringLength: Type.Optional(Type.Integer({ minimum: 0, description: 'Characters kept of each string (default 200).' })),
  }),
  step('head_tail', 'HeadTailStep', 'Keep whole lines from the start and the end, dropping the middle.', {
    headRatio: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Share of the budget given to the head (default 0.5).' })),
  }),
  step('head', 'HeadStep', 'Keep whole lines from the start only.'),
  step('tail', 'TailStep', 'Keep whole lines from the end only.'),
], { description: 'One composable compression step. Steps run in order; at most one of head_tail, head and tail cuts.' }));

export const OutputCompressionSpec = def('OutputCompressionSpec', Type.Object({
  id: NonEmpty('Stable spec identifier, recorded in every compression it makes.'),
  description: Type.Optional(Type.String({ description: 'Why this spec exists, for example the peer behaviour it mirrors.' })),
  match: Type.Optional(Type.Object({
    kinds: Type.Optional(Type.Array(ToolKind, { description: 'Tool kinds this spec applies to; absent means any.' })),
    names: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Tool names this spec applies to; absent means any.' })),
    providers: Type.Optional(Type.Array(Provider, { description: 'Providers this spec applies to; absent means any.' })),
  }, { additionalProperties: false, title: 'CompressionMatch', description: 'Which parts the spec applies to. Every list given must contain the part\'s value.' })),
  budget: CompressionBudget,
  strategy: Type.Array(CompressionStep, { minItems: 1, description: 'Steps applied in order.' }),
  estimator: Type.Optional(TokenEstimator),
  marker: Type.Optional(Type.String({
    description: 'Template of the omission marker. Placeholders: {omittedLines}, {omittedBytes}, {omittedTokens}, {originalLines}, {originalBytes}, {sha256}.',
  })),
}, { additionalProperties: false, description: 'Declarative, data-only description of how to shrink one class of tool output.' }));

export const CompressionStats = def('CompressionStats', Type.Object({
  specId: NonEmpty('The spec that was applied.'),
  strategy: NonEmpty('The applied steps, joined with `+`.'),
  estimator: TokenEstimator,
  originalBytes: Count('UTF-8 bytes of the original text.'),
  originalLines: Count('Lines of the original text.'),
  originalTokens: Count('Estimated tokens of the original text.'),
  keptBytes: Count('UTF-8 bytes of the compressed text, marker included.'),
  keptLines: Count('Lines of the compressed text, marker included.'),
  keptTokens: Count('Estimated tokens of the compressed text, marker included.'),
  omittedLines: Count('Original lines not present in the compressed text.'),
  omittedBytes: Count('Original bytes not present in the compressed text.'),
}, { additionalProperties: false, description: 'What a compression kept and dropped, in numbers that add up.' }));

export const OriginalRef = def('OriginalRef', Type.Object({
  partId: NonEmpty('Part whose output was compressed.'),
  seq: Type.Optional(Count('Sequence number of the event that holds the full output, when it was stored.')),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the original text, hex.' }),
}, { additionalProperties: false, description: 'Where the untouched original output lives.' }));

export const CompressionRecord = def('CompressionRecord', Type.Object({
  stats: CompressionStats,
  original: OriginalRef,
}, { additionalProperties: false, description: 'How a part\'s output was compressed and where the original is. Compressed output is informational only.' }));
