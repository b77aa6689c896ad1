// Whether a real agent binary can be run here. Under CI a missing binary (or the tools the loopback
// runs need) is a failure, so the suites never pass by skipping; elsewhere they are skipped with one
// visible line saying what to install.
import { spawnSync } from 'node:child_process';
import { codexBin, CODEX_VERSION } from './codex.js';

const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** The codex binary to run, or undefined (after a warning) when it is not installed outside CI. */
export function codexForTests(): string | undefined {
  const dir = process.env.TOOLNORM_AGENTS_DIR;
  const bin = codexBin(dir);
  const missing = !bin
    ? `the codex binary (${dir ? `not found in ${dir}/node_modules/.bin` : 'TOOLNORM_AGENTS_DIR is not set'}; install it with npm install --prefix DIR --no-save @openai/codex@${CODEX_VERSION} and set TOOLNORM_AGENTS_DIR=DIR)`
    : !has('unshare', ['--help']) ? 'unshare (util-linux), which gives the agent a network namespace of its own'
    : !has('ip', ['-V']) ? 'ip (iproute2), which brings up lo in that namespace'
    : undefined;
  if (!missing) return bin;
  if (process.env.CI) throw new Error(`real-agent suites must run under CI, but ${missing} is missing (.ci/run installs it)`);
  console.warn(`[toolnorm tests] real-agent suites SKIPPED: missing ${missing}`);
  return undefined;
}
