// Deterministic trace and span ids, so the same recording always gives the same OTLP output and a
// child's parent id can be written before its parent's span: hex of a SHA-256 of the ids.
import { createHash } from 'node:crypto';

const hex = (text: string, chars: number): string => {
  const h = createHash('sha256').update(text).digest('hex').slice(0, chars);
  // All-zero ids are invalid in OTLP; a hash prefix of zeros is astronomically unlikely, but cheap to exclude.
  return /^0+$/.test(h) ? `${h.slice(0, -1)}1` : h;
};

export const traceIdOf = (sessionId: string): string => hex(`trace\u0000${sessionId}`, 32);
export const sessionSpanIdOf = (sessionId: string): string => hex(`session\u0000${sessionId}`, 16);
export const toolSpanIdOf = (sessionId: string, partId: string): string => hex(`part\u0000${sessionId}\u0000${partId}`, 16);
