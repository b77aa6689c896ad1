// Runs a real agent binary (Codex: responses-model.ts; Claude Code: messages-model.ts) against its loopback model, inside the fresh network namespace it is
// started in (`unshare --net`, see loopbackCommand): only `lo` exists there, so whatever else the
// agent tries to reach (Codex resolves chatgpt.com and api.github.com at start-up) fails on the spot
// and no packet leaves the machine. The agent's stdout is the launcher's stdout, untouched, or, with
// --tee FILE, also copied to FILE as it comes, so a test can compare what the agent wrote with
// what `toolnorm record` kept. Signals are forwarded to the agent and its end is this process's
// end (the same exit code, or the same signal), as the `codex` npm launcher does.
//
//   loopback-run.ts [--agent codex|claude] --scenario NAME --home DIR [--tee FILE] [--requests FILE] [--status FILE] -- COMMAND [ARGS...]
//
// --requests appends each request the model got as a JSON line; --status writes how the agent
// ended, {"code":…,"signal":…}.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SCENARIO_NAMES, startResponsesModel, type ModelRequest, type ScenarioName } from './responses-model.js';
import { startMessagesModel } from './messages-model.js';
import { CODEX_KEY_ENV, writeCodexHome } from './codex.js';
import { claudeEnv } from './claude.js';

/** Per agent: its loopback model, and the home and environment that point the agent at it. */
const AGENTS = {
  codex: async (scenario: ScenarioName, home: string, log?: (r: ModelRequest) => void) => {
    const model = await startResponsesModel(scenario, log);
    writeCodexHome(home, model.baseUrl);
    return { model, env: { ...process.env, CODEX_HOME: home, [CODEX_KEY_ENV]: 'loopback' } };
  },
  claude: async (scenario: ScenarioName, home: string, log?: (r: ModelRequest) => void) => {
    const model = await startMessagesModel(scenario, process.cwd(), log);
    return { model, env: claudeEnv(home, model.baseUrl, process.env) };
  },
};
type AgentName = keyof typeof AGENTS;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function fail(message: string): never {
  process.stderr.write(`loopback-run: ${message}\n`);
  process.exit(125);
}

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
if (split < 0 || split === argv.length - 1) fail('usage: loopback-run.ts [--agent codex|claude] --scenario NAME --home DIR [--tee FILE] [--requests FILE] [--status FILE] -- COMMAND [ARGS...]');
const { values } = parseArgs({ args: argv.slice(0, split), options: { agent: { type: 'string', default: 'codex' }, scenario: { type: 'string' }, home: { type: 'string' }, tee: { type: 'string' }, requests: { type: 'string' }, status: { type: 'string' } } });
const [command, ...args] = argv.slice(split + 1) as [string, ...string[]];
const scenario = values.scenario as ScenarioName;
if (!SCENARIO_NAMES.includes(scenario)) fail(`unknown --scenario "${values.scenario}"; expected one of ${SCENARIO_NAMES.join(', ')}`);
if (!values.home) fail('--home DIR is required');
if (!Object.hasOwn(AGENTS, values.agent!)) fail(`unknown --agent "${values.agent}"; expected ${Object.keys(AGENTS).join(', ')}`);

// Never run outside an isolated namespace: there the agent could reach the network.
// /proc/self/net/dev lists the links of this process's namespace (/sys/class/net shows the host's).
const links = readFileSync('/proc/self/net/dev', 'utf8').split('\n').slice(2).map((l) => l.split(':')[0]!.trim()).filter(Boolean);
if (links.some((l) => l !== 'lo')) fail(`not in an isolated network namespace (links: ${links.join(', ')}); start this under \`unshare --net\``);
const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (up.status !== 0) fail(`cannot bring up lo in the new network namespace (ip: ${up.error?.message ?? `status ${up.status}`})`);

const { model, env } = await AGENTS[values.agent as AgentName](scenario, values.home, values.requests ? (r) => appendFileSync(values.requests!, `${JSON.stringify(r)}\n`) : undefined);

const tee = values.tee ? openSync(values.tee, 'wx') : undefined;
const child = spawn(command, args, { stdio: ['inherit', tee === undefined ? 'inherit' : 'pipe', 'inherit'], env });
if (tee !== undefined) {
  child.stdout!.on('data', (chunk: Buffer) => {
    let done = 0;
    while (done < chunk.length) done += writeSync(tee, chunk, done, chunk.length - done);
    // Backpressure: the agent waits while our reader does, as it would on a direct pipe.
    if (!process.stdout.write(chunk)) {
      child.stdout!.pause();
      process.stdout.once('drain', () => child.stdout!.resume());
    }
  });
}
const forward = (s: NodeJS.Signals) => child.kill(s);
for (const s of SIGNALS) process.on(s, forward);
child.once('error', (err) => fail(`cannot run ${command}: ${err.message}`));
child.once('close', (code, signal) => {
  for (const s of SIGNALS) process.off(s, forward);
  if (values.status) writeFileSync(values.status, JSON.stringify({ code, signal }));
  void model.close().then(() => {
    // Everything the agent wrote is handed on before this process ends the way the agent did.
    process.stdout.write('', () => {
      if (signal) process.kill(process.pid, signal);
      else process.exit(code ?? 1);
    });
  });
});
