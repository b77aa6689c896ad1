import type { ToolEvent } from '../contract/index.js';
import { issuesOfToolEvent } from '../contract/index.js';
import { InvalidEventError } from './types.js';

/** Validates a batch before any write: every event must be a ToolEvent of this session. */
export function assertAppendable(sessionId: string, events: readonly ToolEvent[]): void {
  events.forEach((e, i) => {
    const issues = issuesOfToolEvent(e);
    if (issues.length) throw new InvalidEventError(sessionId, i, issues.map((x) => `${x.instancePath || '(root)'} ${x.message}`).join('; '));
    if (e.sessionId !== sessionId) throw new InvalidEventError(sessionId, i, `its sessionId is ${e.sessionId}`);
  });
}
