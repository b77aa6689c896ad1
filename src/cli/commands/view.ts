// `toolnorm view`: a session's tool calls as one self-contained HTML timeline, or served live.
// The viewer itself (src/view) is loaded only when this command runs.
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import { PassThrough, type Readable } from 'node:stream';
import { watchInterrupts } from '../interrupts.js';

const USAGE = `Usage: toolnorm view [options] FILE...|-
       toolnorm view --store URL --session ID [options]
       toolnorm view --store URL --session ID --serve --follow [--port P]

Writes one self-contained HTML page (inline CSS and script, no network request, opens from
disk) showing every tool call of a session on a timeline: nesting of subagent calls, kind, title,
state, duration, errors, and input/output/metadata on demand, with filters. Inputs are provider
recordings (any format \`toolnorm normalize\` reads, detected the same way) or a stored session.

Options:
  -o, --out FILE      where to write the page (default toolnorm-view.html; - for stdout)
  --from F            input format of FILE... (default auto)
  --store URL         read a stored session: sqlite:PATH or postgres://… (default sqlite:.toolnorm/events.db)
  --session ID        the stored session to show (\`toolnorm sessions\` lists them)
  --compress          compress big outputs with the default specs; the page shows the compressed
                      view, the original size and (unless --omit-full) the full text
  --omit-full         leave the full text of compressed outputs out of the page (smaller file)
  --serve             serve the page on 127.0.0.1 instead of writing it
  --port P            port for --serve (default: any free port; the URL is printed on stderr)
  --follow            with --serve and --session: stream parts appended to the store into the
                      open page (server-sent events) until Ctrl-C

Exit: 0, 1 when an input or the store cannot be read, 2 on bad usage; 130, 143 or 129 after
SIGINT, SIGTERM or SIGHUP (a page being written is finished first, one from stdin with what was
read until the signal; a second signal exits at once).`;

export const viewCommand: Command = {
  name: 'view',
  summary: 'write a self-contained HTML timeline of a session\'s tool calls, or serve it live from a store',
  usage: USAGE,
  async run(io) {
    const parsed = parseCommandArgs({
      args: io.argv,
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o' },
        from: { type: 'string', default: 'auto' },
        store: { type: 'string' },
        session: { type: 'string' },
        compress: { type: 'boolean', default: false },
        'omit-full': { type: 'boolean', default: false },
        serve: { type: 'boolean', default: false },
        port: { type: 'string' },
        follow: { type: 'boolean', default: false },
      },
    });
    const v = parsed.values;
    const fromStore = v.store !== undefined || v.session !== undefined;
    if (fromStore && !v.session) throw new UsageError('--store needs --session ID (`toolnorm sessions --store URL` lists them)');
    if (fromStore && parsed.positionals.length) throw new UsageError('give either FILE... or --store/--session, not both');
    if (!fromStore && !parsed.positionals.length) throw new UsageError('missing FILE... (or --store URL --session ID)');
    if (v.follow && !(v.serve && fromStore)) throw new UsageError('--follow needs --serve and --session (it streams a store session into the page)');
    if (v.port !== undefined && !v.serve) throw new UsageError('--port applies to --serve only');
    if (v.out !== undefined && v.serve) throw new UsageError('--out does not apply to --serve');
    if (fromStore && v.compress) throw new UsageError('--compress applies to FILE... inputs; a store holds the compressions normalize --store recorded');
    let port: number | undefined;
    if (v.port !== undefined) {
      port = Number(v.port);
      if (!/^\d+$/.test(v.port) || port > 65535) throw new UsageError(`--port must be 0..65535, got "${v.port}"`);
    }
    const { runView } = await import('../../view/index.js');
    // SIGINT, SIGTERM, SIGHUP: --serve stops serving; a page being written is finished first.
    // Either way the exit code then says which signal it was.
    const interrupts = watchInterrupts();
    try {
      const code = await runView({
        files: parsed.positionals,
        store: v.store,
        session: v.session,
        out: v.out,
        from: v.from!,
        compress: v.compress!,
        omitFull: v['omit-full']!,
        serve: v.serve!,
        follow: v.follow!,
        port,
        signal: interrupts.signal,
      }, { ...io, stdin: cutAtSignal(io.stdin, parsed.positionals.includes('-'), interrupts.signal) });
      return interrupts.exitCode(code);
    } finally {
      interrupts.dispose();
    }
  },
};

/**
 * A page made from stdin (an agent still writing into the pipe) is cut at a stop signal: the viewer
 * reads stdin through a stream that ends there, so the page shows everything read until then
 * instead of waiting for the pipe to close.
 */
function cutAtSignal(stdin: Readable, used: boolean, signal: AbortSignal): Readable {
  if (!used) return stdin;
  const cut = new PassThrough();
  stdin.pipe(cut);
  signal.addEventListener('abort', () => {
    stdin.unpipe(cut);
    stdin.pause();
    cut.end();
  }, { once: true });
  return cut;
}
