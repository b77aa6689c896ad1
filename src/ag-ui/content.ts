// The `content` of a TOOL_CALL_RESULT: text, or AG-UI content parts when the output holds more
// than text (toolnorm's `output.content` blocks). AG-UI media parts need the data or a URL; an image
// block in a part has neither (parts never keep image data), so it is described in a text part
// with the block itself in the part's metadata.
import { outputText } from '../acp/content.js';
import type { NormalizedToolPart } from '../contract/index.js';
import type { AgUiContentPart } from './types.js';

type Block = Record<string, unknown> & { type?: unknown };

const PARTS: Record<string, (b: Block) => AgUiContentPart | undefined> = {
  text: (b) => (typeof b.text === 'string' ? { type: 'text', text: b.text } : undefined),
  resource: (b) =>
    typeof b.uri === 'string' && b.uri
      ? { type: 'document', source: { type: 'url', value: b.uri, ...(typeof b.mimeType === 'string' && b.mimeType ? { mimeType: b.mimeType } : {}) }, ...(typeof b.text === 'string' ? { metadata: { toolnorm: { text: b.text } } } : {}) }
      : undefined,
  image: (b) => ({ type: 'text', text: `[image ${typeof b.mediaType === 'string' ? b.mediaType : ''}${typeof b.bytes === 'number' ? `, ${b.bytes} bytes` : ''}]`, metadata: { toolnorm: { block: b } } }),
};

/** Content parts of an output with `content` blocks, else undefined (the result is then text). */
function contentParts(output: unknown): AgUiContentPart[] | undefined {
  if (!output || typeof output !== 'object') return undefined;
  const o = output as { text?: unknown; content?: unknown };
  if (!Array.isArray(o.content) || !o.content.length) return undefined;
  const parts: AgUiContentPart[] = typeof o.text === 'string' && o.text ? [{ type: 'text', text: o.text }] : [];
  for (const b of o.content as Block[]) {
    const made = b && typeof b === 'object' && typeof b.type === 'string' ? PARTS[b.type]?.(b) : undefined;
    // A block of a kind AG-UI has no part for is kept whole, as JSON text: nothing is dropped.
    parts.push(made ?? { type: 'text', text: JSON.stringify(b) });
  }
  return parts;
}

/** A result's content: the error message, the output's parts or text, else "". */
export function resultContent(part: NormalizedToolPart): string | AgUiContentPart[] {
  if (part.state === 'error') return part.error.message;
  if (part.state === 'complete') return contentParts(part.output) ?? outputText(part.output) ?? '';
  return '';
}
