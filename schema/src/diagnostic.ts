import { Type } from '@sinclair/typebox';
import { NonEmpty, StringEnum, def } from './helpers.js';
import { EventSource } from './event.js';

export const Diagnostic = def('Diagnostic', Type.Object({
  severity: StringEnum(['warning', 'error'] as const, { title: 'DiagnosticSeverity', description: 'error: input was lost or unusable; warning: input was kept but is suspicious.' }),
  code: NonEmpty('Stable machine code, e.g. malformed_line, unknown_event, late_event, orphan_result.'),
  message: NonEmpty('What happened and why, for a person.'),
  source: Type.Optional(EventSource),
  partId: Type.Optional(Type.String({ description: 'Part concerned, when there is one.' })),
  excerpt: Type.Optional(Type.String({ description: 'A short excerpt (about 120 characters) of the offending input.' })),
}, { additionalProperties: false, description: 'A problem noticed while reading or reducing input. The stream goes on; nothing is dropped silently.' }));
