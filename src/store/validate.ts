import type { ToolEvent } from '../contract/index.js';
import { issuesOfToolEvent } from '../contract/index.js';
import { InvalidEventError } from './types.js';

/**
 * Batches made by toolnorm's own `normalize --store` sink from events its pipeline has just
 * checked against the contract (`--validate all`: an event that fails is dropped there, with a
 * diagnostic). Checking them again on append was a second full validation of every stored event.
 * Under the default `--validate boundary` the pipeline checks nothing of toolnorm's own adapters,
 * and the sink hands its batches over unmarked, so append checks them. Only this module and
 * the sink can add to it (neither is a public entry point), and a batch is trusted as the very
 * array the sink handed over: any other array, even of the same events, is checked in full.
 */
const checked = new WeakSet<readonly ToolEvent[]>();

/** @internal For the store sink: `events` are events the normalize pipeline validated and did not change since. */
export function alreadyChecked<T extends readonly ToolEvent[]>(events: T): T {
  checked.add(events);
  return events;
}

/** Validates a batch before any write: every event must be a ToolEvent of this session. */
export function assertAppendable(sessionId: string, events: readonly ToolEvent[]): void {
  const trusted = checked.has(events);
  events.forEach((e, i) => {
    if (!trusted) {
      const issues = issuesOfToolEvent(e);
      if (issues.length) throw new InvalidEventError(sessionId, i, issues.map((x) => `${x.instancePath || '(root)'} ${x.message}`).join('; '));
    }
    if (e.sessionId !== sessionId) throw new InvalidEventError(sessionId, i, `its sessionId is ${e.sessionId}`);
  });
}
