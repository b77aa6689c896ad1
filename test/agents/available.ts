// Whether a real agent binary can be run here. Under CI a missing binary (or the tools the loopback
// runs need) is a failure, so the suites never pass by skipping; elsewhere they are skipped with one
// visible line saying what to install.
import { spawnSync } from 'node:child_process';
import { codexBin, CODEX_VERSION } from './codex.js';
import { claudeBin, CLAUDE_PACKAGE } from './claude.js';

const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** A binary found (or not) in TOOLNORM_AGENTS_DIR, and what to install when not. */
function agentForTests(name: string, find: (dir: string | undefined) => string | undefined, pkg: string): string | undefined {
  const dir = process.env.TOOLNORM_AGENTS_DIR;
  const bin = find(dir);
  const missing = !bin
    ? `the ${name} binary (${dir ? `not found in ${dir}` : 'TOOLNORM_AGENTS_DIR is not set'}; install it with npm install --prefix DIR --no-save ${pkg} and set TOOLNORM_AGENTS_DIR=DIR)`
    : !has('unshare', ['--help']) ? 'unshare (util-linux), which gives the agent a network namespace of its own'
    : !has('ip', ['-V']) ? 'ip (iproute2), which brings up lo in that namespace'
    : undefined;
  if (!missing) return bin;
  if (process.env.CI) throw new Error(`real-agent suites must run under CI, but ${missing} is missing (.ci/run installs it)`);
  console.warn(`[toolnorm tests] real-agent suites of ${name} SKIPPED: missing ${missing}`);
  return undefined;
}

/** The codex binary to run, or undefined (after a warning) when it is not installed outside CI. */
export const codexForTests = () => agentForTests('codex', codexBin, `@openai/codex@${CODEX_VERSION}`);
/** The Claude Code binary to run, likewise. */
export const claudeForTests = () => agentForTests('claude', claudeBin, CLAUDE_PACKAGE);
