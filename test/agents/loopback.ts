// The command line that runs an agent against its loopback model in a network namespace of its
// own: what the tests and `npm run record-fixture` hand to `toolnorm record -- …`.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ScenarioName } from './responses-model.js';

const LAUNCHER = fileURLToPath(new URL('./loopback-run.ts', import.meta.url));
/** tsx's loader, by file URL, so the launcher runs from any working directory. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface LoopbackRun {
  /** Which agent, so which model API and configuration (default codex). */
  agentName?: 'codex' | 'claude';
  scenario: ScenarioName;
  /** The agent's home (CODEX_HOME, CLAUDE_CONFIG_DIR), created pointing at the loopback model. */
  home: string;
  /** Also copy the agent's stdout to this new file. */
  tee?: string;
  /** Append each request the model got, as a JSON line. */
  requests?: string;
  /** Write how the agent ended here, `{"code":…,"signal":…}`. */
  status?: string;
  /** The agent binary and its arguments. */
  agent: readonly string[];
}

export function loopbackCommand(r: LoopbackRun): string[] {
  return [
    'unshare', '--net', '--',
    process.execPath, '--import', TSX, LAUNCHER,
    '--agent', r.agentName ?? 'codex', '--scenario', r.scenario, '--home', r.home,
    ...(r.tee ? ['--tee', r.tee] : []),
    ...(r.requests ? ['--requests', r.requests] : []),
    ...(r.status ? ['--status', r.status] : []),
    '--', ...r.agent,
  ];
}
