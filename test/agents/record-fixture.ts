// `npm run record-fixture -- [--agent codex|claude] --scenario NAME --out FILE`: records a new
// fixture with a real agent CLI (Codex, or Claude Code) against its loopback model, through
// `toolnorm record` itself: FILE is the raw recording (the agent's stdout, byte for byte), and the
// live parts are printed on stdout. The agent
// works in a fixed folder, /tmp/toolnorm-fixture/work (work/ and home/ there are emptied first; --work DIR for another), so
// paths inside recordings are the same on every machine and a re-recording diffs cleanly. Needs TOOLNORM_AGENTS_DIR (see
// docs/record.md). Exit: Codex's status (the `fail` scenario exits 1 on purpose).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { codexBin, codexExecArgs, CODEX_VERSION } from './codex.js';
import { claudeArgs, claudeBin, CLAUDE_PACKAGE } from './claude.js';
import { loopbackCommand } from './loopback.js';
import { SCENARIO_NAMES, type ScenarioName } from './responses-model.js';

const DEFAULT_WORK_ROOT = '/tmp/toolnorm-fixture';
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Per agent: where its binary is, its arguments, and the package that holds it. */
const AGENTS = {
  codex: { bin: codexBin, args: codexExecArgs, pkg: `@openai/codex@${CODEX_VERSION}` },
  claude: { bin: claudeBin, args: claudeArgs, pkg: CLAUDE_PACKAGE },
};

const { values } = parseArgs({ options: { agent: { type: 'string', default: 'codex' }, scenario: { type: 'string' }, out: { type: 'string' }, prompt: { type: 'string', default: 'make hello.txt' }, to: { type: 'string', default: 'parts' }, work: { type: 'string', default: DEFAULT_WORK_ROOT } } });
const WORK_ROOT = resolve(values.work!);
const usage = `usage: npm run record-fixture -- [--agent ${Object.keys(AGENTS).join('|')}] --scenario ${SCENARIO_NAMES.join('|')} --out FILE.jsonl [--prompt TEXT] [--to FORMAT] [--work DIR]`;
if (!Object.hasOwn(AGENTS, values.agent!) || !values.scenario || !SCENARIO_NAMES.includes(values.scenario as ScenarioName) || !values.out) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
const chosen = AGENTS[values.agent as keyof typeof AGENTS];
const bin = chosen.bin(process.env.TOOLNORM_AGENTS_DIR);
if (!bin) {
  process.stderr.write(`record-fixture: no ${values.agent} binary; run npm install --prefix DIR --no-save ${chosen.pkg} and set TOOLNORM_AGENTS_DIR=DIR\n`);
  process.exit(2);
}

// Only the two folders this script makes are emptied, never the --work folder itself.
const work = join(WORK_ROOT, 'work');
const home = join(WORK_ROOT, 'home');
for (const d of [work, home]) rmSync(d, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const out = resolve(values.out);
const agent = loopbackCommand({ agentName: values.agent as keyof typeof AGENTS, scenario: values.scenario as ScenarioName, home, agent: [bin, ...chosen.args(values.prompt!)] });
const child = spawn(process.execPath, ['--import', TSX, MAIN, 'record', '--raw', out, '--to', values.to!, '--', ...agent], { cwd: work, stdio: ['ignore', 'inherit', 'inherit'] });
child.once('close', (code, signal) => {
  process.stderr.write(`record-fixture: wrote ${values.out}; add it to a fixtures/<provider>/<case>/ folder with a case.json and the manifest, then UPDATE_GOLDEN=1 npx vitest run test/golden (docs/record.md)\n`);
  process.exitCode = signal ? 1 : code ?? 1;
});
