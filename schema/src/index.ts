// The contract document. Importing the concept modules registers their definitions (in import
// order, which is the `$defs` order); `buildContract()` assembles the one JSON document.
import { registry } from './helpers.js';
import './kind.js';
import './state.js';
import './error.js';
import './timing.js';
import './compression.js';
import './executor.js';
import './substance.js';
import './metadata.js';
import './output.js';
import './part.js';
import './event.js';
import './diagnostic.js';
import './acp.js';
import './ui.js';

export const SCHEMA_ID = 'https://toolnorm.dev/schema/v1/toolnorm.schema.json';

/** Definitions that get a precompiled validator and validate/is/assert helpers. */
export const ENTRY_POINTS = [
  'NormalizedToolPart',
  'ToolEvent',
  'Diagnostic',
  'AcpSessionUpdateParams',
  'UiToolPart',
  'OutputCompressionSpec',
  'CompressionRecord',
  'ToolInvocationRecord',
  'ToolCallAssessmentRecord',
  'FileMutationRecord',
  'ValidationResult',
  'ToolOutput',
] as const;

export function buildContract(): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (const [name, schema] of registry) {
    // Round-trip through JSON so TypeBox's symbol keys are gone and the object is plain data.
    $defs[name] = { title: name, ...JSON.parse(JSON.stringify(schema)) };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: SCHEMA_ID,
    title: 'ToolnormContract',
    description:
      'The toolnorm contract: one canonical shape for coding-agent tool activity (NormalizedToolPart), the event stream it is reduced from (ToolEvent), the ACP and UI shapes it is emitted as, and the executor and compressor records. Every definition is under $defs; validate against "#/$defs/<Name>". The root names every definition as a property so that code generators reach them all; it is not itself a message.',
    // Generators (quicktype, datamodel-code-generator, …) start from the root and emit only what it
    // reaches; a root with bare $defs gives them an empty type.
    type: 'object',
    properties: Object.fromEntries(Object.keys($defs).map((name) => [name, { $ref: `#/$defs/${name}` }])),
    additionalProperties: false,
    $defs,
  };
}
