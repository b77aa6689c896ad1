import { describe, expect, it } from 'vitest';
import { HeadFilter, RecentIds } from '../../src/adapters/opencode/head-filter.js';
import { Sessions } from '../../src/adapters/opencode/sessions.js';
import { busEvent, completed, CWD, run, partUpdated, SES, sessionCreated, sse, toolPart, MSG } from '../helpers/opencode-lines.js';

const noLinks = { parent: () => {}, child: () => {} };
const setup = () => {
  const recent = new RecentIds(4);
  const sessions = new Sessions(noLinks);
  return { recent, sessions, filter: new HeadFilter(recent, sessions) };
};
const line = (e: unknown) => JSON.stringify(e);

describe('reading a busy stream without parsing what carries nothing', () => {
  it('skips text deltas, heartbeats, plugin and status events and text-part updates; reads tool parts and unknown tool-ish events', () => {
    const { filter } = setup();
    expect(filter.skippable(line(busEvent('message.part.delta', { sessionID: SES, partID: 'p', field: 'text', delta: 'x' })))).toBe(true);
    expect(filter.skippable(line(busEvent('server.heartbeat', {})))).toBe(true);
    expect(filter.skippable(line({ type: 'plugin.added', properties: { id: 'x' } }))).toBe(true);
    expect(filter.skippable(line(busEvent('message.part.updated', { sessionID: SES, part: { id: 't', type: 'text', text: 'hello' } })))).toBe(true);
    expect(filter.skippable(line(partUpdated(toolPart('prt_1', 'bash', completed({}, 'x')))))).toBe(false);
    expect(filter.skippable(line(busEvent('permission.asked', { id: 'per_1' })))).toBe(false);
    expect(filter.skippable(line(busEvent('session.next.tool.called', {})))).toBe(false);
  });

  it('leaves anything it cannot be sure of to the parser: other key orders, spacing, a line cut short', () => {
    const { filter } = setup();
    expect(filter.skippable('{"properties":{},"type":"server.heartbeat"}')).toBe(false);
    expect(filter.skippable('{ "type": "server.heartbeat", "properties": {} }')).toBe(false);
    expect(filter.skippable('{"id":"evt_1","type":"server.heartbeat","properties":{')).toBe(false);
    expect(filter.skippable('{"id":"evt_\\"x","type":"server.heartbeat","properties":{}}')).toBe(false);
  });

  it('skips repeated session and message info only once the session is settled', () => {
    const { filter, sessions } = setup();
    const update = line(busEvent('session.updated', { sessionID: SES, info: { id: SES, directory: CWD } }));
    const msg = line(busEvent('message.updated', { sessionID: SES, info: { id: MSG, sessionID: SES, path: { cwd: CWD } } }));
    expect(filter.skippable(update)).toBe(false);
    expect(filter.skippable(msg)).toBe(false);
    sessions.onSession({ id: SES, directory: CWD });
    expect(filter.skippable(update)).toBe(true);
    expect(filter.skippable(msg)).toBe(true);
    const child = 'ses_cccccccccccc0000000000000c';
    sessions.onSession({ id: child, parentID: SES, directory: CWD });
    expect(filter.skippable(line(busEvent('session.updated', { sessionID: child, info: { id: child } })))).toBe(false); // not linked to its task yet
  });

  it('global envelopes: reads the head inside payload, and drops a sync whose twin was seen', () => {
    const { filter, recent } = setup();
    const hb = line({ directory: CWD, project: 'p', payload: { id: 'evt_9', type: 'server.heartbeat', properties: {} } });
    expect(filter.skippable(hb)).toBe(true);
    const sync = line({ directory: CWD, project: 'p', payload: { type: 'sync', syncEvent: { id: 'evt_7', type: 'message.part.updated.1', seq: 1, aggregateID: SES, data: { part: { type: 'tool', tool: 'bash' } } }, id: 'evt_7' } });
    expect(filter.skippable(sync)).toBe(false);
    recent.seen('evt_7');
    expect(filter.skippable(sync)).toBe(true);
  });

  it('a skipped stream gives the same parts as a fully parsed one', () => {
    const seq = [sessionCreated(SES), busEvent('server.heartbeat', {}), partUpdated(toolPart('prt_1', 'bash', completed({ command: 'ls' }, 'x')))];
    const spaced = seq.map((e) => `data: ${JSON.stringify(e, null, 1).replace(/\n/g, ' ')}\n\n`).join('');
    expect(run(sse(seq)).parts).toEqual(run(spaced).parts);
  });
});
