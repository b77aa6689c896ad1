// Where `toolnorm acp` finds the sessions it serves: recordings named on the command line, read
// through the same pipeline as `normalize --to acp`, or an event store, replayed as `replay --to acp`
// does. Both give, per protocol version, each session's `session/update` notifications in order.
import { isAbsolute, resolve } from 'node:path';
import { readNeighbours } from '../adapters/opencode/neighbours.js';
import { detectAdapter, ADAPTERS } from '../adapters/registry.js';
import { NormalizePipeline } from '../outputs/pipeline.js';
import { DEFAULT_MAX_LINE_BYTES, readLines } from '../pipeline/lines.js';
import type { Input } from '../cli/inputs.js';
import { encodeParts } from '../acp/encoder.js';
import { encodePartsV2 } from '../acp/encoder-v2.js';
import { ToolRepository } from '../events/repository.js';
import { projectParts } from '../events/projector.js';
import type { EventStore } from '../store/types.js';
import type { NormalizedToolPart } from '../contract/index.js';
import { obj } from '../fields.js';

export type AcpVersion = 1 | 2;

/** One listed session: ACP's SessionInfo, both versions. */
export interface SessionEntry {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt?: string;
}

export interface SessionSource {
  list(): Promise<SessionEntry[]>;
  /** The session's notifications (`{jsonrpc, method: 'session/update', params}`), or undefined when there is no such session. */
  frames(sessionId: string, version: AcpVersion): Promise<unknown[] | undefined>;
}

const notification = (params: unknown) => ({ jsonrpc: '2.0', method: 'session/update', params });

/** What a session's first frames say about it: the cwd its parts ran in, and the last time. */
function describe(sessionId: string, metas: readonly unknown[], fallbackCwd: string, label: string, calls: number): SessionEntry {
  let cwd: string | undefined;
  let last: number | undefined;
  for (const m of metas) {
    const tn = obj(m);
    const c = obj(tn?.metadata)?.cwd;
    if (cwd === undefined && typeof c === 'string' && isAbsolute(c)) cwd = c;
    const t = obj(tn?.timing);
    for (const k of ['completedAt', 'startedAt']) {
      const v = t?.[k];
      if (typeof v === 'number' && Number.isFinite(v) && (last === undefined || v > last)) last = v;
    }
  }
  return {
    sessionId,
    cwd: cwd ?? fallbackCwd,
    title: `${label}: ${calls} tool call${calls === 1 ? '' : 's'}`,
    ...(last !== undefined && last > 0 ? { updatedAt: new Date(last).toISOString() } : {}),
  };
}

/** The sessions of recordings, normalized once per protocol version on first use. */
export class RecordingSource implements SessionSource {
  private readonly byVersion = new Map<AcpVersion, Promise<Map<string, unknown[]>>>();
  private readonly labels = new Map<string, string>();

  /** `warn` hears of inputs that could not be read or are no recording (once each). */
  constructor(private readonly inputs: readonly Input[], private readonly cwd: string, private readonly warn: (message: string) => void = () => {}) {}

  private read(version: AcpVersion): Promise<Map<string, unknown[]>> {
    let p = this.byVersion.get(version);
    if (!p) this.byVersion.set(version, (p = this.normalize(version)));
    return p;
  }

