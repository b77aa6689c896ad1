// `toolnorm acp`: a read-only ACP agent on stdio that serves recorded sessions (files or a store).
import { resolveInputs, type Input } from '../inputs.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import { describeStoreUrl, openStore } from '../../store/open.js';
import { storeError } from '../../store/errors.js';
import type { EventStore } from '../../store/types.js';
import { VERSION } from '../run.js';
import { ReadOnlyAgent } from '../../acp-agent/agent.js';
import { RecordingSource, StoreSource, type SessionSource } from '../../acp-agent/sources.js';

const USAGE = `Usage: toolnorm acp [--store URL | FILE...]

An ACP agent on stdin/stdout that lets any ACP client (Zed, JetBrains, …) open recorded Claude
Code, Codex or OpenCode sessions. It lists the sessions of the recordings (FILE..., directories
too) or of an event store (--store), and replays one when the client loads it: the same
session/update notifications \`toolnorm normalize --to acp\` (or \`replay --to acp\`) prints.
The protocol version is the client's choice at initialize: ACP v1 (session/list, session/load)
or the v2 draft (session/list, session/resume with replayFrom {"type": "start"}). It is
read-only: session/prompt and session/new are answered with an error saying so.
Register it in the client as an agent whose command is \`toolnorm acp FILE...\`.

Options:
  --store URL         sqlite:PATH or postgres://… instead of files (opened read-only)
Exit: 0 when the client closes stdin; 1 when an input or the store cannot be read; 2 on bad usage.`;

export const acpCommand: Command = {
  name: 'acp',
  summary: 'serve recorded sessions to an ACP client (Zed, JetBrains…) as a read-only ACP agent on stdio',
  usage: USAGE,
  async run(io) {
    const parsed = parseCommandArgs({ args: io.argv, allowPositionals: true, options: { store: { type: 'string' } } });
    const url = parsed.values.store;
    if (url !== undefined && parsed.positionals.length) throw new UsageError('give either --store URL or FILE..., not both');
    if (url === undefined && !parsed.positionals.length) throw new UsageError('name the recordings to serve (FILE... or directories), or --store URL');
    // stdin is the protocol channel: it cannot also be an input.
    if (parsed.positionals.includes('-')) throw new UsageError('"-" cannot be an input: stdin carries the ACP messages');
    let source: SessionSource;
    let store: EventStore | undefined;
    if (url !== undefined) {
      try {
        store = await openStore(url, { cwd: io.cwd, create: false, readOnly: true });
      } catch (e) {
        io.stderr.write(`toolnorm acp: cannot open ${storeError(describeStoreUrl(url), e).message}\n`);
        return 1;
      }
      source = new StoreSource(store, io.cwd);
    } else {
      let inputs: Input[];
      try {
        inputs = resolveInputs(parsed.positionals, io.cwd, io.stdin);
      } catch (e) {
        io.stderr.write(`toolnorm acp: ${(e as Error).message}\n`);
        return 1;
      }
      if (!inputs.length) {
        io.stderr.write('toolnorm acp: no input files found\n');
        return 1;
      }
      source = new RecordingSource(inputs, io.cwd, (m) => io.stderr.write(`toolnorm acp: ${m}\n`));
    }
    try {
      await new ReadOnlyAgent(source, { name: 'toolnorm', version: VERSION }).serve(io.stdin, io.stdout);
      return 0;
    } catch (e) {
      io.stderr.write(`toolnorm acp: ${(e as Error).message}\n`);
      return 1;
    } finally {
      await store?.close();
    }
  },
};
