import { Type } from '@sinclair/typebox';
import { MAX_EPOCH_MS, def } from './helpers.js';

// An instant is any time a Date can hold, before 1970 too (negative epoch ms); a duration is never
// negative. When the end a part's events carry is before its start, no elapsedMs is computed (the
// reducer reports `negative_duration`) rather than a made-up 0 (docs/contract.md#times).
const Instant = (description: string) =>
  Type.Union([Type.Number({ minimum: -MAX_EPOCH_MS, maximum: MAX_EPOCH_MS }), Type.String({ minLength: 1 })], { title: 'Instant', description });

export const ToolTiming = def('ToolTiming', Type.Object({
  startedAt: Type.Optional(Instant('When the first event of the part was seen. toolnorm writes epoch milliseconds; the seed also allows a string.')),
  completedAt: Type.Optional(Instant('When the terminal event was seen. toolnorm writes epoch milliseconds; the seed also allows a string.')),
  elapsedMs: Type.Optional(Type.Number({ minimum: 0, description: 'Duration in milliseconds: the provider\'s own figure when it gives one, otherwise completedAt − startedAt, and absent when that is negative (an end recorded before the start).' })),
}, { additionalProperties: false, description: 'Timing of a tool part.' }));
