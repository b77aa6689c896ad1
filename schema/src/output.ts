import { Type } from '@sinclair/typebox';
import { Count, NonEmpty, OneOf, def } from './helpers.js';

// The spec keeps `NormalizedToolPart.output` as `unknown` (foreign events may carry anything), so
// the documented shape every adapter and the executor produce is its own definition, with a
// generated validator and type guard: `isToolOutput(part.output)` narrows without a cast.

export const TextBlock = def('TextBlock', Type.Object({
  type: Type.Literal('text', { description: 'Block type.' }),
  text: Type.String({ description: 'Text content.' }),
}, { additionalProperties: false, description: 'A piece of text output.' }));

export const ImageBlock = def('ImageBlock', Type.Object({
  type: Type.Literal('image', { description: 'Block type.' }),
  mediaType: NonEmpty('Media type, e.g. image/png.'),
  bytes: Count('Decoded size of the image in bytes; the data itself is never kept in parts.'),
  sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the decoded image data.' })),
}, { additionalProperties: false, description: 'An image the tool returned, described by type, size and hash (never its data).' }));

export const ResourceBlock = def('ResourceBlock', Type.Object({
  type: Type.Literal('resource', { description: 'Block type.' }),
  uri: NonEmpty('Resource URI.'),
  mimeType: Type.Optional(Type.String({ description: 'Resource MIME type.' })),
  text: Type.Optional(Type.String({ description: 'Embedded text of the resource, when given.' })),
}, { additionalProperties: false, description: 'A resource (e.g. an MCP embedded resource) the tool returned.' }));

export const OutputBlock = def('OutputBlock', OneOf('type', [TextBlock, ImageBlock, ResourceBlock], {
  description: 'A non-text piece of output, in order.',
}));

export const ToolOutput = def('ToolOutput', Type.Object({
  text: Type.Optional(Type.String({ description: 'What a person reads: command output, file text, MCP text content.' })),
  content: Type.Optional(Type.Array(OutputBlock, { description: 'Non-text content blocks, in order, when the provider returned more than text.' })),
  structured: Type.Optional(Type.Unknown({ description: 'The provider\'s structured result (Claude tool_use_result, Codex item fields, OpenCode metadata), as the provider gave it.' })),
}, { additionalProperties: false, description: 'The output shape every adapter and the executor give a successful part, whatever the kind: `NormalizedToolPart.output` when toolnorm produced it.' }));