  /** Every input through one pipeline, as `normalize --to acp [--acp-version 2] FILE…` runs them. */
  private async normalize(version: AcpVersion): Promise<Map<string, unknown[]>> {
    const sessions = new Map<string, unknown[]>();
    const pipeline = new NormalizePipeline(ADAPTERS[0]!, { to: 'acp', acpVersion: version }, {
      output: (r) => {
        const params = obj(obj(r)?.params);
        const id = String(params?.sessionId);
        let list = sessions.get(id);
        if (!list) sessions.set(id, (list = []));
        list.push(r);
      },
      diagnostic: () => {},
    });
    let neighboursRead = false;
    for (const input of this.inputs) {
      const lines: { text: string; line: number; offset: number; tooLarge?: number }[] = [];
      try {
        for await (const l of readLines(input.open(), undefined, { maxLineBytes: DEFAULT_MAX_LINE_BYTES })) lines.push(l);
      } catch (e) {
        if (version === 1) this.warn(`cannot read ${input.name}: ${(e as Error).message}`);
        continue;
      }
      const sample = lines.filter((l) => l.text.trim()).slice(0, 20).map((l) => l.text);
      const found = detectAdapter({ lines: sample, file: input.name }) ?? (sample.length > 1 && lines.length <= 20 ? detectAdapter({ lines: [sample.join('\n')], file: input.name }) : undefined);
      if (!found) {
        if (version === 1) this.warn(`${input.name} was skipped: its first lines are no format toolnorm reads`);
        continue;
      }
      // As `normalize` does: an OpenCode run's cwd and MCP server names come from the config and
      // exports beside the recordings, read once, before the OpenCode adapter is made.
      if (found.adapter.id === 'opencode' && !neighboursRead) {
        neighboursRead = true;
        const n = readNeighbours(this.inputs.filter((i) => i.name !== '-').map((i) => resolve(this.cwd, i.name)));
        pipeline.configureAdapter('opencode', { ...(n.cwd ? { cwd: n.cwd } : {}), ...(n.mcpServers.length ? { mcpServers: n.mcpServers } : {}) });
      }
      pipeline.useAdapter(found.adapter);
      pipeline.beginFile(input.name);
      const before = new Set(sessions.keys());
      for (const l of lines) {
        const pos = { line: l.line, offset: l.offset, ...(this.inputs.length > 1 || input.name !== '-' ? { file: input.name } : {}) };
        if (l.tooLarge !== undefined) pipeline.lineTooLarge(l.tooLarge, DEFAULT_MAX_LINE_BYTES, pos);
        else pipeline.line(l.text, pos);
      }
      pipeline.endFile(input.name);
      for (const id of sessions.keys()) if (!before.has(id) && !this.labels.has(id)) this.labels.set(id, input.name);
    }
    pipeline.end();
    return sessions;
  }

  async list(): Promise<SessionEntry[]> {
    const sessions = await this.read(1);
    return [...sessions].map(([id, frames]) => {
      const metas = frames.map((f) => obj(obj(obj(obj(f)?.params)?.update)?._meta)?.toolnorm);
      // Plan updates name no call: only tool call frames count.
      const calls = new Set(frames.map((f) => obj(obj(obj(f)?.params)?.update)?.toolCallId).filter((id) => id !== undefined)).size;
      return describe(id, metas, this.cwd, this.labels.get(id) ?? id, calls);
    });
  }

  async frames(sessionId: string, version: AcpVersion): Promise<unknown[] | undefined> {
    return (await this.read(version)).get(sessionId);
  }
}

/** The sessions of an event store, replayed like `toolnorm replay --to acp`. */
export class StoreSource implements SessionSource {
  constructor(private readonly store: EventStore, private readonly cwd: string) {}

  private async parts(sessionId: string): Promise<NormalizedToolPart[]> {
    const state = await new ToolRepository(this.store).replayer.replay(sessionId, { keepScratch: true });
    return projectParts(state.state);
  }

  async list(): Promise<SessionEntry[]> {
    const out: SessionEntry[] = [];
    for (const s of await this.store.sessions()) {
      const parts = await this.parts(s.sessionId);
      const entry = describe(s.sessionId, parts.map((p) => ({ metadata: p.metadata, timing: p.timing })), this.cwd, 'stored session', parts.length);
      if (s.lastAt !== undefined) entry.updatedAt = new Date(s.lastAt).toISOString();
      out.push(entry);
    }
    return out;
  }

  async frames(sessionId: string, version: AcpVersion): Promise<unknown[] | undefined> {
    if ((await this.store.head(sessionId)) === 0) return undefined;
    const parts = await this.parts(sessionId);
    return (version === 2 ? encodePartsV2 : encodeParts)(sessionId, parts).map(notification);
  }
}
