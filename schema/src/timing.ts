import { Type } from '@sinclair/typebox';
import { def } from './helpers.js';

const Instant = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.String({ minLength: 1 })], { title: 'Instant', description });

export const ToolTiming = def('ToolTiming', Type.Object({
  startedAt: Type.Optional(Instant('When the first event of the part was seen. toolnorm writes epoch milliseconds; the seed also allows a string.')),
  completedAt: Type.Optional(Instant('When the terminal event was seen. toolnorm writes epoch milliseconds; the seed also allows a string.')),
  elapsedMs: Type.Optional(Type.Number({ minimum: 0, description: 'Duration in milliseconds: the provider\'s own figure when it gives one, otherwise completedAt − startedAt.' })),
}, { additionalProperties: false, description: 'Timing of a tool part.' }));
